"""Audit of the one-client promise (docs/engine.md "Game commands"): what a frontend that knows no game reads from
``games`` and ``schema`` must work as it is in every game, the same way."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from kubasolve.engine.registry import COMMANDS
from kubasolve.errors import IllegalMoveError
from kubasolve.games.protocol import load_game

from .helpers import BUILT_IN, Engine, load_nim

GAMES = (*BUILT_IN, "nim")


@pytest.fixture(scope="module", autouse=True)
def _nim() -> None:
    load_nim()


@pytest.mark.parametrize("name", GAMES)
def test_games_publishes_defaults_that_new_game_takes_back(name: str) -> None:
    """``games``' rule ``defaults`` held settings its own schema refuses (colonii ``alphabet``, crossword ``layout``,
    Scruble ``length_bonus`` and the whole peg table) and left one out (Rummikub ``empty_pool_end``): a settings form
    built from them could not be sent back (``new-game`` answered bad-request ``params.rules.layout``)."""
    ask = Engine()
    listed = {g["game"]: g for g in ask("games")["games"]}[name]["rules"]
    schema, defaults = listed["schema"], listed["defaults"]
    errors = [e.message for e in jsonschema.Draft202012Validator(schema).iter_errors(defaults)]
    assert not errors, errors[:1]
    root = schema["$defs"][schema["$ref"].rsplit("/", 1)[1]] if "$ref" in schema else schema
    assert set(defaults) == set(root.get("properties", {}))
    sent_back = ask("state", game_id=ask("new-game", game=name, seed=4, rules=defaults)["game_id"])["state"]
    default = ask("state", game_id=ask("new-game", game=name, seed=4)["game_id"])["state"]
    assert sent_back == default


@pytest.mark.parametrize("name", BUILT_IN)
def test_an_unreadable_action_is_an_illegal_move_in_every_game(name: str) -> None:
    """Rummikub alone answered an action of an unknown type, or a listed action with a key added, with
    ``bad-position`` (the library: PositionError) where every other game answers ``illegal-move``, as documented."""
    ask = Engine()
    gid = ask("new-game", game=name, seed=2)["game_id"]
    listed = ask("legal-moves", game_id=gid, top=2, max_nodes=20_000)["moves"][0]["action"]
    for action in ({"type": "no-such-action"}, {**listed, "zz_extra": 1}):
        error = ask.raw("apply-move", game_id=gid, action=action)["error"]
        assert error["code"] == "illegal-move", (action, error)
    game = load_game(name)
    state = game.new_game(2)
    with pytest.raises(IllegalMoveError):
        game.apply(state, {"type": "no-such-action"})
    if name == "rummikub":  # a tile that does not exist, in a table of the right shape
        with pytest.raises(IllegalMoveError, match="zz9"):
            game.apply(state, {"type": "play", "table": [["zz9", "r1", "r2"]]})


@pytest.mark.parametrize("name", BUILT_IN)
def test_a_refused_action_names_the_part_at_fault_in_every_game(name: str) -> None:
    """An action of an unknown type, or a listed action with a key added, was refused with the part named only in the
    message: the answer's ``key`` (what a frontend marks in its form) was missing in all five games. Now
    ``params.action.type`` / ``params.action.<the key>`` through the engine, ``action.type`` / ``action.<key>`` in the
    library."""
    ask = Engine()
    gid = ask("new-game", game=name, seed=2)["game_id"]
    listed = ask("legal-moves", game_id=gid, top=2, max_nodes=20_000)["moves"][0]["action"]
    error = ask.raw("apply-move", game_id=gid, action={"type": "no-such-action"})["error"]
    assert (error["code"], error.get("key")) == ("illegal-move", "params.action.type"), error
    error = ask.raw("apply-move", game_id=gid, action={**listed, "zz_extra": 1})["error"]
    assert (error["code"], error.get("key")) == ("illegal-move", "params.action.zz_extra"), error
    game = load_game(name)
    state = game.new_game(2)
    with pytest.raises(IllegalMoveError) as caught:
        game.apply(state, {**listed, "zz_extra": 1})
    assert caught.value.key == "action.zz_extra"


def _top_level(text: str) -> list[str]:
    """``text`` split at the commas and semicolons outside parentheses."""
    pieces, depth, current = [], 0, ""
    for ch in text:
        depth += (ch == "(") - (ch == ")")
        if ch in ",;" and depth == 0:
            pieces.append(current)
            current = ""
        else:
            current += ch
    return [*pieces, current]


def test_every_parameter_the_v3_table_documents_is_in_the_command_schema() -> None:
    """docs/engine.md listed ``options`` among ``legal-moves``' parameters; the engine refused it (``params.options:
    unknown parameter``). Each parameter the table names (outside its parenthesised notes) must be declared."""
    text = (Path(__file__).parents[2] / "docs" / "engine.md").read_text(encoding="utf-8")
    table = text.split("## Game commands (version 3)")[1].split("The **session answer**")[0]
    rows = 0
    for line in table.splitlines():
        row = re.match(r"\| `([a-z-]+)` \| (.*?) \| .* \|$", line)
        if not row:
            continue
        rows += 1
        cmd, params = row.groups()
        documented = {name for piece in _top_level(params) for name in re.findall(r"`([a-z_]+)`", re.sub(r"\(.*", "", piece))}
        schema: dict[str, Any] = COMMANDS[cmd].schema()["params"]
        root = schema["$defs"][schema["$ref"].rsplit("/", 1)[1]] if "$ref" in schema else schema
        assert documented <= set(root.get("properties", {})), (cmd, sorted(documented - set(root.get("properties", {}))))
    assert rows >= 11
