"""Scruble planner: the candidates it weighs are legal turns scored as the referee scores them, its
pruned choice has the value of an unpruned search over the same candidates, and a reply search that
stops at ``stop_at`` agrees with the full search."""

from __future__ import annotations

import pytest

from kubasolve.games.scruble.ai import LOSS, handed_over, make_policy, plan, reply_value
from kubasolve.games.scruble.game import ScrubleGame, play_game
from kubasolve.games.scruble.position import Cube
from kubasolve.games.scruble.rules import ScrubleRules
from kubasolve.games.scruble.solver import search

from .games import midgame


@pytest.mark.parametrize("seed", [1, 7])
def test_stop_at_agrees_with_the_full_search(en, seed):
    rules = ScrubleRules()
    cube = Cube.scrambled(rules.pegs, seed)
    full, stats = search(cube, en, rules, 2, 1)
    assert stats.complete and not stats.stopped
    best = full[0].score
    for stop in (best - 10, best - 1, best, best + 1):
        moves, st = search(cube, en, rules, 2, 1, stop_at=stop)
        if stop > best:  # nothing reaches it: the full answer
            assert st.complete and not st.stopped and moves == full
        else:
            assert moves[0].score >= stop
            assert st.stopped == (not st.complete)
            if st.complete:
                assert moves == full
    assert search(cube, en, rules, 2, 1, stop_at=0)[1].stopped  # any word stops it at once


@pytest.mark.parametrize("seed,turns", [(2, 1), (5, 2)])
def test_candidates_are_legal_turns_scored_like_the_referee(en, seed, turns):
    game = midgame(en, seed, turns)
    moves, _ = search(game.cube, en, game.rules, 2, 12, game.intact_words(), spent=game.spent_premiums())
    cands = handed_over(game, moves, 2)
    assert len({c.after for c in cands}) == len(cands)
    assert len(cands) > len({m.word for m in moves})  # one-twist words give extra cubes to hand over
    for c in cands[:40]:
        trial = ScrubleGame.from_dict(game.to_dict(), en)
        rec = trial.play(c.turn(), en)
        assert rec["word"] == c.move.word and rec["score"] == c.own
        assert trial.cube == c.after
        assert sorted(w.cells for w in trial.intact_words()) == sorted(w.cells for w in c.earlier_after)
        assert set(trial.spent_premiums()) == set(c.spent_after)  # the reply search's spent premiums


@pytest.mark.parametrize("seed,turns", [(3, 1), (11, 2)])
def test_pruned_choice_has_the_unpruned_value(en, seed, turns):
    game = midgame(en, seed, turns)
    choice = plan(game, en, candidates=6, max_replies=10_000)
    assert choice is not None
    moves, _ = search(game.cube, en, game.rules, 2, 6, game.intact_words(), spent=game.spent_premiums())
    to_target = game.rules.target_score + 1 - game.scores[(game.to_move + 1) % 2]  # points that pass the target
    values = []
    for c in handed_over(game, moves, 2):
        reply, _ = search(c.after, en, game.rules, 2, 1, c.earlier_after, spent=c.spent_after)
        values.append(reply_value(c.own, reply[0].score if reply else 0, to_target))
    assert choice[1] == max(values)


def test_no_reply_weighed_when_the_word_ends_the_game(en):
    game = midgame(en, 4, 2)
    best = search(game.cube, en, game.rules, 2, 1, game.intact_words(), spent=game.spent_premiums())[0][0]
    game.scores[game.to_move] = game.rules.target_score - best.score  # the best word only reaches the target...
    assert plan(game, en) is not None
    game.scores[game.to_move] += 1  # ...and now passes it: the game ends with it
    assert plan(game, en) is None
    turn = make_policy("planner")(game, en)
    assert (turn.word, list(turn.twists)) == (best.word, best.notation())
    game.scores[game.to_move] = 0
    game.turn = game.rules.rounds * game.players - 1  # the game's last turn
    assert plan(game, en) is None


def test_reply_passing_the_target_is_a_loss():
    assert reply_value(30, 20, 21) == 10
    assert reply_value(30, 21, 21) == 9 - LOSS


def test_planner_plays_whole_games(en):
    game = play_game([make_policy("planner", 1), make_policy("greedy", 2)], 9, en)
    assert game.over and len(game.history) == game.turn
