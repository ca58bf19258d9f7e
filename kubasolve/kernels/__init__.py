"""kubasolve.kernels"""
