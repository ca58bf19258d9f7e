"""Rummikub rule variants as data: a frozen dataclass with the rulebook's defaults, loadable from TOML.

Every setting is checked in ``__post_init__`` so a bad variant fails early with a clear
:class:`~kubasolve.errors.RulesError` instead of producing wrong answers later.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from kubasolve.errors import RulesError

#: Letters naming the colours in tile text, in order: red, blue, orange, black, green, magenta, white, cyan.
DEFAULT_COLOUR_LETTERS = "rbokgmwc"
#: Settings of ``RummikubRules.joker_retrieval``.
JOKER_RETRIEVAL = ("strict", "free")
#: Settings of ``RummikubRules.empty_pool_end``.
EMPTY_POOL_END = ("no-legal-move", "round-of-passes")


@dataclass(frozen=True)
class RummikubRules:
    """One Rummikub variant; the defaults are the standard rulebook (106 tiles, 14 dealt, 30-point first meld)."""

    numbers: int = 13
    """Tiles are numbered 1..numbers in each colour."""
    colours: int = 4
    """How many colours; colour ``i`` is written with letter ``colour_letters[i]``."""
    copies: int = 2
    """How many copies of each numbered tile."""
    jokers: int = 2
    """How many jokers in the game."""
    min_set_size: int = 3
    """Smallest legal run or group."""
    min_first_meld: int = 30
    """Points a player's first meld must reach, from their own tiles only."""
    tiles_dealt: int = 14
    """Tiles dealt to each player at the start."""
    joker_penalty: int = 30
    """Minus points a joker left on a rack costs at the end."""
    timeout_draw: int = 3
    """Tiles drawn as penalty when a timed turn fails (timer variant)."""
    colour_letters: str = DEFAULT_COLOUR_LETTERS[:4]
    """One letter per colour for tile text such as ``r7`` (``J`` is the joker)."""
    joker_retrieval: str = "strict"
    """``"strict"`` (the rulebook): a table joker keeps the tile it stands for unless that tile, from the
    rack, takes its place; ``"free"``: table jokers may move to any set (rummikub-solver's reading)."""
    empty_pool_end: str = "no-legal-move"
    """When the pool is empty: ``"no-legal-move"`` (the rulebook: play goes on "totdat niemand meer een geldige
    zet kan doen", until nobody can make a valid move; a pass ends the game only when no player has a legal
    play) or ``"round-of-passes"`` (a whole round of passes ends it, even if a player could still play)."""

    def __post_init__(self) -> None:
        def check(ok: bool, message: str) -> None:
            if not ok:
                raise RulesError(f"invalid Rummikub rules: {message}")

        for f in fields(self):
            value = getattr(self, f.name)
            expected = str if f.name in ("colour_letters", "joker_retrieval", "empty_pool_end") else int
            check(type(value) is expected, f"{f.name} must be {expected.__name__}, got {value!r}")
        check(1 <= self.numbers <= 26, f"numbers must be 1..26, got {self.numbers}")
        check(1 <= self.colours <= 8, f"colours must be 1..8, got {self.colours}")
        check(1 <= self.copies <= 4, f"copies must be 1..4, got {self.copies}")
        check(0 <= self.jokers <= 4, f"jokers must be 0..4, got {self.jokers}")
        check(2 <= self.min_set_size <= 6, f"min_set_size must be 2..6, got {self.min_set_size}")
        check(
            self.min_set_size <= max(self.numbers, self.colours),
            f"min_set_size {self.min_set_size} leaves no legal set with {self.numbers} numbers and {self.colours} colours",
        )
        check(self.min_first_meld >= 0, f"min_first_meld must be >= 0, got {self.min_first_meld}")
        check(self.tiles_dealt >= 1, f"tiles_dealt must be >= 1, got {self.tiles_dealt}")
        check(self.joker_penalty >= 0, f"joker_penalty must be >= 0, got {self.joker_penalty}")
        check(self.timeout_draw >= 0, f"timeout_draw must be >= 0, got {self.timeout_draw}")
        letters = self.colour_letters
        check(len(letters) == self.colours, f"colour_letters {letters!r} must have exactly {self.colours} letters")
        check(letters.isascii() and letters.isalpha() and letters.islower(),
              f"colour_letters {letters!r} must be lower-case letters a-z")
        check(len(set(letters)) == len(letters), f"colour_letters {letters!r} repeats a letter")
        check("j" not in letters, "colour_letters may not use 'j' (J is the joker)")
        check(
            self.joker_retrieval in JOKER_RETRIEVAL,
            f"joker_retrieval must be one of {', '.join(JOKER_RETRIEVAL)}, got {self.joker_retrieval!r}",
        )
        check(
            self.empty_pool_end in EMPTY_POOL_END,
            f"empty_pool_end must be one of {', '.join(EMPTY_POOL_END)}, got {self.empty_pool_end!r}",
        )

    # --- derived sizes -------------------------------------------------------------------------
    @property
    def kinds(self) -> int:
        """Number of distinct tile codes: numbered tiles ``0..colours*numbers-1`` plus the joker code."""
        return self.colours * self.numbers + 1

    @property
    def joker(self) -> int:
        """The tile code of the joker."""
        return self.colours * self.numbers

    @property
    def total_tiles(self) -> int:
        """Tiles in the box (106 by default)."""
        return self.colours * self.numbers * self.copies + self.jokers

    # --- construction helpers ------------------------------------------------------------------
    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RummikubRules:
        """Build rules from a mapping; unknown keys are an error (typos must not pass silently)."""
        if not isinstance(data, dict):
            raise RulesError("Rummikub rules must be a table/object of settings")
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(
                f"unknown Rummikub rule setting(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
            )
        data = dict(data)
        if "colours" in data and "colour_letters" not in data and isinstance(data["colours"], int):
            data["colour_letters"] = DEFAULT_COLOUR_LETTERS[: max(0, data["colours"])]
        return cls(**data)

    @classmethod
    def from_toml(cls, path: str | Path) -> RummikubRules:
        """Load rules from a TOML file (top-level keys, or a ``[rummikub]`` table)."""
        from kubasolve.games.settings import read_toml_table

        return cls.from_dict(read_toml_table(Path(path), "rummikub"))

    def to_dict(self) -> dict[str, Any]:
        """Plain dict of the settings (JSON/TOML friendly). ``empty_pool_end`` is left out at its default (the
        rulebook's), so saved states stay readable by readers that predate the setting."""
        out = asdict(self)
        if out["empty_pool_end"] == EMPTY_POOL_END[0]:
            del out["empty_pool_end"]
        return out
