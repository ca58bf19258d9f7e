"""``kubasolve analyse``: one answer line per position, in input order, the same on every backend; a bad
line gets an error line and the batch goes on (issue 13). A line is a game's saved state (any game, a sixth one
too: the library answers it) or the params of the game's engine analysis command (the engine answers it)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kubasolve.cli.main import main
from kubasolve.engine.batch import analyse_lines

LINES = [
    json.dumps({"position": {"field": "kroegentoch", "jokers": ["EYGR"]}}),
    "this is not json",
    json.dumps({"position": {"field": "appelboom"}}),
    "",
    json.dumps({"rack": "r1 r2 r3"}),  # a Rummikub position given to the Kubagram analysis
    json.dumps({"position": {"field": "tafelpoot"}}),
]


def _strip(answers: list[dict]) -> list[dict]:
    return [{k: v for k, v in a.items() if k != "trace"} for a in answers]


def test_every_line_gets_one_answer_in_order() -> None:
    answers = list(analyse_lines(LINES, "kubagram"))
    assert [a["line"] for a in answers] == [1, 2, 3, 5, 6]  # the blank line 4 is skipped, not answered
    assert [a["ok"] for a in answers] == [True, False, True, False, True]
    assert answers[0]["result"]["claim"]["words"][0]["word"] == "rechteroog"
    assert answers[2]["result"]["claim"]["words"][0]["word"] == "appelboom"


def test_workers_do_not_change_the_answers() -> None:
    one = _strip(list(analyse_lines(LINES * 20, "kubagram", workers=1)))
    two = _strip(list(analyse_lines(LINES * 20, "kubagram", workers=2)))
    assert one == two and len(one) == 100


@pytest.mark.slow
def test_ray_backend_gives_the_local_answers(ray_cluster) -> None:
    lines = [*LINES, NESTED] * 3
    local = _strip(list(analyse_lines(lines, "kubagram")))
    remote = _strip(list(analyse_lines(lines, "kubagram", workers=2, backend="ray")))
    assert remote == local and len(local) == 18 and "nested too deeply" in local[5]["error"]["message"]


def test_cli_writes_answer_lines_to_stdout(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "positions.jsonl"
    f.write_text("\n".join(LINES) + "\n", encoding="utf-8")
    assert main(["analyse", str(f), "--game", "kubagram"]) == 1  # two lines failed
    captured = capsys.readouterr()
    answers = [json.loads(line) for line in captured.out.splitlines()]
    assert len(answers) == 5 and answers[1]["ok"] is False
    assert "analysed 5 positions (3 ok, 2 errors)" in captured.err
    assert "2 of 5 lines failed" in captured.err


def test_cli_exits_0_when_every_line_is_answered(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "positions.jsonl"
    f.write_text(LINES[0] + "\n" + LINES[2] + "\n", encoding="utf-8")
    assert main(["analyse", str(f), "--game", "kubagram"]) == 0
    captured = capsys.readouterr()
    assert [json.loads(line)["ok"] for line in captured.out.splitlines()] == [True, True]
    assert "failed" not in captured.err


NESTED = "[" * 1000 + "]" * 1000
"""Aborted the whole run with a RecursionError traceback on every backend (issue 23)."""


def _hostile_file(tmp_path: Path) -> Path:
    lines = [
        LINES[0].encode(),
        NESTED.encode(),
        '{"position": {"field": "appel\u2028boom"}}'.encode(),  # a raw LINE SEPARATOR inside a string
        b'{"position": {"field": "caf\xe9"}}',  # not UTF-8
        json.dumps({"position": {"field": "appelboom"}}).encode(),
        b'{"position": ' + b"{" * 5000 + b"}" * 5000 + b"}",
        LINES[5].encode(),
    ]
    f = tmp_path / "hostile.jsonl"
    f.write_bytes(b"\n".join(lines) + b"\n")
    return f


@pytest.mark.parametrize("workers", [1, 2])
def test_hostile_lines_cost_only_their_own_answers(tmp_path: Path, capsys: pytest.CaptureFixture[str], workers: int) -> None:
    assert main(["analyse", str(_hostile_file(tmp_path)), "--game", "kubagram", "--workers", str(workers)]) == 1
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    answers = [json.loads(line) for line in captured.out.splitlines()]
    assert [a["line"] for a in answers] == [1, 2, 3, 4, 5, 6, 7]  # U+2028 split nothing; no number shifted
    assert [a["ok"] for a in answers] == [True, False, False, False, True, False, True]
    assert "nested too deeply" in answers[1]["error"]["message"]
    assert answers[2]["error"]["code"] == "bad-position"  # the line was read whole, the field refused
    assert "not UTF-8" in answers[3]["error"]["message"]
    assert answers[4]["result"]["claim"]["words"][0]["word"] == "appelboom"
    assert "4 of 7 lines failed" in captured.err


def test_split_lines_splits_on_newline_only() -> None:
    from kubasolve.scale.analyse import split_lines

    assert split_lines("a\u2028b\u0085c\x0cd\r\ne\n\nf".encode()) == ["a\u2028b\u0085c\x0cd".encode(), b"e", b"", b"f"]
    assert split_lines(b"") == [] and split_lines(b"\n") == [b""]


def test_cli_refuses_a_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", str(tmp_path / "nope.jsonl"), "--game", "kubagram"]) != 0
    assert "no such file" in capsys.readouterr().err


@pytest.mark.parametrize(
    "game, line, check",
    [
        ("rummikub", {"table": "r1 r2 r3", "rack": "r4 r5 b7"}, lambda r: r["found"] is True),
        ("crossword", {"cgp": "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0", "top": 1},
         lambda r: r["count"] == 1522 and r["max_score"] == 74),
        ("colonii", {"hand": "ziar", "table": []}, lambda r: r["gain"] == 6),
    ],
)
def test_other_games_are_analysed_by_their_engine_command(game: str, line: dict, check) -> None:
    answers = list(analyse_lines([json.dumps(line), json.dumps({"no such key": 1})], game))
    assert answers[0]["ok"] is True and check(answers[0]["result"]), answers[0]
    assert answers[1]["ok"] is False and answers[1]["error"]["code"] == "bad-request"


def test_scruble_positions_are_analysed() -> None:
    from kubasolve.engine.registry import Session
    from kubasolve.engine.server import handle_request

    state = handle_request(json.dumps({"cmd": "scruble.scramble", "params": {"seed": 5}}), Session())["result"]["state"]
    answers = list(analyse_lines([json.dumps({"state": state, "depth": 1, "top": 2}), json.dumps({"state": "xyz"})], "scruble"))
    assert answers[0]["ok"] is True and 1 <= len(answers[0]["result"]["moves"]) <= 2
    assert answers[0]["result"]["moves"][0]["score"] >= answers[0]["result"]["moves"][-1]["score"]
    assert answers[1]["ok"] is False


NIM = str(Path(__file__).resolve().parents[1] / "protocol" / "nim_game.py")


def test_saved_states_of_any_game_are_analysed_by_the_library(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from kubasolve.games.protocol import import_game_modules, load_game
    from kubasolve.scale.analyse import analyse_lines as library_analyse

    import_game_modules([NIM])
    game = load_game("nim")
    saved = game.state_to_json(game.new_game(3, 2))
    lines = [json.dumps(saved), json.dumps({"state": saved, "top": 1}), json.dumps({"state": saved, "depth": 2}), '"x"']
    answers = list(library_analyse(lines, "nim"))
    assert answers[0]["ok"] and [m["text"] for m in answers[0]["result"]["moves"]] == ["take 3", "take 2", "take 1"]
    assert answers[1]["ok"] and len(answers[1]["result"]["moves"]) == 1 and answers[1]["result"]["current"] == 1
    assert answers[2]["error"]["key"] == "depth" and "not JSON" not in answers[3]["error"]["message"]
    path = tmp_path / "states.jsonl"
    path.write_text("\n".join(lines[:2]) + "\n", encoding="utf-8")
    assert main(["analyse", str(path), "--game", "nim", "--game-module", NIM]) == 0
    assert [json.loads(line)["ok"] for line in capsys.readouterr().out.splitlines()] == [True, True]
    rummikub = load_game("rummikub")
    state = json.dumps(rummikub.state_to_json(rummikub.new_game(1, 2)))
    answers = list(analyse_lines([state], "rummikub"))  # the engine hands a saved state to the library too
    assert answers[0]["ok"] and answers[0]["result"]["moves"][-1]["action"] == {"type": "timeout"}


def test_lines_are_read_as_strictly_as_engine_requests(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Python's json took NaN, Infinity, 1e999, a key twice (the last kept silently) and a lone surrogate escape; the
    last one then stopped the whole run with a UnicodeEncodeError traceback when its answer echoed the key, and a
    NaN in engine params was blamed on a byte of an envelope the user never wrote."""
    from kubasolve.games.protocol import import_game_modules, load_game

    import_game_modules([NIM])
    saved = json.dumps(load_game("nim").state_to_json(load_game("nim").new_game(3, 2)))
    lines = [
        saved,
        '{"state": %s, "\\ud800": 1}' % saved,  # noqa: UP031 - the JSON text is the point
        '{"state": %s, "top": 1, "top": 2}' % saved,  # noqa: UP031
        '{"state": %s, "top": NaN}' % saved,  # noqa: UP031
        '{"state": %s, "movetime_ms": 1e999}' % saved,  # noqa: UP031
        '{"state": %s, "max_nodes": 0}' % saved,  # noqa: UP031
    ]
    path = tmp_path / "strict.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert main(["analyse", str(path), "--game", "nim", "--game-module", NIM]) == 1
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    answers = [json.loads(line) for line in captured.out.splitlines()]
    assert [a["ok"] for a in answers] == [True, False, False, False, False, False]
    errors = [a["error"] for a in answers[1:]]
    assert all(e["code"] == "bad-request" for e in errors), errors
    assert "lone UTF-16 surrogate" in errors[0]["message"]
    assert "'top' appears twice" in errors[1]["message"]
    assert "NaN is not a JSON value" in errors[2]["message"]
    assert "1e999 is out of range" in errors[3]["message"]
    assert errors[4]["key"] == "max_nodes"  # a budget is a request parameter, not a position
    engine = list(analyse_lines(['{"table": "r1 r2 r3", "rack": "r4 r5 b7", "top": NaN}'], "rummikub"))
    assert engine[0]["error"]["message"] == "line 1 is not JSON: NaN is not a JSON value"


def test_cli_output_and_workers_follow_the_shared_conventions(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """``-o -`` wrote a file named "-" (docs/cli.md: ``-`` = stdout); ``-o FOLDER`` was a bare "[Errno 21]";
    ``--workers 2000`` was a domain error (exit 1) where ``simulate --workers 2000`` is a usage error (exit 2)."""
    from kubasolve.games.protocol import import_game_modules, load_game

    import_game_modules([NIM])
    path = tmp_path / "states.jsonl"
    path.write_text(json.dumps(load_game("nim").state_to_json(load_game("nim").new_game(3, 2))) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["analyse", str(path), "--game", "nim", "--game-module", NIM, "-o", "-"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True and not (tmp_path / "-").exists()
    assert main(["analyse", str(path), "--game", "nim", "--game-module", NIM, "-o", str(tmp_path)]) == 1
    assert "it is a folder; give a file name" in capsys.readouterr().err
    assert main(["analyse", str(tmp_path), "--game", "nim", "--game-module", NIM]) == 1
    assert "is a folder, not a JSON-lines file" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["analyse", str(path), "--game", "nim", "--workers", "2000"])
    assert exit_.value.code == 2 and "--workers" in capsys.readouterr().err


def test_one_string_is_refused_not_read_per_character() -> None:
    """``analyse_lines(file_text, game)`` answered every character as a line of its own."""
    from kubasolve.errors import KubasolveError
    from kubasolve.scale.analyse import analyse_lines as library_analyse

    for whole in ('{"state": 1}\n{"state": 2}\n', b'{"state": 1}\n'):
        with pytest.raises(KubasolveError, match="split it first"):
            list(library_analyse(whole, "rummikub"))  # type: ignore[arg-type]  # the mistake under test


def test_cli_shows_progress_on_a_terminal_and_not_with_no_progress(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """``analyse`` showed nothing at all while it ran (no bar on a terminal, no --no-progress), unlike simulate and
    bench; its answers stay alone on stdout."""
    from kubasolve.cli import common
    from kubasolve.games.protocol import import_game_modules, load_game

    import_game_modules([NIM])
    saved = json.dumps(load_game("nim").state_to_json(load_game("nim").new_game(3, 2)))
    path = tmp_path / "states.jsonl"
    path.write_text(f"{saved}\n\n{saved}\n{saved}\n", encoding="utf-8")
    monkeypatch.setattr(common, "progress_enabled", lambda args=None, stream=None: not getattr(args, "no_progress", False))
    assert main(["analyse", str(path), "--game", "nim", "--game-module", NIM]) == 0
    captured = capsys.readouterr()
    assert "/3 [" in captured.err and "position" in captured.err  # a bar over the non-blank lines
    assert [json.loads(line)["line"] for line in captured.out.splitlines()] == [1, 3, 4]
    assert main(["analyse", str(path), "--game", "nim", "--game-module", NIM, "--no-progress"]) == 0
    assert capsys.readouterr().err.startswith("analysed 3 positions")


def test_a_state_line_names_a_lexicon_as_an_engine_request_does(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """``kubasolve analyse``: a saved state whose ``lexicon`` was a file path (absolute, or relative to where the CLI
    ran) made it read that file and answer with its words; its ``rules`` a path made it read a rules file. A line now
    names a lexicon as an engine request does: a bundled one or one served with ``--lexicon NAME=PATH`` (or
    ``--lexicon-dir``), never a file; the rules are a JSON object."""
    from kubasolve.engine import lexicons
    from kubasolve.games.protocol import load_game

    monkeypatch.chdir(tmp_path)
    (tmp_path / "words.txt").write_text("zebra\nzebras\nquartz\n", encoding="utf-8")
    (tmp_path / "r.toml").write_text("board_size = 99\n", encoding="utf-8")
    game = load_game("crossword")
    saved = game.state_to_json(game.new_game(1, 2))
    lines = [{**saved, "lexicon": str(tmp_path / "words.txt")}, {**saved, "lexicon": "words.txt"}, {**saved, "rules": "r.toml"}]
    (tmp_path / "in.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    try:
        assert main(["analyse", "in.jsonl", "--game", "crossword"]) == 1
        out = capsys.readouterr().out
        answers = [json.loads(line) for line in out.splitlines()]
        assert [(a["error"]["code"], a["error"]["key"]) for a in answers] == [("bad-lexicon", "state.lexicon")] * 2 + [
            ("bad-state", "state.rules")]
        assert "never a file" in answers[0]["error"]["message"] and "--lexicon NAME=PATH" in answers[0]["error"]["message"]
        assert "zebra" not in out.lower() and "board_size" not in out
        # the operator serves the list by a name; a state played with it names it so, and is answered
        (tmp_path / "mine.jsonl").write_text(json.dumps({**saved, "lexicon": "mine"}) + "\n", encoding="utf-8")
        assert main(["analyse", "mine.jsonl", "--game", "crossword", "--lexicon", "mine=words.txt"]) == 0
        assert json.loads(capsys.readouterr().out)["ok"] is True
        assert main(["analyse", "mine.jsonl", "--game", "crossword", "--lexicon-dir", str(tmp_path)]) == 1  # no mine.txt
        assert json.loads(capsys.readouterr().out)["error"]["code"] == "bad-lexicon"
        (tmp_path / "mine.txt").write_text("zebra\n", encoding="utf-8")
        assert main(["analyse", "mine.jsonl", "--game", "crossword", "--lexicon-dir", str(tmp_path)]) == 0
        capsys.readouterr()
        # a bad flag is a usage error, as in kubasolve engine
        assert main(["analyse", "mine.jsonl", "--game", "crossword", "--lexicon", "en=words.txt"]) == 2
        assert "bundled lexicon" in capsys.readouterr().err
    finally:
        lexicons.configure()
