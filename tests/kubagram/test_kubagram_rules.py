"""One test per Kubagram scoring rule, quoting the rulebook (and the issue's worked examples)."""

from __future__ import annotations

import pytest

from kubasolve.errors import PositionError, RulesError
from kubasolve.games.kubagram.movegen import KubagramSolver, best_words, compound_moves
from kubasolve.games.kubagram.position import KubagramPosition, TableWord
from kubasolve.games.kubagram.rules import KubagramRules


def test_length_bonus_steps(rules):
    """"length bonus (6th letter +5, 7th +10, 8th +15 ...)": 6 letters +5, 7 -> +15, 8 -> +30, 9 -> +50."""
    assert [rules.length_bonus(n) for n in (2, 5, 6, 7, 8, 9)] == [0, 0, 5, 15, 30, 50]


def test_bonus_counts_from_sixth_letter_whatever_the_minimum():
    """"always from the 6th letter whatever the minimum"."""
    for m in (3, 4, 6, 7):
        assert KubagramRules(min_length=m).length_bonus(6) == 5
        assert KubagramRules(min_length=m).length_bonus(5) == 0


def test_min_length_selectable(rulebook_lexicon):
    """"Words (default min. 5 letters; 3, 4, 6+ selectable)"."""
    pos = KubagramPosition.from_letters("toen")
    assert best_words(pos, rulebook_lexicon, KubagramRules()) == []
    assert {m.word for m in best_words(pos, rulebook_lexicon, KubagramRules(min_length=3))} == {"toe", "toen", "ten"}
    assert {m.word for m in best_words(pos, rulebook_lexicon, KubagramRules(min_length=4))} == {"toen"}


def test_score_is_letters_plus_bonus(rulebook_lexicon, rules):
    """"Score = sum of letter values + length bonus" (Dutch Scrabble values by default)."""
    [move] = [m for m in best_words(KubagramPosition.from_letters("groente"), rulebook_lexicon, rules) if m.word == "groente"]
    # g3 r2 o1 e1 n1 t2 e1 = 11, 7 letters -> +15
    assert (move.letters, move.bonus, move.multiplier, move.score) == (11, 15, 1, 26)


@pytest.mark.parametrize("jokers,factor", [(1, 2), (2, 4), (3, 8)])
def test_joker_doubles_per_joker(rulebook_lexicon, rules, jokers, factor):
    """"A word with j jokers is worth x2^j (bonus included)": x2, x4, x8."""
    # kroegen: the jokers take letters each can show (EYGR: e/g/r, ODRKTE: o/r/k/e)
    spec = {1: ("kroegn", ["eygr"]), 2: ("kroen", ["eygr", "odrkte"]), 3: ("koen", ["eygr", "odrkte", "odrkte"])}[jokers]
    letters, js = spec
    pos = KubagramPosition.from_letters(letters, jokers=js)
    [move] = [m for m in best_words(pos, rulebook_lexicon, rules) if m.word == "kroegen"]
    assert move.jokers == jokers
    assert move.score == (rules.letter_sum("kroegen") + rules.length_bonus(7)) * factor


def test_uses_as_many_jokers_as_fit(rulebook_lexicon, rules):
    """The best assignment uses the joker even when a fixed tile could spell the same letter."""
    pos = KubagramPosition.from_letters("kroegen", jokers=["eygr"])
    [move] = [m for m in best_words(pos, rulebook_lexicon, rules) if m.word == "kroegen"]
    assert move.jokers == 1 and move.multiplier == 2


def test_choice_cube_offers_three_letters_without_multiplier(rulebook_lexicon, rules):
    """"a cube just taken from a III square offers its 3 letters (chosen once)", no doubling."""
    pos = KubagramPosition.from_letters("kroeen", choices=["gxz"])
    [move] = [m for m in best_words(pos, rulebook_lexicon, rules) if m.word == "kroegen"]
    assert move.jokers == 0 and move.multiplier == 1


def test_compound_kroegen_plus_tocht(rulebook_lexicon, rules):
    """"Compound words (kroegen + tocht = kroegentocht) can be taken from any player: x2, bonus included"."""
    pos = KubagramPosition(table=(TableWord("kroegen", owner=1), TableWord("tocht", owner=2)))
    [move] = [m for m in compound_moves(pos, rulebook_lexicon, rules) if m.word == "kroegentocht"]
    base = rules.letter_sum("kroegentocht") + rules.length_bonus(12)
    assert move.parts == ("kroegen", "tocht") and move.score == 2 * base
    assert dict(move.lost) == {1: rules.word_score("kroegen"), 2: rules.word_score("tocht")}
    assert move.taken == rules.word_score("kroegen") + rules.word_score("tocht")


def test_compounding_a_compound_doubles_again(rulebook_lexicon, rules):
    """"kroegentocht + en -> kroegentochten: x4" (the player of the last cube may use "en")."""
    pos = KubagramPosition.from_letters("en", table=(TableWord("kroegentocht", owner=1, level=1),), last_cube=True)
    [move] = [m for m in compound_moves(pos, rulebook_lexicon, rules) if m.word == "kroegentochten"]
    assert move.parts == ("kroegentocht", "en") and move.level == 2
    assert move.score == 4 * (rules.letter_sum("kroegentochten") + rules.length_bonus(14))


def test_two_letter_words_only_for_last_cube(rulebook_lexicon, rules):
    """"The player of the last cube may form 2-letter words (en + kroegentocht -> kroegentochten)"."""
    table = (TableWord("kroegentocht", owner=1, level=1),)
    normal = KubagramPosition.from_letters("en", table=table, last_cube=False)
    last = KubagramPosition.from_letters("en", table=table, last_cube=True)
    assert not [m for m in compound_moves(normal, rulebook_lexicon, rules) if m.word == "kroegentochten"]
    assert "en" not in {m.word for m in best_words(normal, rulebook_lexicon, KubagramRules(min_length=3))}
    assert "en" in {m.word for m in best_words(last, rulebook_lexicon, rules)}


def test_compound_doubling_void_with_jokers(rulebook_lexicon, rules):
    """"not cumulated with jokers": a compound with j jokers in it is worth x2^j only."""
    table = (TableWord("kroegen", owner=1, jokers=1), TableWord("tocht", owner=2))
    [move] = [m for m in compound_moves(KubagramPosition(table=table), rulebook_lexicon, rules) if m.word == "kroegentocht"]
    base = rules.letter_sum("kroegentocht") + rules.length_bonus(12)
    assert move.jokers == 1 and move.score == 2 * base  # x2 from the joker, not x2 x2
    table2 = (TableWord("kroegen", owner=1, jokers=2), TableWord("tocht", owner=2, jokers=1))
    [move2] = [m for m in compound_moves(KubagramPosition(table=table2), rulebook_lexicon, rules) if m.word == "kroegentocht"]
    assert move2.score == 8 * base


def test_compound_field_word_skips_joker_when_doubling_pays_more(rulebook_lexicon, rules):
    """With no joker in the table parts, the mover may leave a joker out of the new part to keep x4."""
    table = (TableWord("kroegentocht", owner=1, level=1),)
    pos = KubagramPosition.from_letters("n", jokers=["eygr"], table=table, last_cube=True)
    [move] = [m for m in compound_moves(pos, rulebook_lexicon, rules) if m.word == "kroegentochten"]
    # with the joker: x2; without a joker there is no "e" to spell "en", so x2 is the only option
    assert move.jokers == 1 and move.score == 2 * (rules.letter_sum("kroegentochten") + rules.length_bonus(14))
    pos2 = KubagramPosition.from_letters("en", jokers=["eygr"], table=table, last_cube=True)
    [move2] = [m for m in compound_moves(pos2, rulebook_lexicon, rules) if m.word == "kroegentochten"]
    assert move2.jokers == 0 and move2.score == 4 * (rules.letter_sum("kroegentochten") + rules.length_bonus(14))


def test_compound_with_field_word_is_a_rule_setting(rulebook_lexicon):
    """Open rule made a setting: a new field word may join a compound in the same move (default on)."""
    table = (TableWord("tocht", owner=1),)
    pos = KubagramPosition.from_letters("kroegen", table=table)
    on = {m.word for m in compound_moves(pos, rulebook_lexicon, KubagramRules())}
    off = {m.word for m in compound_moves(pos, rulebook_lexicon, KubagramRules(compound_with_field_words=False))}
    assert "kroegentocht" in on and "kroegentocht" not in off


def test_rules_toml_round_trip_and_errors(tmp_path):
    rules = KubagramRules.from_toml("min_length = 4\ncompound_with_field_words = false\n[letter_values]\nq = 7\n")
    assert rules.min_length == 4 and rules.letter_values["q"] == 7 and not rules.compound_with_field_words
    assert KubagramRules.from_dict(rules.to_dict()) == rules
    path = tmp_path / "r.toml"
    path.write_text("[kubagram]\nmin_length = 6\n")
    assert KubagramRules.from_toml(path).min_length == 6
    with pytest.raises(RulesError, match="min_length"):
        KubagramRules(min_length=1)
    with pytest.raises(RulesError, match="unknown rule setting"):
        KubagramRules.from_toml("min_lenght = 4\n")
    with pytest.raises(RulesError, match="invalid TOML"):
        KubagramRules.from_toml("min_length = = 4\n")
    with pytest.raises(RulesError, match="outside the alphabet"):
        KubagramRules(jokers=("e1",))


def test_bad_positions_are_clear_errors(rulebook_lexicon, rules):
    solver = KubagramSolver(rulebook_lexicon, rules)
    with pytest.raises(PositionError, match="outside the alphabet"):
        solver.best_words(KubagramPosition.from_letters("ab1"))
    with pytest.raises(PositionError, match="top"):
        solver.best_words(KubagramPosition.from_letters("ab"), top=0)
    with pytest.raises(PositionError, match="jokers and choice cubes"):
        solver.best_words(KubagramPosition.from_letters("", choices=["ab"] * 13))
