"""The exact solver against a slow, obviously-correct brute force (hypothesis), DP against the integer
programme, and the rulebook rules about plays: table tiles stay, jokers, the first meld."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubasolve.errors import PositionError
from kubasolve.games.rummikub import (
    Objective,
    RummikubRules,
    check_play,
    is_valid_set,
    parse_table,
    parse_tiles,
    set_value,
    solve,
)
from kubasolve.games.rummikub.instances import random_instance
from kubasolve.games.rummikub.solver import _Direction, joker_retrieval_problem, objective_weights
from kubasolve.games.rummikub.tiles import full_box

SMALL = RummikubRules(numbers=6, colours=3, copies=2, jokers=1, min_first_meld=10, colour_letters="rbo")
DEFAULT = RummikubRules()


# --- brute-force reference ---------------------------------------------------------------------------
def _partitions(tiles: tuple[int, ...], rules: RummikubRules) -> list[list[tuple[int, ...]]]:
    """Every way to split the multiset ``tiles`` into legal sets (the smallest tile always goes first)."""

    @cache
    def go(rest: tuple[int, ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
        if not rest:
            return ((),)
        first, others = rest[0], rest[1:]
        out = []
        seen = set()
        for size in range(rules.min_set_size - 1, len(others) + 1):
            for combo in itertools.combinations(range(len(others)), size):
                s = (first,) + tuple(others[i] for i in combo)
                key = tuple(sorted(s))
                if key in seen or not is_valid_set(key, rules):
                    continue
                seen.add(key)
                left = list(others)
                for i in sorted(combo, reverse=True):
                    del left[i]
                for tail in go(tuple(left)):
                    out.append((key,) + tail)
        return tuple(out)

    return [list(p) for p in go(tuple(sorted(tiles)))]


def brute_force(table, rack, rules, objective, first_meld=False):  # type: ignore[no-untyped-def]
    """(best primary value, fewest jokers for it) by trying every sub-multiset of the rack."""
    weights = objective_weights(objective, rules)
    base = [] if first_meld else [t for s in table for t in s]
    best = (0, 0)
    rack_counter = Counter(rack)
    kinds = sorted(rack_counter)
    for counts in itertools.product(*[range(rack_counter[k] + 1) for k in kinds]):
        played = [k for k, c in zip(kinds, counts, strict=True) for _ in range(c)]
        if not played:
            continue
        value = sum(int(weights[t]) for t in played)
        jokers = played.count(rules.joker)
        if (value, -jokers) <= (best[0], -best[1]) or value <= 0:
            continue
        parts = _partitions(tuple(base + played), rules)
        if first_meld:
            ok = any(sum(set_value(s, rules) for s in p) >= rules.min_first_meld for p in parts)
        elif rules.joker_retrieval == "strict":
            ok = any(joker_retrieval_problem(table, p, rules) is None for p in parts)
        else:
            ok = bool(parts)
        if ok:
            best = (value, jokers)
    return best


@st.composite
def small_positions(draw, rules=SMALL, max_table_sets=2, max_rack=5):  # type: ignore[no-untyped-def]
    """A legal table of a few random sets and a small rack, from one box."""
    from kubasolve.games.rummikub.sets import candidate_sets

    box = Counter(full_box(rules))
    sets = candidate_sets(rules).sets
    table = []
    for _ in range(draw(st.integers(0, max_table_sets))):
        s = sets[draw(st.integers(0, len(sets) - 1))]
        if all(box[t] >= c for t, c in Counter(s).items()):
            box.subtract(Counter(s))
            table.append(s)
    left = sorted(box.elements())
    if not left:
        return table, []
    idx = draw(st.lists(st.integers(0, len(left) - 1), min_size=1, max_size=max_rack, unique=True))
    rack = [left[i] for i in idx]
    return table, rack


def _check(table, rack, rules, objective, first_meld, method):  # type: ignore[no-untyped-def]
    sol = solve(table, rack, rules, objective, first_meld=first_meld, method=method)
    expected = brute_force(table, rack, rules, objective, first_meld)
    assert (sol.value, sol.jokers_played if sol.found else 0) == expected
    if sol.found:
        assert check_play(table, rack, sol.table, rules) == []
        played = Counter(t for s in sol.table for t in s) - Counter(t for s in table for t in s)
        assert sorted(played.elements()) == list(sol.played)
        if first_meld:
            assert Counter(sol.table) - Counter(table) and all(s in sol.table for s in table)
            assert sum(set_value(s, rules) for s in sol.table[len(table) :]) >= rules.min_first_meld


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(pos=small_positions(), objective=st.sampled_from(list(Objective)), method=st.sampled_from(["dp", "ilp"]))
def test_solver_matches_brute_force(pos, objective, method) -> None:  # type: ignore[no-untyped-def]
    table, rack = pos
    _check(table, rack, SMALL, objective, False, method)


@SETTINGS
@given(
    pos=small_positions(max_rack=6), objective=st.sampled_from(list(Objective)), method=st.sampled_from(["dp", "ilp"])
)
def test_first_meld_matches_brute_force(pos, objective, method) -> None:  # type: ignore[no-untyped-def]
    table, rack = pos
    _check(table, rack, SMALL, objective, True, method)


TWO_JOKERS = RummikubRules(numbers=5, colours=3, copies=1, jokers=2, min_first_meld=8, colour_letters="rbo")


@SETTINGS
@given(pos=small_positions(rules=TWO_JOKERS, max_table_sets=2, max_rack=5), method=st.sampled_from(["dp", "ilp"]))
def test_two_jokers_one_copy_matches_brute_force(pos, method) -> None:  # type: ignore[no-untyped-def]
    """One copy per tile and two jokers: runs can overlap only through jokers (the DP's slot bound)."""
    table, rack = pos
    _check(table, rack, TWO_JOKERS, Objective.TILE_COUNT, False, method)


@pytest.mark.parametrize("seed", range(8))
def test_dp_and_integer_programme_agree_on_full_size_positions(seed: int) -> None:
    inst = random_instance(seed)
    for objective in Objective:
        for first_meld in (False, True):
            a = solve(inst.table, inst.rack, DEFAULT, objective, first_meld=first_meld, method="dp")
            b = solve(inst.table, inst.rack, DEFAULT, objective, first_meld=first_meld, method="ilp")
            assert (a.value, a.jokers_played) == (b.value, b.jokers_played)
            for s in (a, b):
                assert check_play(inst.table, inst.rack, s.table, DEFAULT) == []


def test_fewest_changes_tie_break_keeps_more_table_sets() -> None:
    for seed in range(6):
        inst = random_instance(seed)
        plain = solve(inst.table, inst.rack, DEFAULT, "tiles", method="ilp")
        tidy = solve(inst.table, inst.rack, DEFAULT, "tiles", minimise_changes=True)
        assert tidy.value == plain.value
        assert tidy.changed_sets <= plain.changed_sets
        assert check_play(inst.table, inst.rack, tidy.table, DEFAULT) == []


def test_fewest_changes_example() -> None:
    # only b4 can be played, next to b1 b2 b3; the other sets must stay as they are
    table = parse_table("b1 b2 b3 | r5 r6 r7 | r5 b5 o5", DEFAULT)
    rack = parse_tiles("b4 k11", DEFAULT)
    sol = solve(table, rack, DEFAULT, "tiles", minimise_changes=True)
    assert sol.value == 1 and sol.changed_sets == 1 and sol.kept_sets == 2


def test_table_tiles_never_go_back_to_the_rack() -> None:
    """Rule: "After rearranging, every set on the table is valid at the end of the turn; no table tile may go back to a rack"."""
    table = parse_table("r1 r2 r3 r4", DEFAULT)
    rack = parse_tiles("b9", DEFAULT)
    sol = solve(table, rack, DEFAULT)
    assert not sol.found and sol.table == tuple(tuple(s) for s in table)


def test_joker_is_taken_by_replacing_it_and_played_again() -> None:
    """Rule: "A joker on the table may be taken by replacing it with the tile it stands for, and must be played again the same turn"."""
    table = parse_table("r5 J r7", DEFAULT)
    rack = parse_tiles("r6 b9 b10", DEFAULT)
    sol = solve(table, rack, DEFAULT, "tiles")
    assert sol.value == 3
    assert sorted(map(sorted, sol.table)) == sorted(map(sorted, parse_table("r5 r6 r7 | b9 b10 J", DEFAULT)))


def test_first_meld_uses_own_tiles_only_and_reaches_30() -> None:
    """Rule: "The first meld of a player is worth >= 30 points from their own tiles only, without table tiles"."""
    table = parse_table("r1 r2 r3", DEFAULT)
    low = solve(table, parse_tiles("r4 b1 b2 b3 o1 o2 o3", DEFAULT), DEFAULT, first_meld=True)
    assert not low.found  # 6 + 6 = 12 points, and r4 may not join the table's run yet
    high = solve(table, parse_tiles("r4 b10 b11 b12", DEFAULT), DEFAULT, first_meld=True)
    assert high.found and high.played == tuple(parse_tiles("b10 b11 b12", DEFAULT))
    assert high.table[0] == tuple(parse_tiles("r1 r2 r3", DEFAULT))


def test_objectives_differ_as_documented() -> None:
    table = parse_table("r1 r2 r3 | b10 o10 k10", DEFAULT)
    rack = parse_tiles("r4 J b11 b12 r10", DEFAULT)
    assert solve(table, rack, DEFAULT, "tiles").value == 5
    assert solve(table, rack, DEFAULT, "value").value == 4 + 11 + 12 + 10
    keep = solve(table, rack, DEFAULT, "keep-jokers")
    assert keep.value == 4 and keep.jokers_played == 0
    assert solve(table, rack, DEFAULT, "penalty").value == 4 + 11 + 12 + 10 + 30


def test_bad_positions_are_rejected_with_reasons() -> None:
    with pytest.raises(PositionError, match="not legal"):
        solve(parse_table("r1 r2 r4", DEFAULT), parse_tiles("r3", DEFAULT), DEFAULT)
    with pytest.raises(PositionError, match="only 2"):
        solve(parse_table("r1 r2 r3", DEFAULT), parse_tiles("r1 r1", DEFAULT), DEFAULT)
    with pytest.raises(PositionError, match="unknown objective"):
        solve([], parse_tiles("r1", DEFAULT), DEFAULT, "most-fun")


ONE_COLOUR = RummikubRules(numbers=5, colours=1, copies=1, jokers=2, colour_letters="r")


def test_jokers_can_make_runs_overlap_beyond_the_copies() -> None:
    # r1..r5 plus two jokers, one colour: only [r1 r2 r3 J] + [J r4 r5] (overlapping runs) places both
    table = parse_table("r1 r2 r3 r4 r5", ONE_COLOUR)
    for method in ("dp", "ilp"):
        sol = solve(table, parse_tiles("J J", ONE_COLOUR), ONE_COLOUR, "tiles", method=method)
        assert sol.value == 2 and check_play(table, parse_tiles("J J", ONE_COLOUR), sol.table, ONE_COLOUR) == []
        assert brute_force(table, parse_tiles("J J", ONE_COLOUR), ONE_COLOUR, Objective.TILE_COUNT) == (2, 2)


@SETTINGS
@given(pos=small_positions(rules=ONE_COLOUR, max_table_sets=2, max_rack=4), method=st.sampled_from(["dp", "ilp"]))
def test_one_colour_runs_only_matches_brute_force(pos, method) -> None:  # type: ignore[no-untyped-def]
    table, rack = pos
    _check(table, rack, ONE_COLOUR, Objective.TILE_COUNT, False, method)


# --- strict and free joker retrieval -------------------------------------------------------------------
FREE = RummikubRules(joker_retrieval="free")
SMALL_FREE = RummikubRules(
    numbers=6, colours=3, copies=2, jokers=1, min_first_meld=10, colour_letters="rbo", joker_retrieval="free"
)
TWO_JOKERS_FREE = RummikubRules(
    numbers=5, colours=3, copies=1, jokers=2, min_first_meld=8, colour_letters="rbo", joker_retrieval="free"
)


@SETTINGS
@given(
    pos=small_positions(rules=SMALL_FREE),
    objective=st.sampled_from(list(Objective)),
    method=st.sampled_from(["dp", "ilp"]),
)
def test_free_joker_retrieval_matches_brute_force(pos, objective, method) -> None:  # type: ignore[no-untyped-def]
    table, rack = pos
    _check(table, rack, SMALL_FREE, objective, False, method)


@SETTINGS
@given(pos=small_positions(rules=TWO_JOKERS_FREE, max_table_sets=2, max_rack=5), method=st.sampled_from(["dp", "ilp"]))
def test_free_retrieval_two_jokers_matches_brute_force(pos, method) -> None:  # type: ignore[no-untyped-def]
    table, rack = pos
    _check(table, rack, TWO_JOKERS_FREE, Objective.TILE_COUNT, False, method)


@pytest.mark.parametrize("method", ["dp", "ilp"])
def test_strict_joker_may_only_leave_when_its_tile_takes_its_place(method: str) -> None:
    """Rule: "A joker on the table may be taken by replacing it with the tile it stands for, and must be played again the same turn"."""
    table = parse_table("r7 b7 o7 J", DEFAULT)
    # the joker stands for k7: without k7 it stays where it is, so k1 k2 cannot use it
    assert not solve(table, parse_tiles("k1 k2", DEFAULT), DEFAULT, method=method).found
    free = solve(table, parse_tiles("k1 k2", FREE), FREE, method=method)
    assert free.value == 2 and check_play(table, parse_tiles("k1 k2", FREE), free.table, FREE) == []
    # with k7 from the rack the joker is taken and played again
    rack = parse_tiles("k7 k1 k2", DEFAULT)
    sol = solve(table, rack, DEFAULT, method=method)
    assert sol.value == 3 and check_play(table, rack, sol.table, DEFAULT) == []
    assert sorted(map(sorted, sol.table)) == sorted(map(sorted, parse_table("r7 b7 o7 k7 | k1 k2 J", DEFAULT)))


def test_strict_retrieval_check_explains_the_rule() -> None:
    before = parse_table("r7 b7 o7 J", DEFAULT)
    after = parse_table("r7 b7 o7 | k1 k2 J", DEFAULT)
    problems = check_play(before, parse_tiles("k1 k2", DEFAULT), after, DEFAULT)
    assert len(problems) == 1 and "standing for k7" in problems[0]
    assert check_play(before, parse_tiles("k1 k2", FREE), after, FREE) == []
    # a joker may stay where it stands (here: split off with r3 r4), or be read either way in a run
    assert (
        check_play(parse_table("r3 r4 J r6 r7 r8", DEFAULT), [], parse_table("r3 r4 J | r6 r7 r8", DEFAULT), DEFAULT)
        == []
    )
    assert (
        check_play(
            parse_table("r6 r7 J", DEFAULT),
            parse_tiles("r5 b1 b2", DEFAULT),
            parse_table("r5 r6 r7 | b1 b2 J", DEFAULT),
            DEFAULT,
        )
        == []
    )


# The slowest positions of seeds 10000..10499 with two jokers in play (table or rack), before the
# joker-aware bounds: the DP must still agree with the integer programme on them (exactness, not speed).
SLOW_SEEDS = [10021, 10142, 10196, 10375, 10393, 10424, 10427, 10493, 10497, 10499]


@pytest.mark.parametrize("seed", SLOW_SEEDS)
def test_slowest_joker_positions_dp_matches_integer_programme(seed: int) -> None:
    inst = random_instance(seed)
    for rules in (DEFAULT, FREE):
        for objective in ("tiles", "value"):
            a = solve(inst.table, inst.rack, rules, objective, method="dp")
            b = solve(inst.table, inst.rack, rules, objective, method="ilp")
            assert (a.value, a.jokers_played) == (b.value, b.jokers_played), (seed, rules.joker_retrieval, objective)
            assert check_play(inst.table, inst.rack, a.table, rules) == []


# Positions of seeds 10000..10499 whose table joker the rack can take in two ways (the later case then skips
# the layouts the earlier one holds, see solver._covered_tiles); 10060 has cases with one and two jokers.
TWO_WAY_RETRIEVAL_SEEDS = [10025, 10041, 10060, 10282, 10497]


@pytest.mark.parametrize("seed", TWO_WAY_RETRIEVAL_SEEDS)
def test_two_way_joker_retrieval_dp_matches_integer_programme(seed: int) -> None:
    inst = random_instance(seed)
    for objective in ("tiles", "value", "keep-jokers", "penalty"):
        a = solve(inst.table, inst.rack, DEFAULT, objective, method="dp")
        b = solve(inst.table, inst.rack, DEFAULT, objective, method="ilp")
        assert (a.value, a.jokers_played) == (b.value, b.jokers_played), (seed, objective)
        assert check_play(inst.table, inst.rack, a.table, DEFAULT) == []


@pytest.mark.parametrize("method", ["dp", "ilp"])
def test_joker_retrieved_either_way_with_both_tiles_on_the_rack(method: str) -> None:
    # r5 r6 r7 r8 J: the joker stands for r4 or r9; with both on the rack, playing both is best either way
    table = parse_table("r5 r6 r7 r8 J", DEFAULT)
    rack = parse_tiles("r4 r9 b1 b2", DEFAULT)
    sol = solve(table, rack, DEFAULT, "value", method=method)
    assert sol.value == 4 + 9 + 1 + 2 and check_play(table, rack, sol.table, DEFAULT) == []
    rack = parse_tiles("r4 r9 b2 b3 J", DEFAULT)
    sol = solve(table, rack, DEFAULT, "value", method=method)
    assert sol.value == 4 + 9 + 2 + 3 and sol.jokers_played == 0
    assert check_play(table, rack, sol.table, DEFAULT) == []


@contextmanager
def _number_order(mirrored: bool) -> Iterator[None]:
    """Every DP search with jokers in one number order (mirrored: from the highest number down)."""
    saved = _Direction.PINNED
    _Direction.PINNED = mirrored
    try:
        yield
    finally:
        _Direction.PINNED = saved


@SETTINGS
@given(
    pos=small_positions(rules=TWO_JOKERS_FREE, max_table_sets=2, max_rack=5),
    objective=st.sampled_from(list(Objective)),
    mirrored=st.booleans(),
)
def test_each_number_order_matches_brute_force(pos, objective, mirrored) -> None:  # type: ignore[no-untyped-def]
    """The DP's searches with jokers are exact (and their plays legal) in either number order on its own."""
    table, rack = pos
    with _number_order(mirrored):
        _check(table, rack, TWO_JOKERS_FREE, objective, False, "dp")
        _check(table, rack, replace(TWO_JOKERS_FREE, joker_retrieval="strict"), objective, False, "dp")


@pytest.mark.parametrize("mirrored", [False, True])
def test_each_number_order_agrees_with_the_integer_programme_on_full_size_positions(mirrored: bool) -> None:
    for seed in SLOW_SEEDS[:4]:
        inst = random_instance(seed)
        for rules in (DEFAULT, FREE):
            for objective in ("tiles", "value", "penalty"):
                with _number_order(mirrored):
                    a = solve(inst.table, inst.rack, rules, objective, method="dp")
                b = solve(inst.table, inst.rack, rules, objective, method="ilp")
                assert (a.value, a.jokers_played) == (b.value, b.jokers_played), (seed, rules.joker_retrieval, objective)
                assert check_play(inst.table, inst.rack, a.table, rules) == []


# --- big tables with jokers (issue 9: the slow corner) --------------------------------------------------
def _big_positions() -> list[tuple[str, object]]:
    from kubasolve.games.rummikub.instances import big_family, hard_instances, issue_instances

    family = big_family(40)
    # the issue's three, family positions that need a rack joker, keep one on the table, or leave tiles (15, 16,
    # 20: the slowest, 20-35 ms before the DP's mirrored number order, ~1-3 ms after), and the slowest four of
    # a wider sweep
    return (
        list(issue_instances().items())
        + [(f"family {i}", family[i]) for i in (1, 6, 14, 15, 16, 20, 26)]
        + list(hard_instances().items())
    )


@pytest.mark.parametrize("retrieval", ["free", "strict"])
@pytest.mark.parametrize("objective", ["tiles", "value"])
def test_big_tables_dp_matches_integer_programme(retrieval: str, objective: str) -> None:
    """Both exact engines agree on the issue's positions (92 + 14, 78 + 28, 0 + 106 tiles, two rack jokers)
    and on generated big tables with two jokers anywhere; every DP play is legal."""
    rules = RummikubRules(joker_retrieval=retrieval)
    for name, inst in _big_positions():
        dp = solve(inst.table, inst.rack, rules, objective, method="dp")
        ilp = solve(inst.table, inst.rack, rules, objective, method="ilp")
        assert (dp.value, dp.jokers_played) == (ilp.value, ilp.jokers_played), name
        assert dp.proven_optimal and ilp.proven_optimal
        assert check_play(inst.table, inst.rack, dp.table, rules) == [], name


def test_whole_rack_goes_out_on_the_issue_positions() -> None:
    from kubasolve.games.rummikub.instances import issue_instances

    for name, inst in issue_instances().items():
        sol = solve(inst.table, inst.rack, RummikubRules(joker_retrieval="free"), "tiles")
        assert sorted(sol.played) == sorted(inst.rack), name


def test_work_budget_answers_the_best_so_far_and_says_it_is_unproven() -> None:
    from kubasolve.games.rummikub.instances import big_family

    inst = big_family(40)[20]  # needs both rack jokers: several DP searches
    full = solve(inst.table, inst.rack, DEFAULT, "tiles")
    assert full.proven_optimal
    tight = solve(inst.table, inst.rack, DEFAULT, "tiles", max_nodes=2000)
    assert not tight.proven_optimal and tight.value <= full.value
    if tight.found:
        assert check_play(inst.table, inst.rack, tight.table, DEFAULT) == []
    timed = solve(inst.table, inst.rack, DEFAULT, "tiles", time_limit_ms=0.01)
    assert not timed.proven_optimal and timed.value <= full.value
    roomy = solve(inst.table, inst.rack, DEFAULT, "tiles", max_nodes=10**9, time_limit_ms=60_000)
    assert roomy.proven_optimal and roomy.value == full.value
    ilp = solve(inst.table, inst.rack, DEFAULT, "tiles", method="ilp", time_limit_ms=60_000)
    assert ilp.proven_optimal and ilp.value == full.value
    for bad in ({"max_nodes": 0}, {"max_nodes": 1.5}, {"max_nodes": True}, {"time_limit_ms": -1}, {"time_limit_ms": "5"}):
        with pytest.raises(PositionError):
            solve(inst.table, inst.rack, DEFAULT, "tiles", **bad)  # type: ignore[arg-type]
