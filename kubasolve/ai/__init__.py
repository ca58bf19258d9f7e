"""kubasolve.ai"""
