"""Tests of Kubagram setup from a seed: placement, orientation, start player, board turn, draw order, JSON."""

from __future__ import annotations

import copy
import itertools
import json
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubasolve.errors import RulesError
from kubasolve.games.kubagram.equipment import (
    ROTATIONS,
    BoardLayout,
    CubeSet,
    Square,
    rotate_position,
)
from kubasolve.games.kubagram.setup import (
    CORNER_ROTATION,
    Setup,
    deal,
    draw_order,
    placed_letters,
)

DEFAULT_SET = CubeSet.default_nl()
DEFAULT_BOARD = BoardLayout.default()
seeds = st.integers(min_value=0, max_value=2**63 - 1)  # every game's seed range (kubasolve.games.limits.MAX_SEED)


def tie_prone_set(n: int = 6) -> CubeSet:
    """Every cube is 'abc': two players tie with probability 1/3 per round."""
    return CubeSet.from_letters(["abc"] * n)


# ----------------------------------------------------------------------------------------------------- draw order


def test_draw_order_small_board() -> None:
    """Rule: "Draw order: bottom-left first, left to right along the row, then the row above"."""
    assert draw_order(BoardLayout.uniform(2, 3)) == [(1, 0), (1, 1), (1, 2), (0, 0), (0, 1), (0, 2)]


@settings(max_examples=50, deadline=None)
@given(rows=st.integers(1, 15), cols=st.integers(1, 15))
def test_draw_order_any_board(rows: int, cols: int) -> None:
    """Rule: "Draw order: bottom-left first, left to right along the row, then the row above" (row 0 = top)."""
    order = draw_order(BoardLayout.uniform(rows, cols))
    assert order[0] == (rows - 1, 0)
    assert order[-1] == (0, cols - 1)
    assert sorted(order) == [(r, c) for r in range(rows) for c in range(cols)]
    for (r1, c1), (r2, c2) in itertools.pairwise(order):
        assert (r2, c2) == (r1, c1 + 1) or (c1 == cols - 1 and (r2, c2) == (r1 - 1, 0))


def test_setup_draw_order_is_on_the_turned_board() -> None:
    """Rule: the draw order applies to the board as it lies after the last player turned it."""
    s = deal(3, rotation=90)
    assert (s.rows, s.cols) == (12, 9)
    assert list(s.draw_order) == draw_order(s)
    assert s.start_cube == s.at(11, 0)
    assert [p.top for p in s.in_draw_order()] == placed_letters(s)
    assert s.in_draw_order()[9] == s.at(10, 0)  # the row above after 9 cubes


# ------------------------------------------------------------------------------------------ placement/orientation


@settings(max_examples=20, deadline=None)
@given(seed=seeds, n_players=st.integers(1, 6))
def test_placement_puts_every_cube_on_one_square(seed: int, n_players: int) -> None:
    """Rule: "Setup from a seed: random placement and orientation": each cube on exactly one square, a real top."""
    s = deal(seed, DEFAULT_SET, DEFAULT_BOARD, n_players)
    assert len(s.squares) == 108
    assert sorted(p.cube_index for p in s.squares) == list(range(108))
    for k, p in enumerate(s.squares):
        assert (p.row, p.col) == divmod(k, s.cols)
        assert p.cube == DEFAULT_SET[p.cube_index]
        assert p.top in p.cube.top_letters
    assert Counter(p.marking for p in s.squares) == Counter(DEFAULT_BOARD.markings)


def test_markings_turn_with_the_board() -> None:
    """Rule: "the last player turns the board": the printed markings move with the board."""
    layout = BoardLayout.from_rows(["I I III I", "0 I I I", "I I I I"])  # 3 x 4, asymmetric
    cs = CubeSet.from_letters(["abc"] * 12)
    for deg in ROTATIONS:
        s = deal(5, cs, layout, 2, rotation=deg)
        assert s.layout == layout.rotated(deg)
        for r in range(3):
            for c in range(4):
                nr, nc = rotate_position(r, c, 3, 4, deg)
                assert s.at(nr, nc).marking == layout[r, c]


def test_placement_and_orientation_are_random() -> None:
    """Rule: "random placement and orientation": over seeds a cube visits many squares and shows all its letters."""
    squares: set[tuple[int, int]] = set()
    tops: Counter[str] = Counter()
    for seed in range(150):
        s = deal(seed, rotation=0)
        p = next(p for p in s.squares if p.cube_index == 0)
        squares.add((p.row, p.col))
        tops[p.top] += 1
    assert len(squares) > 60
    assert set(tops) == set(DEFAULT_SET[0].letters)
    assert min(tops.values()) >= 25  # about 50 each if uniform


def test_same_seed_same_setup_different_seed_different_setup() -> None:
    """Rule: "Setup from a seed": the seed fixes the whole deal (determinism)."""
    a, b = deal(1234, n_players=3), deal(1234, n_players=3)
    assert a == b and a.to_dict() == b.to_dict()
    others = {tuple(placed_letters(deal(s, n_players=3))) for s in range(10)}
    assert len(others) == 10
    assert deal("kubagram", n_players=3) == deal("kubagram", n_players=3)


def test_none_seed_is_recorded_and_replays() -> None:
    """A deal without a seed records the OS-drawn seed, so it can be replayed."""
    s = deal(None)
    assert isinstance(s.seed, int)
    assert deal(s.seed) == s


def test_fixed_rotation_does_not_change_the_rest_of_the_deal() -> None:
    """The board turn is the last use of the RNG: giving it explicitly leaves placement and start player alone."""
    auto = deal(77)
    fixed = deal(77, rotation=auto.rotation)
    assert fixed == auto


# ----------------------------------------------------------------------------------------------------- start player


def check_start_draws(s: Setup, cube_set: CubeSet) -> None:
    """The recorded draws follow the tie rule and the start player is the winner of the last round."""
    rounds: dict[int, list] = {}
    for d in s.start_draws:
        rounds.setdefault(d.round, []).append(d)
    assert sorted(rounds) == list(range(len(rounds)))
    contenders = list(range(s.n_players))
    for rnd in range(len(rounds)):
        draws = rounds[rnd]
        assert [d.player for d in draws] == contenders
        assert len({d.cube_index for d in draws}) == len(draws)  # each draws a different cube
        for d in draws:
            assert d.letter in cube_set[d.cube_index].top_letters
        best = min(cube_set.letter_rank(d.letter) for d in draws)
        contenders = [d.player for d in draws if cube_set.letter_rank(d.letter) == best]
    assert contenders == [s.start_player]
    assert s.turning_player == (s.start_player - 1) % s.n_players


@settings(max_examples=30, deadline=None)
@given(seed=seeds, n_players=st.integers(1, 8))
def test_start_player_is_the_letter_closest_to_a(seed: int, n_players: int) -> None:
    """Rule: "start player by the drawn letter closest to A (ties draw again)"."""
    s = deal(seed, n_players=n_players)
    check_start_draws(s, DEFAULT_SET)
    if n_players == 1:
        assert s.start_player == 0 and len(s.start_draws) == 1


@settings(max_examples=30, deadline=None)
@given(seed=seeds, n_players=st.integers(2, 5))
def test_ties_draw_again_among_the_tied_only(seed: int, n_players: int) -> None:
    """Rule: "start player by the drawn letter closest to A (ties draw again)": with all-'abc' cubes ties are common."""
    cs = tie_prone_set(10)
    s = deal(seed, cs, BoardLayout.uniform(2, 5), n_players)
    check_start_draws(s, cs)
    assert deal(seed, cs, BoardLayout.uniform(2, 5), n_players).start_draws == s.start_draws


def test_a_tie_really_happens_and_is_resolved() -> None:
    """Rule: "ties draw again": find seeds with ties; only the tied players draw in round 1."""
    cs, layout = tie_prone_set(6), BoardLayout.uniform(2, 3)
    tied = [s for s in (deal(seed, cs, layout, 3) for seed in range(60)) if len({d.round for d in s.start_draws}) > 1]
    assert len(tied) >= 10
    for s in tied:
        first = [d for d in s.start_draws if d.round == 0]
        low = min(d.letter for d in first)
        again = [d.player for d in s.start_draws if d.round == 1]
        assert again == [d.player for d in first if d.letter == low]
        assert 2 <= len(again) <= 3


def test_start_player_varies_with_seed() -> None:
    """The start player is not fixed: over seeds every player starts sometimes."""
    starts = Counter(deal(seed, n_players=4, rotation=0).start_player for seed in range(80))
    assert set(starts) == {0, 1, 2, 3}


# ----------------------------------------------------------------------------------------------------- board turn


@pytest.mark.parametrize("corner", list(CORNER_ROTATION))
def test_last_player_chooses_the_start_cube_by_turning(corner: str) -> None:
    """Rule: "the last player turns the board, choosing the start cube": the chosen corner becomes bottom-left."""
    plain = deal(99, rotation=0)
    turned = deal(99, rotation=corner)
    r_last, c_last = plain.rows - 1, plain.cols - 1
    where = {"bottom-left": (r_last, 0), "bottom-right": (r_last, c_last), "top-right": (0, c_last),
             "top-left": (0, 0)}[corner]
    chosen = plain.at(*where)
    assert turned.start_cube.cube_index == chosen.cube_index
    assert turned.start_cube.top == chosen.top
    assert turned.rotation == CORNER_ROTATION[corner]
    assert turned.start_player == plain.start_player


def test_rotation_callback_sees_the_unturned_board_and_the_turning_player() -> None:
    """Rule: "the last player turns the board, choosing the start cube" (a callback plays the last player)."""
    seen: list[Setup] = []

    def last_player(preview: Setup) -> str:
        seen.append(preview)
        # pick the corner whose cube shows the letter closest to A
        corners = {"bottom-left": (preview.rows - 1, 0), "bottom-right": (preview.rows - 1, preview.cols - 1),
                   "top-right": (0, preview.cols - 1), "top-left": (0, 0)}
        return min(corners, key=lambda k: (preview.at(*corners[k]).top, k))

    s = deal(2024, n_players=3, rotation=last_player)
    (preview,) = seen
    assert preview.rotation == 0 and (preview.rows, preview.cols) == (9, 12)
    assert preview.start_player == s.start_player and preview.turning_player == s.turning_player
    corner_tops = [preview.at(r, c).top for r, c in ((8, 0), (8, 11), (0, 11), (0, 0))]
    assert s.start_cube.top == min(corner_tops)
    assert s.rotation == CORNER_ROTATION[last_player(preview)]


def test_default_turn_is_a_seeded_random_choice() -> None:
    """Without a choice the turn is random but fixed by the seed; all four turns occur."""
    assert Counter(deal(seed).rotation for seed in range(40)).keys() == set(ROTATIONS)
    assert deal(8).rotation == deal(8).rotation


@pytest.mark.parametrize("bad", [45, -90, 360, "left", True, 90.0])
def test_bad_rotation_is_a_rules_error(bad: object) -> None:
    """A turn other than 0/90/180/270 degrees or a known corner is refused clearly."""
    with pytest.raises(RulesError, match=r"board turn|unknown corner"):
        deal(1, rotation=bad)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="rotation callback"):
        deal(1, rotation=lambda preview: bad)  # type: ignore[arg-type,return-value]


# ----------------------------------------------------------------------------------------------------- validation


def test_cube_count_must_match_board() -> None:
    """Rule: "Board size configurable (rows x cols must equal number of cubes)"."""
    with pytest.raises(RulesError, match=re.escape("108 cubes but the board has 100 squares (10 x 10)")):
        deal(1, DEFAULT_SET, BoardLayout.uniform(10, 10))
    s = deal(1, DEFAULT_SET, BoardLayout.uniform(4, 27))
    assert (s.rows, s.cols) in {(4, 27), (27, 4)}
    small = CubeSet.from_letters(["abc", "def", "ghi", "jkl"], ["pltole", "eygr"])
    s = deal(5, small, BoardLayout.from_rows(["I III 0", "0 I I"]), rotation=180)
    assert (s.rows, s.cols) == (2, 3) and len(s.squares) == 6


@pytest.mark.parametrize("n_players", [0, -1, 109, True, 2.0])
def test_bad_player_count(n_players: object) -> None:
    """Every player must be able to draw a cube: 1 <= n_players <= number of cubes."""
    with pytest.raises(RulesError, match="n_players must be an integer from 1 to 108"):
        deal(1, n_players=n_players)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", [1.5, b"x", [1], True])
def test_bad_seed(seed: object) -> None:
    """Seeds must be JSON-able ints (0..2**63-1, as every game) or strings so a deal can be stored and replayed."""
    with pytest.raises(RulesError, match="seed must be a whole number from 0 to"):
        deal(seed)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------------------------------ JSON


@settings(max_examples=25, deadline=None)
@given(seed=st.one_of(seeds, st.text(max_size=8)), n_players=st.integers(1, 6),
       rotation=st.one_of(st.none(), st.sampled_from(ROTATIONS), st.sampled_from(list(CORNER_ROTATION))))
def test_json_round_trip(seed: int | str, n_players: int, rotation: int | str | None) -> None:
    """Rule: Setup "serialises to/from a JSON-able dict exactly (round trip)"."""
    s = deal(seed, n_players=n_players, rotation=rotation)
    d = s.to_dict()
    text = json.dumps(d)
    back = Setup.from_dict(json.loads(text))
    assert back == s
    assert back.to_dict() == d
    assert json.dumps(back.to_dict()) == text


def test_to_dict_content() -> None:
    """The dict names the cube, its letters, the top letter and the marking of each square."""
    s = deal(11, rotation=0)
    d = s.to_dict()
    assert d["format"] == "kubasolve.kubagram.setup/1"
    sq = d["squares"][0]
    assert set(sq) == {"row", "col", "cube", "letters", "joker", "top", "marking"}
    assert sq["marking"] == DEFAULT_BOARD[0, 0].value
    assert sq["letters"] == DEFAULT_SET[sq["cube"]].letters
    assert d["draw_order"][0] == [8, 0]


def _tamper(path: tuple, value: object) -> dict:
    d = copy.deepcopy(deal(3, rotation=0).to_dict())
    target = d
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return d


@pytest.mark.parametrize(
    ("path", "value", "message"),
    [
        (("format",), "other/1", "not a kubagram setup"),
        (("squares", 0, "top"), "!", "is not on cube"),
        (("squares", 0, "marking"), "II", "unknown square marking"),
        (("squares", 1, "cube"), 0, "every cube index 0..n-1 exactly once"),
        (("squares", 1, "row"), 5, "must be at (0, 1)"),
        (("draw_order", 0), [0, 0], "bottom-left first"),
        (("rotation",), 45, "rotation must be one of"),
        (("start_player",), 2, "not one of the 2 players"),
        (("rows",), 3, "list of 36 squares for a 3 x 12 board"),
        (("start_draws", 0), [0, 0, 1], "is not [round, player, cube, letter]"),
        (("seed",), 1.5, "seed must be an int or a string"),
    ],
)
def test_from_dict_rejects_inconsistent_data(path: tuple, value: object, message: str) -> None:
    """A stored setup that breaks the rules is refused with a clear RulesError."""
    with pytest.raises(RulesError, match=re.escape(message)):
        Setup.from_dict(_tamper(path, value))


def test_from_dict_missing_key() -> None:
    """A setup dict missing a key is a RulesError that names it."""
    d = deal(3).to_dict()
    del d["squares"]
    with pytest.raises(RulesError, match="missing \\['squares'\\]"):
        Setup.from_dict(d)


def test_square_markings_in_setup_are_squares() -> None:
    """Each placed cube carries a Square marking of the board."""
    s = deal(6)
    assert {p.marking for p in s.squares} == {Square.I, Square.III, Square.ZERO}
