"""The thin edges over the solver: `kubasolve kubagram best` and the JSON-lines engine."""

from __future__ import annotations

import io
import json

from kubasolve.cli.main import main
from kubasolve.engine import serve


def run_engine(lines: list[str]) -> list[dict]:
    out = io.StringIO()
    serve(io.StringIO("\n".join(lines) + "\n"), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_cli_best_human_and_json(capsys, nl):
    assert main(["kubagram", "best", "kroegentoch", "--joker", "EYGR", "--top", "3", "--table", "kroegen:1", "tocht:2", "--claim"]) == 0
    text = capsys.readouterr().out
    assert "rechteroog" in text and "kroegentocht" in text and "best claim" in text
    assert main(["kubagram", "best", "kroegentoch", "--joker", "EYGR", "--top", "2", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["ok"] and [w["word"] for w in data["words"]] == ["rechteroog", "geknechte"]
    assert data["words"][0]["score"] == (22 + 75) * 2


def test_cli_user_errors_exit_1_without_traceback(capsys):
    """Domain errors exit 1 (docs/cli.md); JSON errors carry the engine's error code."""
    assert main(["kubagram", "best", "ab1"]) == 1
    err = capsys.readouterr().err
    assert "outside the alphabet" in err and "Traceback" not in err
    assert main(["kubagram", "best", "abc", "--min-length", "1", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "bad-rules"
    assert main(["kubagram", "best", "abc", "--table", "word:x"]) == 1
    assert "word[:owner" in capsys.readouterr().err


def test_engine_answers_every_line_and_keeps_running(nl):
    answers = run_engine([
        '{"id": 1, "cmd": "hello"}',
        "this is not json",
        '["a", "list"]',
        '{"id": 4, "cmd": "no-such-command"}',
        '{"id": 5, "cmd": "kubagram.best-words", "params": {"position": {"field": "kroegentoch", "jokers": ["EYGR"]}, "top": 1}}',
        '{"id": 6, "cmd": "kubagram.best-words", "params": {"position": {"field": "kr0eg"}}}',
        '{"id": 7, "cmd": "kubagram.best-words", "params": {}}',
        '{"id": 8, "cmd": "kubagram.best-move", "params": {"position": {"field": "en", "table": [{"word": "kroegentocht", "owner": 1, "level": 1}], "last_cube": true}}}',
        '{"id": 9, "cmd": "kubagram.compounds", "params": {"position": {"table": ["kroegen", "tocht"]}, "objective": "best"}}',
        '{"id": 10, "cmd": "quit"}',
        '{"id": 11, "cmd": "hello"}',
    ])
    assert [a["id"] for a in answers] == [1, None, None, 4, 5, 6, 7, 8, 9, 10]  # stops after quit
    ok = {a["id"]: a["ok"] for a in answers if a["id"] is not None}
    assert ok == {1: True, 4: False, 5: True, 6: False, 7: False, 8: True, 9: False, 10: True}
    assert "kubagram.best-words" in answers[0]["result"]["commands"]
    assert answers[1]["error"]["message"].startswith("malformed JSON") and not answers[2]["ok"]
    assert answers[4]["result"]["words"][0]["word"] == "rechteroog"
    assert "outside the alphabet" in answers[5]["error"]["message"] and answers[5]["error"]["code"] == "bad-position"
    assert answers[6]["error"]["key"] == "params.position"
    claim = answers[7]["result"]["claim"]
    assert claim["compounds"][0]["word"] == "kroegentochten" and claim["compounds"][0]["multiplier"] == 4
    assert answers[8]["error"]["key"] == "params.objective" and "'gain', 'swing'" in answers[8]["error"]["message"]
