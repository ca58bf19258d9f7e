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
    """The same games for the same node budget per solve; another budget plays other games. (With 50 nodes no player
    ever melds: the games ran to the 2,000-move cap, 13 s, past the request's default 10 s, cut at a machine-dependent
    move; 2,000 nodes finish both games in 0.4 s.)"""
    ask = Client()
    a = ask("rummikub.simulate", games=2, seed=3, max_nodes=2000)
    b = ask("rummikub.simulate", games=2, seed=3, max_nodes=2000)
    assert a["ok"] and a["result"] == b["result"] and a["result"]["unfinished"] == 0
    assert ask("rummikub.simulate", games=2, seed=3, max_nodes=10_000)["result"] != a["result"]
    assert ask("rummikub.simulate", games=1, max_nodes=0)["error"]["key"] == "params.max_nodes"


def test_rummikub_simulate_names_the_whole_requests_time_request_ms_as_simulate_does() -> None:
    """``simulate`` calls the whole request's time ``request_ms`` (``movetime_ms`` is per AI move); ``rummikub.simulate``
    called it ``movetime_ms``. Now it takes ``request_ms``, and the old key, whose meaning differs between the two, is
    refused by name with a pointer to the new one (never read as the other meaning)."""
    ask = Client()
    cut = ask("rummikub.simulate", games=2, seed=3, max_nodes=2000, request_ms=1)["result"]
    assert cut["out_of_time"] >= 1 and cut["unfinished"] >= cut["out_of_time"]
    assert ask("rummikub.simulate", games=2, seed=3, max_nodes=2000, request_ms=600_000)["result"]["unfinished"] == 0
    err = ask("rummikub.simulate", games=1, movetime_ms=500)["error"]
    assert err["code"] == "bad-request" and err["key"] == "params.movetime_ms" and "request_ms" in err["message"]
    for bad in (0, "5", True):
        assert ask("rummikub.simulate", games=1, request_ms=bad)["error"]["key"] == "params.request_ms"
    generic = ask("schema")["result"]["commands"]
    assert "request_ms" in str(generic["simulate"]["params"]) and "request_ms" in str(generic["rummikub.simulate"]["params"])


COLONII_30 = {"hand": "aaeeiioouurrsstnnlmcpdăâîștțbv", "max_moves": 3,
              "table": [{"words": ["cal"], "owner": 1, "stake": 4}, {"words": ["ziar"], "owner": 1, "stake": 6},
                        {"words": ["tac"], "owner": 0, "stake": 4}, {"words": ["mare", "erou"], "owner": 1}]}


def _colonii_legal(result: dict[str, Any], request: dict[str, Any]) -> None:
    """The answered turn replays move by move through the rules (``judge``) on the request's position."""
    from kubasolve import load_lexicon
    from kubasolve.games.colonii.rules import ColoniiRules
    from kubasolve.games.colonii.table import ColoniiPosition, Group, apply_move, judge, remove_cards

    rules, lex = ColoniiRules(), load_lexicon("ro")
    table = tuple(Group(tuple(g["words"]), g["owner"], g.get("stake", 0)) for g in request["table"])
    hand = request["hand"]
    for m in result["moves"]:
        judged = judge(ColoniiPosition(table, hand, 0, 2), m["play"], m.get("target"), m["word"], rules, lex)
        assert judged.cards == m["cards"] and list(judged.deltas) == m["deltas"]
        table, hand = apply_move(table, judged, rules), remove_cards(hand, judged.cards)


def test_colonii_best_turn_answers_the_best_found_within_its_budget() -> None:
    ask = Client()
    from kubasolve import load_lexicon
    from kubasolve.games.colonii.movegen import ColoniiSolver
    from kubasolve.games.colonii.rules import ColoniiRules
    from kubasolve.games.colonii.table import ColoniiPosition, Group

    spec: dict[str, Any] = COLONII_30
    table = tuple(Group(tuple(g["words"]), g["owner"], g.get("stake", 0)) for g in spec["table"])
    position = ColoniiPosition(table, spec["hand"], 0, 2)
    roots = len(ColoniiSolver(load_lexicon("ro"), ColoniiRules()).move_table(position, legal_only=False))
    for nodes in (1000, roots + 1000):  # too few for the preparation (a node per move), then enough and a cut search
        cut = ask("colonii.best-turn", **COLONII_30, max_nodes=nodes)["result"]
        assert cut["proven_optimal"] is False and cut["nodes"] == (0 if nodes == 1000 else nodes) and cut["moves"]
        _colonii_legal(cut, COLONII_30)
        assert ask("colonii.best-turn", **COLONII_30, max_nodes=nodes)["result"] == cut  # a node budget is deterministic
    timed = ask("colonii.best-turn", **COLONII_30, movetime_ms=20)["result"]  # the slow case answers (legal) all the same
    _colonii_legal(timed, COLONII_30)
    small = {"hand": "oriferânjet", "table": spec["table"][:3]}
    exact = ask("colonii.best-turn", **small)["result"]  # no budget: the engine's default (10 s), ample here
    roomy = ask("colonii.best-turn", **small, max_nodes=10**9, movetime_ms=600_000)["result"]
    assert exact["proven_optimal"] is True and {**roomy, "nodes": 0} == {**exact, "nodes": 0}
    for bad in (0, -1, "5", True, 1.5):
        for name in ("max_nodes", "movetime_ms"):
            answer = ask("colonii.best-turn", **small, **{name: bad})
            assert answer["error"]["code"] == "bad-request" and answer["error"]["key"] == f"params.{name}", (name, bad)


def test_colonii_ai_move_and_legal_moves_take_a_budget() -> None:
    ask = Client()
    gid = ask("colonii.new-game", seed=3, rules={"hand_size": 30})["result"]["game"]
    before = ask("colonii.state", game=gid)["result"]["state"]
    one = ask("colonii.ai-move", game=gid, ai="greedy", max_nodes=50, apply=False, state=False)
    again = ask("colonii.ai-move", game=gid, ai="greedy", max_nodes=50, apply=False, state=False)
    assert one["ok"] and one["result"]["action"] == again["result"]["action"]  # a node budget is deterministic
    assert isinstance(one["result"]["proven_optimal"], bool)
    assert ask("colonii.state", game=gid)["result"]["state"] == before
    played = ask("colonii.ai-move", game=gid, ai="planner", max_nodes=50, state=False)
    assert played["ok"] and played["result"]["turn"] == before["turn"] + 1, played  # the referee accepted it
    hint = ask("colonii.legal-moves", game=gid, top=3, max_nodes=1)["result"]["best_turn"]
    assert "proven_optimal" in hint
    for bad in (0, -1, "5", True, 1.5):
        assert ask("colonii.ai-move", game=gid, max_nodes=bad)["error"]["key"] == "params.max_nodes", bad
        assert ask("colonii.legal-moves", game=gid, movetime_ms=bad)["error"]["key"] == "params.movetime_ms", bad


def test_crossword_ai_move_takes_movetime_ms_and_max_nodes_and_the_old_keys_as_aliases() -> None:
    ask = Client()
    gid = ask("crossword.new-game", seed=21, players=["a", "b"])["result"]["game"]
    for _ in range(60):  # to an empty bag: the endgame solver decides
        out = ask("crossword.ai-move", game=gid, ai="score")["result"]
        if not out["state"]["bag"] or out["state"]["over"]:
            break
    assert not out["state"]["over"] and not out["state"]["bag"]
    quiet = {"game": gid, "apply": False, "state": False}
    for ai in ("equity", "sim"):
        by_name = ask("crossword.ai-move", **quiet, ai=ai, max_nodes=200)["result"]["action"]
        assert by_name == ask("crossword.ai-move", **quiet, ai=ai, endgame_nodes=200)["result"]["action"]  # the alias
        assert by_name == ask("crossword.ai-move", **quiet, ai=ai, max_nodes=200, movetime_ms=600_000)["result"]["action"]
    default = ask("crossword.ai-move", **quiet, ai="equity")["result"]["action"]  # 3000 nodes: a deeper search here
    assert default != by_name, "the position no longer tells 200 nodes from 3000: pick another seed"
    one = ask("crossword.ai-move", **quiet, ai="equity", max_nodes=1)["result"]["action"]
    assert one["type"] in ("place", "pass")  # one node still answers a move
    for both in ({"max_nodes": 5, "endgame_nodes": 5}, {"movetime_ms": 100, "time_limit": 1.0},
                 {"movetime_ms": 100, "endgame_time": 1.0}, {"time_limit": 1.0, "endgame_time": 1.0}):
        err = ask("crossword.ai-move", game=gid, **both)["error"]
        assert err["code"] == "bad-request" and err["key"] == f"params.{list(both)[1]}", both
    for bad in (0, -1, "5", True, 1.5):
        for name in ("max_nodes", "movetime_ms"):
            err = ask("crossword.ai-move", game=gid, **{name: bad})["error"]
            assert err["code"] == "bad-request" and err["key"] == f"params.{name}", (name, bad)
    # proven_optimal comes with a move the exact endgame solver chose: two plies later 3000 nodes prove it, one does not
    assert "proven_optimal" not in ask("crossword.ai-move", **quiet, ai="score")["result"]
    for _ in range(2):
        assert ask("crossword.ai-move", game=gid, ai="equity", max_nodes=3000, state=False)["result"]["over"] is False
    assert ask("crossword.ai-move", **quiet, ai="equity", max_nodes=1)["result"]["proven_optimal"] is False
    assert ask("crossword.ai-move", **quiet, ai="equity", max_nodes=3000)["result"]["proven_optimal"] is True
    timed = ask("crossword.ai-move", game=gid, ai="equity", max_nodes=10**7, movetime_ms=50, state=False)
    assert timed["ok"] and timed["result"]["turn"] == out["state"]["turn"] + 3  # the referee accepted it


def test_scruble_best_legal_moves_and_ai_move_take_a_budget() -> None:
    ask = Client()
    cube = ask("scruble.scramble", seed=2)["result"]["state"]
    exact = ask("scruble.best", state=cube, depth=2, top=5)["result"]  # no budget: the engine's default (10 s), ample
    assert exact["proven_optimal"] is True and exact["nodes"] == exact["states"]
    assert ask("scruble.best", state=cube, depth=2, top=5, max_nodes=10**8, movetime_ms=600_000)["result"] == exact
    cut = ask("scruble.best", state=cube, depth=2, top=5, max_nodes=200)["result"]
    assert cut["proven_optimal"] is False and cut["nodes"] == cut["states"] == 200
    assert all(m["score"] <= exact["moves"][0]["score"] for m in cut["moves"])
    assert ask("scruble.best", state=cube, depth=2, top=5, max_nodes=200)["result"] == cut  # deterministic

    gid = ask("scruble.new-game", seed=6)["result"]["game"]
    for _ in range(2):  # a couple of words on the cube, so crossing words count
        assert ask("scruble.ai-move", game=gid, ai="greedy", state=False)["ok"]
    before = ask("scruble.state", game=gid)["result"]["state"]
    moves = ask("scruble.legal-moves", game=gid, max_nodes=100)["result"]
    assert moves["proven_optimal"] is False and moves["nodes"] == 100
    assert ask("scruble.legal-moves", game=gid)["result"]["proven_optimal"] is True
    quiet = {"game": gid, "apply": False, "state": False}
    for ai in ("greedy", "planner"):
        full = ask("scruble.ai-move", **quiet, ai=ai)["result"]
        # never proven with the default rules: a turn may take three twists, the AIs search two (tests/protocol)
        assert full["proven_optimal"] is False
        roomy = ask("scruble.ai-move", **quiet, ai=ai, max_nodes=10**8)["result"]
        assert roomy["move"] == full["move"] and roomy["nodes"] == full["nodes"]
        one = ask("scruble.ai-move", **quiet, ai=ai, max_nodes=300)["result"]
        assert one["proven_optimal"] is False and one["nodes"] <= 300
        assert ask("scruble.ai-move", **quiet, ai=ai, max_nodes=300)["result"]["move"] == one["move"]  # deterministic
    assert ask("scruble.state", game=gid)["result"]["state"] == before  # apply=false left the game alone
    played = ask("scruble.ai-move", game=gid, ai="planner", max_nodes=300, state=False)
    assert played["ok"] and played["result"]["turn"] == before["turn"] + 1  # the referee accepted the budgeted turn
    timed = ask("scruble.ai-move", game=gid, ai="planner", movetime_ms=30, state=False)
    assert timed["ok"] and timed["result"]["turn"] == before["turn"] + 2
    for bad in (0, -1, "5", True, 1.5):
        for name in ("max_nodes", "movetime_ms"):
            for cmd, params in (("scruble.best", {"state": cube}), ("scruble.legal-moves", {"game": gid}),
                                ("scruble.ai-move", {"game": gid})):
                err = ask(cmd, **params, **{name: bad})["error"]
                assert err["code"] == "bad-request" and err["key"] == f"params.{name}", (cmd, name, bad)


def test_rummikub_warm_up_solves_once_under_any_rule_set() -> None:
    """Before the first ai-move's budget starts, the engine does one small solve per rule set (the kernels' load
    is no part of a move); it must fit every legal rule set: few numbers and colours, no jokers, long sets."""
    from kubasolve.games.rummikub import solver
    from kubasolve.games.rummikub.rules import RummikubRules

    for rules in (RummikubRules(), RummikubRules(numbers=5, colours=2, colour_letters="rb", jokers=0, min_set_size=2, min_first_meld=0),
                  RummikubRules(numbers=9, colours=3, colour_letters="rbo", jokers=4, min_set_size=5, min_first_meld=0)):
        solver._WARM.discard(rules)
        solver.warm_up(rules)
        assert rules in solver._WARM


def test_colonii_warm_up_runs_once_under_any_rule_set() -> None:
    """The engine's one small best turn before a budget starts fits other rule settings too, and runs once."""
    from kubasolve.games.colonii.movegen import ColoniiSolver
    from kubasolve.games.colonii.rules import ColoniiRules
    from kubasolve.lexicon import load_lexicon

    for rules in (ColoniiRules(), ColoniiRules(hand_size=3, max_turn_moves=1, min_word_length=4)):
        solver = ColoniiSolver(load_lexicon("ro"), rules)
        solver.warm_up()
        assert solver._warm
        solver.warm_up()


def test_generic_simulate_answers_within_its_whole_request_time() -> None:
    """Issue 23: "every request without one [a budget] within the default". The generic ``simulate`` bounds the
    whole request by ``request_ms`` (default 10 s; movetime_ms/max_nodes bound each AI move): no move starts after
    it, the games it cuts or never starts count in ``out_of_time`` (finished + out_of_time = games asked)."""
    ask = Client()
    ask("simulate", game="crossword", games=1, players=["equity", "equity"])  # the one-time set-up of the process
    start = time.perf_counter()
    answer = ask("simulate", game="crossword", games=100, players=["equity", "equity"], request_ms=200)
    elapsed = time.perf_counter() - start
    res = answer["result"]
    assert elapsed < 0.2 + 1.0, elapsed  # one crossword move's work and the summary past the limit
    assert 0 < res["out_of_time"] <= 100 and res["games"] - res["unfinished"] + res["out_of_time"] == 100
    assert ask("simulate", game="crossword", games=2, players=["score", "score"])["result"]["out_of_time"] == 0
    assert ask("simulate", game="crossword", request_ms=0)["error"]["key"] == "params.request_ms"


def test_engine_simulate_plays_paired_deals() -> None:
    """``paired``: the engine's simulate plays each deal once per seat rotation, as ``simulate --paired`` does; an
    odd game count is refused by name."""
    ask = Client()
    res = ask("simulate", game="crossword", games=2, players=["score", "score"], paired=True, records=True)["result"]
    first, second = res["records"]
    assert res["paired"] is True and first["seed"] == second["seed"] and second["seats"] == first["seats"][::-1]
    error = ask("simulate", game="crossword", games=3, players=["score", "score"], paired=True)["error"]
    assert error["key"] == "params.games" and "multiple of 2" in error["message"]


def test_colonii_moves_refuses_a_budget_it_cannot_honour() -> None:
    """Before: ``colonii.moves`` (every legal move, no search) declared ``movetime_ms``/``max_nodes`` (inherited from
    the position's parameters) and ignored them; a budget no search honours is refused by name, as the other
    commands without a search do. ``colonii.best-turn`` keeps them."""
    ask = Client()
    for name, value in (("max_nodes", 1), ("movetime_ms", 1)):
        err = ask("colonii.moves", hand="oriferânjet", **{name: value})["error"]
        assert err["code"] == "bad-request" and err["key"] == f"params.{name}", err
        assert ask("colonii.best-turn", hand="oriferânjet", **{name: 10**6 if name == "max_nodes" else 60_000})["ok"]
    request = json.dumps({"id": 1, "cmd": "schema", "params": {"cmd": "colonii.moves"}})
    schema = handle_request(request, ask.session)["result"]["commands"]["colonii.moves"]["params"]
    assert "max_nodes" not in json.dumps(schema) and "movetime_ms" not in json.dumps(schema)
