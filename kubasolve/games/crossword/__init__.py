"""Crossword tile game (Dutch Scrabble-type rules by default): board, tiles, move generation.

Kept free of heavy imports: ``import kubasolve.games.crossword`` compiles nothing.
"""
