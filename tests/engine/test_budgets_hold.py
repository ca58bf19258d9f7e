"""Issue 23, "Budgets that hold": every request with a time budget answers within it plus a small margin (set-up,
decoding and ranking included), whatever the rule settings and the position; the worst cases the issue found are
pinned here. Timing is the feature under test, so these are generous upper bounds (``ALLOWED``), far above what
docs/engine.md documents, to stay quiet on a busy CI machine; node budgets are checked exactly."""

from __future__ import annotations

import json
import resource
import time
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubasolve.engine.registry import Session
from kubasolve.engine.server import handle_request, load_handlers

load_handlers()
ALPHABET = "abcdefghijklmnopqrstuvwxyz"


def allowed(movetime_ms: int) -> float:
    """Seconds a request with ``movetime_ms`` may take here: twice the budget and a second and a half (a shared 2-core
    machine at load 10-12 stalled a 20 ms request past 0.5 s once; the overruns this test exists for were 10-300 s)."""
    return movetime_ms / 1e3 * 2 + 1.5


def timed(session: Session, cmd: str, params: dict[str, Any]) -> tuple[float, dict[str, Any]]:
    start = time.perf_counter()
    answer = handle_request(json.dumps({"id": 1, "cmd": cmd, "params": params}), session)
    return time.perf_counter() - start, answer


def test_the_issues_kubagram_worst_cases_answer_within_their_budgets() -> None:
    """Before: best-move, 24 letters + 8 all-letter jokers, movetime 1000: no answer in 300 s; best-words, 100 tiles + 8
    such jokers, top null, movetime 500: 32.6 s and 830 MB."""
    s = Session()
    timed(s, "kubagram.best-words", {"position": {"field": "ab", "jokers": ["ab"] * 2}})  # the process's one-time work
    jokers = [ALPHABET] * 8
    took, answer = timed(s, "kubagram.best-move", {"position": {"field": "zriyuekryenadhrdbacrenst", "jokers": jokers},
                                                  "movetime_ms": 1000})
    assert answer["ok"] and answer["result"]["claim"]["gain"] > 0 and took < allowed(1000), (took, answer)
    field = ("eenaardigeroostertochtmetvelekaasenbrood" * 3)[:100]
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    took, answer = timed(s, "kubagram.best-words", {"position": {"field": field, "jokers": jokers}, "movetime_ms": 500, "top": None})
    grown_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss) / 1024
    assert answer["ok"] and answer["result"]["words"] and took < allowed(500), took
    assert grown_mb < 300, grown_mb


def test_the_issues_rummikub_simulation_is_quick_and_complete() -> None:
    """Before: games 100, max_nodes 1, min_first_meld 10,000: 332 s (every pass asked whether a 10,000-point first meld
    exists, by a full search each time). Now a meld worth more than the rack can show is refused at once, exactly."""
    s = Session()
    timed(s, "rummikub.simulate", {"games": 1, "max_nodes": 1})  # the process's one-time work (kernels), not under test
    took, answer = timed(s, "rummikub.simulate", {"games": 100, "max_nodes": 1, "rules": {"min_first_meld": 10_000}})
    assert answer["ok"] and answer["result"]["unfinished"] == 0 and answer["result"]["out_of_time"] == 0, answer
    assert took < 10 + 0.5  # the default budget (10 s) with room; measured 1.5 s at load 5


def test_a_simulation_stops_at_its_budget() -> None:
    s = Session()
    timed(s, "rummikub.simulate", {"games": 1, "request_ms": 50})
    took, answer = timed(s, "rummikub.simulate", {"games": 100, "request_ms": 300})
    result = answer["result"]
    assert took < allowed(300) and result["out_of_time"] > 0 and result["unfinished"] >= result["out_of_time"], (took, result)
    assert sum(result["wins"].values()) == result["games"] - result["unfinished"]


_common = st.text(alphabet="eeeeaaaonnnrrttisdlkgmbpvzhcjuwfy", max_size=40)
_joker = st.one_of(st.just(ALPHABET), st.text(alphabet=ALPHABET, min_size=1, max_size=26))
_table = st.lists(st.sampled_from(["kroeg", "tocht", "water", "huis", "en", "boom", "gat", "kast", "deur", "sleutel"]), max_size=6)
_kubagram_rules = st.fixed_dictionaries({}, optional={
    "min_length": st.integers(2, 7), "joker_factor": st.integers(0, 16), "compound_factor": st.integers(0, 4),
    "bonus_from": st.integers(1, 12), "bonus_step": st.sampled_from([0, 1, 25, 1000]), "max_claim_words": st.integers(1, 3),
    "letter_values": st.dictionaries(st.sampled_from(ALPHABET), st.sampled_from([0, 1, 7, 1000]), max_size=5),
})


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cmd=st.sampled_from(["kubagram.best-words", "kubagram.compounds", "kubagram.best-move"]), field=_common,
       jokers=st.lists(_joker, max_size=8), table=_table, rules=_kubagram_rules, movetime=st.sampled_from([20, 100]),
       top=st.sampled_from([1, 10, None]))
def test_kubagram_requests_answer_within_their_budget(cmd: str, field: str, jokers: list[str], table: list[str],
                                                      rules: dict[str, Any], movetime: int, top: int | None) -> None:
    s = Session()
    position = {"field": field[: 32 - len(jokers)], "jokers": jokers, "table": table}
    params: dict[str, Any] = {"position": position, "rules": rules, "movetime_ms": movetime}
    if cmd != "kubagram.best-move":
        params["top"] = top
    took, answer = timed(s, cmd, params)
    assert answer["ok"] or answer["error"]["code"] in ("bad-rules", "bad-position"), answer
    assert took < allowed(movetime), (took, params)


_rummikub_rules = st.fixed_dictionaries({}, optional={
    "numbers": st.integers(5, 20), "copies": st.integers(1, 3), "jokers": st.integers(0, 4), "min_set_size": st.integers(2, 4),
    "min_first_meld": st.sampled_from([0, 1, 30, 100, 10_000]), "tiles_dealt": st.integers(5, 50),
    "joker_retrieval": st.sampled_from(["strict", "free"]), "empty_pool_end": st.sampled_from(["no-legal-move", "round-of-passes"]),
})


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=_rummikub_rules, seed=st.integers(0, 10**6), moves=st.integers(0, 20), first_meld=st.booleans(),
       simulate=st.booleans(), movetime=st.sampled_from([20, 100]))
def test_rummikub_requests_answer_within_their_budget(rules: dict[str, Any], seed: int, moves: int, first_meld: bool,
                                                      simulate: bool, movetime: int) -> None:
    s = Session()
    new = handle_request(json.dumps({"cmd": "rummikub.new-game", "params": {"rules": rules, "seed": seed}}), s)
    if not new["ok"]:
        assert new["error"]["code"] in ("bad-rules", "bad-position", "limit-exceeded"), new  # e.g. a box too small to deal
        return
    gid = new["result"]["game"]
    timed(s, "rummikub.solve", {"rack": "r1", "rules": rules, "movetime_ms": 1})  # the rule set's one-time tables
    for _ in range(moves):
        if not timed(s, "rummikub.ai-move", {"game": gid, "state": False, "max_nodes": 1000})[1]["ok"]:
            break
    state = handle_request(json.dumps({"cmd": "rummikub.state", "params": {"game": gid}}), s)["result"]["state"]
    if simulate:
        cmd, params = "rummikub.simulate", {"games": 3, "rules": rules, "seed": seed, "request_ms": movetime}
    else:
        rack = [t for r in state["racks"] for t in r][:60]
        cmd, params = "rummikub.solve", {"table": state["table"], "rack": rack, "rules": rules, "first_meld": first_meld,
                                         "movetime_ms": movetime}
    took, answer = timed(s, cmd, params)
    assert answer["ok"], answer
    assert took < allowed(movetime), (took, params)
