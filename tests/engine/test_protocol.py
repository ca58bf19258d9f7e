"""Engine protocol v2 (docs/engine.md): declared schemas, strict types, bounds, stable error codes, ids,
strict JSON answers whatever comes in."""

from __future__ import annotations

import io
import json
import time
from dataclasses import fields
from typing import Any, get_args

import pytest

from kubasolve.engine.registry import COMMANDS, LIMITS, Session
from kubasolve.engine.server import (
    PROTOCOL_VERSION,
    encode_answer,
    handle_request,
    load_handlers,
    serve,
)

load_handlers()
POSITION = {"field": "kroegentoch", "jokers": ["EYGR"]}


def ask(session: Session, command: str, **params: Any) -> dict[str, Any]:
    return handle_request(json.dumps({"id": 1, "cmd": command, "params": params}), session)


def raw(line: bytes | str, session: Session | None = None) -> dict[str, Any]:
    return handle_request(line, session or Session())


def error(answer: dict[str, Any]) -> tuple[str, str | None]:
    assert answer["ok"] is False, answer
    return answer["error"]["code"], answer["error"].get("key")


def test_hello_and_schema_publish_every_command() -> None:
    s = Session()
    hello = ask(s, "hello")["result"]
    assert hello["protocol"] == PROTOCOL_VERSION == 3
    assert set(hello["commands"]) == set(COMMANDS) and "schema" in hello["commands"]
    assert {"bad-request", "unknown-command", "illegal-move", "unknown-game", "limit-exceeded", "internal"} <= set(hello["errors"])
    assert hello["limits"]["line_bytes"] == 1 << 20
    schemas = ask(s, "schema")["result"]["commands"]
    assert set(schemas) == set(COMMANDS)
    for name, entry in schemas.items():
        params = entry["params"]
        body = params["$defs"][params["$ref"].rsplit("/", 1)[1]]
        assert body["additionalProperties"] is False, name
        assert entry["summary"], f"{name} needs a docstring"
    top = schemas["kubagram.best-words"]["params"]["$defs"]["BestWordsParams"]["properties"]["top"]
    assert {"type": "integer", "minimum": 1, "maximum": 10_000} in [{k: v for k, v in alt.items() if k != "description"} for alt in top["anyOf"]]
    assert error(ask(s, "schema", cmd="nope")) == ("unknown-command", "params.cmd")


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_refuses_an_unknown_parameter_by_name(name: str) -> None:
    answer = ask(Session(), name, zzz_typo=3)
    assert error(answer) == ("bad-request", "params.zzz_typo")
    assert "unknown parameter" in answer["error"]["message"]


@pytest.mark.parametrize(("cmd", "params", "key"), [
    ("kubagram.best-words", {"position": POSITION, "topp": 3}, "params.topp"),
    ("kubagram.best-words", {"position": POSITION, "top": "3"}, "params.top"),
    ("kubagram.best-words", {"position": POSITION, "top": 3.9}, "params.top"),
    ("kubagram.best-words", {"position": POSITION, "top": 3.0}, "params.top"),
    ("kubagram.best-words", {"position": POSITION, "top": 10**9}, "params.top"),
    ("kubagram.best-words", {"position": POSITION, "top": 0}, "params.top"),
    ("kubagram.best-words", {"position": {**POSITION, "feild": "x"}}, "params.position.feild"),
    ("kubagram.best-words", {"position": POSITION, "rules": {"min_lenght": 4}}, "params.rules.min_lenght"),
    ("kubagram.best-words", {"position": POSITION, "lexicon": "x" * 5000}, "params.lexicon"),
    ("kubagram.best-words", {"position": {"jokers": ["abcdefghijklmnopqrstuvwxyz"] * 12}}, "params.position.jokers"),
    ("kubagram.best-words", {"position": {"field": "a" * 300}}, "params.position.field"),
    ("kubagram.best-move", {"position": POSITION, "max_words": 4}, "params.max_words"),
    ("kubagram.compounds", {"position": POSITION, "objective": "best"}, "params.objective"),
    ("rummikub.solve", {"rack": "r4 J", "first_meld": "false"}, "params.first_meld"),
    ("rummikub.solve", {"rack": ["r4"] * 5000}, "params.rack"),
    ("rummikub.solve", {"rack": "r4", "method": "magic"}, "params.method"),
    ("rummikub.new-game", {"players": 100_000_000}, "params.players"),
    ("rummikub.new-game", {"players": 2**70}, "params.players"),
    ("rummikub.new-game", {"seed": "3"}, "params.seed"),
    ("rummikub.new-game", {"seed": 3.9}, "params.seed"),
    ("rummikub.new-game", {"rules": {"tiles_dealt": 10**12}}, "params.rules.tiles_dealt"),
    ("rummikub.simulate", {"games": 10**9}, "params.games"),
    ("rummikub.simulate", {"games": "2"}, "params.games"),
    ("kubagram.new-game", {"players": 10**8}, "params.players"),
    ("kubagram.new-game", {"players": ["a"] * 9}, "params.players"),
    ("kubagram.new-game", {"game_rules": {"depht": 3}}, "params.game_rules.depht"),
    ("close-game", {}, "params.game_id"),
])
def test_bad_parameters_are_refused_instantly_naming_the_key(cmd: str, params: dict[str, Any], key: str) -> None:
    start = time.perf_counter()
    answer = ask(Session(), cmd, **params)
    assert time.perf_counter() - start < 0.5
    assert error(answer)[1] == key and answer["error"]["code"] in ("bad-request", "limit-exceeded")
    assert answer["error"]["message"].startswith(key)


def test_enum_errors_list_the_choices() -> None:
    s = Session()
    gid = ask(s, "kubagram.new-game", seed=1)["result"]["game"]
    answer = ask(s, "kubagram.apply-move", game=gid, move={"type": "dance"})
    assert error(answer) == ("bad-request", "params.move.type")
    assert "'take', 'place-zero', 'claim', 'skip', 'end'" in answer["error"]["message"]


def test_error_codes_of_domain_errors() -> None:
    s = Session()
    assert error(ask(s, "kubagram.state", game="g9")) == ("unknown-game", "params.game")
    assert error(ask(s, "kubagram.best-words", position={"field": "kr0eg"}))[0] == "bad-position"
    assert error(ask(s, "kubagram.best-words", position=POSITION, lexicon="xx"))[0] == "bad-lexicon"
    assert error(ask(s, "rummikub.new-game", rules={"colours": 3, "colour_letters": "rbok"}))[0] == "bad-rules"
    assert error(raw('{"id": 1, "cmd": "helo"}'))[0] == "unknown-command"
    gid = ask(s, "rummikub.new-game", seed=1)["result"]["game"]
    assert error(ask(s, "kubagram.state", game=gid))[0] == "unknown-game"  # a Rummikub game is no Kubagram game
    assert error(ask(s, "rummikub.apply-move", game=gid, move={"type": "play", "table": [["r1"]]}))[0] == "illegal-move"
    for kind in ("draw", "timeout"):
        assert error(ask(s, "rummikub.apply-move", game=gid, move={"type": kind, "table": "r1 r2 r3"})) == ("bad-request", "params.move.table")
    assert error(ask(s, "rummikub.simulate", players=["greedy", "nope"])) == ("bad-request", "params.players[1]")
    assert error(ask(s, "crossword.new-game", players=2, rules={"min_players": 3})) == ("bad-request", "params.players")
    assert error(ask(s, "crossword.new-game", players=["a", "b", "c"], rules={"max_players": 2})) == ("bad-request", "params.players")
    for game in ("kubagram", "crossword", "colonii", "scruble"):
        assert error(ask(s, f"{game}.new-game", state={"x": 1})) == ("bad-state", "params.state"), game
    many = ask(s, "kubagram.best-words", position={"jokers": ["eygr"] * 5, "choices": ["abc"] * 4})
    assert error(many) == ("limit-exceeded", "params.position")


@pytest.mark.parametrize(("req_id", "echoed"), [
    ('"abc"', "abc"), ("7", 7), ("-7", -7), ("null", None), ('"\\ud83d\\ude00"', "\U0001f600"), (str(2**53 - 1), 2**53 - 1),
])
def test_valid_ids_are_echoed(req_id: str, echoed: Any) -> None:
    answer = raw(f'{{"id": {req_id}, "cmd": "hello"}}')
    assert answer["ok"] and answer["id"] == echoed


@pytest.mark.parametrize("req_id", ["NaN", "Infinity", "-Infinity", "1e999", "3.5", "[1]", '{"a": 1}', "true",
                                    str(2**53), str(10**400), '"\\ud800"', '"' + "x" * 300 + '"'])
def test_invalid_ids_are_refused_with_a_usable_answer(req_id: str) -> None:
    answer = raw(f'{{"id": {req_id}, "cmd": "hello"}}')
    assert answer["ok"] is False and answer["id"] is None and answer["error"]["code"] == "bad-request"
    line = encode_answer(answer)
    json.loads(line.decode("utf-8"), parse_constant=_no_constant)


def _no_constant(name: str) -> Any:
    raise AssertionError(f"answer holds {name}, which is not JSON")


def test_malformed_lines() -> None:
    assert error(raw("this is not json")) == ("bad-request", None)
    assert error(raw('["a", "list"]')) == ("bad-request", None)
    assert error(raw('{"id": 3, "cmd": "hello", "extra": 1}')) == ("bad-request", "extra")
    assert error(raw('{"id": 3, "params": {}}')) == ("bad-request", "cmd")
    assert error(raw('{"id": 3, "cmd": 5}')) == ("bad-request", "cmd")
    assert error(raw('{"id": 3, "cmd": "hello", "params": []}'))[1] == "params"
    bad_utf8 = raw(b'{"id": 3, "cmd": "hello", "params": {"x": "\xff"}}')
    assert error(bad_utf8)[0] == "bad-request" and "UTF-8" in bad_utf8["error"]["message"]
    deep = raw('{"id": 4, "cmd": "hello", "params": ' + "[" * 100_000 + "]" * 100_000 + "}")
    assert error(deep)[0] == "bad-request"
    deep_line = raw("[" * 100_000)
    assert error(deep_line)[0] == "bad-request"
    # a lone surrogate somewhere in the request: refused, the (valid) id still echoed
    lone = raw('{"id": 5, "cmd": "kubagram.new-game", "params": {"players": ["\\udc80", "b"]}}')
    assert lone["id"] == 5 and error(lone)[0] == "bad-request" and "surrogate" in lone["error"]["message"]


def test_answers_are_strict_utf8_json_even_for_unencodable_results() -> None:
    weird = {"id": "a\ud800b", "ok": True, "result": {"x": float("nan"), "s": "\udcff", "n": 2**40}}
    line = encode_answer(weird)
    data = json.loads(line.decode("utf-8"), parse_constant=_no_constant)
    assert data["id"] == "a\ufffdb" and data["result"] == {"x": None, "s": "\ufffd", "n": 2**40}
    broken = encode_answer({"id": 3, "ok": True, "result": {"x": object()}})
    assert json.loads(broken)["error"]["code"] == "internal"


def test_internal_errors_never_leak_a_traceback(caplog: pytest.LogCaptureFixture) -> None:
    from kubasolve.engine.registry import NoParams, command

    @command("test.crash", NoParams)
    def crash(p: NoParams, session: Session) -> dict[str, Any]:
        """Always fails (a simulated bug)."""
        raise MemoryError("simulated")

    try:
        answer = raw('{"id": 9, "cmd": "test.crash"}')
    finally:
        del COMMANDS["test.crash"]
    assert answer["id"] == 9 and error(answer) == ("internal", None)
    assert "Traceback" not in json.dumps(answer) and "simulated" not in json.dumps(answer)
    assert caplog.records[-1].exc_info is not None  # logged (to stderr by default) for the maintainers


def test_serve_bytes_loop_with_an_over_long_line() -> None:
    huge = b'{"id": 2, "cmd": "hello", "params": {"x": "' + b"a" * (20 << 20) + b'"}}'
    stdin = io.BytesIO(b'{"id": 1, "cmd": "hello"}\n' + huge + b"\n\n" + b"\xff\xfe\n" + b'{"id": 3, "cmd": "quit"}\n{"id": 4, "cmd": "hello"}\n')
    stdout = io.BytesIO()
    start = time.perf_counter()
    assert serve(stdin, stdout) == 0
    assert time.perf_counter() - start < 5
    answers = [json.loads(line) for line in stdout.getvalue().decode("utf-8").splitlines()]
    assert [a["id"] for a in answers] == [1, None, None, 3]  # the blank line is skipped; quit stops
    assert answers[1]["error"]["code"] == "limit-exceeded" and str(len(huge)) in answers[1]["error"]["message"]
    assert answers[2]["error"]["code"] == "bad-request" and answers[3]["result"] == {"bye": True}


def test_a_line_just_under_the_limit_is_parsed() -> None:
    pad = LIMITS["line_bytes"] - 60
    line = b'{"id": 1, "cmd": "hello", "zz": "' + b"a" * pad + b'"}'
    assert len(line) <= LIMITS["line_bytes"]
    out = io.BytesIO()
    serve(io.BytesIO(line + b"\n"), out)
    assert json.loads(out.getvalue())["error"]["key"] == "zz"  # parsed (and refused for its extra key)


@pytest.mark.parametrize("end", [b"\n", b"\r\n", b""])
def test_a_line_of_exactly_the_limit_is_answered_whatever_its_line_end(end: bytes) -> None:
    head, tail = b'{"id": 5, "cmd": "hello"', b"}"
    line = head + b" " * (LIMITS["line_bytes"] - len(head) - len(tail)) + tail  # JSON whitespace: a valid request
    assert len(line) == LIMITS["line_bytes"]
    out = io.BytesIO()
    serve(io.BytesIO(line + b"x" + end + line + end if end else line), out)  # without a line end: the last line
    *over, exact = (json.loads(a) for a in out.getvalue().splitlines())
    assert exact["id"] == 5 and exact["ok"], exact
    if end:
        assert over[0]["error"]["code"] == "limit-exceeded" and f"line of {LIMITS['line_bytes'] + 1} bytes" in over[0]["error"]["message"]


@pytest.mark.parametrize(("line", "key"), [
    ('{"id": 1, "cmd": "hello", "cmd": "quit"}', "cmd"),
    ('{"id": 1, "cmd": "kubagram.best-words", "params": {"position": {"field": "abc", "field": "xyz"}}}', "params.position.field"),
    ('{"id": 1, "cmd": "kubagram.best-words", "params": {"position": {"table": [{"word": "a", "word": "b"}]}}}',
     "params.position.table[0].word"),
    ('{"id": 1, "cmd": "hello", "params": {}, "params": {}}', "params"),
    ('{"id": 1, "id": 2, "cmd": "hello"}', "id"),
])
def test_a_key_given_twice_anywhere_is_refused(line: str, key: str) -> None:
    s = Session()
    answer = raw(line, s)
    assert error(answer) == ("bad-request", key) and "twice" in answer["error"]["message"]
    assert answer["id"] == (None if key == "id" else 1)
    out = io.StringIO()
    serve(io.StringIO(line + "\n" + '{"id": 9, "cmd": "hello"}\n'), out)
    assert [json.loads(a)["id"] for a in out.getvalue().splitlines()] == [answer["id"], 9]  # the session goes on


def test_an_invalid_utf8_line_echoes_a_valid_leading_id() -> None:
    assert raw(b'{"id": 42, "cmd": "hello", "params": {"x": "\xff"}}')["id"] == 42
    assert raw(b'{"id": "q7", "cmd": "hello\xfe"}')["id"] == "q7"
    assert raw(b'{"id": "a\xffb", "cmd": "hello"}')["id"] is None  # the bad byte is in the id itself
    assert raw(b'{"id": 4\xff, "cmd": "hello"}')["id"] is None


def test_games_per_session_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(LIMITS, "games_per_session", 2)
    s = Session()
    g1 = ask(s, "rummikub.new-game")["result"]["game"]
    ask(s, "rummikub.new-game")
    assert error(ask(s, "rummikub.new-game"))[0] == "limit-exceeded"
    assert ask(s, "close-game", game=g1)["result"] == {"closed": g1}
    assert ask(s, "rummikub.new-game")["ok"]
    assert error(ask(s, "close-game", game=g1)) == ("unknown-game", "params.game")


def test_rule_schemas_match_the_rule_classes() -> None:
    """The engine's declared rule settings are exactly the library's (a new setting must be declared)."""
    from kubasolve.engine.commands_kubagram import KubagramRulesSpec
    from kubasolve.engine.commands_kubagram_game import GameRulesSpec
    from kubasolve.engine.commands_rummikub import ObjectiveName, RummikubRulesSpec
    from kubasolve.games.kubagram.game_rules import KubagramGameRules
    from kubasolve.games.kubagram.rules import KubagramRules
    from kubasolve.games.rummikub import RummikubRules
    from kubasolve.games.rummikub.solver import Objective

    assert set(KubagramRulesSpec.__struct_fields__) == {f.name for f in fields(KubagramRules)}
    assert set(GameRulesSpec.__struct_fields__) | {"n_players"} == {f.name for f in fields(KubagramGameRules)}
    assert set(RummikubRulesSpec.__struct_fields__) == {f.name for f in fields(RummikubRules)}
    assert set(get_args(ObjectiveName)) == {o.value for o in Objective}


def test_rules_given_reach_the_library() -> None:
    s = Session()
    words = ask(s, "kubagram.best-words", position={"field": "kroeg"}, rules={"min_length": 3}, top=None)["result"]["words"]
    assert {"erg", "kroeg"} <= {w["word"] for w in words} and all(len(w["word"]) >= 3 for w in words)
    strict = ask(s, "rummikub.solve", table="r7 b7 o7 J", rack="k1 k2")["result"]
    free = ask(s, "rummikub.solve", table="r7 b7 o7 J", rack="k1 k2", rules={"joker_retrieval": "free"})["result"]
    assert not strict["found"] and free["played"] == ["k1", "k2"]


def test_a_broken_command_module_does_not_take_the_engine_down(monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    import importlib
    import pkgutil

    from kubasolve.engine import server

    real_import, real_iter = importlib.import_module, pkgutil.iter_modules

    def fake_import(name: str) -> Any:
        if name.endswith("commands_zz_broken"):
            raise TypeError("a schema mistake")
        return real_import(name)

    monkeypatch.setattr(server, "_loaded", False)
    monkeypatch.setattr(server, "UNAVAILABLE", {})
    monkeypatch.setattr(server.importlib, "import_module", fake_import)
    monkeypatch.setattr(server.pkgutil, "iter_modules", lambda path: [*real_iter(path), pkgutil.ModuleInfo(None, "commands_zz_broken", False)])  # type: ignore[arg-type]
    hello = raw('{"id": 1, "cmd": "hello"}')
    assert hello["ok"] and hello["result"]["unavailable"] == ["commands_zz_broken"]
    assert "kubagram.best-words" in hello["result"]["commands"]
    assert "commands_zz_broken" in caplog.text


def test_rummikub_variants_too_large_to_solve_are_refused_up_front() -> None:
    """Measured: 26 numbers, 8 colours, 4 jokers spent 70-90 s building the candidate sets of one solve."""
    from kubasolve.games.rummikub import RummikubRules
    from kubasolve.games.rummikub.sets import MAX_CANDIDATE_SETS, candidate_set_estimate, candidate_sets

    for settings in ({}, {"jokers": 4}, {"numbers": 9, "colours": 3, "jokers": 3}, {"colours": 6, "min_set_size": 4}):
        rules = RummikubRules.from_dict(settings)
        exact = len(candidate_sets(rules).sets)
        assert exact <= candidate_set_estimate(rules) <= 2 * exact  # an upper bound, and not a loose one
    s = Session()
    huge = {"numbers": 26, "colours": 8, "copies": 4, "jokers": 4}
    start = time.perf_counter()
    cases: list[tuple[str, dict[str, Any], str]] = [("rummikub.solve", {"rack": "r1", "rules": huge}, "params.rules"),
                             ("rummikub.new-game", {"rules": huge}, "params.rules"),
                             ("rummikub.simulate", {"rules": huge}, "params.rules"),
                             ("rummikub.load-game", {"state": {"seed": 1, "players": ["a", "b"], "rules": huge}}, "params.state.rules")]
    for cmd, params, key in cases:
        assert error(ask(s, cmd, **params)) == ("limit-exceeded", key)
    assert time.perf_counter() - start < 1
    assert candidate_set_estimate(RummikubRules.from_dict(huge)) > MAX_CANDIDATE_SETS
