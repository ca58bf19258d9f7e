"""The CLI conventions of docs/cli.md, through the real entry point: data only on stdout, the same
simulate flags for every game, exit codes 0/1/2, no traceback for bad input, Kubagram play hints,
final scores and save/resume, bench --check."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kubasolve.cli.main import main

Capsys = pytest.CaptureFixture[str]


def run(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of ``kubasolve ARGV`` (usage errors included)."""
    try:
        code = main(list(argv))
    except SystemExit as exc:  # argparse: usage errors
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    return code, out, err


SIMULATE = [
    ("kubagram", ["--players", "random,greedy"]),
    ("rummikub", ["--players", "greedy,holdback"]),
]


@pytest.mark.parametrize("game, players", SIMULATE)
def test_records_to_stdout_are_the_only_stdout(capsys: Capsys, game: str, players: list[str]) -> None:
    """`--records -`: JSON lines and nothing else on stdout; the summary (one JSON document) on stderr."""
    code, out, err = run(capsys, game, "simulate", "--games", "2", *players, "--seed", "5", "--records", "-", "--json")
    assert code == 0
    records = [json.loads(line) for line in out.splitlines()]
    assert [r["index"] for r in records] == [0, 1] and {r["game"] for r in records} == {game}
    notes, documents = [], []
    for line in err.splitlines():
        (notes if line.startswith("kubasolve: ") else documents).append(line)
    assert all("kernels" in n for n in notes)  # a first-run compile notice (and its timing), if any
    assert len(documents) == 1
    summary = json.loads(documents[0])
    assert summary["ok"] is True and summary["games"] == 2


@pytest.mark.parametrize("game, players", SIMULATE)
def test_records_to_a_file_summary_on_stdout(capsys: Capsys, tmp_path: Path, game: str, players: list[str]) -> None:
    target = tmp_path / "games.jsonl"
    code, out, err = run(capsys, game, "simulate", "--games", "2", *players, "--records", str(target), "--json")
    assert code == 0 and "%" not in err  # no progress bar: stderr is not a terminal
    assert json.loads(out)["games"] == 2 and len(target.read_text().splitlines()) == 2
    code, out, _ = run(capsys, game, "simulate", "--games", "2", *players)
    assert code == 0 and "wins" in out


@pytest.mark.parametrize("game, players", SIMULATE)
def test_records_folder_must_exist(capsys: Capsys, tmp_path: Path, game: str, players: list[str]) -> None:
    code, out, err = run(capsys, game, "simulate", "--games", "1", *players, "--records", str(tmp_path / "no" / "r.jsonl"))
    assert code == 1 and out == "" and "does not exist" in err and not (tmp_path / "no").exists()


@pytest.mark.parametrize("game", ["kubagram", "rummikub"])
def test_same_simulate_flags(capsys: Capsys, game: str) -> None:
    code, out, _ = run(capsys, game, "simulate", "--help")
    assert code == 0
    for flag in ("--games", "--players", "--seed", "--workers", "--records", "--no-progress", "--rules", "--json"):
        assert flag in out
    assert ("--lexicon" in out) == (game == "kubagram")  # Rummikub has no words


def test_rummikub_records_replay_and_workers_agree(capsys: Capsys) -> None:
    from kubasolve.scale.selfplay import RECORD_TIMINGS, replay_record

    _, one, _ = run(capsys, "rummikub", "simulate", "--games", "3", "--seed", "2", "--records", "-")
    _, two, _ = run(capsys, "rummikub", "simulate", "--games", "3", "--seed", "2", "--records", "-", "--workers", "2")

    def records(text: str) -> list[dict]:
        return [{k: v for k, v in json.loads(line).items() if k not in RECORD_TIMINGS} for line in text.splitlines()]

    assert records(one) == records(two) and len(records(one)) == 3
    rec = json.loads(one.splitlines()[0])
    game, state = replay_record(rec)
    assert game.result(state).over and game.result(state).scores == rec["scores"]


@pytest.mark.parametrize("argv", [
    ["kubagram", "best", "kroegentoch", "--mover", "-7"],
    ["kubagram", "best", "kroegentoch", "--top", "-1"],
    ["kubagram", "best", "kroegentoch", "--mover", "１"],
    ["kubagram", "simulate", "--games", "４"],
    ["kubagram", "simulate", "--games", "0"],
    ["rummikub", "simulate", "--workers", "-2"],
    ["rummikub", "solve", "r1 r2 r3", "--rack", "r4", "--objective", "most"],
    ["bench", "--min-time", "-1"],
    ["bench", "--min-time", "nan"],
    ["lexicon", "prefix", "kat", "--limit", "-5"],
    ["kubagram", "play", "--rotation", "45"],
    ["crossword", "endgame", "--board", "x", "--max-nodes", "0"],
    ["rummikub", "solve", "r1", "--rack", "r2", "--movetime-ms", "-5"],
])
def test_usage_errors_exit_2(capsys: Capsys, argv: list[str]) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == "" and "error:" in err and "Traceback" not in err


def test_domain_errors_exit_1_and_json_errors(capsys: Capsys) -> None:
    code, out, err = run(capsys, "rummikub", "solve", "r1 r2 r3", "--rack", "r４")
    assert code == 1 and out == "" and "'４' is not one of the digits 0-9" in err
    code, out, err = run(capsys, "rummikub", "solve", "r1 r2 r3", "--rack", "r４", "--json")
    assert code == 1 and err == "" and json.loads(out)["error"]["code"] == "bad-position"
    code, out, err = run(capsys, "kubagram", "best", "kroegentoch", "--table", "tocht:１")
    assert code == 1 and "0-9" in err
    code, out, err = run(capsys, "kubagram", "best", "kroegentoch", "--lexicon", "xx")
    assert code == 1 and "no bundled lexicon 'xx'" in err
    code, out, err = run(capsys, "bench", "nosuch")
    assert code == 2 and "unknown suite" in err


@pytest.mark.parametrize("argv", [["kubagram", "best", "kroegentoch"], ["rummikub", "solve", "r1 r2 r3", "--rack", "r4"],
                                  ["kubagram", "simulate"], ["rummikub", "simulate"], ["kubagram", "play"]])
def test_rules_file_not_utf8_or_broken(capsys: Capsys, tmp_path: Path, argv: list[str]) -> None:
    latin1 = tmp_path / "rules.toml"
    latin1.write_bytes("# r\xe8gles\nmin_length = 4\n".encode("latin-1"))
    code, out, err = run(capsys, *argv, "--rules", str(latin1))
    assert code == 2 and out == "" and "not UTF-8" in err and "Traceback" not in err
    broken = tmp_path / "broken.toml"
    broken.write_text("min_length = = 4\n", encoding="utf-8")
    code, out, err = run(capsys, *argv, "--rules", str(broken))
    assert code == 2 and "not valid TOML" in err


def test_kubagram_rules_file_sections(capsys: Capsys, tmp_path: Path) -> None:
    rules = tmp_path / "rules.toml"
    rules.write_text("[kubagram]\nmin_length = 9\n[game]\nnonword_penalty = 3\n", encoding="utf-8")
    code, out, _ = run(capsys, "kubagram", "best", "kroegentoch", "--rules", str(rules), "--json")
    words = json.loads(out)["words"]
    assert code == 0 and words and all(len(w["word"]) >= 9 for w in words)
    bad = tmp_path / "bad.toml"
    bad.write_text("[game]\nnonword_penalty = -3\n", encoding="utf-8")
    code, _, err = run(capsys, "kubagram", "simulate", "--games", "1", "--rules", str(bad))
    assert code == 1 and "nonword_penalty" in err


def test_rummikub_table_arguments_are_joined(capsys: Capsys) -> None:
    """The help says several table arguments are joined: `r1 r2 r3 '|' b10 o10 k10` is one quoted table."""
    quoted = run(capsys, "rummikub", "solve", "r1 r2 r3 | b10 o10 k10", "--rack", "r4 b11", "--json")
    split = run(capsys, "rummikub", "solve", "r1", "r2", "r3", "|", "b10", "o10", "k10", "--rack", "r4 b11", "--json")
    assert quoted[0] == split[0] == 0 and json.loads(quoted[1]) == json.loads(split[1])
    assert json.loads(split[1])["played"] == ["r4"]  # r1 r2 r3 is one run (each tile alone would be no set)


def test_bench_check_fails_when_a_target_is_missed(capsys: Capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    import kubasolve.cli.bench as bench
    from kubasolve.bench.runner import Scenario

    slow = Scenario("sleepy", "g", lambda: (lambda: sum(range(20000))), target_ms=1e-6)
    fast = Scenario("quick", "g", lambda: (lambda: None), target_ms=1e6)
    monkeypatch.setattr(bench, "load_suite", lambda name: [slow, fast])
    code, out, err = run(capsys, "bench", "lexicon", "--min-time", "0.01")
    assert code == 0 and "MISSED" in out
    code, out, err = run(capsys, "bench", "lexicon", "--min-time", "0.01", "--check")
    assert code == 1 and "1 scenario(s) missed their target: sleepy" in err
    code, out, err = run(capsys, "bench", "lexicon", "--min-time", "0.01", "--check", "--json")
    data = json.loads(out)
    assert code == 1 and data["missed_targets"] == ["sleepy"] and data["ok"] is False
    monkeypatch.setattr(bench, "load_suite", lambda name: [fast])
    assert run(capsys, "bench", "lexicon", "--min-time", "0.01", "--check")[0] == 0



def test_bench_reports_cpu_time_beside_wall_time(capsys: Capsys, monkeypatch: pytest.MonkeyPatch) -> None:
    """The CPU column leaves out time spent waiting (here: sleeping, as a process waits for a busy core), counts
    busy work, and counts the work of a child process the scenario runs."""
    import time

    import kubasolve.cli.bench as bench
    from kubasolve.bench.runner import Scenario

    def busy() -> None:
        end = time.process_time() + 0.005
        while time.process_time() < end:
            pass

    child = [sys.executable, "-c", "import time\nend = time.process_time() + 0.05\nwhile time.process_time() < end: pass"]
    scenarios = [Scenario("waits", "g", lambda: (lambda: time.sleep(0.005))), Scenario("works", "g", lambda: busy),
                 Scenario("child", "g", lambda: (lambda: subprocess.run(child, check=True)))]
    monkeypatch.setattr(bench, "load_suite", lambda name: scenarios)
    code, out, _err = run(capsys, "bench", "lexicon", "--min-time", "0.05", "--json")
    by_name = {r["name"]: r for r in json.loads(out)["results"]}
    assert code == 0
    assert by_name["waits"]["median_ms"] >= 5 and by_name["waits"]["cpu_median_ms"] < 2
    assert by_name["works"]["cpu_median_ms"] >= 4.5
    assert by_name["child"]["cpu_median_ms"] >= 40
    code, out, _err = run(capsys, "bench", "lexicon", "--min-time", "0.01")
    assert code == 0 and "CPU ms" in out.splitlines()[0]

def test_real_process_records_pipe_and_broken_pipe(tmp_path: Path) -> None:
    """A real process: JSON lines only on stdout; a reader that stops early is no error."""
    proc = subprocess.run([sys.executable, "-m", "kubasolve", "rummikub", "simulate", "--games", "2", "--records", "-"],
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0 and "Traceback" not in proc.stderr
    assert [json.loads(line)["index"] for line in proc.stdout.splitlines()] == [0, 1]
    assert "wins" in proc.stderr
    head = subprocess.run(f"{sys.executable} -m kubasolve lexicon prefix ge --limit 0 | head -1", shell=True,
                          capture_output=True, text=True, timeout=300, check=False)
    assert len(head.stdout.splitlines()) == 1 and "Traceback" not in head.stderr and "Broken" not in head.stderr
