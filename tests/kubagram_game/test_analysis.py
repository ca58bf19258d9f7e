"""`kubasolve kubagram analyse`: per-turn best claim vs the one made, words left, per-player summary - on real games."""

from __future__ import annotations

import io
import json

import pytest

from kubasolve.errors import StateError
from kubasolve.games.kubagram.actions import Claim
from kubasolve.games.kubagram.ai import GreedyPolicy, RandomPolicy
from kubasolve.games.kubagram.analysis import analyse_file, analyse_game, load_game_record
from kubasolve.games.kubagram.game import play_game
from kubasolve.scale.selfplay import simulate


@pytest.fixture(scope="module")
def records_file(tmp_path_factory, referee):  # type: ignore[no-untyped-def]
    """Two real games written by the simulator (greedy against random)."""
    out = io.StringIO()
    simulate("kubagram", ["greedy", "random"], 2, seed=14, workers=1, records=out)
    path = tmp_path_factory.mktemp("analyse") / "games.jsonl"
    path.write_text(out.getvalue(), encoding="utf-8")
    return path


def test_simulated_game_is_replayed_and_accounted(records_file, referee, lexicon) -> None:
    """The analysis replays the record to its scores; per player: made - taken by the other + adjustments = score."""
    rows = [json.loads(line) for line in records_file.read_text().splitlines()]
    for row in rows:
        analysis = analyse_file(records_file, row["index"], lexicon=lexicon)
        assert list(analysis.scores) == row["scores"] and list(analysis.winners) == row["winners"]
        record = load_game_record(records_file, row["index"])
        final = referee.new_game(record.seed, 2)
        for _, action in record.actions:
            final = referee.apply(final, action)
        for p in (0, 1):
            made = sum(t.made for t in analysis.turns if t.player == p)
            lost = sum(t.taken for t in analysis.turns if t.player != p)
            adjust = sum(points for who, points, _ in final.adjustments if who == p)
            assert made - lost + adjust == analysis.scores[p]
            summary = analysis.players[p]
            assert summary.seat == row["seats"][p]
            assert summary.made == made and summary.missed == sum(t.missed for t in analysis.turns if t.player == p)
        assert sum(len(t.actions) for t in analysis.turns) == sum(len(turn["actions"]) for _, turn in row["actions"])
        json.dumps(analysis.to_dict())  # JSON-able for frontends


def test_one_claim_never_beats_the_best_available(records_file, lexicon) -> None:
    """A turn with a single claim made at most the best claim (which tries every take option and up to 3 items)."""
    analysis = analyse_file(records_file, 0, lexicon=lexicon)
    single = [t for t in analysis.turns if sum(isinstance(a, Claim) for a in t.actions) == 1]
    assert single
    for t in single:
        assert 0 < t.made <= t.best, t
        assert t.missed == t.best - t.made


def test_a_player_who_never_claims_misses_everything(tmp_path, referee, lexicon) -> None:
    """Random with claim probability 0 makes nothing: every turn misses the whole best claim, and the greedy player
    after it finds the words it left (its best available at the start of its turn is at least what was left)."""
    rec = play_game([RandomPolicy(seed=3, claim_probability=0.0), GreedyPolicy()], seed=21, referee=referee)
    line = {"seed": 21, "seats": ["lazy", "greedy"], "actions": [[p, a.to_dict()] for p, a in rec.final.history]}
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    analysis = analyse_file(path, lexicon=lexicon)
    lazy = [t for t in analysis.turns if t.player == 0]
    assert all(t.made == 0 and t.missed == t.best for t in lazy)
    assert analysis.players[0].missed == sum(t.best for t in lazy) > 0
    left = [t for t in lazy if t.left_best > 0]
    assert left, "a player who never claims leaves words"
    for t in left:
        assert t.left_words and all(score > 0 for _, score in t.left_words)
        after = analysis.turns[analysis.turns.index(t) + 1]
        assert after.player == 1 and after.best >= t.left_best


def test_saved_play_game_is_analysed_with_its_rules(tmp_path, referee, lexicon) -> None:
    """A `play --save` file (seats, seed, state with history) is analysed from its verified state."""
    rec = play_game([GreedyPolicy(), GreedyPolicy()], seed=8, referee=referee)
    save = {"format": "kubasolve-kubagram-play-1", "seats": ["me", "greedy"], "seed": 8, "state": rec.final.to_dict()}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(save), encoding="utf-8")
    analysis = analyse_file(path, lexicon=lexicon)
    assert analysis.scores == rec.final.scores
    assert [p.seat for p in analysis.players] == ["me", "greedy"]


def test_bad_records_are_clear_errors(tmp_path, records_file, referee, lexicon) -> None:
    with pytest.raises(StateError, match="no game record"):
        load_game_record(tmp_path / "missing.jsonl")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"x": 1}\n', encoding="utf-8")
    with pytest.raises(StateError, match="not a kubagram simulate record"):
        load_game_record(bad)
    with pytest.raises(StateError, match="holds no game with index 7"):
        load_game_record(records_file, 7)
    row = json.loads(records_file.read_text().splitlines()[0])
    row["actions"].insert(0, [row["actions"][0][0], {"type": "end"}])  # ending a turn before taking (a bare action)
    forged = tmp_path / "forged.jsonl"
    forged.write_text(json.dumps(row) + "\n", encoding="utf-8")
    with pytest.raises(StateError, match="does not replay"):
        analyse_game(load_game_record(forged), referee)


def test_cli_analyse_json_and_table(records_file, capsys) -> None:
    from kubasolve.cli.main import main

    assert main(["kubagram", "analyse", str(records_file), "--index", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert main(["kubagram", "analyse", str(records_file), "--game", "1", "--json"]) == 0  # the older name of --index
    assert json.loads(capsys.readouterr().out) == data
    assert data["ok"] and len(data["players"]) == 2 and data["turns"][0]["turn"] == 1
    assert {"made", "best", "missed", "best_claim", "left_words"} <= set(data["turns"][0])
    assert main(["kubagram", "analyse", str(records_file)]) == 0
    out = capsys.readouterr().out
    assert "best available" in out and "missed" in out
    assert main(["kubagram", "analyse", str(records_file) + ".nope"]) == 1
    assert "no game record" in capsys.readouterr().err
