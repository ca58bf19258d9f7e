"""GCG and CGP files written by other programs, through the CLI and the engine (issues 22 and 23)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from kubasolve.cli.main import main
from kubasolve.engine.registry import Session
from kubasolve.engine.server import handle_request

GCG_DIR = Path(__file__).parent / "data" / "gcg"
EMPTY = "/".join(["15"] * 15)


def ask(session: Session, cmd: str, **params: Any) -> dict[str, Any]:
    return handle_request(json.dumps({"id": 1, "cmd": cmd, "params": params}), session)


def test_cli_moves_analyses_the_end_of_a_gcg_game(capsys: pytest.CaptureFixture[str]) -> None:
    """The position at the end of a Woogles-style file, the rack of its #rack1 (the player to move)."""
    assert main(["crossword", "moves", "--board", str(GCG_DIR / "woogles_unfinished.gcg"), "--top", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["moves"][0]["notation"] == "O12 FTE" and out["max_score"] == 45


def test_cli_endgame_of_a_gcg_game_uses_both_racks(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["crossword", "endgame", "--board", str(GCG_DIR / "woogles_unfinished.gcg"), "--nodes", "2000", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["racks"] == ["AAEFJTU", "AFNOQ"] and out["nodes"] <= 2000 + 100
    assert main(["crossword", "endgame", "--board", str(GCG_DIR / "macondo_notes.gcg")]) == 1
    assert "the GCG game is over" in capsys.readouterr().err


def test_cli_play_continues_a_gcg_game(tmp_path: Path) -> None:
    from kubasolve.cli.main import build_parser

    gcg = str(GCG_DIR / "woogles_unfinished.gcg")
    for flag in ("--resume", "--gcg"):  # --gcg: the older name
        args = build_parser().parse_args(["crossword", "play", flag, gcg, "--players", "human,score", "--no-board"])
        out = io.StringIO()
        assert args.func(args, stdin=io.StringIO("O12 FTE\nq\n"), out=out) == 0
        text = out.getvalue()
        assert f"resumed from {gcg}: anna, bram" in text and "ok  (anna +45)" in text
        assert "bram: " in text  # the AI answered from the file's position


def test_cli_refuses_huge_runs_and_unknown_lexicons_clearly(capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 23: a row of three billion empty squares is one clear error (exit 1), no traceback, no allocation."""
    huge = "2999999999/" + "/".join(["15"] * 14) + " AB/ 0/0 0"
    assert main(["crossword", "moves", "--board", huge]) == 1
    err = capsys.readouterr().err
    assert "CGP board row 1 ('2999999999') describes more than the board's 15 squares" in err and "Traceback" not in err
    assert main(["crossword", "endgame", "--board", huge]) == 1
    assert "CGP board row 1" in capsys.readouterr().err
    nwl = EMPTY + " AEINRST/ 0/0 0 lex NWL18;"
    assert main(["crossword", "moves", "--board", nwl]) == 1
    assert "CGP lex 'NWL18': kubasolve has no such lexicon" in capsys.readouterr().err
    assert main(["crossword", "moves", "--board", nwl, "--lexicon", "en", "--tiles", "en", "--top", "1"]) == 0
    assert "replaced by the lexicon asked for, 'en'" in capsys.readouterr().err


def test_cli_honours_bingo_bonus_and_names_unused_operations(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["crossword", "moves", "--board", EMPTY + " AEINRST/ 0/0 0 bb 35; gid x1; tmr 1000/2000;", "--top", "1", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["max_score"] == 74 - 50 + 35
    assert "CGP operation(s) not used by kubasolve: gid, tmr" in captured.err


def test_engine_moves_bounds_runs_and_honours_operations() -> None:
    session = Session()
    huge = ask(session, "crossword.moves", cgp="2999999999/" + "/".join(["15"] * 14) + " AB/ 0/0 0")
    assert huge["error"]["code"] == "bad-position" and "CGP board row 1" in huge["error"]["message"]
    nwl = ask(session, "crossword.moves", cgp=EMPTY + " AEINRST/ 0/0 0 lex NWL18;")
    assert not nwl["ok"] and "NWL18" in nwl["error"]["message"]
    bb = ask(session, "crossword.moves", cgp=EMPTY + " AEINRST/ 0/0 0 bb 35; lex nl; gid x;", top=1)["result"]
    assert bb["max_score"] == 59 and bb["notices"] == ["CGP operation(s) not used by kubasolve: gid"]
    plain = ask(session, "crossword.moves", cgp=EMPTY + " AEINRST/ 0/0 0", top=1)["result"]
    assert plain["max_score"] == 74 and "notices" not in plain


def _gcg_with_lexicon(name: str) -> str:
    return (GCG_DIR / "woogles_unfinished.gcg").read_text(encoding="utf-8").replace("#lexicon nl", f"#lexicon {name}")


def test_engine_new_game_plays_the_lexicon_the_gcg_names() -> None:
    """A GCG's ``#lexicon`` is played by new-game's saved_text as by the CLI (``endgame --board``: ``1L FA.E`` in
    English, ``1L JA.E`` in Dutch); a ``lexicon`` given too wins with a notice, as ``--lexicon`` does; a name
    kubasolve does not have is refused by name (bad-position, key params.saved_text)."""
    session = Session()

    def best(**params: Any) -> tuple[dict[str, Any], str]:
        game = ask(session, "new-game", game="crossword", **params)["result"]
        move = ask(session, "ai-move", game_id=game["game_id"], max_nodes=2000, apply=False)["result"]
        return game, move["text"]

    game, text = best(saved_text=_gcg_with_lexicon("en"))
    assert text == "1L FA.E" and "notices" not in game
    state = ask(session, "state", game_id=game["game_id"])["result"]["state"]
    assert state["lexicon"] == "en"
    game, text = best(saved_text=_gcg_with_lexicon("EN"))  # the name as the CLI matches it: any case
    assert text == "1L FA.E"
    game, text = best(saved_text=_gcg_with_lexicon("en"), lexicon="nl")
    assert text == "1L JA.E" and game["notices"] == ["the GCG game names lexicon 'en'; playing 'nl' as asked"]
    refused = ask(session, "new-game", game="crossword", saved_text=_gcg_with_lexicon("NWL20"))["error"]
    assert refused["code"] == "bad-position" and refused["key"] == "params.saved_text"
    assert "names lexicon 'NWL20', which kubasolve does not have" in refused["message"]
    game, text = best(saved_text=_gcg_with_lexicon("NWL20"), lexicon="en")
    assert text == "1L FA.E" and game["notices"] == ["the GCG game names lexicon 'NWL20'; playing 'en' as asked"]


def test_cli_play_and_show_of_a_gcg_play_its_lexicon(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    nwl = tmp_path / "nwl.gcg"
    nwl.write_text(_gcg_with_lexicon("NWL20"), encoding="utf-8")
    for argv in (["crossword", "show", str(nwl)], ["crossword", "play", "--resume", str(nwl), "--players", "human,score"]):
        assert main(argv) == 1
        err = capsys.readouterr().err
        assert "names lexicon 'NWL20', which kubasolve does not have" in err and "Traceback" not in err
    assert main(["crossword", "show", str(nwl), "--lexicon", "en"]) == 0
    captured = capsys.readouterr()
    assert "anna" in captured.out and "notice: the GCG game names lexicon 'NWL20'; playing 'en' as asked" in captured.err


def test_a_game_continued_from_a_gcg_saves_and_resumes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``w FILE`` and ``--save`` of a game continued from a GCG file write a state that ``--resume`` and ``show``
    read back (it records the GCG it started from, so its history replays)."""
    from kubasolve.cli.main import build_parser

    gcg = str(GCG_DIR / "woogles_unfinished.gcg")
    typed, saved = tmp_path / "typed.json", tmp_path / "quit.json"
    args = build_parser().parse_args(["crossword", "play", "--resume", gcg, "--players", "human,score", "--no-board",
                                      "--save", str(saved)])
    out = io.StringIO()
    assert args.func(args, stdin=io.StringIO(f"1L JA(D)E\nw {typed}\nq\n"), out=out) == 0
    assert f"game saved to {typed}" in out.getvalue() and f"game saved to {saved}" in out.getvalue()
    assert json.loads(typed.read_text(encoding="utf-8")) == json.loads(saved.read_text(encoding="utf-8"))
    native = json.loads(saved.read_text(encoding="utf-8"))["native"]
    assert native["turn"] == 25 and native["scores"][0] == 444 + 36 and len(native["history"]) == 2
    assert main(["crossword", "show", str(saved)]) == 0
    shown = capsys.readouterr().out
    assert "anna" in shown and "480" in shown
    args = build_parser().parse_args(["crossword", "play", "--resume", str(saved), "--players", "human,score", "--no-board"])
    out = io.StringIO()
    assert args.func(args, stdin=io.StringIO("q\n"), out=out) == 0
    assert f"resumed from {saved}: anna, bram; anna to move" in out.getvalue()


def test_engine_state_of_a_gcg_game_resumes_and_is_checked() -> None:
    """The engine's ``state`` of a saved_text game resumes with new-game ``state`` (engine.md: "the saved state
    (new-game resumes it)"); a state whose recorded GCG start was edited is bad-state naming it."""
    session = Session()
    game = ask(session, "new-game", game="crossword", saved_text=(GCG_DIR / "woogles_unfinished.gcg").read_text(encoding="utf-8"))
    gid = game["result"]["game_id"]
    assert ask(session, "apply-move", game_id=gid, action={"type": "place", "move": "1L JA(D)E"})["ok"]
    saved = ask(session, "state", game_id=gid)["result"]["state"]
    assert "woogles" in saved["native"]["origin"]
    resumed = ask(session, "new-game", game="crossword", state=saved)["result"]
    assert resumed["scores"] == [480, 395] and resumed["turn"] == 24
    again = ask(session, "state", game_id=resumed["game_id"])["result"]["state"]
    assert again == saved
    saved["native"]["origin"] = saved["native"]["origin"].replace("+82 82", "+83 83")
    bad = ask(session, "new-game", game="crossword", state=saved)["error"]
    assert bad["code"] == "bad-state" and bad["key"].startswith("params.state.native") and "origin" in bad["message"]
