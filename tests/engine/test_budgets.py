"""Work budgets (issue 8): "ai-move and the solver commands accept a time or node budget (movetime_ms,
max_nodes) and answer within it with the best found so far"."""

from __future__ import annotations

import json
import time
from typing import Any

from kubasolve.engine.registry import Session
from kubasolve.engine.server import handle_request


class Client:
    def __init__(self) -> None:
        self.session = Session()

    def __call__(self, cmd: str, **params: Any) -> dict[str, Any]:
        return handle_request(json.dumps({"id": 1, "cmd": cmd, "params": params}), self.session)


def _issue_position(name: str) -> tuple[list[list[str]], list[str]]:
    from kubasolve.games.rummikub import RummikubRules, instances
    from kubasolve.games.rummikub.tiles import tile_name

    rules = RummikubRules()
    inst = instances.issue_instances()[name]
    return [[tile_name(t, rules) for t in s] for s in inst.table], [tile_name(t, rules) for t in inst.rack]


def test_rummikub_solve_answers_the_best_found_within_its_budget() -> None:
    from kubasolve.games.rummikub import RummikubRules, parse_table
    from kubasolve.games.rummikub.sets import is_valid_set

    ask = Client()
    table, rack = _issue_position("table 78 + rack 28 (2 jokers)")
    full = ask("rummikub.solve", table=table, rack=rack)["result"]
    assert full["proven_optimal"] is True and full["value"] == 28
    for budget in ({"max_nodes": 1}, {"movetime_ms": 1}):
        start = time.perf_counter()
        cut = ask("rummikub.solve", table=table, rack=rack, **budget)
        assert time.perf_counter() - start < 0.5
        result = cut["result"]
        assert result["proven_optimal"] is False and result["value"] <= full["value"]
        rules = RummikubRules()
        assert all(is_valid_set(s, rules) for s in parse_table(result["table"], rules))  # a legal layout, never a wrong one
    # the same for the player to move in a running game
    gid = ask("rummikub.new-game", seed=4)["result"]["game"]
    hinted = ask("rummikub.solve", game=gid, max_nodes=1)["result"]
    assert "proven_optimal" in hinted
    assert ask("rummikub.solve", table=table, rack=rack, max_nodes=0)["error"]["key"] == "params.max_nodes"
    assert ask("rummikub.solve", table=table, rack=rack, movetime_ms=10**7)["error"]["key"] == "params.movetime_ms"


def test_kubagram_search_ai_takes_a_budget() -> None:
    ask = Client()
    gid = ask("kubagram.new-game", seed=5)["result"]["game"]
    for _ in range(12):  # to the middle of a game
        assert ask("kubagram.ai-move", game=gid, ai="greedy", state=False)["ok"]
    before = ask("kubagram.state", game=gid)["result"]["state"]
    one = ask("kubagram.ai-move", game=gid, ai="search", max_nodes=1, apply=False, state=False)
    again = ask("kubagram.ai-move", game=gid, ai="search", max_nodes=1, apply=False, state=False)
    assert one["ok"] and one["result"]["actions"] == again["result"]["actions"]  # a node budget is deterministic
    start = time.perf_counter()
    timed = ask("kubagram.ai-move", game=gid, ai="search", movetime_ms=20)
    assert time.perf_counter() - start < 2  # the budget plus the candidates' own cost
    assert timed["ok"] and timed["result"]["state"]["turn"] == before["turn"] + 1  # the searched turn was legal and played
    greedy = ask("kubagram.ai-move", game=gid, ai="greedy", movetime_ms=20, apply=False, state=False)
    assert greedy["ok"] and greedy["result"]["actions"]  # every AI takes a budget now
    assert ask("kubagram.ai-move", game=gid, ai="search", max_nodes=10**6)["error"]["key"] == "params.max_nodes"
    assert ask("kubagram.ai-move", game=gid, ai="search:200000")["error"]["key"] == "params.ai"
    assert ask("kubagram.ai-move", game=gid, ai="planner:31")["error"]["key"] == "params.ai"
