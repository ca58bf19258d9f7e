"""The search AI: alpha-beta equal to plain minimax, better moves than the planner by an exact endgame analysis,
within its node/time budget, deterministic; the planner's budget; the engine passes the budget to every AI."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

import kubasolve.engine.commands_kubagram_game  # noqa: F401  (registers the commands)
from kubasolve.engine.registry import Session
from kubasolve.engine.server import handle_request
from kubasolve.errors import RulesError
from kubasolve.games.kubagram.actions import Skip
from kubasolve.games.kubagram.ai import (
    GreedyPolicy,
    PlannerPolicy,
    SearchPolicy,
    _options,
    _swing,
    finish_turn,
    make_policy,
)
from kubasolve.games.kubagram.game import play_game, replay
from kubasolve.games.kubagram.state import GameState

DATA = Path(__file__).parent / "data"


def _midgame(referee, seed: int, turns: int):  # type: ignore[no-untyped-def]
    state = referee.new_game(seed, 2)
    greedy = GreedyPolicy()
    for _ in range(turns):
        for a in greedy.turn(referee, state):
            state = referee.apply(state, a)
    return state


def _minimax(referee, state, me: int, plies: int, rollout: int, variants: PlannerPolicy) -> int:  # type: ignore[no-untyped-def]
    """Plain minimax over whole turns (no cuts): every take/skip option x claim variant, then greedy rollout turns."""
    if state.over:
        return _swing(state, me)
    if plies == 0:
        greedy = GreedyPolicy()
        for _ in range(rollout):
            if state.over:
                break
            for a in greedy.turn(referee, state):
                state = referee.apply(state, a)
        return _swing(state, me)
    values = [_minimax(referee, finish_turn(referee, state, o, v)[0], me, plies - 1, rollout, variants)
              for o in _options(referee, state) for v in variants._variants(referee, state, o)]
    return max(values) if state.current == me else min(values)


@pytest.mark.parametrize("seed,turns", [(8, 5), (16, 5), (6, 11)])
def test_alpha_beta_equals_plain_minimax(referee, seed: int, turns: int) -> None:
    """Without a budget the move played is one of the best moves of plain minimax over the same tree (3 searched
    turns, 1 greedy rollout turn), and the deepest iteration was completed."""
    state = _midgame(referee, seed, turns)
    policy = SearchPolicy(horizon=4, max_plies=3, alternatives=1, inner_alternatives=1, max_nodes=None,
                          endgame_cubes=0, skip_cubes=None)
    got = policy.turn(referee, state)
    assert policy.plies == 3
    variants = PlannerPolicy(alternatives=1)
    me = state.current
    scored = []
    for o in _options(referee, state):
        for v in variants._variants(referee, state, o):
            after, actions = finish_turn(referee, state, o, v)
            scored.append((_minimax(referee, after, me, 2, 1, variants), actions))
    best = max(v for v, _ in scored)
    assert got in [a for v, a in scored if v == best]


def _exact_value(referee, state, actions, me: int) -> int:  # type: ignore[no-untyped-def]
    """My score minus the opponent's at the end of the game after ``actions``, every later turn chosen by the exact
    max^n endgame search (take/skip/letter choices, greedy claims)."""
    for a in actions:
        state = referee.apply(state, a)
    exact = PlannerPolicy(endgame_nodes=10**6)
    values, _ = exact._search(referee, state)
    return values[me]


@pytest.mark.parametrize("name,search_word,planner_word", [
    ("late_game_seed24.json", "citer", "cites"),  # CITER keeps the S from the opponent: -1 instead of -15
    ("late_game_seed41.json", "gneis", "bries"),  # G on the III cube and GNEIS: -51 instead of -78
])
def test_search_finds_a_better_move_than_the_planner(referee, name: str, search_word: str, planner_word: str) -> None:
    """Late-game positions (7-8 cubes left, planner-vs-planner games, found by a scan): the search's move is worth more
    than the planner's by an exact analysis of the rest of the game - the planner's greedy rollouts assume a greedy
    opponent and miss what the opponent's other choices do with the letters left."""
    state = GameState.from_dict(json.loads((DATA / name).read_text()))
    me = state.current
    searched = SearchPolicy().turn(referee, state)
    planned = PlannerPolicy().turn(referee, state)
    assert search_word in [getattr(a, "word", None) for a in searched]
    assert planner_word in [getattr(a, "word", None) for a in planned]
    assert _exact_value(referee, state, searched, me) > _exact_value(referee, state, planned, me)


def test_full_game_is_legal_deterministic_and_replays(referee) -> None:
    rec = play_game([SearchPolicy(max_nodes=60), PlannerPolicy(depth=3)], seed=5, referee=referee)
    again = play_game([SearchPolicy(max_nodes=60), PlannerPolicy(depth=3)], seed=5, referee=referee)
    assert rec.final.over and rec.final.actions() == again.final.actions()
    assert replay(5, rec.final.history, referee=referee) == rec.final
    assert not any("non-word" in reason for _, _, reason in rec.final.adjustments)


def test_node_budget(referee) -> None:
    """``nodes`` never exceeds ``max_nodes`` (or the count of the own candidates, which a move always needs); a bigger
    budget searches deeper; the same budget gives the same move."""
    state = _midgame(referee, 6, 11)  # 4 candidates
    n_roots = sum(len(PlannerPolicy()._variants(referee, state, o)) for o in _options(referee, state, False))
    plies = []
    for budget in (1, 30, 120, 400):
        policy = SearchPolicy(max_nodes=budget, endgame_cubes=0)
        move = policy.turn(referee, state)
        assert policy.nodes <= max(budget, n_roots)
        assert SearchPolicy(max_nodes=budget, endgame_cubes=0).turn(referee, state) == move
        plies.append(policy.plies)
    unbounded = SearchPolicy(max_nodes=None, endgame_cubes=0, max_plies=4)
    unbounded.turn(referee, state)
    assert plies == sorted(plies) and plies[0] < plies[-1] and unbounded.plies == 4


def test_time_budget(referee) -> None:
    """With ``movetime_ms`` alone the move comes back soon after the budget (the own candidates are always built)."""
    state = _midgame(referee, 8, 5)
    unbounded = SearchPolicy(max_nodes=None, endgame_cubes=0)
    t0 = time.perf_counter()
    unbounded.turn(referee, state)
    full = time.perf_counter() - t0
    policy = SearchPolicy(max_nodes=None, movetime_ms=5.0, endgame_cubes=0)
    t0 = time.perf_counter()
    actions = policy.turn(referee, state)
    assert time.perf_counter() - t0 < 1.0
    assert policy.nodes <= unbounded.nodes and (full < 0.05 or policy.nodes < unbounded.nodes)
    for a in actions:
        state = referee.apply(state, a)


def test_bad_settings_and_names() -> None:
    for bad in ({"horizon": 0}, {"max_plies": 9}, {"max_plies": 0}, {"max_nodes": 0}, {"movetime_ms": 0}):
        with pytest.raises(RulesError):
            SearchPolicy(**bad)  # type: ignore[arg-type]
    with pytest.raises(RulesError):
        PlannerPolicy(max_nodes=0)
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
    """The exact endgame search gives up at movetime_ms (then the alpha-beta search plays a legal turn)."""
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


def test_planner_budget(referee) -> None:
    """The planner values its candidates in order and stops at ``max_nodes``, the rollout it is in too (before, it
    finished that rollout: max_nodes 1 spent 5 simulated turns); with a budget it never needs it plays the unbudgeted
    move; budget 1 values only the first candidate."""
    state = _midgame(referee, 6, 11)
    free = PlannerPolicy()
    move = free.turn(referee, state)
    for budget in (1, 3, 10, 40):
        p = PlannerPolicy(max_nodes=budget)
        p.turn(referee, state)
        assert 1 <= p.nodes <= budget
    assert PlannerPolicy(max_nodes=free.nodes).turn(referee, state) == move
    first = finish_turn(referee, state, _options(referee, state)[0])[1]
    assert PlannerPolicy(max_nodes=1).turn(referee, state) == first


def _ask(session: Session, cmd: str, **params: Any) -> dict[str, Any]:
    return handle_request(json.dumps({"id": 1, "cmd": cmd, "params": params}), session)


def test_engine_passes_the_budget_to_every_ai() -> None:
    """``kubagram.ai-move`` bounds the planner and the search AI with ``max_nodes``; greedy and random accept a
    budget (they need none); the same node budget gives the same turn."""
    session = Session()
    gid = _ask(session, "kubagram.new-game", seed=5)["result"]["game"]
    for _ in range(12):
        assert _ask(session, "kubagram.ai-move", game=gid, ai="greedy", state=False)["ok"]
    answers = {}
    for ai in ("planner", "search"):
        one = _ask(session, "kubagram.ai-move", game=gid, ai=ai, max_nodes=1, apply=False, state=False)
        again = _ask(session, "kubagram.ai-move", game=gid, ai=ai, max_nodes=1, apply=False, state=False)
        assert one["ok"] and one["result"]["actions"] == again["result"]["actions"]
        answers[ai] = one["result"]["actions"]
    for ai in ("greedy", "random"):
        assert _ask(session, "kubagram.ai-move", game=gid, ai=ai, movetime_ms=20, apply=False, state=False)["ok"]
    timed = _ask(session, "kubagram.ai-move", game=gid, ai="planner", movetime_ms=50, state=False)
    assert timed["ok"] and timed["result"]["turn"] > 1
