"""The Rummikub AIs under a work budget (issue 8: "ai-move ... accept a time or node budget (movetime_ms,
max_nodes) and answer within it with the best found so far")."""

from __future__ import annotations

import pytest

from kubasolve.errors import PositionError
from kubasolve.games.rummikub import RummikubGame
from kubasolve.games.rummikub.ai import MoveBudget, ai_move, play_game


def _game_in_progress() -> RummikubGame:
    game = RummikubGame.new(2, seed=21)
    play_game(game, ["greedy", "greedy"], max_turns=10)
    assert not game.over
    return game


@pytest.mark.parametrize("kind", ["greedy", "holdback"])
def test_a_tiny_node_budget_gives_a_legal_unproven_move(kind: str) -> None:
    game = _game_in_progress()
    budget = MoveBudget(max_nodes=1)
    move = ai_move(game, kind, budget)
    assert budget.proven_optimal is False
    assert move == ai_move(game, kind, MoveBudget(max_nodes=1))  # deterministic
    game.apply(move)  # the referee validates it independently


def test_a_roomy_budget_gives_the_unbudgeted_move() -> None:
    game = _game_in_progress()
    budget = MoveBudget(max_nodes=10**8, movetime_ms=60_000)
    assert ai_move(game, "greedy", budget) == ai_move(game, "greedy")
    assert budget.proven_optimal is True


def test_budgeted_self_play_is_reproducible() -> None:
    a = play_game(RummikubGame.new(2, seed=2), ["greedy", "holdback"], max_turns=40, max_nodes=200)
    b = play_game(RummikubGame.new(2, seed=2), ["greedy", "holdback"], max_turns=40, max_nodes=200)
    assert a.to_dict() == b.to_dict()


@pytest.mark.parametrize("bad", [{"max_nodes": 0}, {"max_nodes": 2.5}, {"max_nodes": True}, {"movetime_ms": -1},
                                 {"movetime_ms": float("nan")}, {"movetime_ms": "10"}])
def test_bad_budgets_are_refused_by_name(bad: dict[str, object]) -> None:
    with pytest.raises(PositionError, match=next(iter(bad))):
        MoveBudget(**bad)  # type: ignore[arg-type]
