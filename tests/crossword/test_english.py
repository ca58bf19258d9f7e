"""The English variant: ``--lexicon en --tiles en`` (the bundled SCOWL list, wordlists/en/, and the
standard English tiles, data/tiles_en.toml) plays through the referee, the move generator, the AIs and
the CLI. Issue 10: "An English variant (standard distribution) with an English word list is welcome."
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from kubasolve.cli.main import main
from kubasolve.games.crossword.ai import make_policy
from kubasolve.games.crossword.board import Board
from kubasolve.games.crossword.game import Referee, play_game, replay
from kubasolve.games.crossword.movegen import generate_moves
from kubasolve.games.crossword.rules import CrosswordRules

EMPTY_CGP = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0"


@pytest.fixture(scope="module")
def en_referee() -> Referee:
    from kubasolve import load_lexicon

    return Referee(load_lexicon("en"), CrosswordRules.from_toml("en"))


def test_english_tiles_are_the_standard_distribution(en_referee):
    tiles = en_referee.tiles
    assert tiles.total == 100 and tiles.counts["?"] == 2
    assert (tiles.counts["E"], tiles.counts["A"], tiles.counts["I"], tiles.counts["O"]) == (12, 9, 9, 8)
    assert {ch: tiles.values[ch] for ch in "QZJXKE"} == {"Q": 10, "Z": 10, "J": 8, "X": 8, "K": 5, "E": 1}
    assert CrosswordRules().with_(tiles="en").tile_set() == tiles


def test_english_opening_bingo(en_referee):
    """AEINRST on the empty board: the best plays are 7-letter words through the centre: (7 one-point
    letters + one doubled on a double-letter square) x 2 (centre) + 50 (bingo) = 66."""
    board = Board.empty(15, 15, en_referee.lexicon.alphabet)
    ml = generate_moves(board, "AEINRST", en_referee.lexicon, en_referee.layout, en_referee.tiles, top=10)
    assert ml.max_score == 66
    assert all(m.bingo and m.word.lower() in en_referee.lexicon for m in ml.moves if m.score == 66)
    assert {"RETAINS", "NASTIER"} <= {m.word for m in ml.moves}


def test_english_game_plays_through(en_referee):
    rec = play_game([make_policy("score"), make_policy("equity:300")], 3, en_referee)
    state = replay(rec.seed, rec.actions, 2, en_referee)
    assert state.over and list(state.scores) == list(rec.scores)
    held = Counter("?" if ch.islower() else ch for row in state.board.to_rows() for ch in row if ch != ".")
    held += Counter(state.bag + "".join(state.racks))
    assert held == Counter(en_referee.tiles.counts)
    words = [w for e in state.log if e["type"] == "place" for w in e["words"]]
    assert words and all(w.lower() in en_referee.lexicon for w in words)
    # under the Dutch tiles the same deal is different (the English bag is 100 tiles)
    assert len(en_referee.new_game(3, 2).bag) == 100 - 14


def test_english_cli_moves_and_simulate(capsys, tmp_path, en_referee):
    assert main(["crossword", "moves", "--board", EMPTY_CGP, "--tiles", "en", "--lexicon", "en", "--top", "3", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["max_score"] == 66 and out["count"] > 0
    records = tmp_path / "games.jsonl"
    args = ["crossword", "simulate", "--games", "2", "--players", "score,score", "--seed", "1", "--lexicon", "en", "--tiles", "en",
            "--records", str(records), "--json", "--no-progress"]
    assert main(args) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["games"] == 2
    for line in records.read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        state = replay(rec["seed"], rec["actions"], 2, en_referee)  # the games are legal English games
        assert state.over and list(state.scores) == rec["scores"]
