"""One test per rule of the colonii rulebook ("Reguli de construire a cuvintelor"), quoting it."""

from __future__ import annotations

import pytest

from kubasolve.errors import IllegalMoveError, RulesError
from kubasolve.games.colonii.game import ColoniiState, Referee, action_from_dict
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


NINE = ("ziar", "rac", "cal", "lac", "cai", "ie", "ele", "ea", "al")  # a chain of nine words, ZIAR first


def test_supercolony_at_five_words_is_declared_by_its_owner() -> None:
    """"Supercolony at 5 words: its owner scores +5." The owner declares it, on their own turn: "doar pe
    runda jucătorului care deține Supercolonia". Adding the fifth word pays nobody a bonus."""
    pos = position([Group(("tac", "cal", "lac", "cai"), 1), word("ta", 0)], "e")
    m = judge(pos, "chain", 0, "ie", R, LEX)
    assert m.deltas == (1, 0) and m.gain == 1  # the fifth word, by player 0: only its cards score
    five = apply_move(pos.table, m, R)
    assert len(five[0].words) == 5 and not five[0].supercolony
    with pytest.raises(IllegalMoveError, match="only its owner"):
        judge(position(list(five), ""), "declare", 0, "", R, LEX)
    owner = position(list(five), "", mover=1)
    declared = judge(owner, "declare", 0, "", R, LEX)
    assert (declared.kind, declared.deltas, declared.cards) == (MoveKind.SUPERCOLONY, (0, 5), "")
    after = apply_move(five, declared, R)
    assert after[0].supercolony and after[0].words == five[0].words
    with pytest.raises(IllegalMoveError, match="already a supercolony"):
        judge(position(list(after), "", mover=1), "declare", 0, "", R, LEX)
    with pytest.raises(IllegalMoveError, match="needs 5"):
        judge(position(list(pos.table), "", mover=1), "declare", 0, "", R, LEX)


def test_decolonisation_at_ten_words_is_the_owners_choice() -> None:
    """"Decolonisation at 10 words: the owner doubles the points of the colony's first word (all its
    cards), keeps only the last word on the table (it can no longer be conquered and may start a new
    colony), and the first 9 words leave play." The owner "va putea face" it: a choice, not automatic,
    so a colony can grow past ten words until its owner decolonises it."""
    pos = position([Group(NINE, 0, 0, supercolony=True)], "eac")
    m = judge(pos, "chain", 0, "lea", R, LEX)
    assert m.deltas == (2, 0)  # E A = 2: the tenth word triggers nothing
    ten = apply_move(pos.table, m, R)
    assert len(ten[0].words) == 10
    eleven = apply_move(ten, judge(position(list(ten), "c"), "chain", 0, "ac", R, LEX), R)
    assert len(eleven[0].words) == 11  # past ten words
    with pytest.raises(IllegalMoveError, match="needs 10"):
        judge(pos, "decolonise", 0, "", R, LEX)
    d = judge(position(list(ten), ""), "decolonise", 0, "", R, LEX)
    assert (d.kind, d.deltas) == (MoveKind.DECOLONISATION, (6, 0))  # ZIAR's 6 again
    table = apply_move(ten, d, R)
    assert table == (Group(("lea",), 0, R.value("lea"), protected=True),)
    rival = position([table[0], word("tac", 1)], "ce", mover=1)
    with pytest.raises(IllegalMoveError, match="cannot be conquered"):
        judge(rival, "chain", 0, "ace", R, LEX)
    with pytest.raises(IllegalMoveError, match="only its owner"):
        judge(position(list(ten) + [word("tac", 1)], "", mover=1), "decolonise", 0, "", R, LEX)
    assert judge(position(list(table), "ce"), "chain", 0, "ace", R, LEX).kind is MoveKind.COLONY_START


def _game(table: tuple[Group, ...], hands: tuple[str, str], current: int = 0) -> tuple[Referee, ColoniiState]:
    ref = Referee(LEX, R)
    deck = tuple(ref.new_game(0, 2).deck)
    return ref, ColoniiState(R, 0, 2, deck, hands, table, (0, 0), current)


def test_the_owner_declares_on_their_own_turn_and_a_forgotten_declaration_waits() -> None:
    """"doar pe runda jucătorului care deține Supercolonia"; if the owner "uită să declare … pe runda lui",
    the bonus is not paid on another player's turn: the owner may declare on a later turn of their own."""
    ref, s = _game((Group(("tac", "cal", "lac", "cai"), 1), word("ta", 0)), ("e", "zz"))
    s = ref.apply(s, {"type": "turn", "moves": [{"play": "chain", "target": 0, "word": "ie"}]})
    assert s.scores == (1, 0) and s.current == 1  # player 0 made the fifth word: no bonus to anyone
    forgot = ref.apply(s, {"type": "pass"})  # player 1 forgets to declare
    assert forgot.scores == (1, 0)
    with pytest.raises(IllegalMoveError, match="only its owner"):
        ref.apply(forgot, {"type": "turn", "moves": [{"play": "declare", "target": 0}]})
    later = ref.apply(ref.apply(forgot, {"type": "pass"}), {"type": "turn", "moves": [{"play": "declare", "target": 0}]})
    assert later.scores == (1, 5) and later.table[0].supercolony
    assert later.history[-1] == (1, action_from_dict({"type": "turn", "moves": [{"play": "declare", "target": 0}]}))


def test_decolonisation_happens_only_when_its_owner_plays_it() -> None:
    """Issue 22's case: P1 adds the tenth word; P0 (the owner) gets nothing on P1's turn, and decolonises on
    their own turn, in the same turn as other moves, in the order given."""
    ref, s = _game((Group(NINE, 0, 0, supercolony=True), word("tac", 1)), ("ce", "ea"), current=1)
    s = ref.apply(s, {"type": "turn", "moves": [{"play": "chain", "target": 0, "word": "lea"}]})
    assert s.scores == (0, 2) and len(s.table[0].words) == 10
    s = ref.apply(s, {"type": "turn", "moves": [{"play": "decolonise", "target": 0}, {"play": "chain", "target": 0, "word": "ace"}]})
    assert s.scores == (6 + 3, 2)
    assert s.table[0] == Group(("lea", "ace"), 0, 0)  # the protected word started a new colony
    assert [m.to_dict() for _, a in s.history for m in a.moves][-2:] == [{"play": "decolonise", "target": 0},
                                                                          {"play": "chain", "word": "ace", "target": 0}]


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
