"""The colonii CLI (best, simulate, play) and engine commands (colonii.*)."""

from __future__ import annotations

import io
import json
from dataclasses import fields
from typing import Any

import pytest

from kubasolve.cli.main import build_parser, main
from kubasolve.engine.registry import Session
from kubasolve.engine.server import handle_request

TABLE = [{"words": ["cal"], "owner": 1, "stake": 4}, {"words": ["ziar"], "owner": 1, "stake": 6}, {"words": ["tac"], "owner": 0, "stake": 4}]


def ask(session: Session, cmd: str, **params: Any) -> dict[str, Any]:
    return handle_request(json.dumps({"id": 1, "cmd": cmd, "params": params}), session)


def test_cli_best_finds_the_rulebook_conquests(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["colonii", "best", "oriferânjet", "--table", "cal:1", "ziar:1", "tac:0", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    kinds = {(m["kind"], m["word"]) for m in out["best_turn"]["moves"]}
    assert kinds == {("conquest-a", "calorifer"), ("conquest-b", "rânjet")} and out["best_turn"]["gain"] == 24
    assert out["count"] > 100 and len(out["moves"]) == 10
    assert out["best_turn"]["proven_optimal"] is True


def test_cli_best_takes_a_node_budget(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["colonii", "best", "aaeeiioouurrsstnnlmcpdăâîștțbv", "--table", "cal:1:4", "ziar:1:6", "tac:0", "--max-moves", "3"]
    assert main([*args, "--max-nodes", "100", "--json"]) == 0
    turn = json.loads(capsys.readouterr().out)["best_turn"]
    assert turn["proven_optimal"] is False and turn["moves"]
    assert main([*args, "--max-nodes", "100"]) == 0
    assert "budget ran out, not proven" in capsys.readouterr().out
    with pytest.raises(SystemExit) as refused:
        main([*args, "--max-nodes", "0"])
    assert refused.value.code == 2 and "--max-nodes" in capsys.readouterr().err


def test_cli_best_reads_colonies_and_refuses_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["colonii", "best", "axi", "--table", "ziar+rânjet:1", "cal:0", "--top", "3"]) == 0
    assert "colony-add" in capsys.readouterr().out
    assert main(["colonii", "best", "ab9"]) == 1
    assert "not letters of the alphabet" in capsys.readouterr().err
    assert main(["colonii", "best", "ab", "--table", "cal"]) == 1
    assert "WORD:OWNER" in capsys.readouterr().err


def test_cli_play_reads_the_owners_actions() -> None:
    """``s GROUP`` declares a supercolony, ``d GROUP`` decolonises; the referee judges them (here: no such group)."""
    out = io.StringIO()
    args = build_parser().parse_args(["colonii", "play", "--players", "human,greedy", "--seed", "7", "--no-board"])
    assert args.func(args, stdin=io.StringIO("s 0\nd 0\nq\n"), out=out) == 0
    text = out.getvalue()
    assert "declare group 0" in text or "target 0 is not a group" in text, text
    assert text.count("not allowed") == 2 and "bye" in text


def test_engine_moves_and_best_turn() -> None:
    s = Session()
    best = ask(s, "colonii.best-turn", hand="oriferânjet", table=TABLE)["result"]
    assert best["gain"] == 24 and best["taken"] == 10
    moves = ask(s, "colonii.moves", hand="oriferânjet", table=TABLE, top=5, objective="swing")["result"]
    assert len(moves["moves"]) == 5 and moves["moves"][0]["kind"] == "conquest-b"
    bad = ask(s, "colonii.moves", hand="ab", table=[{"words": ["cal"], "owner": 1, "colour": 2}])
    assert bad["error"]["code"] == "bad-request" and bad["error"]["key"].endswith("colour")
    bad = ask(s, "colonii.best-turn", hand="ab", max_moves=31)
    assert bad["error"]["key"] == "params.max_moves"
    bad = ask(s, "colonii.moves", hand="ab", rules={"hand_size": 0})
    assert bad["error"]["key"] == "params.rules.hand_size"


def test_engine_game_commands() -> None:
    s = Session()
    new = ask(s, "colonii.new-game", seed=3, players=["me", "ai"])["result"]
    gid = new["game"]
    legal = ask(s, "colonii.legal-moves", game=gid, top=3)["result"]
    assert len(legal["moves"]) <= 3 and "best_turn" in legal
    refused = ask(s, "colonii.apply-move", game=gid, move={"type": "turn", "moves": [{"play": "new", "word": "zzzz"}]})
    assert refused["error"]["code"] == "illegal-move" and "not in the lexicon" in refused["error"]["message"]
    assert ask(s, "colonii.state", game=gid)["result"]["state"] == new["state"]  # unchanged
    played = ask(s, "colonii.ai-move", game=gid, ai="greedy", state=False)["result"]
    assert played["turn"] == 2 and played["current"] == 1
    saved = ask(s, "colonii.state", game=gid)["result"]["state"]
    resumed = ask(s, "colonii.new-game", state=saved)["result"]
    assert resumed["state"] == saved
    saved["scores"][0] += 5
    assert ask(s, "colonii.new-game", state=saved)["error"]["code"] == "bad-state"


def test_engine_rule_schema_matches_the_rule_class() -> None:
    from kubasolve.engine import commands_colonii
    from kubasolve.engine.commands_colonii import ColoniiRulesSpec
    from kubasolve.games.colonii import rules
    from kubasolve.games.colonii.rules import ColoniiRules

    assert set(ColoniiRulesSpec.__struct_fields__) | {"alphabet"} == {f.name for f in fields(ColoniiRules)}
    assert commands_colonii.MAX_TURN_MOVES == rules.MAX_TURN_MOVES


def test_engine_plays_the_owners_declaration_and_decolonisation() -> None:
    """The owner's actions go in the same action JSON as the word moves; legal moves list them."""
    s = Session()
    ten = ["ziar", "rac", "cal", "lac", "cai", "ie", "ele", "ea", "al", "lea"]
    best = ask(s, "colonii.best-turn", hand="zz", table=[{"words": ten, "owner": 0}])["result"]
    assert [(m["play"], m["gain"]) for m in best["moves"]] == [("declare", 5), ("decolonise", 6)] and best["proven_optimal"]
    listed = ask(s, "colonii.moves", hand="zz", table=[{"words": ten, "owner": 0}])["result"]
    assert {m["kind"] for m in listed["moves"]} == {"supercolony", "decolonisation"} and listed["count"] == 2
    gid = ask(s, "colonii.new-game", seed=3)["result"]["game"]
    refused = ask(s, "colonii.apply-move", game=gid, move={"type": "turn", "moves": [{"play": "declare", "target": 0}]})
    assert refused["error"]["code"] == "illegal-move" and "not a group on the table" in refused["error"]["message"]
    bad = ask(s, "colonii.apply-move", game=gid, move={"type": "turn", "moves": [{"play": "annex", "target": 0}]})
    assert bad["error"]["code"] == "bad-request" and bad["error"]["key"].endswith("play")


@pytest.mark.parametrize("history", [[[0, {"type": "fly"}]], [[0, "pass"]], [["x", {"type": "pass"}]], "none"])
def test_engine_refuses_malformed_saved_states_as_bad_state(history: Any) -> None:
    state = {"format": "kubasolve.colonii.state/2", "rules": {}, "seed": 1, "n_players": 2, "history": history}
    assert ask(Session(), "colonii.new-game", state=state)["error"]["code"] == "bad-state"


def test_engine_refuses_a_version_1_state() -> None:
    """Version 1 paid the supercolony and decolonisation bonuses by themselves: its histories replay to other
    scores, so they are refused by format, with the format expected."""
    state = {"format": "kubasolve.colonii.state/1", "rules": {}, "seed": 1, "n_players": 2, "history": []}
    error = ask(Session(), "colonii.new-game", state=state)["error"]
    assert error["code"] == "bad-state" and "kubasolve.colonii.state/2" in error["message"]
