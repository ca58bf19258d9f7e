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


def command(name: str) -> Callable[[Handler], Handler]:
    """Decorator: register ``fn`` as the handler of engine command ``name``."""

    def register(fn: Handler) -> Handler:
        if name in HANDLERS:
            raise RuntimeError(f"engine command {name!r} registered twice")
        HANDLERS[name] = fn
        return fn

    return register
