"""kubasolve.lexicon"""
