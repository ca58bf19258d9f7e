"""Typed Kubagram game actions (frozen) and their JSON forms.

A turn is a sequence of actions by the player to move: optional :class:`Claim` s of words the previous
player missed, then :class:`Take` (or :class:`Skip`), then optional claims, then :class:`EndTurn`. A player who
receives a cube from a 0 square starts with :class:`PlaceZero` instead of taking a cube.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from kubasolve.errors import IllegalMoveError
from kubasolve.lexicon.alphabet import normalize_word

__all__ = ["Action", "Claim", "EndTurn", "PlaceZero", "Skip", "Take", "action_from_dict", "action_to_dict"]


@dataclass(frozen=True)
class Take:
    """Take the next cube in draw order: ``letter`` chooses the letter (III square, joker, vowel rule); ``keep``
    sets a joker aside for a later turn."""

    letter: str | None = None
    keep: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        d: dict[str, Any] = {"type": "take"}
        if self.letter is not None:
            d["letter"] = self.letter
        if self.keep:
            d["keep"] = True
        return d

    def describe(self) -> str:
        """Short human text."""
        return "take (keep joker)" if self.keep else f"take {self.letter.upper()}" if self.letter else "take"


@dataclass(frozen=True)
class PlaceZero:
    """Put down the cube passed on from a 0 square, showing ``letter`` (one of its letters)."""

    letter: str

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"type": "place-zero", "letter": self.letter}

    def describe(self) -> str:
        """Short human text."""
        return f"place passed cube as {self.letter.upper()}"


@dataclass(frozen=True)
class Claim:
    """Claim ``word``. A plain word is spelled by field tiles ``tiles`` (indices into the mover's position tiles,
    one per letter; ``None``: the referee picks the best assignment). A compound lists ``parts``: table word
    indices in order, with at most one ``None`` standing for a new word spelled by ``tiles``."""

    word: str
    tiles: tuple[int, ...] | None = None
    parts: tuple[int | None, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "word", normalize_word(str(self.word)))
        if self.tiles is not None:
            object.__setattr__(self, "tiles", tuple(self.tiles))
        object.__setattr__(self, "parts", tuple(self.parts))

    @property
    def is_compound(self) -> bool:
        """True for a compound of table words."""
        return bool(self.parts)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        d: dict[str, Any] = {"type": "claim", "word": self.word}
        if self.tiles is not None:
            d["tiles"] = list(self.tiles)
        if self.parts:
            d["parts"] = list(self.parts)
        return d

    def describe(self) -> str:
        """Short human text."""
        return f"claim {self.word.upper()}" + (" (compound)" if self.parts else "")


@dataclass(frozen=True)
class Skip:
    """Skip this turn without taking a cube (once per game)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"type": "skip"}

    def describe(self) -> str:
        """Short human text."""
        return "skip"


@dataclass(frozen=True)
class EndTurn:
    """End the turn after taking (or placing) a cube and any claims."""

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"type": "end"}

    def describe(self) -> str:
        """Short human text."""
        return "end turn"


Action = Take | PlaceZero | Claim | Skip | EndTurn


def action_to_dict(action: Action) -> dict[str, Any]:
    """JSON form of any action."""
    return action.to_dict()


def _ints(value: Any, what: str, allow_none: bool = False) -> tuple[Any, ...]:
    """A list of ints (or nulls where allowed) from JSON."""
    if not isinstance(value, (list, tuple)):
        raise IllegalMoveError(f"{what} must be a list")
    for v in value:
        if v is None and allow_none:
            continue
        if not isinstance(v, int) or isinstance(v, bool):
            raise IllegalMoveError(f"{what} must hold integers{' or null' if allow_none else ''}, got {v!r}")
    return tuple(value)


def action_from_dict(data: Mapping[str, Any] | Action) -> Action:
    """Parse an action from its JSON form (``{"type": "take", "letter": "a"}`` ...); clear error when malformed."""
    if isinstance(data, (Take, PlaceZero, Claim, Skip, EndTurn)):
        return data
    if not isinstance(data, Mapping):
        raise IllegalMoveError(f"an action must be an object like {{\"type\": \"take\"}}, got {data!r}")
    kind = data.get("type")
    allowed = {"take": {"letter", "keep"}, "place-zero": {"letter"}, "claim": {"word", "tiles", "parts"},
               "skip": set(), "end": set()}
    if kind not in allowed:
        raise IllegalMoveError(f"unknown action type {kind!r}; use one of {', '.join(allowed)}", key="action.type")
    extra = set(data) - allowed[kind] - {"type"}
    if extra:
        raise IllegalMoveError(f"action {kind!r} has unknown key(s) {', '.join(sorted(extra))}", key=f"action.{min(extra)}")
    letter = data.get("letter")
    if isinstance(letter, str):
        letter = normalize_word(letter)
    if letter is not None and (not isinstance(letter, str) or len(letter) != 1 or not letter.isalpha()):
        raise IllegalMoveError(f"letter must be a single letter, got {letter!r}")
    if kind == "take":
        keep = data.get("keep", False)
        if not isinstance(keep, bool):
            raise IllegalMoveError("keep must be true or false")
        return Take(letter.lower() if letter else None, keep)
    if kind == "place-zero":
        if letter is None:
            raise IllegalMoveError("place-zero needs the letter to show")
        return PlaceZero(letter.lower())
    if kind == "claim":
        word = data.get("word")
        if not isinstance(word, str) or not word:
            raise IllegalMoveError("a claim needs the word")
        tiles = _ints(data["tiles"], "tiles") if data.get("tiles") is not None else None
        parts = _ints(data.get("parts", []), "parts", allow_none=True)
        return Claim(word, tiles, parts)
    return Skip() if kind == "skip" else EndTurn()
