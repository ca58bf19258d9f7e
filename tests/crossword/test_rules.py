"""Each rule of issue 10 (the Dutch rulebook, quoted) against the crossword rules, referee and state.

Most tests use a tiny word list and, for the premium rules, a 5x5 layout written in the test, so the
expected scores can be worked out by hand in the comments.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from kubasolve.errors import IllegalMoveError, RulesError
from kubasolve.games.crossword.board import Board
from kubasolve.games.crossword.game import Referee, draw_start_player, rack_value, sort_rack
from kubasolve.games.crossword.layout import load_tiles
from kubasolve.games.crossword.rules import CrosswordRules
from kubasolve.lexicon import Lexicon

WORDS = ["ca", "cat", "cats", "at", "ta", "as", "abcde", "scatter", "zee", "ze", "ee", "ex", "tax", "za"]


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return Lexicon.from_words(WORDS, name="tiny")


@pytest.fixture(scope="module")
def small_layout(tmp_path_factory) -> str:  # type: ignore[no-untyped-def]
    path = tmp_path_factory.mktemp("layout") / "five.toml"
    # row 0: DW, DL, plain, TL, DW; centre (2, 2); TW in the bottom corners
    path.write_text('name = "five"\nrows = ["Dd.tD", ".....", "..*..", ".....", "T...T"]\n', encoding="utf-8")
    return str(path)


def _state(ref: Referee, rows: list[str] | None = None, rack: str = "", bag: str | None = None, seed: int = 1):  # type: ignore[no-untyped-def]
    """A fresh game with the board, the mover's rack and the bag replaced (tiles need not add up here)."""
    st = ref.new_game(seed, 2)
    racks = list(st.racks)
    if rack:
        racks[st.current] = sort_rack(rack)
    board = Board.from_rows(rows, ref.lexicon.alphabet) if rows else st.board
    return replace(st, board=board, racks=tuple(racks), bag=st.bag if bag is None else bag)


# ------------------------------------------------------------------------------------------------ rules as data
def test_default_rules_equal_the_shipped_toml():
    assert CrosswordRules.from_toml("nl") == CrosswordRules()
    assert CrosswordRules.from_toml("en").tiles == "en"


def test_rules_refuse_bad_settings_by_name():
    with pytest.raises(RulesError, match="word_check"):
        CrosswordRules(word_check="sometimes")
    with pytest.raises(RulesError, match=r"unknown rule setting.*colour"):
        CrosswordRules.from_dict({"colour": "red"})
    with pytest.raises(RulesError, match="rack_size"):
        CrosswordRules(rack_size=0)
    with pytest.raises(RulesError, match=r"unknown tile set 'klingon': not one of \['en', 'nl'\]"):  # every bundled set named
        CrosswordRules(tiles="klingon")


def _letters(spec: str) -> dict[str, int]:
    """``"A6 B2 C2"`` -> {"A": 6, "B": 2, "C": 2}."""
    return {item[0]: int(item[1:]) for item in spec.split()}


def test_tile_sets_as_data():
    """Every letter's count and value. Dutch, as issue 10 (the rule set of this game) gives them: 'Dutch defaults:
    102 tiles, A6 B2 C2 D5 E18 F2 G3 H2 I4 J2 K3 L3 M3 N10 O6 P2 Q1 R5 S5 T5 U3 V2 W2 X1 Y1 Z2 + 2 blanks; values
    A1 B3 C5 D2 E1 F4 G3 H4 I1 J4 K3 L3 M3 N1 O1 P3 Q10 R2 S2 T2 U4 V4 W5 X8 Y8 Z4'. English: the standard 100-tile
    distribution of the English-language game (as in tiles_en.toml's header)."""
    nl, en = load_tiles("nl"), CrosswordRules(tiles="en").tile_set()
    nl_counts = _letters("A6 B2 C2 D5 E18 F2 G3 H2 I4 J2 K3 L3 M3 N10 O6 P2 Q1 R5 S5 T5 U3 V2 W2 X1 Y1 Z2")
    nl_values = _letters("A1 B3 C5 D2 E1 F4 G3 H4 I1 J4 K3 L3 M3 N1 O1 P3 Q10 R2 S2 T2 U4 V4 W5 X8 Y8 Z4")
    assert dict(nl.counts) == {**nl_counts, "?": 2} and dict(nl.values) == {**nl_values, "?": 0}
    assert nl.total == 102 == sum(nl_counts.values()) + 2 and nl.blanks == 2
    en_counts = _letters("A9 B2 C2 D4 E12 F2 G3 H2 I9 J1 K1 L4 M2 N6 O8 P2 Q1 R6 S4 T6 U4 V2 W2 X1 Y2 Z1")
    en_values = _letters("A1 B3 C3 D2 E1 F4 G2 H4 I1 J8 K5 L1 M3 N1 O1 P3 Q10 R1 S1 T1 U1 V4 W4 X8 Y4 Z10")
    assert dict(en.counts) == {**en_counts, "?": 2} and dict(en.values) == {**en_values, "?": 0}
    assert en.total == 100 and en.blanks == 2


# ------------------------------------------------------------------------------------------------ players and start
def test_two_to_four_players(lex):
    """'2–4 players'."""
    ref = Referee(lex)
    for n in (2, 3, 4):
        assert len(ref.new_game(0, n).racks) == n
    for n in (1, 5):
        with pytest.raises(IllegalMoveError, match="2 to 4 players"):
            ref.new_game(0, n)


def test_racks_of_seven_filled_at_the_start(lex):
    """'racks of 7'; every tile is somewhere: bag + racks = the tile set."""
    st = Referee(lex).new_game(3, 4)
    assert all(len(r) == 7 for r in st.racks)
    assert Counter(st.bag) + Counter("".join(st.racks)) == Counter(load_tiles("nl").counts)


def test_start_player_closest_to_a_blank_beats_every_letter_ties_draw_again():
    """'Start player: the drawn tile closest to A; a blank beats every letter; ties draw again.'"""
    tiles = load_tiles("nl")
    saw_tie = saw_blank = False
    for seed in range(300):
        start, rounds = draw_start_player(seed, 4, tiles)
        last = rounds[-1]
        drawn = {p: t for p, t in enumerate(last) if t}
        rank = {p: (-1 if t == "?" else ord(t)) for p, t in drawn.items()}
        assert min(rank.values()) == rank[start] and sum(r == rank[start] for r in rank.values()) == 1
        for earlier in rounds[:-1]:  # a round that did not decide had a tie for the lowest tile
            ranks = sorted(-1 if t == "?" else ord(t) for t in earlier if t)
            assert ranks[0] == ranks[1]
            saw_tie = True
        saw_blank |= drawn[start] == "?"
        assert draw_start_player(seed, 4, tiles) == (start, rounds)  # seeded
    assert saw_tie and saw_blank


# ------------------------------------------------------------------------------------------------ first word
def test_first_word_covers_the_centre_which_doubles_it(lex):
    """'First word: 2+ letters, horizontal or vertical, covering the centre square, which doubles it.'"""
    ref = Referee(lex)
    st = _state(ref, rack="CATXYZE")
    across = ref.judge_placement(st.board, "CATXYZE", [(7, 6, "C"), (7, 7, "A"), (7, 8, "T")])
    down = ref.judge_placement(st.board, "CATXYZE", [(6, 7, "C"), (7, 7, "A"), (8, 7, "T")])
    assert across.placement.score == down.placement.score == (5 + 1 + 2) * 2
    assert down.placement.direction == "down"
    with pytest.raises(IllegalMoveError, match="centre"):
        ref.apply(st, {"type": "place", "tiles": [[6, 6, "C"], [6, 7, "A"], [6, 8, "T"]]})
    with pytest.raises(IllegalMoveError, match="at least 2 letters"):
        ref.apply(st, {"type": "place", "tiles": [[7, 7, "A"]]})


# ------------------------------------------------------------------------------------------------ later moves
CAT_ROWS = ["." * 15] * 7 + ["......CAT......"] + ["." * 15] * 7


def test_later_moves_in_one_line_contiguous_and_connected(lex):
    """'Later moves: one or more tiles in one row or column, contiguous with what is on the board'."""
    ref = Referee(lex)
    st = _state(ref, CAT_ROWS, rack="SAETXZE")
    cases = [
        ([[7, 9, "S"], [8, 10, "A"]], "not in one row or one column"),
        ([[7, 9, "S"], [7, 11, "A"]], "gap"),
        ([[3, 3, "A"], [3, 4, "T"]], "do not touch"),
        ([[7, 7, "A"]], "occupied"),
        ([[7, 9, "Q"]], "not on the rack"),
        ([[7, 20, "S"]], "off the 15x15 board"),
        ([[7, 9, "S"], [7, 9, "S"]], "same square"),
    ]
    for tiles, reason in cases:
        before = st.to_dict()
        with pytest.raises(IllegalMoveError, match=reason):
            ref.apply(st, {"type": "place", "tiles": tiles})
        assert st.to_dict() == before  # the state is unchanged
    after = ref.apply(st, {"type": "place", "tiles": [[7, 9, "S"]]})
    assert after.board.to_rows()[7] == "......CATS....."
    assert after.log[-1]["word"] == "CATS" and after.log[-1]["score"] == 5 + 1 + 2 + 2


def test_only_words_and_the_invalid_word_is_named(lex):
    """'forming only words' (referee mode: 'the referee refuses an invalid word')."""
    ref = Referee(lex)
    st = _state(ref, CAT_ROWS, rack="XAEZEET")
    with pytest.raises(IllegalMoveError, match="not in the lexicon: CATX"):
        ref.apply(st, {"type": "place", "tiles": [[7, 9, "X"]]})
    with pytest.raises(IllegalMoveError, match="not in the lexicon: ZEC"):
        ref.apply(st, {"type": "place", "tiles": [[5, 6, "Z"], [6, 6, "E"]]})


def test_every_word_formed_scores_shared_letters_in_each(lex):
    """'every word formed or extended in the turn scores (shared letters count in each)'."""
    ref = Referee(lex)
    rows = ["." * 15] * 7 + ["......CA.......", "........A......"] + ["." * 15] * 6
    st = _state(ref, rows, rack="TXEZEEA")
    judged = ref.judge_placement(st.board, "TXEZEEA", [(7, 8, "T")])
    # T on the plain square (7, 8): across CAT = 5 + 1 + 2, down TA = 2 + 1; the T counts in both
    assert judged.words == ("CAT", "TA") and judged.invalid == ()
    assert judged.placement.score == 8 + 3
    # an invalid cross word is named even when the main word is fine
    judged = ref.judge_placement(st.board, "TXEZEEA", [(6, 8, "Z"), (7, 8, "T")])
    assert judged.invalid == ("ZTA",)


def test_premiums_count_only_when_placed_and_word_premiums_multiply(lex, small_layout):
    """'Premiums: double/triple letter ..., double/triple word ..., counted only in the turn a tile is
    placed on them; two word premiums multiply (x4, x9); a blank on a word premium still multiplies the word.'"""
    ref = Referee(lex, CrosswordRules(layout=small_layout))
    rows = [".....", "..A..", ".....", ".....", "....."]
    board = Board.from_rows(rows, lex.alphabet)
    # ABCDE on row 0: A on DW (1), B on DL (3*2), C plain (5), D on TL (2*3), E on DW (1) = 19, x2 x2 = 76;
    # cross word CA down column 2: C 5 + A 1 = 6 (no premium under C). Total 82.
    j = ref.judge_placement(board, "ABCDE", [(0, 0, "A"), (0, 1, "B"), (0, 2, "C"), (0, 3, "D"), (0, 4, "E")])
    assert j.words == ("ABCDE", "CA") and j.placement.score == 76 + 6
    # the A as a blank: 18 x 4 = 72 + 6: the blank on the double word still doubles the word
    j = ref.judge_placement(board, "?BCDE", [(0, 0, "a"), (0, 1, "B"), (0, 2, "C"), (0, 3, "D"), (0, 4, "E")])
    assert j.placement.score == 72 + 6
    # premiums of squares already covered do not count again: CAT on the centre scores 16 the first time,
    # CATS (S added on a plain square) then scores 5+1+2+2 = 10, not doubled.
    st = _state(ref, ["....."] * 5, rack="CATSEEZ")
    st = ref.apply(st, {"type": "place", "tiles": [[2, 1, "C"], [2, 2, "A"], [2, 3, "T"]]})
    assert st.log[-1]["score"] == 16
    st = replace(st, current=0, racks=("SEEZEEA", st.racks[1]))
    st = ref.apply(st, {"type": "place", "tiles": [[2, 4, "S"]]})
    assert st.log[-1]["word"] == "CATS" and st.log[-1]["score"] == 10


def test_triple_word_premiums_multiply_to_nine(lex, tmp_path):
    """'two word premiums multiply (x4, x9)'."""
    path = tmp_path / "t.toml"
    path.write_text('rows = ["T.*.T", ".....", "....."]\n', encoding="utf-8")
    ref = Referee(lex, CrosswordRules(layout=str(path)))
    st = _state(ref, [".....", ".....", "....."], rack="ABCDE")
    j = ref.judge_placement(st.board, "ABCDE", [(0, 0, "A"), (0, 1, "B"), (0, 2, "C"), (0, 3, "D"), (0, 4, "E")])
    assert j.placement.score == (1 + 3 + 5 + 2 + 1) * 3 * 3 * 2  # the centre doubles too


def test_blank_is_worth_zero_and_keeps_its_letter(lex):
    """'Blanks (2): any letter, value 0, keep their letter for the rest of the game.'"""
    ref = Referee(lex)
    st = _state(ref, rack="?ATXYZE")
    st = ref.apply(st, {"type": "place", "tiles": [[7, 6, "c"], [7, 7, "A"], [7, 8, "T"]]})
    assert st.log[-1]["score"] == (0 + 1 + 2) * 2
    assert st.board.to_rows()[7] == "......cAT......"
    assert "?" not in st.racks[0]  # the blank left the rack
    st = replace(st, racks=(st.racks[0], "SEEZEEA"))
    st = ref.apply(st, {"type": "place", "tiles": [[7, 9, "S"]]})
    assert st.log[-1]["word"] == "cATS" and st.log[-1]["score"] == 0 + 1 + 2 + 2


def test_bingo_all_seven_tiles_scores_fifty_more(lex):
    """'Bingo: all 7 tiles in one turn: +50.'"""
    ref = Referee(lex)
    st = _state(ref, rack="ACERSTT")
    st = ref.apply(st, {"type": "place", "tiles": [[7, 4 + i, ch] for i, ch in enumerate("SCATTER")]})
    assert st.log[-1]["score"] == (2 + 5 + 1 + 2 + 2 + 1 + 2) * 2 + 50


def test_racks_refilled_after_each_turn_while_the_bag_lasts(lex):
    """'racks of 7, refilled after each turn while the bag lasts'."""
    ref = Referee(lex)
    st = _state(ref, rack="CATEEEE", bag="SXZ")
    st = ref.apply(st, {"type": "place", "tiles": [[7, 6, "C"], [7, 7, "A"], [7, 8, "T"]]})
    assert sorted(st.racks[0]) == sorted("EEEESXZ") and st.bag == ""


def test_exchange_needs_seven_in_the_bag(lex):
    """'Exchange: some or all tiles, instead of playing; not allowed with fewer than 7 tiles in the bag.'"""
    ref = Referee(lex)
    st = _state(ref, rack="CATEEEE", bag="ABCDEF")
    with pytest.raises(IllegalMoveError, match="fewer than 7"):
        ref.apply(st, {"type": "exchange", "letters": "E"})
    st = _state(ref, rack="CATEEEE", bag="ABCDEFG")
    after = ref.apply(st, {"type": "exchange", "letters": "EEEE"})
    assert len(after.racks[0]) == 7 and len(after.bag) == 7
    assert Counter(after.racks[0]) + Counter(after.bag) == Counter("CATEEEE") + Counter("ABCDEFG")
    assert after.log[-1]["score"] == 0 and after.scoreless == 0 and after.current != st.current  # a move, not a pass
    with pytest.raises(IllegalMoveError, match="not on the rack"):
        ref.apply(st, {"type": "exchange", "letters": "QQ"})


# ------------------------------------------------------------------------------------------------ end of game
def test_going_out_with_the_bag_empty_ends_with_rack_adjustments(lex):
    """'End: a player plays their last tile with the bag empty ... Each player loses the value of the
    tiles left on their rack; a player who went out gains the others' rack values.'"""
    ref = Referee(lex)
    st = _state(ref, rack="CAT", bag="")
    p = st.current
    racks = list(st.racks)
    racks[1 - p] = "QZ"
    st = replace(st, racks=tuple(racks))
    end = ref.apply(st, {"type": "place", "tiles": [[7, 6, "C"], [7, 7, "A"], [7, 8, "T"]]})
    assert end.over and end.went_out == p
    assert end.scores[p] == 16 + 14 and end.scores[1 - p] == -14
    assert end.scores_before_end[p] == 16 and end.log[-1]["adjust"][1 - p] == -14


@pytest.mark.parametrize("players", [2, 3, 4])
def test_scoreless_turns_end_the_game_when_every_player_passed_twice(lex, players):
    """'or no one can move any more': every player twice scoreless in a row (rule setting scoreless_rounds_end,
    default 2), so 4 turns with two players, 6 with three, 8 with four; each player loses their rack value."""
    ref = Referee(lex)
    st = ref.new_game(5, players)
    for _ in range(2 * players):
        assert not st.over
        st = ref.apply(st, {"type": "pass"})
    assert st.over and st.went_out is None and st.scoreless == 2 * players
    tiles = ref.tiles
    assert list(st.scores) == [-rack_value(r, tiles) for r in st.racks]


def test_exchanges_are_moves_not_passes_under_the_dutch_ending(lex):
    """'or no one can move any more' (the Dutch rules: every player passed twice in a row): an exchange is a move.
    Before, exchanges counted as scoreless turns, so four exchanges at the start ended the game with 88 tiles in
    the bag (each player losing their rack). Under the English tournament rule (scoreless_turns_end = 6: 'six
    consecutive scoreless turns', exchanges included) they still count."""
    ref = Referee(lex)
    st = ref.new_game(7, 2)
    for _ in range(6):
        st = ref.apply(st, {"type": "exchange", "letters": st.rack()[:2]})
    assert not st.over and st.scoreless == 0 and len(st.bag) == 88
    st = ref.apply(st, {"type": "pass"})
    st = ref.apply(st, {"type": "exchange", "letters": st.rack()[:1]})  # the exchange breaks the run of passes
    for _ in range(3):
        st = ref.apply(st, {"type": "pass"})
    assert not st.over and st.scoreless == 3
    st = ref.apply(st, {"type": "pass"})
    assert st.over and st.went_out is None  # every player passed twice in a row
    english = Referee(lex, CrosswordRules(scoreless_turns_end=6))
    st = english.new_game(7, 2)
    for _ in range(6):
        assert not st.over
        st = english.apply(st, {"type": "exchange", "letters": st.rack()[:2]})
    assert st.over and st.scoreless == 6


def test_scoreless_settings_fixed_count_and_off(lex):
    """scoreless_turns_end fixes the count whatever the players (3 here); scoreless_rounds_end = 0 never ends a
    passing game (only the turn guard does)."""
    never = Referee(lex, CrosswordRules(scoreless_rounds_end=0))
    st = never.new_game(5, 3)
    for _ in range(30):
        st = never.apply(st, {"type": "pass"})
    assert not st.over and st.scoreless == 30
    assert CrosswordRules().scoreless_limit(3) == 6 and CrosswordRules(scoreless_turns_end=6).scoreless_limit(4) == 6
    ref3 = Referee(lex, CrosswordRules(scoreless_turns_end=3))
    st = ref3.new_game(5, 2)
    for _ in range(3):
        st = ref3.apply(st, {"type": "pass"})
    assert st.over
    with pytest.raises(IllegalMoveError, match="over"):
        ref3.apply(st, {"type": "pass"})


def test_ties_go_to_the_higher_score_before_adjustments(lex):
    """'Ties: the higher score before these adjustments wins.'"""
    ref = Referee(lex)
    st = ref.new_game(5, 2)
    st = replace(st, over=True, scores=(100, 100), scores_before_end=(104, 110))
    assert st.winners() == [1]
    st = replace(st, scores_before_end=(110, 110))
    assert st.winners() == [0, 1]


# ------------------------------------------------------------------------------------------------ challenge mode
def test_challenge_mode_move_stays_unless_challenged(lex):
    """'support ... a challenge mode (the move stays unless challenged; a successful challenge takes it back)'."""
    ref = Referee(lex, CrosswordRules(word_check="challenge"))
    st = _state(ref, rack="CAXEEEE")
    p = st.current
    bag_before, rack_before = st.bag, st.racks[p]
    phony = ref.apply(st, {"type": "place", "tiles": [[7, 6, "C"], [7, 7, "A"], [7, 8, "X"]]})  # CAX: not a word
    assert phony.board.to_rows()[7] == "......CAX......" and phony.scores[p] == (5 + 1 + 8) * 2
    back = ref.apply(phony, {"type": "challenge"})
    assert back.board.is_empty() and back.scores[p] == 0
    assert back.racks[p] == rack_before and back.bag == bag_before  # tiles back, drawn tiles back in the bag
    assert back.current == 1 - p and back.log[-1]["result"] == "withdrawn"
    # not challenged: the phony stays and the game goes on
    on = ref.apply(phony, {"type": "pass"})
    assert on.board.to_rows()[7] == "......CAX......"
    with pytest.raises(IllegalMoveError, match="no play to challenge"):
        ref.apply(on, {"type": "challenge"})


@pytest.mark.parametrize("cost", ["lose-turn", "points", "none"])
def test_unsuccessful_challenge_costs_the_documented_setting(lex, cost):
    """The rulebook does not say what a wrong challenge costs: the setting ``failed_challenge``."""
    ref = Referee(lex, CrosswordRules(word_check="challenge", failed_challenge=cost, failed_challenge_points=7))
    st = _state(ref, rack="CATEEEE")
    p = st.current
    played = ref.apply(st, {"type": "place", "tiles": [[7, 6, "C"], [7, 7, "A"], [7, 8, "T"]]})
    after = ref.apply(played, {"type": "challenge"})
    assert after.board.to_rows()[7] == "......CAT......" and after.log[-1]["result"] == "valid"
    if cost == "lose-turn":
        assert after.current == p and after.scores[p] == 16
    elif cost == "points":
        assert after.current == 1 - p and after.scores[p] == 16 + 7
    else:
        assert after.current == 1 - p and after.scores[p] == 16


def test_challenge_refused_in_referee_mode(lex):
    ref = Referee(lex)
    with pytest.raises(IllegalMoveError, match="challenges are off"):
        ref.apply(ref.new_game(0, 2), {"type": "challenge"})


# ------------------------------------------------------------------------------------------------ actions
def test_bad_actions_refused_with_the_reason(lex):
    ref = Referee(lex)
    st = ref.new_game(0, 2)
    for action, reason in [
        ({"type": "jump"}, "unknown action type"),
        ({"type": "pass", "x": 1}, "unknown key"),
        ({"type": "place"}, "exactly one of"),
        ({"type": "place", "tiles": [[1, 2]]}, "must be \\[row, col, letter\\]"),
        ({"type": "exchange"}, "needs \"letters\""),
        ({"type": "place", "move": "99 CAT"}, "bad coordinate"),
        ({"type": "place", "move": "8M CATS"}, "runs off the board"),
        ("pass", "must be an object"),
    ]:
        with pytest.raises(IllegalMoveError, match=reason):
            ref.apply(st, action)


def test_place_by_gcg_move_text(lex):
    ref = Referee(lex)
    st = _state(ref, rack="CATEEEE")
    a = ref.apply(st, {"type": "place", "move": "8G CAT"})
    b = ref.apply(st, {"type": "place", "tiles": [[7, 6, "C"], [7, 7, "A"], [7, 8, "T"]]})
    assert a.to_dict() == b.to_dict()
    assert a.history[-1][1].tiles == ((7, 6, "C"), (7, 7, "A"), (7, 8, "T"))


def test_no_diagonal_words_and_adjacent_tiles_form_one_longer_word(lex):
    """'No diagonal words; words are separated by empty squares unless they form one longer word.'"""
    ref = Referee(lex)
    st = _state(ref, CAT_ROWS, rack="ASEEZEX")
    with pytest.raises(IllegalMoveError, match="not in one row or one column"):
        ref.apply(st, {"type": "place", "tiles": [[8, 9, "A"], [9, 10, "S"]]})
    # an S right after CAT does not make a separate one-letter word: it makes the longer word CATS
    judged = ref.judge_placement(st.board, "ASEEZEX", [(7, 9, "S")])
    assert judged.words == ("CATS",)
    # tiles placed right before a word join it too: A + S before CAT is ASCAT, not in the list
    with pytest.raises(IllegalMoveError, match="not in the lexicon: ASCAT"):
        ref.apply(st, {"type": "place", "tiles": [[7, 4, "A"], [7, 5, "S"]]})
