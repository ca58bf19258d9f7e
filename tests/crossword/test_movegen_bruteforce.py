"""The move generator against a brute force that shares nothing with it nor with ``reference.py``.

``reference_moves`` (test_movegen_reference.py) is word-driven (each lexicon word tried on each line) and scores
with ``scoring.score_placement``, the referee's scorer; its boards are small (3x3 to 7x7) with random premiums.
Here the brute force is tile-driven instead: on the real 15x15 layout and tile set, for every line and every span
of squares that could hold one word, it puts every ordering of rack tiles (a blank as each of the 26 letters) on
the span's empty squares, checks each word formed against the word set and scores it from scratch (its own
loops over letter values and premiums). The positions come from self-play by the brute force itself (a random
one of its moves each turn, racks drawn from a shuffled Dutch bag), on a small lexicon so that the Python search
stays fast. The only pruning is exact: a partly filled span stops when its letters so far start no word.
Measured (2026-12-08): seeds 1-3 x 12 turns, 36 positions, 3,900 placements (4 racks with a blank, 2 bingos), all
equal; a brute force with the word premiums left out differs at once. The suite runs seeds 2-3, 10 turns each.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from kubasolve.games.crossword.board import Board
from kubasolve.games.crossword.movegen import generate_moves
from kubasolve.lexicon import Lexicon

LETTERS = "aeinorstdlkgm"
ALPHABET = "abcdefghijklmnopqrstuvwxyz"


def brute_force(rows: list[str], rack: str, words: set[str], layout, tiles, bingo_bonus: int = 50) -> dict:  # type: ignore[no-untyped-def]
    """Every legal placement: {frozenset of (row, col, letter): score}; lower-case letter = blank."""
    n_rows, n_cols = len(rows), len(rows[0])
    prefixes = {w[:i] for w in words for i in range(len(w) + 1)}
    empty_board = all(ch == "." for row in rows for ch in row)
    rack_size = len(rack)
    found: dict[frozenset, int] = {}

    def at(r: int, c: int) -> str:
        return rows[r][c] if 0 <= r < n_rows and 0 <= c < n_cols else "."

    def cross_word(r: int, c: int, ch: str, dr: int, dc: int) -> tuple[list[tuple[int, int, str]], bool]:
        """The squares of the word through (r, c) across the main direction (dr, dc is the cross direction)."""
        a, b = r, c
        while at(a - dr, b - dc) != ".":
            a, b = a - dr, b - dc
        out = []
        while (a, b) == (r, c) or at(a, b) != ".":
            out.append((a, b, ch if (a, b) == (r, c) else at(a, b)))
            a, b = a + dr, b + dc
        return out, len(out) >= 2

    def score(word_squares: list[list[tuple[int, int, str]]], new: set[tuple[int, int]], n_placed: int) -> int:
        total = 0
        for squares in word_squares:
            s, mult = 0, 1
            for r, c, ch in squares:
                v = 0 if ch.islower() else tiles.value(ch)
                if (r, c) in new:
                    s += v * layout.letter_mult[r][c]
                    mult *= layout.word_mult[r][c]
                else:
                    s += v
            total += s * mult
        return total + (bingo_bonus if n_placed == 7 and rack_size == 7 else 0)

    for dr, dc in ((0, 1), (1, 0)):
        n_lines, length = (n_rows, n_cols) if dc else (n_cols, n_rows)
        for k in range(n_lines):
            line = [(k, i) if dc else (i, k) for i in range(length)]
            for s in range(length):
                if s > 0 and at(*line[s - 1]) != ".":
                    continue  # a word starts after an empty square or the edge
                for e in range(s + 1, length):
                    if e + 1 < length and at(*line[e + 1]) != ".":
                        continue  # and ends before one
                    span = line[s:e + 1]
                    holes = [sq for sq in span if at(*sq) == "."]
                    if not holes or len(holes) > rack_size:
                        continue
                    if empty_board:
                        if layout.centre not in span:
                            continue
                    elif len(holes) == len(span) and not any(
                            at(r + a, c + b) != "." for r, c in holes for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1))):
                        continue  # touches nothing
                    _fill(span, 0, "", Counter(rack), [], at, prefixes, words, cross_word, score, dr, dc, found)
    return found


def _fill(span, i, prefix, left, placed, at, prefixes, words, cross_word, score, dr, dc, found):  # type: ignore[no-untyped-def]
    if prefix.lower() not in prefixes:
        return
    if i == len(span):
        if prefix.lower() not in words:
            return
        new = {(r, c) for r, c, _ in placed}
        # the letters keep their case: a blank (new or on the board) is lower case and scores 0
        word_squares = [[(r, c, ch) for (r, c), ch in zip(span, prefix, strict=True)]]
        for r, c, ch in placed:
            squares, is_word = cross_word(r, c, ch, dc, dr)
            if is_word:
                word_squares.append(squares)
        key = frozenset(placed)
        found[key] = score(word_squares, new, len(placed))
        return
    r, c = span[i]
    if at(r, c) != ".":
        _fill(span, i + 1, prefix + at(r, c), left, placed, at, prefixes, words, cross_word, score, dr, dc, found)
        return
    for tile in list(left):
        if left[tile] == 0:
            continue
        left[tile] -= 1
        for ch in (ALPHABET if tile == "?" else tile.lower()):
            shown = ch if tile == "?" else ch.upper()
            squares, is_word = cross_word(r, c, shown, dc, dr)
            if is_word and "".join(t for _, _, t in squares).lower() not in words:
                continue
            _fill(span, i + 1, prefix + shown, left, placed + [(r, c, shown)], at, prefixes, words, cross_word, score,
                  dr, dc, found)
        left[tile] += 1


@pytest.fixture(scope="module")
def small_words(nl_lexicon) -> list[str]:  # type: ignore[no-untyped-def]
    allowed = set(LETTERS)
    pool = sorted(w for w in nl_lexicon if 2 <= len(w) <= 8 and set(w) <= allowed)
    rng = random.Random(5)
    return sorted(set(rng.sample(pool, 1500)) | {w for w in pool if len(w) == 2})


@pytest.mark.slow
@pytest.mark.parametrize("seed", [2, 3])
def test_kernel_equals_tile_driven_brute_force_on_self_play_positions(small_words, standard_layout, nl_tiles, seed):
    lex = Lexicon.from_words(small_words, name=f"brute{seed}")
    words = set(small_words)
    rng = random.Random(seed)
    bag = [ch for ch in sorted(nl_tiles.counts) for _ in range(nl_tiles.counts[ch]) if ch == "?" or ch.lower() in LETTERS]
    rng.shuffle(bag)
    board = Board.empty(15, 15, lex.alphabet)
    rack: list[str] = []
    checked = moves_seen = 0
    for _turn in range(10):
        rack += [bag.pop() for _ in range(min(7 - len(rack), len(bag)))]
        if not rack:
            break
        text = "".join(rack)
        want = brute_force(board.to_rows(), text, words, standard_layout, nl_tiles)
        got = generate_moves(board, text, lex, standard_layout, nl_tiles)
        got_map = {frozenset(m.tiles): m.score for m in got.moves}
        assert got.count == len(got.moves) == len(got_map)
        missing = {k: v for k, v in want.items() if k not in got_map}
        extra = {k: v for k, v in got_map.items() if k not in want}
        wrong = {k: (got_map[k], want[k]) for k in want.keys() & got_map.keys() if got_map[k] != want[k]}
        assert not missing and not extra and not wrong, (board.to_rows(), text, list(missing)[:3], list(extra)[:3], list(wrong.items())[:3])
        checked += 1
        moves_seen += len(want)
        if not want:
            break
        tiles = rng.choice(sorted(want, key=sorted))
        board = board.with_tiles(sorted(tiles))
        for _, _, ch in tiles:
            rack.remove("?" if ch.islower() else ch)
    assert checked >= 3 and moves_seen > 100
