"""Notations: coordinates, placement text, GCG games and CGP positions, each round-tripped."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubasolve.errors import PositionError
from kubasolve.games.crossword.board import Board
from kubasolve.games.crossword.game import Referee, play_game
from kubasolve.games.crossword.notation import (
    format_coordinate,
    format_placement,
    parse_cgp,
    parse_coordinate,
    parse_gcg,
    parse_placement,
    state_to_cgp,
    to_cgp,
    to_gcg,
)
from kubasolve.games.crossword.rules import CrosswordRules


@pytest.fixture(scope="module")
def referee(nl_lexicon) -> Referee:  # type: ignore[no-untyped-def]
    return Referee(nl_lexicon)


@pytest.fixture(scope="module")
def games(referee):  # type: ignore[no-untyped-def]
    from kubasolve.ai.crossword import make_policy

    return [play_game([make_policy("score"), make_policy("equity")], s, referee).final for s in (1, 2)] + \
        [play_game([make_policy("score")] * 3, 5, referee).final]


def test_coordinates_row_first_across_column_first_down():
    assert format_coordinate(7, 3, "across") == "8D" and format_coordinate(7, 3, "down") == "D8"
    assert parse_coordinate("8D") == (7, 3, "across") and parse_coordinate("h8") == (7, 7, "down")
    for r in range(15):
        for c in range(15):
            for d in ("across", "down"):
                assert parse_coordinate(format_coordinate(r, c, d)) == (r, c, d)
    with pytest.raises(PositionError, match="bad coordinate"):
        parse_coordinate("88")


def test_placement_text_with_played_through_letters(nl_lexicon):
    rows = ["." * 15] * 7 + ["......WORD....."] + ["." * 15] * 7
    board = Board.from_rows(rows, nl_lexicon.alphabet)
    assert parse_placement("8F S(WORD)EN", board) == ((7, 5, "S"), (7, 10, "E"), (7, 11, "N"))
    assert parse_placement("8F S....EN", board) == ((7, 5, "S"), (7, 10, "E"), (7, 11, "N"))
    assert parse_placement("8F sWORDEN", board) == ((7, 5, "s"), (7, 10, "E"), (7, 11, "N"))  # blank as s
    tiles = ((7, 5, "S"), (7, 10, "E"), (7, 11, "N"))
    assert format_placement(7, 5, "across", "SWORDEN", tiles) == "8F S....EN"
    assert format_placement(7, 5, "across", "SWORDEN", tiles, through="()") == "8F S(WORD)EN"
    with pytest.raises(PositionError, match="not 'X'"):
        parse_placement("8G X", board)
    with pytest.raises(PositionError, match="played through but is empty"):
        parse_placement("7G (A)B", board)
    with pytest.raises(PositionError, match="runs off"):
        parse_placement("8N ABC", board)


def test_gcg_round_trip_of_whole_games(games, referee):
    """Export a played game, import it: the same players, events, totals and final board; re-export identical."""
    for final in games:
        text = to_gcg(final, lexicon="nl")
        game = parse_gcg(text)
        assert list(game.rows) == final.board.to_rows()
        assert game.scores() == list(final.scores)
        assert to_gcg(game) == text
        placed = [e for e in game.events if e.kind == "place"]
        logged = [e for e in final.log if e["type"] == "place"]
        assert [e.tiles for e in placed] == [tuple(tuple(t) for t in e["tiles"]) for e in logged]
        assert [e.score for e in placed] == [e["score"] for e in logged]
    assert "-" in "".join(to_gcg(f) for f in games)  # some exchange or pass lines appear


def test_gcg_of_a_challenged_game(nl_lexicon):
    ref = Referee(nl_lexicon, CrosswordRules(word_check="challenge", failed_challenge="points"))
    st = ref.new_game(2, 2)
    from dataclasses import replace

    racks = list(st.racks)
    racks[st.current] = "AEKQSXZ"
    st = replace(st, racks=tuple(racks), bag=st.bag)  # not a real deal: GCG only reads the log
    st = ref.apply(st, {"type": "place", "move": "8G QXZ"})
    st = ref.apply(st, {"type": "challenge"})
    text = to_gcg(st)
    assert "QXZ" in text and " -- -" in text
    game = parse_gcg(text)
    assert game.events[-1].kind == "withdrawn" and all(ch == "." for row in game.rows for ch in row)


def test_gcg_import_errors():
    with pytest.raises(PositionError, match="declares its players"):
        parse_gcg("#character-encoding UTF-8\n")
    with pytest.raises(PositionError, match="is not the total"):
        parse_gcg("#player1 a A\n#player2 b B\n>a: ABC 8G ABC +10 11\n")
    with pytest.raises(PositionError, match="unknown player"):
        parse_gcg("#player1 a A\n>c: ABC 8G ABC +10 10\n")
    with pytest.raises(PositionError, match="line 2"):
        parse_gcg("#player1 a A\n>a: ABC 8G A(B)C +10 10\n")


def test_gcg_reads_other_programs_files():
    """A Quackle-style file: parentheses for played-through letters, a #note line, an end-of-game rack line."""
    text = """#character-encoding UTF-8
#player1 jan Jan Jansen
#player2 piet Piet
>jan: AEKNRST 8D KRENTAS +76 76
#note a bingo
>piet: DEIOU?? E7 O(R)DE +10 10
>jan: ABCDEFG -ABC +0 76
>piet: IU?? - +0 10
>jan: ABCDEFG (challenge) +5 81
>piet: IU?? (IU) -5 5
"""
    game = parse_gcg(text)
    assert game.players == (("jan", "Jan Jansen"), ("piet", "Piet"))
    assert [e.kind for e in game.events] == ["place", "place", "exchange", "pass", "challenge-bonus", "rack-penalty"]
    assert game.events[1].tiles == ((6, 4, "O"), (8, 4, "D"), (9, 4, "E"))
    assert game.scores() == [81, 5]
    assert game.rows[7] == "...KRENTAS....."


def test_cgp_round_trip_of_game_positions(games):
    for final in games:
        text = state_to_cgp(final, "nl")
        pos = parse_cgp(text)
        assert list(pos.rows) == final.board.to_rows()
        assert pos.racks[0] == final.racks[final.current] and pos.scoreless == final.scoreless
        assert pos.options == {"lex": "nl"}
        assert to_cgp(pos.rows, pos.racks, pos.scores, pos.scoreless, pos.options) == text


def test_cgp_empty_board_and_macondo_example():
    text = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0 lex NWL20;"
    pos = parse_cgp(text)
    assert pos.racks == ("AEINRST", "") and pos.scores == (0, 0) and pos.options == {"lex": "NWL20"}
    assert to_cgp(pos.rows, pos.racks, pos.scores, pos.scoreless, pos.options) == text
    for bad, reason in [("15/15 A/ 0/0 0", "2 rows"), ("16/15/15/15/15/15/15/15/15/15/15/15/15/15/15 A/ 0/0 0", "row 1"),
                        ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 a/ 0/0 0", "rack"),
                        ("15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 A/ x/0 0", "whole numbers"),
                        ("15/15", "4 fields")]:
        with pytest.raises(PositionError, match=reason):
            parse_cgp(bad)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet=".ABCXYZabc", min_size=15, max_size=15), min_size=15, max_size=15),
       st.lists(st.text(alphabet="ABEZ?", max_size=7), min_size=2, max_size=4), st.integers(0, 6))
def test_cgp_round_trip_any_board(rows, racks, scoreless):
    scores = list(range(len(racks)))
    text = to_cgp(rows, racks, scores, scoreless)
    pos = parse_cgp(text)
    assert list(pos.rows) == rows and list(pos.racks) == racks and list(pos.scores) == scores and pos.scoreless == scoreless
