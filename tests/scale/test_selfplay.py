"""One self-play for every game (issue 21, point 4): ``kubasolve.simulate(game, players, games, ...)`` over the game
protocol, the same summary and the same record schema for all five games and a sixth one registered outside the
package; every record replays through the protocol; the records do not depend on the number of workers."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from kubasolve.budget import Budget
from kubasolve.errors import KubasolveError, RulesError, StateError
from kubasolve.scale.selfplay import RECORD_TIMINGS, replay_record, simulate

NIM = str(Path(__file__).resolve().parents[1] / "protocol" / "nim_game.py")
CHEAP = {  # the quickest AIs of each game: a whole game each
    "kubagram": ["greedy", "random"],
    "rummikub": ["greedy", "holdback"],
    "crossword": ["score", "score"],
    "colonii": ["greedy", "random"],
    "scruble": ["greedy", "random"],
    "nim": ["greedy", "random"],
}
RECORD_KEYS = {"game", "index", "seed", "players", "seats", "rules", "lexicon", "scores", "winners", "over", "turns",
               "actions", "mean_turn_ms", "wall_s"}
SUMMARY_KEYS = {"ai", "wins", "win_rate", "ci95_low", "ci95_high", "mean_score", "mean_turn_ms"}


@pytest.mark.parametrize("game", sorted(CHEAP))
def test_every_game_has_the_same_records_and_summary_and_its_records_replay(game: str) -> None:
    out = io.StringIO()
    modules = [NIM] if game == "nim" else []
    done: list[tuple[int, int]] = []
    res = simulate(game, CHEAP[game], 2, seed=3, records=out, on_game=lambda d, t: done.append((d, t)), game_modules=modules)
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(records) == 2 and done == [(1, 2), (2, 2)]
    summary = res.to_dict()
    assert summary["game"] == game and summary["games"] == 2 and summary["games_per_s"] > 0 and summary["wall_s"] > 0
    assert [set(r) for r in summary["summary"]] == [SUMMARY_KEYS] * 2
    assert sum(r["wins"] for r in summary["summary"]) + summary["unfinished"] == pytest.approx(2)
    for k, rec in enumerate(records):
        assert set(rec) == RECORD_KEYS and rec["game"] == game and rec["index"] == k and rec["over"]
        assert rec["players"] == rec["seats"] and len(rec["mean_turn_ms"]) == len(rec["seats"])
        assert all(isinstance(p, int) and isinstance(a, dict) for p, a in rec["actions"]) and rec["turns"] == len(rec["actions"])
        kind, state = replay_record(rec)
        view = kind.result(state)
        assert view.over and view.scores == rec["scores"] and view.winners == rec["winners"]
    assert records[1]["seats"] == list(reversed(records[0]["seats"]))  # the seats rotate game by game


def test_records_do_not_depend_on_the_workers_and_a_node_budget_keeps_them_deterministic() -> None:
    def run(workers: int) -> list[dict]:
        out = io.StringIO()
        simulate("rummikub", ["greedy", "holdback"], 3, seed=7, workers=workers, budget=Budget(max_nodes=100_000), records=out)
        return [{k: v for k, v in json.loads(line).items() if k not in RECORD_TIMINGS} for line in out.getvalue().splitlines()]

    assert run(1) == run(2)


def test_a_repeated_ai_gets_its_own_label_and_ties_are_shared() -> None:
    res = simulate("nim", ["greedy", "greedy"], 4, seed=1, game_modules=[NIM])
    rows = {r["ai"]: r for r in res.to_dict()["summary"]}
    assert set(rows) == {"greedy", "greedy#2"} and sum(r["wins"] for r in rows.values()) == pytest.approx(4)


@pytest.mark.parametrize("kwargs, message", [
    ({"players": ["greedy", "oracle"]}, "unknown rummikub AI 'oracle'; choose from greedy, holdback"),
    ({"games": 0}, "games must be a whole number"),
    ({"workers": 1.5}, "workers must be a whole number"),
    ({"seed": -1}, r"seed must be a whole number from 0 to 9223372036854775807 \(2\*\*63 - 1\), got -1"),
    ({"seed": 2**63}, "seed must be a whole number from 0 to"),
    ({"players": ["greedy"]}, "rummikub is played by 2 to"),
    ({"ai_options": {"depth": 3}}, "depth: unknown rummikub AI setting"),
    # these three were an AttributeError traceback (records: after the first game had been played)
    ({"budget": 500}, "budget must be a kubasolve.Budget"),
    ({"records": "games.jsonl"}, "records must be a text stream"),
    ({"on_game": "yes"}, "on_game must be a function"),
    ({"seed": "1"}, r"seed must be a whole number from 0 to .*, got '1'"),
])
def test_bad_arguments_are_refused_before_any_game(kwargs: dict, message: str) -> None:
    args = {"players": ["greedy", "holdback"], "games": 1} | kwargs
    with pytest.raises(KubasolveError, match=message):
        simulate("rummikub", **args)


def test_an_ai_setting_the_game_does_not_take_is_refused_before_any_game() -> None:
    with pytest.raises(RulesError, match="equity2:win: the option is") as caught:
        simulate("crossword", ["sim2:spread:400ms", "equity2:win"], 2, seed=1)
    assert caught.value.key == "players"


def test_an_unknown_game_names_the_known_ones() -> None:
    with pytest.raises(KubasolveError, match="unknown game 'chess'; known: colonii, crossword, kubagram"):
        simulate("chess", ["a", "b"], 1)
    with pytest.raises(RulesError):
        simulate("rummikub", ["greedy", "greedy"], 1, rules={"jokers": 9})


def test_a_record_that_does_not_replay_is_refused() -> None:
    out = io.StringIO()
    simulate("nim", ["greedy", "random"], 1, seed=2, records=out, game_modules=[NIM])
    rec = json.loads(out.getvalue())
    with pytest.raises(StateError, match="the record says"):
        replay_record({**rec, "scores": [s + 1 for s in rec["scores"]]})
    with pytest.raises(StateError, match=r"actions\[0\]: recorded for player"):
        replay_record({**rec, "actions": [[1 - rec["actions"][0][0], rec["actions"][0][1]], *rec["actions"][1:]]})
    with pytest.raises(StateError, match="not a simulate record: seed missing"):
        replay_record({k: v for k, v in rec.items() if k != "seed"})
    # these were TypeError tracebacks ("game seed players rules actions scores" passed the key check as a str)
    for bad, message in ((None, "a JSON object"), ("game seed players rules actions scores", "a JSON object"),
                         ({**rec, "actions": 5}, "actions must be a list"), ({**rec, "players": 2}, "players must be a list")):
        with pytest.raises(StateError, match=message):
            replay_record(bad)  # type: ignore[arg-type]


def test_the_old_kubagram_simulate_still_works() -> None:
    from kubasolve import simulate_kubagram

    res = simulate_kubagram(1, ["greedy", "random"], seed=4, rules={"min_length": 5}, game_rules={"nonword_penalty": 3})
    assert res.game == "kubagram" and res.games == 1


def test_paired_runs_play_every_deal_once_per_seat_rotation() -> None:
    """``paired``: games 2k and 2k+1 share a deal (the same seed and so the same tiles) with the seats swapped; the
    deals differ from pair to pair; an odd game count is refused before any game."""
    out = io.StringIO()
    res = simulate("crossword", ["score", "score"], 4, seed=5, records=out, paired=True)
    recs = [json.loads(line) for line in out.getvalue().splitlines()]
    assert res.to_dict()["paired"] is True and [r["index"] for r in recs] == [0, 1, 2, 3]
    assert recs[0]["seed"] == recs[1]["seed"] != recs[2]["seed"] == recs[3]["seed"]
    assert recs[1]["seats"] == list(reversed(recs[0]["seats"]))
    for rec in recs:
        kind, state = replay_record(rec)
        assert kind.result(state).over
    unpaired = io.StringIO()
    simulate("crossword", ["score", "score"], 2, seed=5, records=unpaired)
    assert [json.loads(line)["seed"] for line in unpaired.getvalue().splitlines()][1] != recs[1]["seed"]
    with pytest.raises(RulesError, match="games must be a multiple of 2, got 3"):
        simulate("crossword", ["score", "score"], 3, seed=5, paired=True)


def test_the_summary_reports_the_workers_that_played_not_only_those_asked_for() -> None:
    """``--workers 8`` for 2 games plays on 2 processes: the summary said "8 worker(s)"; now the JSON has ``workers``
    (asked) and ``workers_used``, the text the number used and the one requested."""
    from kubasolve.cli.output import simulation_summary

    res = simulate("rummikub", CHEAP["rummikub"], 2, seed=1, workers=8)
    assert res.to_dict()["workers"] == 8 and res.to_dict()["workers_used"] == 2
    assert ", 2 worker(s) (8 requested), " in simulation_summary(res)
    one = simulate("rummikub", CHEAP["rummikub"], 1, seed=1, workers=1)
    assert one.to_dict()["workers_used"] == 1 and ", 1 worker(s), " in simulation_summary(one)
