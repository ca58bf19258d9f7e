"""Whole Kubagram games: play with AI policies, record, and replay exactly from seed + action list."""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kubasolve.errors import IllegalMoveError, PositionError
from kubasolve.games.kubagram.actions import Action, action_from_dict
from kubasolve.games.kubagram.game_rules import KubagramGameRules
from kubasolve.games.kubagram.referee import Referee
from kubasolve.games.kubagram.rules import KubagramRules
from kubasolve.games.kubagram.setup import Seed
from kubasolve.games.kubagram.state import GameState

__all__ = ["GameRecord", "default_referee", "play_game", "replay"]

MAX_ACTIONS = 5000  # a game has at most ~108 turns of a few actions; this guards against a looping policy

_REFEREES: dict[tuple[int, KubagramRules, KubagramGameRules], Referee] = {}


def default_referee(rules: KubagramRules | None = None, game_rules: KubagramGameRules | None = None,
                    lexicon: Any = None) -> Referee:
    """A cached referee over the bundled Dutch lexicon (or ``lexicon``)."""
    if lexicon is None:
        from kubasolve.lexicon import load_lexicon

        lexicon = load_lexicon("nl")
    rules = rules or KubagramRules()
    game_rules = game_rules or KubagramGameRules()
    key = (id(lexicon), rules, game_rules)
    ref = _REFEREES.get(key)
    if ref is None or ref.lexicon is not lexicon:
        ref = _REFEREES[key] = Referee(lexicon, rules, game_rules)
    return ref


@dataclass
class GameRecord:
    """A finished game: seed, players, actions, final scores and timing."""

    seed: Seed
    players: list[str]
    actions: list[tuple[int, Action]]
    scores: list[int]
    winners: list[int]
    turns: int
    turn_times: list[list[float]] = field(default_factory=list)
    """Seconds each player spent planning each of their turns."""
    final: GameState | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON line of the simulator."""
        return {
            "seed": self.seed,
            "players": self.players,
            "scores": self.scores,
            "winners": self.winners,
            "turns": self.turns,
            "mean_turn_ms": [1e3 * sum(t) / len(t) if t else 0.0 for t in self.turn_times],
            "actions": [[p, a.to_dict()] for p, a in self.actions],
        }


def play_game(policies: Sequence[Any], seed: Seed, referee: Referee | None = None, rotation: Any = None,
              state: GameState | None = None) -> GameRecord:
    """Play a whole game, policy ``i`` seated as player ``i``; deterministic for a seed."""
    referee = referee or default_referee()
    n = len(policies)
    state = state or referee.new_game(seed, n_players=n, rotation=rotation)
    times: list[list[float]] = [[] for _ in range(n)]
    count = 0
    while not state.over:
        player = state.current
        t0 = time.perf_counter()
        actions = policies[player].turn(referee, state)
        times[player].append(time.perf_counter() - t0)
        turn = state.turn
        for a in actions:
            state = referee.apply(state, a)
            count += 1
        if state.turn == turn and not state.over:
            raise IllegalMoveError(f"AI {getattr(policies[player], 'name', player)} did not finish its turn")
        if count > MAX_ACTIONS:  # pragma: no cover - defensive
            raise IllegalMoveError("the game exceeded the action limit")
    return GameRecord(seed, [getattr(p, "name", str(p)) for p in policies], list(state.history), list(state.scores),
                      state.winners(), state.turn - 1, times, state)


def replay(seed: Seed, actions: Sequence[Action | Mapping[str, Any] | tuple[int, Any]], n_players: int = 2,
           referee: Referee | None = None, rotation: Any = None) -> GameState:
    """The state reached by applying ``actions`` (action objects, JSON forms or (player, action) pairs) to the game
    dealt from ``seed``; a recorded player that is not the one to move is an error."""
    referee = referee or default_referee()
    state = referee.new_game(seed, n_players=n_players, rotation=rotation)
    for k, item in enumerate(actions):
        player = None
        if isinstance(item, (tuple, list)) and len(item) == 2 and isinstance(item[0], int):
            player, item = item
        if player is not None and player != state.current:
            raise PositionError(f"action {k}: recorded for player {player}, but player {state.current} is to move")
        try:
            state = referee.apply(state, action_from_dict(item))
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"action {k}: {exc}") from None
    return state
