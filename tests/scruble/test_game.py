"""Scruble game: referee refusals (state unchanged), JSON replay, AIs and simulation."""

from __future__ import annotations

import json

import pytest

from kubasolve.errors import IllegalMoveError, StateError
from kubasolve.games.scruble.ai import make_policy
from kubasolve.games.scruble.game import ScrubleGame, Turn, play_game, replay_check
from kubasolve.games.scruble.solver import best_words


def test_illegal_turns_are_refused_with_the_reason_and_state_unchanged(en):
    game = ScrubleGame.new(2, seed=4)
    before = json.dumps(game.to_dict())
    cases = [
        (Turn(("X",)), "bad twist notation"),
        (Turn(()), "at least one twist"),
        (Turn(("R", "U", "F", "L")), "at most 3 twists"),
        (Turn(("R",), "qqqzx"), "not a word"),
        (Turn(("R",), "zebra"), "cannot be read"),
    ]
    for turn, reason in cases:
        with pytest.raises(IllegalMoveError, match=reason):
            game.play(turn, en)
        assert json.dumps(game.to_dict()) == before


def test_word_without_new_letter_is_refused(en):
    game = ScrubleGame.new(1, seed=4)
    best = best_words(game.cube, en, game.rules, depth=1, top=1)[0]
    game.play(Turn(tuple(best.notation()), best.word), en)
    # the same word, after a twist that does not touch it, has no new letter
    g = game.rules
    from kubasolve.games.scruble.cube import Twist, geometry

    cells = set(best.cells)
    quiet = next(Twist.from_index(t).notation() for t in range(36)
                 if not any(geometry().twist_changed[t, c] for c in cells))
    with pytest.raises(IllegalMoveError, match="no new letter"):
        game.play(Turn((quiet,), best.word, best.cells), en)
    assert g.max_twists == 3


def test_solver_moves_are_legal_and_score_as_the_referee_says(en):
    game = ScrubleGame.new(2, seed=9)
    for _ in range(4):
        m = best_words(game.cube, en, game.rules, depth=2, top=1, earlier=game.intact_words())[0]
        rec = game.play(Turn(tuple(m.notation()), m.word, m.cells), en)
        assert rec["score"] == m.score


def test_game_json_replays_exactly_and_tampering_is_refused(en):
    game = play_game([make_policy("greedy", 1), make_policy("random", 2)], 5, en)
    assert game.over and game.turn <= 20
    assert replay_check(game, en)
    d = game.to_dict()
    d["scores"] = [s + 1 for s in d["scores"]]
    with pytest.raises(StateError, match="scores"):
        ScrubleGame.from_dict(d, en)


def test_solo_game_lasts_the_rounds(en):
    game = play_game([make_policy("greedy", 0)], 3, en)
    assert game.turn == game.rules.rounds and game.scores[0] > 0


