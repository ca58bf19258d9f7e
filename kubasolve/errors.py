"""Exceptions for user mistakes: the CLI and the engine turn these into clear messages, never tracebacks.

Each class carries a stable machine-readable ``code`` (the engine's ``error.code``, see
``docs/engine.md``) and may name the offending ``key`` (e.g. ``"params.top"``). Codes never change
meaning; frontends may switch on them. Python class names are not part of any protocol.
"""

from __future__ import annotations

from typing import Any, ClassVar


class KubasolveError(Exception):
    """Base class of every error caused by bad input (a user mistake), not by a bug."""

    code: ClassVar[str] = "bad-request"

    def __init__(self, message: str = "", *, key: str | None = None) -> None:
        super().__init__(message)
        self.key = key


class LexiconError(KubasolveError):
    """A word list or lexicon cannot be read or built (missing file, bad encoding, empty list...)."""

    code = "bad-lexicon"


class RulesError(KubasolveError):
    """A rule set is invalid (bad TOML, out-of-range setting, unknown letter...)."""

    code = "bad-rules"


class PositionError(KubasolveError):
    """A game position or request is invalid (unknown letter, bad tile spec, too many tiles...)."""

    code = "bad-position"


class StateError(PositionError):
    """A saved game state (to resume) contradicts the equipment, the rules or its own history."""

    code = "bad-state"


class IllegalMoveError(KubasolveError):
    """A move breaks the rules (or the game is over); the game state is left unchanged."""

    code = "illegal-move"


class UnknownCommandError(KubasolveError):
    """The engine has no command of that name."""

    code = "unknown-command"


class UnknownGameError(KubasolveError):
    """No running game has that id (or it is a game of another kind)."""

    code = "unknown-game"


class LimitError(KubasolveError):
    """A request exceeds a documented bound (line length, sizes, work); refused before doing the work."""

    code = "limit-exceeded"


ERROR_CODES: dict[str, str] = {
    "bad-request": "malformed line or JSON, invalid id, wrong/unknown/missing parameter (the answer names the key)",
    "unknown-command": "no command of that name (see hello / schema)",
    "unknown-game": "no running game with that id for this command's game",
    "illegal-move": "a move that breaks the rules, or a move in a finished game; the state is unchanged",
    "bad-position": "a position that cannot exist (letters outside the alphabet, bad tiles, too many tiles...)",
    "bad-rules": "an invalid rule setting",
    "bad-state": "a saved game state to resume contradicts the equipment, rules or its own history",
    "bad-lexicon": "the engine serves no lexicon of that name, or a list its operator named does not load",
    "limit-exceeded": "the request exceeds a documented bound (line length, size, count, work budget)",
    "internal": "a bug in kubasolve (details on the engine's stderr); the engine goes on",
}
"""Every ``error.code`` an engine answer can carry, with its meaning (published by ``hello``)."""


def error_payload(exc: BaseException) -> dict[str, Any]:
    """The ``--json`` form of an error: the engine's ``{"code", "message", "key"}`` shape (the CLI's, and the ladder's
    of a module run on its own)."""
    error: dict[str, Any] = {"code": getattr(exc, "code", "bad-request"), "message": str(exc) or type(exc).__name__}
    key = getattr(exc, "key", None)
    if key:
        error["key"] = key
    return {"ok": False, "error": error}
