"""Scruble Cube rule settings as data: a frozen :class:`ScrubleRules`, loadable from TOML.

The rules of "Reglas del juego Scruble Cube" (in English, as issue 11 states them; the Spanish quoted
is what issue 22 quotes) and the choices where the rulebook is silent (all in docs/scruble.md):

* Words of at least 3 letters, 4 as the harder option: ``min_length``.
* "Se debe colocar al menos una nueva letra": ``require_new_letter``, read by pegs: a word places no
  new letter when its pegs already stood in a row, in that order (or reversed), on one belt at the
  start of the turn (an unmoved word, a word slid along its belt by a layer turn).
* Option 1 (``premium_mode = "ends"``): a premium peg at the beginning or end of a word; a letter
  premium multiplies the letter next to it, a word premium the word; premiums at both ends both count.
* Option 2 (``premium_mode = "wild"``): premium pegs are wildcards; a letter-premium wildcard
  multiplies the higher-valued neighbouring letter of the word (a tie: the better reading for the
  player), a word-premium wildcard the word.
* "Las clavijas premium … no se aplican en turnos posteriores para esa palabra": a premium peg that
  counted for a word never counts for that word again (the game keeps which).
* Bonuses 6 letters +5, 7-8 letters +10, 9+ letters +15 (``length_bonus``); letters on three faces
  +10 (``three_face_bonus``).
* Crossing (``crossing``): a new word crossing a word scored earlier and still intact scores both.
* End: when a player exceeds ("supera") ``target_score`` (default 100), or after ``rounds`` (10).
* Choices: ``directions`` ("both": pegs spin, a run reads either way; "forward": belt order only),
  ``full_belt_words`` (a word may use all 16 cells of a belt; default no), ``max_twists`` per turn.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from kubasolve.errors import RulesError
from kubasolve.games.scruble.pegs import PegSet, load_pegs
from kubasolve.games.settings import checked_settings, read_toml_table

DEFAULT_LENGTH_BONUS: tuple[tuple[int, int], ...] = ((6, 5), (7, 10), (9, 15))
"""(from length, bonus) steps: 6 letters +5, 7-8 +10, 9 and more +15."""


@dataclass(frozen=True)
class ScrubleRules:
    """Every Scruble Cube rule setting, as one immutable value."""

    min_length: int = 3
    require_new_letter: bool = True
    premium_mode: str = "ends"
    length_bonus: tuple[tuple[int, int], ...] = DEFAULT_LENGTH_BONUS
    three_face_bonus: int = 10
    crossing: bool = True
    directions: str = "both"
    full_belt_words: bool = False
    max_twists: int = 3
    target_score: int = 100
    rounds: int = 10
    pegs: PegSet = field(default_factory=lambda: load_pegs("en"))

    def __post_init__(self) -> None:
        object.__setattr__(self, "length_bonus", tuple((int(a), int(b)) for a, b in self.length_bonus))
        self.validate()

    def validate(self) -> None:
        """Raise :class:`RulesError` naming the first bad setting."""
        def check_int(name: str, lo: int, hi: int) -> None:
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                raise RulesError(f"{name} must be an integer from {lo} to {hi}, got {v!r}")

        check_int("min_length", 2, 16)
        check_int("three_face_bonus", 0, 1000)
        check_int("max_twists", 1, 6)
        check_int("target_score", 1, 100000)
        check_int("rounds", 1, 1000)
        for name in ("require_new_letter", "crossing", "full_belt_words"):
            if not isinstance(getattr(self, name), bool):
                raise RulesError(f"{name} must be true or false")
        if self.premium_mode not in ("ends", "wild"):
            raise RulesError(f"premium_mode must be 'ends' (option 1) or 'wild' (option 2), got {self.premium_mode!r}")
        if self.directions not in ("both", "forward"):
            raise RulesError(f"directions must be 'both' or 'forward', got {self.directions!r}")
        last = 0
        for a, b in self.length_bonus:
            if not 2 <= a <= 16 or a <= last or not 0 <= b <= 1000:
                raise RulesError("length_bonus must be increasing (from_length 2..16, bonus 0..1000) pairs")
            last = a
        if not isinstance(self.pegs, PegSet):
            raise RulesError("pegs must be a PegSet")

    @property
    def max_length(self) -> int:
        """Longest word in letters: 16 if a word may fill the whole belt, else 15."""
        return 16 if self.full_belt_words else 15

    def bonus_for_length(self, n_letters: int) -> int:
        bonus = 0
        for a, b in self.length_bonus:
            if n_letters >= a:
                bonus = b
        return bonus

    def length_bonus_table(self) -> list[int]:
        """Bonus by number of letters, index 0..16."""
        return [self.bonus_for_length(n) for n in range(17)]

    # ---------------------------------------------------------------- (de)serialisation
    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            v = getattr(self, f.name)
            if f.name == "pegs":
                out["pegs"] = v.to_dict()
            elif f.name == "length_bonus":
                out[f.name] = [list(p) for p in v]
            else:
                out[f.name] = v
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> ScrubleRules:
        """Build from a mapping; unknown keys are refused by name; ``pegs`` may be a name, path or table."""
        kwargs = checked_settings(cls, data, what="Scruble rule")
        pegs = kwargs.get("pegs")
        if isinstance(pegs, str):
            kwargs["pegs"] = load_pegs(pegs)
        elif isinstance(pegs, Mapping):
            kwargs["pegs"] = PegSet.from_dict(pegs)
        if "length_bonus" in kwargs:
            lb = kwargs["length_bonus"]
            if not isinstance(lb, (list, tuple)) or not all(isinstance(p, (list, tuple)) and len(p) == 2 for p in lb):
                raise RulesError("length_bonus must be a list of [from_length, bonus] pairs")
            if not all(isinstance(x, int) and not isinstance(x, bool) for p in lb for x in p):
                raise RulesError("length_bonus entries must be integers")
            kwargs["length_bonus"] = tuple(tuple(p) for p in lb)
        try:
            return cls(**kwargs)
        except TypeError as exc:
            raise RulesError(str(exc)) from None

    @classmethod
    def from_toml(cls, source: str | Path) -> ScrubleRules:
        """Rules from a TOML file (a ``[scruble]`` table or top-level keys), read by the loader every game
        shares (:func:`kubasolve.games.settings.read_toml_table`); TOML text works too."""
        return cls.from_dict(read_toml_table(source, "scruble"))

    def with_(self, **changes: Any) -> ScrubleRules:
        return replace(self, **changes)

    def __hash__(self) -> int:
        return hash(json.dumps(self.to_dict(), sort_keys=True))


__all__ = ["DEFAULT_LENGTH_BONUS", "ScrubleRules"]
