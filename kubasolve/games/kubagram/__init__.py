"""Kubagram (Dutch letter-cube game): rules as data, move generation, and the game itself."""

from kubasolve.games.kubagram.movegen import KubagramSolver, SearchBudget, WordTable, best_move, best_words, compound_moves, solver_for
from kubasolve.games.kubagram.moves import Claim, CompoundMove, WordMove
from kubasolve.games.kubagram.position import KubagramPosition, TableWord, Tile
from kubasolve.games.kubagram.rules import KubagramRules

__all__ = [
    "Claim",
    "CompoundMove",
    "KubagramPosition",
    "KubagramRules",
    "KubagramSolver",
    "SearchBudget",
    "TableWord",
    "Tile",
    "WordMove",
    "WordTable",
    "best_move",
    "best_words",
    "compound_moves",
    "solver_for",
]
