"""Shared by the protocol contract tests: quick rule settings, the test game, a schema-validating engine client."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema

from kubasolve.engine.registry import COMMANDS, Session
from kubasolve.engine.server import handle_request
from kubasolve.games.protocol import import_game_modules

NIM = str(Path(__file__).with_name("nim_game.py"))
"""The sixth game: a module outside the package that registers ``nim`` (see nim_game.py)."""
BUILT_IN = ("colonii", "crossword", "kubagram", "rummikub", "scruble")
QUICK_RULES: dict[str, dict[str, Any] | None] = {
    "colonii": {"target_score": 40},
    "crossword": None,
    "kubagram": None,
    "rummikub": None,
    "scruble": {"rounds": 2, "max_twists": 1},
    "nim": {"stones": 9},
}
"""Rule settings that keep random games short (still real games that end by the rules)."""
MAX_ACTIONS = 600
"""A random game of any of them ends well before (kubagram, the longest: about 250 actions)."""


def load_nim() -> None:
    """Register the test game (once per process)."""
    import_game_modules([NIM])


_VALIDATORS: dict[str, Any] = {}


def check_result(cmd: str, result: Any) -> None:
    """Validate a command's result against the JSON Schema it publishes (``schema``), with jsonschema."""
    validator = _VALIDATORS.get(cmd)
    if validator is None:
        schema = COMMANDS[cmd].schema()
        assert "result" in schema, f"{cmd} publishes no result schema"
        jsonschema.Draft202012Validator.check_schema(schema["result"])
        validator = _VALIDATORS[cmd] = jsonschema.Draft202012Validator(schema["result"])
    errors = sorted(validator.iter_errors(result), key=str)
    assert not errors, f"{cmd}: {errors[0].message} at {list(errors[0].absolute_path)}"


class Engine:
    """An in-process engine session whose every answer is checked: one answer object, the id echoed, a result
    that matches its published schema."""

    def __init__(self) -> None:
        self.session = Session()
        self.calls: list[str] = []

    def raw(self, cmd: str, **params: Any) -> dict[str, Any]:
        answer = handle_request(json.dumps({"id": 9, "cmd": cmd, "params": params}), self.session)
        assert answer["id"] == 9
        json.dumps(answer, allow_nan=False)
        if answer["ok"]:
            check_result(cmd, answer["result"])
            self.calls.append(cmd)
        else:
            assert set(answer["error"]) <= {"code", "message", "key"} and answer["error"]["code"] != "internal", answer
        return answer

    def __call__(self, cmd: str, **params: Any) -> dict[str, Any]:
        answer = self.raw(cmd, **params)
        assert answer["ok"], (cmd, params, answer)
        result: dict[str, Any] = answer["result"]
        return result
