"""Game answers (issue 8): "legal-moves lists claims with their scores; apply-move/ai-move can answer without
the whole state ("state": false)"."""

from __future__ import annotations

import json
from typing import Any

from kubasolve.engine.registry import Session
from kubasolve.engine.server import handle_request


class Client:
    def __init__(self) -> None:
        self.session = Session()

    def __call__(self, cmd: str, **params: Any) -> dict[str, Any]:
        answer = handle_request(json.dumps({"id": 1, "cmd": cmd, "params": params}), self.session)
        assert answer["ok"], answer
        result: dict[str, Any] = answer["result"]
        return result


def test_legal_moves_carry_the_score_of_each_claim() -> None:
    from kubasolve.games.kubagram.game import default_referee

    ask = Client()
    gid = ask("kubagram.new-game", seed=11, players=["a", "b"])["game"]
    checked = 0
    for _ in range(120):
        start = ask("kubagram.legal-moves", game=gid, claims=5)
        take = next((m for m in start["moves"] if m["type"] in ("take", "place-zero")), None)
        if take is None:
            break
        ask("kubagram.apply-move", game=gid, move={k: v for k, v in take.items() if k != "text"}, state=False)
        legal = ask("kubagram.legal-moves", game=gid, claims=5)  # after taking: the claims
        claims = [m for m in legal["moves"] if m["type"] == "claim"]
        if claims:
            game = ask.session.games[gid]
            state = game.native
            position = state.position(include_held=state.phase == "after")
            words = {(w.word, tuple(w.tiles)): w.score for w in default_referee().solver.best_words(position, 5)}
            for claim in claims:
                assert isinstance(claim["score"], int) and isinstance(claim["taken"], int)
                if "parts" not in claim:  # a word claim: its score is the word's score
                    assert claim["score"] == words[(claim["word"], tuple(claim["tiles"]))] > 0
                    assert claim["taken"] == 0
                    checked += 1
                else:
                    assert claim["score"] + claim["taken"] > 0
        for move in legal["moves"]:
            if move["type"] != "claim":
                assert "score" not in move
        if checked >= 10:
            break
        ask("kubagram.ai-move", game=gid, ai="greedy", state=False)  # the rest of the turn
    assert checked >= 5


def test_state_false_answers_a_short_summary() -> None:
    ask = Client()
    gid = ask("kubagram.new-game", seed=2)["game"]
    full = ask("kubagram.apply-move", game=gid, move={"type": "take"})
    short = ask("kubagram.apply-move", game=gid, move={"type": "end"}, state=False)
    assert "state" in full and "state" not in short
    state = ask("kubagram.state", game=gid)["state"]
    assert {k: short[k] for k in ("current", "phase", "turn", "taken", "scores")} == {k: state[k] for k in ("current", "phase", "turn", "taken", "scores")}
    ai = ask("kubagram.ai-move", game=gid, ai="greedy", state=False)
    assert "state" not in ai and ai["actions"] and len(json.dumps(ai)) < 2000 < len(json.dumps(full))
    shown = ask("kubagram.ai-move", game=gid, ai="greedy", apply=False, state=False)
    assert ask("kubagram.state", game=gid)["state"]["taken"] == ai["taken"] and shown["taken"] == ai["taken"]

    rummikub = ask("rummikub.new-game", seed=5)["game"]
    moved = ask("rummikub.ai-move", game=rummikub, state=False)
    assert "state" not in moved and moved["turn"] == 1 and moved["over"] is False and moved["move"]["type"] in ("draw", "play")
    drawn = ask("rummikub.apply-move", game=rummikub, move={"type": "draw"}, state=False)
    assert drawn == {"game": rummikub, "turn": 0, "over": False, "winner": None, "scores": None}


def test_ai_move_refuses_a_field_too_large_to_search() -> None:
    """A frontend that never claims lets the field grow; the AIs (no time budget yet) are bounded up front."""
    session = Session()

    def ask(cmd: str, **params: Any) -> dict[str, Any]:
        return handle_request(json.dumps({"id": 1, "cmd": cmd, "params": params}), session)

    gid = ask("kubagram.new-game", seed=3, game_rules={"missed_claims": False})["result"]["game"]
    while len(session.games[gid].native.tile_sources()) <= 32:
        moves = ask("kubagram.legal-moves", game=gid, claims=1)["result"]["moves"]
        move = next((m for m in moves if m["type"] in ("take", "place-zero")), None) or next(m for m in moves if m["type"] == "end")
        assert ask("kubagram.apply-move", game=gid, move={k: v for k, v in move.items() if k != "text"}, state=False)["ok"]
    refused = ask("kubagram.ai-move", game=gid)
    assert refused["error"]["code"] == "limit-exceeded" and refused["error"]["key"] == "params.game"
    assert ask("kubagram.legal-moves", game=gid)["ok"]


def test_unknown_ai_names_the_key() -> None:
    session = Session()

    def ask(cmd: str, **params: Any) -> dict[str, Any]:
        return handle_request(json.dumps({"id": 1, "cmd": cmd, "params": params}), session)

    rummikub = ask("rummikub.new-game")["result"]["game"]
    kubagram = ask("kubagram.new-game")["result"]["game"]
    for cmd, gid in (("rummikub.ai-move", rummikub), ("kubagram.ai-move", kubagram)):
        answer = ask(cmd, game=gid, ai="oracle")
        assert answer["error"]["code"] == "bad-request" and answer["error"]["key"] == "params.ai"
        assert "oracle" in answer["error"]["message"] and "greedy" in answer["error"]["message"]
