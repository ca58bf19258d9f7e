"""Rummikub: rules as data, tile text, the exact move solver and whole games.

Public API: :class:`RummikubRules`, :func:`solve` (also exported as ``solve_rummikub``), :class:`Objective`,
:class:`Solution`, tile helpers (:func:`parse_tiles`, :func:`parse_table`, :func:`format_table`) and the
game engine :class:`RummikubGame`.
"""

from kubasolve.games.rummikub.game import RummikubGame
from kubasolve.games.rummikub.rules import RummikubRules
from kubasolve.games.rummikub.sets import (
    arrange_set,
    is_valid_set,
    set_problem,
    set_value,
)
from kubasolve.games.rummikub.solver import Objective, Solution, check_play, joker_retrieval_problem, solve
from kubasolve.games.rummikub.tiles import (
    format_table,
    format_tiles,
    parse_table,
    parse_tile,
    parse_tiles,
    tile_name,
)

solve_rummikub = solve

__all__ = [
    "Objective",
    "RummikubGame",
    "RummikubRules",
    "Solution",
    "arrange_set",
    "check_play",
    "format_table",
    "format_tiles",
    "is_valid_set",
    "joker_retrieval_problem",
    "parse_table",
    "parse_tile",
    "parse_tiles",
    "set_problem",
    "set_value",
    "solve",
    "solve_rummikub",
    "tile_name",
]
