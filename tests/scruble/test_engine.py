"""``scruble.*`` engine commands through the real engine process."""

from __future__ import annotations

import json
import subprocess
import sys


def test_engine_game_round_trip_and_refusals():
    lines = [
        {"id": 1, "cmd": "scruble.new-game", "params": {"players": 2, "seed": 3}},
        {"id": 2, "cmd": "scruble.ai-move", "params": {"game": "g1", "ai": "greedy", "state": False}},
        {"id": 3, "cmd": "scruble.apply-move", "params": {"game": "g1", "move": {"twists": ["R"], "word": "qqqzx"}}},
        {"id": 4, "cmd": "scruble.apply-move", "params": {"game": "g1", "move": {"twists": ["Q"]}}},
        {"id": 5, "cmd": "scruble.best", "params": {"state": "x", "depth": 1}},
        {"id": 6, "cmd": "scruble.legal-moves", "params": {"game": "g1", "bogus": 1}},
        {"id": 7, "cmd": "scruble.state", "params": {"game": "g1"}},
        {"id": 8, "cmd": "scruble.best", "params": {"state": "A" * 96, "depth": 0}},
    ]
    p = subprocess.run([sys.executable, "-m", "kubasolve", "engine"], input="\n".join(json.dumps(x) for x in lines) + "\n",
                       capture_output=True, text=True, timeout=300)
    out = {r["id"]: r for r in map(json.loads, p.stdout.splitlines())}
    assert out[2]["ok"] and out[2]["result"]["scores"][0] == out[2]["result"]["played"]["score"] > 0
    assert out[3]["error"]["code"] == "illegal-move" and "not a word" in out[3]["error"]["message"]
    assert out[4]["error"]["code"] == "illegal-move" and "bad twist notation" in out[4]["error"]["message"]
    assert out[5]["error"]["key"] == "params.state"
    assert out[6]["error"]["key"] == "params.bogus"
    assert out[7]["result"]["state"]["turn"] == 1  # refused turns left the state unchanged
    assert out[8]["error"]["key"] == "params.depth" and "depth 0 finds no word" in out[8]["error"]["message"]
