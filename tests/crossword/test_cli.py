"""``kubasolve crossword`` moves / play / simulate: output, exit codes, no tracebacks on bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kubasolve.cli.main import main


@pytest.fixture(scope="module")
def board_file(tmp_path_factory, golden_records) -> tuple[Path, dict]:  # type: ignore[no-untyped-def]
    rec = golden_records[40]
    path = tmp_path_factory.mktemp("board") / "board.txt"
    path.write_text("\n".join(rec["board"]) + "\n", encoding="utf-8")
    return path, rec


def test_moves_json_matches_the_golden_record(board_file, capsys):
    path, rec = board_file
    assert main(["crossword", "moves", "--board", str(path), "--rack", rec["rack"], "--top", "5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["count"] == rec["num_moves"] and out["max_score"] == rec["max_score"]
    assert [m["score"] for m in out["moves"]] == [m["score"] for m in rec["top"][:5]]
    assert set(out["moves"][0]) >= {"row", "col", "dir", "word", "tiles", "score", "notation"}


def test_moves_text_and_cgp_board(capsys, tmp_path):
    cgp = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0 lex nl;"
    assert main(["crossword", "moves", "--board", cgp, "--top", "3"]) == 0
    text = capsys.readouterr().out
    assert "1522 legal placements, best 74" in text and "bingo" in text
    f = tmp_path / "pos.cgp"
    f.write_text(cgp + "\n", encoding="utf-8")
    assert main(["crossword", "moves", "--board", str(f), "--rack", "QQ", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["count"] == 0


@pytest.mark.parametrize("argv, message", [
    (["--board", "/nonexistent/board.txt", "--rack", "A"], "no such file"),
    (["--board", "15/15 A/ 0/0 0", "--rack", "A"], "rows"),
    (["--board", "{cgp}", "--rack", "AB1"], "not tiles"),
    (["--board", "{cgp}", "--rack", "AAAAAAAA"], "at most 7"),
    (["--board", "{cgp}", "--rack", "AEıNRST"], "holds 'ı': not tiles"),  # the Turkish dotless i is not an I
    (["--board", "{cgp}", "--rack", "AEINRß"], "holds 'ß': not tiles"),  # nor the sharp s two S tiles
    (["--board", "{short}", "--rack", "A"], "expected 15 lines"),
])
def test_moves_bad_input_exit_1(argv, message, capsys, tmp_path):
    short = tmp_path / "short.txt"
    short.write_text("...\n...\n", encoding="utf-8")
    cgp = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0"
    argv = [a.replace("{cgp}", cgp).replace("{short}", str(short)) for a in argv]
    assert main(["crossword", "moves", *argv]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_moves_usage_error_exit_2():
    with pytest.raises(SystemExit) as usage:
        main(["crossword", "moves", "--rack", "A"])
    assert usage.value.code == 2




def test_simulate_paired_plays_each_deal_both_ways(capsys, tmp_path):
    """``simulate --paired``: the two games of a deal share its seed with the seats swapped; a game count that is not
    a multiple of the seats is a usage error (exit 2) naming the flag."""
    records = tmp_path / "r.jsonl"
    assert main(["crossword", "simulate", "--games", "2", "--players", "score,score", "--paired", "--seed", "4",
                 "--records", str(records), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["paired"] is True
    first, second = (json.loads(line) for line in records.read_text(encoding="utf-8").splitlines())
    assert first["seed"] == second["seed"] and second["seats"] == first["seats"][::-1]
    assert main(["crossword", "simulate", "--games", "3", "--players", "score,score", "--paired"]) == 2
    assert "--paired" in capsys.readouterr().err


def test_generic_simulate_takes_the_games_rule_flags(tmp_path, capsys):
    """``kubasolve simulate --game crossword`` takes "the same flags" as ``kubasolve crossword simulate`` (docs/cli.md),
    the rule shortcut ``--tiles`` too (it was an unrecognised argument); a rule flag of another game is refused."""
    records = tmp_path / "en.jsonl"
    assert main(["simulate", "--game", "crossword", "--games", "2", "--players", "score,score", "--tiles", "en",
                     "--lexicon", "en", "--records", str(records), "--no-progress"]) == 0
    first = json.loads(records.read_text(encoding="utf-8").splitlines()[0])
    assert first["rules"]["tiles"] == "en" and first["lexicon"] == "en"
    capsys.readouterr()
    assert main(["simulate", "--game", "crossword", "--games", "2", "--players", "score,score", "--joker-retrieval", "free"]) == 2
    assert "--joker-retrieval is a rule flag of rummikub" in capsys.readouterr().err
