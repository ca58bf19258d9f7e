"""Engine commands that belong to no game: hello, schema, close-game, quit."""

from __future__ import annotations

from typing import Annotated, Any

from kubasolve import __version__
from kubasolve.engine.registry import (
    COMMANDS,
    LIMITS,
    GameId,
    Meta,
    NoParams,
    Params,
    Session,
    command,
)
from kubasolve.errors import ERROR_CODES, UnknownCommandError, UnknownGameError


@command("hello", NoParams)
def hello(p: NoParams, session: Session) -> dict[str, Any]:
    """Handshake: engine name, version, protocol version, the commands, the error codes, the engine-wide limits and
    the lexicons served (what a request's ``lexicon`` may name).

    Each command's parameters, as JSON Schema, come from ``schema``.
    """
    from kubasolve.engine.lexicons import served_names
    from kubasolve.engine.server import PROTOCOL_VERSION, UNAVAILABLE

    return {
        "engine": "kubasolve",
        "version": __version__,
        "protocol": PROTOCOL_VERSION,
        "commands": sorted(COMMANDS),
        "errors": ERROR_CODES,
        "limits": LIMITS,
        "lexicons": served_names(),
        "unavailable": sorted(UNAVAILABLE),
    }


class SchemaParams(Params):
    cmd: Annotated[str, Meta(max_length=64, description="one command (default: every command)")] | None = None


@command("schema", SchemaParams)
def schema(p: SchemaParams, session: Session) -> dict[str, Any]:
    """Every command (or the one named by ``cmd``) with a one-line summary and the JSON Schema of its parameters."""
    from kubasolve.engine.server import PROTOCOL_VERSION

    if p.cmd is not None and p.cmd not in COMMANDS:
        raise UnknownCommandError(f"unknown command {p.cmd!r}", key="params.cmd")
    names = [p.cmd] if p.cmd is not None else sorted(COMMANDS)
    return {"protocol": PROTOCOL_VERSION, "commands": {name: COMMANDS[name].schema() for name in names}}


class CloseGameParams(Params):
    game: GameId


@command("close-game", CloseGameParams)
def close_game(p: CloseGameParams, session: Session) -> dict[str, Any]:
    """Forget a running game (of any kind), freeing its slot in the session."""
    if session.games.pop(p.game, None) is None:
        raise UnknownGameError(f"no running game {p.game!r}", key="params.game")
    return {"closed": p.game}


@command("quit", NoParams)
def quit_(p: NoParams, session: Session) -> dict[str, Any]:
    """End the session; the engine exits after answering."""
    return {"bye": True}
