"""Every game rule of issue 4, one or more tests each, quoting the rule."""

from __future__ import annotations

import pytest

from kubasolve.errors import IllegalMoveError
from kubasolve.games.kubagram.actions import Claim, EndTurn, PlaceZero, Skip, Take
from kubasolve.games.kubagram.game_rules import KubagramGameRules
from kubasolve.games.kubagram.position import TableWord

from .conftest import make_state

FILLER = ("xyz", "x", "I")  # a cube that is never useful


def test_i_square_only_the_top_letter(referee) -> None:
    """Rule: "I square: only the top letter." """
    s = make_state([("abc", "b", "I"), FILLER])
    with pytest.raises(IllegalMoveError, match="only its top letter B"):
        referee.apply(s, Take("a"))
    after = referee.apply(s, Take())
    assert [t.letter for t in after.field] == ["b"]
    assert referee.apply(s, Take("b")).field == after.field


def test_iii_square_taker_picks_one_of_three_letters(referee) -> None:
    """Rule: "III: the taker picks one of the 3 letters, once." """
    s = make_state([("abc", "b", "III"), FILLER])
    with pytest.raises(IllegalMoveError, match="choose the letter"):
        referee.apply(s, Take())
    with pytest.raises(IllegalMoveError, match="not on this cube"):
        referee.apply(s, Take("z"))
    after = referee.apply(s, Take("c"))
    assert after.field[-1].letter == "c" and after.phase == "after"
    assert {a.letter for a in referee.take_options(s) if isinstance(a, Take)} == {"a", "b", "c"}


def test_zero_square_passes_cube_to_next_player_as_their_turn(referee) -> None:
    """Rule: "0: the taker must pass the cube to the next player, who picks one of its 3 letters; that counts as the
    next player's turn (no cube of their own)." """
    s = make_state([("abc", "a", "0"), ("def", "d", "I"), FILLER], n_players=3)
    with pytest.raises(IllegalMoveError, match="0 square"):
        referee.apply(s, Take("a"))
    s1 = referee.apply(s, Take())
    assert s1.current == 1 and s1.phase == "zero" and s1.field == ()
    with pytest.raises(IllegalMoveError, match="place the cube"):
        referee.apply(s1, Take())
    with pytest.raises(IllegalMoveError, match="not on this cube"):
        referee.apply(s1, PlaceZero("z"))
    s2 = referee.apply(s1, PlaceZero("c"))
    assert [t.letter for t in s2.field] == ["c"]
    s3 = referee.apply(s2, EndTurn())
    assert s3.current == 2 and s3.next_cube.cube.letters == "def"  # player 1 took no cube of their own


def test_joker_chooses_among_all_its_letters_on_i_or_iii(referee) -> None:
    """Rule: "Jokers: choose among all their letters on I or III" """
    for marking in ("I", "III"):
        s = make_state([("eygr", "e", marking, True), FILLER])
        after = referee.apply(s, Take("y"))
        assert after.field[-1].letter == "y" and after.field[-1].joker


def test_joker_may_be_kept_aside_for_a_later_turn(referee) -> None:
    """Rule: "Jokers: ... may be kept aside for a later turn" - and a word with it is doubled."""
    s = make_state([("eygr", "e", "I", True), FILLER, FILLER], field="wate")
    s1 = referee.apply(s, Take(keep=True))
    assert s1.held[0][0].letters == "eygr" and len(s1.field) == 4
    # the holder uses it later: W A T E + joker showing R = WATER, doubled
    s2 = referee.apply(referee.apply(s1, EndTurn()), Take())  # player 1 takes the filler
    s3 = referee.apply(referee.apply(s2, EndTurn()), Take())  # player 0 again
    pos = s3.position()
    joker_tile = len(s3.field)
    assert pos.tiles[joker_tile].joker
    s4 = referee.apply(s3, Claim("water", (0, 1, 2, 3, joker_tile)))
    assert s4.held[0] == () and s4.table[-1].jokers == 1
    assert s4.scores[0] == referee.rules.word_score("water", 1) == 2 * referee.rules.word_score("water")
    # other players cannot use someone else's held joker
    assert len(s2.position().tiles) == len(s2.field)


def test_joker_on_zero_square_must_be_passed_on(referee) -> None:
    """Rule: "a joker on 0 must be passed on." """
    s = make_state([("eygr", "e", "0", True), FILLER])
    with pytest.raises(IllegalMoveError):
        referee.apply(s, Take(keep=True))
    s1 = referee.apply(s, Take())
    assert s1.current == 1 and s1.phase == "zero"
    s2 = referee.apply(s1, PlaceZero("g"))
    assert s2.field[-1].letter == "g" and s2.field[-1].joker


def test_placed_cubes_never_change_letter(referee) -> None:
    """Rule: "Placed cubes never change letter." (a field cube spells only its shown letter)"""
    s = make_state([("abc", "a", "I"), FILLER], field="watex", phase="after", taken=1)
    with pytest.raises(IllegalMoveError, match="placed cubes never change letter"):
        referee.apply(s, Claim("water", (0, 1, 2, 3, 4)))
    with pytest.raises(IllegalMoveError, match="cannot be spelled"):
        referee.apply(s, Claim("water"))


def test_claim_missed_word_before_taking_then_still_take(referee) -> None:
    """Rule: "A player may claim a word the previous player missed before taking a cube, then still take one." """
    s = make_state([("abc", "a", "I"), FILLER], field="water")
    s1 = referee.apply(s, Claim("water"))
    assert s1.scores[0] == referee.rules.word_score("water") and s1.field == () and s1.phase == "start"
    s2 = referee.apply(s1, Take())
    assert s2.phase == "after" and [t.letter for t in s2.field] == ["a"]


def test_each_player_may_skip_one_turn_per_game(referee) -> None:
    """Rule: "Each player may skip one turn per game." """
    s = make_state([("abc", "a", "I"), FILLER, FILLER, FILLER])
    s1 = referee.apply(s, Skip())
    assert s1.current == 1 and s1.taken == 0 and s1.skips == (1, 0)
    s2 = referee.apply(referee.apply(s1, Take()), EndTurn())
    assert s2.current == 0
    with pytest.raises(IllegalMoveError, match="already skipped"):
        referee.apply(s2, Skip())
    assert Skip() not in referee.legal_actions(s2)


def _consonant_field() -> str:
    return "bcdfghklmn"  # 10 consonants, no vowel


def test_vowel_rule_forces_a_vowel_also_on_i_square(referee) -> None:
    """Rule: "When only 10 consonants (Y counts as one) lie on the table, the player must put down a vowel, also on an
    I square" """
    s = make_state([("tar", "t", "I"), FILLER], field=_consonant_field())
    assert s.vowel_rule_active()
    with pytest.raises(IllegalMoveError, match="vowel rule"):
        referee.apply(s, Take())
    after = referee.apply(s, Take("a"))
    assert after.field[-1].letter == "a"
    # Y counts as a consonant
    assert make_state([FILLER], field="bcdfghklmy").vowel_rule_active()
    # nine consonants, or a vowel among them: no vowel rule
    assert not make_state([FILLER], field="bcdfghklm").vowel_rule_active()
    assert not make_state([FILLER], field="bcdfghklmna").vowel_rule_active()


def test_vowel_rule_joker_must_show_its_vowel_and_cannot_be_kept(referee) -> None:
    """Rule: "a joker must then show its vowel and cannot be kept." """
    s = make_state([("eygr", "g", "III", True), FILLER], field=_consonant_field())
    with pytest.raises(IllegalMoveError, match="cannot be kept"):
        referee.apply(s, Take(keep=True))
    with pytest.raises(IllegalMoveError, match="vowel"):
        referee.apply(s, Take("g"))
    assert referee.apply(s, Take("e")).field[-1].letter == "e"
    assert [a for a in referee.take_options(s) if isinstance(a, Take)] == [Take("e")]


def test_compounds_from_any_players_words(referee) -> None:
    """Rule: "Compounds from any player's words" - the parts' owners lose them, the compound is doubled."""
    r = referee.rules
    table = (TableWord("water", owner=1), TableWord("fiets", owner=0))
    s = make_state([("abc", "a", "I"), FILLER], table=table, phase="after", taken=1)
    s1 = referee.apply(s, Claim("waterfiets", parts=(0, 1)))
    assert s1.table == (TableWord("waterfiets", 0, 0, 1),)
    assert s1.scores == (r.compound_score("waterfiets", 1, 0) - r.word_score("fiets"), -r.word_score("water"))
    with pytest.raises(IllegalMoveError, match="not made of the parts"):
        referee.apply(s, Claim("fietswater", parts=(0, 1)))
    # a compound with one new word from the field
    s2 = make_state([("abc", "a", "I"), FILLER], field="fiets", table=table[:1], phase="after", taken=1)
    s3 = referee.apply(s2, Claim("waterfiets", parts=(0, None)))
    assert s3.field == () and s3.scores[0] == r.compound_score("waterfiets", 1, 0)


def test_last_cube_allows_two_letter_words(referee) -> None:
    """Rule: "last cube: 2-letter words" """
    early = make_state([("abc", "a", "I"), FILLER, FILLER], field="j", phase="start")
    early = referee.apply(early, Take())
    with pytest.raises(IllegalMoveError, match="too short"):
        referee.apply(early, Claim("ja"))
    last = make_state([FILLER, ("abc", "a", "I")], field="j", taken=1)
    last = referee.apply(last, Take())
    assert last.last_cube_turn
    after = referee.apply(last, Claim("ja"))
    assert after.scores[0] == referee.rules.word_score("ja")


def test_field_left_at_the_end_is_subtracted_from_last_player(referee) -> None:
    """Rule: "at the end the top values of the cubes left in the central field are subtracted from the last player's
    score" """
    s = make_state([FILLER, ("qzx", "q", "I")], field="w", taken=1, current=1)
    s = referee.apply(referee.apply(s, Take()), EndTurn())
    values = referee.rules.letter_values
    assert s.over and s.last_player == 1
    assert s.scores == (0, -(values["w"] + values["q"]))


def test_held_joker_at_last_cube_last_player_may_use_it(referee) -> None:
    """Rule: "a joker still held when the last cube is taken: the last player may take and use it" """
    s = make_state([FILLER, ("rst", "r", "I")], field="wat", taken=1, current=1, held=[["eygr"], []])
    s = referee.apply(s, Take())
    pos = s.position()
    assert len(pos.tiles) == 5 and pos.tiles[4].joker  # player 0's joker is open to the last player
    s = referee.apply(s, Claim("water", (0, 1, 2, 4, 3)))
    assert s.held == ((), ()) and s.scores[1] == referee.rules.word_score("water", 1)
    s = referee.apply(s, EndTurn())
    assert s.over and s.scores == (0, referee.rules.word_score("water", 1))


def test_held_joker_unused_at_the_end_costs_its_holder_all_faces(referee) -> None:
    """Rule: "... else its holder loses the sum of all its faces." """
    s = make_state([FILLER, ("aaa"[:1] + "bc", "a", "I")], taken=1, current=1, held=[["pltole"], []])
    s = referee.apply(referee.apply(s, Take()), EndTurn())
    faces = referee.rules.letter_sum("pltole")  # P L T O L E: both L faces count
    assert faces == 13
    assert s.scores[0] == -faces
    assert (0, -faces, "joker PLTOLE still held") in s.adjustments


def test_claimed_non_word_costs_five_points(referee) -> None:
    """Rule: "A claimed non-word costs 5 points" - the tiles stay in the field."""
    s = make_state([("abc", "a", "I"), FILLER], field="wtaer", phase="after", taken=1)
    s1 = referee.apply(s, Claim("wtaer"))
    assert s1.scores[0] == -5 and s1.field == s.field and s1.table == ()
    rules5 = KubagramGameRules(nonword_penalty=7)
    s2 = make_state([("abc", "a", "I"), FILLER], field="wtaer", phase="after", taken=1, game_rules=rules5)
    assert referee.apply(s2, Claim("wtaer")).scores[0] == -7


def test_scores_at_the_end_highest_wins(referee) -> None:
    """Rule: "Scores at the end; highest wins." """
    s = make_state([FILLER, ("abc", "a", "I")], field="wate", taken=1, current=1,
                   table=(TableWord("fiets", owner=0),))
    s = referee.apply(s, Take())
    s = referee.apply(s, EndTurn())  # player 1 loses the field, player 0 keeps FIETS
    assert s.over and s.winners() == [0]
    with pytest.raises(IllegalMoveError, match="over"):
        referee.apply(s, EndTurn())


def test_turn_order_errors_are_clear(referee) -> None:
    """A turn is: claims, take (or skip), claims, end; out-of-order actions name the problem."""
    s = make_state([("abc", "a", "I"), FILLER])
    with pytest.raises(IllegalMoveError, match="take a cube"):
        referee.apply(s, EndTurn())
    s1 = referee.apply(s, Take())
    with pytest.raises(IllegalMoveError, match="already took"):
        referee.apply(s1, Take())
    with pytest.raises(IllegalMoveError, match="only a joker"):
        referee.apply(s, Take(keep=True))


def test_vowel_rule_applies_to_a_cube_passed_on_from_zero(referee) -> None:
    """Rule: "the player must put down a vowel" - also the receiver of a 0 cube."""
    s = make_state([("tar", "t", "0"), FILLER], field=_consonant_field())
    s1 = referee.apply(s, Take())
    with pytest.raises(IllegalMoveError, match="vowel rule"):
        referee.apply(s1, PlaceZero("t"))
    assert referee.take_options(s1) == [PlaceZero("a")]


def test_referee_refuses_state_of_other_rules(referee) -> None:
    from kubasolve.errors import RulesError
    from kubasolve.games.kubagram.rules import KubagramRules

    s = make_state([FILLER])
    other = type(s)(**{**s.__dict__, "rules": KubagramRules(min_length=4)})
    with pytest.raises(RulesError, match="other scoring rules"):
        referee.apply(other, Take())


def test_render_shows_board_field_table_and_scores(referee) -> None:
    from kubasolve.games.kubagram.render import render_state

    s = referee.new_game(5)
    s = referee.apply(s, referee.take_options(s)[0])
    text = render_state(s, ["ann", "bob"])
    assert "field: 0:" in text and "scores: ann: 0" in text and "draw order" in text
    assert text.count("\n") >= s.setup.rows + 3


@pytest.mark.parametrize("claim, reason", [
    (Claim("water", ("a", 1, 2, 3, 4)), "no tile number"),
    (Claim("water", (0, 1, 2, 3)), "5 letters but 4 tiles"),
    (Claim("water", (0, 0, 1, 2, 3)), "only one letter"),
    (Claim("waterfiets", parts=("x", 0)), "table word numbers"),
    (Claim("waterfiets", parts=(0,)), "at least 2 parts"),
    (Claim("waterfiets", parts=(0, 0)), "once"),
    (Claim("waterfiets", parts=(None, None)), "at least one word from the table"),
    (Claim("waterfiets", parts=(5, None)), "no table word number 5"),
    (Claim("wat3r"), "outside the alphabet"),
])
def test_malformed_claims_are_refused_with_a_reason(referee, claim, reason) -> None:
    s = make_state([("abc", "a", "I"), FILLER], field="water", table=(TableWord("fiets", owner=1),), phase="after",
                   taken=1)
    before = s.to_dict()
    with pytest.raises(IllegalMoveError, match=reason):
        referee.apply(s, claim)
    assert s.to_dict() == before


def test_game_follows_setup_start_player_and_draw_order(referee) -> None:
    """Rules: "start player by the drawn letter closest to A" and "Draw order: bottom-left first, left to right
    along the row, then the row above." - the engine takes cubes exactly in that order."""
    s = referee.new_game(21, n_players=3)
    assert s.current == s.setup.start_player
    bottom = s.setup.rows - 1
    assert [(p.row, p.col) for p in s.order[:3]] == [(bottom, 0), (bottom, 1), (bottom, 2)]
    assert (s.order[s.setup.cols].row, s.order[s.setup.cols].col) == (bottom - 1, 0)
    taken = []
    for _ in range(6):
        cube = s.next_cube
        option = next(a for a in referee.take_options(s) if not isinstance(a, Skip))
        s = referee.apply(s, option)
        taken.append(cube)
        if s.phase == "zero":
            s = referee.apply(s, referee.take_options(s)[0])
        s = referee.apply(s, EndTurn())
    assert taken == list(s.order[:6])


def test_word_claimed_this_turn_is_no_compound_part_before_the_next_turn(referee) -> None:
    """Rule: "Compounds from any player's words" - the words lying on the table. Read literally, a word claimed a moment
    ago in the same turn is one too, and the same play scored more for being announced in steps: WATER, then FIETS,
    then WATERFIETS doubled a word spelled from the field alone; KROEGENTOCHT, then KROEGENTOCHTEN ("kroegentocht + en
    -> kroegentochten" doubles again) scored x4 what KROEGEN + TOCHT + EN at once scores x2. Our reading: a word is a
    compound part once its turn has passed."""
    r = referee.rules
    s = make_state([("abc", "a", "I"), FILLER, FILLER], field="waterfiets", phase="after", taken=1)
    s1 = referee.apply(referee.apply(s, Claim("water")), Claim("fiets"))
    assert [w.fresh for w in s1.table] == [True, True]
    with pytest.raises(IllegalMoveError, match="WATER and FIETS were claimed this turn"):
        referee.apply(s1, Claim("waterfiets", parts=(0, 1)))
    assert not any(isinstance(a, Claim) and a.parts for a in referee.legal_actions(s1))  # nor offered by the solver
    # once the turn has passed, they are table words like any other
    s2 = referee.apply(s1, EndTurn())
    assert not any(w.fresh for w in s2.table)
    s3 = referee.apply(referee.apply(s2, Take()), Claim("waterfiets", parts=(0, 1)))
    assert s3.scores == (0, r.compound_score("waterfiets", 1, 0)) and s3.table[0].fresh
    # the last cube: KROEGEN + TOCHT + EN at once (x2), not KROEGENTOCHT then + EN (x4)
    table = (TableWord("kroegen", owner=1), TableWord("tocht", owner=1))
    last = referee.apply(make_state([FILLER, ("nop", "n", "I")], field="e", table=table, taken=1), Take())
    once = referee.apply(last, Claim("kroegentochten", parts=(0, 1, None)))
    assert once.table[-1].level == 1 and once.scores[0] == r.compound_score("kroegentochten", 1, 0)
    steps = referee.apply(last, Claim("kroegentocht", parts=(0, 1)))
    with pytest.raises(IllegalMoveError, match="KROEGENTOCHT was claimed this turn"):
        referee.apply(steps, Claim("kroegentochten", parts=(0, None)))


def test_word_claimed_this_turn_does_not_slip_a_field_word_into_table_only_compounds(lexicon) -> None:
    """Setting ``compound_with_field_words = false``: "these rules allow compounds of table words only". The greedy AI
    claimed FIETS from the field, then FIETS + TOCHT as a compound of "table words", the compound the rules refuse."""
    from kubasolve.games.kubagram.ai import GreedyPolicy
    from kubasolve.games.kubagram.referee import Referee
    from kubasolve.games.kubagram.rules import KubagramRules

    rules = KubagramRules(compound_with_field_words=False)
    ref = Referee(lexicon, rules, KubagramGameRules())
    s = make_state([("stu", "s", "I"), FILLER, FILLER], field="fiet", table=(TableWord("tocht", owner=1),))
    s = type(s)(**{**s.__dict__, "rules": rules})
    actions = GreedyPolicy().turn(ref, s)
    assert [a.word for a in actions if isinstance(a, Claim)] == ["fiets"]
    after = ref.apply(s, Take())
    with pytest.raises(IllegalMoveError, match="table words only"):
        ref.apply(after, Claim("fietstocht", parts=(None, 0)))
    with pytest.raises(IllegalMoveError, match="FIETS was claimed this turn"):
        ref.apply(ref.apply(after, Claim("fiets")), Claim("fietstocht", parts=(1, 0)))
