"""Crossword tile game (Dutch Scrabble-type rules by default): board, tiles, move generation.

Kept free of heavy imports: ``import kubasolve.games.crossword`` compiles nothing. The names below are
loaded from their modules on first use (``from kubasolve.games.crossword import generate_moves``).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

_EXPORTS = {
    "Board": "board",
    "BoardLayout": "layout",
    "TileSet": "layout",
    "load_layout": "layout",
    "load_tiles": "layout",
    "CrosswordRules": "rules",
    "Placement": "movegen",
    "MoveList": "movegen",
    "generate_moves": "movegen",
    "best_move": "movegen",
    "count_moves": "movegen",
    "exchanges": "movegen",
    "score_placement": "scoring",
    "CrosswordAction": "game",
    "CrosswordState": "game",
    "GameRecord": "game",
    "Referee": "game",
    "default_referee": "game",
    "play_game": "game",
    "replay": "game",
    "parse_placement": "notation",
    "format_placement": "notation",
    "parse_gcg": "notation",
    "to_gcg": "notation",
    "parse_cgp": "notation",
    "to_cgp": "notation",
}

__all__ = [
    "Board",
    "BoardLayout",
    "CrosswordAction",
    "CrosswordRules",
    "CrosswordState",
    "GameRecord",
    "MoveList",
    "Placement",
    "Referee",
    "TileSet",
    "best_move",
    "count_moves",
    "default_referee",
    "exchanges",
    "format_placement",
    "generate_moves",
    "load_layout",
    "load_tiles",
    "parse_cgp",
    "parse_gcg",
    "parse_placement",
    "play_game",
    "replay",
    "score_placement",
    "to_cgp",
    "to_gcg",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})


if TYPE_CHECKING:  # pragma: no cover
    from kubasolve.games.crossword.board import Board
    from kubasolve.games.crossword.game import (
        CrosswordAction,
        CrosswordState,
        GameRecord,
        Referee,
        default_referee,
        play_game,
        replay,
    )
    from kubasolve.games.crossword.layout import BoardLayout, TileSet, load_layout, load_tiles
    from kubasolve.games.crossword.movegen import (
        MoveList,
        Placement,
        best_move,
        count_moves,
        exchanges,
        generate_moves,
    )
    from kubasolve.games.crossword.notation import format_placement, parse_cgp, parse_gcg, parse_placement, to_cgp, to_gcg
    from kubasolve.games.crossword.rules import CrosswordRules
    from kubasolve.games.crossword.scoring import score_placement
