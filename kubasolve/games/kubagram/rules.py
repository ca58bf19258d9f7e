"""Kubagram rule settings as data: a frozen :class:`KubagramRules`, loadable from TOML.

Rulebook quotes (Kubagram, Dutch letter-cube game) and the choices made where it is silent:

* "Words (default min. 5 letters; 3, 4, 6+ selectable)": ``min_length``.
* Letter values: the rulebook gives none; the default is the Dutch Scrabble table.
* "length bonus (6th letter +5, 7th +10, 8th +15 ..., always from the 6th letter whatever the
  minimum)": ``bonus_from`` = 6, ``bonus_step`` = 5, so 6 letters +5, 7 -> +15, 8 -> +30, 9 -> +50.
* "A word with j jokers is worth x2^j (bonus included)": ``joker_factor`` = 2.
* Compound words "can be taken from any player: x2, bonus included; not cumulated with jokers":
  ``compound_factor`` = 2; a compound of a compound doubles again (kroegentocht + en ->
  kroegentochten: x4). Open point, our choice: the level of a compound is 1 + the highest level of
  its parts, factor ``compound_factor ** level`` (a compound of two compounds is x4, not x8).
* "The player of the last cube may form 2-letter words": ``last_cube_min_length`` = 2.
* Open point, our choice (``compound_with_field_words``, default True): a compound may include one
  new word formed from the central field in the same move, as en + kroegentocht in the rulebook's own
  last-cube example; a player would do so rather than claim the part first.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from types import MappingProxyType
from typing import Any

from kubasolve.errors import RulesError
from kubasolve.games.settings import checked_settings, read_toml_table, with_changes
from kubasolve.lexicon.alphabet import LATIN

DUTCH_SCRABBLE_VALUES: Mapping[str, int] = MappingProxyType(
    dict(a=1, b=3, c=5, d=2, e=1, f=4, g=3, h=4, i=1, j=4, k=3, l=3, m=3,
         n=1, o=1, p=3, q=10, r=2, s=2, t=2, u=4, v=4, w=5, x=8, y=8, z=4)
)
DEFAULT_JOKERS: tuple[str, ...] = ("eygr", "pltole", "odrkte")
"""Faces of the three joker cubes as printed (PLTOLE repeats L: five distinct letters)."""


@dataclass(frozen=True)
class KubagramRules:
    """Every Kubagram rule that varies between tables, as one immutable value."""

    min_length: int = 5
    letter_values: Mapping[str, int] = field(default_factory=lambda: DUTCH_SCRABBLE_VALUES)
    jokers: tuple[str, ...] = DEFAULT_JOKERS
    bonus_from: int = 6
    bonus_step: int = 5
    joker_factor: int = 2
    compound_factor: int = 2
    last_cube_min_length: int = 2
    compound_with_field_words: bool = True
    max_claim_words: int = 3
    alphabet: str = LATIN

    def __post_init__(self) -> None:
        values = {str(k).lower(): v for k, v in dict(self.letter_values).items()}
        object.__setattr__(self, "letter_values", MappingProxyType(values))
        object.__setattr__(self, "jokers", tuple(str(j).lower() for j in self.jokers))
        self.validate()

    def __hash__(self) -> int:  # letter_values is a mapping proxy, so hash the settings' JSON form
        return hash(json.dumps(self.to_dict(), sort_keys=True))

    # ---------------------------------------------------------------- validation
    def validate(self) -> None:
        """Raise :class:`RulesError` naming the first bad setting."""
        def check_int(name: str, lo: int, hi: int) -> None:
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                raise RulesError(f"{name} must be an integer from {lo} to {hi}, got {v!r}")

        check_int("min_length", 2, 30)
        check_int("last_cube_min_length", 1, 30)
        check_int("bonus_from", 1, 60)
        check_int("bonus_step", 0, 1000)
        check_int("joker_factor", 1, 16)
        check_int("compound_factor", 1, 16)
        check_int("max_claim_words", 1, 3)
        if not isinstance(self.compound_with_field_words, bool):
            raise RulesError("compound_with_field_words must be true or false")
        missing = [c for c in self.alphabet if c not in self.letter_values]
        if missing:
            raise RulesError(f"letter_values lacks letter(s) {''.join(missing)!r}")
        for letter, value in self.letter_values.items():
            if letter not in self.alphabet:
                raise RulesError(f"letter_values names {letter!r}, which is not in the alphabet {self.alphabet!r}")
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 1000:
                raise RulesError(f"value of letter {letter!r} must be an integer from 0 to 1000, got {value!r}")
        for faces in self.jokers:
            if not faces:
                raise RulesError("a joker needs at least one letter")
            bad = [c for c in faces if c not in self.alphabet]
            if bad:
                raise RulesError(f"joker {faces.upper()} has letter(s) {''.join(bad)!r} outside the alphabet")

    # ---------------------------------------------------------------- scoring
    def length_bonus(self, length: int) -> int:
        """Bonus of a word of ``length`` letters: +step for the 6th letter, +2 step for the 7th, ..."""
        extra = length - self.bonus_from + 1
        return self.bonus_step * extra * (extra + 1) // 2 if extra > 0 else 0

    def letter_sum(self, word: str) -> int:
        """Sum of the letter values of ``word``."""
        values = self.letter_values
        return sum(values[c] for c in word)

    def word_score(self, word: str, jokers: int = 0) -> int:
        """Score of a word claimed from the field with ``jokers`` jokers: (letters + bonus) x 2^j."""
        return (self.letter_sum(word) + self.length_bonus(len(word))) * self.joker_factor**jokers

    def compound_score(self, word: str, level: int, jokers: int) -> int:
        """Score of a compound of ``level`` (>= 1) holding ``jokers`` jokers in its parts.

        With jokers only the joker factor counts ("not cumulated"); otherwise the compound factor
        to the power of the level.
        """
        base = self.letter_sum(word) + self.length_bonus(len(word))
        if jokers:
            return base * self.joker_factor**jokers
        return base * self.compound_factor**level

    def min_word_length(self, last_cube: bool) -> int:
        """Shortest word allowed: ``last_cube_min_length`` for the player of the last cube."""
        return min(self.min_length, self.last_cube_min_length) if last_cube else self.min_length

    def joker_letters(self, index: int) -> str:
        """Distinct letters of joker ``index``, in face order."""
        return "".join(dict.fromkeys(self.jokers[index]))

    # ---------------------------------------------------------------- I/O
    def with_(self, **changes: Any) -> KubagramRules:
        """A copy with some settings changed (validated)."""
        return with_changes(self, changes)

    def to_dict(self) -> dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in fields(self)}
        d["letter_values"] = dict(self.letter_values)
        d["jokers"] = list(self.jokers)
        return d

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> KubagramRules:
        """Rules from a mapping (e.g. parsed TOML or JSON); unknown keys are an error."""
        data = checked_settings(cls, data)
        if "letter_values" in data:
            lv = data["letter_values"]
            if not isinstance(lv, Mapping):
                raise RulesError("letter_values must be a table of letter = value")
            data["letter_values"] = {**dict(DUTCH_SCRABBLE_VALUES), **{str(k).lower(): v for k, v in lv.items()}} if data.get("alphabet", LATIN) == LATIN else dict(lv)
        if "jokers" in data:
            if not isinstance(data["jokers"], (list, tuple)) or not all(isinstance(j, str) for j in data["jokers"]):
                raise RulesError("jokers must be a list of strings such as [\"EYGR\", \"PLTOLE\"]")
            data["jokers"] = tuple(data["jokers"])
        try:
            return cls(**data)
        except TypeError as exc:
            raise RulesError(str(exc)) from None

    @classmethod
    def from_toml(cls, source: str | Path) -> KubagramRules:
        """Rules from a TOML file path or TOML text; settings may sit at top level or under [kubagram]."""
        return cls.from_dict(read_toml_table(source, "kubagram"))
