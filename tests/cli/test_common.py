"""The shared CLI pieces (kubasolve/cli/common.py): strict argument types, output files, progress,
exit codes and the first-run compile notice."""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path

import pytest

from kubasolve.cli import common
from kubasolve.errors import IllegalMoveError, KubasolveError, PositionError

Capsys = pytest.CaptureFixture[str]


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="t", exit_on_error=False)
    common.add_simulate_arguments(p, players="greedy,planner", players_help="greedy, planner", rules_doc="docs/x.md",
                                  lexicon="nl", max_games=1000)
    return p


def test_simulate_flags_defaults_and_values() -> None:
    args = _parser().parse_args([])
    assert (args.games, args.players, args.seed, args.workers, args.records, args.no_progress, args.rules,
            args.lexicon, args.json) == (100, ["greedy", "planner"], 0, 1, None, False, None, "nl", False)
    args = _parser().parse_args(["--games", "7", "--players", "random, greedy ,planner:2", "--seed", "12",
                                 "--workers", "2", "--records", "-", "--no-progress", "--json", "--lexicon", "x.txt"])
    assert (args.games, args.players, args.seed, args.workers, args.records, args.no_progress, args.json,
            args.lexicon) == (7, ["random", "greedy", "planner:2"], 12, 2, "-", True, True, "x.txt")


def test_game_without_words_has_no_lexicon_flag() -> None:
    p = argparse.ArgumentParser(exit_on_error=False)
    common.add_simulate_arguments(p, players="greedy,holdback", players_help="greedy, holdback",
                                  rules_doc="docs/rummikub.md", lexicon=None)
    assert not hasattr(p.parse_args([]), "lexicon")


@pytest.mark.parametrize("flag, value", [
    ("--games", "-3"), ("--games", "0"), ("--games", "1001"), ("--games", "４"), ("--games", "1e3"),
    ("--games", "+5"), ("--games", " 5"), ("--games", "٣"), ("--seed", "-1"), ("--seed", str(2**63)),
    ("--seed", "１２"), ("--workers", "0"), ("--workers", "257"), ("--players", ""), ("--players", "greedy,,x"),
])
def test_bad_numbers_and_lists_are_usage_errors(flag: str, value: str, capsys: Capsys) -> None:
    p = _parser()
    p.exit_on_error = True
    with pytest.raises(SystemExit) as exc:
        p.parse_args([flag, value])
    assert exc.value.code == common.EXIT_USAGE
    assert flag in capsys.readouterr().err


def test_count_and_seconds_types() -> None:
    assert common.count(0)("0") == 0 and common.count(1, 3)("3") == 3
    for bad in ("-7", "７", "", "4.0", "9" * 40):
        with pytest.raises(argparse.ArgumentTypeError):
            common.count(0)(bad)
    assert common.seconds(0.0)("0.25") == 0.25
    for bad in ("-1", "nan", "inf", "１", "x"):
        with pytest.raises(argparse.ArgumentTypeError):
            common.seconds(0.0)(bad)


def test_ascii_text_refuses_other_digits() -> None:
    assert common.ascii_text("r4 b11 J", "rack") == "r4 b11 J"
    with pytest.raises(PositionError, match="0-9"):
        common.ascii_text("r４", "rack")


def test_toml_file_type(tmp_path: Path) -> None:
    good = tmp_path / "r.toml"
    good.write_text("min_length = 4\n", encoding="utf-8")
    assert common.toml_file(str(good)) == good
    bad = tmp_path / "latin1.toml"
    bad.write_bytes("name = 'caf\xe9'\n".encode("latin-1"))
    broken = tmp_path / "broken.toml"
    broken.write_text("min_length = = 4\n", encoding="utf-8")
    for path, message in [(bad, "not UTF-8"), (broken, "not valid TOML"), (tmp_path / "none.toml", "no such file"),
                          (tmp_path, "not a file")]:
        with pytest.raises(argparse.ArgumentTypeError, match=message):
            common.toml_file(str(path))


def test_open_output(tmp_path: Path, capsys: Capsys) -> None:
    with common.open_output(None) as none:
        assert none is None
    with common.open_output("-") as out:
        assert out is sys.stdout
        assert out is not None
        out.write("line\n")
    assert capsys.readouterr().out == "line\n"
    target = tmp_path / "recs.jsonl"
    with common.open_output(str(target), "records") as f:
        assert f is not None
        f.write("{}\n")
    assert target.read_text() == "{}\n"
    with pytest.raises(KubasolveError, match="does not exist"), common.open_output(str(tmp_path / "missing" / "r.jsonl"), "records"):
        pass
    assert not (tmp_path / "missing").exists()
    with pytest.raises(KubasolveError, match="is a folder"), common.open_output(str(tmp_path), "records"):
        pass


def test_summary_goes_to_stderr_when_stdout_carries_records(capsys: Capsys) -> None:
    args = argparse.Namespace(records="-", json=True)
    common.emit_summary(args, {"games": 3}, "3 games")
    out, err = capsys.readouterr()
    assert out == "" and json.loads(err) == {"ok": True, "games": 3}
    args = argparse.Namespace(records=None, json=False)
    common.emit_summary(args, {"games": 3}, "3 games")
    out, err = capsys.readouterr()
    assert out == "3 games\n" and err == ""
    args = argparse.Namespace(records="file.jsonl", json=True)
    common.emit_summary(args, {"games": 3}, "3 games")
    out, err = capsys.readouterr()
    assert json.loads(out) == {"ok": True, "games": 3} and err == ""


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    assert not common.progress_enabled(None, io.StringIO())
    assert common.progress_enabled(None, _Tty())
    assert not common.progress_enabled(argparse.Namespace(no_progress=True), _Tty())
    tty = _Tty()
    monkeypatch.setattr(sys, "stderr", tty)
    with common.progress(argparse.Namespace(no_progress=False), 4, desc="games") as update:
        for done in range(1, 5):
            update(done, 4)
    assert "games:" in tty.getvalue() and "/4 [" in tty.getvalue()  # tqdm redraws at most every 0.1 s
    quiet = io.StringIO()
    monkeypatch.setattr(sys, "stderr", quiet)
    with common.progress(argparse.Namespace(no_progress=False), 4) as update:
        update(4, 4)
    assert quiet.getvalue() == ""


def test_exit_codes_and_error_payload() -> None:
    assert common.exit_code(PositionError("x")) == common.EXIT_DOMAIN == 1
    assert common.exit_code(OSError("disk full")) == 1
    assert common.exit_code(common.UsageError("a and b")) == common.EXIT_USAGE == 2
    assert common.error_payload(IllegalMoveError("no", key="move")) == {
        "ok": False, "error": {"code": "illegal-move", "message": "no", "key": "move"}}


def test_compile_notice_says_once_and_times_the_compiling_only() -> None:
    """Nested compilations count once, and time between them (a game waiting for its player) not at
    all: 'compiled in 92.1 s' after an interactive session was the session's length (issue 23)."""
    times = iter([0.0, 1.0, 100.0, 102.5])  # outer start, (nested: no clock), outer end; next start, end
    stream = io.StringIO()
    notice = common.CompileNotice(stream, clock=lambda: next(times))
    notice.on_compile()  # t = 0
    notice.on_compile()  # nested
    notice.on_compiled()
    notice.on_compiled()  # t = 1: 1 s
    notice.on_compile()  # t = 100, after 99 s of play
    notice.on_compiled()  # t = 102.5: 2.5 s
    notice.finish()
    lines = stream.getvalue().splitlines()
    assert len(lines) == 2 and lines[0].startswith("kubasolve: compiling kernels, once (cached in ")
    assert "about" not in lines[0]  # no made-up estimate
    assert lines[1] == "kubasolve: kernels compiled in 3.5 s (3 compilations), cached; later runs load them"
    quiet = io.StringIO()
    common.CompileNotice(quiet).finish()
    assert quiet.getvalue() == ""
