"""The one budget in the crossword AIs: ``max_nodes`` bounds every AI's turn, mid-game too (docs/crossword.md
"Budgets": a node is a position valued with a full move generation, or an endgame solver node), and the answer says
when the budget cut the search (``details.searched`` false, never ``proven_optimal`` unless proved)."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest

from kubasolve.budget import Budget
from kubasolve.games import load_game


@cache
def _positions() -> tuple[Any, dict[str, Any]]:
    """(the game, {"mid": a mid-game state, "pre": bag 1-6 tiles, "end": bag empty}) from one score-AI game."""
    game = load_game("crossword")
    state = game.new_game(seed=21, players=2)
    found: dict[str, Any] = {}
    while not game.result(state).over and "end" not in found:
        bag = len(state.native.bag)
        if game.result(state).turn == 6:
            found["mid"] = state
        if 0 < bag < 7 and "pre" not in found:
            found["pre"] = state
        if bag == 0 and not (state.native.last_play is not None and state.native.last_play.went_out):
            found["end"] = state
        state = game.apply(state, game.ai_move(state, "score").action)
    assert set(found) == {"mid", "pre", "end"}
    return game, found


@pytest.mark.parametrize("ai", ["equity", "equity2", "sim", "sim2"])
@pytest.mark.parametrize("where", ["mid", "pre", "end"])
@pytest.mark.parametrize("max_nodes", [1, 40, 2500])
def test_max_nodes_bounds_every_ai_turn(ai: str, where: str, max_nodes: int) -> None:
    game, states = _positions()
    move = game.ai_move(states[where], ai, budget=Budget(max_nodes=max_nodes))
    assert 1 <= move.nodes <= max_nodes, (move.nodes, move.details)
    game.apply(states[where], move.action)  # a legal move
    if move.details.get("endgame"):
        assert move.proven_optimal is False or max_nodes > 1
    else:
        assert move.proven_optimal is False
        simulating = ai.startswith("sim") or (where == "pre" and ai == "equity2")
        if max_nodes == 1:  # the turn's own move generation only: a simulating AI is cut, the static ones are not
            assert move.details["searched"] is (not simulating)


def test_a_cut_simulation_says_so_and_a_full_one_does_not() -> None:
    game, states = _positions()
    full = game.ai_move(states["mid"], "sim", options={"iterations": 4})
    assert full.details["searched"] is True and full.nodes == 1 + 4 * 8 * 2  # root + iterations x candidates x 2 plies
    cut = game.ai_move(states["mid"], "sim", budget=Budget(max_nodes=full.nodes - 1), options={"iterations": 4})
    assert cut.details["searched"] is False and cut.nodes == 1 + 3 * 8 * 2  # the 4th iteration did not fit
    assert game.ai_move(states["mid"], "sim", budget=Budget(max_nodes=full.nodes), options={"iterations": 4}) == full


def test_a_node_budget_is_deterministic() -> None:
    game, states = _positions()
    for ai in ("sim2", "equity2"):
        first = game.ai_move(states["pre"] if ai == "equity2" else states["mid"], ai, budget=Budget(max_nodes=300))
        again = game.ai_move(states["pre"] if ai == "equity2" else states["mid"], ai, budget=Budget(max_nodes=300))
        assert first == again
