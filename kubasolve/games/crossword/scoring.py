"""Scoring one crossword placement directly on the board: the single scorer of the package.

The referee scores a submitted placement with it (whatever its words, so that challenge mode can score
an invalid word) and the slow reference generator scores and checks every candidate with it, so the
score a player is credited equals the score the move generator reports (tested in ``tests/crossword``).
Plain Python, no kernels: one placement at a time.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from kubasolve.games.crossword.layout import BoardLayout, TileSet
from kubasolve.games.crossword.movegen import Placement

__all__ = ["score_placement", "tile_run"]


def tile_run(board_rows: Sequence[Sequence[str]], r: int, c: int, dr: int, dc: int) -> tuple[int, int, int]:
    """(start row, start col, length) of the unbroken run of tiles through (r, c) in direction (dr, dc);
    ``"."`` marks an empty square."""
    n_rows, n_cols = len(board_rows), len(board_rows[0])
    while 0 <= r - dr < n_rows and 0 <= c - dc < n_cols and board_rows[r - dr][c - dc] != ".":
        r, c = r - dr, c - dc
    length = 0
    while 0 <= r + length * dr < n_rows and 0 <= c + length * dc < n_cols and board_rows[r + length * dr][c + length * dc] != ".":
        length += 1
    return r, c, length


def score_placement(
    board_rows: Sequence[Sequence[str]],
    placed: Sequence[tuple[int, int, str]],
    direction: int,
    layout: BoardLayout,
    tiles: TileSet,
    *,
    rack_tiles: int,
    rack_size: int,
    bingo_bonus: int,
    is_word: Callable[[str], bool] | None = None,
) -> Placement | None:
    """The placement of ``placed`` (``(row, col, letter)``, lower case = blank) on the board ``board_rows``
    (rows of squares, ``"."`` empty) along ``direction`` (0 across, 1 down), scored: each word formed (the
    main word and every cross word of 2+ letters through a new tile) scores its tile values, letter
    multipliers and word multipliers on the new squares only, plus ``bingo_bonus`` when all ``rack_size``
    tiles of a full rack (``rack_tiles`` tiles before the move) are played.

    None when the main word has fewer than 2 letters, or when ``is_word`` is given and refuses one of the
    formed words (upper case). Connection to the board (centre square, touching) is not checked here.
    """
    new = [list(row) for row in board_rows]
    for r, c, ch in placed:
        new[r][c] = ch
    new_squares = {(r, c) for r, c, _ in placed}
    dr, dc = (0, 1) if direction == 0 else (1, 0)
    r0, c0, n = tile_run(new, placed[0][0], placed[0][1], dr, dc)
    if n < 2:
        return None
    words = [(r0, c0, dr, dc, n)]
    for r, c, _ in placed:
        cr, cc, cn = tile_run(new, r, c, dc, dr)
        if cn >= 2:
            words.append((cr, cc, dc, dr, cn))

    def value(ch: str) -> int:
        return tiles.value(ch) if ch.upper() in tiles.values else 0

    total = 0
    for wr, wc, a, b, wn in words:
        if is_word is not None and not is_word("".join(new[wr + i * a][wc + i * b] for i in range(wn)).upper()):
            return None
        s, mult = 0, 1
        for i in range(wn):
            r, c = wr + i * a, wc + i * b
            v = value(new[r][c])
            if (r, c) in new_squares:
                s += v * layout.letter_mult[r][c]
                mult *= layout.word_mult[r][c]
            else:
                s += v
        total += s * mult
    bingo = len(placed) == rack_size and rack_tiles == rack_size
    if bingo:
        total += bingo_bonus
    word = "".join(new[r0 + i * dr][c0 + i * dc] for i in range(n))
    return Placement(r0, c0, "across" if direction == 0 else "down", word, tuple(sorted(placed)), total, bingo)
