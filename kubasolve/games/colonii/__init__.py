"""Word colonies ("colonii"): the Romanian letter-card game.

Players build words from letter cards, extend any word, conquer other players' words and grow
chains of words (colonies). See ``docs/colonii.md`` for the rules and every documented choice.
"""

from kubasolve.games.colonii.game import (
    ColoniiState,
    Referee,
    TurnAction,
    default_referee,
    play_game,
    replay,
)
from kubasolve.games.colonii.movegen import (
    ColoniiSolver,
    MoveTable,
    Turn,
    all_moves,
    best_turn,
    solver_for,
)
from kubasolve.games.colonii.rules import ColoniiRules
from kubasolve.games.colonii.table import (
    ColoniiMove,
    ColoniiPosition,
    Group,
    MoveKind,
    judge,
)

__all__ = [
    "ColoniiMove",
    "ColoniiPosition",
    "ColoniiRules",
    "ColoniiSolver",
    "ColoniiState",
    "Group",
    "MoveKind",
    "MoveTable",
    "Referee",
    "Turn",
    "TurnAction",
    "all_moves",
    "best_turn",
    "default_referee",
    "judge",
    "play_game",
    "replay",
    "solver_for",
]
