"""kubasolve: move generator and solver for letter-cube and tile word games.

The public API is re-exported here lazily, so ``import kubasolve`` stays cheap: no word list is read
and no numba kernel is compiled until first use.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# public name -> module that defines it
_EXPORTS: dict[str, str] = {
    "Lexicon": "kubasolve.lexicon",
    "Alphabet": "kubasolve.lexicon",
    "load_lexicon": "kubasolve.lexicon",
    "KubagramRules": "kubasolve.games.kubagram",
    "KubagramPosition": "kubasolve.games.kubagram",
    "KubagramSolver": "kubasolve.games.kubagram",
    "TableWord": "kubasolve.games.kubagram",
    "Tile": "kubasolve.games.kubagram",
    "WordMove": "kubasolve.games.kubagram",
    "CompoundMove": "kubasolve.games.kubagram",
    "Claim": "kubasolve.games.kubagram",
    "best_words": "kubasolve.games.kubagram",
    "compound_moves": "kubasolve.games.kubagram",
    "best_move": "kubasolve.games.kubagram",
    "SearchBudget": "kubasolve.games.kubagram",
    "KubagramGameRules": "kubasolve.games.kubagram.game_rules",
    "KubagramGameState": "kubasolve.games.kubagram.state",
    "KubagramReferee": "kubasolve.games.kubagram.referee",
    "simulate_kubagram": "kubasolve.scale.selfplay",
    "simulate": "kubasolve.scale.selfplay",
    "replay_record": "kubasolve.scale.selfplay",
    "RummikubRules": "kubasolve.games.rummikub",
    "RummikubGame": "kubasolve.games.rummikub",
    "solve_rummikub": "kubasolve.games.rummikub",
    "KubasolveError": "kubasolve.errors",
    "LexiconError": "kubasolve.errors",
    "RulesError": "kubasolve.errors",
    "PositionError": "kubasolve.errors",
    "IllegalMoveError": "kubasolve.errors",
    "StateError": "kubasolve.errors",
    "Budget": "kubasolve.budget",
    "load_game": "kubasolve.games.protocol",
    "game_names": "kubasolve.games.protocol",
    "state_from_json": "kubasolve.games.protocol",
}

# a literal list, so that type checkers (mypy --strict in user code) see what is exported; tests check it
# against _EXPORTS
__all__ = [
    "__version__",
    "Lexicon",
    "Alphabet",
    "load_lexicon",
    "KubagramRules",
    "KubagramPosition",
    "KubagramSolver",
    "TableWord",
    "Tile",
    "WordMove",
    "CompoundMove",
    "Claim",
    "best_words",
    "compound_moves",
    "best_move",
    "SearchBudget",
    "KubagramGameRules",
    "KubagramGameState",
    "KubagramReferee",
    "simulate_kubagram",
    "simulate",
    "replay_record",
    "RummikubRules",
    "RummikubGame",
    "solve_rummikub",
    "KubasolveError",
    "LexiconError",
    "RulesError",
    "PositionError",
    "IllegalMoveError",
    "StateError",
    "Budget",
    "load_game",
    "game_names",
    "state_from_json",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'kubasolve' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


if TYPE_CHECKING:  # pragma: no cover
    from kubasolve.budget import Budget
    from kubasolve.errors import IllegalMoveError, KubasolveError, LexiconError, PositionError, RulesError, StateError
    from kubasolve.games.kubagram import (
        Claim,
        CompoundMove,
        KubagramPosition,
        KubagramRules,
        KubagramSolver,
        SearchBudget,
        TableWord,
        Tile,
        WordMove,
        best_move,
        best_words,
        compound_moves,
    )
    from kubasolve.games.kubagram.game_rules import KubagramGameRules
    from kubasolve.games.kubagram.referee import KubagramReferee
    from kubasolve.games.kubagram.state import KubagramGameState
    from kubasolve.games.protocol import game_names, load_game, state_from_json
    from kubasolve.games.rummikub import RummikubGame, RummikubRules, solve_rummikub
    from kubasolve.lexicon import Alphabet, Lexicon, load_lexicon
    from kubasolve.scale.selfplay import replay_record, simulate, simulate_kubagram
