"""Engine commands that belong to no game: hello, schema, close-game, quit."""

from __future__ import annotations

from typing import Annotated, Any

from kubasolve import __version__
from kubasolve.engine.registry import (
    COMMANDS,
    LIMITS,
    UNSET,
    Answer,
    GameId,
    Meta,
    NoParams,
    Params,
    Session,
    UnsetType,
    command,
)
from kubasolve.errors import ERROR_CODES, KubasolveError, UnknownCommandError, UnknownGameError


class HelloAnswer(Answer):
    engine: str
    version: str
    protocol: int
    commands: list[str]
    errors: dict[str, str]
    limits: dict[str, int]
    lexicons: list[str]
    unavailable: list[str]


@command("hello", NoParams, HelloAnswer)
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


class CommandSchema(Answer):
    summary: str
    params: dict[str, Any]
    result: dict[str, Any] | UnsetType = UNSET


class SchemaAnswer(Answer):
    protocol: int
    commands: dict[str, CommandSchema]


@command("schema", SchemaParams, SchemaAnswer)
def schema(p: SchemaParams, session: Session) -> dict[str, Any]:
    """Every command (or the one named by ``cmd``) with a one-line summary and the JSON Schemas of its parameters and
    of its answer's result."""
    from kubasolve.engine.server import PROTOCOL_VERSION

    if p.cmd is not None and p.cmd not in COMMANDS:
        raise UnknownCommandError(f"unknown command {p.cmd!r}", key="params.cmd")
    names = [p.cmd] if p.cmd is not None else sorted(COMMANDS)
    return {"protocol": PROTOCOL_VERSION, "commands": {name: COMMANDS[name].schema() for name in names}}


class CloseGameParams(Params):
    game_id: GameId | UnsetType = UNSET
    game: Annotated[GameId, Meta(description="v2 name of game_id")] | UnsetType = UNSET


class ClosedAnswer(Answer):
    closed: str


@command("close-game", CloseGameParams, ClosedAnswer)
def close_game(p: CloseGameParams, session: Session) -> dict[str, Any]:
    """Forget a running game of any kind (``game_id``; v2: ``game``), freeing its slot in the session."""
    if (p.game_id is UNSET) == (p.game is UNSET):
        raise KubasolveError("params.game_id: give the running game's id (game_id; v2: game)", key="params.game_id")
    gid, key = (p.game_id, "params.game_id") if isinstance(p.game_id, str) else (str(p.game), "params.game")
    if session.games.pop(gid, None) is None:
        raise UnknownGameError(f"no running game {gid!r}", key=key)
    return {"closed": gid}


class ByeAnswer(Answer):
    bye: bool


@command("quit", NoParams, ByeAnswer)
def quit_(p: NoParams, session: Session) -> dict[str, Any]:
    """End the session; the engine exits after answering."""
    return {"bye": True}
