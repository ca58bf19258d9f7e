"""``max_nodes`` is honoured exactly by the Rummikub solver: the DP kernel stops at its node limit (a step that would
record one node more stops the search there), and no search starts once the nodes are spent. Before, the kernel read
its limit only between steps: a 78-tile table + 28-tile rack with 2 jokers spent 4 nodes for ``max_nodes=1``, 122
for 100 and 10,196 for 10,000."""

from __future__ import annotations

import json

import pytest

from kubasolve.budget import Budget
from kubasolve.engine.registry import Session
from kubasolve.engine.server import handle_request
from kubasolve.games.rummikub import RummikubRules, instances, solve
from kubasolve.games.rummikub.sets import is_valid_set

ISSUE = "table 78 + rack 28 (2 jokers)"


@pytest.fixture(scope="module")
def position():
    inst = instances.issue_instances()[ISSUE]
    return inst.table, inst.rack


@pytest.fixture(scope="module")
def full_nodes(position) -> int:
    sol = solve(*position, RummikubRules())
    assert sol.proven_optimal
    return sol.nodes


@pytest.mark.parametrize("fraction", [0.0, 0.001, 0.01, 0.1, 0.4, 0.9, 0.999])
def test_solve_spends_at_most_max_nodes(position, full_nodes, fraction) -> None:
    rules = RummikubRules()
    limit = max(1, int(full_nodes * fraction))
    for max_nodes in {limit, limit + 1, 2, 3}:
        sol = solve(*position, rules, budget=Budget(max_nodes=max_nodes))
        assert sol.nodes <= max_nodes, (max_nodes, sol.nodes)
        if not sol.proven_optimal:
            assert sol.nodes == max_nodes  # stopped: it used the whole budget, not less and not more
        assert all(is_valid_set(s, rules) for s in sol.table)
    again = solve(*position, rules, budget=Budget(max_nodes=limit))
    assert again.nodes == solve(*position, rules, budget=Budget(max_nodes=limit)).nodes  # deterministic


def test_enough_nodes_give_the_proven_answer(position, full_nodes) -> None:
    exact = solve(*position, RummikubRules(), budget=Budget(max_nodes=full_nodes * 2))
    assert exact.proven_optimal and exact.nodes == full_nodes


def test_engine_solve_and_legal_moves_report_nodes_within_the_budget() -> None:
    from kubasolve.games.rummikub.tiles import tile_name

    session = Session()

    def ask(cmd: str, **params):
        return handle_request(json.dumps({"id": 1, "cmd": cmd, "params": params}), session)

    rules = RummikubRules()
    inst = instances.issue_instances()[ISSUE]
    table = [[tile_name(t, rules) for t in s] for s in inst.table]
    rack = [tile_name(t, rules) for t in inst.rack]
    for max_nodes in (1, 100, 10_000):
        result = ask("rummikub.solve", table=table, rack=rack, max_nodes=max_nodes)["result"]
        assert result["proven_optimal"] is False and result["nodes"] == max_nodes, result
    gid = ask("new-game", game="rummikub", players=["ann", "bob"], seed=4)["result"]["game_id"]
    moves = ask("legal-moves", game_id=gid, max_nodes=1)["result"]
    # legal-moves makes one solve per objective (4), each with max_nodes (docs/engine.md)
    assert moves["nodes"] <= 4 and moves["proven_optimal"] is False, moves
