"""Issue 21: "one client that works for all five games with no per-game adapter. Measure it by writing that client
(in tests, in Python over the engine's stdin/stdout) and report its per-game code"; and a sixth game, outside the
package, that the engine plays without edits to engine code. And UCI's progress and stop."""

from __future__ import annotations

import re
import time
from pathlib import Path

from .frontend import EngineProcess, play_everything
from .helpers import BUILT_IN, NIM


def test_one_client_plays_every_game_the_engine_lists() -> None:
    engine = EngineProcess("--game-module", NIM)
    try:
        ready = engine.ask("ready")
        assert ready["ready"] and set(ready["warmed"]) == {*BUILT_IN, "nim"}
        finals = play_everything(engine, seed=3)
    finally:
        assert engine.close() == 0
    assert set(finals) == {*BUILT_IN, "nim"}
    for kind, final in finals.items():
        assert final["over"] and final["winners"] and final["players"] == ["you", "engine"], kind


def test_the_client_holds_no_per_game_code() -> None:
    """The measure the issue asks for: lines of the client that name a game, an action type or a rule: none."""
    source = Path(__file__).with_name("frontend.py").read_text(encoding="utf-8")
    code = "\n".join(line for line in source.splitlines() if not line.strip().startswith("#"))
    code = re.sub(r'"""(.|\n)*?"""', "", code)  # docstrings aside
    words = [*BUILT_IN, "nim", "place", "exchange", "claim", "take", "draw", "twist", "tiles", "rack", "cube", "hand"]
    per_game = [line for line in code.splitlines() if any(re.search(rf"\b{w}\b", line, re.IGNORECASE) for w in words)]
    assert per_game == []


def test_progress_lines_and_stop_end_a_long_search_with_its_best_so_far() -> None:
    """A search of several seconds (colonii: the best turn of a 30-card hand, seed 1: 2-4 s measured) with
    ``"progress": true`` sends info lines; a stop request ends it: the answer comes at once, not proven, and the
    stop's own answer follows."""
    engine = EngineProcess()
    try:
        gid = engine.ask("new-game", game="colonii", seed=1, rules={"hand_size": 30})["game_id"]
        engine.ask("ready", games=["colonii"])
        search = engine.send("legal-moves", game_id=gid, top=3, movetime_ms=600_000, progress=True)
        first = engine.read()
        assert first["id"] == search and set(first["info"]) >= {"nodes", "ms", "best"}, first
        assert first["info"]["best"]["action"]["type"] == "turn"
        stop = engine.send("stop")
        start = time.perf_counter()
        answer = engine.answer(search)
        waited = time.perf_counter() - start
        assert answer["ok"] and answer["result"]["proven_optimal"] is False and answer["result"]["moves"], answer
        assert engine.answer(stop)["result"] == {"stopped": True}
        assert waited < 5, waited  # a slice is 2-20 ms
        assert engine.ask("stop") == {"stopped": False}  # nothing left to stop
        again = engine.ask("legal-moves", game_id=gid, top=1, max_nodes=10**6)  # a stop does not outlive its search
        assert again["nodes"] >= 10**6 and again["proven_optimal"] is False
    finally:
        assert engine.close() == 0
