"""Scruble Cube: a 4x4x4 twisty cube of letter pegs; words are read along its belts after twists.

Rules as data (:class:`ScrubleRules`), the cube and its notation (:class:`Cube`, :func:`parse_twists`), the solver
(:func:`best_words`, :func:`search` with a :class:`StateBudget`) and the game (:class:`ScrubleGame`, :class:`Turn`).
See ``docs/scruble.md``.
"""

from kubasolve.games.scruble.cube import format_twists, parse_twists
from kubasolve.games.scruble.game import ScrubleGame, Turn, play_game
from kubasolve.games.scruble.position import Cube
from kubasolve.games.scruble.rules import ScrubleRules
from kubasolve.games.scruble.solver import StateBudget, WordMove, best_words, search, warm_up

__all__ = [
    "Cube",
    "ScrubleGame",
    "ScrubleRules",
    "StateBudget",
    "Turn",
    "WordMove",
    "best_words",
    "format_twists",
    "parse_twists",
    "play_game",
    "search",
    "warm_up",
]
