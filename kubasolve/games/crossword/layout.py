"""Board layouts (premium squares) and tile sets of the crossword game, loaded from TOML data files.

A layout file holds one string per row: ``.`` plain, ``d``/``t`` double/triple letter, ``D``/``T``
double/triple word, ``*`` the centre square (the first word covers it; it doubles that word).
A tile-set file holds ``rack_size`` and the tables ``[counts]`` and ``[values]`` keyed by upper-case
letters and ``"?"`` (the blank, value 0).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from kubasolve.errors import RulesError

DATA_DIR = Path(__file__).parent / "data"
LAYOUTS = {"standard15": "board_15x15.toml"}
TILE_SETS = {"nl": "tiles_nl.toml", "en": "tiles_en.toml"}
BLANK = "?"

_SQUARES = {".": (1, 1), "d": (2, 1), "t": (3, 1), "D": (1, 2), "T": (1, 3), "*": (1, 2)}


@dataclass(frozen=True)
class BoardLayout:
    """A rectangular board: per-square letter and word multipliers and the centre square."""

    name: str
    rows: int
    cols: int
    letter_mult: tuple[tuple[int, ...], ...]
    word_mult: tuple[tuple[int, ...], ...]
    centre: tuple[int, int]

    def __post_init__(self) -> None:
        if self.rows < 1 or self.cols < 1:
            raise RulesError(f"board layout {self.name!r} has no squares")
        for table, what in ((self.letter_mult, "letter_mult"), (self.word_mult, "word_mult")):
            if len(table) != self.rows or any(len(r) != self.cols for r in table):
                raise RulesError(f"board layout {self.name!r}: {what} is not {self.rows}x{self.cols}")
            if any(m < 1 for r in table for m in r):
                raise RulesError(f"board layout {self.name!r}: {what} holds a multiplier below 1")
        r, c = self.centre
        if not (0 <= r < self.rows and 0 <= c < self.cols):
            raise RulesError(f"board layout {self.name!r}: centre {self.centre} is off the board")

    @property
    def max_word_length(self) -> int:
        return max(self.rows, self.cols)


def _read_toml(name_or_path: str, known: dict[str, str], what: str) -> tuple[str, dict[str, Any]]:
    path = DATA_DIR / known[name_or_path] if name_or_path in known else Path(name_or_path)
    if name_or_path not in known and not path.is_file():
        raise RulesError(f"unknown {what} {name_or_path!r}: not one of {sorted(known)} and not a file")
    try:
        return str(path), tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise RulesError(f"cannot read {what} file {str(path)!r}: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"{what} file {str(path)!r} is not valid TOML: {exc}") from None


def load_layout(name_or_path: str = "standard15") -> BoardLayout:
    """A bundled layout by name (``"standard15"``) or a layout TOML file by path."""
    path, data = _read_toml(name_or_path, LAYOUTS, "board layout")
    rows = data.get("rows")
    if not isinstance(rows, list) or not rows or not all(isinstance(r, str) for r in rows):
        raise RulesError(f"board layout {path!r}: 'rows' must be a non-empty list of strings")
    width = len(rows[0])
    if any(len(r) != width for r in rows):
        raise RulesError(f"board layout {path!r}: rows have different lengths")
    bad = sorted({ch for r in rows for ch in r if ch not in _SQUARES})
    if bad:
        raise RulesError(f"board layout {path!r}: unknown square character(s) {''.join(bad)!r} (use . d t D T *)")
    centres = [(i, j) for i, r in enumerate(rows) for j, ch in enumerate(r) if ch == "*"]
    if len(centres) != 1:
        raise RulesError(f"board layout {path!r}: needs exactly one centre square '*', found {len(centres)}")
    name = data.get("name", Path(path).stem)
    if not isinstance(name, str):
        raise RulesError(f"board layout {path!r}: 'name' must be a string")
    return BoardLayout(
        name=name,
        rows=len(rows),
        cols=width,
        letter_mult=tuple(tuple(_SQUARES[ch][0] for ch in r) for r in rows),
        word_mult=tuple(tuple(_SQUARES[ch][1] for ch in r) for r in rows),
        centre=centres[0],
    )


@dataclass(frozen=True)
class TileSet:
    """The tiles of a game: how many of each letter (``"?"`` = blank), their values, the rack size."""

    name: str
    letters: str
    counts: dict[str, int] = field(hash=False)
    values: dict[str, int] = field(hash=False)
    rack_size: int = 7

    def __post_init__(self) -> None:
        if set(self.counts) != set(self.letters) | ({BLANK} if BLANK in self.counts else set()):
            raise RulesError(f"tile set {self.name!r}: counts must name exactly the letters {self.letters!r} (and '?')")
        if set(self.values) != set(self.counts):
            raise RulesError(f"tile set {self.name!r}: values and counts name different tiles")
        if any(not (isinstance(v, int) and v >= 0) for v in [*self.counts.values(), *self.values.values()]):
            raise RulesError(f"tile set {self.name!r}: counts and values must be integers >= 0")
        if self.values.get(BLANK, 0) != 0:
            raise RulesError(f"tile set {self.name!r}: the blank is worth 0")
        if not 1 <= self.rack_size <= 15:
            raise RulesError(f"tile set {self.name!r}: rack_size must be 1..15")

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    @property
    def blanks(self) -> int:
        return self.counts.get(BLANK, 0)

    def value(self, tile: str) -> int:
        """Value of a tile: an upper-case letter, or a lower-case letter / ``"?"`` for a blank (0)."""
        if tile == BLANK or tile.islower():
            return 0
        return self.values[tile]


def tile_upper(ch: str) -> str | None:
    """``ch``'s upper case when that is one character that stands for ``ch`` (``ch`` itself, or lower-casing back to
    it), else None: ``ß`` -> ``SS``, the Turkish dotless ``ı`` -> ``I`` and the ligature ``ﬁ`` -> ``FI`` are no
    tile's letter, never read as other letters."""
    up = ch.upper()
    return up if len(up) == 1 and (ch == up or up.lower() == ch) else None


def tile_letters(text: str, tiles: TileSet) -> tuple[str, str]:
    """(the tiles of ``text`` in upper case, ``?`` a blank; the characters that are not tiles of ``tiles``), each
    character checked as typed (:func:`tile_upper`)."""
    tiles_out: list[str] = []
    bad: list[str] = []
    for ch in text:
        up = tile_upper(ch)
        if ch == BLANK or (up is not None and up != BLANK and up in tiles.values):
            tiles_out.append(up or BLANK)
        elif ch not in bad:
            bad.append(ch)
    return "".join(tiles_out), "".join(sorted(bad))


def load_tiles(name_or_path: str = "nl") -> TileSet:
    """A bundled tile set by name (``"nl"``: Dutch, 102 tiles; ``"en"``: English, 100) or a tile-set TOML file by path."""
    path, data = _read_toml(name_or_path, TILE_SETS, "tile set")
    counts, values = data.get("counts"), data.get("values")
    if not isinstance(counts, dict) or not isinstance(values, dict):
        raise RulesError(f"tile set {path!r}: needs the tables [counts] and [values]")
    bad = sorted(k for k in counts if k != BLANK and not (len(k) == 1 and k.isupper()))
    if bad:
        raise RulesError(f"tile set {path!r}: tiles are single upper-case letters or '?', got {bad}")
    letters = "".join(sorted(k for k in counts if k != BLANK))
    rack_size = data.get("rack_size", 7)
    if not isinstance(rack_size, int):
        raise RulesError(f"tile set {path!r}: rack_size must be an integer")
    return TileSet(name=str(data.get("name", Path(path).stem)), letters=letters, counts=dict(counts), values=dict(values), rack_size=rack_size)
