"""The kernel against the slow reference generator (every placement checked by set lookup), with
hypothesis: small lexicons, small and non-square boards with random premiums, positions reached by
playing random legal moves (so cross words exist), racks with 0, 1 or 2 blanks."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubasolve.games.crossword.board import Board
from kubasolve.games.crossword.layout import BoardLayout, load_tiles
from kubasolve.games.crossword.movegen import best_move, count_moves, generate_moves
from kubasolve.games.crossword.reference import reference_moves
from kubasolve.lexicon import Lexicon

LETTERS = "aeinorstdlk"
TILES = load_tiles("nl")


@pytest.fixture(scope="module")
def word_pool(nl_lexicon):
    allowed = set(LETTERS)
    return [w for w in nl_lexicon if 2 <= len(w) <= 6 and set(w) <= allowed]


def _layout(rng: random.Random, rows: int, cols: int) -> BoardLayout:
    lm = tuple(tuple(rng.choice((1, 1, 1, 2, 3)) for _ in range(cols)) for _ in range(rows))
    wm = tuple(tuple(rng.choice((1, 1, 1, 1, 2, 3)) for _ in range(cols)) for _ in range(rows))
    return BoardLayout(f"test{rows}x{cols}-{rng.random()}", rows, cols, lm, wm, (rows // 2, cols // 2))


def _key(m):
    return (m.row, m.col, m.direction, m.word, m.tiles, m.score, m.bingo)


def _rack(rng: random.Random, blanks: int) -> str:
    n = rng.randint(max(1, blanks), 7)
    return "".join(rng.choice(LETTERS.upper()) for _ in range(n - blanks)) + "?" * blanks


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), rows=st.integers(3, 7), cols=st.integers(3, 7), n_moves=st.integers(0, 4), blanks=st.integers(0, 2))
def test_kernel_equals_reference(word_pool, seed, rows, cols, n_moves, blanks):
    rng = random.Random(seed)
    lex = Lexicon.from_words(rng.sample(word_pool, min(len(word_pool), 120)), name=f"pool{seed}")
    layout = _layout(rng, rows, cols)
    board = Board.empty(rows, cols, lex.alphabet)
    for _ in range(n_moves):  # reach a position by random legal moves (found by the reference)
        options = reference_moves(board, _rack(rng, 1), lex, layout, TILES)
        if not options:
            break
        board = board.with_tiles(rng.choice(options).tiles)
    rack = _rack(rng, blanks)
    want = reference_moves(board, rack, lex, layout, TILES)
    got = generate_moves(board, rack, lex, layout, TILES)
    assert got.count == len(want) == len(got.moves)
    assert [_key(m) for m in got.moves] == [_key(m) for m in want]
    assert count_moves(board, rack, lex, layout, TILES) == (len(want), want[0].score if want else None)
    best = best_move(board, rack, lex, layout, TILES)
    assert (best.score if best else None) == (want[0].score if want else None)
    if best is not None:
        assert _key(best) in {_key(m) for m in want}


def test_premiums_multiply_and_blank_on_word_premium_still_multiplies():
    """Issue 10: "two word premiums multiply (x4, x9); a blank on a word premium still multiplies
    the word"; premiums count only for newly placed tiles."""
    lex = Lexicon.from_words(["kat", "kater"], name="premiums")
    wm = ((3, 1, 1, 1, 3),) + tuple((1,) * 5 for _ in range(4))
    lm = tuple((1,) * 5 for _ in range(5))
    layout = BoardLayout("p", 5, 5, lm, wm, (0, 2))
    empty = Board.empty(5, 5, lex.alphabet)
    moves = {m.word: m for m in generate_moves(empty, "KATER", lex, layout, TILES).moves if m.direction == "across" and m.row == 0}
    # K3 A1 T2 E1 R2 = 9, both triple-word squares covered: x9
    assert moves["KATER"].score == 81
    blank_moves = generate_moves(empty, "?ATER", lex, layout, TILES).moves
    kater = next(m for m in blank_moves if m.word == "kATER" and m.row == 0 and m.direction == "across")
    assert kater.score == (0 + 1 + 2 + 1 + 2) * 9
    # KAT on the board: extending it to KATER scores the old letters without their premiums
    board = empty.with_tiles([(0, 0, "K"), (0, 1, "A"), (0, 2, "T")])
    ext = [m for m in generate_moves(board, "ER", lex, layout, TILES).moves if m.word == "KATER"]
    assert [m.score for m in ext] == [(3 + 1 + 2 + 1 + 2) * 3]


def test_bingo_bonus_needs_all_seven_tiles():
    """Issue 10: "Bingo: all 7 tiles in one turn: +50"."""
    lex = Lexicon.from_words(["aeinrst"[:2], "tarnies", "ta"], name="bingo")
    layout = BoardLayout("flat", 15, 15, tuple((1,) * 15 for _ in range(15)), tuple((1,) * 15 for _ in range(15)), (7, 7))
    moves = generate_moves(Board.empty(15, 15, lex.alphabet), "AEINRST", lex, layout, TILES).moves
    seven = [m for m in moves if len(m.tiles) == 7]
    assert seven and all(m.bingo and m.score == 2 + 1 + 2 + 1 + 1 + 1 + 2 + 50 for m in seven)
    assert all(not m.bingo for m in moves if len(m.tiles) < 7)
    assert {m.score for m in generate_moves(Board.empty(15, 15, lex.alphabet), "AEINRST", lex, layout, TILES, bingo_bonus=0).moves if len(m.tiles) == 7} == {10}


def test_one_tile_move_forming_two_words_is_one_move():
    """Counting rule: a one-tile play that forms words in both directions is one move (reported across)."""
    lex = Lexicon.from_words(["at", "ta"], name="one")
    flat = tuple((1,) * 3 for _ in range(3))
    layout = BoardLayout("flat3", 3, 3, flat, flat, (1, 1))
    board = Board.from_rows(["..A", ".A.", "..."], lex.alphabet)
    got = generate_moves(board, "T", lex, layout, TILES)
    assert got.count == 4
    by_square = {m.tiles[0][:2]: m for m in got.moves}
    assert set(by_square) == {(0, 1), (1, 0), (1, 2), (2, 1)}
    assert (by_square[(0, 1)].direction, by_square[(0, 1)].word, by_square[(0, 1)].score) == ("across", "TA", 3 + 3)
    assert (by_square[(1, 2)].direction, by_square[(1, 2)].word) == ("across", "AT")
    assert (by_square[(2, 1)].direction, by_square[(2, 1)].word) == ("down", "AT")
    assert [(m.tiles, m.score) for m in got.moves] == [(m.tiles, m.score) for m in reference_moves(board, "T", lex, layout, TILES)]


def test_exchanges_are_the_distinct_subsets_of_the_rack():
    """Issue 10: "Exchange: some or all tiles, instead of playing"; equal tiles give one option."""
    from kubasolve.games.crossword.movegen import exchanges

    assert exchanges("AAB", TILES) == ["A", "B", "AA", "AB", "AAB"]
    assert exchanges("E?", TILES) == ["?", "E", "E?"]
    assert len(exchanges("ABCDEFG", TILES)) == 2**7 - 1
    assert len(exchanges("EEEEEEE", TILES)) == 7


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), rack_size=st.integers(2, 5), n_moves=st.integers(0, 4), blanks=st.integers(0, 2))
def test_best_move_with_a_bingo_in_reach_equals_reference(word_pool, seed, rack_size, n_moves, blanks):
    """The best-move bound adds the bingo bonus only where the rack plus the tiles in a window
    anagram to a word: with racks of 2-5 tiles (bingos of short words, through tiles and with
    blanks) the best score must still be the reference's."""
    rng = random.Random(seed)
    lex = Lexicon.from_words(rng.sample(word_pool, min(len(word_pool), 150)), name=f"bingo{seed}")
    layout = _layout(rng, 6, 6)
    tiles = dataclasses.replace(TILES, rack_size=rack_size)
    board = Board.empty(6, 6, lex.alphabet)
    for _ in range(n_moves):
        options = reference_moves(board, _rack(rng, 1)[:rack_size], lex, layout, tiles)
        if not options:
            break
        board = board.with_tiles(rng.choice(options).tiles)
    blanks = min(blanks, rack_size)
    rack = "".join(rng.choice(LETTERS.upper()) for _ in range(rack_size - blanks)) + "?" * blanks
    want = reference_moves(board, rack, lex, layout, tiles, bingo_bonus=50)
    best = best_move(board, rack, lex, layout, tiles, bingo_bonus=50)
    assert (best.score if best else None) == (want[0].score if want else None)
    if best is not None:
        assert _key(best) in {_key(m) for m in want}


def test_word_multiset_set_holds_every_word_and_rules_out_non_anagrams():
    """The graph's word_set: the letter-multiset hash of every word is in it (any letter order),
    and a rack that anagrams to no word is refused (that is what drops the bingo bound)."""
    import numpy as np

    from kubasolve.kernels.board_movegen import _bingo_possible
    from kubasolve.lexicon.board_graph import build_board_graph

    words = ["kater", "taart", "at", "ta", "rat", "stoer"]
    graph = build_board_graph(words, "aeiklnorst", max_len=15)
    code = {ch: i for i, ch in enumerate("aeiklnorst")}

    def h(letters: str) -> int:
        return int(np.sum(graph.letter_keys[[code[c] for c in letters]]).astype(np.int64)) if letters else 0

    memo = np.zeros(9, np.int64)

    def possible(letters: str, blanks: int) -> bool:
        memo[0] = 0
        return bool(_bingo_possible(np.int64(h(letters)), graph.letter_keys, graph.word_set, blanks, memo))

    assert all(possible(w, 0) and possible("".join(sorted(w)), 0) for w in words)
    assert possible("retak", 0) and possible("aat", 2) and possible("rtes", 1) and possible("oe", 3)
    assert not possible("kateo", 0) and not possible("kk", 1) and not possible("kkk", 2) and not possible("aaaa", 0)
