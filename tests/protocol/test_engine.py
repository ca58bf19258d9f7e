"""The game protocol through the engine (issue 21): random games over the v3 session commands, every answer checked
against the result schema its command publishes (jsonschema); every command publishes one and answers to it."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from kubasolve.engine.registry import COMMANDS

from .helpers import BUILT_IN, MAX_ACTIONS, QUICK_RULES, Engine, load_nim

GAMES = (*BUILT_IN, "nim")
SESSION_KEYS = {"game_id", "game", "players", "current", "turn", "scores", "over", "winners"}


@pytest.fixture(scope="module", autouse=True)
def _nim() -> None:
    load_nim()


@pytest.mark.parametrize("name", GAMES)
def test_random_games_through_the_engine(name: str) -> None:
    ask = Engine()
    rules = QUICK_RULES[name]
    started = ask("new-game", game=name, seed=8, players=["ann", "bob"], **({"rules": rules} if rules else {}))
    assert set(started) == SESSION_KEYS and started["players"] == ["ann", "bob"] and started["game"] == name
    gid = started["game_id"]
    rng = random.Random(f"engine:{name}")
    answer = started
    for step in range(MAX_ACTIONS):
        if answer["over"]:
            break
        if step % 4 == 3:
            answer = ask("ai-move", game_id=gid, movetime_ms=200, seed=step)
            assert set(answer) == SESSION_KEYS | {"action", "text", "proven_optimal", "nodes", "details", "applied"}
            continue
        legal = ask("legal-moves", game_id=gid, top=4, movetime_ms=3000)
        assert set(legal) == SESSION_KEYS | {"moves", "count", "complete", "proven_optimal", "nodes"}
        assert {k: legal[k] for k in SESSION_KEYS} == {k: answer[k] for k in SESSION_KEYS}
        answer = ask("apply-move", game_id=gid, action=rng.choice(legal["moves"])["action"], state=step % 10 == 0)
        assert set(answer) == SESSION_KEYS | ({"state"} if step % 10 == 0 else set())
    assert answer["over"] and answer["winners"] and answer["current"] is None, f"{name} did not end"
    final = ask("state", game_id=gid)
    saved = final.pop("state")
    assert final == {k: answer[k] for k in SESSION_KEYS}
    resumed = ask("new-game", game=name, state=saved)
    assert {**resumed, "game_id": gid} == final
    assert ask("state", game_id=resumed["game_id"])["state"] == saved
    assert ask("legal-moves", game_id=gid)["moves"] == []
    assert ask.raw("apply-move", game_id=gid, action={"type": "pass"})["error"]["code"] == "illegal-move"
    assert ask.raw("ai-move", game_id=gid)["error"]["code"] == "illegal-move"
    for fmt in ("text", "svg"):
        drawn = ask("render", game_id=gid, format=fmt)["rendering"]
        assert drawn and (fmt == "text" or drawn.startswith("<svg"))
    assert ask("close-game", game_id=gid) == {"closed": gid}


def test_requests_are_refused_naming_the_key() -> None:
    ask = Engine()
    assert ask.raw("new-game", game="chess")["error"] == {"code": "bad-request", "key": "params.game",
                                                          "message": ask.raw("new-game", game="chess")["error"]["message"]}
    gid = ask("new-game", game="colonii")["game_id"]
    cross = ask("new-game", game="crossword", seed=2)["game_id"]
    cases: list[tuple[str, dict[str, Any], str, str]] = [
        ("ai-move", {"game_id": gid, "ai": "oracle"}, "bad-request", "params.ai"),
        ("ai-move", {"game_id": gid, "options": {"threads": 2}}, "bad-request", "params.options.threads"),  # colonii takes none
        ("ai-move", {"game_id": cross, "options": {"threads": 17}}, "bad-request", "params.options.threads"),
        ("ai-move", {"game_id": cross, "options": {"iterations": "many"}}, "bad-request", "params.options.iterations"),
        ("ai-move", {"game_id": cross, "options": {"depth": 3}}, "bad-request", "params.options.depth"),
        ("ai-move", {"game_id": cross, "ai": "sim2", "options": {"plies": 1}}, "bad-request", "params.options.plies"),
        ("ai-move", {"game_id": cross, "options": "threads=2"}, "bad-request", "params.options"),
        ("ai-move", {"game_id": "g99"}, "unknown-game", "params.game_id"),
        ("legal-moves", {"game_id": gid, "top": 0}, "bad-request", "params.top"),
        ("legal-moves", {"game_id": gid, "movetime_ms": 0}, "bad-request", "params.movetime_ms"),
        ("apply-move", {"game_id": gid, "action": "pass"}, "bad-request", "params.action"),
        ("apply-move", {"game_id": gid}, "bad-request", "params.action"),
        ("new-game", {"game": "crossword", "players": 5}, "bad-request", "params.players"),
        ("new-game", {"game": "crossword", "rules": {"rack_size": 99}}, "bad-request", "params.rules.rack_size"),
        ("new-game", {"game": "crossword", "rules": {"word_check": "maybe"}}, "bad-request", "params.rules.word_check"),
        ("new-game", {"game": "rummikub", "rules": {"numbers": 26, "colours": 8, "jokers": 4, "colour_letters": "abcdefgh"}},
         "limit-exceeded", "params.rules"),
        ("new-game", {"game": "rummikub", "lexicon": "nl"}, "bad-request", "params.lexicon"),
        ("new-game", {"game": "colonii", "seed": 3, "state": {}}, "bad-request", "params.seed"),
        ("new-game", {"game": "colonii", "state": {"format": "kubasolve-state"}}, "bad-state", "params.state.version"),
        ("close-game", {}, "bad-request", "params.game_id"),
        ("render", {"game_id": gid, "format": "png"}, "bad-request", "params.format"),
        ("ready", {"games": ["chess"]}, "bad-request", "params.game"),
    ]
    for cmd, params, code, key in cases:
        error = ask.raw(cmd, **params)["error"]
        assert (error["code"], error.get("key")) == (code, key), (cmd, params, error)
    assert ask("apply-move", game_id=gid, action={"type": "pass"})["turn"] == 2


def test_every_command_publishes_a_result_schema_its_answers_follow() -> None:
    """One valid request per command (v2 aliases and solver commands included): each answer matches its schema."""
    ask = Engine()
    ids = {kind: ask(f"{kind}.new-game")["game"] for kind in BUILT_IN}
    v3 = ask("new-game", game="crossword", seed=1)["game_id"]
    cube = ask("scruble.scramble", seed=2)["state"]
    kubagram_position = {"field": "kroegentoch", "jokers": ["EYGR"], "table": ["kroeg", "tocht"]}
    requests: list[tuple[str, dict[str, Any]]] = [
        ("hello", {}), ("schema", {}), ("games", {}), ("ready", {"games": ["rummikub"]}), ("stop", {}),
        ("legal-moves", {"game_id": v3, "top": 2}), ("ai-move", {"game_id": v3, "ai": "score", "apply": False}),
        ("apply-move", {"game_id": v3, "action": {"type": "pass"}}), ("state", {"game_id": v3}),
        ("render", {"game_id": v3, "format": "svg"}), ("new-game", {"game": "scruble"}),
        ("kubagram.best-words", {"position": kubagram_position, "top": 2}),
        ("kubagram.compounds", {"position": kubagram_position}),
        ("kubagram.best-move", {"position": kubagram_position}),
        ("kubagram.state", {"game": ids["kubagram"]}), ("kubagram.legal-moves", {"game": ids["kubagram"]}),
        ("kubagram.apply-move", {"game": ids["kubagram"], "move": {"type": "take"}, "state": False}),
        ("kubagram.ai-move", {"game": ids["kubagram"], "ai": "greedy"}),
        ("rummikub.solve", {"table": "r1 r2 r3", "rack": "r4 J"}), ("rummikub.solve", {"game": ids["rummikub"]}),
        ("rummikub.state", {"game": ids["rummikub"]}), ("rummikub.ai-move", {"game": ids["rummikub"], "state": False}),
        ("rummikub.apply-move", {"game": ids["rummikub"], "move": {"type": "draw"}}),
        ("rummikub.load-game", {"state": {"seed": 1, "players": ["a", "b"], "moves": [{"type": "draw"}]}}),
        ("rummikub.simulate", {"games": 1, "max_nodes": 10_000}),
        ("simulate", {"game": "rummikub", "games": 1, "max_nodes": 10_000, "records": True}),
        ("crossword.moves", {"board": ["." * 15] * 15, "rack": "EKNOW??", "top": 2}),
        ("crossword.state", {"game": ids["crossword"]}), ("crossword.legal-moves", {"game": ids["crossword"], "top": 2}),
        ("crossword.apply-move", {"game": ids["crossword"], "move": {"type": "pass"}, "state": False}),
        ("crossword.ai-move", {"game": ids["crossword"], "ai": "score"}),
        ("colonii.moves", {"hand": "oriferânjet", "table": [{"words": ["cal"], "owner": 1, "stake": 4}], "top": 2}),
        ("colonii.best-turn", {"hand": "oriferânjet", "table": [{"words": ["cal"], "owner": 1, "stake": 4}]}),
        ("colonii.state", {"game": ids["colonii"]}), ("colonii.legal-moves", {"game": ids["colonii"], "top": 2}),
        ("colonii.apply-move", {"game": ids["colonii"], "move": {"type": "pass"}}),
        ("colonii.ai-move", {"game": ids["colonii"], "ai": "greedy", "state": False}),
        ("scruble.best", {"state": cube, "depth": 1, "top": 2}),
        ("scruble.state", {"game": ids["scruble"]}), ("scruble.legal-moves", {"game": ids["scruble"], "depth": 1, "top": 2}),
        ("scruble.apply-move", {"game": ids["scruble"], "move": {"twists": ["R"]}}),
        ("scruble.ai-move", {"game": ids["scruble"], "ai": "greedy", "apply": False, "state": False}),
        ("close-game", {"game": ids["crossword"]}), ("quit", {}),
    ]
    for cmd, params in requests:
        ask(cmd, **params)
    answered = set(ask.calls)
    missing = sorted(set(COMMANDS) - answered)
    assert not missing, f"commands without a checked answer here: {missing}"
    schema = ask("schema")["commands"]
    assert all("result" in entry for entry in schema.values()), [name for name, e in schema.items() if "result" not in e]
    assert "``" not in json.dumps({name: e["summary"] for name, e in schema.items()})  # no reStructuredText in summaries


def test_games_lists_what_a_frontend_needs() -> None:
    ask = Engine()
    listed = {g["game"]: g for g in ask("games")["games"]}
    assert set(BUILT_IN) | {"nim"} <= set(listed)
    assert listed["crossword"]["min_players"] == 2 and listed["crossword"]["ais"] == ["score", "equity", "sim", "equity2", "sim2"]
    assert listed["rummikub"]["lexicons"] == [] and listed["rummikub"]["default_lexicon"] is None
    assert listed["colonii"]["rules"]["defaults"]["hand_size"] > 0
    props = listed["crossword"]["rules"]["schema"]["$defs"]["CrosswordRulesSpec"]["properties"]
    assert props["rack_size"]["maximum"] == 15 and sorted(props["word_check"]["enum"]) == ["challenge", "referee"]
    ai_props = listed["crossword"]["ai_options"]["schema"]["$defs"]["CrosswordAiOptions"]["properties"]
    assert set(ai_props) == {"iterations", "candidates", "objective", "plies", "endgame", "threads"}
    assert ai_props["threads"]["maximum"] == 16 and ai_props["iterations"]["maximum"] == 1000
    assert listed["colonii"]["ai_options"]["schema"]["$defs"]["NoAiOptions"]["properties"] == {}
    ready = ask("ready", games=["nim", "rummikub"])
    assert ready["ready"] and ready["warmed"] == ["nim", "rummikub"]


def test_new_game_continues_a_gcg_file_from_another_program() -> None:
    """Issue 22: "a GCG can be turned into a board but not loaded as a game state to continue or analyse". The
    engine's new-game takes a saved file's text (``saved_text``): a Woogles/Macondo GCG continues with its
    players' nicknames and scores, and the AI moves in it; a text that is no saved game is bad-state."""
    from pathlib import Path

    gcg = (Path(__file__).parents[1] / "crossword" / "data" / "gcg" / "woogles_unfinished.gcg").read_text(encoding="utf-8")
    ask = Engine()
    game = ask("new-game", game="crossword", saved_text=gcg)
    assert game["players"] == ["anna", "bram"] and game["scores"] == [444, 395] and not game["over"]
    moved = ask("ai-move", game_id=game["game_id"], max_nodes=2000)
    assert moved["turn"] == game["turn"] + 1 and moved["scores"] != game["scores"]
    assert ask.raw("new-game", game="crossword", saved_text="hello")["error"]["key"] == "params.saved_text"
    assert ask.raw("new-game", game="crossword", saved_text=gcg, seed=1)["error"]["key"] == "params.seed"
    assert ask.raw("new-game", game="rummikub", saved_text="{}")["error"]["code"] == "bad-state"
