"""The games, and the one protocol they all implement (:mod:`kubasolve.games.protocol`).

``load_game("crossword")`` gives a game object; ``game_names()`` lists the kinds; ``state_from_json(data)`` reads a
saved state back with its game. Importing this package loads no word list and no kernel.
"""

from kubasolve.games.protocol import (
    AiMove,
    Game,
    LegalMove,
    LegalMoves,
    Result,
    State,
    game_names,
    load_game,
    register_game,
    state_from_json,
)

__all__ = ["AiMove", "Game", "LegalMove", "LegalMoves", "Result", "State", "game_names", "load_game", "register_game",
           "state_from_json"]
