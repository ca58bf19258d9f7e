"""Word colonies rule settings as data: a frozen :class:`ColoniiRules`, loaded from TOML.

The defaults live in ``data/default.toml``; every setting and every choice made where the rulebook
is silent is documented in ``docs/colonii.md``.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from kubasolve.errors import RulesError
from kubasolve.games.colonii.wordlist import ROMANIAN_ALPHABET
from kubasolve.games.settings import checked_settings, read_toml_table, with_changes

DATA_DIR = Path(__file__).resolve().parent / "data"
END_MODES = ("target", "deck")
MAX_TURN_MOVES = 30
"""Largest ``max_turn_moves``: every word move takes at least one card and a hand holds at most 30, so 30
is the rulebook's "any number of words"."""
SEARCH_MOVES = 3
"""Longest turn the exact best-turn search covers; with ``max_turn_moves`` above it the search answers the
best turn of up to 3 word moves, proven best only when no longer turn can score more."""


@cache
def _default_table() -> dict[str, Any]:
    data = tomllib.loads((DATA_DIR / "default.toml").read_text(encoding="utf-8"))
    return dict(data["colonii"])


def _default_values() -> Mapping[str, int]:
    return MappingProxyType(dict(_default_table()["letter_values"]))


def _default_counts() -> Mapping[str, int]:
    return MappingProxyType(dict(_default_table()["card_counts"]))


def _default(name: str) -> Any:
    return _default_table()[name]


@dataclass(frozen=True)
class ColoniiRules:
    """Every colonii rule that varies between tables, as one immutable value."""

    letter_values: Mapping[str, int] = field(default_factory=_default_values)
    card_counts: Mapping[str, int] = field(default_factory=_default_counts)
    hand_size: int = field(default_factory=lambda: int(_default("hand_size")))
    min_word_length: int = field(default_factory=lambda: int(_default("min_word_length")))
    supercolony_words: int = field(default_factory=lambda: int(_default("supercolony_words")))
    supercolony_bonus: int = field(default_factory=lambda: int(_default("supercolony_bonus")))
    decolonisation_words: int = field(default_factory=lambda: int(_default("decolonisation_words")))
    end: str = field(default_factory=lambda: str(_default("end")))
    target_score: int = field(default_factory=lambda: int(_default("target_score")))
    builders: str = field(default_factory=lambda: str(_default("builders")))
    max_turn_moves: int = field(default_factory=lambda: int(_default("max_turn_moves")))
    alphabet: str = ROMANIAN_ALPHABET

    def __post_init__(self) -> None:
        object.__setattr__(self, "letter_values", MappingProxyType({str(k).lower(): v for k, v in dict(self.letter_values).items()}))
        object.__setattr__(self, "card_counts", MappingProxyType({str(k).lower(): v for k, v in dict(self.card_counts).items()}))
        self.validate()

    def __hash__(self) -> int:
        return hash(json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False))

    def validate(self) -> None:
        """Raise :class:`RulesError` naming the first bad setting."""
        def check_int(name: str, lo: int, hi: int) -> None:
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                raise RulesError(f"{name} must be an integer from {lo} to {hi}, got {v!r}")

        check_int("hand_size", 1, 30)
        check_int("min_word_length", 2, 30)
        check_int("supercolony_words", 3, 100)
        check_int("supercolony_bonus", 0, 1000)
        check_int("decolonisation_words", 3, 100)
        check_int("target_score", 1, 100_000)
        check_int("max_turn_moves", 1, MAX_TURN_MOVES)
        if self.decolonisation_words <= self.supercolony_words:
            raise RulesError("decolonisation_words must exceed supercolony_words")
        if self.end not in END_MODES:
            raise RulesError(f"end must be one of {', '.join(END_MODES)}, got {self.end!r}")
        from kubasolve.games.colonii.builders import BUILDERS

        if self.builders not in BUILDERS:
            raise RulesError(f"builders must be one of {', '.join(sorted(BUILDERS))}, got {self.builders!r}")
        for name in ("letter_values", "card_counts"):
            table: Mapping[str, int] = getattr(self, name)
            missing = [c for c in self.alphabet if c not in table]
            if missing:
                raise RulesError(f"{name} lacks letter(s) {''.join(missing)!r}")
            for letter, v in table.items():
                if letter not in self.alphabet:
                    raise RulesError(f"{name} names {letter!r}, which is not in the alphabet {self.alphabet!r}")
                if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 100:
                    raise RulesError(f"{name}[{letter!r}] must be an integer from 0 to 100, got {v!r}")
        if sum(self.card_counts.values()) < 1:
            raise RulesError("the deck needs at least one card")

    # ---------------------------------------------------------------- scoring
    def value(self, letters: str) -> int:
        """Sum of the card values of ``letters`` (a word, or the cards a move adds)."""
        values = self.letter_values
        return sum(values[c] for c in letters)

    def deck(self) -> list[str]:
        """All cards, in alphabet order (shuffled by the game's seed)."""
        return [c for c in self.alphabet for _ in range(self.card_counts[c])]

    # ---------------------------------------------------------------- I/O
    def with_(self, **changes: Any) -> ColoniiRules:
        """A copy with some settings changed (validated)."""
        return with_changes(self, changes)

    def to_dict(self) -> dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["letter_values"] = dict(self.letter_values)
        d["card_counts"] = dict(self.card_counts)
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ColoniiRules:
        """Rules from a mapping (parsed TOML or JSON); partial letter tables override the defaults."""
        data = checked_settings(cls, data)
        for name, default in (("letter_values", _default_values), ("card_counts", _default_counts)):
            if name in data:
                table = data[name]
                if not isinstance(table, Mapping):
                    raise RulesError(f"{name} must be a table of letter = number")
                base = dict(default()) if data.get("alphabet", ROMANIAN_ALPHABET) == ROMANIAN_ALPHABET else {}
                data[name] = {**base, **{str(k).lower(): v for k, v in table.items()}}
        try:
            return cls(**data)
        except TypeError as exc:
            raise RulesError(str(exc)) from None

    @classmethod
    def from_toml(cls, source: str | Path) -> ColoniiRules:
        """Rules from a TOML file path or TOML text; settings at top level or under ``[colonii]``."""
        return cls.from_dict(read_toml_table(source, "colonii"))


__all__ = ["END_MODES", "MAX_TURN_MOVES", "SEARCH_MOVES", "ColoniiRules"]
