"""Wrong types and odd values in the Scruble library API are kubasolve errors naming the value."""

from __future__ import annotations

import pytest

from kubasolve.errors import IllegalMoveError, LimitError, PositionError, StateError
from kubasolve.games.scruble.cube import NotationError
from kubasolve.games.scruble.game import ScrubleGame, Turn
from kubasolve.games.scruble.position import Cube
from kubasolve.games.scruble.rules import ScrubleRules
from kubasolve.games.scruble.solver import best_words
from kubasolve.lexicon import Lexicon

RULES = ScrubleRules()
CUBE = Cube.scrambled(RULES.pegs, 5)


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return Lexicon.from_words(["cat", "dog", "tea", "eat"], name="en-test")


@pytest.mark.parametrize("seed", ["x", -1, 1.5, None, True])
def test_bad_seeds_are_kubasolve_errors(seed: object) -> None:
    # raw TypeError/ValueError from numpy before
    with pytest.raises(PositionError, match="seed"):
        Cube.scrambled(RULES.pegs, seed)  # type: ignore[arg-type]
    with pytest.raises(StateError, match="seed"):
        ScrubleGame.new(2, seed=seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("twists", [5, None, [5], [None]])
def test_twisted_refuses_non_notation(twists: object) -> None:
    with pytest.raises(NotationError):
        CUBE.twisted(twists)  # type: ignore[arg-type]


def test_sharp_s_is_not_read_as_the_symbol_ss() -> None:
    with pytest.raises(NotationError, match="ß"):
        Cube.from_notation("ß" + CUBE.notation()[1:])


def test_a_one_string_turn_is_split_into_twists(lex: Lexicon) -> None:
    assert Turn("R U'").twists == ("R", "U'")  # not one twist per character (' ' was a bad twist before)
    a, b = ScrubleGame.new(2, seed=4), ScrubleGame.new(2, seed=4)
    a.play(Turn("R U'"), lex)
    b.play(Turn(("R", "U'")), lex)
    assert a.cube == b.cube


@pytest.mark.parametrize(
    "turn",
    [Turn(5), Turn(("R",), 5, (1, 2, 3)), Turn(("R",), "cat", "123"), {"twists": ["R"]}],  # type: ignore[arg-type]
)
def test_bad_turns_are_illegal_moves(lex: Lexicon, turn: object) -> None:
    game = ScrubleGame.new(2, seed=4)
    with pytest.raises(IllegalMoveError):
        game.play(turn, lex)  # type: ignore[arg-type]
    assert game.turn == 0


def test_best_words_refuses_wrong_types(lex: Lexicon) -> None:
    with pytest.raises(PositionError, match="cube must be"):
        best_words(5, lex, RULES, depth=1, top=3)  # type: ignore[arg-type]
    with pytest.raises(PositionError, match="rules must be"):
        best_words(CUBE, lex, "x", depth=1, top=3)  # type: ignore[arg-type]
    with pytest.raises(PositionError, match="lexicon must be"):
        best_words(CUBE, "en", RULES, depth=1, top=3)  # type: ignore[arg-type]
    with pytest.raises(LimitError, match="max_states"):
        best_words(CUBE, lex, RULES, depth=1, top=3, max_states="5")  # type: ignore[arg-type]
