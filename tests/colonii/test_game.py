"""Colonii games: referee (illegal actions refused with the reason, state unchanged), JSON state,
exact replay, game ends, AIs and seeded simulation."""

from __future__ import annotations

import json

import pytest

from kubasolve.errors import IllegalMoveError, RulesError, StateError
from kubasolve.games.colonii.ai import GreedyPolicy, PlannerPolicy, RandomPolicy, make_policy
from kubasolve.games.colonii.game import (
    ColoniiState,
    Referee,
    TurnAction,
    action_from_dict,
    play_game,
    replay,
)
from kubasolve.games.colonii.rules import ColoniiRules
from kubasolve.games.colonii.table import Group

from .helpers import small_lexicon


@pytest.fixture(scope="module")
def referee(ro) -> Referee:
    return Referee(ro, ColoniiRules())


def test_new_game_deals_hands_from_the_shuffled_deck(referee: Referee) -> None:
    s = referee.new_game(5, 3)
    assert [len(h) for h in s.hands] == [8, 8, 8] and len(s.deck) == 110 - 24
    assert sorted("".join(s.hands) + "".join(s.deck)) == sorted(referee.rules.deck())
    assert referee.new_game(5, 3) == s and referee.new_game(6, 3) != s


def test_a_turn_scores_refills_and_passes_the_turn(referee: Referee) -> None:
    s = next(x for x in (referee.new_game(seed, 2) for seed in range(10)) if referee.solver.best_turn(x.position()).moves)
    turn = referee.solver.best_turn(s.position())
    action = {"type": "turn", "moves": [{"play": m.play, "word": m.word, **({"target": m.target} if m.target is not None else {})}
                                        for m in turn.moves]}
    after = referee.apply(s, action)
    assert after.scores[0] == turn.gain and after.current == 1 and after.turn == 2
    assert len(after.hands[0]) == 8 and len(after.deck) == len(s.deck) - len(turn.cards)
    assert after.history == ((0, action_from_dict(action)),)


@pytest.mark.parametrize(("action", "reason"), [
    ({"type": "turn", "moves": [{"play": "new", "word": "zzzzq"}]}, "not in the lexicon"),
    ({"type": "turn", "moves": [{"play": "new", "word": "calorifer"}]}, "needs card"),
    ({"type": "turn", "moves": [{"play": "extend", "target": 3, "word": "calul"}]}, "not a group on the table"),
    ({"type": "turn", "moves": [{"play": "jump", "word": "cal"}]}, "play must be one of"),
    ({"type": "turn", "moves": []}, "non-empty list"),
    ({"type": "turn", "moves": [{"play": "new", "word": "cal", "colour": 1}]}, "unknown key"),
    ({"type": "exchange", "cards": "qqq"}, "not in the hand"),
    ({"type": "fly"}, "unknown action type"),
])
def test_illegal_actions_are_refused_with_the_reason_and_the_state_unchanged(referee: Referee, action, reason) -> None:
    s = referee.new_game(1, 2)
    before = s.to_json()
    with pytest.raises(IllegalMoveError, match=reason):
        referee.apply(s, action)
    assert s.to_json() == before


def test_a_later_move_is_judged_on_the_table_the_earlier_ones_left(ro) -> None:
    rules = ColoniiRules()
    ref = Referee(ro, rules)
    s = ref.new_game(0, 2)
    s = ColoniiState(rules, 0, 2, s.deck, ("caloriferx", "ziarabcd"), (Group(("cal",), 1, 4),), (0, 4))
    with pytest.raises(IllegalMoveError, match="needs one of your own words"):
        ref.apply(s, {"type": "turn", "moves": [{"play": "extend", "target": 0, "word": "calorifer"}]})
    # CAL 4 + ORIFER 7: conquest A, after a new word that makes playing on others' words legal
    small = Referee(small_lexicon(), rules)
    after = small.apply(s, {"type": "turn", "moves": [{"play": "new", "word": "ac"}, {"play": "extend", "target": 0, "word": "calorifer"}]})
    assert after.table[0] == Group(("calorifer",), 0, 11) and after.scores == (3 + 11, 0)
    assert any("conquers 'cal'" in text for _, text in after.log)


def test_exchange_returns_cards_under_the_deck_and_draws(referee: Referee) -> None:
    s = referee.new_game(2, 2)
    give = s.hands[0][:3]
    after = referee.apply(s, {"type": "exchange", "cards": give})
    assert after.deck[-3:] == tuple(give) and after.hands[0] == s.hands[0][3:] + "".join(s.deck[:3])
    assert after.passes == 1 and after.scores == (0, 0)


def test_games_replay_exactly_and_states_round_trip_through_json(referee: Referee) -> None:
    rec = play_game([GreedyPolicy(), PlannerPolicy()], 11, referee)
    assert rec.final is not None and rec.final.over
    assert max(rec.scores) >= referee.rules.target_score or not rec.final.deck
    state = replay(11, rec.actions, 2, referee)
    assert state == rec.final
    data = json.loads(state.to_json())
    assert ColoniiState.from_dict(data, referee) == state
    data["scores"][0] += 1
    with pytest.raises(StateError, match="contradicts"):
        ColoniiState.from_dict(data, referee)
    with pytest.raises(IllegalMoveError, match="recorded for player 1"):
        replay(11, [(1, rec.actions[0][1])], 2, referee)


def test_deck_end_rule(ro) -> None:
    """The rulebook's page ends before the game's end: ``end = "deck"`` ends it when the deck runs out."""
    ref = Referee(ro, ColoniiRules().with_(end="deck"))
    rec = play_game([GreedyPolicy(), GreedyPolicy()], 3, ref)
    assert rec.final is not None and not rec.final.deck
    before_last = replay(3, rec.actions[:-1], 2, ref)
    assert before_last.deck and not before_last.over  # it ended on the turn the deck ran out


def test_the_game_over_refuses_actions(referee: Referee) -> None:
    rec = play_game([GreedyPolicy(), GreedyPolicy()], 4, referee)
    with pytest.raises(IllegalMoveError, match="game is over"):
        referee.apply(rec.final, TurnAction("pass"))  # type: ignore[arg-type]


def test_policies_by_name() -> None:
    assert isinstance(make_policy("random", 3), RandomPolicy)
    with pytest.raises(RulesError, match="unknown colonii AI"):
        make_policy("oracle")


def _state_with(referee: Referee, hand: str, table: tuple[Group, ...] = ()) -> ColoniiState:
    s = referee.new_game(0, 2)
    return ColoniiState(referee.rules, 0, 2, s.deck, (hand, s.hands[1]), table, (sum(g.stake for g in table), 0))


def test_planner_defends_its_word_where_greedy_takes_the_points() -> None:
    """Greedy builds IA (+2); the planner chains CA on its cheap word TAC (+1): a colony cannot be conquered."""
    ref = Referee(small_lexicon(["tac", "ca", "ia"]), ColoniiRules())
    state = _state_with(ref, "ia", (Group(("tac",), 0, 4),))
    assert GreedyPolicy().turn(ref, state).moves[0].word == "ia"
    planned = PlannerPolicy().turn(ref, state).moves
    assert [(m.play, m.word) for m in planned] == [("chain", "ca")]


def test_planner_keeps_a_high_card_for_conquests() -> None:
    """Greedy spends the X on XI (+4); the planner builds AI (+2) and keeps X (3) for a conquest."""
    ref = Referee(small_lexicon(["xi", "ai"]), ColoniiRules())
    state = _state_with(ref, "xia")
    assert [m.word for m in GreedyPolicy().turn(ref, state).moves] == ["xi"]
    assert [m.word for m in PlannerPolicy().turn(ref, state).moves] == ["ai"]


NINE_PLUS = ("ziar", "rac", "cal", "lac", "cai", "ie", "ele", "ea", "al", "lea")  # ten words, ZIAR (6) first


@pytest.mark.parametrize("ai", ["greedy", "planner"])
def test_the_ais_declare_and_decolonise_when_it_pays(ai: str) -> None:
    """The owner's actions score without a card or a move: both AIs make them on their own turn, declaration
    first (a decolonised colony can no longer be declared), and never on another player's colony."""
    ref = Referee(small_lexicon(), ColoniiRules())
    state = _state_with(ref, "zz", (Group(NINE_PLUS, 0), Group(NINE_PLUS, 1)))
    action = make_policy(ai).turn(ref, state)
    owner = [m.to_dict() for m in action.moves if m.play in ("declare", "decolonise")]
    assert owner == [{"play": "declare", "target": 0}, {"play": "decolonise", "target": 0}]
    after = ref.apply(state, action)
    assert after.scores[0] - state.scores[0] >= 5 + 6 and after.scores[1] == state.scores[1]
    assert after.table[0] == Group(("lea",), 0, 3, protected=True) and after.table[1] == Group(NINE_PLUS, 1)
    # a declaration worth nothing is not made; the decolonisation (+6) still is
    free = Referee(small_lexicon(), ColoniiRules(supercolony_bonus=0))
    action = make_policy(ai).turn(free, _state_with(free, "zz", (Group(NINE_PLUS, 0),)))
    assert [m.play for m in action.moves if m.play in ("declare", "decolonise")] == ["decolonise"]


def test_the_referee_enforces_max_turn_moves(ro) -> None:
    """``max_turn_moves`` is a rule of the table: a turn with more word moves is refused (issue 22: a 4-move
    turn was accepted with max_turn_moves=1); the owner's declarations do not count."""
    rules = ColoniiRules(max_turn_moves=1)
    ref = Referee(small_lexicon(), rules)
    s = ColoniiState(rules, 0, 2, tuple(ref.new_game(0, 2).deck), ("acia", ""), (Group(NINE_PLUS, 0),), (0, 0))
    two = {"type": "turn", "moves": [{"play": "new", "word": "ac"}, {"play": "new", "word": "ia"}]}
    with pytest.raises(IllegalMoveError, match="at most 1 words"):
        ref.apply(s, two)
    one = ref.apply(s, {"type": "turn", "moves": [{"play": "declare", "target": 0}, {"play": "decolonise", "target": 0},
                                                  {"play": "new", "word": "ac"}]})
    assert one.scores == (5 + 6 + 3, 0)
    assert ref.apply(s, {"type": "turn", "moves": [{"play": "declare", "target": 0}]}).passes == 1  # no word built
    with pytest.raises(IllegalMoveError, match="takes no word"):
        ref.apply(s, {"type": "turn", "moves": [{"play": "declare", "target": 0, "word": "ziar"}]})
    with pytest.raises(IllegalMoveError, match="needs the target"):
        ref.apply(s, {"type": "turn", "moves": [{"play": "decolonise"}]})
