"""``kubasolve GAME show FILE [--svg [PATH]] [--names ...]`` for every game, with docs/cli.md's conventions:
data only on stdout, exit 0 / 1 (a bad file) / 2 (usage), one clear line for an error."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from kubasolve.cli.main import main
from tests.render.helpers import DATA, SVG_NS, state_data

Capsys = pytest.CaptureFixture[str]
GAMES = ("crossword", "kubagram", "colonii", "rummikub", "scruble")


@pytest.mark.parametrize("game", GAMES)
def test_show_prints_text_by_default_and_svg_on_request(game: str, capsys: Capsys, tmp_path: Path) -> None:
    path = str(DATA / f"{game}.json")
    assert main([game, "show", path]) == 0
    out, err = capsys.readouterr()
    assert out.startswith(f"{game.capitalize()} | turn ") and err == ""
    assert main([game, "show", path, "--svg"]) == 0
    out, err = capsys.readouterr()
    assert ET.fromstring(out).tag == f"{SVG_NS}svg" and err == ""
    target = tmp_path / "picture.svg"
    assert main([game, "show", path, "--svg", str(target)]) == 0
    out, err = capsys.readouterr()
    assert out == "" and f"wrote {target}" in err
    assert ET.fromstring(target.read_text(encoding="utf-8")).tag == f"{SVG_NS}svg"


@pytest.mark.parametrize("game", GAMES)
def test_show_names_the_seats(game: str, capsys: Capsys) -> None:
    path = str(DATA / f"{game}.json")
    n = 3 if game in ("kubagram", "rummikub") else 2
    names = ",".join(["<Ann & co>", "bob", "cy"][:n])
    assert main([game, "show", path, "--names", names]) == 0
    assert "<Ann & co>" in capsys.readouterr().out.splitlines()[0]
    assert main([game, "show", path, "--svg", "--names", names]) == 0
    assert "&lt;Ann &amp; co&gt;" in capsys.readouterr().out
    assert main([game, "show", path, "--names", "solo"]) == 1
    assert "1 player name for a game of" in capsys.readouterr().err


@pytest.mark.parametrize("game", GAMES)
def test_show_refuses_a_bad_file_with_one_line(game: str, capsys: Capsys, tmp_path: Path) -> None:
    missing = tmp_path / "nothing.json"
    if game != "scruble":  # Scruble's show also takes a cube state: a missing file is read as one
        assert main([game, "show", str(missing)]) == 1
        out, err = capsys.readouterr()
        assert out == "" and err.strip() == f"kubasolve: error: no such file: {missing}"
    broken = tmp_path / "broken.json"
    broken.write_text('{"seed": ', encoding="utf-8")
    assert main([game, "show", str(broken)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and "not valid JSON" in err and len(err.strip().splitlines()) == 1
    other = "rummikub" if game != "rummikub" else "crossword"
    wrong = tmp_path / "wrong.json"
    shutil.copy(DATA / f"{other}.json", wrong)
    assert main([game, "show", str(wrong)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("kubasolve: error: ") and "Traceback" not in err
    edited = state_data(game)
    edited["scores"] = [s + 1 for s in edited["scores"]] if edited.get("scores") else [1] * 3
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(edited), encoding="utf-8")
    assert main([game, "show", str(forged)]) == 1  # the history replayed disagrees
    assert capsys.readouterr().out == ""


def test_show_usage_errors_exit_2(tmp_path: Path, capsys: Capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["crossword", "show"])
    assert exc.value.code == 2
    with pytest.raises(SystemExit) as exc:
        main(["rummikub", "show", str(DATA / "rummikub.json"), "--lexicon", "nl"])  # Rummikub has no words
    assert exc.value.code == 2
    capsys.readouterr()
    assert main(["scruble", "show", str(DATA / "scruble.json"), "--twists", "R"]) == 2
    assert "apply to a cube state" in capsys.readouterr().err
    assert main(["crossword", "show", str(DATA / "crossword.json"), "--svg", str(tmp_path / "no" / "x.svg")]) == 1
    assert "does not exist" in capsys.readouterr().err


def test_kubagram_show_reads_a_play_save_with_its_seats(tmp_path: Path, capsys: Capsys) -> None:
    save = tmp_path / "game.json"
    save.write_text(json.dumps({"format": "kubasolve-kubagram-play-1", "seats": ["human", "planner", "greedy"], "seed": 2,
                                "state": state_data("kubagram")}), encoding="utf-8")
    assert main(["kubagram", "show", str(save)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert "scores: human 115, planner 39, greedy 248" in first  # the older save's seats name the players


def test_scruble_show_of_a_cube_state_numbers_the_cells_in_order(capsys: Capsys) -> None:
    cube = state_data("scruble")["cube"]
    assert main(["scruble", "show", cube, "--cells", "72", "91", "90", "--svg"]) == 0
    out = capsys.readouterr().out
    texts = [el.text for el in ET.fromstring(out).iter(f"{SVG_NS}text")]
    assert "L \u00b7 left" in texts and "B \u00b7 back" in texts
    assert out.count('marker-end="url(#arrow)"') == 3  # L to B over the net's cut edge (two), B to B (one)
    assert main(["scruble", "show", cube]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == cube


def test_scruble_best_lists_the_best_words_cells_in_reading_order(capsys: Capsys) -> None:
    cube = state_data("scruble")["cube"]
    assert main(["scruble", "best", cube, "--depth", "1", "--top", "1", "--json"]) == 0
    best = json.loads(capsys.readouterr().out)["moves"][0]
    assert main(["scruble", "best", cube, "--depth", "1", "--top", "1"]) == 0
    from kubasolve.games.scruble.cube import cell_name

    line = f"reading order: {best['word'].upper()}: " + " ".join(cell_name(c) for c in best["cells"])
    assert line in capsys.readouterr().out.splitlines()


@pytest.mark.parametrize("flag", [["--names", "ann,bob"], ["--lexicon", "es"]])
def test_scruble_show_of_a_cube_state_refuses_the_flags_of_a_saved_game(capsys: Capsys, flag: list[str]) -> None:
    """A bare cube state has no seats and reads no word: ``--names``/``--lexicon`` were taken and ignored; now a usage
    error, as ``--twists``/``--cells``/``--rules`` with a saved game are."""
    cube = state_data("scruble")["cube"]
    assert main(["scruble", "show", cube, *flag]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "--names and --lexicon apply to a saved game, not to a cube state" in err


def test_generic_show_draws_a_bare_scruble_cube_state_as_scruble_show_does(capsys: Capsys) -> None:
    """``kubasolve show --game scruble STATE`` runs Scruble's own show: a bare cube state is drawn (before: "no such
    file", exit 1) with the same flags and the same output; a saved game still draws; a Scruble show flag with another
    game is refused (exit 2)."""
    cube = state_data("scruble")["cube"]
    flags = ["--twists", "R U'", "--cells", "72", "91"]
    assert main(["scruble", "show", cube, *flags]) == 0
    own = capsys.readouterr().out
    assert main(["show", "--game", "scruble", cube, *flags]) == 0
    out, err = capsys.readouterr()
    assert out == own and err == ""
    assert main(["show", "--game", "scruble", str(DATA / "scruble.json")]) == 0
    assert capsys.readouterr().out.startswith("Scruble | turn ")
    assert main(["show", "--game", "scruble", str(DATA / "scruble.json"), "--twists", "R"]) == 2
    assert "apply to a cube state" in capsys.readouterr().err
    assert main(["show", "--game", "crossword", str(DATA / "crossword.json"), "--cells", "1"]) == 2
    assert "--cells is a show flag of scruble, not of crossword" in capsys.readouterr().err
