"""Kubagram moves as returned by the solver: words from the field, compounds, and whole claims."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class WordMove:
    """A word formed from field tiles, with the assignment that scores most.

    ``tiles[i]`` is the index (in the position's tiles) of the tile spelling letter ``i``; the
    score is ``(letters + bonus) * multiplier`` with ``multiplier = joker_factor ** jokers``.
    """

    word: str
    tiles: tuple[int, ...]
    jokers: int
    letters: int
    bonus: int
    multiplier: int
    score: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "word",
            "word": self.word,
            "tiles": list(self.tiles),
            "jokers": self.jokers,
            "letters": self.letters,
            "bonus": self.bonus,
            "multiplier": self.multiplier,
            "score": self.score,
        }


@dataclass(frozen=True)
class CompoundMove:
    """A compound of >= 2 parts: table words (by index in the position's table) and at most one new
    field word. The mover gains ``score``; each owner of a table part loses that part's value."""

    word: str
    parts: tuple[str, ...]
    table_parts: tuple[int, ...]
    field_word: WordMove | None
    level: int
    jokers: int
    letters: int
    bonus: int
    multiplier: int
    score: int
    lost: tuple[tuple[int, int], ...]
    """(owner, points lost), one entry per owner, sorted by owner."""
    mover: int = 0

    @property
    def gain(self) -> int:
        """Net change of the mover's score (own parts taken back are subtracted)."""
        return self.score - sum(points for owner, points in self.lost if owner == self.mover)

    @property
    def taken(self) -> int:
        """Points the other players lose."""
        return sum(points for owner, points in self.lost if owner != self.mover)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": "compound",
            "word": self.word,
            "parts": list(self.parts),
            "table_parts": list(self.table_parts),
            "field_word": self.field_word.to_dict() if self.field_word else None,
            "level": self.level,
            "jokers": self.jokers,
            "letters": self.letters,
            "bonus": self.bonus,
            "multiplier": self.multiplier,
            "score": self.score,
            "gain": self.gain,
            "taken": self.taken,
            "lost": [{"owner": o, "points": p} for o, p in self.lost],
        }


@dataclass(frozen=True)
class Claim:
    """Everything a player claims in one turn: words from disjoint tiles and compounds."""

    words: tuple[WordMove, ...] = ()
    compounds: tuple[CompoundMove, ...] = ()

    @property
    def gain(self) -> int:
        """Net change of the mover's score."""
        return sum(w.score for w in self.words) + sum(c.gain for c in self.compounds)

    @property
    def taken(self) -> int:
        """Points the other players lose."""
        return sum(c.taken for c in self.compounds)

    @property
    def empty(self) -> bool:
        return not self.words and not self.compounds

    def to_dict(self) -> dict[str, Any]:
        return {
            "words": [w.to_dict() for w in self.words],
            "compounds": [c.to_dict() for c in self.compounds],
            "gain": self.gain,
            "taken": self.taken,
        }
