"""Slow, obviously correct move generator: every placement checked against the word set.

For each line, each start and end square and each word of that length it tries the word, fills the
empty squares from the rack (every split of real tiles and blanks), then checks the rules directly on
the resulting board: contiguous with the tiles already there (or covering the centre on an empty
board), every cross word in the word set, score computed from scratch by
:func:`kubasolve.games.crossword.scoring.score_placement` (the referee's scorer too). Only for small lexicons and
boards (tests); the kernel in :mod:`kubasolve.games.crossword.movegen` must agree with it.
"""

from __future__ import annotations

import itertools
from collections import Counter

from kubasolve.games.crossword.board import Board
from kubasolve.games.crossword.layout import BoardLayout, TileSet
from kubasolve.games.crossword.movegen import Placement, parse_rack, sort_key
from kubasolve.games.crossword.scoring import score_placement
from kubasolve.lexicon import Lexicon


def reference_moves(board: Board, rack: str, lexicon: Lexicon, layout: BoardLayout, tiles: TileSet, *, bingo_bonus: int = 50) -> list[Placement]:
    """Every distinct legal placement, best first (same order as ``generate_moves``)."""
    rack_letters, n_blanks = parse_rack(rack, tiles)
    rack_count = Counter(rack_letters)
    n_rack = len(rack_letters) + n_blanks
    n_rows, n_cols = board.shape
    words_by_len: dict[int, list[str]] = {}
    for w in lexicon:
        if 2 <= len(w) <= max(n_rows, n_cols):
            words_by_len.setdefault(len(w), []).append(w.upper())
    word_set = {w for ws in words_by_len.values() for w in ws}
    old = [list(row) for row in board.to_rows()]
    empty_board = board.is_empty()
    found: dict[frozenset[tuple[int, int, str]], Placement] = {}

    for d in range(2):
        n_lines, line_len = (n_rows, n_cols) if d == 0 else (n_cols, n_rows)
        for k in range(n_lines):
            cells = [(k, i) if d == 0 else (i, k) for i in range(line_len)]
            for s in range(line_len):
                for e in range(s + 1, line_len):
                    if s > 0 and old[cells[s - 1][0]][cells[s - 1][1]] != ".":
                        continue
                    if e + 1 < line_len and old[cells[e + 1][0]][cells[e + 1][1]] != ".":
                        continue
                    span = cells[s : e + 1]
                    holes = [i for i, (r, c) in enumerate(span) if old[r][c] == "."]
                    if not holes or len(holes) > n_rack:
                        continue
                    for word in words_by_len.get(e - s + 1, ()):
                        if any(old[r][c] != "." and old[r][c].upper() != word[i] for i, (r, c) in enumerate(span)):
                            continue
                        for use_blank in itertools.product((False, True), repeat=len(holes)):
                            if sum(use_blank) > n_blanks:
                                continue
                            need = Counter(word[i] for i, b in zip(holes, use_blank, strict=True) if not b)
                            if any(rack_count[ch] < n for ch, n in need.items()):
                                continue
                            placed = tuple((span[i][0], span[i][1], word[i].lower() if b else word[i]) for i, b in zip(holes, use_blank, strict=True))
                            key = frozenset(placed)
                            if key in found:
                                continue
                            move = _judge(old, placed, d, word_set, layout, tiles, empty_board, n_rack, tiles.rack_size, bingo_bonus)
                            if move is not None:
                                found[key] = move
    return sorted(found.values(), key=sort_key)


def _judge(old, placed, d, word_set, layout, tiles, empty_board, n_rack, rack_size, bingo_bonus) -> Placement | None:
    """The placement if legal under the rules (checked on the new board), else None."""
    n_rows, n_cols = len(old), len(old[0])
    if empty_board:
        if not any((r, c) == layout.centre for r, c, _ in placed):
            return None
    else:
        touches = any(
            0 <= r + a < n_rows and 0 <= c + b < n_cols and old[r + a][c + b] != "."
            for r, c, _ in placed
            for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1))
        )
        if not touches:
            return None
    return score_placement(old, placed, d, layout, tiles, rack_tiles=n_rack, rack_size=rack_size,
                           bingo_bonus=bingo_bonus, is_word=word_set.__contains__)
