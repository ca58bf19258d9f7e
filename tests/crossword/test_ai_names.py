"""One grammar of crossword AI names (``equity:bounded``, ``sim2:spread:400ms`` ...) on every surface: the library's
``make_policy``, the CLI's ``--players``, the engine's v3 ``ai-move`` and ``simulate`` and its v2 ``crossword.ai-move``.
Every form the docs show is accepted everywhere; a bad form or value is a bad request naming the parameter, with a
message listing the forms."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from kubasolve.engine.registry import Session
from kubasolve.engine.server import handle_request

DOCS = Path(__file__).resolve().parents[2] / "docs"
FORM = re.compile(r"(?<![\w:])((?:score|equity2?|sim2?)(?::[a-z0-9]+)+)(?![\w:])")
BAD = ("equity:0", "equity:foo", "score:5", "equity2:win", "sim:spread", "sim2:100ms:200ms", "equity:700000ms",
       "equity:100000001", "sim2:4ply")


def documented_forms() -> list[str]:
    """Every ``NAME:OPTION...`` AI name in the crossword docs (tables, prose and command lines)."""
    found: set[str] = set()
    for doc in ("crossword.md", "engine_crossword.md", "cli.md"):
        found.update(FORM.findall((DOCS / doc).read_text(encoding="utf-8")))
    return sorted(found - set(BAD))  # crossword.md's examples of refused names are in BAD


def ask(session: Session, cmd: str, **params: Any) -> dict[str, Any]:
    return handle_request(json.dumps({"id": 1, "cmd": cmd, "params": params}), session)


def assert_lists_forms(error: dict[str, Any], key: str) -> None:
    assert error["code"] == "bad-request" and error["key"] == key, error
    assert all(word in error["message"] for word in ("bounded", "NODES", "ms", "linear", "spread", "3ply")), error


def test_the_docs_show_the_forms() -> None:
    forms = documented_forms()
    for form in ("equity:bounded", "sim2:400ms", "equity2:linear", "sim2:spread:400ms", "sim2:3ply:400ms"):
        assert form in forms, forms


@pytest.mark.parametrize("form", documented_forms())
def test_documented_form_accepted_by_the_library_and_both_engine_schemas(form: str) -> None:
    import msgspec

    from kubasolve.engine.commands_crossword import AiMoveParams as V2Params
    from kubasolve.engine.commands_session import AiMoveParams as V3Params
    from kubasolve.engine.commands_session import SimulateParams
    from kubasolve.games.crossword.ai import make_policy
    from kubasolve.games.protocol import load_game

    make_policy(form)
    load_game("crossword").check_ai(form)
    msgspec.convert({"game": "g1", "ai": form}, V2Params)
    msgspec.convert({"game_id": "g1", "ai": form}, V3Params)
    msgspec.convert({"game": "crossword", "players": [form, "score"]}, SimulateParams)


def test_engine_ai_move_takes_every_form() -> None:
    s = Session()
    v3 = ask(s, "new-game", game="crossword", seed=3)["result"]["game_id"]
    v2 = ask(s, "crossword.new-game", seed=3)["result"]["game"]
    quick = {"apply": False, "movetime_ms": 300, "max_nodes": 500}
    for form in ("equity:bounded", "equity:100ms", "equity:5000", "sim2:400ms", "equity2:linear", "sim2:spread:50ms",
                 "sim2:3ply:50ms", "sim:bounded:50ms"):
        v3_answer = ask(s, "ai-move", game_id=v3, ai=form, **quick, options={"iterations": 2, "candidates": 2})
        assert v3_answer.get("ok"), (form, v3_answer)
        v2_answer = ask(s, "crossword.ai-move", game=v2, ai=form, **quick, state=False, iterations=2, candidates=2)
        assert v2_answer.get("ok"), (form, v2_answer)


@pytest.mark.parametrize("bad", BAD)
def test_engine_refuses_a_bad_form_by_name(bad: str) -> None:
    s = Session()
    v3 = ask(s, "new-game", game="crossword", seed=3)["result"]["game_id"]
    v2 = ask(s, "crossword.new-game", seed=3)["result"]["game"]
    assert_lists_forms(ask(s, "ai-move", game_id=v3, ai=bad)["error"], "params.ai")
    assert_lists_forms(ask(s, "crossword.ai-move", game=v2, ai=bad)["error"], "params.ai")
    assert_lists_forms(ask(s, "simulate", game="crossword", players=["score", bad])["error"], "params.players[1]")


def test_unknown_ai_lists_the_forms() -> None:
    s = Session()
    v3 = ask(s, "new-game", game="crossword", seed=3)["result"]["game_id"]
    assert_lists_forms(ask(s, "ai-move", game_id=v3, ai="genius")["error"], "params.ai")
    assert_lists_forms(ask(s, "simulate", game="crossword", players=["genius", "score"])["error"], "params.players[0]")


def test_engine_simulate_takes_a_form() -> None:
    s = Session()
    answer = ask(s, "simulate", game="crossword", games=1, players=["equity:bounded", "score"], max_nodes=500)
    assert answer.get("ok") and [r["ai"] for r in answer["result"]["summary"]] == ["equity:bounded", "score"], answer


def test_cli_refuses_a_bad_form_with_the_forms(capsys: pytest.CaptureFixture[str]) -> None:
    from kubasolve.cli.main import main

    assert main(["crossword", "simulate", "--games", "1", "--players", "equity:0,score"]) == 2
    err = capsys.readouterr().err
    assert "--players" in err and all(word in err for word in ("bounded", "NODES", "ms", "linear", "spread", "3ply")), err


def test_engine_honours_the_name_options(monkeypatch: pytest.MonkeyPatch) -> None:
    """The name's options reach the AI through both engine commands: a request's own keys override them, the
    commands' defaults do not."""
    from kubasolve.games.crossword import ai

    made: list[Any] = []
    real = ai.make_policy
    monkeypatch.setattr(ai, "make_policy", lambda *args, **kw: made.append(real(*args, **kw)) or made[-1])
    s = Session()
    v3 = ask(s, "new-game", game="crossword", seed=3)["result"]["game_id"]
    v2 = ask(s, "crossword.new-game", seed=3)["result"]["game"]
    for cmd, params in (("ai-move", {"game_id": v3}), ("crossword.ai-move", {"game": v2, "state": False})):
        for name, extra, want in (("equity:bounded", {}, ("bounded", 200_000)), ("equity:5000", {}, ("exact", 5000)),
                                  ("equity", {}, ("exact", 200_000)), ("equity:5000", {"max_nodes": 700}, ("exact", 700))):
            assert ask(s, cmd, **params, ai=name, apply=False, **extra).get("ok")
            assert (made[-1].endgame_mode, made[-1].endgame_nodes) == want, (cmd, name, extra)
    assert ask(s, "crossword.ai-move", game=v2, ai="equity:bounded", endgame="exact", apply=False).get("ok")
    assert made[-1].endgame_mode == "exact"


@pytest.mark.parametrize("ai, budget_ms, expected_ms", [
    ("sim2:400ms", 30, 30.0),        # the budget is lower: it holds (the name's 400 ms won before)
    ("sim2:400ms", 1000, 400.0),     # the name's own time is lower: it holds too
    ("sim2", 30, 30.0),
    ("equity:100ms", 50, 50.0),
    ("equity2:linear:250ms", 60, 60.0),
    ("sim:80ms", None, 80.0),        # no budget: the name's time
])
def test_a_time_budget_caps_the_time_an_ai_name_sets(monkeypatch, ai, budget_ms, expected_ms):
    """``simulate --movetime-ms`` / the protocol's budget bounds each AI move, also when the AI's name sets a time of
    its own (``--players sim2:400ms --movetime-ms 30`` took 190 ms a turn): the lower of the two applies."""
    from kubasolve import Budget
    from kubasolve.games import load_game
    from kubasolve.games.crossword import ai as ai_module

    made: list = []

    class Made(Exception):
        pass

    real = ai_module.make_policy

    def capture(name, seed=0, **options):
        made.append(real(name, seed, **options))
        raise Made

    monkeypatch.setattr(ai_module, "make_policy", capture)
    game = load_game("crossword")
    with pytest.raises(Made):
        game.ai_move(game.new_game(seed=1), ai=ai, budget=Budget(movetime_ms=budget_ms))
    policy = made[0]  # the turn's time: movetime_ms wins over the older seconds fields (ai._endgame_budget)
    seconds = getattr(policy, "time_limit", None) if ai.startswith("sim") else policy.endgame_time
    assert (policy.movetime_ms if policy.movetime_ms is not None else 1000 * seconds) == pytest.approx(expected_ms)
