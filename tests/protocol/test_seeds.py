"""One seed rule and one result per seed in the library, the CLI and the engine (docs/cli.md "Seeds and determinism").

A seed is a whole number from 0 to 2**63 - 1 everywhere. Before, the CLI took 0..2**63 - 1, the engine 0..2**53 - 1
and the library any non-negative integer: the deal seed a self-play record carries (below 2**62) was refused by the
engine's ``new-game`` (``params.seed: expected an integer <= 9007199254740991``), so a game of ``kubasolve simulate``
could not be dealt again in the engine, and the library dealt games from seeds no other edge took (2**70)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

from kubasolve.budget import Budget
from kubasolve.cli.main import main
from kubasolve.errors import KubasolveError
from kubasolve.games.limits import MAX_SEED
from kubasolve.games.protocol import load_game
from kubasolve.scale.selfplay import RECORD_TIMINGS, ai_seed, replay_record, simulate

from .helpers import BUILT_IN, QUICK_RULES, Engine

BAD_SEEDS: list[Any] = [-1, 1.5, "7", True, None, MAX_SEED + 1, 2**70]
RANDOM_AI = {"colonii": "random", "crossword": "sim", "kubagram": "random", "rummikub": "greedy", "scruble": "random"}
"""The AI of each game that uses its seed (Rummikub's AIs draw nothing at random)."""
QUICK = Budget(max_nodes=2000)


@pytest.mark.parametrize("name", BUILT_IN)
@pytest.mark.parametrize("seed", BAD_SEEDS, ids=repr)
def test_the_library_refuses_a_bad_seed_by_name_in_every_game(name: str, seed: Any) -> None:
    game = load_game(name, QUICK_RULES[name])
    for call in (lambda: game.new_game(seed), lambda: game.ai_move(game.new_game(1), RANDOM_AI[name], QUICK, seed)):
        with pytest.raises(KubasolveError, match=r"^seed must be a whole number from 0 to 9223372036854775807") as caught:
            call()
        assert caught.value.key == "seed"


@pytest.mark.parametrize("name", BUILT_IN)
def test_the_largest_seed_deals_in_the_library_and_the_engine_alike(name: str) -> None:
    game = load_game(name)
    ask = Engine()
    gid = ask("new-game", game=name, seed=MAX_SEED)["game_id"]
    assert ask("state", game_id=gid)["state"] == game.state_to_json(game.new_game(MAX_SEED))


@pytest.mark.parametrize("name", BUILT_IN)
@pytest.mark.parametrize("seed", [-1, 1.5, "7", True, MAX_SEED + 1])
def test_the_engine_refuses_a_bad_seed_by_name_in_every_command(name: str, seed: Any) -> None:
    ask = Engine()
    gid = ask("new-game", game=name, seed=1)["game_id"]
    for cmd, params in (("new-game", {"game": name}), ("ai-move", {"game_id": gid}), ("simulate", {"game": name})):
        error = ask.raw(cmd, seed=seed, **params)["error"]
        assert (error["code"], error["key"]) == ("bad-request", "params.seed"), (cmd, error)


@pytest.mark.parametrize("name", BUILT_IN)
@pytest.mark.parametrize("seed", ["-1", "1.5", "abc", str(MAX_SEED + 1)])
def test_the_cli_refuses_a_bad_seed_with_exit_2_in_every_game(name: str, seed: str, capsys: pytest.CaptureFixture[str]) -> None:
    try:
        code = main([name, "simulate", "--games", "1", f"--seed={seed}", "--no-progress"])
    except SystemExit as exc:
        code = int(exc.code or 0)
    out, err = capsys.readouterr()
    assert (code, out) == (2, "") and "argument --seed: expected a whole number from 0 to 9223372036854775807" in err


@pytest.mark.parametrize("name", ["colonii", "kubagram", "scruble"])
def test_a_simulate_record_is_dealt_and_played_again_by_the_engine(name: str) -> None:
    """The seed of a self-play record (below 2**62, above the engine's old 2**53 - 1) deals the same game in the engine,
    whose AIs given the record's AI seeds play the record's moves."""
    rules = QUICK_RULES[name]
    out = io.StringIO()
    simulate(name, [RANDOM_AI[name]] * 2, 1, seed=3, rules=rules, budget=QUICK, records=out)
    record = json.loads(out.getvalue())
    assert record["seed"] > 2**53  # the case the engine refused
    ask = Engine()
    gid = ask("new-game", game=name, seed=record["seed"], players=record["seats"], rules=rules or {})["game_id"]
    for k, (player, action) in enumerate(record["actions"][:6]):
        moved = ask("ai-move", game_id=gid, ai=RANDOM_AI[name], seed=ai_seed(record["seed"], player, k),
                    max_nodes=QUICK.max_nodes)
        assert moved["action"] == action, k


@pytest.mark.parametrize("name", BUILT_IN)
def test_an_ai_move_depends_on_its_seed_alone(name: str) -> None:
    """The same state and seed give the same move: in the library after other searches in between, in a fresh game
    object, and in the engine (a session of its own)."""
    game = load_game(name, QUICK_RULES[name])
    state = game.new_game(5)
    ai = RANDOM_AI[name]

    def key(move: Any) -> str:
        return json.dumps([move.action, move.nodes, move.proven_optimal], sort_keys=True)

    first = key(game.ai_move(state, ai, QUICK, 11))
    other = game.new_game(6)
    game.ai_move(other, ai, QUICK, 12)
    game.legal_moves(other, top=3)
    assert key(game.ai_move(state, ai, QUICK, 11)) == first
    assert key(load_game(name, QUICK_RULES[name]).ai_move(state, ai, QUICK, 11)) == first
    for _ in range(2):
        ask = Engine()
        gid = ask("new-game", game=name, seed=5, rules=QUICK_RULES[name] or {})["game_id"]
        moved = ask("ai-move", game_id=gid, ai=ai, seed=11, max_nodes=QUICK.max_nodes, apply=False)
        assert json.dumps([moved["action"], moved["nodes"], moved["proven_optimal"]], sort_keys=True) == first


@pytest.mark.parametrize("name", ["colonii", "scruble"])
def test_the_engine_the_library_and_the_cli_play_the_same_games_from_one_seed(name: str, tmp_path: Path,
                                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """``simulate`` in the engine and in the library give the same records; ``play --seed`` with AIs in every seat
    plays the game of a record whose seed it is given."""
    rules, players = QUICK_RULES[name], [RANDOM_AI[name], "greedy"]
    out = io.StringIO()
    simulate(name, players, 2, seed=9, rules=rules, budget=QUICK, records=out)
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    engine = Engine()("simulate", game=name, players=players, games=2, seed=9, rules=rules or {}, max_nodes=QUICK.max_nodes,
                      records=True, request_ms=600_000)["records"]
    assert [{k: v for k, v in r.items() if k not in RECORD_TIMINGS} for r in engine] == \
        [{k: v for k, v in r.items() if k not in RECORD_TIMINGS} for r in records]
    record = records[0]
    rules_file = tmp_path / "rules.toml"
    rules_file.write_text("".join(f"{k} = {v}\n" for k, v in (rules or {}).items()), encoding="utf-8")
    saved = tmp_path / "game.json"
    try:
        code = main([name, "play", "--players", ",".join(record["seats"]).replace("#2", ""), "--seed", str(record["seed"]),
                     "--max-nodes", str(QUICK.max_nodes), "--rules", str(rules_file), "--save", str(saved)])
    except SystemExit as exc:
        code = int(exc.code or 0)
    capsys.readouterr()
    assert code == 0
    game, final = replay_record(record)
    assert json.loads(saved.read_text(encoding="utf-8")) == game.state_to_json(final)
