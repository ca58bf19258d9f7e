"""``kubasolve lexicon ...``: human and JSON output, exit codes, and no traceback on user errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from kubasolve.cli.main import main

from .conftest import ROMANIAN

Capsys = pytest.CaptureFixture[str]


def run(capsys: Capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def ro_list(tmp_path: Path) -> Path:
    p = tmp_path / "ro-words.txt"
    p.write_text("știință\nțară\nȚări\nmare\nmări\nq-u\nnaïve\n\nmare\n3d\n", encoding="utf-8")
    return p


def test_info_nl_human_and_json(nl: object, capsys: Capsys) -> None:
    code, out, err = run(capsys, "lexicon", "info")
    assert code == 0 and err == ""
    assert "348,507" in out and "1,173,554" in out and "from cache  yes" in out and "skipped no line" in out
    code, out, _ = run(capsys, "lexicon", "info", "nl", "--json")
    info = json.loads(out)
    assert code == 0 and info["ok"] is True
    assert (info["words"], info["trie_nodes"], info["from_cache"], info["skipped"]) == (348_507, 1_173_554, True, 0)
    assert info["compiled_mb"] == round(nl.compiled.nbytes / 1e6, 2) and info["compiled_bytes"] == nl.compiled.nbytes  # type: ignore[attr-defined]
    assert Path(info["cache_dir"]).is_dir()


def test_check_exit_codes_and_normalisation(nl: object, capsys: Capsys) -> None:
    code, out, _ = run(capsys, "lexicon", "check", "kroegentocht", "  Tocht ", "IDEEEN")
    assert code == 0
    assert out.splitlines() == ["kroegentocht: yes", "tocht: yes", "ideeen: yes"]
    code, out, _ = run(capsys, "lexicon", "check", "kroegen", "xyzzyq", "zoë")
    assert code == 1
    assert out.splitlines() == ["kroegen: yes", "xyzzyq: no (not in nl)", "zoë: no (letter 'ë' is not in the alphabet)"]
    code, out, _ = run(capsys, "lexicon", "check", "--json", "Kroegen", "ideeën")
    data = json.loads(out)
    assert code == 1 and data["all_words"] is False
    assert [(r["word"], r["is_word"], r["foreign_letters"]) for r in data["results"]] == [("kroegen", True, ""), ("ideeën", False, "ë")]


def test_prefix_and_suffix(nl: object, capsys: Capsys) -> None:
    code, out, err = run(capsys, "lexicon", "prefix", "Kroegent")
    assert code == 0 and out.split() == ["kroegentocht", "kroegentochten", "kroegentochtje"]
    assert "3 words starting with 'kroegent'" in err
    code, out, err = run(capsys, "lexicon", "prefix", "kroeg", "--limit", "2")
    assert code == 0 and out.split() == ["kroeg", "kroegavond"] and "showing 2" in err
    code, out, _ = run(capsys, "lexicon", "suffix", "gentocht", "--json")
    assert code == 0 and json.loads(out) == {"ok": True, "lexicon": "nl", "suffix": "gentocht", "total": 1, "words": ["kroegentocht"]}
    code, out, _ = run(capsys, "lexicon", "suffix", "tocht", "--json", "--limit", "0")
    data = json.loads(out)
    assert data["total"] == len(data["words"]) > 10 and all(w.endswith("tocht") for w in data["words"])
    assert data["words"] == sorted(data["words"])


def test_build_reports_skips_then_hits_cache(fresh_cache: Path, ro_list: Path, capsys: Capsys) -> None:
    code, out, err = run(capsys, "lexicon", "build", str(ro_list), "--alphabet", ROMANIAN, "--name", "ro")
    assert code == 0
    assert "compiling lexicon 'ro'" in err and "first use, cached afterwards" in err
    assert "lexicon 'ro': 5 words" in out and "compiled in" in out
    assert "read 10 lines, accepted 5 words" in out
    assert "SKIPPED 3 lines: 3 with letters outside the alphabet" in out
    assert "e.g. 'q-u', 'naïve', '3d'" in out and "1 duplicate line merged; 1 blank line ignored" in out
    code, out, err = run(capsys, "lexicon", "build", str(ro_list), "--alphabet", ROMANIAN, "--json")
    data = json.loads(out)
    assert code == 0 and err == ""
    assert data["from_cache"] is True and data["words"] == 5 and data["skipped"] == 3
    assert data["report"]["examples"] == ["q-u", "naïve", "3d"]
    assert Path(data["cache_dir"]).is_relative_to(fresh_cache)
    code, out, _ = run(capsys, "lexicon", "check", "--lexicon", str(ro_list), "--alphabet", ROMANIAN, "ȚĂRI", "știință")
    assert code == 0 and out.splitlines() == ["țări: yes", "știință: yes"]
    code, out, _ = run(capsys, "lexicon", "info", str(ro_list), "--alphabet", ROMANIAN)
    assert code == 0 and "aăâbcdefghiîjklmnopqrsștțuvwxyz (31 letters)" in out


@pytest.mark.parametrize(
    "argv,message",
    [
        (["lexicon", "build", "/no/such/list.txt"], "does not exist"),
        (["lexicon", "info", "xx"], "no bundled lexicon 'xx'"),
        (["lexicon", "check", "--lexicon", "nope.txt", "kat"], "does not exist"),
        (["lexicon", "build", "nl", "--alphabet", "aab"], "repeats"),
        (["lexicon", "make-nl", "/no/such/dutch"], "does not exist"),
    ],
)
def test_user_errors_are_one_line(capsys: Capsys, argv: list[str], message: str) -> None:
    code, out, err = run(capsys, *argv)
    assert code == 1 and out == ""
    assert err.startswith("kubasolve: error: ") and message in err and err.count("\n") == 1
    assert "Traceback" not in err
    code, out, err = run(capsys, *argv, "--json")
    assert code == 1 and err == ""
    data = json.loads(out)
    assert data["ok"] is False and message in data["error"]["message"] and data["error"]["code"] == "bad-lexicon"


@pytest.mark.parametrize("limit", ["-1", "５", "2.5"])
def test_bad_limit_is_a_usage_error(capsys: Capsys, limit: str) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["lexicon", "prefix", "a", "--limit", limit])
    out, err = capsys.readouterr()
    assert exc.value.code == 2 and out == "" and "--limit" in err and "Traceback" not in err


def test_bad_inputs_through_build(tmp_path: Path, capsys: Capsys) -> None:
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("kat\ncafé\n".encode("latin-1"))
    empty = tmp_path / "empty.txt"
    empty.write_text("\n\n")
    for path, message in [(latin1, "not UTF-8: byte 0xe9 on line 2"), (empty, "no usable word"), (tmp_path, "is a directory")]:
        code, _, err = run(capsys, "lexicon", "build", str(path))
        assert code == 1 and message in err and "Traceback" not in err


def test_make_nl_from_a_small_source(tmp_path: Path, capsys: Capsys) -> None:
    source = tmp_path / "dutch"
    source.write_text("ideeën\ncafé\nAmsterdam\ne-mail\nzo'n\ntocht\n", encoding="utf-8")
    out_file = tmp_path / "out" / "nl.txt.xz"
    code, out, err = run(capsys, "lexicon", "make-nl", str(source), "-o", str(out_file))
    assert code == 1 and "does not exist" in err and not out_file.parent.exists()  # never created silently
    code, out, err = run(capsys, "lexicon", "make-nl", str(source), "-o", str(tmp_path))
    assert code == 1 and "is a folder" in err and "Traceback" not in err
    out_file.parent.mkdir()
    code, out, _ = run(capsys, "lexicon", "make-nl", str(source), "-o", str(out_file))
    assert code == 0 and "6 lines" in out and "3 game words" in out
    from kubasolve.lexicon.wordlist import read_text

    assert read_text(out_file).splitlines() == ["cafe", "ideeen", "tocht"]
    code, out, _ = run(capsys, "lexicon", "make-nl", str(source), "-o", str(out_file), "--json")
    data = json.loads(out)
    assert code == 0 and data["unchanged"] is True and data["words"] == 3
    source.write_text("Amsterdam\nAOW\n", encoding="utf-8")
    code, _, err = run(capsys, "lexicon", "make-nl", str(source), "-o", str(out_file))
    assert code == 1 and "no game word" in err


def test_real_process_shows_no_traceback(tmp_path: Path) -> None:
    env = {**os.environ, "KUBASOLVE_CACHE_DIR": str(tmp_path)}
    proc = subprocess.run([sys.executable, "-m", "kubasolve", "lexicon", "check", "--lexicon", str(tmp_path / "x.txt"), "kat"], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 1
    assert proc.stderr.strip() == f"kubasolve: error: word list {str(tmp_path / 'x.txt')!r} does not exist"


def test_measure_prints_numbers_against_targets(monkeypatch: pytest.MonkeyPatch, capsys: Capsys) -> None:
    import kubasolve.bench.lexicon_scenarios as scen

    fake = {
        "words": 348_507, "cold_build_s_numba_cold": 4.5, "cold_build_s_numba_warm": 3.1, "warm_load_ms": 3.2,
        "lexicon_rss_mb": 2.5, "lexicon_rss_mb_touched": 41.3, "process_rss_mb_before": 34.0,
        "process_rss_mb_touched": 75.3, "warm_load_imports_numba": False,
    }
    monkeypatch.setattr(scen, "measure_cold_and_memory", lambda: fake)
    code, out, _ = run(capsys, "lexicon", "measure")
    assert code == 0
    assert "cold build, numba cache empty       4.50 s  <= 30 s" in out and "41.3 MB  <= 150 MB" in out and "3.2 ms  <= 100 ms" in out
    code, out, _ = run(capsys, "lexicon", "measure", "--json")
    assert json.loads(out) == {"ok": True, "targets": scen.TARGETS, **fake}


def test_first_use_notice_promises_no_cache_it_cannot_write(tmp_path: Path, ro_list: Path, capsys: Capsys,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """``KUBASOLVE_CACHE_DIR`` naming a regular file (unusable even as root): the notice said "(first use, cached
    afterwards)" and a warning then said nothing was cached; now the notice says so itself."""
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("KUBASOLVE_CACHE_DIR", str(blocker))
    code, out, err = run(capsys, "lexicon", "build", str(ro_list), "--alphabet", ROMANIAN, "--name", "ro")
    assert code == 0 and "lexicon 'ro': 5 words" in out
    assert "cached afterwards" not in err
    assert f"kept in memory for this run only: the cache folder {blocker / 'lexicons'} is not usable" in err
