"""Rule variants as data, tile text, and what a legal set is (each rulebook rule quoted)."""

from __future__ import annotations

import pytest

from kubasolve.errors import PositionError, RulesError
from kubasolve.games.rummikub import (
    RummikubRules,
    arrange_set,
    format_table,
    parse_table,
    parse_tiles,
    set_problem,
    set_value,
)
from kubasolve.games.rummikub.tiles import full_box

R = RummikubRules()


def tiles(text: str) -> tuple[int, ...]:
    return tuple(parse_tiles(text, R))


def test_box_has_106_tiles_and_14_are_dealt() -> None:
    """Rule: "106 tiles: numbers 1-13 in 4 colours, each twice, plus 2 jokers. 14 tiles dealt each"."""
    box = full_box(R)
    assert len(box) == R.total_tiles == 106
    assert box.count(R.joker) == 2 and len(set(box)) == 53
    assert R.tiles_dealt == 14


def test_variants_are_validated_with_clear_errors() -> None:
    """Rule: "Variants as settings (numbers, colours, copies, jokers, min first meld), validated with clear errors"."""
    with pytest.raises(RulesError, match=r"numbers must be 1\.\.26"):
        RummikubRules(numbers=0)
    with pytest.raises(RulesError, match="colour_letters"):
        RummikubRules(colours=3)
    with pytest.raises(RulesError, match=r"jokers must be 0\.\.4"):
        RummikubRules(jokers=9)
    with pytest.raises(RulesError, match="min_first_meld"):
        RummikubRules(min_first_meld=-1)
    with pytest.raises(RulesError, match="unknown Rummikub rule setting"):
        RummikubRules.from_dict({"jokerz": 1})
    with pytest.raises(RulesError, match="must be int"):
        RummikubRules(copies="2")  # type: ignore[arg-type]
    small = RummikubRules.from_dict({"colours": 3, "numbers": 9, "copies": 1, "jokers": 0, "min_first_meld": 20})
    assert small.colour_letters == "rbo" and small.total_tiles == 27


def test_rules_load_from_toml(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "variant.toml"
    path.write_text("[rummikub]\nnumbers = 10\njokers = 1\nmin_first_meld = 25\n")
    rules = RummikubRules.from_toml(path)
    assert (rules.numbers, rules.jokers, rules.min_first_meld) == (10, 1, 25)
    bad = tmp_path / "bad.toml"
    bad.write_text("numbers = [")
    with pytest.raises(RulesError, match="invalid TOML"):
        RummikubRules.from_toml(bad)
    with pytest.raises(RulesError, match="cannot read"):
        RummikubRules.from_toml(tmp_path / "missing.toml")


def test_tile_text_round_trips_and_bad_tiles_are_explained() -> None:
    table = parse_table("r1 r2 r3 | b10 o10 k10 J", R)
    assert format_table(table, R) == "r1 r2 r3 | b10 o10 k10 J"
    assert parse_tiles("R1, k13 *", R) == [0, 3 * 13 + 12, R.joker]
    with pytest.raises(PositionError, match="unknown colour"):
        parse_tiles("x1", R)
    with pytest.raises(PositionError, match="1 to 13"):
        parse_tiles("r14", R)
    with pytest.raises(PositionError, match="colour letter"):
        parse_tiles("12", R)


def test_sets_have_at_least_three_tiles() -> None:
    """Rule: "Sets of >= 3"."""
    assert set_problem(tiles("r1 r2"), R) is not None
    assert set_problem(tiles("r1 b1"), R) is not None
    assert set_problem(tiles("r1 r2 r3"), R) is None


def test_runs_are_consecutive_numbers_of_one_colour() -> None:
    """Rule: "runs (consecutive numbers, one colour; ...)"."""
    assert set_problem(tiles("b4 b5 b6 b7"), R) is None
    assert set_problem(tiles("b4 b5 b7"), R) is not None
    assert set_problem(tiles("b4 r5 b6"), R) is not None
    assert set_problem(tiles("b4 b4 b5"), R) is not None


def test_one_is_only_the_lowest_no_wrap_around() -> None:
    """Rule: "1 is only the lowest, no 12-13-1"."""
    assert set_problem(tiles("r12 r13 r1"), R) is not None
    assert set_problem(tiles("r1 r2 r3"), R) is None
    assert set_problem(tiles("r12 r13 J"), R) is None  # the joker is the 11
    assert arrange_set(tiles("r12 r13 J"), R) == tiles("J r12 r13")
    assert set_problem(tiles("r13 r1 J"), R) is not None  # 13-1-2 would wrap around
    assert set_problem(tiles("r11 r12 r13 J J"), R) is None  # the jokers are the 9 and 10


def test_groups_are_one_number_in_distinct_colours_at_most_four() -> None:
    """Rule: "groups (one number, distinct colours, at most 4)"."""
    assert set_problem(tiles("r7 b7 o7 k7"), R) is None
    assert set_problem(tiles("r7 b7 b7"), R) is not None
    assert set_problem(tiles("r7 b7 o7 k7 J"), R) is not None
    assert set_problem(tiles("r7 b7 J"), R) is None


def test_set_value_counts_the_joker_as_the_tile_it_stands_for() -> None:
    assert set_value(tiles("r10 r11 r12"), R) == 33
    assert set_value(tiles("r12 r13 J"), R) == 36
    assert set_value(tiles("r7 b7 J"), R) == 21  # a group: the joker is a 7
    assert set_value(tiles("r7 J J"), R) == 7 + 8 + 9  # best reading: the run 7-8-9 beats the group (21)
    assert set_value(tiles("J J"), R) == 0


def test_joker_retrieval_setting_is_strict_by_default_and_checked() -> None:
    assert RummikubRules().joker_retrieval == "strict"
    assert RummikubRules.from_dict({"joker_retrieval": "free"}).joker_retrieval == "free"
    with pytest.raises(RulesError, match="joker_retrieval must be one of strict, free"):
        RummikubRules(joker_retrieval="loose")
