"""Fuzz the real engine process (``kubasolve engine``, bytes on stdin/stdout): thousands of malformed lines
interleaved with valid requests. Every line gets exactly one answer, strict JSON in valid UTF-8; ids are
echoed whenever the line carries a valid one; nothing is an internal error or a traceback; the valid
requests get their correct answers. Seeded (reproducible) and fast."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from collections.abc import Callable
from typing import Any

SEED = 20261203
LINES = 3000
ID_ECHOED, ID_NULL_OR_ECHOED = "echoed", "null-or-echoed"

KUBAGRAM_POS = {"field": "kroegentoch", "jokers": ["EYGR"]}
VALID: list[tuple[str, dict[str, Any], Callable[[dict[str, Any]], bool]]] = [
    ("hello", {}, lambda r: r["protocol"] == 3 and "kubagram.best-words" in r["commands"] and "ai-move" in r["commands"]),
    ("schema", {"cmd": "quit"}, lambda r: list(r["commands"]) == ["quit"]),
    ("kubagram.best-words", {"position": KUBAGRAM_POS, "top": 1},
     lambda r: [(w["word"], w["score"]) for w in r["words"]] == [("rechteroog", 194)]),
    ("kubagram.best-words", {"position": {"field": "kroeg"}, "rules": {"min_length": 3}, "top": 2},
     lambda r: [w["word"] for w in r["words"]] == ["kroeg", "ergo"]),
    ("rummikub.solve", {"table": "r1 r2 r3", "rack": "r4 b9"}, lambda r: r["played"] == ["r4"]),
    ("rummikub.solve", {"table": [["r7", "b7", "o7", "J"]], "rack": ["k1", "k2"]}, lambda r: r["found"] is False),
    ("rummikub.new-game", {"players": ["ann", "bob"], "seed": 4},
     lambda r: r["state"]["players"] == ["ann", "bob"] and r["state"]["seed"] == 4 and r["game"].startswith("g")),
    ("close-game", {"game": "nope"}, lambda r: False),  # an error is the correct answer (checked below)
    ("new-game", {"game": "rummikub", "players": ["ann", "bob"], "seed": 4},
     lambda r: r["players"] == ["ann", "bob"] and r["game"] == "rummikub" and r["game_id"].startswith("g") and r["turn"] == 1),
    ("games", {}, lambda r: {g["game"] for g in r["games"]} == {"colonii", "crossword", "kubagram", "rummikub", "scruble"}),
]

BAD_VALUES: list[str] = [
    '"x"', "3.9", "-1", "0", "1e999", "-1e999", "NaN", "Infinity", "true", '"false"', "null", "[]", "{}", '[1, "a", null]',
    "1" * 5000, "-" + "9" * 400, str(2**64), str(2**70), '"' + "z" * 6000 + '"', '"\\ud800"', '"\\udfff x"', '"\\u0000"',
    "[" * 2000 + "]" * 2000, "{" * 50, '"' + "é" * 100 + '"', '{"type": "play", "table": 5}', '{"type": "take", "letter": 7}',
    '[["r1", "r2"], "r3 | b4", [3]]', '"r1 r2 r3 | | ; b7"', '{"field": 3}', '{"jokers": "EYGR"}',
]
GARBAGE_ATOMS = [b"{", b"}", b"[", b"]", b'"', b":", b",", b"\\", b"\\u", b"\\ud800", b"\xff", b"\xc3", b"\xe2\x82",
                 b"\x00", b"\r", b"\t", b"NaN", b"-", b"1e", b"true", b"nul", b'"id"', b'"cmd"', b"\xef\xbb\xbf", b"\xed\xa0\x80"]


def _valid_line(rng: random.Random, rid: int) -> tuple[bytes, Any]:
    k = rng.randrange(len(VALID))
    cmd, params, _ = VALID[k]
    return json.dumps({"id": rid, "cmd": cmd, "params": params}).encode(), k


def _mutated_params_line(rng: random.Random, rid: int) -> bytes:
    """A well-formed request (valid id) whose params hold a bad value, an unknown key or a bad shape."""
    cmd, params, _ = rng.choice(VALID + [
        ("kubagram.new-game", {"seed": 1, "players": 2}, lambda r: True),
        ("kubagram.apply-move", {"game": "g1", "move": {"type": "take"}}, lambda r: True),
        ("rummikub.load-game", {"state": {"seed": 1, "players": ["a", "b"], "moves": []}}, lambda r: True),
        ("kubagram.new-game", {"state": {"format": "kubasolve.kubagram.state/1"}}, lambda r: True),
        ("rummikub.simulate", {"games": 1}, lambda r: True),
        ("new-game", {"game": "crossword", "seed": 1, "players": 2}, lambda r: True),
        ("apply-move", {"game_id": "g1", "action": {"type": "pass"}}, lambda r: True),
        ("legal-moves", {"game_id": "g1", "top": 3}, lambda r: True),
        ("new-game", {"game": "kubagram", "state": {"format": "kubasolve-state"}}, lambda r: True),
        ("kubagram.compounds", {"position": {"table": ["kroegen", "tocht"]}}, lambda r: True),
    ])
    text = json.dumps(params)
    keys = list(params) or ["x"]
    key = rng.choice(keys + ["zzz", "top", "state", "game"])
    bad = rng.choice(BAD_VALUES)
    body = text[1:-1]
    if rng.random() < 0.5 and key in params:  # replace a value
        items = {k: json.dumps(v) for k, v in params.items()}
        items[key] = bad
        body = ", ".join(f"{json.dumps(k)}: {v}" for k, v in items.items())
    else:  # add a key
        body = (body + ", " if body else "") + f"{json.dumps(key)}: {bad}"
    return f'{{"id": {rid}, "cmd": {json.dumps(cmd)}, "params": {{{body}}}}}'.encode()


def _garbage_line(rng: random.Random, rid: int) -> bytes:
    """Bad JSON, bad bytes, bad ids, bad envelopes."""
    kind = rng.randrange(8)
    if kind == 0:
        line = b"".join(rng.choice(GARBAGE_ATOMS) for _ in range(rng.randrange(1, 40)))
    elif kind == 1:
        full, _ = _valid_line(rng, rid)
        line = full[: rng.randrange(1, len(full))]
    elif kind == 2:
        line = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 200)))
    elif kind == 3:
        bad_id = rng.choice(BAD_VALUES[:10] + ["[1]", '{"a": 1}', str(2**53), "1" * 500])
        line = f'{{"id": {bad_id}, "cmd": "hello"}}'.encode()
    elif kind == 4:
        line = f'{{"id": {rid}, "cmd": {rng.choice(BAD_VALUES)}}}'.encode()
    elif kind == 5:
        line = rng.choice([b"[]", b"null", b"3", b'"hello"', b"[" * 100_000, b'{"id": 1, "cmd": "hello", "params": ' + b"[" * 50_000])
    elif kind == 6:
        full, _ = _valid_line(rng, rid)
        pos = rng.randrange(len(full))
        line = full[:pos] + rng.choice(GARBAGE_ATOMS) + full[pos:]
    else:
        line = f'{{"id": {rid}, "cmd": "hello", "{rng.choice(["params2", "Id", "extra"])}": 1}}'.encode()
    line = line.replace(b"\n", b" ")
    return line if line.strip() else b"x"


def _saved_states() -> list[tuple[str, dict[str, Any]]]:
    """A mid-game Kubagram snapshot and a Rummikub one, as the engine's state commands give them."""
    from kubasolve.games.kubagram.ai import make_policy
    from kubasolve.games.kubagram.game import default_referee
    from kubasolve.games.rummikub.ai import ai_move
    from kubasolve.games.rummikub.game import RummikubGame

    referee = default_referee()
    state = referee.new_game(3)
    policy = make_policy("greedy")
    for _ in range(30):
        for action in policy.turn(referee, state):
            state = referee.apply(state, action)
    game = RummikubGame.new(3, 7)
    for _ in range(12):
        game.apply(ai_move(game, "greedy"))
    return [("kubagram.new-game", json.loads(json.dumps(state.to_dict()))),
            ("rummikub.load-game", json.loads(json.dumps(game.to_dict())))]


def _tampered_state_line(rng: random.Random, rid: int, saved: list[tuple[str, dict[str, Any]]]) -> bytes:
    """A saved game with one random leaf (or list) replaced: refused or resumed, never an internal error."""
    cmd, state = rng.choice(saved)
    data = json.loads(json.dumps(state))
    node: Any = data
    for _ in range(rng.randrange(1, 6)):
        keys = list(node) if isinstance(node, dict) else list(range(len(node)))
        if not keys:
            break
        key = rng.choice(keys)
        if isinstance(node[key], (dict, list)) and rng.random() < 0.8:
            node = node[key]
            continue
        break
    keys = list(node) if isinstance(node, dict) else list(range(len(node)))
    if keys:
        node[rng.choice(keys)] = rng.choice([None, True, -1, 0, 1, 7, 2**70, 3.5, "x", "", [], {}, [1, 2], {"a": 1}, "r1", [["r1"]]])
    return json.dumps({"id": rid, "cmd": cmd, "params": {"state": data}}).encode()


def build_lines(seed: int = SEED, n: int = LINES) -> list[tuple[bytes, str, Any]]:
    """(line, id expectation, index of the valid template or None)."""
    rng = random.Random(seed)
    saved = _saved_states()
    out: list[tuple[bytes, str, Any]] = []
    for rid in range(n):
        r = rng.random()
        if r < 0.15:
            line, k = _valid_line(rng, rid)
            out.append((line, ID_ECHOED, k))
        elif r < 0.25:
            out.append((_tampered_state_line(rng, rid, saved), ID_ECHOED, None))
        elif r < 0.6:
            out.append((_mutated_params_line(rng, rid), ID_ECHOED, None))
        else:
            out.append((_garbage_line(rng, rid), ID_NULL_OR_ECHOED, None))
    big = b'{"id": 0, "cmd": "hello", "params": {"x": "' + b"a" * (20 << 20) + b'"}}'
    out[n // 2] = (big, "null", None)  # request ids are the line numbers
    return out


def _no_constant(name: str) -> Any:
    raise AssertionError(f"answer holds {name}, which is not strict JSON")


def test_fuzzed_engine_answers_every_line_once() -> None:
    lines = build_lines()
    stdin = b"".join(line + b"\n" for line, _, _ in lines)
    env = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    proc = subprocess.run([sys.executable, "-m", "kubasolve", "engine"], check=False, input=stdin, capture_output=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert b"Traceback" not in proc.stderr, proc.stderr[-3000:]
    out = proc.stdout.decode("utf-8")  # strict: valid UTF-8 or this raises
    answers = out.split("\n")
    assert answers[-1] == ""
    answers = answers[:-1]
    assert len(answers) == len(lines)
    valid_seen = 0
    for number, ((line, id_rule, template), text) in enumerate(zip(lines, answers, strict=True)):
        answer = json.loads(text, parse_constant=_no_constant)
        assert set(answer) >= {"id", "ok"}, text
        if id_rule == ID_ECHOED:
            assert answer["id"] == number, (line[:200], text[:300])
        elif id_rule == "null":
            assert answer["id"] is None and answer["error"]["code"] == "limit-exceeded"
        else:
            assert answer["id"] is None or isinstance(answer["id"], (int, str)), text
        if not answer["ok"]:
            assert answer["error"]["code"] != "internal", (line[:300], text)
            assert "Traceback" not in answer["error"]["message"]
        if template is not None:
            cmd, _, check = VALID[template]
            if cmd == "close-game":
                assert answer["error"]["code"] == "unknown-game"
            else:
                assert answer["ok"] and check(answer["result"]), (cmd, text[:300])
            valid_seen += 1
    assert valid_seen > 300


def test_random_moves_in_running_games_are_answered_as_moves() -> None:
    """Random (mostly illegal) moves and AI moves in running Kubagram and Rummikub games: each is applied or
    refused as ``illegal-move`` (never another code, never an internal error), and the game stays playable."""
    from kubasolve.engine.registry import Session
    from kubasolve.engine.server import handle_request

    session = Session()
    rng = random.Random(SEED)

    def ask(cmd: str, **params: Any) -> dict[str, Any]:
        return handle_request(json.dumps({"id": 1, "cmd": cmd, "params": params}), session)

    codes: dict[str, int] = {}
    for g in range(8):
        kubagram = ask("kubagram.new-game", seed=g, players=rng.randint(1, 4))["result"]["game"]
        rummikub = ask("rummikub.new-game", seed=g, players=rng.randint(2, 4))["result"]["game"]
        for _ in range(120):
            if rng.random() < 0.3:
                answer = ask("kubagram.ai-move", game=kubagram, ai=rng.choice(["greedy", "random"]), state=False)
            else:
                move: dict[str, Any] = {"type": rng.choice(["take", "place-zero", "claim", "skip", "end"])}
                if rng.random() < 0.5:
                    move["letter"] = rng.choice("abcdeyz")
                if rng.random() < 0.3:
                    move["keep"] = rng.random() < 0.5
                if rng.random() < 0.6:
                    move["word"] = "".join(rng.choice("aeknorst") for _ in range(rng.randint(1, 8)))
                if rng.random() < 0.5:
                    move["tiles"] = [rng.randint(0, 30) for _ in range(rng.randint(0, 8))]
                if rng.random() < 0.3:
                    move["parts"] = [rng.choice([None, 0, 1, 2, 5]) for _ in range(rng.randint(0, 3))]
                answer = ask("kubagram.apply-move", game=kubagram, move=move, state=False)
            code = "ok" if answer["ok"] else answer["error"]["code"]
            codes[code] = codes.get(code, 0) + 1
            assert code in ("ok", "illegal-move"), answer
            if rng.random() < 0.3:
                answer = ask("rummikub.ai-move", game=rummikub, state=False)
            else:
                tiles = [rng.choice(["r1", "r2", "r3", "b1", "o1", "k1", "J", "r13", "b13", "o7"]) for _ in range(rng.randint(0, 5))]
                rmove = rng.choice([{"type": "draw"}, {"type": "timeout"}, {"type": "play", "table": [tiles]},
                                    {"type": "play", "table": " ".join(tiles)}])
                answer = ask("rummikub.apply-move", game=rummikub, move=rmove, state=False)
            code = "ok" if answer["ok"] else answer["error"]["code"]
            codes[code] = codes.get(code, 0) + 1
            assert code in ("ok", "illegal-move", "bad-position"), answer
        assert ask("kubagram.state", game=kubagram)["ok"] and ask("rummikub.state", game=rummikub)["ok"]
    assert codes["ok"] > 300 and codes["illegal-move"] > 300


def _from_schema(rng: random.Random, schema: dict[str, Any], defs: dict[str, Any], depth: int = 0) -> Any:
    """A value shaped by a JSON Schema (as ``schema`` publishes it), now and then of a wrong type."""
    while "$ref" in schema:
        schema = defs[schema["$ref"].rsplit("/", 1)[1]]
    if "anyOf" in schema:
        return _from_schema(rng, rng.choice(schema["anyOf"]), defs, depth)
    if "enum" in schema:
        return rng.choice(schema["enum"])
    if rng.random() < 0.1:
        return rng.choice([None, True, -1, 3.5, "x", [], {}, 2**40, "é" * 3])
    kind = schema.get("type")
    if kind == "integer":
        low = schema.get("minimum", -5)
        return rng.randint(low, min(schema.get("maximum", 50), low + 60))
    if kind == "boolean":
        return rng.random() < 0.5
    if kind == "string":
        shortest = schema.get("minLength", 0)  # e.g. a 96-symbol Scruble state: longer than the usual 12
        size = rng.randint(shortest, max(shortest, min(schema.get("maxLength", 12), 12)))
        return "".join(rng.choice("abcdeknorstJr0123456789 ") for _ in range(size))
    if kind == "array" and depth < 4:
        return [_from_schema(rng, schema.get("items", {}), defs, depth + 1) for _ in range(rng.randint(0, min(schema.get("maxItems", 4), 4)))]
    if kind == "object":
        required = schema.get("required", [])
        return {k: _from_schema(rng, v, defs, depth + 1) for k, v in schema.get("properties", {}).items()
                if k in required or rng.random() < 0.7}
    return None


def test_every_command_of_every_game_survives_schema_shaped_requests() -> None:
    """Requests built from each command's published schema (mostly plausible, sometimes wrong), for every game
    registered now or later: never an internal error."""
    from kubasolve.engine.registry import COMMANDS, Session
    from kubasolve.engine.server import handle_request, load_handlers

    load_handlers()
    rng = random.Random(SEED)
    # quit ends the session; simulate plays whole games, bounded by the request's own budget and stop, not by
    # this test's time: tests/scale/test_selfplay.py and tests/protocol/test_engine.py hold it
    schemas = {name: entry.schema()["params"] for name, entry in COMMANDS.items() if name not in ("quit", "simulate", "rummikub.simulate")}
    names = sorted(schemas)
    session = Session()
    seen: dict[str, set[str]] = {}
    for i in range(300):
        if i % 25 == 0:  # keep games running for the game commands
            name = rng.choice([n for n in names if n.endswith(".new-game")])
            params: Any = {}
        else:
            name = rng.choice(names)
            schema = schemas[name]
            params = _from_schema(rng, schema, schema.get("$defs", {}))
            if isinstance(params, dict) and "game" in params and rng.random() < 0.7:
                params["game"] = f"g{rng.randint(1, len(session.games) + 1)}"
        answer = handle_request(json.dumps({"id": i, "cmd": name, "params": params}), session)
        assert answer["id"] == i
        code = "ok" if answer["ok"] else answer["error"]["code"]
        assert code != "internal", (name, params)
        seen.setdefault(name, set()).add(code)
    assert sum("ok" in codes for codes in seen.values()) >= len(names) // 4  # many commands answered for real
