"""The grammar of crossword AI names: the one place that says which names and ``NAME:OPTION`` forms exist.

``make_policy`` (:mod:`kubasolve.games.crossword.ai`), the game protocol's ``check_ai`` (so the CLI's ``--players``
and the engine's ``ai-move`` and ``simulate``) and the engine's v2 ``crossword.ai-move`` schema all read it; this
module imports nothing heavy, so the engine's schemas can be built from it at import.

A name is an AI, then options after ``:`` (they combine, each at most once, e.g. ``sim2:spread:400ms``):

- ``bounded``: the old bounded endgame search instead of the exact solver (every AI but ``score``);
- ``NODES``: the exact endgame solver's node budget per turn, 1 to 100,000,000;
- ``MSms``: a time budget per turn, 1 to 600,000 ms (``movetime_ms``; sim2's covers its simulation);
- ``learnt`` / ``linear``: the leave table (``equity2``, ``sim2``);
- ``win`` / ``spread``: sim2's objective; ``2ply`` / ``3ply``: the plies sim2 simulates.
"""

from __future__ import annotations

from typing import Any

from kubasolve.errors import RulesError

__all__ = ["AI_NAMES", "AI_NAME_FORMS", "AI_NAME_PATTERN", "MAX_NAME_MOVETIME_MS", "MAX_NAME_NODES", "parse_ai_name"]

AI_NAMES = ("score", "equity", "sim", "equity2", "sim2")
"""The crossword AIs, weakest first."""
MAX_NAME_NODES = 100_000_000
"""Largest endgame node budget a name sets (``equity:NODES``)."""
MAX_NAME_MOVETIME_MS = 600_000
"""Largest time budget per turn a name sets (``sim2:MSms``)."""

WORD_OPTIONS: dict[str, tuple[dict[str, Any], tuple[str, ...]]] = {
    "bounded": ({"endgame_mode": "bounded"}, ("equity", "sim", "equity2", "sim2")),
    "learnt": ({"leave_table": "learnt"}, ("equity2", "sim2")),
    "linear": ({"leave_table": "linear"}, ("equity2", "sim2")),
    "win": ({"objective": "win"}, ("sim2",)),
    "spread": ({"objective": "spread"}, ("sim2",)),
    "2ply": ({"plies": 2}, ("sim2",)),
    "3ply": ({"plies": 3}, ("sim2",)),
}
"""The options that are words: the policy fields each sets, and the AIs that take it."""

AI_NAME_FORMS = (f"crossword AIs: {', '.join(AI_NAMES)}; every AI but score takes options after ':', combined at most "
                 f"once each (e.g. sim2:spread:400ms): bounded (the old endgame search), NODES (the endgame solver's "
                 f"node budget, 1 to {MAX_NAME_NODES}), MSms (a time budget per turn, 1ms to {MAX_NAME_MOVETIME_MS}ms); "
                 "equity2 and sim2 also learnt or linear (the leave table); sim2 also win or spread (its objective) "
                 "and 2ply or 3ply")
"""The forms, for messages and schema descriptions."""

AI_NAME_PATTERN = (rf"^(?:score|(?:{'|'.join(n for n in AI_NAMES if n != 'score')})"
                   rf"(?::(?:{'|'.join(WORD_OPTIONS)}|[0-9]{{1,{len(str(MAX_NAME_NODES))}}}"
                   rf"|[0-9]{{1,{len(str(MAX_NAME_MOVETIME_MS))}}}ms))*)$")
"""A regular expression of the names' syntax (the values' ranges and which AI takes which option:
:func:`parse_ai_name`); the engine's v2 ``crossword.ai-move`` schema uses it."""


def parse_ai_name(text: str) -> tuple[str, dict[str, Any]]:
    """(the AI, the policy fields its options set) of an AI name, exactly as written (lower case); a name outside the
    grammar is a :class:`~kubasolve.errors.RulesError` (key ``ai``) saying why and listing the forms."""
    base, _, args = text.partition(":")
    if base not in AI_NAMES:
        raise RulesError(f"unknown crossword AI {text!r}; {AI_NAME_FORMS}", key="ai")
    if not args:
        return base, {}
    if base == "score":
        raise RulesError(f"{text!r}: the score AI takes no option; {AI_NAME_FORMS}", key="ai")
    options: dict[str, Any] = {}
    for arg in args.split(":"):
        if arg in WORD_OPTIONS and base in WORD_OPTIONS[arg][1]:
            found = dict(WORD_OPTIONS[arg][0])
        elif arg.endswith("ms") and arg[:-2].isdigit() and arg[:-2].isascii():
            if not 1 <= int(arg[:-2]) <= MAX_NAME_MOVETIME_MS:
                raise RulesError(f"{base}:{arg}: the time budget is from 1ms to {MAX_NAME_MOVETIME_MS}ms; {AI_NAME_FORMS}", key="ai")
            found = {"movetime_ms": float(arg[:-2])}
        elif arg.isdigit() and arg.isascii():
            if not 1 <= int(arg) <= MAX_NAME_NODES:
                raise RulesError(f"{base}:{arg}: the node budget is from 1 to {MAX_NAME_NODES}; {AI_NAME_FORMS}", key="ai")
            found = {"endgame_mode": "exact", "endgame_nodes": int(arg)}
        else:
            raise RulesError(f"{base}:{arg}: the option is not one {base} takes; {AI_NAME_FORMS}", key="ai")
        if set(found) & set(options):
            raise RulesError(f"{text!r}: {arg!r} sets what an earlier option set; {AI_NAME_FORMS}", key="ai")
        options.update(found)
    return base, options
