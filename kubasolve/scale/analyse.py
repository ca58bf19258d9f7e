"""Batch analysis: the best moves of every position in a JSON-lines file, one answer line per input line.

Each input line is the ``params`` object of the game's analysis command of the engine (for Kubagram
``kubagram.best-move``, for Rummikub ``rummikub.solve``, ...), so a position is written exactly as a
frontend sends it, and it is validated by the same declared schema. Each output line is
``{"line": N, "ok": true, "result": {...}}`` or ``{"line": N, "ok": false, "error": {...}}``: a bad
line (not UTF-8, not JSON, nested too deeply, refused by the schema) costs its own answer, never the
batch, on every backend; a batch whose worker process keeps dying gets an error answer per line. Lines are sent to the workers in batches; the answers come
back in input order whatever the backend or the number of workers.
"""

from __future__ import annotations

import json
import logging
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
log = logging.getLogger("kubasolve.scale")


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


def _answer_batch(batch: tuple[str, list[tuple[int, str | bytes]]]) -> list[dict[str, Any]]:
    """Worker: answer each ``(line number, text)`` of the batch with the engine's command ``cmd``; a line
    that fails in any way (not UTF-8, not JSON, nested too deeply, a bug) gets its own error answer."""
    if _SESSION is None:
        _init_worker()
    cmd, lines = batch
    return [_answer_line(cmd, number, text) for number, text in lines]


def _answer_line(cmd: str, number: int, text: str | bytes) -> dict[str, Any]:
    from kubasolve.engine.server import handle_request

    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        json.loads(text)
    except UnicodeDecodeError as exc:
        return _failed(number, "bad-request", f"line {number} is not UTF-8 text ({exc.reason} at byte {exc.start})")
    except RecursionError:
        return _failed(number, "bad-request", f"line {number} is nested too deeply")
    except ValueError as exc:
        return _failed(number, "bad-request", f"line {number} is not JSON: {exc}")
    try:
        # The line is one whole JSON value, so it can stand in the envelope as it is (no second encoding).
        answer = handle_request('{"cmd": ' + json.dumps(cmd) + ', "params": ' + text + "}", _SESSION)
    except Exception as exc:  # handle_request never raises; if it ever does, only this line fails
        log.exception("internal error answering line %d", number)
        return _failed(number, "internal", f"internal error on line {number} ({type(exc).__name__}; details on stderr)")
    answer.pop("id", None)
    return {"line": number, **answer}


def _failed(number: int, code: str, message: str) -> dict[str, Any]:
    return {"line": number, "ok": False, "error": {"code": code, "message": message, "key": None}}


def _batch_failed(batch: tuple[str, list[tuple[int, str | bytes]]], error: BaseException) -> list[dict[str, Any]]:
    """Answers for a batch whose worker died every time it ran (or that failed outside the per-line guard)."""
    return [_failed(number, "internal", f"line {number} was not answered: {error}") for number, _ in batch[1]]


def split_lines(data: bytes) -> list[bytes]:
    """The lines of a JSON-lines file: split on ``\n`` only (JSON text may hold a raw U+2028 or other
    Unicode line breaks inside a string; ``str.splitlines`` would cut it there and shift every later
    line number). A trailing ``\r`` (Windows line ends) is dropped; no line is decoded here, so one that
    is not UTF-8 costs only its own answer."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return [line[:-1] if line.endswith(b"\r") else line for line in lines]


def analyse_lines(
    lines: Iterable[str | bytes],
    game: str,
    *,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
) -> Iterator[dict[str, Any]]:
    """Answer every non-blank line (numbered from 1) with the analysis of ``game``, in input order.

    A line (``str``, or ``bytes`` of UTF-8) that fails gets an error answer; every non-blank line gets
    exactly one answer, even when a worker process dies on it."""
    games = available_games()
    if game not in games:
        raise KubasolveError(f"no analysis for game {game!r}; available: {', '.join(games)}")
    cmd = ANALYSIS_COMMANDS[game]
    numbered = [(n, text) for n, text in enumerate(lines, 1) if text.strip()]
    batches = [(cmd, numbered[i : i + BATCH_LINES]) for i in range(0, len(numbered), BATCH_LINES)]
    for answers in run_ordered(_answer_batch, batches, workers=workers, backend=backend, address=address, init=_init_worker,
                               on_failure=_batch_failed):
        yield from answers
