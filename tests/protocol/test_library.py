"""The game protocol through the library (issue 21): "random games driven by taking a random legal-moves entry and
passing its action to apply until the game is over", for the five games and a sixth one outside the package."""

from __future__ import annotations

import copy
import json
import random
import threading
from typing import Any

import pytest

from kubasolve.budget import Budget
from kubasolve.errors import IllegalMoveError, KubasolveError, RulesError, StateError
from kubasolve.games import Game, State, game_names, load_game, state_from_json

from .helpers import BUILT_IN, MAX_ACTIONS, QUICK_RULES, load_nim

GAMES = (*BUILT_IN, "nim")


@pytest.fixture(scope="module", autouse=True)
def _nim() -> None:
    load_nim()


def _game(name: str) -> Game:
    return load_game(name, QUICK_RULES[name])


def _check_result(game: Game, state: State, n_players: int) -> None:
    r = game.result(state)
    assert len(r.players) == len(r.scores) == n_players and all(isinstance(s, int) for s in r.scores)
    assert r.turn >= 1
    if r.over:
        assert r.current is None and r.winners and all(0 <= w < n_players for w in r.winners)
        assert {r.scores[w] for w in r.winners} == {max(r.scores)} or game.name == "crossword"  # crossword: tie-break
    else:
        assert r.current is not None and 0 <= r.current < n_players and r.winners == []


def test_the_registry_finds_the_built_in_games_without_importing_them() -> None:
    assert set(BUILT_IN) <= set(game_names())
    with pytest.raises(KubasolveError) as unknown:
        load_game("chess")
    assert unknown.value.key == "game" and "crossword" in str(unknown.value)


@pytest.mark.parametrize("name", GAMES)
def test_random_legal_moves_play_a_game_to_its_end(name: str) -> None:
    game = _game(name)
    rng = random.Random(f"protocol:{name}")
    state = game.new_game(seed=5, players=["ann", "bob"])
    assert game.result(state).players == ["ann", "bob"]
    kinds: set[str] = set()
    for step in range(MAX_ACTIONS):
        _check_result(game, state, 2)
        if game.result(state).over:
            break
        legal = game.legal_moves(state, top=5, budget=Budget(movetime_ms=5000))
        assert legal.moves and (legal.count is None or legal.count >= len(legal.moves))
        assert legal.complete == (legal.count == len(legal.moves))
        before = json.dumps(game.state_to_json(state))
        for move in legal.moves:
            assert isinstance(move.text, str) and move.text and isinstance(move.details, dict)
            assert move.action == json.loads(json.dumps(move.action)) and "type" in move.action
            kinds.add(move.action["type"])
        if step % 5 == 0:  # every listed action is accepted as it is, and apply leaves its argument alone
            for move in legal.moves:
                game.apply(state, copy.deepcopy(move.action))
            assert json.dumps(game.state_to_json(state)) == before
        state = game.apply(state, json.loads(json.dumps(rng.choice(legal.moves).action)))
        if step % 9 == 0:  # the JSON form reads back to the same state
            data = json.loads(json.dumps(game.state_to_json(state)))
            again_game, again = state_from_json(data)
            assert again_game.name == name and again_game.state_to_json(again) == data
    assert game.result(state).over, f"{name} did not end in {MAX_ACTIONS} actions"
    assert game.legal_moves(state).moves == [] and game.legal_moves(state).complete
    with pytest.raises(IllegalMoveError):
        game.apply(state, {"type": "pass"})
    assert len(kinds) >= 2 or name in ("nim", "scruble")  # more than one kind of action (scruble: all are turns)


@pytest.mark.parametrize("name", GAMES)
def test_ai_moves_are_actions_apply_accepts(name: str) -> None:
    game = _game(name)
    state = game.new_game(seed=2, players=3 if name not in ("rummikub", "nim", "crossword") else 2)
    for k in range(6):
        if game.result(state).over:
            break
        chosen = game.ai_move(state, ai=game.ai_names[k % len(game.ai_names)], budget=Budget(movetime_ms=300), seed=k)
        assert isinstance(chosen.proven_optimal, bool) and chosen.nodes >= 0 and chosen.text
        state = game.apply(state, json.loads(json.dumps(chosen.action)))
    with pytest.raises(KubasolveError) as unknown:
        game.ai_move(state, ai="oracle")
    assert unknown.value.key == "ai" and game.default_ai in str(unknown.value)


@pytest.mark.parametrize("name", GAMES)
def test_malformed_actions_are_illegal_moves_and_change_nothing(name: str) -> None:
    game = _game(name)
    state = game.new_game(seed=1)
    before = game.state_to_json(state)
    for bad in ({}, {"type": "fly"}, {"type": 7}, {"type": "pass", "extra": [1] * 3}, "pass", None, [1, 2],
                {"type": ["pass"]}, {"type": {"k": 1}}):  # (a list or object as the type once raised a raw TypeError)
        with pytest.raises(KubasolveError):
            game.apply(state, bad)  # type: ignore[arg-type]
    assert game.state_to_json(state) == before


@pytest.mark.parametrize("name", GAMES)
def test_saved_states_are_validated_naming_the_key(name: str) -> None:
    game = _game(name)
    state = game.new_game(seed=3, players=["ann", "bob"])
    state = game.apply(state, game.legal_moves(state, top=1).moves[0].action)
    saved = json.loads(json.dumps(game.state_to_json(state)))
    assert saved["format"] == "kubasolve-state" and saved["version"] == 1 and saved["game"] == name
    forgeries: list[tuple[Any, str]] = [
        (lambda d: d.update(format="other"), "state.format"),
        (lambda d: d.update(version=2), "state.version"),
        (lambda d: d.update(game="chess"), "state.game"),
        (lambda d: d.update(players=["solo"] * 9), "state.players"),
        (lambda d: d.update(players="ann"), "state.players"),
        (lambda d: d.update(rules={"no_such_setting": 1}), "state.rules"),
        (lambda d: d.update(lexicon=5), "state.lexicon"),
        (lambda d: d.update(native=[]), "state.native"),
        (lambda d: d.pop("native"), "state.native"),
        (lambda d: d.update(cheat=True), "state.cheat"),
    ]
    for forge, key in forgeries:
        data = copy.deepcopy(saved)
        forge(data)
        with pytest.raises(StateError) as refused:
            state_from_json(data)
        assert refused.value.key == key, (key, str(refused.value))
    forged = copy.deepcopy(saved)
    if name != "nim":  # scores that the history does not give: refused by the game's own check
        forged["native"]["scores"] = [7, 7]
    else:
        forged["native"]["taken"] = [9, 9]
    with pytest.raises(StateError) as refused:
        state_from_json(forged)
    assert refused.value.key is not None and refused.value.key.startswith("state.native")
    assert state_from_json(saved)[0].state_to_json(state_from_json(saved)[1]) == saved


def test_a_stop_flag_ends_a_search_at_once_with_a_legal_answer() -> None:
    """The budget's stop flag (the engine's stop request) ends a search like a spent budget: the best found so far."""
    game = load_game("colonii", {"hand_size": 30})
    state = game.new_game(seed=4)
    stop = threading.Event()
    stop.set()
    stopped = game.legal_moves(state, top=3, budget=Budget(movetime_ms=600_000, stop=stop))
    assert stopped.moves and not stopped.proven_optimal
    chosen = game.ai_move(state, ai="greedy", budget=Budget(movetime_ms=600_000, stop=stop))
    assert not chosen.proven_optimal
    game.apply(state, chosen.action)


def test_budgets_are_validated() -> None:
    for bad in ({"movetime_ms": 0}, {"movetime_ms": -1}, {"max_nodes": 1.5}, {"max_nodes": True}, {"movetime_ms": float("nan")}):
        with pytest.raises(KubasolveError):
            Budget(**bad)
    game = _game("nim")
    state = game.new_game(seed=1)
    for call in (lambda: game.ai_move(state, budget="x"), lambda: game.legal_moves(state, budget={"max_nodes": 5})):  # type: ignore[arg-type]
        with pytest.raises(KubasolveError, match=r"budget must be a kubasolve\.Budget"):
            call()
    assert Budget(movetime_ms=5) == Budget(movetime_ms=5, stop=threading.Event()) and not Budget().limited


def test_seats_and_seeds_are_checked() -> None:
    game = load_game("crossword")
    for players in (1, 5, [], ["a"] * 5, ["a", ""], "ab", 2.0):
        with pytest.raises(KubasolveError) as refused:
            game.new_game(players=players)  # type: ignore[arg-type]
        assert refused.value.key == "players"
    with pytest.raises(KubasolveError):
        game.new_game(seed=-1)
    assert game.result(game.new_game(players=3)).players == ["player0", "player1", "player2"]


def test_rules_that_cannot_seat_the_minimum_are_refused_as_rules() -> None:
    """A box too small to deal two racks (found by tests/engine/test_budgets_hold.py's search: numbers 5,
    22 tiles dealt, so at most 1 player) is a rules error, not the contradiction "played by 2 to 1 players"."""
    game = load_game("rummikub", rules={"numbers": 5, "tiles_dealt": 22})
    with pytest.raises(RulesError) as refused:
        game.new_game(players=2)
    assert refused.value.key == "rules" and "at most 1 player" in str(refused.value)


def test_ai_moves_say_proven_optimal_only_for_a_proven_best() -> None:
    """The brief: "answers say proven_optimal only when the search proved it over everything the rules allow".
    Kubagram's AIs decide by rule of thumb or sampling (a 'skip' at the start said proven before); Rummikub's
    holdback and colonii's planner/random do not play their exact search's best; greedy does, when uncut."""
    kubagram = load_game("kubagram")
    state = kubagram.new_game(seed=1)
    for ai in kubagram.ai_names:
        assert kubagram.ai_move(state, ai=ai, budget=Budget(max_nodes=10**6)).proven_optimal is False
    rummikub = load_game("rummikub")
    state = rummikub.new_game(seed=3)
    assert rummikub.ai_move(state, ai="holdback").proven_optimal is False
    greedy = rummikub.ai_move(state, ai="greedy")
    assert greedy.proven_optimal is True and greedy.details["searched"] is True
    colonii = load_game("colonii")
    state = colonii.new_game(seed=2)
    assert colonii.ai_move(state, ai="planner").proven_optimal is False
    assert colonii.ai_move(state, ai="random").proven_optimal is False
    assert colonii.ai_move(state, ai="greedy").proven_optimal is True


def test_scruble_ai_move_is_proven_only_when_greedy_searched_every_turn_the_rules_allow() -> None:
    """Scruble's greedy searches two twists: with the default three a better turn may need the third, so nothing is
    proven; with ``max_twists`` 2 its uncut search covers every turn, and its word scores the best legal move's score."""
    scruble = load_game("scruble")
    state = scruble.new_game(seed=3)
    for ai in scruble.ai_names:
        chosen = scruble.ai_move(state, ai=ai)
        assert chosen.proven_optimal is False, ai
    assert scruble.ai_move(state, ai="greedy").details["searched"] is True
    two = load_game("scruble", rules={"max_twists": 2})
    state = two.new_game(seed=3)
    greedy = two.ai_move(state, ai="greedy")
    best = two.legal_moves(state, top=1)
    assert greedy.proven_optimal is True and best.proven_optimal is True
    assert greedy.action["word"] == best.moves[0].action["word"] and best.moves[0].score is not None
    assert two.ai_move(state, ai="greedy", budget=Budget(max_nodes=5)).proven_optimal is False
    assert two.ai_move(state, ai="planner").proven_optimal is False


def test_crossword_simulation_reports_its_best_so_far_and_a_stop_plays_it() -> None:
    """Issue 21: "long searches can stream progress (info lines: nodes, best so far) when asked, and a stop ends the
    current search with its best answer". The crossword simulations tell their leader after each iteration; a stop
    request ends the turn there, and the move played is the last best reported."""
    game = load_game("crossword")
    state = game.new_game(seed=5)
    for _ in range(6):  # a midgame board, where the simulation has candidates to compare
        state = game.apply(state, game.ai_move(state, ai="score").action)
    stop = threading.Event()
    reports: list[dict[str, Any]] = []

    def progress(info: dict[str, Any]) -> None:
        reports.append(info)
        if "best" in info:
            stop.set()

    # the most iterations (1,000 racks per candidate) and ten minutes: only the stop can end this turn soon
    chosen = game.ai_move(state, ai="sim", budget=Budget(movetime_ms=600_000, stop=stop, progress=progress),
                          options={"iterations": 1000})
    best = [r["best"] for r in reports if "best" in r]
    assert best and stop.is_set() and chosen.details["searched"] is False
    assert chosen.action == best[-1]["action"] and chosen.text == best[-1]["text"]
    game.apply(state, chosen.action)  # the move played when stopped is legal


def test_rummikub_legal_moves_progress_goes_through_the_budget_meter(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rummikub's ``legal-moves`` reports like every game's search: through the budget's meter (nodes, elapsed ``ms``,
    the best so far, at most every ``PROGRESS_INTERVAL_S``: set to 0 here so each solve's report is sent)."""
    import kubasolve.budget

    monkeypatch.setattr(kubasolve.budget, "PROGRESS_INTERVAL_S", 0.0)
    game = load_game("rummikub")
    state = game.new_game(seed=4)
    reports: list[dict[str, Any]] = []
    listed = game.legal_moves(state, top=5, budget=Budget(progress=reports.append))
    assert reports and all(set(r) == {"nodes", "ms", "best"} and r["ms"] >= 0 for r in reports)
    assert [r["nodes"] for r in reports] == sorted(r["nodes"] for r in reports) and reports[-1]["nodes"] <= listed.nodes
    for r in reports:
        game.apply(state, r["best"]["action"])
    assert reports[-1]["best"]["action"] == listed.moves[0].action


def test_crossword_endgame_reports_nodes_and_its_best_so_far() -> None:
    """Issue 21: progress "nodes, best so far" from the crossword endgame solver too: with the bag empty, the AI's
    exact search reports the nodes it has searched and the best move of its last completed iteration (the action
    ``apply`` accepts, with its text); the answer's nodes are the solve's."""
    game = load_game("crossword")
    state = game.new_game(seed=21)
    while state.native.bag:
        state = game.apply(state, game.ai_move(state, ai="score").action)
    reports: list[dict[str, Any]] = []
    chosen = game.ai_move(state, ai="equity", budget=Budget(max_nodes=3_000_000, progress=reports.append))
    assert chosen.details.get("endgame") is True and chosen.nodes > 0
    assert reports and all(0 <= r["nodes"] <= chosen.nodes for r in reports)
    assert [r["nodes"] for r in reports] == sorted(r["nodes"] for r in reports) and reports[-1]["nodes"] > 0
    best = [r["best"] for r in reports if "best" in r]
    assert best, reports
    for b in best:
        game.apply(state, b["action"])  # each best so far is a legal move, in the form apply accepts
        assert b["text"] and isinstance(b["value"], (int, float))


def test_crossword_sim2_stops_between_iterations_and_plays_its_last_leader() -> None:
    """The same hooks in sim2 (which may also end early by pruning to one candidate, so its hooks are driven
    directly): halted after the third leader it told, it plays that leader."""
    from kubasolve.games.crossword.sim import Sim2Policy

    game = load_game("crossword")
    state = game.new_game(seed=5)
    for _ in range(6):
        state = game.apply(state, game.ai_move(state, ai="score").action)
    told: list[Any] = []
    policy = Sim2Policy(iterations=10**6, prune_z=1e9, halted=lambda: len(told) >= 3,
                        on_best=lambda move, value: told.append(move))
    chosen = policy.turn(game.referee, state.native)
    assert len(told) == 3 and chosen == told[-1] and policy.last_stats["iterations"] == 3


@pytest.mark.parametrize("ai", ["greedy", "planner"])
def test_scruble_ais_tell_their_best_so_far_and_it_is_the_turn_they_play(ai: str) -> None:
    """Progress ``best`` for Scruble: the AIs tell the turn's budget each better turn they settle on; the last one told
    is the turn played."""
    from kubasolve.games.scruble.ai import make_policy
    from kubasolve.games.scruble.protocol import turn_action
    from kubasolve.games.scruble.solver import StateBudget

    game = load_game("scruble")
    state = game.new_game(seed=3)
    for _ in range(2):
        state = game.apply(state, game.ai_move(state, ai="greedy").action)
    meter = Budget(progress=lambda info: None).meter(StateBudget)
    turn = make_policy(ai)(state.native, game.lexicon, meter)
    assert meter.best is not None and meter.best["action"] == turn_action(turn) and turn.word
    assert meter.best["text"].endswith(turn.word.upper())
