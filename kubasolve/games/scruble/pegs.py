"""Scruble Cube pegs as data: letter values and counts, wildcards and premium pegs (TOML in ``data/``).

A peg shows one symbol in the 96-character state notation: a letter (upper case), ``?`` for a
wildcard peg (any letter, value 0), ``2`` / ``3`` for a 2x / 3x letter premium peg and ``+`` / ``#``
for a 2x / 3x word premium peg.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from types import MappingProxyType
from typing import Any

from kubasolve.errors import RulesError

LETTER, WILDCARD, DOUBLE_LETTER, TRIPLE_LETTER, DOUBLE_WORD, TRIPLE_WORD = range(6)
KIND_SYMBOL = {WILDCARD: "?", DOUBLE_LETTER: "2", TRIPLE_LETTER: "3", DOUBLE_WORD: "+", TRIPLE_WORD: "#"}
SYMBOL_KIND = {v: k for k, v in KIND_SYMBOL.items()}
KIND_NAME = {
    LETTER: "letter", WILDCARD: "wildcard", DOUBLE_LETTER: "double_letter",
    TRIPLE_LETTER: "triple_letter", DOUBLE_WORD: "double_word", TRIPLE_WORD: "triple_word",
}
PREMIUM_FACTOR = {DOUBLE_LETTER: 2, TRIPLE_LETTER: 3, DOUBLE_WORD: 2, TRIPLE_WORD: 3}
PREMIUM_KINDS = (DOUBLE_LETTER, TRIPLE_LETTER, DOUBLE_WORD, TRIPLE_WORD)


@dataclass(frozen=True)
class PegSet:
    """The pegs of one physical cube: alphabet, value and count of each letter, wildcards, premiums."""

    name: str
    alphabet: str
    values: Mapping[str, int]
    counts: Mapping[str, int]
    wildcards: int = 2
    premiums: Mapping[str, int] = field(
        default_factory=lambda: {"double_letter": 1, "triple_letter": 1, "double_word": 1, "triple_word": 1})

    def __post_init__(self) -> None:
        object.__setattr__(self, "values", MappingProxyType({str(k).lower(): v for k, v in dict(self.values).items()}))
        object.__setattr__(self, "counts", MappingProxyType({str(k).lower(): v for k, v in dict(self.counts).items()}))
        object.__setattr__(self, "premiums", MappingProxyType(dict(self.premiums)))
        self.validate()

    def __hash__(self) -> int:
        return hash((self.name, self.alphabet, tuple(sorted(self.values.items())), tuple(sorted(self.counts.items())),
                     self.wildcards, tuple(sorted(self.premiums.items()))))

    def validate(self) -> None:
        """Raise :class:`RulesError` naming the first bad entry (the set must fill 96 cells)."""
        if not self.alphabet or len(set(self.alphabet)) != len(self.alphabet) or self.alphabet != self.alphabet.lower():
            raise RulesError(f"peg set {self.name!r}: alphabet must be distinct lower-case letters")
        for c in self.alphabet:
            if c in "?23+#" or not c.isalpha():
                raise RulesError(f"peg set {self.name!r}: {c!r} cannot be a letter")
        for table in ("values", "counts"):
            t = getattr(self, table)
            for k, v in t.items():
                if k not in self.alphabet:
                    raise RulesError(f"peg set {self.name!r}: {table} names {k!r}, which is not in the alphabet")
                if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 1000:
                    raise RulesError(f"peg set {self.name!r}: {table}.{k} must be an integer 0..1000, got {v!r}")
        missing = [c for c in self.alphabet if c not in self.values]
        if missing:
            raise RulesError(f"peg set {self.name!r}: no value for letter(s) {''.join(missing)}")
        for k, v in self.premiums.items():
            if k not in ("double_letter", "triple_letter", "double_word", "triple_word"):
                raise RulesError(f"peg set {self.name!r}: unknown premium {k!r} (double_letter, triple_letter, double_word, triple_word)")
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise RulesError(f"peg set {self.name!r}: premiums.{k} must be a count >= 0")
        if not isinstance(self.wildcards, int) or isinstance(self.wildcards, bool) or self.wildcards < 0:
            raise RulesError(f"peg set {self.name!r}: wildcards must be a count >= 0")
        if self.total != 96:
            raise RulesError(f"peg set {self.name!r} has {self.total} pegs; a 4x4x4 cube has 96 cells")

    @property
    def total(self) -> int:
        return sum(self.counts.values()) + self.wildcards + sum(self.premiums.values())

    def symbols(self) -> list[str]:
        """All 96 pegs as state symbols, in a fixed order (letters A-Z, then ``?``, ``2``, ``3``, ``+``, ``#``)."""
        out = [c.upper() for c in self.alphabet for _ in range(self.counts.get(c, 0))]
        out += ["?"] * self.wildcards
        for kind in PREMIUM_KINDS:
            out += [KIND_SYMBOL[kind]] * self.premiums.get(KIND_NAME[kind], 0)
        return out

    def symbol_value(self, symbol: str) -> int:
        """Value of a peg symbol (0 for wildcards and premium pegs)."""
        return int(self.values.get(symbol.lower(), 0)) if symbol not in SYMBOL_KIND else 0

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "alphabet": self.alphabet, "values": dict(self.values), "counts": dict(self.counts),
                "wildcards": self.wildcards, "premiums": dict(self.premiums)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], name: str = "custom") -> PegSet:
        known = {"name", "alphabet", "values", "counts", "wildcards", "premiums"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(f"unknown peg-set key(s) {', '.join(unknown)} (known: {', '.join(sorted(known))})")
        for key in ("alphabet", "values", "counts"):
            if key not in data:
                raise RulesError(f"peg set {name!r} lacks {key!r}")
        return cls(
            name=str(data.get("name", name)), alphabet=str(data["alphabet"]), values=dict(data["values"]),
            counts=dict(data["counts"]), wildcards=data.get("wildcards", 2),
            premiums=dict(data.get("premiums", {"double_letter": 1, "triple_letter": 1, "double_word": 1, "triple_word": 1})),
        )

    @classmethod
    def from_toml(cls, path: str | Path) -> PegSet:
        """Load a user's cube from TOML (same keys as ``data/pegs_en.toml``)."""
        p = Path(path)
        try:
            data = tomllib.loads(p.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise RulesError(f"peg-set file {str(p)!r} does not exist") from None
        except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as exc:
            raise RulesError(f"cannot read peg-set file {str(p)!r}: {exc}") from None
        return cls.from_dict(data, name=p.stem)


def load_pegs(name: str = "en") -> PegSet:
    """A bundled peg set (``en``, ``es``) or a TOML file path."""
    if name in ("en", "es"):
        text = resources.files("kubasolve.games.scruble.data").joinpath(f"pegs_{name}.toml").read_text(encoding="utf-8")
        return PegSet.from_dict(tomllib.loads(text), name=name)
    if name.endswith(".toml"):
        return PegSet.from_toml(name)
    raise RulesError(f"unknown peg set {name!r}: bundled en, es, or a .toml file")


__all__ = [
    "DOUBLE_LETTER",
    "DOUBLE_WORD",
    "KIND_SYMBOL",
    "LETTER",
    "PREMIUM_FACTOR",
    "PegSet",
    "SYMBOL_KIND",
    "TRIPLE_LETTER",
    "TRIPLE_WORD",
    "WILDCARD",
    "load_pegs",
]
