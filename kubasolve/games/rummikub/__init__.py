"""kubasolve.games.rummikub"""
