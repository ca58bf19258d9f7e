"""Playing and replaying whole turn-based games, shared by the games whose referees have the same shape.

A referee here has ``new_game(seed, n_players)`` and ``apply(state, action)`` (IllegalMoveError, state
unchanged, for an illegal action); its states have ``over``, ``current``, ``turn``, ``history``
(``(player, action)`` pairs), ``scores`` and ``winners()``; actions have ``to_dict()``. The crossword
and colonii games use it (their ``GameRecord``, ``play_game`` and ``replay`` are these).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from kubasolve.errors import IllegalMoveError

__all__ = ["GameRecord", "cached_referee", "play_turns", "replay_actions"]


R = TypeVar("R")


def cached_referee(cache: dict[tuple[int, Hashable], R], make: Callable[[Any, Any], R], rules: Hashable,
                   lexicon: Any, default_lexicon: str) -> R:
    """The referee ``make(lexicon, rules)`` kept in ``cache`` per (lexicon object, rules); ``lexicon`` None
    loads the bundled ``default_lexicon``. A cached referee whose lexicon is another object is rebuilt."""
    if lexicon is None:
        from kubasolve.lexicon import load_lexicon

        lexicon = load_lexicon(default_lexicon)
    key = (id(lexicon), rules)
    ref = cache.get(key)
    if ref is None or getattr(ref, "lexicon", None) is not lexicon:
        ref = cache[key] = make(lexicon, rules)
    return ref


@dataclass
class GameRecord:
    """A finished game: seed, players, actions, final scores and timing."""

    seed: int
    players: list[str]
    actions: list[tuple[int, Any]]
    scores: list[int]
    winners: list[int]
    turns: int
    turn_times: list[list[float]] = field(default_factory=list)
    final: Any = None

    def to_dict(self) -> dict[str, Any]:
        return {"seed": self.seed, "players": self.players, "scores": self.scores, "winners": self.winners,
                "turns": self.turns, "mean_turn_ms": [1e3 * sum(t) / len(t) if t else 0.0 for t in self.turn_times],
                "actions": [[p, a.to_dict()] for p, a in self.actions]}


def play_turns(policies: Sequence[Any], seed: int, referee: Any) -> GameRecord:
    """Play a whole game, policy ``i`` (``policy.turn(referee, state)``) seated as player ``i``; deterministic
    for a seed and deterministic policies. Each player's thinking times are recorded."""
    state = referee.new_game(seed, len(policies))
    times: list[list[float]] = [[] for _ in policies]
    while not state.over:
        p = state.current
        t0 = time.perf_counter()
        action = policies[p].turn(referee, state)
        times[p].append(time.perf_counter() - t0)
        state = referee.apply(state, action)
    return GameRecord(seed, [getattr(x, "name", str(x)) for x in policies], list(state.history), list(state.scores),
                      state.winners(), state.turn - 1, times, state)


def replay_actions(referee: Any, seed: int, actions: Sequence[Any], n_players: int, *, to_move: str = "is to move",
                   start: Any = None) -> Any:
    """The state reached by applying ``actions`` (objects, JSON forms or (player, action) pairs) to the game
    dealt from ``seed`` (or to ``start``, a state the game did not deal); a recorded player who is not the one to
    move is an error (``"player N <to_move>"``), and an illegal action's error names its index."""
    state = referee.new_game(seed, n_players) if start is None else start
    for k, item in enumerate(actions):
        player = None
        if isinstance(item, (tuple, list)) and len(item) == 2 and isinstance(item[0], int):
            player, item = item
        if player is not None and player != state.current:
            raise IllegalMoveError(f"action {k}: recorded for player {player}, but player {state.current} {to_move}")
        try:
            state = referee.apply(state, item)
        except IllegalMoveError as exc:
            raise IllegalMoveError(f"action {k}: {exc}") from None
    return state
