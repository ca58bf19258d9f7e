"""Scruble work budgets (issue 8): a :class:`StateBudget` caps the twist states of all the searches of a
request; the answer is then the best found so far, a legal one, and a node budget alone is deterministic."""

from __future__ import annotations

import pytest

from kubasolve.errors import PositionError
from kubasolve.games.scruble.ai import handed_over, make_policy, plan, reply_value
from kubasolve.games.scruble.game import ScrubleGame, Turn
from kubasolve.games.scruble.position import Cube
from kubasolve.games.scruble.rules import ScrubleRules
from kubasolve.games.scruble.solver import StateBudget, search

from .games import midgame


def _legal(game: ScrubleGame, turn: Turn, en) -> dict:
    """The referee's record of ``turn`` played on a copy of ``game`` (raises if it is illegal)."""
    trial = ScrubleGame.from_dict(game.to_dict(), en)
    return trial.play(turn, en)


def test_roomy_budget_gives_the_unbudgeted_answer_and_counts_its_states(en):
    rules = ScrubleRules()
    cube = Cube.scrambled(rules.pegs, 3)
    full, stats = search(cube, en, rules, 2, 20)
    budget = StateBudget(max_nodes=10**8, movetime_ms=600_000)
    moves, st = search(cube, en, rules, 2, 20, budget=budget)
    assert moves == full and st == stats
    assert not budget.exhausted and budget.nodes == stats.states


@pytest.mark.parametrize("limit", [1, 40, 300])
def test_node_budget_cuts_the_search_to_its_states(en, limit):
    rules = ScrubleRules()
    cube = Cube.scrambled(rules.pegs, 5)
    full, stats = search(cube, en, rules, 2, 5)
    assert stats.states > limit
    budget = StateBudget(max_nodes=limit)
    moves, st = search(cube, en, rules, 2, 5, budget=budget)
    assert budget.exhausted and not st.complete and not st.stopped
    assert st.states == budget.nodes == limit
    assert all(m.score <= full[0].score for m in moves)
    again, _ = search(cube, en, rules, 2, 5, budget=StateBudget(max_nodes=limit))
    assert again == moves  # deterministic
    game = ScrubleGame.new(2, 0)
    game.cube = cube
    for m in moves:  # each a legal turn, scored as the referee scores it
        rec = _legal(game, Turn(tuple(m.notation()), m.word, m.cells), en)
        assert rec["score"] == m.score


def test_one_budget_is_shared_by_the_searches_of_a_request(en):
    rules = ScrubleRules()
    cube = Cube.scrambled(rules.pegs, 8)
    budget = StateBudget(max_nodes=1500)
    _, first = search(cube, en, rules, 2, 1, budget=budget)  # a whole depth-2 search: 1,063 states
    assert first.complete and not budget.exhausted
    _, second = search(cube, en, rules, 2, 1, budget=budget)
    assert not second.complete and second.states == 1500 - first.states and budget.exhausted
    moves, third = search(cube, en, rules, 2, 1, budget=budget)  # spent: no search at all
    assert moves == [] and third.states == 0 and budget.nodes == 1500


@pytest.mark.parametrize("bad", [0, -1, "5", True, 1.5])
def test_bad_budgets_are_refused(bad):
    with pytest.raises(PositionError, match="max_nodes"):
        StateBudget(max_nodes=bad)
    if not isinstance(bad, float):
        with pytest.raises(PositionError, match="movetime_ms"):
            StateBudget(movetime_ms=bad)


@pytest.mark.parametrize("ai", ["greedy", "planner"])
def test_budgeted_ai_turns_are_legal_and_deterministic(en, ai):
    game = midgame(en, 6, 2)
    unbudgeted = make_policy(ai, 1)(game, en)
    roomy = StateBudget(max_nodes=10**8)
    assert make_policy(ai, 1)(game, en, roomy) == unbudgeted and not roomy.exhausted
    for limit in (1, 60, 700, 3000):
        budget = StateBudget(max_nodes=limit)
        turn = make_policy(ai, 1)(game, en, budget)
        assert budget.exhausted == (limit < roomy.nodes) and budget.nodes <= limit
        if not budget.exhausted:
            assert turn == unbudgeted
        assert make_policy(ai, 1)(game, en, StateBudget(max_nodes=limit)) == turn
        _legal(game, turn, en)
    timed = make_policy(ai, 1)(game, en, StateBudget(movetime_ms=5))
    _legal(game, timed, en)


def test_planner_plays_the_best_word_when_the_first_search_spends_the_budget(en):
    game = midgame(en, 4, 2)
    moves, stats = search(game.cube, en, game.rules, 2, 48, game.intact_words(), spent=game.spent_premiums())
    assert stats.complete
    budget = StateBudget(max_nodes=stats.states)  # exactly the candidate search: nothing left for the replies
    assert plan(game, en, work=StateBudget(max_nodes=stats.states)) is None
    turn = make_policy("planner")(game, en, budget)
    assert (turn.word, list(turn.twists), turn.cells) == (moves[0].word, moves[0].notation(), moves[0].cells)


def test_planner_cut_in_its_first_reply_search_plays_the_best_bound(en):
    game = midgame(en, 11, 2)
    moves, first = search(game.cube, en, game.rules, 2, 48, game.intact_words(), spent=game.spent_premiums())
    to_target = game.rules.target_score - game.scores[(game.to_move + 1) % 2]
    cands = handed_over(game, moves, 2)
    spent, bounds = first.states, []
    for c in cands:
        low, st = search(c.after, en, game.rules, 1, 1, c.earlier_after, spent=c.spent_after)
        spent += st.states
        bounds.append(reply_value(c.own, low[0].score if low else 0, to_target))
    budget = StateBudget(max_nodes=spent + 1)  # the first reply search expands one state and is cut
    choice = plan(game, en, work=budget)
    assert choice is not None and budget.exhausted and budget.nodes == spent + 1
    assert choice[1] == max(bounds)  # the cut reply is not counted: the value is the best bound
    assert bounds[cands.index(choice[0])] == max(bounds)
    _legal(game, choice[0].turn(), en)
    full = plan(game, en)
    roomy = StateBudget(max_nodes=10**8)
    assert full is not None and plan(game, en, work=roomy) == full and not roomy.exhausted


def test_warm_up_does_the_first_search_work_once(en):
    """warm_up (run by the engine before it starts a budget's clock) builds the lexicon's tables, so the timed
    search that follows does not pay for them; a second call does nothing."""
    from kubasolve.games.scruble import solver

    lexicon = en
    rules = ScrubleRules()
    cube = Cube.scrambled(rules.pegs, 1)
    solver._WARM.discard(lexicon)
    solver._LEXICON_TABLES.pop(lexicon, None)
    solver.warm_up(cube, lexicon, rules)
    assert lexicon in solver._LEXICON_TABLES and lexicon in solver._WARM
    tables = solver._LEXICON_TABLES[lexicon]
    solver.warm_up(cube, lexicon, rules)
    assert solver._LEXICON_TABLES[lexicon] is tables


def test_a_time_budget_buys_the_states_the_kernel_is_measured_to_expand(en, monkeypatch):
    """The kernel cannot read the clock, so a time budget becomes states at an assumed 60 states/ms; at load 2.5-3.6
    the kernel ran 21-45 states/ms and a 100 ms ``legal-moves`` took 260-330 ms. A search now measures the kernel's
    rate and the next time budget uses half of it when that is lower. Here a fake clock makes one search look slow
    (one second for its states): the next 100 ms budget buys far fewer states than at the assumed rate."""
    import time

    monkeypatch.setattr(StateBudget, "measured", None, raising=False)  # (restored afterwards)
    rules = ScrubleRules()
    cube = Cube.scrambled(rules.pegs, 3)
    search(cube, en, rules, 0, 1)  # the one-time set-up, outside the fake clock
    assumed = StateBudget(movetime_ms=100).node_limit(1)
    real = time.perf_counter()
    ticks = iter(range(1, 10**6))
    with monkeypatch.context() as clock:
        clock.setattr(time, "perf_counter", lambda: real + next(ticks))  # every reading a second later
        _, stats = search(cube, en, rules, 2, 1, budget=StateBudget(max_nodes=5000))
    assert stats.states >= StateBudget.MEASURE_MIN_STATES
    measured = StateBudget(movetime_ms=100).node_limit(1)
    assert 0 < measured < assumed / 10, (measured, assumed)
