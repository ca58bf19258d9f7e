"""Data files of the crossword game (board layouts, tile sets)."""
