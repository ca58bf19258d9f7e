"""Registry of engine request handlers: each game module adds its commands here.

A handler takes the request's ``params`` object (a dict) and a :class:`Session` (state kept between
requests, e.g. running games) and returns a JSON-serialisable dict. It raises
:class:`~kubasolve.errors.KubasolveError` for a bad request; the server turns that into an error answer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Handler = Callable[[dict[str, Any], "Session"], dict[str, Any]]

HANDLERS: dict[str, Handler] = {}


@dataclass
class Session:
    """State that lives as long as one engine process: loaded lexicons, running games."""

    games: dict[str, Any] = field(default_factory=dict)
    next_game_id: int = 1

    def new_game_id(self) -> str:
        gid = f"g{self.next_game_id}"
        self.next_game_id += 1
        return gid


def lookup_game(params: dict[str, Any], session: Session, kind: type, game_name: str, new_game_cmd: str) -> tuple[str, Any]:
    """The running game named by ``params["game"]``, checked to be a ``kind``; a clear error otherwise."""
    from kubasolve.errors import PositionError

    gid = params.get("game")
    game = session.games.get(gid) if isinstance(gid, str) else None
    if not isinstance(game, kind):
        raise PositionError(f"no {game_name} game {gid!r}; start one with {new_game_cmd}")
    return gid, game  # type: ignore[return-value]


def command(name: str) -> Callable[[Handler], Handler]:
    """Decorator: register ``fn`` as the handler of engine command ``name``."""

    def register(fn: Handler) -> Handler:
        if name in HANDLERS:
            raise RuntimeError(f"engine command {name!r} registered twice")
        HANDLERS[name] = fn
        return fn

    return register
