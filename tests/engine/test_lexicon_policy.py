"""The engine serves only bundled lexicons and the lists its operator named (docs/engine.md, "Lexicons"): a
request's ``lexicon`` never opens a file, and no answer quotes a file's contents."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from kubasolve.engine import lexicons
from kubasolve.engine.registry import Session
from kubasolve.engine.server import handle_request, load_handlers

load_handlers()
SECRET = "DB_PASSWORD=s3cr3t-Pa55\nAPI_KEY=abc\n"


def _engine(cwd: Path, lines: list[dict], *flags: str) -> tuple[list[dict], str]:
    """Run ``kubasolve engine`` in ``cwd`` on ``lines``: (answers, stderr)."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run([sys.executable, "-m", "kubasolve", "engine", *flags], cwd=cwd, env=env, capture_output=True,
                          input="".join(json.dumps(x) + "\n" for x in lines), text=True, timeout=300)
    return [json.loads(line) for line in done.stdout.splitlines()], done.stderr


@pytest.fixture
def restore() -> Iterator[None]:
    yield
    lexicons.configure()


def test_a_secret_file_beside_the_engine_is_never_read_nor_quoted(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(SECRET)
    (tmp_path / "words.txt").write_text("zebra\nqqqxyz\n")
    position = {"field": "qqqxyzzebra"}
    asks = [{"id": i, "cmd": "kubagram.best-words", "params": {"position": position, "lexicon": name}}
            for i, name in enumerate([".env", "words.txt", "words", "./.env", "..", "nl"])]
    asks.append({"id": 9, "cmd": "crossword.moves", "params": {"board": ["." * 15] * 15, "rack": "ZEBRA", "lexicon": ".env"}})
    answers, _ = _engine(tmp_path, asks)
    for answer in answers[:5] + answers[6:]:
        text = json.dumps(answer)
        assert answer["ok"] is False and "s3cr3t" not in text and "API_KEY" not in text and "qqqxyz" not in text, text
        assert answer["error"]["key"] == "params.lexicon"
        assert answer["error"]["code"] in ("bad-lexicon", "bad-request")
    assert answers[5]["ok"] is True  # the bundled lexicon is served
    assert "qqqxyz" not in {w["word"] for w in answers[5]["result"]["words"]}


def test_lists_the_operator_named_are_served_and_a_broken_one_is_not_quoted(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(SECRET)
    folder = tmp_path / "lists"
    folder.mkdir()
    (folder / "mine.txt").write_text("zebra\nqqqxyz\n")
    field = {"field": "qqqxyz"}
    answers, stderr = _engine(tmp_path, [
        {"id": 1, "cmd": "hello"},
        {"id": 2, "cmd": "kubagram.best-words", "params": {"position": field, "lexicon": "mine"}},
        {"id": 3, "cmd": "kubagram.best-words", "params": {"position": field, "lexicon": "env"}},
        {"id": 4, "cmd": "kubagram.best-words", "params": {"position": field, "lexicon": "mine.txt"}},
    ], "--lexicon-dir", "lists", "--lexicon", "env=.env")
    hello, mine, env, path = answers
    assert {"mine", "env", "nl"} <= set(hello["result"]["lexicons"])
    assert [w["word"] for w in mine["result"]["words"]] == ["qqqxyz"]
    assert env["error"] == {"code": "bad-lexicon", "message": "lexicon 'env' cannot be loaded (the engine's stderr says why)",
                            "key": "params.lexicon"}
    assert "s3cr3t" in stderr  # the operator sees why, on stderr; the request's sender never does
    assert path["error"]["code"] == "bad-lexicon"


@pytest.mark.parametrize("flags", [["--lexicon", "nl=x.txt"], ["--lexicon", "x"], ["--lexicon", "a=missing.txt"],
                                   ["--lexicon-dir", "nowhere"], ["--lexicon", "a/b=x.txt"]])
def test_bad_engine_flags_are_usage_errors(tmp_path: Path, flags: list[str]) -> None:
    (tmp_path / "x.txt").write_text("zebra\n")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run([sys.executable, "-m", "kubasolve", "engine", *flags], cwd=tmp_path, env=env, input="",
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr


def test_every_lexicon_parameter_goes_through_the_policy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, restore: None) -> None:
    """In-process: every command with a ``lexicon`` parameter refuses a path, names the key and reads no file."""
    from kubasolve.engine.registry import COMMANDS

    monkeypatch.chdir(tmp_path)
    (tmp_path / "list.txt").write_text("zebra\n")
    takes = sorted(name for name, c in COMMANDS.items() if "lexicon" in c.params.__struct_fields__)
    assert {"kubagram.best-words", "crossword.moves", "crossword.new-game", "colonii.moves", "scruble.best", "scruble.new-game"} <= set(takes)
    cube = handle_request('{"cmd": "scruble.scramble"}', Session())["result"]["state"]
    minimal: dict[str, dict[str, object]] = {"kubagram.best-words": {"position": {"field": "zebra"}}, "kubagram.compounds": {"position": {"field": "zebra"}},
               "kubagram.best-move": {"position": {"field": "zebra"}}, "crossword.moves": {"board": ["." * 15] * 15, "rack": "ZEBRA"},
               "colonii.moves": {"hand": "abc"}, "colonii.best-turn": {"hand": "abc"}, "scruble.best": {"state": cube},
               "new-game": {"game": "crossword"}, "simulate": {"game": "crossword"}}
    for name in takes:
        params = {**minimal.get(name, {}), "lexicon": "list.txt"}
        answer = handle_request(json.dumps({"id": 1, "cmd": name, "params": params}), Session())
        assert answer["ok"] is False and answer["error"]["code"] == "bad-lexicon" and answer["error"]["key"] == "params.lexicon", (name, answer)
    # a saved state names its lexicon too: the same policy, keyed where the name was
    saved = handle_request(json.dumps({"id": 1, "cmd": "new-game", "params": {"game": "crossword"}}), session := Session())
    state = handle_request(json.dumps({"id": 2, "cmd": "state", "params": {"game_id": saved["result"]["game_id"]}}), session)
    forged = {**state["result"]["state"], "lexicon": "list.txt"}
    answer = handle_request(json.dumps({"id": 3, "cmd": "new-game", "params": {"game": "crossword", "state": forged}}), session)
    assert answer["error"]["code"] == "bad-lexicon" and answer["error"]["key"] == "params.state.lexicon", answer
    lexicons.configure({"small": tmp_path / "list.txt"})
    answer = handle_request(json.dumps({"id": 1, "cmd": "kubagram.best-words",
                                        "params": {"position": {"field": "zebra"}, "lexicon": "small"}}), Session())
    assert [w["word"] for w in answer["result"]["words"]] == ["zebra"]


def test_an_operators_list_is_read_in_the_letters_of_the_game_that_asks(tmp_path: Path, restore: None) -> None:
    """``kubasolve engine --lexicon myro=ro.txt`` read every named list with the letters a-z, whatever the game: a
    Word colonies request naming it was ``bad-rules`` ("the rules' alphabet ... differs from the lexicon's"), while
    ``colonii best --lexicon ro.txt`` worked. The list is now read in the alphabet of the game that asks (the rules'
    alphabet, as the CLI and the library read a word-list file for that game)."""
    (tmp_path / "ro.txt").write_text("știință\nțară\ncal\nziar\ncalorifer\nrânjet\nmăr\n", encoding="utf-8")
    lexicons.configure({"myro": tmp_path / "ro.txt"})
    table = [{"words": ["cal"], "owner": 1, "stake": 4}]
    best = handle_request(json.dumps({"id": 1, "cmd": "colonii.best-turn",
                                      "params": {"hand": "oriferțară", "table": table, "lexicon": "myro"}}), Session())
    assert best["ok"] is True, best
    assert {m["word"] for m in best["result"]["moves"]} >= {"calorifer"}
    session = Session()
    started = handle_request(json.dumps({"id": 2, "cmd": "new-game", "params": {"game": "colonii", "lexicon": "myro", "seed": 3}}),
                             session)
    assert started["ok"] is True, started
    moves = handle_request(json.dumps({"id": 3, "cmd": "legal-moves", "params": {"game_id": started["result"]["game_id"]}}), session)
    assert moves["ok"] is True, moves


def test_a_bad_flag_is_named_for_what_it_is(tmp_path: Path, restore: None) -> None:
    """``--lexicon-dir FILE`` said the folder "does not exist" though the file does; ``--lexicon NAME=FOLDER`` said "no
    word-list file". Each message now says what is wrong with the path given."""
    (tmp_path / "words.txt").write_text("zebra\n")
    with pytest.raises(lexicons.LexiconError, match=r"'.*words\.txt' is a file, not a folder"):
        lexicons.configure(dirs=[tmp_path / "words.txt"])
    with pytest.raises(lexicons.LexiconError, match="is a folder, not a word-list file"):
        lexicons.configure({"mine": tmp_path})
    with pytest.raises(lexicons.LexiconError, match=r"'.*nowhere' does not exist"):
        lexicons.configure(dirs=[tmp_path / "nowhere"])


def test_scruble_v2_resume_reads_an_operators_list_in_the_pegs_letters(tmp_path: Path, restore: None) -> None:
    """``scruble.new-game`` given a saved ``state`` read an operator's list in a-z, whatever the state's pegs: a Spanish
    game whose history holds a word with ñ (played with that very list) was refused on resume (``bad-lexicon``: no
    usable word; with some a-z words in the list, the replay found the ñ word "not a word"). The list is now read in the
    pegs' letters, as ``scruble.best`` and the session games read it."""
    from kubasolve.lexicon import load_lexicon

    words = [w for w in load_lexicon("es").words_with_prefix("") if "ñ" in w]
    (tmp_path / "enie.txt").write_text("\n".join(words) + "\n", encoding="utf-8")
    lexicons.configure({"enie": tmp_path / "enie.txt"})
    session = Session()

    def ask(cmd: str, **params: object) -> dict:
        return handle_request(json.dumps({"id": 1, "cmd": cmd, "params": params}), session)

    for seed in range(20):  # a game whose first (greedy) turn lays a word
        started = ask("scruble.new-game", seed=seed, rules={"pegs": "es"}, lexicon="enie")
        assert started["ok"] is True, started
        played = ask("scruble.ai-move", game=started["result"]["game"], ai="greedy", state=False)
        assert played["ok"] is True, played
        if played["result"]["played"].get("word"):
            break
    assert "ñ" in played["result"]["played"]["word"]
    saved = ask("scruble.state", game=started["result"]["game"])["result"]["state"]
    resumed = ask("scruble.new-game", state=saved, lexicon="enie")
    assert resumed["ok"] is True, resumed
    assert resumed["result"]["state"] == saved
    # the state's rules are read first: a bad one is refused by name, as new-game (v3) refuses it
    refused = ask("scruble.new-game", state={**saved, "rules": {"min_length": "xx"}}, lexicon="enie")
    assert refused["error"]["code"] == "bad-state" and refused["error"]["key"] == "params.state.rules", refused


def test_a_saved_state_names_neither_a_rules_file_nor_its_lists_file(tmp_path: Path, restore: None) -> None:
    """``new-game`` given a saved ``state`` read a rules file the state's ``rules`` named as a path (and quoted its
    setting names: "unknown Rummikub rule setting(s) board_size"); and a game played with an operator's list saved
    the list's file name as its lexicon ("secretwords"), so its own state did not resume ("no lexicon
    'secretwords'"). The rules of a saved state are a JSON object, and an operator's list is named by the name it is
    served as."""
    (tmp_path / "r.toml").write_text("board_size = 99\n", encoding="utf-8")
    (tmp_path / "secretwords.txt").write_text("zebra\nquartz\n", encoding="utf-8")
    lexicons.configure({"mine": tmp_path / "secretwords.txt"})
    session = Session()

    def ask(cmd: str, **params: object) -> dict:
        return handle_request(json.dumps({"id": 1, "cmd": cmd, "params": params}), session)

    started = ask("new-game", game="rummikub")
    saved = ask("state", game_id=started["result"]["game_id"])["result"]["state"]
    for rules in (str(tmp_path / "r.toml"), "min_first_meld = 1"):
        refused = ask("new-game", game="rummikub", state={**saved, "rules": rules})
        assert refused["error"]["code"] == "bad-state" and refused["error"]["key"] == "params.state.rules", refused
        assert "board_size" not in json.dumps(refused)
    started = ask("new-game", game="crossword", lexicon="mine")
    saved = ask("state", game_id=started["result"]["game_id"])["result"]["state"]
    assert saved["lexicon"] == "mine"
    resumed = ask("new-game", game="crossword", state=saved)
    assert resumed["ok"] is True, resumed


def test_no_rule_setting_nor_saved_text_makes_the_engine_open_a_file(tmp_path: Path, restore: None) -> None:
    """A saved state's crossword ``tiles``/``layout`` or Scruble ``pegs`` naming a file made ``new-game`` (and the v2
    ``crossword.new-game``/``scruble.new-game``) read it ("board layout file '/etc/hostname' is not valid TOML"); and
    ``saved_text`` holding a state whose ``lexicon`` was a path made the engine play with that file's words. Those
    settings take a bundled name (or a table), and a state in ``saved_text`` is read as ``state`` is."""
    (tmp_path / "x.toml").write_text("[counts]\nA = 1\n", encoding="utf-8")
    (tmp_path / "words.txt").write_text("zebra\n", encoding="utf-8")
    session = Session()

    def ask(cmd: str, **params: object) -> dict:
        return handle_request(json.dumps({"id": 1, "cmd": cmd, "params": params}), session)

    path = str(tmp_path / "x.toml")
    for game, setting in (("crossword", "tiles"), ("crossword", "layout"), ("scruble", "pegs")):
        started = ask("new-game", game=game)
        saved = ask("state", game_id=started["result"]["game_id"])["result"]["state"]
        forged = {**saved, "rules": {**saved["rules"], setting: path}}
        for cmd, params, key in (("new-game", {"game": game, "state": forged}, f"params.state.rules.{setting}"),
                                 ("new-game", {"game": game, "saved_text": json.dumps(forged)}, f"params.saved_text.state.rules.{setting}")):
            answer = ask(cmd, **params)
            assert answer["error"]["code"] == "bad-state" and answer["error"]["key"] == key, answer
        v2 = ask(f"{game}.new-game", seed=1)
        native = ask(f"{game}.state", game=v2["result"]["game"])["result"]["state"]
        forged_native = {**native, "rules": {**native.get("rules", {}), setting: path}}
        answer = ask(f"{game}.new-game", state=forged_native)
        assert answer["error"]["code"] == "bad-state" and answer["error"]["key"] == f"params.state.rules.{setting}", answer
        answer = ask("new-game", game=game, saved_text=json.dumps(forged_native))  # the game's own saved JSON
        assert answer["error"]["code"] == "bad-state" and answer["error"]["key"] == f"params.saved_text.rules.{setting}", answer
        assert ask("new-game", game=game, saved_text=json.dumps(saved))["ok"] is True  # a bundled name is served
    started = ask("new-game", game="crossword")
    saved = ask("state", game_id=started["result"]["game_id"])["result"]["state"]
    answer = ask("new-game", game="crossword", saved_text=json.dumps({**saved, "lexicon": str(tmp_path / "words.txt")}))
    assert answer["error"]["code"] == "bad-lexicon" and answer["error"]["key"] == "params.saved_text.state.lexicon", answer
