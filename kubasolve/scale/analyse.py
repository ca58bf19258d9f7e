"""Batch analysis: the best moves of every position in a JSON-lines file, one answer line per input line.

Each input line is a saved position of any game of the protocol: a state as ``Game.state_to_json`` writes it (the
engine's ``state``, ``play --save``), or ``{"state": <that>, "top": N, "movetime_ms": MS, "max_nodes": N}``; its
answer is the game's legal moves, best first (:meth:`kubasolve.games.protocol.Game.legal_moves`) with the common
result view. A caller may pass its own ``answer`` function (the engine's batch analysis,
:mod:`kubasolve.engine.batch`, answers a line written as the ``params`` of a game's analysis command with that
command). Each output line is ``{"line": N, "ok": true, "result": {...}}`` or ``{"line": N, "ok": false, "error":
{...}}``: a bad line (not UTF-8, not JSON, nested too deeply, refused) costs its own answer, never the batch, on
every backend; a batch whose worker process keeps dying gets an error answer per line. Lines are sent to the
workers in batches; the answers come back in input order whatever the backend or the number of workers.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from kubasolve.errors import KubasolveError
from kubasolve.scale.runner import run_ordered

__all__ = ["STATE_LINE_KEYS", "Answerer", "analyse_lines", "answer_state_line", "failed", "forget_games", "parse_line", "split_lines"]

Answerer = Callable[[str, int, "str | bytes"], dict[str, Any]]
"""``answer(game, line number, line text) -> answer``: a module-level function (workers receive it by name)."""
STATE_LINE_KEYS = ("state", "top", "movetime_ms", "max_nodes")
"""The keys of a line that wraps a saved state with its settings."""
DEFAULT_TOP = 10
BATCH_LINES = 32

log = logging.getLogger("kubasolve.scale")


class _NotStrictJSON(ValueError):
    """What Python's ``json`` module accepts but JSON (RFC 8259) and the engine do not."""


def _no_constant(name: str) -> Any:
    raise _NotStrictJSON(f"{name} is not a JSON value")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotStrictJSON(f"number {text[:40]} is out of range")
    return value


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            raise _NotStrictJSON(f"key {key[:40]!r} appears twice in one object (a key may appear once)")
        seen.add(key)
    return dict(pairs)


def parse_line(number: int, text: str | bytes) -> Any:
    """The JSON value of line ``number``; a :class:`KubasolveError` (``bad-request``) saying why it is none.

    As strict as the engine's requests: ``NaN``/``Infinity``, a number out of the float range, a key twice in one
    object (Python would keep the last silently) and a string holding a lone UTF-16 surrogate (``"\\ud800"``, which
    no answer could be written with) are refused, whichever way the line is then answered."""
    try:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        value = json.loads(text, parse_constant=_no_constant, parse_float=_finite, object_pairs_hook=_unique_keys)
        json.dumps(value, ensure_ascii=False).encode("utf-8")  # a lone surrogate fails here
        return value
    except UnicodeDecodeError as exc:
        raise KubasolveError(f"line {number} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except UnicodeEncodeError:
        raise KubasolveError(f"line {number}: a string holds a lone UTF-16 surrogate (\\ud800-\\udfff without its pair)") from None
    except RecursionError:
        raise KubasolveError(f"line {number} is nested too deeply") from None
    except ValueError as exc:
        raise KubasolveError(f"line {number} is not JSON: {exc}") from None


def is_state_line(data: Any) -> bool:
    """True for a line holding a protocol saved state (bare, or under ``state``)."""
    from kubasolve.games.protocol import STATE_FORMAT

    if not isinstance(data, Mapping):
        return False
    inner = data.get("state")
    return data.get("format") == STATE_FORMAT or (isinstance(inner, Mapping) and inner.get("format") == STATE_FORMAT)


_GAMES: dict[str, Any] = {}
"""The games of the saved states answered in this process, by (game, rules, lexicon name): built once."""


def forget_games() -> None:
    """Drop the games built for saved states (after the lexicons a name stands for changed)."""
    _GAMES.clear()


def answer_state_line(game: str, number: int, text: str | bytes,
                      make_game: Callable[[str, Mapping[str, Any]], Any] | None = None) -> dict[str, Any]:
    """Worker: the legal moves of the saved state on line ``number`` (a game of kind ``game``), or its error answer.
    ``make_game(game, saved state)``: the game of the state's rules and lexicon (default: the library's
    ``load_game``, which takes a lexicon's or a rules file's path too; the engine's batch analysis passes its own,
    which serves lexicons by name only)."""
    from kubasolve.games.protocol import STATE_FORMAT, load_game

    try:
        data = parse_line(number, text)
        if not is_state_line(data):
            raise KubasolveError(f"line {number}: a saved {game} state is expected (format {STATE_FORMAT!r}), or "
                                 f'{{"state": <it>, "top": N, "movetime_ms": MS, "max_nodes": N}}', key="state")
        params = {"state": data} if data.get("format") == STATE_FORMAT else dict(data)
        unknown = [k for k in params if k not in STATE_LINE_KEYS]
        if unknown:
            raise KubasolveError(f"{str(unknown[0])[:40]}: unknown key (known: {', '.join(STATE_LINE_KEYS)})", key=str(unknown[0])[:40])
        saved = params["state"]
        if saved.get("game") != game:
            raise KubasolveError(f"state.game: a {str(saved.get('game'))[:40]} state, not {game}", key="state.game")
        key = json.dumps([game, saved.get("rules"), saved.get("lexicon"), make_game is None], sort_keys=True, default=str)
        kind = _GAMES.get(key)
        if kind is None:
            made = load_game(game, saved.get("rules"), saved.get("lexicon")) if make_game is None else make_game(game, saved)
            kind = _GAMES[key] = made
        state = kind.state_from_json(saved)
        budget = _line_budget(params.get("movetime_ms"), params.get("max_nodes"))
        found = kind.legal_moves(state, params.get("top", DEFAULT_TOP), budget)
    except KubasolveError as exc:
        return failed(number, exc.code, str(exc), exc.key)
    return {"line": number, "ok": True, "result": {"game": game, **kind.result(state).to_dict(), **found.to_dict()}}


def _line_budget(movetime_ms: Any, max_nodes: Any) -> Any:
    """The :class:`~kubasolve.budget.Budget` of a state line: a bad value is a ``bad-request`` naming its key, as
    every other out-of-range parameter (docs/engine.md), not a ``bad-position``."""
    from kubasolve.budget import Budget, check_work_budget
    from kubasolve.errors import PositionError

    for name, nodes, ms in (("max_nodes", max_nodes, None), ("movetime_ms", None, movetime_ms)):
        try:
            check_work_budget(nodes, ms)
        except PositionError as exc:
            raise KubasolveError(str(exc), key=name) from None
    return Budget(movetime_ms, max_nodes)


@dataclass(frozen=True)
class _Init:
    """A worker's start: import the modules that register games, then the caller's own ``init``."""

    game_modules: tuple[str, ...] = ()
    then: Callable[[], None] | None = None

    def __call__(self) -> None:
        if self.game_modules:
            from kubasolve.games.protocol import import_game_modules

            import_game_modules(list(self.game_modules))
        if self.then is not None:
            self.then()


def _answer_batch(batch: tuple[str, Answerer, list[tuple[int, str | bytes]]]) -> list[dict[str, Any]]:
    """Worker: answer each ``(line number, text)`` of the batch; a line that fails in any way (a bug included) gets
    its own error answer."""
    game, answer, lines = batch
    out = []
    for number, text in lines:
        try:
            out.append(answer(game, number, text))
        except Exception as exc:  # an answerer never raises; if it ever does, only this line fails
            log.exception("internal error answering line %d", number)
            out.append(failed(number, "internal", f"internal error on line {number} ({type(exc).__name__}; details on stderr)"))
    return out


def failed(number: int, code: str, message: str, key: str | None = None) -> dict[str, Any]:
    """The error answer of line ``number``."""
    return {"line": number, "ok": False, "error": {"code": code, "message": message, "key": key}}


def _batch_failed(batch: tuple[str, Answerer, list[tuple[int, str | bytes]]], error: BaseException) -> list[dict[str, Any]]:
    """Answers for a batch whose worker died every time it ran (or that failed outside the per-line guard)."""
    return [failed(number, "internal", f"line {number} was not answered: {error}") for number, _ in batch[2]]


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
    answer: Answerer | None = None,
    init: Callable[[], None] | None = None,
    game_modules: Sequence[str] = (),
) -> Iterator[dict[str, Any]]:
    """Answer every non-blank line (numbered from 1) of positions of ``game`` (any game kind), in input order.

    ``answer``: how a worker answers a line (default :func:`answer_state_line`: saved states); ``init``: what a worker
    does once first; ``game_modules``: modules that register games outside the package (imported in every worker).
    A line (``str``, or ``bytes`` of UTF-8) that fails gets an error answer; every non-blank line gets exactly one
    answer, even when a worker process dies on it."""
    from kubasolve.games.protocol import game_names, import_game_modules

    if isinstance(lines, (str, bytes, bytearray)):  # iterating it would make every character a line
        raise KubasolveError(f"lines must be the lines (an iterable of str or bytes), not one {type(lines).__name__}: split it "
                             "first (kubasolve.scale.analyse.split_lines for a file's bytes)", key="lines")
    if game_modules:
        import_game_modules(list(game_modules))
    if game not in game_names():
        raise KubasolveError(f"no game {game!r}; known: {', '.join(game_names())}", key="game")
    numbered = [(n, text) for n, text in enumerate(lines, 1) if text.strip()]
    how = answer or answer_state_line
    batches = [(game, how, numbered[i : i + BATCH_LINES]) for i in range(0, len(numbered), BATCH_LINES)]
    for answers in run_ordered(_answer_batch, batches, workers=workers, backend=backend, address=address,
                               init=_Init(tuple(game_modules), init), on_failure=_batch_failed):
        yield from answers
