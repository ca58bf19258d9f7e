"""``kubasolve docs``: the shipped documentation, readable by pip users without the source tree."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kubasolve.cli.docs import docs_dir, topics
from kubasolve.cli.main import main

Capsys = pytest.CaptureFixture[str]


def test_lists_every_shipped_document(capsys: Capsys) -> None:
    assert main(["docs"]) == 0
    out = capsys.readouterr().out
    for name in ("cli", "engine", "kubagram", "rummikub"):
        assert f"\n{name} " in out
    assert main(["docs", "--json"]) == 0
    listed = json.loads(capsys.readouterr().out)["topics"]
    assert {t["topic"] for t in listed} == {p.stem for p in docs_dir().glob("*.md")}
    assert next(t for t in listed if t["topic"] == "cli")["title"] == "The `kubasolve` command line"


def test_prints_a_topic_verbatim(capsys: Capsys) -> None:
    assert main(["docs", "cli"]) == 0
    assert capsys.readouterr().out == (docs_dir() / "cli.md").read_text(encoding="utf-8")
    assert main(["docs", "engine.md", "--path"]) == 0
    assert Path(capsys.readouterr().out.strip()) == topics()["engine"]


def test_unknown_topic_suggests(capsys: Capsys) -> None:
    assert main(["docs", "kubagr"]) == 1
    err = capsys.readouterr().err
    assert "did you mean" in err and "kubagram" in err


def test_a_topic_with_json_is_one_json_document(capsys: Capsys) -> None:
    """``docs cli --json`` printed the Markdown text: not JSON."""
    assert main(["docs", "cli", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["ok"] is True and doc["topic"] == "cli" and doc["title"] == "The `kubasolve` command line"
    assert doc["text"] == (docs_dir() / "cli.md").read_text(encoding="utf-8") and Path(doc["path"]) == topics()["cli"]
    assert main(["docs", "engine.md", "--path", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert Path(doc["path"]) == topics()["engine"] and "text" not in doc


def test_path_without_a_topic_is_the_folder(capsys: Capsys) -> None:
    """``docs --path`` ignored --path and printed the table of topics."""
    assert main(["docs", "--path"]) == 0
    assert Path(capsys.readouterr().out.strip()) == docs_dir()
