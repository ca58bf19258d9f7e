"""Game-only Kubagram settings (players, vowel rule, non-word penalty, skips) as a frozen dataclass.

Scoring settings live in :class:`~kubasolve.games.kubagram.rules.KubagramRules`; this class holds what only the
game engine needs. See ``docs/kubagram_game.md`` for how each setting is used.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from kubasolve.errors import RulesError
from kubasolve.games.settings import checked_settings

__all__ = ["KubagramGameRules"]


@dataclass(frozen=True)
class KubagramGameRules:
    """Settings of a whole Kubagram game beyond scoring."""

    n_players: int = 2
    vowel_rule_consonants: int = 10
    """"When only 10 consonants lie on the table": the field holds no vowel and at least this many consonants."""
    vowels: str = "aeiou"
    """Vowels for the vowel rule (Y counts as a consonant)."""
    nonword_penalty: int = 5
    skips_per_game: int = 1
    missed_claims: bool = True
    """A player may claim words the previous player missed before taking a cube."""

    def __post_init__(self) -> None:
        for name, lo, hi in (("n_players", 1, 8), ("vowel_rule_consonants", 0, 200), ("nonword_penalty", 0, 1000),
                             ("skips_per_game", 0, 100)):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                raise RulesError(f"{name} must be an integer from {lo} to {hi}, got {v!r}")
        if not isinstance(self.vowels, str) or not self.vowels.isalpha():
            raise RulesError(f"vowels must be a string of letters, got {self.vowels!r}")
        object.__setattr__(self, "vowels", self.vowels.lower())
        if not isinstance(self.missed_claims, bool):
            raise RulesError("missed_claims must be true or false")

    def to_dict(self) -> dict[str, Any]:
        """JSON-able settings."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> KubagramGameRules:
        """Settings from a mapping; unknown keys are an error."""
        return cls(**checked_settings(cls, data, what="game rule", container="game rules must be an object of settings"))
