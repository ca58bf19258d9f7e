"""The JSON-lines loop: one request object per input line, one answer object per output line.

Request: ``{"id": <any>, "cmd": "<command>", "params": {...}}`` (``id`` optional, echoed back).
Answer: ``{"id": ..., "ok": true, "result": {...}}`` or ``{"id": ..., "ok": false, "error": "..."}``.
A malformed or invalid request gets an error answer and the loop goes on. See ``docs/engine.md``.
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import sys
import traceback
from typing import Any, TextIO

from kubasolve.engine.registry import HANDLERS, Session
from kubasolve.errors import KubasolveError

PROTOCOL_VERSION = 1


def load_handlers() -> None:
    """Import every ``kubasolve/engine/commands_*.py`` module: importing one registers its commands.

    Kept lazy (first request, not ``import kubasolve``) so the package import stays light; a game adds
    its commands by adding such a module, nothing else.
    """
    import kubasolve.engine as package

    for info in pkgutil.iter_modules(package.__path__):
        if info.name.startswith("commands_"):
            importlib.import_module(f"kubasolve.engine.{info.name}")


def handle_request(line: str, session: Session) -> dict[str, Any]:
    """Answer one request line; never raises."""
    load_handlers()
    req_id: Any = None
    try:
        try:
            request = json.loads(line)
        except json.JSONDecodeError as exc:
            raise KubasolveError(f"malformed JSON: {exc.msg} at column {exc.colno}") from None
        if not isinstance(request, dict):
            raise KubasolveError("a request must be a JSON object")
        req_id = request.get("id")
        cmd = request.get("cmd")
        if not isinstance(cmd, str):
            raise KubasolveError('missing "cmd" (a string naming the command)')
        handler = HANDLERS.get(cmd)
        if handler is None:
            raise KubasolveError(f"unknown command {cmd!r}; known: {', '.join(sorted(HANDLERS))}")
        params = request.get("params", {})
        if not isinstance(params, dict):
            raise KubasolveError('"params" must be a JSON object')
        result = handler(params, session)
        return {"id": req_id, "ok": True, "result": result}
    except KubasolveError as exc:
        return {"id": req_id, "ok": False, "error": str(exc), "kind": type(exc).__name__}
    except Exception as exc:  # a bug: report it without killing the engine
        return {
            "id": req_id,
            "ok": False,
            "error": f"internal error: {type(exc).__name__}: {exc}",
            "kind": "InternalError",
            "trace": traceback.format_exc(limit=3),
        }


def serve(stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    """Run the engine loop until end of input or a ``quit`` request; returns an exit code."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    session = Session()
    for line in stdin:
        if not line.strip():
            continue
        answer = handle_request(line, session)
        stdout.write(json.dumps(answer, ensure_ascii=False) + "\n")
        stdout.flush()
        if answer.get("ok") and answer["result"].get("bye"):
            break
    return 0
