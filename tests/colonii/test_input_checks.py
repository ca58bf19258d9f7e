"""Wrong types and out-of-range values in the Word colonies library API are PositionError naming the value."""

from __future__ import annotations

import pytest

from kubasolve.errors import PositionError
from kubasolve.games.colonii.movegen import all_moves, best_turn, solver_for
from kubasolve.games.colonii.rules import ColoniiRules
from kubasolve.games.colonii.table import ColoniiPosition, Group
from tests.colonii.helpers import small_lexicon

R = ColoniiRules()


@pytest.fixture(scope="module")
def lex():
    return small_lexicon()


@pytest.mark.parametrize(
    "position",
    [
        ColoniiPosition((Group(("cal",), "1", 4),), "abc", 0, 2),        # owner as text: raw TypeError before
        ColoniiPosition((Group(("cal",), 1, 10**30),), "abc", 0, 2),     # stake far out of range: accepted before
        ColoniiPosition((Group(("cal",), 1, 4.5),), "abc", 0, 2),        # stake a float: accepted before
        ColoniiPosition((Group(("cal",), 1, -4),), "abc", 0, 2),         # negative stake: accepted before
        ColoniiPosition((Group((1,), 1, 4),), "abc", 0, 2),              # a word as a number: raw TypeError
        ColoniiPosition((Group(("cal",), 1, 4, "no"),), "abc", 0, 2),    # protected as text: accepted before
        ColoniiPosition((), ["a", "b"], 0, 2),                           # a list hand: accepted before
        ColoniiPosition((), 5, 0, 2),                                    # raw TypeError before
        ColoniiPosition((), "abc", "0", 2),                              # raw TypeError before
        ColoniiPosition((), "abc", True, 2),                             # a boolean mover: accepted before
        ColoniiPosition((), "abc", 0, 2.0),                              # raw TypeError before
        ColoniiPosition("cal", "abc", 0, 2),                             # raw AttributeError before
        ColoniiPosition((("cal", 1, 4),), "abc", 0, 2),                  # raw AttributeError before
    ],
)
def test_bad_positions_are_position_errors(lex, position: ColoniiPosition) -> None:
    with pytest.raises(PositionError):
        all_moves(position, lex, R)
    with pytest.raises(PositionError):
        best_turn(position, lex, R)


def test_a_one_string_group_is_one_word_not_its_letters() -> None:
    assert Group("cal", 1, 4).words == ("cal",)
    assert Group("şarţ", 1, 4).words == ("șarț",)  # cedilla to comma, as a tuple of words does


@pytest.mark.parametrize("objective", [["gain"], "foo", None])
def test_bad_objective(lex, objective: object) -> None:
    pos = ColoniiPosition((), "abc", 0, 2)
    with pytest.raises(PositionError, match="objective"):
        all_moves(pos, lex, R, objective)  # type: ignore[arg-type]
    with pytest.raises(PositionError, match="objective"):
        best_turn(pos, lex, R, objective)  # type: ignore[arg-type]


def test_bad_arguments(lex) -> None:
    pos = ColoniiPosition((), "abc", 0, 2)
    with pytest.raises(PositionError, match="position must be"):
        all_moves("abc", lex, R)  # type: ignore[arg-type]
    with pytest.raises(PositionError, match="top must be"):
        all_moves(pos, lex, R, "gain", "3")  # type: ignore[arg-type]
    with pytest.raises(PositionError, match="lexicon must be"):
        solver_for("ro", R)  # type: ignore[arg-type]
    with pytest.raises(PositionError, match="rules must be"):
        solver_for(lex, "x")  # type: ignore[arg-type]
    with pytest.raises(PositionError, match="stake"):
        Group.from_dict({"words": ["cal"], "owner": 1, "stake": 10**30})
