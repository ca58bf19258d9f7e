"""Batch analysis: the best moves of every position in a JSON-lines file, one answer line per input line.

Each input line is the ``params`` object of the game's analysis command of the engine (for Kubagram
``kubagram.best-move``, for Rummikub ``rummikub.solve``, ...), so a position is written exactly as a
frontend sends it, and it is validated by the same declared schema. Each output line is
``{"line": N, "ok": true, "result": {...}}`` or ``{"line": N, "ok": false, "error": {...}}``: a bad
line costs its own answer, never the batch. Lines are sent to the workers in batches; the answers come
back in input order whatever the backend or the number of workers.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from kubasolve.errors import KubasolveError
from kubasolve.scale.runner import run_ordered

ANALYSIS_COMMANDS: dict[str, str] = {
    "kubagram": "kubagram.best-move",
    "rummikub": "rummikub.solve",
    "crossword": "crossword.moves",
    "scruble": "scruble.best",
    "colonii": "colonii.best-turn",
}
"""Game name -> the engine command that analyses one of its positions."""

BATCH_LINES = 32

_SESSION: Any = None


def available_games() -> list[str]:
    """The games whose analysis command this installation's engine has."""
    from kubasolve.engine.registry import HANDLERS
    from kubasolve.engine.server import load_handlers

    load_handlers()
    return [game for game, cmd in ANALYSIS_COMMANDS.items() if cmd in HANDLERS]


def _init_worker() -> None:
    """Register the engine's commands once per worker and keep one session (loaded lexicons stay warm)."""
    global _SESSION
    from kubasolve.engine.registry import Session
    from kubasolve.engine.server import load_handlers

    load_handlers()
    _SESSION = Session()


def _answer_batch(batch: tuple[str, list[tuple[int, str]]]) -> list[dict[str, Any]]:
    """Worker: answer each ``(line number, text)`` of the batch with the engine's command ``cmd``."""
    from kubasolve.engine.server import handle_request

    if _SESSION is None:
        _init_worker()
    cmd, lines = batch
    out = []
    for number, text in lines:
        try:
            params = json.loads(text)
        except ValueError as exc:
            out.append({"line": number, "ok": False, "error": {"code": "bad-request", "message": f"line {number} is not JSON: {exc}"}})
            continue
        answer = handle_request(json.dumps({"cmd": cmd, "params": params}), _SESSION)
        answer.pop("id", None)
        out.append({"line": number, **answer})
    return out


def analyse_lines(
    lines: Iterable[str],
    game: str,
    *,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
) -> Iterator[dict[str, Any]]:
    """Answer every non-blank line (numbered from 1) with the analysis of ``game``, in input order."""
    games = available_games()
    if game not in games:
        raise KubasolveError(f"no analysis for game {game!r}; available: {', '.join(games)}")
    cmd = ANALYSIS_COMMANDS[game]
    numbered = [(n, text) for n, text in enumerate(lines, 1) if text.strip()]
    batches = [(cmd, numbered[i : i + BATCH_LINES]) for i in range(0, len(numbered), BATCH_LINES)]
    for answers in run_ordered(_answer_batch, batches, workers=workers, backend=backend, address=address, init=_init_worker):
        yield from answers
