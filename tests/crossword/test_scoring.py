"""The one placement scorer (``scoring.score_placement``) on hand-checked boards of the standard layout and
Dutch tiles (K 3, A 1, T 2, O 1, E 1, N 1; centre (7, 7) doubles the word, (7, 3) and (8, 8) double the letter)."""

from __future__ import annotations

import pytest

from kubasolve.games.crossword.layout import load_layout, load_tiles
from kubasolve.games.crossword.scoring import score_placement, tile_run

LAYOUT = load_layout("standard15")
TILES = load_tiles("nl")
EMPTY = ["." * 15] * 15


def _board(*words: tuple[int, int, str]) -> list[str]:
    rows = [list(r) for r in EMPTY]
    for r, c, word in words:
        for i, ch in enumerate(word):
            rows[r][c + i] = ch
    return ["".join(r) for r in rows]


def _score(rows, placed, direction, **kw):
    opts = {"rack_tiles": 7, "rack_size": 7, "bingo_bonus": 50, **kw}
    return score_placement(rows, placed, direction, LAYOUT, TILES, **opts)


def test_first_word_on_the_centre_doubles_the_word():
    move = _score(EMPTY, [(7, 6, "K"), (7, 7, "A"), (7, 8, "T")], 0)
    assert (move.row, move.col, move.direction, move.word, move.score, move.bingo) == (7, 6, "across", "KAT", 12, False)


def test_a_blank_scores_nothing():
    assert _score(EMPTY, [(7, 6, "K"), (7, 7, "a"), (7, 8, "T")], 0).score == 10


def test_premium_squares_count_only_under_new_tiles():
    kat = _board((7, 6, "KAT"))
    assert _score(kat, [(7, 9, "E")], 0).score == 7  # KATE: the centre's double word is already covered
    assert _score(kat, [(8, 8, "O"), (9, 8, "N")], 1).score == 5  # TON down: O on a double letter


def test_cross_words_add_their_scores():
    kat = _board((7, 6, "KAT"))
    move = _score(kat, [(8, 7, "A"), (8, 8, "T")], 0)  # AT across, with AA and TT down
    assert move.word == "AT"
    assert move.score == (1 + 2 * 2) + (1 + 1) + (2 + 2 * 2)


def test_full_rack_earns_the_bingo_bonus():
    placed = [(7, 1 + i, ch) for i, ch in enumerate("KATOENA")]
    assert _score(EMPTY, placed, 0).score == (3 + 1 + 2 * 2 + 1 + 1 + 1 + 1) * 2 + 50
    assert _score(EMPTY, placed, 0, rack_tiles=7).bingo
    assert not _score(EMPTY, placed[:6], 0).bingo


@pytest.mark.parametrize("is_word, scored", [(None, True), (lambda w: w != "KATE", False), (lambda w: True, True)])
def test_is_word_refuses_the_placement(is_word, scored):
    assert (_score(_board((7, 6, "KAT")), [(7, 9, "E")], 0, is_word=is_word) is not None) is scored


def test_no_main_word_is_none_and_tile_run_measures_runs():
    assert _score(EMPTY, [(0, 0, "A")], 0) is None
    assert tile_run(_board((7, 6, "KAT")), 7, 7, 0, 1) == (7, 6, 3)
