"""Bounds on a request, one set for every edge: the engine's schemas, the CLI's flags and the library's checks take
them from here, so neither edge accepts what the other refuses. Each is sized so that no request runs away (the
measurements are in the docstrings). A light module (no numpy), so the engine and the CLI can import it at once."""

from __future__ import annotations

from typing import Any

from kubasolve.errors import KubasolveError, LimitError

# ------------------------------------------------------------------------------------------------ seeds
MAX_SEED = 2**63 - 1
"""Largest seed (deal seeds, AI seeds, self-play master seeds), the same in the library, the CLI (``--seed``) and the
engine (``seed``): a whole number from 0 to 2**63 - 1. The seeds self-play derives for its games (a record's ``seed``)
are below 2**62, so every record's deal can be given back as a seed anywhere. Seeds above 2**53 - 1 are the one
exception to the engine's JSON-safe integer ceiling (a JavaScript client reads them with a big-integer parser)."""


def check_seed(seed: Any, key: str = "seed", error: type[KubasolveError] = KubasolveError) -> int:
    """``seed`` when it is a whole number from 0 to :data:`MAX_SEED` (not a bool, a float or a string), else ``error``
    naming ``key``: one rule for every game and every edge."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise error(f"{key} must be a whole number from 0 to {MAX_SEED} (2**63 - 1), got {repr(seed)[:40]}", key=key)
    return seed


# ------------------------------------------------------------------------------------------------ Kubagram solver
KUBAGRAM_MAX_FIELD = 108
"""Field tiles: the 108 cubes of the set (a real field never holds more)."""
KUBAGRAM_MAX_CLAIM_FIELD = 32
"""Field tiles for a best claim (``best_move``): its search over up to 3 words grows steeply with the field (measured
worst of 8 random fields: 32 tiles 0.2 s, 36 tiles 2.7 s, 50 tiles 6 s, 60 tiles 27 s); real games hold ~10-20."""
KUBAGRAM_MAX_CHOICE = 8
"""Jokers and choice (III) cubes together (3 jokers + a few III cubes in a game; 12 all-letter jokers took 7.5 s)."""
KUBAGRAM_MAX_TABLE = 63
"""Words on the table (the compound search's bitset width)."""
KUBAGRAM_MAX_TOP = 10_000
"""Most moves in one answer (``top``; "all" means up to this many): longer answers are not useful and only cost memory."""
KUBAGRAM_MAX_WORD = 60
"""Letters in a word given in a request (a table word, a claimed word)."""

# ------------------------------------------------------------------------------------------------ Kubagram AIs
KUBAGRAM_MAX_PLANNER_DEPTH = 30
"""Deepest ``planner:DEPTH`` (turns rolled out per option)."""
KUBAGRAM_MAX_SEARCH_NODES = 100_000
"""Largest ``search:NODES`` and AI ``max_nodes``: simulated turns (0.1-2 ms each, so at most a few minutes)."""

# ------------------------------------------------------------------------------------------------ Rummikub
RUMMIKUB_MAX_CANDIDATE_SETS = 150_000
"""Largest catalogue of legal sets of a variant, which the solver builds (once per rule set) before any search:
measured 1,649 sets for the rulebook (instant), 92,775 (8 colours, 4 jokers) 1.2 s, ~490,000 (26 numbers, 3 jokers)
10 s, ~4,000,000 (26 numbers, 8 colours, 4 jokers) 70-106 s and 2.2 GB
(:func:`kubasolve.games.rummikub.sets.check_variant_size`)."""

# ------------------------------------------------------------------------------------------------ crossword
CROSSWORD_MAX_LISTED = 10_000
"""Most placements listed (``top``; "all" means up to this many; the count stays exact): each listed move is decoded
in Python (~80-200 µs), and an open board with two blanks has 50,000+ of them (8.9 s for all 49,432 of ??AEIRS on
the empty board, load 10)."""
CROSSWORD_MAX_ENDGAME_THREADS = 16
"""Most search threads of the exact endgame solver (each helper thread has its own ~0.22 GB line cache and arena;
more threads than cores only share the cores)."""
CROSSWORD_MAX_SIM_ITERATIONS = 1000
"""Most opponent racks a simulating AI samples per candidate (``iterations``)."""
CROSSWORD_MAX_SIM_CANDIDATES = 50
"""Most equity candidates a simulating AI simulates (``candidates``)."""

# ------------------------------------------------------------------------------------------------ Scruble Cube
SCRUBLE_MAX_TOP = 4096
"""Most words in one ``best`` answer (``top``; "all" means up to this many): depth 3 with top 4096 takes about a
second."""


def check_kubagram_request(position: Any, *, claim: bool = False) -> None:
    """Refuse (:class:`LimitError`) a Kubagram position beyond the request bounds: more than
    :data:`KUBAGRAM_MAX_FIELD` field tiles (:data:`KUBAGRAM_MAX_CLAIM_FIELD` for a best ``claim``), more than
    :data:`KUBAGRAM_MAX_CHOICE` jokers and choice cubes, more than :data:`KUBAGRAM_MAX_TABLE` table words."""
    choice = sum(1 for t in position.tiles if not t.fixed)
    if choice > KUBAGRAM_MAX_CHOICE:
        raise LimitError(f"at most {KUBAGRAM_MAX_CHOICE} jokers and choice cubes together, got {choice}")
    most = KUBAGRAM_MAX_CLAIM_FIELD if claim else KUBAGRAM_MAX_FIELD
    if len(position.tiles) > most:
        raise LimitError(f"at most {most} field tiles{' for a best claim' if claim else ''}, got {len(position.tiles)}")
    if len(position.table) > KUBAGRAM_MAX_TABLE:
        raise LimitError(f"at most {KUBAGRAM_MAX_TABLE} words on the table, got {len(position.table)}")
