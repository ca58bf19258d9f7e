"""The JSON-lines loop: one request object per input line, one answer object per output line.

Request: ``{"id": <string|integer|null>, "cmd": "<command>", "params": {...}}``.
Answer: ``{"id": ..., "ok": true, "result": {...}}`` or
``{"id": ..., "ok": false, "error": {"code": "...", "message": "...", "key": "..."}}``.

Whatever comes in, every non-blank line gets exactly one answer, in strict JSON and valid UTF-8:
input is read as bytes in bounded chunks (a line over ``LIMITS["line_bytes"]`` is refused without
being parsed), decoded per line (invalid UTF-8 is a bad request), parsed with msgspec (no recursion
crash on deep nesting, no NaN), and the answer encoder replaces anything unencodable. A bug in a
command is an ``internal`` error answer (the traceback goes to stderr, never into the answer) and the
loop goes on. See ``docs/engine.md``.
"""

from __future__ import annotations

import difflib
import importlib
import io
import json
import logging
import os
import pkgutil
import queue
import re
import sys
import threading
from collections.abc import Iterable, Iterator
from typing import IO, Annotated, Any

import msgspec

from kubasolve.engine.registry import (
    COMMANDS,
    LIMITS,
    MAX_INT,
    Meta,
    Session,
    decode_params,
    validation_error,
)
from kubasolve.errors import KubasolveError, LimitError, UnknownCommandError

PROTOCOL_VERSION = 3
READ_AHEAD = 64
"""Lines the reader thread queues ahead of the one being answered (a bound on memory: each at most 1 MiB); a
``stop`` is seen as soon as it is read."""

log = logging.getLogger("kubasolve.engine")

RequestId = Annotated[str, Meta(max_length=256)] | Annotated[int, Meta(ge=-MAX_INT, le=MAX_INT)] | None
_ENVELOPE_KEYS = ("id", "cmd", "params")
_EMPTY_PARAMS = b"{}"
_LEADING_ID = re.compile(r'\s*\{\s*"id"\s*:\s*(?P<id>-?\d{1,20}|"(?:[^"\\]|\\.){0,256}"|null)\s*[,}]')
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


UNAVAILABLE: dict[str, str] = {}
"""Command modules that failed to import (module name -> the error), published by ``hello``."""
_loaded = False


def load_handlers() -> None:
    """Import every ``kubasolve/engine/commands_*.py`` module once: importing one registers its commands.

    Kept lazy (first request, not ``import kubasolve``) so the package import stays light; a game adds
    its commands by adding such a module, nothing else. A module that fails to import is logged and
    skipped (listed in ``UNAVAILABLE``): one broken game never takes the other games' commands down.
    """
    global _loaded
    if _loaded:
        return
    _loaded = True
    import kubasolve.engine as package

    for info in pkgutil.iter_modules(package.__path__):
        if info.name.startswith("commands_"):
            try:
                importlib.import_module(f"kubasolve.engine.{info.name}")
            except Exception as exc:
                UNAVAILABLE[info.name] = f"{type(exc).__name__}: {exc}"
                log.exception("engine command module %s failed to import; its commands are unavailable", info.name)


def _error(req_id: Any, code: str, message: str, key: str | None = None) -> dict[str, Any]:
    error: dict[str, Any] = {"code": code, "message": message}
    if key is not None:
        error["key"] = key
    return {"id": req_id, "ok": False, "error": error}


def _salvage_id(text: str) -> Any:
    """Best effort: the id of a line refused as a whole (a bad string or deep nesting elsewhere), if valid."""
    try:
        data = json.loads(text)
        if isinstance(data, dict) and "id" in data:
            return msgspec.json.decode(msgspec.json.encode(data["id"]), type=RequestId)
    except Exception:  # noqa: BLE001, S110 - not parsable as a whole: try the usual leading "id"
        pass
    lead = _LEADING_ID.match(text)
    return _decoded_id(lead["id"]) if lead else None


def _decoded_id(raw: str) -> Any:
    """A leading id's JSON text as a valid id, or None."""
    try:
        return msgspec.json.decode(raw.encode(), type=RequestId)
    except (msgspec.ValidationError, msgspec.DecodeError):
        return None


def _strip_newline(line: bytes) -> bytes:
    """``line`` without its line end (``\n`` or ``\r\n``): the line limit does not count it."""
    if line.endswith(b"\n"):
        line = line[:-1]
        if line.endswith(b"\r"):
            line = line[:-1]
    return line


def _parse(line: bytes | str) -> tuple[Any, dict[str, msgspec.Raw]]:
    """Split a request line into its id and envelope (raw values); raises on a malformed line."""
    if isinstance(line, str):
        line = line.encode("utf-8", "surrogatepass")
    line = _strip_newline(line)
    if len(line) > LIMITS["line_bytes"]:
        raise LimitError(f"line of {len(line)} bytes exceeds the limit of {LIMITS['line_bytes']} bytes")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        # the id is echoed when the line starts with a valid one, wholly before the first bad byte
        lead = _LEADING_ID.match(line[: exc.start].decode("utf-8"))
        raise _Refused(_decoded_id(lead["id"]) if lead else None,
                       KubasolveError(f"line is not valid UTF-8 (byte 0x{line[exc.start]:02x} at offset {exc.start})")) from None
    try:
        envelope = msgspec.json.decode(line, type=dict[str, msgspec.Raw])
    except msgspec.ValidationError:
        raise KubasolveError("a request must be a JSON object") from None
    except msgspec.DecodeError as exc:
        message = str(exc).removeprefix("JSON is malformed: ")
        if ("truncated" in message or "escape" in message) and _SURROGATE_ESCAPE.search(text):
            message = "a string holds a lone UTF-16 surrogate escape (\\ud800-\\udfff without its pair)"
        raise _Refused(_salvage_id(text), KubasolveError(f"malformed JSON: {message}")) from None
    except RecursionError:
        raise _Refused(_salvage_id(text), KubasolveError("malformed request: JSON nested too deeply")) from None
    duplicate = _duplicate_key(line)
    if duplicate is not None:
        raise _Refused(_salvage_id(text) if duplicate != "id" else None,
                       KubasolveError(f"key {duplicate} appears twice in the request (a key may appear once per object)",
                                      key=duplicate))
    req_id: Any = None
    if "id" in envelope:
        try:
            req_id = msgspec.json.decode(envelope["id"], type=RequestId)
        except (msgspec.ValidationError, msgspec.DecodeError, RecursionError):
            shown = bytes(envelope["id"])[:40].decode("utf-8", "replace")
            raise KubasolveError(f"id must be a string (at most 256 characters), an integer within ±{MAX_INT} or null, got {shown}",
                                 key="id") from None
    return req_id, envelope


class _Repeated(dict[str, Any]):
    """A JSON object that held a key twice (``key``), as :func:`_duplicate_key`'s parse builds it."""

    def __init__(self, pairs: list[tuple[str, Any]], key: str) -> None:
        super().__init__(pairs)
        self.key = key


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    seen: set[str] = set()
    for key, _ in pairs:
        if key in seen:
            return _Repeated(pairs, key)
        seen.add(key)
    return dict(pairs)


def _zero(text: str) -> int:
    return 0  # numbers do not matter to the duplicate check (and a 5000-digit integer must not stop it)


def _duplicate_key(line: bytes) -> str | None:
    """The path of the first key that appears twice in one object of the (valid JSON) request, e.g. ``cmd`` or
    ``params.position.field``; None when every key is unique. (msgspec keeps the last of duplicates silently:
    ``{"cmd": "hello", "cmd": "quit"}`` would quit.)"""
    if line.count(b'"') < 4:  # no room for two keys
        return None
    try:
        tree = json.loads(line, object_pairs_hook=_object, parse_int=_zero, parse_float=_zero, parse_constant=_zero)
    except RecursionError:
        raise KubasolveError("malformed request: JSON nested too deeply") from None
    stack: list[tuple[str, Any]] = [("", tree)]
    while stack:
        path, value = stack.pop()
        if isinstance(value, dict):
            if isinstance(value, _Repeated):
                return f"{path}.{value.key}".lstrip(".")[:200]
            stack.extend((f"{path}.{k}", v) for k, v in reversed(list(value.items())))
        elif isinstance(value, list):
            stack.extend((f"{path}[{i}]", v) for i, v in reversed(list(enumerate(value))))
    return None


class _Refused(Exception):
    """A request refused before its id was known for sure: carries the id to echo, if any."""

    def __init__(self, req_id: Any, error: KubasolveError) -> None:
        super().__init__(str(error))
        self.req_id = req_id
        self.error = error


def handle_request(line: bytes | str, session: Session) -> dict[str, Any]:
    """Answer one request line (bytes or text); never raises."""
    load_handlers()
    req_id: Any = None
    try:
        try:
            req_id, envelope = _parse(line)
        except _Refused as refused:
            req_id = refused.req_id
            raise refused.error from None
        session.request_id = req_id
        for key in envelope:
            if key not in _ENVELOPE_KEYS:
                raise KubasolveError(f"unknown request key {key[:40]!r}; a request holds id, cmd and params", key=key[:40])
        if "cmd" not in envelope:
            raise KubasolveError('missing "cmd" (a string naming the command)', key="cmd")
        try:
            cmd = msgspec.json.decode(envelope["cmd"], type=Annotated[str, Meta(max_length=64)])
        except (msgspec.ValidationError, RecursionError):
            raise KubasolveError('"cmd" must be a string naming the command (at most 64 characters)', key="cmd") from None
        entry = COMMANDS.get(cmd)
        if entry is None:
            close = difflib.get_close_matches(cmd, COMMANDS, n=3)
            hint = f"; did you mean {', '.join(close)}?" if close else "; hello lists the commands"
            raise UnknownCommandError(f"unknown command {cmd!r}{hint}", key="cmd")
        try:
            params = decode_params(bytes(envelope.get("params", _EMPTY_PARAMS)), entry.params)
        except RecursionError:
            raise KubasolveError("params nested too deeply", key="params") from None
        result = entry.handler(params, session)
        return {"id": req_id, "ok": True, "result": result}
    except KubasolveError as exc:
        state_key = _state_key(str(exc)) if exc.key is None and exc.code == "bad-state" else exc.key
        return _error(req_id, exc.code, str(exc), state_key)
    except msgspec.ValidationError as exc:  # a handler decoding a sub-object itself
        err = validation_error(exc)
        return _error(req_id, err.code, str(err), err.key)
    except RecursionError:
        return _error(req_id, "bad-request", "request nested too deeply")
    except Exception as exc:  # a bug (or MemoryError): report it without killing the engine
        log.exception("internal error answering a request: %s", type(exc).__name__)
        return _error(req_id, "internal", "internal error (a bug in kubasolve; details on the engine's stderr)")


_STATE_PATH = re.compile(r"^(?:params\.)?state((?:\.[A-Za-z_]\w{0,39}|\[\d{1,6}\]){0,8})")


def _state_key(message: str) -> str:
    """The key of a ``bad-state`` answer raised without one: the state path its message starts with
    (``state.scores[0] ...`` -> ``params.state.scores[0]``), else ``params.state``."""
    found = _STATE_PATH.match(message)
    return f"params.state{found[1]}" if found else "params.state"


def _clean(value: Any) -> Any:
    """A copy of ``value`` whose strings are valid Unicode (lone surrogates become U+FFFD)."""
    if isinstance(value, str):
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    if isinstance(value, dict):
        return {_clean(k): _clean(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_clean(v) for v in value]
    return value


def _enc_hook(obj: Any) -> Any:
    if hasattr(obj, "tolist"):  # numpy scalars and arrays
        return obj.tolist()
    if isinstance(obj, (set, frozenset)):
        return sorted(obj)
    raise TypeError(f"cannot encode {type(obj).__name__}")


_encoder = msgspec.json.Encoder(enc_hook=_enc_hook)


def encode_answer(answer: dict[str, Any]) -> bytes:
    """One answer as strict JSON (no NaN/Infinity, valid UTF-8) plus a newline; never raises."""
    for attempt in (answer, None):
        try:
            return _encoder.encode(attempt if attempt is not None else _clean(answer)) + b"\n"
        except UnicodeEncodeError:
            continue  # a lone surrogate somewhere: retry with cleaned strings
        except Exception:
            log.exception("unencodable answer to request %r", answer.get("id"))
            break
    req_id = answer.get("id")
    safe_id = _clean(req_id) if req_id is None or isinstance(req_id, (int, str)) else None
    return _encoder.encode(_error(safe_id, "internal", "internal error: the answer could not be encoded")) + b"\n"


def read_lines(stream: IO[bytes], limit: int) -> Iterator[bytes | int]:
    """Lines of a byte stream; an over-long line is skipped in chunks and yielded as its length (an int). The limit
    does not count the line end (``\n`` or ``\r\n``)."""
    while True:
        line = stream.readline(limit + 2)
        if not line:
            return
        if len(line) > limit and not line.endswith(b"\n"):
            size, tail = len(line), line[-1:]
            while True:
                chunk = stream.readline(1 << 16)
                size += len(chunk)
                if not chunk or chunk.endswith(b"\n"):
                    break
                tail = chunk[-1:]
            if chunk.endswith(b"\n"):  # the line end is not counted
                size -= 2 if (chunk[-2:-1] or tail) == b"\r" else 1
            yield size
        else:
            yield line


def _text_lines(stream: IO[str]) -> Iterator[bytes]:
    for line in stream:
        yield line.encode("utf-8", "surrogatepass")


def _is_stop(line: bytes) -> bool:
    """Is this request line a ``stop`` (read as it arrives, while another request may be running)?"""
    if b"stop" not in line:
        return False
    try:
        envelope = msgspec.json.decode(line, type=dict[str, msgspec.Raw])
        return bool(msgspec.json.decode(envelope["cmd"]) == "stop")
    except Exception:  # noqa: BLE001 - not a well-formed stop: answered in turn like any line
        return False


class _Unanswered:
    """The stop flags of the requests read but not answered yet (the reader thread adds, the loop removes)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._flags: list[threading.Event] = []

    def add(self) -> threading.Event:
        flag = threading.Event()
        with self._lock:
            self._flags.append(flag)
        return flag

    def done(self, flag: threading.Event) -> None:
        with self._lock:
            self._flags.remove(flag)

    def stop_all(self) -> bool:
        """Set every flag; True if there was a request to stop."""
        with self._lock:
            for flag in self._flags:
                flag.set()
            return bool(self._flags)


def _read_ahead(lines: Iterable[bytes | int], pending: _Unanswered, inbox: queue.Queue[Any]) -> None:
    """The reader thread: queue every line with its stop flag; a ``stop`` line sets the flags of the requests before
    it at once (so a running search ends), then waits its turn to be answered."""
    try:
        for line in lines:
            if isinstance(line, bytes) and _is_stop(line):
                inbox.put((line, None, pending.stop_all()))
            else:
                inbox.put((line, pending.add(), False))
    except Exception:
        log.exception("reading the engine's input failed")
    finally:
        inbox.put(None)


def _private_stdin() -> IO[bytes]:
    """The process's standard input as a reader of its own (a duplicate descriptor): the reader thread may still be
    blocked in it when the session ends, and the interpreter's shutdown must not wait for ``sys.stdin``'s lock."""
    try:
        return os.fdopen(os.dup(sys.stdin.fileno()), "rb")
    except (AttributeError, OSError, ValueError):  # no real descriptor (an embedding replaced sys.stdin)
        return sys.stdin.buffer


def serve(stdin: IO[Any] | None = None, stdout: IO[Any] | None = None) -> int:
    """Run the engine loop until end of input or a ``quit`` request; returns an exit code.

    ``stdin``/``stdout`` default to the process's binary streams; text streams (``io.StringIO``) work too.
    """
    stdin = stdin if stdin is not None else _private_stdin()
    out: IO[Any] = stdout if stdout is not None else sys.stdout.buffer
    text_out = isinstance(out, io.TextIOBase)
    lines = _text_lines(stdin) if isinstance(stdin, io.TextIOBase) else read_lines(stdin, LIMITS["line_bytes"])
    session = Session()

    def write(answer: dict[str, Any]) -> None:
        data = encode_answer(answer)
        if text_out:
            out.write(data.decode("utf-8"))
        else:
            out.write(data)
        out.flush()

    session.writer = write
    pending = _Unanswered()
    inbox: queue.Queue[Any] = queue.Queue(maxsize=READ_AHEAD)
    threading.Thread(target=_read_ahead, args=(lines, pending, inbox), name="kubasolve-engine-reader", daemon=True).start()
    while (item := inbox.get()) is not None:
        line, flag, stopped = item
        session.stop, session.stopped_search, session.request_id = flag, stopped, None
        try:
            if isinstance(line, int):
                answer = _error(None, LimitError.code, f"line of {line} bytes exceeds the limit of {LIMITS['line_bytes']} bytes")
            elif not line.strip():
                continue
            else:
                answer = handle_request(line, session)
        finally:
            if flag is not None:
                pending.done(flag)
        try:
            write(answer)
        except BrokenPipeError:
            return 0
        if answer.get("ok") and isinstance(answer.get("result"), dict) and answer["result"].get("bye") is True:
            break
    return 0
