"""Bounds on a Kubagram solver request, one set for every edge: the engine's schemas and the CLI's ``kubagram best``
use these, so neither accepts what the other refuses. Each is sized so that no request runs away (measured on one
core, warm; see docs/engine.md, "Kubagram solver commands")."""

from __future__ import annotations

from typing import Any

from kubasolve.errors import LimitError

MAX_FIELD = 108
"""Field tiles: the 108 cubes of the set (a real field never holds more)."""
MAX_CLAIM_FIELD = 32
"""Field tiles for a best claim (``best_move``): its search over up to 3 words grows steeply with the field (measured
worst of 8 random fields: 32 tiles 0.2 s, 36 tiles 2.7 s, 50 tiles 6 s, 60 tiles 27 s); real games hold ~10-20."""
MAX_CHOICE = 8
"""Jokers and choice (III) cubes together (3 jokers + a few III cubes in a game; 12 all-letter jokers took 7.5 s)."""
MAX_TABLE = 63
"""Words on the table (the compound search's bitset width)."""
MAX_TOP = 10_000
"""Most moves in one answer (``top``; "all" means up to this many): longer answers are not useful and only cost memory."""
MAX_WORD = 60
"""Letters in a word given in a request (a table word, a claimed word)."""


def check_request(position: Any, *, claim: bool = False) -> None:
    """Refuse (:class:`LimitError`) a position beyond the request bounds: more than :data:`MAX_FIELD` field tiles
    (:data:`MAX_CLAIM_FIELD` for a best ``claim``), more than :data:`MAX_CHOICE` jokers and choice cubes, more than
    :data:`MAX_TABLE` table words."""
    choice = sum(1 for t in position.tiles if not t.fixed)
    if choice > MAX_CHOICE:
        raise LimitError(f"at most {MAX_CHOICE} jokers and choice cubes together, got {choice}")
    most = MAX_CLAIM_FIELD if claim else MAX_FIELD
    if len(position.tiles) > most:
        raise LimitError(f"at most {most} field tiles{' for a best claim' if claim else ''}, got {len(position.tiles)}")
    if len(position.table) > MAX_TABLE:
        raise LimitError(f"at most {MAX_TABLE} words on the table, got {len(position.table)}")
