"""Kubagram's physical equipment: cubes, cube sets and the marked board, loadable from TOML.

The rulebook gives neither the cube letters nor the square markings, so kubasolve ships a documented
default Dutch set (``data/cubes_nl.toml``) and marking layout (``data/board_9x12.toml``); see
``docs/kubagram_set.md``. Users describe their own physical set in the same TOML format. Nothing is read
at import time.
"""

from __future__ import annotations

import enum
import functools
import os
import tomllib
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from kubasolve.errors import RulesError
from kubasolve.games.arguments import is_int
from kubasolve.lexicon.alphabet import normalize_word

__all__ = [
    "DEFAULT_ALPHABET",
    "LETTERS_PER_NORMAL_CUBE",
    "ROTATIONS",
    "BoardLayout",
    "Cube",
    "CubeSet",
    "Square",
    "rotate_position",
    "rotated_shape",
]

DEFAULT_ALPHABET = "abcdefghijklmnopqrstuvwxyz"
LETTERS_PER_NORMAL_CUBE = 3
MAX_JOKER_FACES = 6
ROTATIONS = (0, 90, 180, 270)  # clockwise turns of the board, in degrees

_DATA = "kubasolve.games.kubagram.data"
_CUBES_NL = "cubes_nl.toml"
_BOARD_9X12 = "board_9x12.toml"

_CUBESET_KEYS = {"name", "alphabet", "count", "normal", "jokers", "meta"}
_LAYOUT_KEYS = {"name", "rows", "cols", "markings", "meta"}


# --------------------------------------------------------------------------------------------------------- helpers


def _read_toml(source: str | os.PathLike[str], what: str) -> dict[str, Any]:
    """Parse TOML from a path or from text; a ``str`` without newline and ``=`` is a path, else text."""
    if isinstance(source, os.PathLike) or (isinstance(source, str) and "\n" not in source and "=" not in source):
        path = Path(source)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise RulesError(f"{what} file not found: {str(path)!r}") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise RulesError(f"cannot read {what} file {str(path)!r}: {exc}") from None
        where = repr(str(path))
    elif isinstance(source, str):
        text, where = source, "text"
    else:
        raise RulesError(f"{what} must be a path or TOML text, got {type(source).__name__}")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RulesError(f"invalid TOML in {what} {where}: {exc}") from None


@functools.cache
def _read_package_toml(name: str) -> str:
    """Text of a TOML file shipped in ``kubasolve/games/kubagram/data`` (read once, on first use)."""
    return resources.files(_DATA).joinpath(name).read_text(encoding="utf-8")


def _check_keys(data: Mapping[str, Any], allowed: set[str], what: str) -> None:
    """Reject unknown top-level keys (usually typos) with the list of allowed ones."""
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise RulesError(f"unknown key(s) {', '.join(unknown)} in {what}; allowed: {', '.join(sorted(allowed))}")


def rotated_shape(rows: int, cols: int, degrees: int) -> tuple[int, int]:
    """Shape of a ``rows`` x ``cols`` board after a clockwise turn: quarter turns swap rows and columns."""
    _check_rotation(degrees)
    return (cols, rows) if degrees in (90, 270) else (rows, cols)


def rotate_position(row: int, col: int, rows: int, cols: int, degrees: int) -> tuple[int, int]:
    """Where square (row, col) of a ``rows`` x ``cols`` board ends up after turning it clockwise by ``degrees``."""
    _check_rotation(degrees)
    if degrees == 0:
        return row, col
    if degrees == 90:
        return col, rows - 1 - row
    if degrees == 180:
        return rows - 1 - row, cols - 1 - col
    return cols - 1 - col, row


def _check_rotation(degrees: object) -> None:
    """A board turn must be 0, 90, 180 or 270 degrees clockwise."""
    if not is_int(degrees) or degrees not in ROTATIONS:
        raise RulesError(f"a board turn must be one of {ROTATIONS} degrees (clockwise), got {degrees!r}")


# ------------------------------------------------------------------------------------------------------------ cubes


def _normalise_letters(letters: object, what: str) -> str:
    """Lower-case NFC letters; raises for non-strings, empty strings and non-letter characters."""
    if not isinstance(letters, str):
        raise RulesError(f"{what}: letters must be a string, got {type(letters).__name__}")
    text = normalize_word(letters)
    if not text:
        raise RulesError(f"{what}: a cube needs letters, got an empty string")
    bad = [ch for ch in text if not ch.isalpha()]
    if bad:
        raise RulesError(f"{what} {letters!r}: {bad[0]!r} is not a letter")
    return text


@dataclass(frozen=True, slots=True)
class Cube:
    """One cube: a normal cube has 3 distinct letters, each on two opposite faces; a joker lists its printed letters.

    Letters are stored lower case. A joker's ``letters`` are its faces as printed by the game (EYGR, PLTOLE,
    ODRKTE); a letter may repeat on a joker (PLTOLE has two L faces) but not on a normal cube.
    """

    letters: str
    is_joker: bool = False

    def __post_init__(self) -> None:
        kind = "joker" if self.is_joker else "normal cube"
        if not isinstance(self.is_joker, bool):
            raise RulesError(f"is_joker must be True or False, got {self.is_joker!r}")
        letters = _normalise_letters(self.letters, kind)
        object.__setattr__(self, "letters", letters)
        distinct = len(set(letters))
        if self.is_joker:
            if len(letters) > MAX_JOKER_FACES:
                raise RulesError(f"joker {letters!r}: a cube has {MAX_JOKER_FACES} faces, got {len(letters)} letters")
            if distinct < 2:
                raise RulesError(f"joker {letters!r}: a joker needs at least 2 different letters")
        else:
            if len(letters) != LETTERS_PER_NORMAL_CUBE:
                raise RulesError(
                    f"normal cube {letters!r}: a normal cube has exactly {LETTERS_PER_NORMAL_CUBE} letters, "
                    f"got {len(letters)}"
                )
            if distinct != len(letters):
                dup = sorted({ch for ch in letters if letters.count(ch) > 1})
                raise RulesError(
                    f"normal cube {letters!r}: the {LETTERS_PER_NORMAL_CUBE} letters must be different, "
                    f"{''.join(dup)!r} repeats"
                )

    @property
    def faces(self) -> tuple[str, ...]:
        """The face letters: six for a normal cube (face i opposite face i+3), as printed for a joker."""
        if self.is_joker:
            return tuple(self.letters)
        return tuple(self.letters + self.letters)

    @property
    def top_letters(self) -> tuple[str, ...]:
        """The distinct letters that can be turned on top, in printed order."""
        return tuple(dict.fromkeys(self.letters))


@dataclass(frozen=True)
class CubeSet:
    """A physical set of cubes (normal cubes and jokers) over an alphabet; validated on construction."""

    cubes: tuple[Cube, ...]
    alphabet: str = DEFAULT_ALPHABET
    name: str = ""
    _alpha_index: dict[str, int] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not isinstance(self.cubes, tuple):
            if isinstance(self.cubes, (str, bytes)) or not isinstance(self.cubes, Iterable):
                raise RulesError(f"cubes must be a sequence of Cube, got {type(self.cubes).__name__}")
            object.__setattr__(self, "cubes", tuple(self.cubes))
        alphabet = _normalise_letters(self.alphabet, "alphabet")
        if len(set(alphabet)) != len(alphabet):
            dup = sorted({ch for ch in alphabet if alphabet.count(ch) > 1})
            raise RulesError(f"the alphabet repeats letter(s) {''.join(dup)!r}")
        object.__setattr__(self, "alphabet", alphabet)
        if not self.cubes:
            raise RulesError("a cube set needs at least one cube")
        for i, cube in enumerate(self.cubes):
            if not isinstance(cube, Cube):
                raise RulesError(f"cube {i} is not a Cube: {cube!r}")
            outside = [ch for ch in cube.letters if ch not in alphabet]
            if outside:
                raise RulesError(
                    f"cube {i} ({cube.letters!r}): letter {outside[0]!r} is not in the alphabet {alphabet!r}"
                )
        object.__setattr__(self, "_alpha_index", {ch: i for i, ch in enumerate(alphabet)})

    # -- construction

    @classmethod
    def from_letters(
        cls, normal: Iterable[str], jokers: Iterable[str] = (), *, alphabet: str = DEFAULT_ALPHABET, name: str = ""
    ) -> CubeSet:
        """Build a set from letter strings: normal cubes first, then jokers (this fixes the cube indices)."""
        cubes: list[Cube] = []
        for kind, items, is_joker in (("normal", normal, False), ("jokers", jokers, True)):
            if isinstance(items, str) or not isinstance(items, Iterable):
                raise RulesError(f"{kind!r} must be a list of letter strings, got {items!r}")
            for i, letters in enumerate(items):
                try:
                    cubes.append(Cube(letters, is_joker))
                except RulesError as exc:
                    raise RulesError(f"{kind}[{i}]: {exc}") from None
        return cls(tuple(cubes), alphabet, name)

    @classmethod
    def from_toml(cls, source: str | os.PathLike[str]) -> CubeSet:
        """Load a set from a TOML file path or TOML text (keys: normal, jokers, alphabet, count, name, meta)."""
        data = _read_toml(source, "cube set")
        _check_keys(data, _CUBESET_KEYS, "cube set")
        if "normal" not in data:
            raise RulesError("cube set has no 'normal' list of cubes")
        for key in ("normal", "jokers"):
            value = data.get(key, [])
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise RulesError(f"cube set {key!r} must be a list of letter strings, e.g. [\"aen\", \"rst\"]")
        for key in ("alphabet", "name"):
            if key in data and not isinstance(data[key], str):
                raise RulesError(f"cube set {key!r} must be a string, got {data[key]!r}")
        cube_set = cls.from_letters(
            data["normal"],
            data.get("jokers", []),
            alphabet=data.get("alphabet", DEFAULT_ALPHABET),
            name=data.get("name", ""),
        )
        if "count" in data:
            count = data["count"]
            if not is_int(count) or count < 1:
                raise RulesError(f"cube set 'count' must be a positive integer, got {count!r}")
            if count != len(cube_set):
                raise RulesError(
                    f"cube set declares count = {count} but has {len(cube_set)} cubes "
                    f"({len(cube_set.normal)} normal + {len(cube_set.jokers)} jokers)"
                )
        return cube_set

    @classmethod
    def default_nl(cls) -> CubeSet:
        """The shipped default Dutch set: 105 normal cubes and the jokers EYGR, PLTOLE, ODRKTE (108 cubes)."""
        return cls.from_toml(_read_package_toml(_CUBES_NL))

    def to_toml(self) -> str:
        """TOML text that :meth:`from_toml` reads back into an equal set."""
        def strings(items: Iterable[Cube]) -> str:
            return "[" + ", ".join(f'"{c.letters}"' for c in items) + "]"

        name = self.name.replace("\\", "\\\\").replace('"', '\\"')
        return (
            f'name = "{name}"\nalphabet = "{self.alphabet}"\ncount = {len(self)}\n'
            f"jokers = {strings(self.jokers)}\nnormal = {strings(self.normal)}\n"
        )

    # -- access

    def __len__(self) -> int:
        return len(self.cubes)

    def __iter__(self) -> Iterator[Cube]:
        return iter(self.cubes)

    def __getitem__(self, index: int) -> Cube:
        return self.cubes[index]

    @property
    def normal(self) -> tuple[Cube, ...]:
        """The normal (3-letter) cubes, in set order."""
        return tuple(c for c in self.cubes if not c.is_joker)

    @property
    def jokers(self) -> tuple[Cube, ...]:
        """The jokers, in set order."""
        return tuple(c for c in self.cubes if c.is_joker)

    def letter_rank(self, letter: str) -> int:
        """Position of ``letter`` in the alphabet (0 = closest to A); used to pick the start player."""
        try:
            return self._alpha_index[letter]
        except KeyError:
            raise RulesError(f"letter {letter!r} is not in the alphabet {self.alphabet!r}") from None

    def letter_counts(self, *, include_jokers: bool = False) -> dict[str, int]:
        """How many cubes carry each alphabet letter (normal cubes; jokers count each distinct letter once)."""
        counts = Counter(ch for c in self.cubes if include_jokers or not c.is_joker for ch in c.top_letters)
        return {ch: counts[ch] for ch in self.alphabet}


# ------------------------------------------------------------------------------------------------------------ board


class Square(enum.Enum):
    """The marking printed on a board square: I, III or 0 (what it does is up to the game engine)."""

    I = "I"  # noqa: E741 - the marking is literally a capital I
    III = "III"
    ZERO = "0"

    @property
    def strokes(self) -> int:
        """The number the marking shows: 1, 3 or 0."""
        return {"I": 1, "III": 3, "0": 0}[self.value]

    @classmethod
    def parse(cls, token: object) -> Square:
        """The marking for a token ``"I"``, ``"III"`` or ``"0"`` (or a Square); clear error otherwise."""
        if isinstance(token, Square):
            return token
        for square in cls:
            if token == square.value:
                return square
        raise RulesError(f"unknown square marking {token!r}; use one of 'I', 'III', '0'")


@dataclass(frozen=True)
class BoardLayout:
    """A board of ``rows`` x ``cols`` marked squares; ``markings`` is row-major and row 0 is the top row."""

    rows: int
    cols: int
    markings: tuple[Square, ...]
    name: str = ""

    def __post_init__(self) -> None:
        for key in ("rows", "cols"):
            value = getattr(self, key)
            if not is_int(value) or value < 1:
                raise RulesError(f"board {key} must be a positive integer, got {value!r}")
        if isinstance(self.markings, str) or not isinstance(self.markings, Iterable):
            raise RulesError("board markings must be a sequence of Square (row-major), not a string")
        markings = tuple(Square.parse(m) for m in self.markings)
        object.__setattr__(self, "markings", markings)
        if len(markings) != self.rows * self.cols:
            raise RulesError(
                f"board of {self.rows} x {self.cols} needs {self.rows * self.cols} markings, got {len(markings)}"
            )

    # -- construction

    @classmethod
    def from_rows(cls, rows: Iterable[str | Iterable[str]], *, name: str = "") -> BoardLayout:
        """Build from rows, top row first; a row is a whitespace-separated string or a list of tokens."""
        grid: list[list[str]] = []
        for row in rows:
            tokens = row.split() if isinstance(row, str) else list(row)
            grid.append(tokens)
        if not grid:
            raise RulesError("a board needs at least one row of markings")
        cols = len(grid[0])
        for r, tokens in enumerate(grid):
            if len(tokens) != cols:
                raise RulesError(f"board row {r} has {len(tokens)} squares, row 0 has {cols}; rows must be equal")
            for c, token in enumerate(tokens):
                try:
                    Square.parse(token)
                except RulesError as exc:
                    raise RulesError(f"board row {r}, col {c}: {exc}") from None
        return cls(len(grid), cols, tuple(Square.parse(t) for row in grid for t in row), name)

    @classmethod
    def uniform(cls, rows: int, cols: int, marking: Square = Square.I) -> BoardLayout:
        """A board of any size with every square marked the same, for custom board sizes."""
        if not is_int(rows) or not is_int(cols) or rows < 1 or cols < 1:
            raise RulesError(f"board rows and cols must be positive integers, got {rows!r} x {cols!r}")
        return cls(rows, cols, (Square.parse(marking),) * (rows * cols))

    @classmethod
    def from_toml(cls, source: str | os.PathLike[str]) -> BoardLayout:
        """Load a layout from a TOML file path or TOML text (keys: rows, cols, markings, name, meta)."""
        data = _read_toml(source, "board layout")
        _check_keys(data, _LAYOUT_KEYS, "board layout")
        for key in ("rows", "cols", "markings"):
            if key not in data:
                raise RulesError(f"board layout has no {key!r}")
        markings = data["markings"]
        if not isinstance(markings, list) or not all(isinstance(m, (str, list)) for m in markings):
            raise RulesError("board 'markings' must be a list of rows, each a string like \"I III I 0\"")
        name = data.get("name", "")
        if not isinstance(name, str):
            raise RulesError(f"board 'name' must be a string, got {name!r}")
        layout = cls.from_rows(markings, name=name)
        if (data["rows"], data["cols"]) != (layout.rows, layout.cols):
            raise RulesError(
                f"board declares rows = {data['rows']!r}, cols = {data['cols']!r} but its markings are "
                f"{layout.rows} rows of {layout.cols}"
            )
        return layout

    @classmethod
    def default(cls) -> BoardLayout:
        """The shipped default 9 x 12 layout: 84 I, 18 III and 6 0 squares (see docs/kubagram_set.md)."""
        return cls.from_toml(_read_package_toml(_BOARD_9X12))

    def to_toml(self) -> str:
        """TOML text that :meth:`from_toml` reads back into an equal layout."""
        name = self.name.replace("\\", "\\\\").replace('"', '\\"')
        rows = "\n".join(
            '    "' + " ".join(m.value for m in self.markings[r * self.cols : (r + 1) * self.cols]) + '",'
            for r in range(self.rows)
        )
        return f'name = "{name}"\nrows = {self.rows}\ncols = {self.cols}\nmarkings = [\n{rows}\n]\n'

    # -- access

    @property
    def n_squares(self) -> int:
        """Number of squares, which must equal the number of cubes."""
        return self.rows * self.cols

    def __getitem__(self, pos: tuple[int, int]) -> Square:
        row, col = pos
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise RulesError(f"square ({row}, {col}) is off a {self.rows} x {self.cols} board")
        return self.markings[row * self.cols + col]

    def counts(self) -> dict[Square, int]:
        """How many squares carry each marking."""
        counts = Counter(self.markings)
        return {s: counts[s] for s in Square}

    def rotated(self, degrees: int) -> BoardLayout:
        """The layout as seen after turning the board clockwise by 0, 90, 180 or 270 degrees."""
        rows, cols = rotated_shape(self.rows, self.cols, degrees)
        grid: list[Square | None] = [None] * (rows * cols)
        for r in range(self.rows):
            for c in range(self.cols):
                nr, nc = rotate_position(r, c, self.rows, self.cols, degrees)
                grid[nr * cols + nc] = self.markings[r * self.cols + c]
        return BoardLayout(rows, cols, tuple(m for m in grid if m is not None), self.name)
