"""One test per rule of the colonii rulebook ("Reguli de construire a cuvintelor"), quoting it."""

from __future__ import annotations

import pytest

from kubasolve.errors import IllegalMoveError, RulesError
from kubasolve.games.colonii.rules import ColoniiRules
from kubasolve.games.colonii.table import Group, MoveKind, apply_move, judge

from .helpers import position, rules, small_lexicon, word

LEX = small_lexicon()
R = ColoniiRules()


@pytest.mark.parametrize(("letters", "value"), [
    ("ziar", 6), ("cal", 4), ("orifer", 7), ("calorifer", 11), ("axi", 5), ("dee", 4), ("ânjet", 7), ("raft", 5),
])
def test_card_values_match_every_rulebook_example(letters: str, value: int) -> None:
    """ZIAR = 6 (Z 3, I 1, A 1, R 1), CAL = 4, ORIFER = 7, CALORIFER = 11, TAXI's A X I = 5 (X 3),
    IDEE's D E E = 4 (D 2), RÂNJET's Â N J E T = 7, RAFT = 5."""
    assert R.value(letters) == value


def test_letters_named_in_the_examples() -> None:
    assert (R.letter_values["z"], R.letter_values["x"], R.letter_values["d"]) == (3, 3, 2)
    assert all(R.letter_values[c] == 1 for c in "iar")
    assert len(R.deck()) == sum(R.card_counts.values()) == 110


def test_build_a_word_from_the_hand_scores_its_letters() -> None:
    """"A word's letters score for the builder, and the pawn moves that many steps.\""""
    m = judge(position([], "ziarxx"), "new", None, "ziar", R, LEX)
    assert (m.kind, m.cards, m.gain, m.deltas) == (MoveKind.NEW, "ziar", 6, (6, 0))
    table = apply_move((), m, R)
    assert table == (Group(("ziar",), 0, 6),)


def test_words_come_from_the_hand_and_the_lexicon() -> None:
    with pytest.raises(IllegalMoveError, match="needs card"):
        judge(position([], "zia"), "new", None, "ziar", R, LEX)
    with pytest.raises(IllegalMoveError, match="not in the lexicon"):
        judge(position([], "ziarb"), "new", None, "ziarb", R, LEX)


def test_extend_any_word_scores_only_the_new_letters_and_the_word_stays_its_owners() -> None:
    """"Extend any word by adding letters at its end (ZIAR -> ZIARIST): the extender scores only the
    new letters; the word stays its owner's.\""""
    pos = position([word("ziar", 1), word("tac", 0)], "ist")
    m = judge(pos, "extend", 0, "ziarist", R, LEX)
    assert (m.kind, m.cards, m.gain, m.deltas) == (MoveKind.EXTEND, "ist", 3, (3, 0))
    assert apply_move(pos.table, m, R)[0] == Group(("ziarist",), 1, 6)  # still player 1's, stake unchanged


def test_playing_on_others_words_needs_an_own_word() -> None:
    """"Playing on others' words or colonies needs at least one own word on the table.\""""
    pos = position([word("ziar", 1)], "ist")
    with pytest.raises(IllegalMoveError, match="needs one of your own words"):
        judge(pos, "extend", 0, "ziarist", R, LEX)
    own = judge(position([word("ziar", 0)], "ist"), "extend", 0, "ziarist", R, LEX)
    assert own.gain == 3


def test_conquest_a_takes_the_word_and_its_points() -> None:
    """"Conquest (A): extend another player's individual word with new letters worth more than the
    word (CAL 4 + ORIFER 7 -> CALORIFER): the conqueror takes the word and its points; the loser moves back.\""""
    pos = position([word("cal", 1), word("tac", 0)], "orifer")
    m = judge(pos, "extend", 0, "calorifer", R, LEX)
    assert m.kind is MoveKind.CONQUEST_A and m.cards == "orifer"
    assert m.deltas == (7 + 4, -4) and m.taken == 4
    assert apply_move(pos.table, m, R)[0] == Group(("calorifer",), 0, 11)  # CALORIFER = 11, now player 0's


def test_extension_worth_no_more_than_the_word_does_not_conquer() -> None:
    pos = position([word("cal", 1), word("tac", 0)], "ul")
    m = judge(pos, "extend", 0, "calul", R, LEX)  # U L = 2 <= CAL 4
    assert m.kind is MoveKind.EXTEND and m.deltas == (2, 0)


def test_conquest_b_perpendicular_word_makes_a_colony_of_two() -> None:
    """"Conquest (B): build over another player's individual word a perpendicular word, starting with
    its last letter, whose added letters are worth more (ZIAR + RÂNJET): the conqueror takes the word
    and its points and now owns a colony of two words.\""""
    pos = position([word("ziar", 1), word("tac", 0)], "ânjet")
    m = judge(pos, "chain", 0, "rânjet", R, LEX)
    assert m.kind is MoveKind.CONQUEST_B and m.cards == "ânjet"
    assert m.deltas == (7 + 6, -6)
    assert apply_move(pos.table, m, R)[0] == Group(("ziar", "rânjet"), 0, 0)


def test_perpendicular_on_another_players_word_must_conquer() -> None:
    pos = position([word("ziar", 1), word("tac", 0)], "aft")
    with pytest.raises(IllegalMoveError, match="must conquer it"):
        judge(pos, "chain", 0, "raft", R, LEX)  # A F T = 4, not more than ZIAR 6


def test_colony_words_chain_from_the_last_letter_and_the_shared_letter_scores_once() -> None:
    """"Colonies: each new word is perpendicular to the previous one and starts with its last letter
    (the shared letter does not score again); anyone may add to any colony.\""""
    colony = Group(("ziar", "rânjet"), 1)
    pos = position([colony, word("cal", 0)], "axi")
    m = judge(pos, "chain", 0, "taxi", R, LEX)  # TAXI's A X I = 5
    assert (m.kind, m.cards, m.deltas) == (MoveKind.COLONY_ADD, "axi", (5, 0))
    with pytest.raises(IllegalMoveError, match="must start with 't'"):
        judge(pos, "chain", 0, "ia", R, LEX)
    assert apply_move(pos.table, m, R)[0].words == ("ziar", "rânjet", "taxi")


def test_own_word_starts_a_colony() -> None:
    pos = position([word("ziar", 0)], "aft")
    m = judge(pos, "chain", 0, "raft", R, LEX)
    assert m.kind is MoveKind.COLONY_START and m.deltas == (4, 0)
    assert apply_move(pos.table, m, R)[0] == Group(("ziar", "raft"), 0, 0)


def test_words_in_a_colony_are_unique_but_derived_forms_are_allowed() -> None:
    """"Words in a colony are unique (derived forms allowed).\""""
    pos = position([Group(("rar", "rac", "cal", "lac"), 0)], "alul")
    with pytest.raises(IllegalMoveError, match="already in this colony"):
        judge(pos, "chain", 0, "cal", R, LEX)
    assert judge(pos, "chain", 0, "calul", R, LEX).kind is MoveKind.COLONY_ADD


def test_colony_words_cannot_be_conquered_or_extended() -> None:
    """"Colony words cannot be conquered.\""""
    pos = position([Group(("ziar", "rânjet"), 1), word("tac", 0)], "ist")
    with pytest.raises(IllegalMoveError, match="is a colony"):
        judge(pos, "extend", 0, "ziarist", R, LEX)


def test_supercolony_at_five_words_scores_its_owner_plus_five() -> None:
    """"Supercolony at 5 words: its owner scores +5.\""""
    pos = position([Group(("tac", "cal", "lac", "cai"), 1), word("ta", 0)], "e")
    m = judge(pos, "chain", 0, "ie", R, LEX)
    assert m.deltas == (1, 5) and m.gain == 1
    after = apply_move(pos.table, m, R)[0]
    assert after.supercolony and len(after.words) == 5


def test_decolonisation_at_ten_words() -> None:
    """"Decolonisation at 10 words: the owner doubles the points of the colony's first word (all its
    cards), keeps only the last word on the table (it can no longer be conquered and may start a new
    colony), and the first 9 words leave play.\""""
    nine = ("ziar", "rac", "cal", "lac", "cai", "ie", "ele", "ea", "al")
    pos = position([Group(nine, 0, 0, supercolony=True)], "ea")
    m = judge(pos, "chain", 0, "lea", R, LEX)
    assert m.deltas == (2 + 6, 0)  # E A = 2, plus ZIAR's 6 again
    table = apply_move(pos.table, m, R)
    assert table == (Group(("lea",), 0, R.value("lea"), protected=True),)
    rival = position([table[0], word("tac", 1)], "ce", mover=1)
    with pytest.raises(IllegalMoveError, match="cannot be conquered"):
        judge(rival, "chain", 0, "ace", R, LEX)
    assert judge(position(list(table), "ce"), "chain", 0, "ace", R, LEX).kind is MoveKind.COLONY_START


def test_rule_settings_are_validated() -> None:
    assert rules(hand_size=10).hand_size == 10
    with pytest.raises(RulesError, match="hand_size"):
        rules(hand_size=0)
    with pytest.raises(RulesError, match="unknown rule setting"):
        ColoniiRules.from_dict({"colonies": 3})
    with pytest.raises(RulesError, match="end must be"):
        rules(end="never")
    r = ColoniiRules.from_toml('[colonii]\nhand_size = 9\nend = "deck"\n[colonii.letter_values]\n"z" = 4\n')
    assert (r.hand_size, r.end, r.letter_values["z"], r.letter_values["x"]) == (9, "deck", 4, 3)
    assert ColoniiRules.from_dict(r.to_dict()) == r
