"""The search AI: legal, deterministic, within its node budget, and its alpha-beta cuts exact (brute force)."""

from __future__ import annotations

import pytest

from kubasolve.ai.kubagram import (
    GreedyPolicy,
    PlannerPolicy,
    SearchPolicy,
    _options,
    _swing,
    finish_turn,
    make_policy,
)
from kubasolve.errors import RulesError
from kubasolve.games.kubagram.actions import Skip
from kubasolve.games.kubagram.game import play_game, replay


def _midgame(referee, seed: int, turns: int):  # type: ignore[no-untyped-def]
    state = referee.new_game(seed, 2)
    greedy = GreedyPolicy()
    for _ in range(turns):
        for a in greedy.turn(referee, state):
            state = referee.apply(state, a)
    return state


def _brute_force(referee, state, depth: int, alternatives: int, reply_alternatives: int):  # type: ignore[no-untyped-def]
    """Every candidate x every reply, no cuts: the value of the best candidate (first in planner order on ties)."""
    me = state.current
    greedy = GreedyPolicy()
    planner = PlannerPolicy(depth=depth, alternatives=alternatives, endgame_cubes=0)
    replies = PlannerPolicy(depth=depth - 1, alternatives=reply_alternatives, endgame_cubes=0)

    def rollout(s, turns):  # type: ignore[no-untyped-def]
        for _ in range(turns):
            if s.over:
                break
            for a in greedy.turn(referee, s):
                s = referee.apply(s, a)
        return _swing(s, me)

    cands = []
    for option in _options(referee, state):
        for variant in planner._variants(referee, state, option):
            s, actions = finish_turn(referee, state, option, variant)
            cands.append((rollout(s, depth - 1), len(cands), s, actions))
    cands.sort(key=lambda c: (-c[0], c[1]))
    values = []
    for _, _, s, actions in cands:
        if s.over:
            values.append((_swing(s, me), actions))
            continue
        worst = min(rollout(finish_turn(referee, s, o, v)[0], depth - 2)
                    for o in _options(referee, s) for v in replies._variants(referee, s, o))
        values.append((worst, actions))
    best = max(v for v, _ in values)
    return best, [a for v, a in values if v == best]


@pytest.mark.parametrize("seed,turns", [(8, 5), (16, 5), (3, 6)])
def test_cuts_are_exact(referee, seed: int, turns: int) -> None:
    """Without a budget the searched move is one of the brute-force best moves of the same two-level tree (the first
    two states were found by a scan as ones where the planner's move is not among them, so the search matters)."""
    state = _midgame(referee, seed, turns)
    policy = SearchPolicy(depth=3, alternatives=1, reply_alternatives=1, max_nodes=None, endgame_cubes=0)
    got = policy.turn(referee, state)
    _, best_moves = _brute_force(referee, state, 3, 1, 1)
    assert got in best_moves


def test_full_game_is_legal_deterministic_and_replays(referee) -> None:
    rec = play_game([SearchPolicy(max_nodes=60), PlannerPolicy(depth=3)], seed=5, referee=referee)
    again = play_game([SearchPolicy(max_nodes=60), PlannerPolicy(depth=3)], seed=5, referee=referee)
    assert rec.final.over and rec.final.actions() == again.final.actions()
    assert replay(5, rec.final.history, referee=referee) == rec.final
    assert not any("non-word" in reason for _, _, reason in rec.final.adjustments)


def test_node_budget_bounds_the_reply_search(referee) -> None:
    """The reply search stops at max_nodes; only the first (planner) stage and one reply may run past it."""
    state = _midgame(referee, 4, 8)
    unbounded = SearchPolicy(max_nodes=None, endgame_cubes=0)
    unbounded.turn(referee, state)
    small = SearchPolicy(max_nodes=1, endgame_cubes=0)
    small.turn(referee, state)
    first_stage = small.nodes
    assert first_stage < unbounded.nodes
    mid = SearchPolicy(max_nodes=first_stage + 10, endgame_cubes=0)
    mid.turn(referee, state)
    assert mid.nodes <= first_stage + 10 + mid.depth - 1


def test_time_budget_and_bad_settings(referee) -> None:
    state = _midgame(referee, 6, 4)
    assert SearchPolicy(max_nodes=None, movetime_ms=1.0).turn(referee, state)  # always returns a full turn
    with pytest.raises(RulesError):
        SearchPolicy(depth=1)
    with pytest.raises(RulesError):
        SearchPolicy(max_nodes=0)
    with pytest.raises(RulesError):
        SearchPolicy(movetime_ms=0)
    assert make_policy("search:50").max_nodes == 50  # type: ignore[attr-defined]
    with pytest.raises(RulesError, match="node budget"):
        make_policy("search:x")


def test_skip_is_kept_for_the_endgame(referee) -> None:
    """With more than ``skip_cubes`` cubes left the search never skips (the planner often skips on turn 2)."""
    policy = SearchPolicy(max_nodes=40, skip_cubes=12, endgame_cubes=2, endgame_nodes=200)
    rec = play_game([policy, PlannerPolicy(depth=2)], seed=11, referee=referee)
    state = referee.new_game(11, 2)
    for player, action in rec.final.history:
        if player == 0 and isinstance(action, Skip):
            assert state.cubes_left <= 12
        state = referee.apply(state, action)


def test_time_budget_bounds_the_endgame(referee) -> None:
    """The exact endgame search gives up at movetime_ms (then the two-level search plays a legal turn)."""
    import time

    state = _midgame(referee, 2, 0)
    greedy = GreedyPolicy()
    while state.cubes_left > 6:
        for a in greedy.turn(referee, state):
            state = referee.apply(state, a)
    policy = SearchPolicy(max_nodes=None, movetime_ms=20.0, endgame_cubes=6, endgame_nodes=10**6)
    t0 = time.perf_counter()
    actions = policy.turn(referee, state)
    assert time.perf_counter() - t0 < 5.0
    for a in actions:
        state = referee.apply(state, a)
