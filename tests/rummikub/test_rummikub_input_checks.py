"""Wrong types and odd text in the Rummikub library API are PositionError/RulesError naming the value."""

from __future__ import annotations

import subprocess
import sys

import pytest

from kubasolve.errors import PositionError, RulesError
from kubasolve.games.rummikub import RummikubRules, parse_table, parse_tile, parse_tiles, solve

RULES = RummikubRules()


@pytest.mark.parametrize("token", [7, None, 1.5])
def test_parse_tile_refuses_a_non_string(token: object) -> None:
    with pytest.raises(PositionError, match="bad tile"):
        parse_tile(token, RULES)  # type: ignore[arg-type]


@pytest.mark.parametrize("token", ["r\u0667", "\u212a7", "r" + "9" * 5000, "r0007"])
def test_parse_tile_refuses_other_scripts_and_huge_numbers(token: str) -> None:
    # an Arabic-Indic 7, the Kelvin sign (lower-cased to k), 5000 digits (a raw ValueError before)
    with pytest.raises(PositionError, match="bad tile"):
        parse_tile(token, RULES)


def test_parse_tile_still_reads_upper_case_ascii() -> None:
    assert parse_tile("K13", RULES) == parse_tile("k13", RULES)
    assert parse_tile(" JOKER ", RULES) == RULES.joker


@pytest.mark.parametrize("bad", [None, 5])
def test_parse_tiles_and_table_refuse_non_sequences(bad: object) -> None:
    with pytest.raises(PositionError, match="tiles must be"):
        parse_tiles(bad, RULES)  # type: ignore[arg-type]
    with pytest.raises(PositionError, match="a table must be"):
        parse_table(bad, RULES)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("table", "rack"),
    [("r1 r2 r3", [3]), ([], "r4"), ([], None), ([], [1.5, 2, 3]), ([], [True, 1, 2]), ([[0, 1, "2"]], [3])],
)
def test_solve_refuses_text_floats_and_booleans_as_tile_codes(table: object, rack: object) -> None:
    with pytest.raises(PositionError):
        solve(table, rack, RULES)  # type: ignore[arg-type]


def test_solve_refuses_rules_of_the_wrong_type() -> None:
    with pytest.raises(PositionError, match="rules must be RummikubRules"):
        solve([], [0, 1, 2], "rbok")  # type: ignore[arg-type]


def test_colour_letters_must_be_ascii() -> None:
    with pytest.raises(RulesError, match="a-z"):
        RummikubRules(colour_letters="rbo\u00df")


def test_cli_huge_tile_number_is_a_domain_error() -> None:
    r = subprocess.run([sys.executable, "-m", "kubasolve", "rummikub", "solve", "r1 r2 r3", "--rack", "r" + "9" * 5000],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 1
    assert "Traceback" not in r.stderr and "bad tile" in r.stderr


@pytest.mark.parametrize("move", [{"type": "draw", "table": [["r1", "r2", "r3"]]}, {"type": "draw", "extra": 1},
                                  {"type": "play", "table": [["r1", "r2", "r3"]], "tiles": ["r1"]}])
def test_game_refuses_unknown_move_keys(move: dict) -> None:
    from kubasolve.games.rummikub import RummikubGame

    game = RummikubGame.new(2, seed=1)
    before = game.to_dict()
    with pytest.raises(PositionError, match="unknown key"):
        game.apply(move)  # a draw with a "table" drew silently before
    assert game.to_dict() == before
