"""kubasolve.games.kubagram"""
