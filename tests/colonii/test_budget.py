"""Best turns within a work budget (issue 8) and the kernel's card-value bound against the unpruned search."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubasolve.errors import PositionError
from kubasolve.games.colonii.movegen import ColoniiSolver, Turn, TurnBudget, move_key
from kubasolve.games.colonii.reference import reference_best_turn, turn_key
from kubasolve.games.colonii.rules import ColoniiRules
from kubasolve.games.colonii.table import ColoniiPosition, Group, apply_move, judge, remove_cards
from kubasolve.lexicon import Lexicon

from .helpers import whole_and_sliced
from .test_movegen import cases

HAND_30 = "aaeeiioouurrsstnnlmcpdăâîștțbv"
TABLE = (Group(("cal",), 1, 4), Group(("ziar",), 1, 6), Group(("tac",), 0, 4), Group(("mare", "erou"), 1))


def assert_legal(turn: Turn, pos: ColoniiPosition, rules: ColoniiRules, lex: Lexicon) -> None:
    """Replaying the turn move by move through the rules (:func:`judge`) accepts every move as given."""
    table, hand = pos.table, pos.hand
    for m in turn.moves:
        judged = judge(ColoniiPosition(table, hand, pos.mover, pos.n_players), m.play, m.target, m.word, rules, lex)
        assert (judged.kind, judged.cards, judged.deltas) == (m.kind, m.cards, m.deltas)
        table, hand = apply_move(table, judged, rules), remove_cards(hand, judged.cards)
    assert not Counter(turn.cards) - Counter(pos.hand)


@settings(max_examples=60, deadline=None)
@given(cases(), st.sampled_from(["gain", "swing"]), st.integers(1, 3), st.integers(1, 6))
def test_a_search_cut_into_slices_finds_the_same_turn(case, objective, max_moves, slice_nodes) -> None:
    lex, rules, pos = case
    whole, sliced = whole_and_sliced(lex, rules, pos, objective, max_moves, slice_nodes)
    assert sliced == whole and sliced.proven_optimal and whole.proven_optimal
    assert turn_key(sliced.moves, objective) == reference_best_turn(pos, lex, rules, objective, max_moves)


@settings(max_examples=60, deadline=None)
@given(cases(), st.sampled_from(["gain", "swing"]), st.integers(1, 3))
def test_the_value_bound_changes_no_answer(case, objective, max_moves) -> None:
    lex, rules, pos = case
    solver = ColoniiSolver(lex, rules)
    unpruned = solver.best_turn(pos, objective, max_moves, value_bound=False)
    assert turn_key(solver.best_turn(pos, objective, max_moves).moves, objective) == turn_key(unpruned.moves, objective)


@settings(max_examples=40, deadline=None)
@given(cases(), st.sampled_from(["gain", "swing"]), st.integers(2, 3))
def test_more_nodes_never_give_a_worse_turn_and_every_turn_is_legal(case, objective, max_moves) -> None:
    lex, rules, pos = case
    solver = ColoniiSolver(lex, rules)
    exact = turn_key(solver.best_turn(pos, objective, max_moves).moves, objective)
    keys = []
    for nodes in (1, 2, 5, 20, 100, 10**6):
        turn = solver.best_turn(pos, objective, max_moves, TurnBudget(max_nodes=nodes))
        assert_legal(turn, pos, rules, lex)
        keys.append(turn_key(turn.moves, objective))
        assert turn.proven_optimal is False or keys[-1] == exact
    assert keys == sorted(keys) and keys[-1] <= exact
    single = turn_key(solver.best_turn(pos, objective, 1).moves, objective)
    assert keys[0] >= single  # the best legal single move stands in for an unfinished search


def test_real_lexicon_value_bound_equals_the_unpruned_search(ro) -> None:
    rules = ColoniiRules()
    solver = ColoniiSolver(ro, rules)
    deck = [c for c, n in rules.card_counts.items() for _ in range(n)]
    for seed in range(6):
        rng = random.Random(seed)
        hand = "".join(rng.sample(deck, 14))
        pos = ColoniiPosition(TABLE if seed % 2 else (), hand, 0, 2)
        for objective in ("gain", "swing"):
            pruned = solver.best_turn(pos, objective, 3)
            unpruned = solver.best_turn(pos, objective, 3, value_bound=False)
            assert turn_key(pruned.moves, objective) == turn_key(unpruned.moves, objective), hand
            assert pruned.proven_optimal and unpruned.proven_optimal


def test_thirty_cards_in_three_moves_are_proven_or_cut_by_the_budget(ro) -> None:
    """The issue's slow case (about a minute before the value bound): every card and both best stakes used."""
    rules = ColoniiRules()
    solver = ColoniiSolver(ro, rules)
    pos = ColoniiPosition(TABLE, HAND_30, 0, 2)
    exact = solver.best_turn(pos, "gain", 3)
    assert exact.proven_optimal and sorted(exact.cards) == sorted(HAND_30) and exact.taken == 6 + 4
    nodes = len(solver.move_table(pos, legal_only=False)) + 1000  # the preparation (a node per move) and 1,000 more
    tiny = TurnBudget(max_nodes=nodes)
    cut = solver.best_turn(pos, "gain", 3, tiny)
    assert cut.proven_optimal is False and tiny.nodes == nodes and tiny.exhausted
    assert_legal(cut, pos, rules, ro)
    assert cut == solver.best_turn(pos, "gain", 3, TurnBudget(max_nodes=nodes))  # a node budget is deterministic
    roomy = solver.best_turn(pos, "gain", 3, TurnBudget(max_nodes=10**11, movetime_ms=600_000))
    assert roomy == exact and roomy.proven_optimal


@pytest.mark.parametrize("bad", [{"max_nodes": 0}, {"max_nodes": -1}, {"max_nodes": "5"}, {"max_nodes": True},
                                 {"max_nodes": 1.5}, {"movetime_ms": 0}, {"movetime_ms": -1}, {"movetime_ms": "5"},
                                 {"movetime_ms": True}])
def test_bad_budgets_are_refused_by_name(bad: dict[str, object]) -> None:
    (name,) = bad
    with pytest.raises(PositionError, match=name):
        TurnBudget(**bad)  # type: ignore[arg-type]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.lists(st.integers(0, 30), max_size=12), min_size=1, max_size=20), st.lists(st.integers(0, 50), min_size=31, max_size=31))
def test_card_values_sum_the_letters_of_each_move(rows: list[list[int]], values: list[int]) -> None:
    import numpy as np

    from kubasolve.kernels.colonii_search import card_values

    width = max([1] + [len(r) for r in rows])
    codes = np.full((len(rows), width), 255, np.uint8)  # past a row's length: garbage the kernel must not read
    for i, r in enumerate(rows):
        codes[i, : len(r)] = r
    lengths = np.array([len(r) for r in rows], np.int16)
    got = card_values(codes, lengths, np.array(values, np.int64))
    assert got.tolist() == [sum(values[c] for c in r) for r in rows]


def _spy_on_the_plan(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Records the best-turn search's preparation steps that ran (the costly ones after the move table)."""
    ran: list[str] = []
    for name in ("_chain_items", "_root_items"):
        original = getattr(ColoniiSolver, name)

        def spy(self, *args, _original=original, _name=name, **kwargs):
            ran.append(_name)
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(ColoniiSolver, name, spy)
    return ran


@pytest.mark.parametrize("objective", ["gain", "swing"])
def test_a_spent_time_budget_skips_the_searchs_preparation(ro: Lexicon, monkeypatch: pytest.MonkeyPatch, objective) -> None:
    """Before: the clock was read only before the kernel, after the whole preparation (follow-up words, the roots'
    bounds and sorting: 1-2.4 s for this 30-card hand), so ``movetime_ms`` 1, 20 and 200 answered in 0.7-1.3 s. Now a
    budget spent by the end of the move table (or too short to pay for the preparation) answers the best legal single
    move with no preparation at all. The clock is made spent by hand: no wall time is measured."""
    rules = ColoniiRules()
    solver = ColoniiSolver(ro, rules)
    pos = ColoniiPosition(TABLE, HAND_30, 0, 2)
    ran = _spy_on_the_plan(monkeypatch)
    budget = TurnBudget(movetime_ms=600_000)
    budget.deadline = budget.deadline - 601.0  # type: ignore[operator]  # spent before the search starts
    turn = solver.best_turn(pos, objective, 3, budget)
    assert ran == [] and budget.exhausted and budget.nodes == 0 and not turn.proven_optimal
    assert_legal(turn, pos, rules, ro)
    word_moves = [m for m in turn.moves if m.kind.builds]
    assert len(word_moves) == 1  # the best legal single word move, with the owner's actions that then pay
    assert move_key(word_moves[0], objective) == solver.move_table(pos).keys(objective).max()  # of the legal moves


def test_a_time_budget_too_short_for_the_preparation_answers_at_once(ro: Lexicon, monkeypatch: pytest.MonkeyPatch) -> None:
    """The preparation's cost is estimated per move of the table (``_PLAN_NS_PER_ROOT``): with ten minutes left and a
    cost of a second per move, the search is not prepared; a node budget (deterministic) never skips it."""
    from kubasolve.games.colonii import movegen

    rules = ColoniiRules()
    solver = ColoniiSolver(ro, rules)
    pos = ColoniiPosition(TABLE, "oriferânjet", 0, 2)
    ran = _spy_on_the_plan(monkeypatch)
    monkeypatch.setattr(movegen, "_PLAN_NS_PER_ROOT", 10**9)
    timed = TurnBudget(movetime_ms=600_000)
    turn = solver.best_turn(pos, "gain", 3, timed)
    assert ran == [] and timed.exhausted and not turn.proven_optimal and turn.moves
    assert_legal(turn, pos, rules, ro)
    counted = TurnBudget(max_nodes=10**9)
    exact = solver.best_turn(pos, "gain", 3, counted)
    assert ran and not counted.exhausted and exact.proven_optimal and exact.gain >= turn.gain


def test_a_node_budget_too_small_for_the_preparation_answers_the_best_single_move(ro: Lexicon,
                                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Before: the preparation (follow-up words, the roots' bounds, sorting: 1-2.4 s for this 30-card hand) was not
    charged to the node budget, so ``max_nodes`` 1 and 1,000 answered in 1.3-2.7 s. Now it costs a node per move of the
    table, charged before it starts: a budget that cannot pay for it and one search node answers the best legal single
    move without preparing anything, and one that can spends exactly its nodes."""
    rules = ColoniiRules()
    solver = ColoniiSolver(ro, rules)
    pos = ColoniiPosition(TABLE, HAND_30, 0, 2)
    roots = len(solver.move_table(pos, legal_only=False))
    ran = _spy_on_the_plan(monkeypatch)
    for nodes in (1, 1000, roots):
        budget = TurnBudget(max_nodes=nodes)
        turn = solver.best_turn(pos, "gain", 3, budget)
        assert ran == [] and budget.exhausted and budget.nodes == 0 and not turn.proven_optimal, nodes
        assert_legal(turn, pos, rules, ro)
        word_moves = [m for m in turn.moves if m.kind.builds]
        assert len(word_moves) == 1 and move_key(word_moves[0], "gain") == solver.move_table(pos).keys("gain").max()
    paid = TurnBudget(max_nodes=roots + 1)
    turn = solver.best_turn(pos, "gain", 3, paid)
    assert ran and paid.nodes == roots + 1 and paid.exhausted and not turn.proven_optimal
    assert_legal(turn, pos, rules, ro)


@settings(max_examples=40, deadline=None)
@given(cases(), st.sampled_from(["gain", "swing"]), st.integers(1, 3), st.integers(1, 200))
def test_a_node_budget_bounds_the_preparation_and_the_search(case, objective, max_moves, max_nodes) -> None:
    """The nodes spent never exceed ``max_nodes``; they include a node per move of the table once the search is
    prepared, and a budget that finishes the search gives the reference's turn."""
    lex, rules, pos = case
    solver = ColoniiSolver(lex, rules)
    roots = len(solver.move_table(pos, legal_only=False))
    budget = TurnBudget(max_nodes=max_nodes)
    turn = solver.best_turn(pos, objective, max_moves, budget)
    assert_legal(turn, pos, rules, lex)
    assert budget.nodes <= max_nodes
    assert budget.nodes == 0 or budget.nodes > roots  # the preparation paid, and at least one search node
    if roots and roots >= max_nodes:
        assert budget.nodes == 0 and not turn.proven_optimal
    if turn.proven_optimal:
        assert turn_key(turn.moves, objective) == reference_best_turn(pos, lex, rules, objective, max_moves)


def test_the_best_single_move_answered_without_a_search_counts_the_owners_actions_it_opens() -> None:
    """Before: a budget that skipped the search answered the move of the best word key ('la', 2 points), not the best
    single move once the owner's actions it opens are counted ('ca' makes the colony a supercolony: 1 + 5)."""
    from .helpers import position, rules, small_lexicon

    lex = small_lexicon(["aa", "aaa", "ac", "ca", "la", "al"])
    rules_4 = rules(supercolony_words=4)
    solver = ColoniiSolver(lex, rules_4)
    pos = position([Group(("aa", "aaa", "ac"), 0)], "la")
    exact = solver.best_turn(pos, "gain", 1)
    assert exact.proven_optimal and turn_key(exact.moves, "gain") == (6, 0)
    timed = TurnBudget(movetime_ms=600_000)
    timed.deadline = timed.deadline - 601.0  # type: ignore[operator]  # spent before the search starts
    for budget in (timed, TurnBudget(max_nodes=1)):
        turn = solver.best_turn(pos, "gain", 3, budget)
        assert budget.nodes == 0 and not turn.proven_optimal and turn.moves == exact.moves
        assert_legal(turn, pos, rules_4, lex)
