"""The crossword board: a grid of squares holding letter tiles (a blank keeps the letter it stands for).

Also the board *geometry* the move generator walks: cells and lines. A line is an ordered list of
cells (a row read left to right, a column read top to bottom); every cell lies on one line of each
direction. The 15x15 grid is 15 row lines + 15 column lines; other geometries only need other
line tables.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from kubasolve.errors import PositionError
from kubasolve.lexicon.alphabet import Alphabet

EMPTY = -1
ACROSS, DOWN = 0, 1
DIRECTIONS = ("across", "down")


def _alphabet(alphabet: Alphabet | str) -> Alphabet:
    return alphabet if isinstance(alphabet, Alphabet) else Alphabet(alphabet)


class Board:
    """Tiles on a rows x cols grid: ``letters`` int8 (-1 empty, else a code of ``alphabet``),
    ``blank`` bool (the tile is a blank standing for that letter). Treat it as immutable:
    :meth:`with_tiles` returns a new board."""

    __slots__ = ("_flat", "alphabet", "blank", "letters")

    def __init__(self, letters: np.ndarray, blank: np.ndarray, alphabet: Alphabet | str) -> None:
        letters = np.asarray(letters, dtype=np.int8)
        blank = np.asarray(blank, dtype=bool)
        if letters.ndim != 2 or blank.shape != letters.shape:
            raise PositionError("board letters and blank flags must be 2-D arrays of the same shape")
        self.alphabet = _alphabet(alphabet)
        if letters.size and (letters.max() >= len(self.alphabet) or letters.min() < EMPTY):
            raise PositionError("board holds a letter code outside the alphabet")
        if np.any(blank & (letters == EMPTY)):
            raise PositionError("board marks an empty square as a blank")
        letters.flags.writeable = False
        blank.flags.writeable = False
        self.letters = letters
        self.blank = blank
        self._flat: tuple[np.ndarray, np.ndarray, str] | None = None

    def flat(self) -> tuple[np.ndarray, np.ndarray, str]:
        """(letters, blank flags, squares as text) cell by cell (``r * cols + c``), as the kernels take them;
        the text has ``.``, ``A``-``Z`` and ``a``-``z`` (a blank). Made once per board."""
        if self._flat is None:
            text = "".join(self.to_rows())
            self._flat = (np.ascontiguousarray(self.letters.reshape(-1)), np.ascontiguousarray(self.blank.reshape(-1)), text)
        return self._flat

    @classmethod
    def empty(cls, rows: int, cols: int, alphabet: Alphabet | str) -> Board:
        return cls(np.full((rows, cols), EMPTY, np.int8), np.zeros((rows, cols), bool), alphabet)

    @classmethod
    def from_rows(cls, rows: list[str] | tuple[str, ...], alphabet: Alphabet | str) -> Board:
        """Parse rows of ``.`` (empty), ``A``-``Z`` (a tile) and ``a``-``z`` (a blank as that letter)."""
        alpha = _alphabet(alphabet)
        if not rows or not all(isinstance(r, str) for r in rows):
            raise PositionError("a board is a non-empty list of row strings")
        width = len(rows[0])
        if width == 0:
            raise PositionError("board rows are empty")
        letters = np.full((len(rows), width), EMPTY, np.int8)
        blank = np.zeros((len(rows), width), bool)
        for i, row in enumerate(rows):
            if len(row) != width:
                raise PositionError(f"board row {i + 1} has {len(row)} squares, row 1 has {width}")
            for j, ch in enumerate(row):
                if ch == ".":
                    continue
                low = ch.lower()
                if low == ch.upper() or low not in alpha:
                    raise PositionError(f"board row {i + 1}, column {j + 1}: {ch!r} is not '.' or a letter of {alpha.letters!r}")
                letters[i, j] = alpha.code(low)
                blank[i, j] = ch == low
        return cls(letters, blank, alpha)

    @property
    def shape(self) -> tuple[int, int]:
        return (int(self.letters.shape[0]), int(self.letters.shape[1]))

    def square(self, row: int, col: int) -> str:
        """``.`` or the tile on a square (upper case, lower case for a blank)."""
        code = int(self.letters[row, col])
        if code == EMPTY:
            return "."
        ch = self.alphabet.letters[code]
        return ch if self.blank[row, col] else ch.upper()

    def to_rows(self) -> list[str]:
        """The rows as :meth:`square` draws them (one array lookup: the sims build many boards)."""
        letters = self.alphabet.letters
        upper = np.array([ch.upper() for ch in letters] + ["."])  # code -1 (empty) reads the last entry
        lower = np.array([*letters, "."])
        cells = np.where(self.blank, lower[self.letters], upper[self.letters])
        return ["".join(row) for row in cells.tolist()]

    def is_empty(self) -> bool:
        return not bool(np.any(self.letters != EMPTY))

    def tile_count(self) -> int:
        return int(np.count_nonzero(self.letters != EMPTY))

    def with_tiles(self, tiles: Iterable[tuple[int, int, str]]) -> Board:
        """A new board with ``(row, col, letter)`` tiles added (lower case = blank); squares must be empty."""
        letters = self.letters.copy()
        blank = self.blank.copy()
        rows, cols = self.shape
        for row, col, ch in tiles:
            if not (0 <= row < rows and 0 <= col < cols):
                raise PositionError(f"tile {ch!r} at ({row}, {col}) is off the {rows}x{cols} board")
            if letters[row, col] != EMPTY:
                raise PositionError(f"square ({row}, {col}) is already occupied")
            low = ch.lower()
            if len(ch) != 1 or low == ch.upper() or low not in self.alphabet:
                raise PositionError(f"{ch!r} is not a letter of {self.alphabet.letters!r}")
            letters[row, col] = self.alphabet.code(low)
            blank[row, col] = ch == low
        return Board(letters, blank, self.alphabet)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Board) and self.to_rows() == other.to_rows()

    def __hash__(self) -> int:
        return hash(tuple(self.to_rows()))

    def __repr__(self) -> str:
        return "Board(\n  " + "\n  ".join(self.to_rows()) + "\n)"


@dataclass(frozen=True)
class Geometry:
    """Cells and lines of a board, as flat arrays for the kernels.

    ``lines[k, i]`` is the cell at position ``i`` of line ``k`` (-1 past its end), ``line_len[k]``
    its length, ``line_dir[k]`` its direction (0 across, 1 down); ``cell_line[c, d]`` and
    ``cell_pos[c, d]`` locate cell ``c`` on its line of direction ``d``.
    """

    n_cells: int
    lines: np.ndarray
    line_len: np.ndarray
    line_dir: np.ndarray
    cell_line: np.ndarray
    cell_pos: np.ndarray
    transposed: np.ndarray
    """``transposed[k]``: the line that is line ``k`` mirrored in the main diagonal (square grids; else -1)."""

    @property
    def max_line(self) -> int:
        return int(self.lines.shape[1])

    @cached_property
    def line_cells(self) -> list[list[int]]:
        """``lines`` as Python lists (for decoding moves one by one)."""
        return self.lines.tolist()


@lru_cache(maxsize=8)
def grid_geometry(rows: int, cols: int) -> Geometry:
    """Rows then columns of a rows x cols grid; cell ``r * cols + c``."""
    width = max(rows, cols)
    lines = np.full((rows + cols, width), -1, np.int32)
    line_len = np.zeros(rows + cols, np.int32)
    line_dir = np.zeros(rows + cols, np.int8)
    cell_line = np.zeros((rows * cols, 2), np.int32)
    cell_pos = np.zeros((rows * cols, 2), np.int32)
    for r in range(rows):
        line_len[r] = cols
        for c in range(cols):
            lines[r, c] = r * cols + c
            cell_line[r * cols + c, ACROSS] = r
            cell_pos[r * cols + c, ACROSS] = c
    for c in range(cols):
        k = rows + c
        line_len[k] = rows
        line_dir[k] = DOWN
        for r in range(rows):
            lines[k, r] = r * cols + c
            cell_line[r * cols + c, DOWN] = k
            cell_pos[r * cols + c, DOWN] = r
    transposed = np.full(rows + cols, -1, np.int32)
    if rows == cols:
        transposed[:rows] = np.arange(rows, 2 * rows)
        transposed[rows:] = np.arange(rows)
    for a in (lines, line_len, line_dir, cell_line, cell_pos, transposed):
        a.flags.writeable = False
    return Geometry(rows * cols, lines, line_len, line_dir, cell_line, cell_pos, transposed)
