"""Placement move generation for the crossword game: every legal placement, or the best one.

The work is done by the numba kernel :mod:`kubasolve.kernels.board_movegen` on the lexicon's GADDAG
(:mod:`kubasolve.lexicon.board_graph`); this module turns boards, racks and layouts into its flat
arrays and its output back into :class:`Placement` objects.

Counting rule (the golden files'): a move is its set of newly placed (square, tile) pairs, a blank
carrying its letter; a one-tile move forming words both ways is one move (reported across); on an
empty board the across and the down plays both count. Exchanges and passes are not placements
(:func:`exchanges` lists the distinct exchanges of a rack).
"""

from __future__ import annotations

import threading
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kubasolve.errors import PositionError
from kubasolve.games.crossword.board import Board, grid_geometry
from kubasolve.games.crossword.layout import BLANK, BoardLayout, TileSet, tile_letters, tile_upper
from kubasolve.lexicon import Lexicon
from kubasolve.lexicon.alphabet import normalize_text

BLANK_FLAG = 64
_MIN_CAPACITY = 4096


@dataclass(frozen=True)
class Placement:
    """One placement: the main word from (row, col) in ``direction``, the new tiles and the score."""

    row: int
    col: int
    direction: str
    word: str
    """The whole main word, blanks lower case, played-through letters included."""
    tiles: tuple[tuple[int, int, str], ...]
    """Newly placed tiles ``(row, col, letter)`` in word order, lower case for a blank."""
    score: int
    bingo: bool = False

    @property
    def played(self) -> str:
        """The main word with ``.`` on squares that were already occupied (the golden files' ``played``)."""
        dr, dc = (0, 1) if self.direction == "across" else (1, 0)
        new = {(r, c) for r, c, _ in self.tiles}
        return "".join(ch if (self.row + i * dr, self.col + i * dc) in new else "." for i, ch in enumerate(self.word))

    def to_dict(self) -> dict[str, Any]:
        return {
            "row": self.row,
            "col": self.col,
            "dir": self.direction,
            "word": self.word,
            "played": self.played,
            "tiles": [[r, c, ch] for r, c, ch in self.tiles],
            "score": self.score,
            "bingo": self.bingo,
        }


def sort_key(move: Placement) -> tuple[int, int, int, int, str]:
    """Best first: score desc, then row, col, across before down, then ``played`` (code-point order)."""
    return (-move.score, move.row, move.col, 0 if move.direction == "across" else 1, move.played)


@dataclass(frozen=True)
class MoveList:
    """``count``: all distinct legal placements; ``moves``: the best ``top`` of them (or all), best first."""

    count: int
    moves: list[Placement] = field(default_factory=list)
    max_score: int | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"count": self.count, "max_score": self.max_score, "moves": [m.to_dict() for m in self.moves]}


def parse_rack(rack: str, tiles: TileSet) -> tuple[str, int]:
    """(upper-case letters, number of blanks) of a rack string such as ``"EKNOW??"``."""
    if not isinstance(rack, str):
        raise PositionError("the rack is a string of letters and '?' for blanks")
    text, bad = tile_letters(normalize_text(rack.strip()), tiles)
    if bad:
        raise PositionError(f"rack {rack!r} holds {bad!r}: not tiles of the {tiles.name!r} set (letters, '?' for a blank)")
    if len(text) > tiles.rack_size:
        raise PositionError(f"rack {rack!r} has {len(text)} tiles, at most {tiles.rack_size}")
    return "".join(ch for ch in text if ch != BLANK), text.count(BLANK)


@dataclass(frozen=True)
class _Setup:
    """The flat arrays of one (lexicon, layout, tiles) combination, shared by every call."""

    nodes: np.ndarray
    letter_mult: np.ndarray
    word_mult: np.ndarray
    centre: int
    values: np.ndarray
    symmetric: bool
    """Square layout equal to its transpose, centre on the diagonal."""
    rack_codes: dict[str, int]
    """Rack character (upper case) -> letter code, ``?`` -> -1: the fast path of rack parsing."""
    letter_keys: np.ndarray
    word_set: np.ndarray
    """The graph's letter keys and set of the words' letter-multiset hashes (the best-move bound
    adds the bingo bonus only where the rack and the tiles in reach anagram to a word)."""
    owners: tuple[Any, Any, Any]
    """The (lexicon, layout, tiles) it was made from (kept alive, so their ids stay theirs)."""


_SETUPS: dict[tuple[int, int, int], _Setup] = {}


def _setup(lexicon: Lexicon, layout: BoardLayout, tiles: TileSet) -> _Setup:
    key = (id(lexicon), id(layout), id(tiles))
    hit = _SETUPS.get(key)
    if hit is not None and hit.owners[0] is lexicon and hit.owners[1] is layout and hit.owners[2] is tiles:
        return hit
    graph = _graph(lexicon, layout)
    alpha = lexicon.alphabet
    values = np.array([tiles.values.get(ch.upper(), 0) for ch in alpha.letters], np.int64)
    s = _Setup(
        graph.nodes,
        np.array(layout.letter_mult, np.int64).reshape(-1),
        np.array(layout.word_mult, np.int64).reshape(-1),
        layout.centre[0] * layout.cols + layout.centre[1],
        values,
        _symmetric(layout),
        _rack_codes(lexicon, tiles),
        graph.letter_keys,
        graph.word_set,
        (lexicon, layout, tiles),
    )
    if len(_SETUPS) > 64:
        _SETUPS.clear()
    _SETUPS[key] = s
    return s


def _rack_codes(lexicon: Lexicon, tiles: TileSet) -> dict[str, int]:
    alpha = lexicon.alphabet
    codes = {ch: alpha.code(ch.lower()) for ch in tiles.values if ch != BLANK and ch.lower() in alpha}
    codes[BLANK] = -1
    return codes


def _symmetric(layout: BoardLayout) -> bool:
    lm = np.array(layout.letter_mult)
    wm = np.array(layout.word_mult)
    return layout.rows == layout.cols and layout.centre[0] == layout.centre[1] and bool(np.array_equal(lm, lm.T) and np.array_equal(wm, wm.T))


def _graph(lexicon: Lexicon, layout: BoardLayout):
    from kubasolve.lexicon.board_graph import load_board_graph

    return load_board_graph(lexicon, layout.max_word_length)


def _inputs(board: Board, rack: str, lexicon: Lexicon, layout: BoardLayout, tiles: TileSet) -> tuple[_Setup, Any, np.ndarray, int]:
    if board.letters.shape != (layout.rows, layout.cols):
        raise PositionError(f"the board is {board.shape[0]}x{board.shape[1]}, the layout {layout.name!r} is {layout.rows}x{layout.cols}")
    if board.alphabet is not lexicon.alphabet and board.alphabet.letters != lexicon.alphabet.letters:
        raise PositionError("the board and the lexicon use different alphabets")
    s = _setup(lexicon, layout, tiles)
    alpha = lexicon.alphabet
    counts = np.zeros(len(alpha), np.int64)
    if isinstance(rack, str) and len(rack) <= tiles.rack_size:
        # fast path: every character a tile of the set and a letter of the alphabet
        codes = s.rack_codes
        n_blanks = 0
        for ch in rack:
            code = codes.get(ch)
            if code is None:
                up = tile_upper(ch)  # not the dotless ı as an I (parse_rack names it)
                code = None if up is None else codes.get(up)
                if code is None:
                    break
            if code < 0:
                n_blanks += 1
            else:
                counts[code] += 1
        else:
            return s, grid_geometry(layout.rows, layout.cols), counts, n_blanks
        counts[:] = 0
    letters, n_blanks = parse_rack(rack, tiles)
    for ch in letters:
        low = ch.lower()
        if low not in alpha:
            raise PositionError(f"rack letter {ch!r} is not in the lexicon's alphabet {alpha.letters!r}")
        counts[alpha.code(low)] += 1
    return s, grid_geometry(layout.rows, layout.cols), counts, n_blanks


def _run(board: Board, rack: str, lexicon: Lexicon, layout: BoardLayout, tiles: TileSet, bingo_bonus: int, mode: int, capacity: int) -> tuple[int, int, np.ndarray, np.ndarray, Any]:
    generate = _KERNEL[0] if _KERNEL else _kernel()
    s, geo, counts, n_blanks = _inputs(board, rack, lexicon, layout, tiles)
    letters, blank, _ = board.flat()
    while True:
        out_meta, out_tiles = _buffers(capacity, geo.max_line)
        # on a symmetric layout the kernel generates an empty board's across moves only (mirror)
        count, best, mirror = generate(s.nodes, letters, blank, geo.lines, geo.line_len, geo.line_dir, geo.cell_line, geo.cell_pos,
                                       s.letter_mult, s.word_mult, s.centre, s.values, counts, n_blanks, tiles.rack_size, bingo_bonus,
                                       mode, s.symmetric, out_meta, out_tiles, s.letter_keys, s.word_set)
        if mirror:  # the down moves of an empty symmetric board are the across moves transposed
            if mode == 0 and 2 * count <= out_meta.shape[0]:
                out_meta[count : 2 * count] = out_meta[:count]
                out_meta[count : 2 * count, 0] = geo.transposed[out_meta[:count, 0]]
                out_tiles[count : 2 * count] = out_tiles[:count]
            count *= 2
        if mode != 0 or count <= out_meta.shape[0]:
            n = min(int(count), out_meta.shape[0]) if mode == 0 else 1
            return int(count), int(best), out_meta[:n].copy(), out_tiles[:n].copy(), geo
        capacity = int(count)


_LOCAL = threading.local()
_KERNEL: list[Any] = []


def _kernel() -> Any:
    """The numba kernel, imported on first use (no JIT work at ``import kubasolve``)."""
    from kubasolve.kernels.board_movegen import generate

    _KERNEL.append(generate)
    return generate


def _buffers(capacity: int, width: int) -> tuple[np.ndarray, np.ndarray]:
    """Output buffers of at least ``capacity`` rows, reused between calls (one pair per thread)."""
    meta = getattr(_LOCAL, "meta", None)
    tiles = getattr(_LOCAL, "tiles", None)
    if meta is None or tiles is None or meta.shape[0] < capacity or tiles.shape[1] != width:
        meta = np.zeros((max(capacity, _MIN_CAPACITY), 4), np.int32)
        tiles = np.full((meta.shape[0], width), -1, np.int8)
        _LOCAL.meta, _LOCAL.tiles = meta, tiles
    return meta, tiles


def move_arrays(board: Board, rack: str, lexicon: Lexicon, layout: BoardLayout, tiles: TileSet, *, bingo_bonus: int = 50) -> tuple[np.ndarray, np.ndarray]:
    """All placements as raw kernel arrays: ``meta[i] = (line, start, end, score)`` and
    ``tiles[i, pos]`` (letter code, +64 for a blank, -1 for a tile already on the board)."""
    count, _, meta, out_tiles, _ = _run(board, rack, lexicon, layout, tiles, bingo_bonus, 0, _MIN_CAPACITY)
    return meta[:count], out_tiles[:count]


def decode_move(board: Board, meta_row: np.ndarray, tile_row: np.ndarray, lexicon: Lexicon, layout: BoardLayout, tiles: TileSet) -> Placement:
    """The :class:`Placement` of one row of :func:`move_arrays`' output on ``board``."""
    return _decode(board, grid_geometry(layout.rows, layout.cols), layout, meta_row, tile_row, tiles.rack_size, lexicon)


def count_moves(board: Board, rack: str, lexicon: Lexicon, layout: BoardLayout, tiles: TileSet, *, bingo_bonus: int = 50) -> tuple[int, int | None]:
    """(number of distinct legal placements, highest score or None), without storing moves."""
    count, best, _, _, _ = _run(board, rack, lexicon, layout, tiles, bingo_bonus, 2, 1)
    return count, (best if count else None)


def _decode(board: Board, geo: Any, layout: BoardLayout, meta_row: np.ndarray, tile_row: np.ndarray, rack_size: int, lexicon: Lexicon) -> Placement:
    return _placement(board.flat()[2], geo.line_cells, geo.line_dir, layout.cols, meta_row.tolist(), tile_row.tolist(), rack_size,
                      lexicon.alphabet.letters)


def generate_moves(board: Board, rack: str, lexicon: Lexicon, layout: BoardLayout, tiles: TileSet, *, top: int | None = None, bingo_bonus: int = 50) -> MoveList:
    """All legal placements of ``rack`` on ``board``: the exact count and the best ``top`` (all if None)."""
    if top is not None and top < 0:
        raise PositionError("top must be >= 0")
    count, best, meta, out_tiles, geo = _run(board, rack, lexicon, layout, tiles, bingo_bonus, 0, _MIN_CAPACITY)
    meta = meta[:count]
    scores = meta[:, 3]
    if top is not None and top < count:
        if top == 0:
            return MoveList(count, [], best if count else None)
        cutoff = np.partition(-scores, top - 1)[top - 1]
        chosen = np.nonzero(-scores <= cutoff)[0]  # every move tied with the top-th, ordered below
    else:
        chosen = np.arange(count)
    moves = [_decode(board, geo, layout, meta[i], out_tiles[i], tiles.rack_size, lexicon) for i in chosen]
    moves.sort(key=sort_key)
    if top is not None:
        moves = moves[:top]
    return MoveList(count, moves, best if count else None)


def exchanges(rack: str, tiles: TileSet) -> list[str]:
    """Every distinct non-empty set of rack tiles that may be exchanged (letters A-Z order, blanks
    last, as in rack strings); whether exchanging is allowed (bag size) is the referee's rule."""
    letters, n_blanks = parse_rack(rack, tiles)
    counts = sorted(Counter(letters).items())
    options = [""]
    for ch, n in counts:
        options = [o + ch * k for o in options for k in range(n + 1)]
    out = [o + "?" * b for o in options for b in range(n_blanks + 1)]
    return sorted((o for o in out if o), key=lambda o: (len(o), o))


def best_move(board: Board, rack: str, lexicon: Lexicon, layout: BoardLayout, tiles: TileSet, *, bingo_bonus: int = 50) -> Placement | None:
    """The highest-scoring placement (branch and bound; ties: some move of the best score), or None."""
    generate = _KERNEL[0] if _KERNEL else _kernel()
    s, geo, counts, n_blanks = _inputs(board, rack, lexicon, layout, tiles)
    letters, blank, text = board.flat()
    out = getattr(_LOCAL, "best", None)
    if out is None or out[1].shape[1] != geo.max_line:
        out = _LOCAL.best = (np.zeros((1, 4), np.int32), np.full((1, geo.max_line), -1, np.int8))
    out_meta, out_tiles = out
    _, best, _ = generate(s.nodes, letters, blank, geo.lines, geo.line_len, geo.line_dir, geo.cell_line, geo.cell_pos,
                          s.letter_mult, s.word_mult, s.centre, s.values, counts, n_blanks, tiles.rack_size, bingo_bonus,
                          1, s.symmetric, out_meta, out_tiles, s.letter_keys, s.word_set)
    if best < 0:
        return None
    return _placement(text, geo.line_cells, geo.line_dir, layout.cols, out_meta[0].tolist(), out_tiles[0].tolist(),
                      tiles.rack_size, lexicon.alphabet.letters)


def _placement(text: str, line_cells: list[list[int]], line_dir: np.ndarray, cols: int, meta: list[int], row_tiles: list[int],
               rack_size: int, letters: str) -> Placement:
    """The Placement of one kernel record (``meta``: line, start, end, score; ``row_tiles`` per line position)."""
    line, start, end, score = meta
    cells = line_cells[line]
    word = []
    placed = []
    for p in range(start, end + 1):
        t = row_tiles[p]
        if t < 0:
            word.append(text[cells[p]])
        else:
            ch = letters[t & ~BLANK_FLAG]
            ch = ch if t & BLANK_FLAG else ch.upper()
            word.append(ch)
            r, c = divmod(cells[p], cols)
            placed.append((r, c, ch))
    r0, c0 = divmod(cells[start], cols)
    return Placement(r0, c0, "across" if line_dir[line] == 0 else "down", "".join(word), tuple(placed), score, len(placed) == rack_size)


def raw_generator(lexicon: Lexicon, layout: BoardLayout, tiles: TileSet, *, bingo_bonus: int = 50) -> Any:
    """A lean :func:`move_arrays` for searches that call it many times on boards they build
    themselves: ``gen(letters, blank, counts, n_blanks) -> (meta, tiles)`` on the flat board arrays
    (``int8`` letter codes / -1, ``bool`` blank flags), the rack as letter counts (``int64`` per code)
    and a blank count. No checks of the inputs (the caller guarantees them); same output as
    :func:`move_arrays`."""
    generate = _KERNEL[0] if _KERNEL else _kernel()
    s = _setup(lexicon, layout, tiles)
    geo = grid_geometry(layout.rows, layout.cols)
    rack_size = tiles.rack_size

    def gen(letters: np.ndarray, blank: np.ndarray, counts: np.ndarray, n_blanks: int) -> tuple[np.ndarray, np.ndarray]:
        capacity = _MIN_CAPACITY
        while True:
            out_meta, out_tiles = _buffers(capacity, geo.max_line)
            count, _, mirror = generate(s.nodes, letters, blank, geo.lines, geo.line_len, geo.line_dir, geo.cell_line, geo.cell_pos,
                                        s.letter_mult, s.word_mult, s.centre, s.values, counts, n_blanks, rack_size, bingo_bonus,
                                        0, s.symmetric, out_meta, out_tiles, s.letter_keys, s.word_set)
            if mirror:
                if 2 * count <= out_meta.shape[0]:
                    out_meta[count : 2 * count] = out_meta[:count]
                    out_meta[count : 2 * count, 0] = geo.transposed[out_meta[:count, 0]]
                    out_tiles[count : 2 * count] = out_tiles[:count]
                count *= 2
            if count <= out_meta.shape[0]:
                return out_meta[:count].copy(), out_tiles[:count].copy()
            capacity = int(count)

    return gen


def raw_facts(lexicon: Lexicon, layout: BoardLayout, tiles: TileSet, *, bingo_bonus: int = 50) -> Any:
    """For an endgame search one ply before its horizon: ``facts(letters, blank, counts, n_blanks)
    -> (count, best_out, best_out_score, best_other, best_other_gain)`` on the same inputs as
    :func:`raw_generator` (a non-empty board), without producing the moves: the index (in
    :func:`raw_generator`'s output) and score of the highest-scoring move that plays the whole rack,
    and the index and gain (score + value of the tiles placed) of the highest-gain other move; -1
    indices when there is none, the first of equals."""
    generate = _KERNEL[0] if _KERNEL else _kernel()
    s = _setup(lexicon, layout, tiles)
    geo = grid_geometry(layout.rows, layout.cols)
    rack_size = tiles.rack_size
    out_meta = np.zeros((1, 4), np.int32)
    out_tiles = np.zeros((1, geo.max_line), np.int8)

    def facts(letters: np.ndarray, blank: np.ndarray, counts: np.ndarray, n_blanks: int) -> tuple[int, int, int, int, int]:
        count, _, _ = generate(s.nodes, letters, blank, geo.lines, geo.line_len, geo.line_dir, geo.cell_line, geo.cell_pos,
                               s.letter_mult, s.word_mult, s.centre, s.values, counts, n_blanks, rack_size, bingo_bonus,
                               4, False, out_meta, out_tiles, s.letter_keys, s.word_set)
        a, b, c, d = out_meta[0].tolist()
        return int(count), a, b, c, d

    return facts
