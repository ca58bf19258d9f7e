"""Crossword game rule settings as data: a frozen :class:`CrosswordRules`, loaded from TOML.

The defaults are the Dutch rules of issue 10 (``data/rules_nl.toml`` holds the same values); every
setting and every choice made where the rulebook is silent is documented in ``docs/crossword.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from functools import cache
from pathlib import Path
from typing import Any

from kubasolve.errors import RulesError
from kubasolve.games.crossword.layout import DATA_DIR, TILE_SETS, BoardLayout, TileSet, load_layout, load_tiles
from kubasolve.games.settings import checked_settings, read_toml_table

WORD_CHECKS = ("referee", "challenge")
FAILED_CHALLENGE = ("lose-turn", "points", "none")
BUNDLED_TILES = TILE_SETS
BUNDLED_RULES = {"nl": "rules_nl.toml", "en": "rules_en.toml"}


@dataclass(frozen=True)
class CrosswordRules:
    """Every crossword rule that varies between tables, as one immutable value."""

    layout: str = "standard15"
    """Board layout: a bundled name (``standard15``) or a layout TOML path."""
    tiles: str = "nl"
    """Tile set: ``nl`` (102 Dutch tiles), ``en`` (100 English tiles) or a tile-set TOML path."""
    min_players: int = 2
    max_players: int = 4
    rack_size: int = 7
    bingo_bonus: int = 50
    """Bonus for playing all ``rack_size`` tiles in one turn."""
    exchange_min_bag: int = 7
    """An exchange needs at least this many tiles in the bag."""
    scoreless_rounds_end: int = 2
    """"No one can move any more": the game ends when every player has had this many scoreless turns in
    a row (passes, withdrawn plays, lost challenges; an exchange is a move and resets the count), i.e. after
    ``scoreless_rounds_end x players`` scoreless turns in a row (4 with two players, 8 with four); 0 = never."""
    scoreless_turns_end: int = 0
    """When above 0, a fixed number of scoreless turns in a row ends the game whatever the number of
    players (the English tournament rule: 6, exchanges counted), in place of ``scoreless_rounds_end``."""
    word_check: str = "referee"
    """``referee``: a move forming a word outside the lexicon is refused; ``challenge``: it stays on
    the board unless the next player challenges it."""
    failed_challenge: str = "lose-turn"
    """What an unsuccessful challenge costs the challenger: ``lose-turn`` (their turn is over),
    ``points`` (the challenged player gains ``failed_challenge_points``) or ``none``."""
    failed_challenge_points: int = 5

    def __post_init__(self) -> None:
        self.validate()

    def validate(self) -> None:
        """Raise :class:`RulesError` naming the first bad setting."""
        def check_int(name: str, lo: int, hi: int) -> None:
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
                raise RulesError(f"{name} must be an integer from {lo} to {hi}, got {v!r}")

        for name in ("layout", "tiles", "word_check", "failed_challenge"):
            if not isinstance(getattr(self, name), str):
                raise RulesError(f"{name} must be a string, got {getattr(self, name)!r}")
        check_int("min_players", 1, 4)
        check_int("max_players", 1, 4)
        if self.min_players > self.max_players:
            raise RulesError("min_players must not exceed max_players")
        check_int("rack_size", 1, 15)
        check_int("bingo_bonus", 0, 1000)
        check_int("exchange_min_bag", 0, 1000)
        check_int("scoreless_rounds_end", 0, 25)
        check_int("scoreless_turns_end", 0, 100)
        check_int("failed_challenge_points", 0, 1000)
        if self.word_check not in WORD_CHECKS:
            raise RulesError(f"word_check must be one of {', '.join(WORD_CHECKS)}, got {self.word_check!r}")
        if self.failed_challenge not in FAILED_CHALLENGE:
            raise RulesError(f"failed_challenge must be one of {', '.join(FAILED_CHALLENGE)}, got {self.failed_challenge!r}")
        tiles = self.tile_set()
        self.board_layout()
        if tiles.total < self.min_players * self.rack_size:
            raise RulesError(f"tile set {tiles.name!r} has {tiles.total} tiles, too few to fill {self.min_players} racks of {self.rack_size}")

    def scoreless_limit(self, n_players: int) -> int:
        """Scoreless turns in a row that end a game of ``n_players`` (0: never)."""
        return self.scoreless_turns_end or self.scoreless_rounds_end * n_players

    @property
    def exchange_is_scoreless(self) -> bool:
        """Whether an exchange counts toward the scoreless ending. Under ``scoreless_turns_end`` (the English
        tournament rule: six scoreless turns, exchanges included) it does. Under ``scoreless_rounds_end`` ("no one
        can move any more": every player passed twice in a row) it does not: an exchange is a move, and it resets
        the count (four exchanges at the start ended a game with 88 tiles in the bag)."""
        return self.scoreless_turns_end > 0

    # ---------------------------------------------------------------- equipment
    def tile_set(self) -> TileSet:
        """The tile set (with this rule set's rack size)."""
        ts = _tiles(self.tiles)
        return ts if ts.rack_size == self.rack_size else replace(ts, rack_size=self.rack_size)

    def board_layout(self) -> BoardLayout:
        return _layout(self.layout)

    # ---------------------------------------------------------------- I/O
    def with_(self, **changes: Any) -> CrosswordRules:
        """A copy with some settings changed (validated)."""
        return CrosswordRules.from_dict({**self.to_dict(), **changes})

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> CrosswordRules:
        """Rules from a mapping (parsed TOML or JSON); unknown settings refused by name."""
        return cls(**checked_settings(cls, data))

    @classmethod
    def from_toml(cls, source: str | Path) -> CrosswordRules:
        """Rules from a TOML file path, a bundled name (``nl``, ``en``) or TOML text; settings at top
        level or under ``[crossword]``."""
        if isinstance(source, str) and source in BUNDLED_RULES:
            source = DATA_DIR / BUNDLED_RULES[source]
        table = read_toml_table(source, "crossword")
        return cls.from_dict({k: v for k, v in table.items() if k != "name"})


@cache
def _tiles(name: str) -> TileSet:
    return load_tiles(str(DATA_DIR / BUNDLED_TILES[name]) if name in BUNDLED_TILES else name)


@cache
def _layout(name: str) -> BoardLayout:
    return load_layout(name)


__all__ = ["FAILED_CHALLENGE", "WORD_CHECKS", "CrosswordRules"]
