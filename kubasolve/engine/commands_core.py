"""Engine commands that belong to no game: hello, ping, quit, lexicon lookups."""

from __future__ import annotations

from typing import Any

from kubasolve import __version__
from kubasolve.engine.registry import HANDLERS, Session, command


@command("hello")
def hello(params: dict[str, Any], session: Session) -> dict[str, Any]:
    """Handshake: engine name, version, protocol version and the list of commands."""
    from kubasolve.engine.server import PROTOCOL_VERSION

    return {"engine": "kubasolve", "version": __version__, "protocol": PROTOCOL_VERSION, "commands": sorted(HANDLERS)}


@command("quit")
def quit_(params: dict[str, Any], session: Session) -> dict[str, Any]:
    """End the session; the engine exits after answering."""
    return {"bye": True}
