"""Engine qualities: JSON round trip, exact replay, illegal moves leave the state unchanged, AIs, simulation."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubasolve.errors import IllegalMoveError, PositionError, RulesError, StateError
from kubasolve.games.kubagram.actions import (
    Claim,
    EndTurn,
    PlaceZero,
    Skip,
    Take,
    action_from_dict,
)
from kubasolve.games.kubagram.ai import GreedyPolicy, PlannerPolicy, RandomPolicy, make_policy
from kubasolve.games.kubagram.game import play_game, replay
from kubasolve.games.kubagram.state import GameState
from kubasolve.scale.selfplay import wilson_interval

from .conftest import make_state


@pytest.fixture(scope="module")
def greedy_game(referee):  # type: ignore[no-untyped-def]
    return play_game([GreedyPolicy(), GreedyPolicy()], 11, referee)


def test_greedy_game_finishes_with_consistent_scores(referee, greedy_game) -> None:
    s = greedy_game.final
    assert s.over and s.taken == s.n_cubes
    table_sum = [0] * s.n_players
    for w in s.table:
        table_sum[w.owner] += w.value(referee.rules)
    adj = [0] * s.n_players
    for p, v, _ in s.adjustments:
        adj[p] += v
    assert list(s.scores) == [t + a for t, a in zip(table_sum, adj)]
    assert not any("non-word" in why for _, _, why in s.adjustments)  # AIs never claim a non-word
    assert all(w.word in referee.lexicon for w in s.table)


def test_state_json_round_trip(referee, greedy_game) -> None:
    """"Game state serialisable to JSON" - at the end and at several points on the way."""
    actions = greedy_game.final.actions()
    for cut in (0, 7, len(actions) // 2, len(actions)):
        s = replay(11, actions[:cut], referee=referee)
        again = GameState.from_dict(json.loads(json.dumps(s.to_dict())))
        assert again == s
        assert again.to_dict() == s.to_dict()


def test_replay_from_seed_and_moves_is_exact(referee, greedy_game) -> None:
    """"a game replays exactly from seed + move list" (also from the JSON forms)."""
    final = greedy_game.final
    assert replay(11, final.actions(), referee=referee) == final
    recorded = [[p, a.to_dict()] for p, a in final.history]
    assert replay(11, json.loads(json.dumps(recorded)), referee=referee) == final
    again = play_game([GreedyPolicy(), GreedyPolicy()], 11, referee)
    assert again.actions == greedy_game.actions and again.scores == greedy_game.scores


def test_replay_rejects_wrong_player(referee, greedy_game) -> None:
    p, a = greedy_game.final.history[0]
    with pytest.raises(PositionError, match="recorded for player"):
        replay(11, [(1 - p, a)], referee=referee)


JUNK = [Take("q"), Take(keep=True), Take(), Skip(), EndTurn(), PlaceZero("e"), Claim("water"), Claim("xx"),
        Claim("waterfiets", parts=(0, 1)), Claim("abc", (0, 0, 0)), Claim("zzzzz", (99, 1, 2, 3, 4))]


@settings(max_examples=int(__import__("os").environ.get("KUBAGRAM_HYPOTHESIS_EXAMPLES", "12")), deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 10_000), picks=st.lists(st.integers(0, 10**6), min_size=40, max_size=90))
def test_illegal_moves_leave_state_unchanged(referee, seed, picks) -> None:
    """"illegal moves are rejected with a clear reason and leave the state unchanged" over random action sequences."""
    state = referee.new_game(seed, n_players=2 + seed % 3)
    for k in picks:
        legal = referee.legal_actions(state, claims=3)
        if not legal:
            break
        if k % 3 == 0:
            action = JUNK[k % len(JUNK)]
            before = state.to_dict()
            try:
                new = referee.apply(state, action)
            except IllegalMoveError as exc:
                assert str(exc)
                assert state.to_dict() == before
                continue
            state = new
        else:
            state = referee.apply(state, legal[k % len(legal)])
    assert replay(seed, state.history, n_players=state.n_players, referee=referee) == state
    assert GameState.from_dict(json.loads(json.dumps(state.to_dict()))) == state


def test_action_json_forms() -> None:
    for a in (Take(), Take("a"), Take(keep=True), PlaceZero("e"), Skip(), EndTurn(), Claim("water", (1, 2, 3, 4, 5)),
              Claim("waterfiets", (0, 1, 2, 3, 4), (None, 3))):
        assert action_from_dict(json.loads(json.dumps(a.to_dict()))) == a
    for bad in ({"type": "fly"}, {"type": "take", "letter": "ab"}, {"type": "claim"}, "take",
                {"type": "claim", "word": "x", "tiles": ["a"]}, {"type": "skip", "x": 1}):
        with pytest.raises(IllegalMoveError):
            action_from_dict(bad)


def test_all_policies_play_legal_deterministic_games(referee) -> None:
    for names in (["random", "greedy"], ["planner", "random", "greedy"]):
        recs = [play_game([make_policy(n, 3) for n in names], 5, referee) for _ in range(2)]
        assert recs[0].actions == recs[1].actions
        assert recs[0].final.over
        assert not any("non-word" in why for _, _, why in recs[0].final.adjustments)


def test_greedy_takes_best_immediate_swing(referee) -> None:
    """Greedy picks the III letter that makes the best word and claims it."""
    s = make_state([("rbc", "b", "III"), ("xyz", "x", "I")], field="wate")
    actions = GreedyPolicy().turn(referee, s)
    assert actions[0] == Take("r")
    assert isinstance(actions[1], Claim) and sorted(actions[1].word) == sorted("water")  # WATER or TARWE
    assert actions[-1] == EndTurn()


def test_greedy_counts_points_taken_from_others(referee) -> None:
    """Greedy prefers a compound that takes a word from the opponent."""
    from kubasolve.games.kubagram.position import TableWord

    s = make_state([("abc", "a", "I"), ("xyz", "x", "I")], table=(TableWord("water", owner=1),), field="fiets")
    actions = GreedyPolicy().turn(referee, s)
    claims = [a for a in actions if isinstance(a, Claim)]
    assert claims and claims[0].word == "waterfiets" and claims[0].parts == (0, None)


def test_planner_endgame_search_sees_the_last_cube(referee) -> None:
    """With the last two cubes left, the exact search weighs who gets the last cube (2-letter words, field penalty)."""
    # field J; cubes: A then QXZ. Greedy takes A (JA is not a word before the last cube) and leaves
    # the last cube to the opponent; the planner skips so the opponent must take A.
    s = make_state([("aou", "a", "I"), ("qxz", "q", "I")], field="jwk")
    planner = PlannerPolicy(endgame_cubes=3)
    opp = GreedyPolicy()

    def finish(first) -> int:
        st_ = s
        for a in first.turn(referee, st_):
            st_ = referee.apply(st_, a)
        while not st_.over:
            pol = first if st_.current == 0 else opp
            for a in pol.turn(referee, st_):
                st_ = referee.apply(st_, a)
        return st_.scores[0] - st_.scores[1]

    assert finish(planner) >= finish(GreedyPolicy())
    assert finish(planner) > 0


def test_make_policy_names() -> None:
    assert isinstance(make_policy("planner:4"), PlannerPolicy) and make_policy("planner:4").depth == 4
    assert isinstance(make_policy("random", 1), RandomPolicy)
    with pytest.raises(RulesError, match="unknown AI"):
        make_policy("wizard")
    with pytest.raises(RulesError, match="depth"):
        make_policy("planner:x")
    for name in ("greedy:5", "random:1"):  # once ignored: only the planner and the search take a number
        with pytest.raises(RulesError, match="takes no option"):
            make_policy(name)
    with pytest.raises(RulesError, match="depth"):
        make_policy("planner:")


def test_wilson_interval_known_values() -> None:
    lo, hi = wilson_interval(60, 100)
    assert lo == pytest.approx(0.5020, abs=1e-3) and hi == pytest.approx(0.6906, abs=1e-3)
    assert wilson_interval(0, 10)[0] == 0.0 and wilson_interval(10, 10)[1] == 1.0




def test_finished_game_turn_is_turns_played_plus_one_and_old_saves_still_load(referee, greedy_game) -> None:
    """Once over, the native ``GameState.turn`` is one more than the turns played, as the protocol's ``Result.turn`` and
    the native turn of the crossword and colonii games (it stayed on the last turn played). A state saved before, one
    behind, still loads (as the replay)."""
    final = greedy_game.final
    assert final is not None and final.over
    passes = sum(1 for p, q in zip(final.history, final.history[1:]) if p[0] != q[0]) + 1  # turns: runs of one player
    assert greedy_game.turns == passes and final.turn == passes + 1
    from kubasolve.games.kubagram.render import render_text

    assert render_text(final).startswith(f"Kubagram | turn {passes} | game over")  # the header: the last turn played
    old = {**final.to_dict(), "turn": final.turn - 1}
    assert GameState.from_dict(old, lexicon=referee.lexicon) == final
    with pytest.raises(StateError, match="turn"):
        GameState.from_dict({**final.to_dict(), "turn": final.turn - 2}, lexicon=referee.lexicon)


def test_state_saved_mid_turn_before_fresh_words_were_marked_still_loads(referee, greedy_game) -> None:
    """A word claimed in the turn being played carries ``fresh`` (no compound part before the next turn). A state saved
    mid-turn before that mark existed (its table words without ``fresh``) still loads as its replay, which marks them;
    a saved table that says ``fresh`` where the replay does not is still refused."""
    history = greedy_game.actions
    k = next(k for k in range(1, len(history))
             if any(w.fresh for w in replay(greedy_game.seed, history[:k], referee=referee).table))
    state = replay(greedy_game.seed, history[:k], referee=referee)
    saved = state.to_dict()
    assert any(w.get("fresh") for w in saved["table"])
    old = {**saved, "table": [{key: v for key, v in w.items() if key != "fresh"} for w in saved["table"]]}
    loaded = GameState.from_dict(old, lexicon=referee.lexicon)
    assert loaded == state and [w.fresh for w in loaded.table] == [w.fresh for w in state.table]
    tampered = {**saved, "table": [{**w, "fresh": True} for w in saved["table"]]}
    if any(not w.fresh for w in state.table):
        with pytest.raises(StateError, match="fresh"):
            GameState.from_dict(tampered, lexicon=referee.lexicon)
