"""Issue 23, "The CLI is looser than the engine": the CLI refuses what the engine refuses, with the same bounds from
the same library modules; and the last CLI tracebacks (a lone surrogate in an argument, a deeply nested rules TOML)
are clear errors with exit code 2."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from kubasolve.cli.main import main
from kubasolve.engine.registry import Session
from kubasolve.engine.server import handle_request

Capsys = pytest.CaptureFixture[str]


def run(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


def engine(cmd: str, **params: object) -> dict:
    return handle_request(json.dumps({"id": 1, "cmd": cmd, "params": params}), Session())


def test_a_rummikub_variant_the_engine_refuses_is_refused_by_the_cli_too(capsys: Capsys, tmp_path: Path) -> None:
    huge = {"numbers": 26, "colours": 8, "copies": 4, "jokers": 4, "colour_letters": "rbokgpwy"}
    rules = tmp_path / "huge.toml"
    rules.write_text("".join(f"{k} = {json.dumps(v)}\n" for k, v in huge.items()))
    start = time.perf_counter()
    for argv in (["solve", "r1", "r2", "r3", "--rack", "r4"], ["simulate", "--games", "1"]):
        code, _, err = run(capsys, "rummikub", *argv, "--rules", str(rules))
        assert code == 1 and "candidate sets" in err and "Traceback" not in err, err
    assert time.perf_counter() - start < 5  # refused up front: building the sets took 72-106 s and 2.2 GB
    assert engine("rummikub.solve", rack="r1", rules=huge)["error"]["code"] == "limit-exceeded"


@pytest.mark.parametrize("players", ["greedy,planner:99999999", "greedy,planner:31", "greedy,search:100001", "greedy,planner:３"])
def test_kubagram_ai_bounds_are_the_engines(capsys: Capsys, players: str) -> None:
    code, _, err = run(capsys, "kubagram", "simulate", "--games", "1", "--players", players)
    assert code == 2 and "from 1 to" in err and "--players" in err, err  # a bad flag value: usage, as every game's AI names
    session = Session()
    gid = handle_request(json.dumps({"cmd": "kubagram.new-game"}), session)["result"]["game"]
    answer = handle_request(json.dumps({"cmd": "kubagram.ai-move", "params": {"game": gid, "ai": players.split(",")[1]}}), session)
    assert answer["error"]["key"] == "params.ai"


def test_kubagram_best_takes_the_engines_bounds_and_budget(capsys: Capsys) -> None:
    code, _, err = run(capsys, "kubagram", "best", "kroegentocht" * 3, "--claim")  # 36 tiles: best-move takes 32
    assert code == 1 and "at most 32 field tiles" in err
    code, _, err = run(capsys, "kubagram", "best", "kroegentocht", *["--joker", "abc"] * 9)
    assert code == 1 and "at most 8 jokers" in err
    assert run(capsys, "kubagram", "best", "kroegentocht", "--top", "10001")[0] == 2
    code, out, _ = run(capsys, "kubagram", "best", "kroegentocht", "--claim", "--max-nodes", "5", "--json")
    answer = json.loads(out)
    assert code == 0 and answer["proven_optimal"] is False and answer["nodes"] <= 5 + 1000  # one kernel call past it at most


def test_full_width_digits_are_not_numbers(capsys: Capsys) -> None:
    for table in ("cal:１:５", "cal:1:５", "cal:１"):
        code, _, err = run(capsys, "colonii", "best", "oriferânjet", "--table", table)
        assert code == 1 and "digits 0-9" in err and "Traceback" not in err, (table, err)
    code, out, _ = run(capsys, "colonii", "best", "oriferânjet", "--table", "cal:1:5", "--top", "1", "--json")
    assert code == 0 and json.loads(out)["ok"]
    code, _, err = run(capsys, "colonii", "best", "oriferânjet", "--table", "cal:9")
    assert code == 1 and "OWNER must be from 0 to 7" in err


def test_an_argument_that_is_not_text_is_a_usage_error(capsys: Capsys) -> None:
    code, out, err = run(capsys, "lexicon", "check", "ab\udc80c")
    assert code == 2 and out == "" and "argument 3" in err and "not valid text" in err and "Traceback" not in err


def test_a_deeply_nested_rules_toml_is_a_usage_error(capsys: Capsys, tmp_path: Path) -> None:
    from kubasolve.errors import RulesError
    from kubasolve.games.rummikub import RummikubRules
    from kubasolve.games.settings import read_toml_table

    for i, text in enumerate(("a = " + "[" * 5000 + "]" * 5000 + "\n", "x = " + "{a = " * 3000 + "1" + "}" * 3000 + "\n")):
        rules = tmp_path / f"deep{i}.toml"
        rules.write_text(text)
        code, _, err = run(capsys, "rummikub", "solve", "r1", "r2", "r3", "--rack", "r4", "--rules", str(rules))
        assert code == 2 and "nested too deeply" in err and "RecursionError" not in err, err
        with pytest.raises(RulesError, match="nested too deeply"):
            read_toml_table(text, "kubagram")
        with pytest.raises(RulesError, match="nested too deeply"):
            RummikubRules.from_toml(rules)
