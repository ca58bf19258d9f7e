"""A resumed Kubagram game is validated (issue 8): "new-game with a state (and GameState.from_dict) checks the
snapshot against the cube set, the rules and the invariants (tile counts, jokers, taken <= cubes, scores
consistent with the actions when actions are given); a forged state (five field tiles marked as jokers,
taken: 200) is refused with a clear error"."""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from kubasolve.engine.registry import Session
from kubasolve.engine.server import handle_request
from kubasolve.errors import StateError
from kubasolve.games.kubagram.state import GameState


def _played(seed: int, turns: int) -> GameState:
    from kubasolve.games.kubagram.ai import make_policy
    from kubasolve.games.kubagram.game import default_referee

    referee = default_referee()
    state = referee.new_game(seed)
    policy = make_policy("greedy")
    for _ in range(turns):
        if state.over:
            break
        for action in policy.turn(referee, state):
            state = referee.apply(state, action)
    return state


@pytest.fixture(scope="module")
def saved() -> dict[str, Any]:
    """A mid-game snapshot with letters in the field, words on the table and scores, as JSON."""
    state = _played(5, 40)
    data = json.loads(json.dumps(state.to_dict()))
    assert data["field"] and data["table"] and any(data["scores"])
    return data


def _field_jokers(d: dict[str, Any]) -> None:
    for tile in d["field"][:5]:
        tile["joker"] = True


FORGERIES: dict[str, tuple[Callable[[dict[str, Any]], Any], str]] = {
    "five field tiles marked as jokers": (_field_jokers, "state.field[0].joker (true, replay false)"),
    "taken: 200": (lambda d: d.update(taken=200), "state.taken (200, replay"),
    "current = 5": (lambda d: d.update(current=5), "state.current (5, replay"),
    "an injected field letter": (lambda d: d["field"].append({"letter": "q", "cube": 3, "joker": False}), "state.field (length"),
    "edited scores": (lambda d: d.update(scores=[s + 100 for s in d["scores"]]), "state.scores[0]"),
    "a table word changed": (lambda d: d["table"][0].update(word="kroegentochten"), "state.table[0].word"),
    "a word given to another owner": (lambda d: d["table"][0].update(owner=1 - d["table"][0]["owner"]), "state.table[0].owner"),
    "an extra held joker": (lambda d: d["held"][0].append({"cube": 1, "letters": "eygr"}), "state.held[0]"),
    "a bool for an int": (lambda d: d.update(turn=True) if d["turn"] == 1 else d.update(current=bool(d["current"])), "disagrees"),
    "phase over": (lambda d: d.update(phase="over"), "state.phase"),
    "history played by the wrong player": (lambda d: d["history"][0].__setitem__(0, 1 - d["history"][0][0]), "state.history[0]: player"),
    "an illegal action in the history": (lambda d: d["history"].insert(0, [d["history"][0][0], {"type": "end"}]), "state.history[0] does not replay"),
    "a malformed action": (lambda d: d["history"].append([0, {"type": "claim", "word": 5}]), "state.history["),
    "a cube swapped on the board": (lambda d: d["setup"]["squares"].insert(0, d["setup"]["squares"].pop(1)), "state.setup"),
    "a seed that deals another board": (lambda d: d["setup"].update(seed=6), "not the deal of its seed"),
    "no history": (lambda d: d.pop("history"), "state lacks history"),
    "an unknown key": (lambda d: d.update(cheat=True), "unknown key(s) cheat"),
    "a huge number": (lambda d: d.update(taken=10**4500), "state.taken (a huge number"),
    "wrong format": (lambda d: d.update(format="kubasolve.kubagram.state/0"), "not a kubagram game state"),
    "players disagree": (lambda d: d["game_rules"].update(n_players=3), "players"),
    "a history too long": (lambda d: d.update(history=[[0, {"type": "skip"}]] * 6000), "at most 5000"),
}


def test_an_untouched_snapshot_resumes_exactly(saved: dict[str, Any]) -> None:
    state = GameState.from_dict(saved)
    assert state.to_dict() == saved


@pytest.mark.parametrize("name", sorted(FORGERIES))
def test_forged_states_are_refused_with_a_clear_error(saved: dict[str, Any], name: str) -> None:
    forge, expected = FORGERIES[name]
    data = copy.deepcopy(saved)
    forge(data)
    with pytest.raises(StateError) as refused:
        GameState.from_dict(data)
    assert expected in str(refused.value)


def test_the_engine_answers_bad_state_and_keeps_no_game(saved: dict[str, Any]) -> None:
    session = Session()
    forged = copy.deepcopy(saved)
    forged["taken"] = 200
    answer = handle_request(json.dumps({"id": 1, "cmd": "kubagram.new-game", "params": {"state": forged}}), session)
    assert answer["error"]["code"] == "bad-state" and "state.taken" in answer["error"]["message"]
    assert session.games == {}
    ok = handle_request(json.dumps({"id": 2, "cmd": "kubagram.new-game", "params": {"state": saved, "players": ["a", "b"]}}), session)
    assert ok["ok"] and ok["result"]["state"] == saved and ok["result"]["players"] == ["a", "b"]
    clash = handle_request(json.dumps({"id": 3, "cmd": "kubagram.new-game", "params": {"state": saved, "seed": 3}}), session)
    assert clash["error"] == {"code": "bad-request", "key": "params.seed", "message": "params.seed: not allowed with state (the state holds it)"}
    # the resumed game plays on
    gid = ok["result"]["game"]
    moved = handle_request(json.dumps({"id": 4, "cmd": "kubagram.ai-move", "params": {"game": gid, "ai": "greedy", "state": False}}), session)
    assert moved["ok"] and set(moved["result"]) == {"game", "players", "actions", "current", "phase", "turn", "taken", "scores"}


def test_random_tampering_never_slips_through(saved: dict[str, Any]) -> None:
    """Change one random leaf of the snapshot (rules aside): either it is refused, or it was no change at all."""
    rng = random.Random(8)
    leaves: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, value in items:
            if key in ("history", "rules", "game_rules"):  # other rules can make another consistent game
                continue
            if isinstance(value, (dict, list)):
                walk(value)
            else:
                leaves.append((node, key))

    refused = 0
    for _ in range(60):
        data = copy.deepcopy(saved)
        leaves.clear()
        walk(data)
        node, key = rng.choice(leaves)
        old = node[key]
        node[key] = rng.choice([old + 1 if type(old) is int else 1, not old if isinstance(old, bool) else True, "x", None])
        if node[key] == old and type(node[key]) is type(old):
            continue
        with pytest.raises(StateError):
            GameState.from_dict(data)
        refused += 1
    assert refused > 40


def test_rummikub_load_game_refuses_what_disagrees_with_the_replay() -> None:
    """Issue 8: "Rummikub's load-game replays from the seed (good) but silently ignores edited racks, table and
    scores and accepts seeds "3" and 3.9: refuse what disagrees with the replay"."""
    session = Session()

    def ask(cmd: str, **params: Any) -> dict[str, Any]:
        return handle_request(json.dumps({"id": 1, "cmd": cmd, "params": params}), session)

    gid = ask("rummikub.new-game", players=["ann", "bob"], seed=3)["result"]["game"]
    for _ in range(6):
        assert ask("rummikub.ai-move", game=gid, state=False)["ok"]
    saved = ask("rummikub.state", game=gid)["result"]["state"]
    assert ask("rummikub.load-game", state=saved)["result"]["state"] == saved
    hidden = ask("rummikub.state", game=gid, hide_racks=True)["result"]["state"]
    assert ask("rummikub.load-game", state=hidden)["ok"]
    edits: list[tuple[Callable[[dict[str, Any]], Any], str, str]] = [
        (lambda d: d["racks"][0].append("J"), "bad-state", "params.state.racks"),
        (lambda d: d.update(table=[["r1", "r2", "r3"]]), "bad-state", "params.state.table"),
        (lambda d: d.update(scores=[50, -50]), "bad-state", "params.state.scores"),
        (lambda d: d.update(pool_size=3), "bad-state", "params.state.pool_size"),
        (lambda d: d.update(turn=1 - d["turn"]), "bad-state", "params.state.turn"),
        (lambda d: d.update(seed="3"), "bad-request", "params.state.seed"),
        (lambda d: d.update(seed=3.9), "bad-request", "params.state.seed"),
        (lambda d: d.update(moves=5), "bad-request", "params.state.moves"),
        (lambda d: d["moves"].insert(0, {"type": "play", "table": [["r1"]]}), "bad-state", "params.state.moves"),
        (lambda d: d.update(extra=1), "bad-request", "params.state.extra"),
    ]
    for edit, code, key in edits:
        data = copy.deepcopy(saved)
        edit(data)
        answer = ask("rummikub.load-game", state=data)
        assert (answer["error"]["code"], answer["error"]["key"]) == (code, key), answer


def _engine_ask(session: Session) -> Callable[..., dict[str, Any]]:
    def ask(cmd: str, **params: Any) -> dict[str, Any]:
        return handle_request(json.dumps({"id": 1, "cmd": cmd, "params": params}), session)

    return ask


def test_a_saved_kubagram_game_may_not_change_its_rules_behind_its_record(saved: dict[str, Any]) -> None:
    """docs/engine.md "Resuming a saved game": an edited rule the record contradicts is bad-state naming the
    disagreement; one no recorded event depends on resumes as the game dealt under it."""
    ask = _engine_ask(Session())
    claimed = "".join(w["word"] for w in saved["table"])
    used = max(set(claimed), key=claimed.count)
    unused = next(c for c in "qxyzjw" if c not in claimed)
    cases = [
        (lambda r: r["letter_values"].update({used: r["letter_values"][used] + 5}), "params.state.scores["),
        (lambda r: r.update(min_length=max(len(w["word"]) for w in saved["table"]) + 1), "params.state.history["),
        (lambda r: r["letter_values"].update({unused: 99}), None),
        (lambda r: r.update(min_length=2), None),
    ]
    for edit, key in cases:
        data = copy.deepcopy(saved)
        edit(data["rules"])
        answer = ask("kubagram.new-game", state=data)
        if key is None:
            assert answer["ok"] and answer["result"]["state"]["rules"] == data["rules"], answer
        else:
            assert answer["error"]["code"] == "bad-state" and answer["error"]["key"].startswith(key), answer


def test_saved_rummikub_and_scruble_games_keep_their_rules_and_seed() -> None:
    ask = _engine_ask(Session())
    gid = ask("rummikub.new-game", seed=3)["result"]["game"]
    for _ in range(12):
        ask("rummikub.ai-move", game=gid, state=False)
    saved = ask("rummikub.state", game=gid)["result"]["state"]
    first = next(m for m in saved["moves"] if m["type"] == "play")  # a first meld in the record
    meld = sum(int(t[1:]) for s in first["table"] for t in s if t != "J")
    for value, ok in ((meld + 40, False), (0, True)):
        data = copy.deepcopy(saved)
        data["rules"]["min_first_meld"] = value
        answer = ask("rummikub.load-game", state=data)
        assert answer["ok"] is ok and (ok or answer["error"]["key"] == "params.state.moves"), answer
    gid = ask("scruble.new-game", seed=3)["result"]["game"]
    ask("scruble.ai-move", game=gid, ai="greedy", max_nodes=100, state=False)
    saved = ask("scruble.state", game=gid)["result"]["state"]
    assert ask("scruble.new-game", state=saved)["ok"]
    answer = ask("scruble.new-game", state={**saved, "seed": saved["seed"] + 1})
    assert (answer["error"]["code"], answer["error"]["key"]) == ("bad-state", "params.state.seed")
