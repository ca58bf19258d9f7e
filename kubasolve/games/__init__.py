"""kubasolve.games"""
