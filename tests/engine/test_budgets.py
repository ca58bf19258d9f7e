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


def test_rummikub_ai_move_takes_a_budget_and_still_plays_a_legal_move() -> None:
    ask = Client()
    gid = ask("rummikub.new-game", seed=7)["result"]["game"]
    for _ in range(6):  # a few turns in, so the table has sets on it
        assert ask("rummikub.ai-move", game=gid, state=False)["ok"]
    before = ask("rummikub.state", game=gid)["result"]["state"]
    one = ask("rummikub.ai-move", game=gid, ai="holdback", max_nodes=1, apply=False, state=False)
    again = ask("rummikub.ai-move", game=gid, ai="holdback", max_nodes=1, apply=False, state=False)
    assert one["ok"] and one["result"]["move"] == again["result"]["move"]  # a node budget is deterministic
    assert one["result"]["proven_optimal"] is False  # one DP state cannot prove anything
    assert ask("rummikub.state", game=gid)["result"]["state"] == before  # apply=false left the game alone
    played = ask("rummikub.ai-move", game=gid, ai="greedy", movetime_ms=50)
    assert played["ok"], played  # the referee accepted the budgeted move
    roomy = ask("rummikub.ai-move", game=gid, ai="greedy", max_nodes=10**8, apply=False, state=False)
    assert roomy["ok"] and roomy["result"]["proven_optimal"] is True
    for bad in ({"max_nodes": 0}, {"max_nodes": -1}, {"max_nodes": "5"}, {"max_nodes": True}, {"max_nodes": 1.5}):
        answer = ask("rummikub.ai-move", game=gid, **bad)
        assert answer["error"]["code"] == "bad-request" and answer["error"]["key"] == "params.max_nodes", bad
    assert ask("rummikub.ai-move", game=gid, movetime_ms=0)["error"]["key"] == "params.movetime_ms"
    assert ask("rummikub.solve", game=gid, first_meld=True)["error"]["key"] == "params.first_meld"


def test_rummikub_simulate_takes_a_deterministic_node_budget() -> None:
    ask = Client()
    a = ask("rummikub.simulate", games=2, seed=3, max_nodes=50)
    b = ask("rummikub.simulate", games=2, seed=3, max_nodes=50)
    assert a["ok"] and a["result"] == b["result"]
    assert ask("rummikub.simulate", games=1, max_nodes=0)["error"]["key"] == "params.max_nodes"
