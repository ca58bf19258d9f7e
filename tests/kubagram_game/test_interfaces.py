"""Engine protocol (kubagram.* game commands) and the ``kubagram play`` / ``simulate`` CLI commands."""

from __future__ import annotations

import io
import json

import pytest

import kubasolve.engine.commands_kubagram_game  # noqa: F401  (registers the commands)
from kubasolve.cli.games import run_play
from kubasolve.engine.registry import Session
from kubasolve.engine.server import handle_request


def ask(session: Session, cmd: str, **params) -> dict:  # type: ignore[no-untyped-def]
    return handle_request(json.dumps({"id": 1, "cmd": cmd, "params": params}), session)


def test_engine_game_flow() -> None:
    session = Session()
    a = ask(session, "kubagram.new-game", seed=7, players=["human", "greedy"])
    assert a["ok"], a
    gid = a["result"]["game"]
    state = a["result"]["state"]
    assert state["phase"] == "start" and state["cubes_left"] == 108
    moves = ask(session, "kubagram.legal-moves", game=gid)["result"]["moves"]
    assert any(m["type"] == "take" for m in moves) and {"type": "skip", "text": "skip"} in moves
    # an illegal move: error with a reason, state unchanged
    before = ask(session, "kubagram.state", game=gid)["result"]["state"]
    bad = ask(session, "kubagram.apply-move", game=gid, move={"type": "end"})
    assert not bad["ok"] and bad["error"]["code"] == "illegal-move" and "take a cube" in bad["error"]["message"]
    assert ask(session, "kubagram.state", game=gid)["result"]["state"] == before
    take = next(m for m in moves if m["type"] == "take")
    move = {k: v for k, v in take.items() if k != "text"}
    after = ask(session, "kubagram.apply-move", game=gid, move=move)
    assert after["ok"] and after["result"]["state"]["phase"] == "after"
    ai = ask(session, "kubagram.ai-move", game=gid, ai="greedy")
    assert ai["ok"] and ai["result"]["actions"][-1]["type"] == "end"
    assert ai["result"]["state"]["taken"] == 1 or ai["result"]["state"]["current"] != state["current"]
    # play to the end with AIs
    for _ in range(400):
        r = ask(session, "kubagram.ai-move", game=gid, ai="greedy")
        if not r["ok"]:
            assert "over" in r["error"]["message"] and r["error"]["code"] == "illegal-move"
            break
    final = ask(session, "kubagram.state", game=gid)["result"]["state"]
    assert final["phase"] == "over"
    # resume from a saved state
    again = ask(session, "kubagram.new-game", state=final)
    assert again["ok"] and again["result"]["state"] == final


def test_engine_errors_are_clear() -> None:
    session = Session()
    missing = ask(session, "kubagram.state", game="g9")["error"]
    assert "no kubagram game" in missing["message"].lower() and missing["code"] == "unknown-game"
    r = ask(session, "kubagram.new-game", players="many")
    assert r["error"]["code"] == "bad-request" and r["error"]["key"] == "params.players"
    r = ask(session, "kubagram.new-game", seed=1, rules={"min_length": 99})
    assert not r["ok"] and r["error"] == {"code": "bad-request", "key": "params.rules.min_length",
                                          "message": "params.rules.min_length: expected an integer <= 30"}
    gid = ask(session, "kubagram.new-game", seed=1)["result"]["game"]
    r = ask(session, "kubagram.apply-move", game=gid, move={"type": "dance"})
    assert not r["ok"] and r["error"]["key"] == "params.move.type" and "'dance'" in r["error"]["message"]
    assert "'take', 'place-zero', 'claim', 'skip', 'end'" in r["error"]["message"]
    r = ask(session, "kubagram.ai-move", game=gid, ai="oracle")
    assert not r["ok"] and r["error"]["key"] == "params.ai"


class _Kubagram:
    """``kubasolve kubagram ...`` parsed by the real parser."""

    def parse_args(self, argv: list[str]):  # type: ignore[no-untyped-def]
        from kubasolve.cli.main import build_parser

        return build_parser().parse_args(["kubagram", *argv])


def _parser() -> _Kubagram:
    return _Kubagram()


def test_cli_simulate_json_and_records(tmp_path, capsys) -> None:
    records = tmp_path / "games.jsonl"
    args = _parser().parse_args(["simulate", "--games", "2", "--players", "random,greedy", "--seed", "1",
                                 "--records", str(records), "--json"])
    assert args.func(args) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["ok"] and out["games"] == 2 and len(out["summary"]) == 2
    lines = records.read_text().splitlines()
    assert len(lines) == 2 and json.loads(lines[0])["actions"]


def test_cli_simulate_table(capsys) -> None:
    args = _parser().parse_args(["simulate", "--games", "2", "--players", "greedy,random", "--no-progress"])
    assert args.func(args) == 0
    out = capsys.readouterr().out
    assert "95% CI (Wilson)" in out and "greedy" in out and "games/s" in out


def test_cli_play_scripted_input() -> None:
    args = _parser().parse_args(["play", "--players", "human,greedy", "--seed", "3"])
    script = io.StringIO("?\nh\nt\nc zzzzz\ne\ne\nq\n")
    out = io.StringIO()
    assert run_play(args, stdin=script, out=out) == 0
    text = out.getvalue()
    assert "seed 3" in text and "Kubagram | turn" in text and "take" in text
    assert "not allowed" in text  # ZZZZZ cannot be spelled; a second end is out of turn or needs a take
    assert "bye" in text


def test_cli_play_ai_only_game_finishes() -> None:
    args = _parser().parse_args(["play", "--players", "greedy,random", "--seed", "2", "--no-board"])
    out = io.StringIO()
    assert run_play(args, stdin=io.StringIO(""), out=out) == 0
    assert "final scores:" in out.getvalue() and "winner" in out.getvalue()


def test_main_cli_wires_play_and_simulate(capsys) -> None:
    """`kubasolve kubagram simulate` through the real entry point; an unknown AI is a usage error (exit 2)."""
    from kubasolve.cli.main import main

    assert main(["kubagram", "simulate", "--games", "1", "--players", "greedy,random", "--no-progress", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["games"] == 1
    assert main(["kubagram", "simulate", "--games", "1", "--players", "greedy,oracle"]) == 2
    err = capsys.readouterr().err
    assert "unknown kubagram AI 'oracle'" in err and "random, greedy, planner, search" in err


def test_board_turn_choice_in_cli_and_engine() -> None:
    """Rule: "the last player turns the board, choosing the start cube" - chosen by corner or degrees."""
    session = Session()
    r = ask(session, "kubagram.new-game", seed=4, rotation="top-right")
    assert r["ok"] and r["result"]["state"]["setup"]["rotation"] == 180
    args = _parser().parse_args(["play", "--players", "greedy,greedy", "--seed", "4", "--rotation", "90", "--no-board"])
    assert run_play(args, stdin=io.StringIO(""), out=io.StringIO()) == 0
    with pytest.raises(SystemExit) as exc:  # a closed set: argparse choices, a usage error
        _parser().parse_args(["play", "--players", "human,greedy", "--rotation", "45"])
    assert exc.value.code == 2
