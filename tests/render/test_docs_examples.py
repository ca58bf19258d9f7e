"""The examples of each game's "Showing a game: text and SVG" section (docs/<game>.md) run as written:
the Python block in a scratch folder, then every ``kubasolve`` line of the shell block through the CLI."""

from __future__ import annotations

import re
import shlex
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from kubasolve.cli.docs import docs_dir
from kubasolve.cli.main import main
from tests.render.helpers import SVG_NS

SECTION = "## Showing a game: text and SVG"
DOCS = {"crossword": "crossword.md", "kubagram": "kubagram_game.md", "colonii": "colonii.md", "rummikub": "rummikub.md",
        "scruble": "scruble.md"}


def section_blocks(doc: str) -> list[tuple[str, str]]:
    """(language, code) of every fenced block in ``doc``'s showing section."""
    text = (docs_dir() / doc).read_text(encoding="utf-8")
    assert SECTION in text, f"{doc} has no {SECTION!r} section"
    section = text.split(SECTION, 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```(\w+)\n(.*?)```", section, re.DOTALL)


@pytest.mark.parametrize("game", DOCS)
def test_show_section_examples_run(game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                   capsys: pytest.CaptureFixture[str]) -> None:
    blocks = section_blocks(DOCS[game])
    assert [lang for lang, _ in blocks] == ["python", "sh"]
    title = game.capitalize()
    monkeypatch.chdir(tmp_path)
    exec(compile(blocks[0][1], f"docs/{DOCS[game]}", "exec"), {"__name__": "__doc_example__"})
    assert capsys.readouterr().out.startswith(f"{title} | turn ")
    saved = sorted(p.name for p in tmp_path.glob("*.json"))
    assert saved == [f"{game}.json"]
    lines = [ln for ln in blocks[1][1].splitlines() if ln.strip()]
    assert lines and any("--svg" in ln for ln in lines)
    for line in lines:
        command, _, redirect = line.partition(" > ")
        argv = shlex.split(command, comments=True)
        assert argv[0] == "kubasolve", line
        assert main(argv[1:]) == 0, line
        out = capsys.readouterr().out
        if redirect:
            (tmp_path / redirect.strip()).write_text(out, encoding="utf-8")
        if "--svg" in argv:
            after = argv[argv.index("--svg") + 1:]
            picture = out if redirect or not after or after[0].startswith("-") else (tmp_path / after[0]).read_text(encoding="utf-8")
            assert ET.fromstring(picture).tag == f"{SVG_NS}svg", line
        else:
            assert out.startswith(f"{title} | turn "), line
