"""Engine commands ``crossword.*``: answers, strict parameters, illegal moves refused, resume checked."""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any

from kubasolve.engine.registry import Session
from kubasolve.engine.server import handle_request

EMPTY_CGP = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0"


def ask(session: Session, cmd: str, **params: Any) -> dict[str, Any]:
    return handle_request(json.dumps({"id": 1, "cmd": cmd, "params": params}), session)


def test_engine_moves(golden_records):
    s = Session()
    rec = golden_records[20]
    out = ask(s, "crossword.moves", board=rec["board"], rack=rec["rack"], top=3)["result"]
    assert out["count"] == rec["num_moves"] and [m["score"] for m in out["moves"]] == [m["score"] for m in rec["top"][:3]]
    out = ask(s, "crossword.moves", cgp=EMPTY_CGP, top=1)["result"]
    assert out["count"] == 1522 and out["moves"][0]["score"] == 74
    for params, key in [({"cgp": EMPTY_CGP, "colour": 1}, "colour"), ({"rack": "A"}, "params.board"),
                        ({"board": ["." * 15] * 14, "rack": "A"}, "params.board"),
                        ({"cgp": EMPTY_CGP, "rules": {"bingo_bonus": -1}}, "params.rules.bingo_bonus")]:
        err = ask(s, "crossword.moves", **params)["error"]
        assert err["code"] in ("bad-request", "bad-position") and key in err.get("key", "") + err["message"]


def test_engine_game_commands():
    s = Session()
    new = ask(s, "crossword.new-game", seed=3, players=["me", "ai"])["result"]
    gid = new["game"]
    legal = ask(s, "crossword.legal-moves", game=gid, top=3)["result"]
    assert len(legal["moves"]) == 3 and legal["count"] >= 3 and legal["exchange"] is True
    refused = ask(s, "crossword.apply-move", game=gid, move={"type": "place", "tiles": [[0, 0, "Q"], [0, 1, "Q"]]})
    assert refused["error"]["code"] == "illegal-move"
    assert ask(s, "crossword.state", game=gid)["result"]["state"] == new["state"]  # unchanged
    best = legal["moves"][0]
    played = ask(s, "crossword.apply-move", game=gid, move={"type": "place", "tiles": best["tiles"]}, state=False)["result"]
    assert played["turn"] == 2 and max(played["scores"]) == best["score"]
    ai = ask(s, "crossword.ai-move", game=gid, ai="sim", iterations=2, candidates=3, state=False)["result"]
    assert ai["turn"] == 3 and ai["action"]["type"] in ("place", "exchange", "pass")
    saved = ask(s, "crossword.state", game=gid)["result"]["state"]
    resumed = ask(s, "crossword.new-game", state=saved)["result"]
    assert resumed["state"] == saved
    saved["scores"][0] += 5
    assert ask(s, "crossword.new-game", state=saved)["error"]["code"] == "bad-state"
    bad = ask(s, "crossword.ai-move", game=gid, ai="oracle")
    assert bad["error"]["code"] == "bad-request" and bad["error"]["key"] == "params.ai"


def test_engine_rule_schema_matches_the_rule_class():
    from kubasolve.engine.commands_crossword import CrosswordRulesSpec
    from kubasolve.games.crossword.rules import CrosswordRules

    assert set(CrosswordRulesSpec.__struct_fields__) | {"layout"} == {f.name for f in fields(CrosswordRules)}


def test_engine_new_ais_on_learnt_leaves():
    s = Session()
    gid = ask(s, "crossword.new-game", seed=4, players=2)["result"]["game"]
    first = ask(s, "crossword.ai-move", game=gid, ai="equity2", state=False)["result"]
    assert first["action"]["type"] == "place" and first["turn"] == 2
    sim = ask(s, "crossword.ai-move", game=gid, ai="sim2", iterations=3, candidates=3, plies=3, state=False)["result"]
    assert sim["turn"] == 3
    for ai, plies in (("sim", 3), ("sim2", 1)):
        err = ask(s, "crossword.ai-move", game=gid, ai=ai, plies=plies)["error"]
        assert err["code"] == "bad-request" and err["key"] == "params.plies"
    spread = ask(s, "crossword.ai-move", game=gid, ai="sim2", objective="spread", iterations=3, candidates=3, state=False)["result"]
    assert spread["turn"] == 4
    for bad in ({"ai": "equity2", "objective": "win"}, {"ai": "sim2", "objective": "draw"}):
        err = ask(s, "crossword.ai-move", game=gid, **bad)["error"]
        assert err["code"] == "bad-request" and err["key"] == "params.objective", err


def test_v2_legal_moves_after_a_play_that_went_out_lists_only_what_the_referee_takes():
    """Challenge mode: after a play that went out the next player may only challenge it or pass (accept it); the v2
    legal-moves listed their placements anyway (57 in this game), each refused by apply-move as illegal."""
    from kubasolve.games.crossword.ai import make_policy
    from kubasolve.games.crossword.game import default_referee
    from kubasolve.games.crossword.rules import CrosswordRules

    ref = default_referee(CrosswordRules(word_check="challenge"))
    st, ai = ref.new_game(4, 2), make_policy("score")
    while not (st.last_play is not None and st.last_play.went_out):
        st = ref.apply(st, ai.turn(ref, st))
    s = Session()
    gid = ask(s, "crossword.new-game", state=st.to_dict())["result"]["game"]
    legal = ask(s, "crossword.legal-moves", game=gid, top=5)["result"]
    assert (legal["count"], legal["moves"], legal["exchange"], legal["challenge"]) == (0, [], False, True)
