"""A sixth game for the tests: one-pile Nim with a score, implementing the game protocol outside the package.

Players take 1 to ``max_take`` stones from one pile in turn; each scores the stones they take, and whoever takes
the last stone scores ``last_bonus`` more. Importing this module registers the game ``nim``
(``kubasolve engine --game-module tests/protocol/nim_game.py``): the engine, with no edit, plays it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar

from kubasolve.budget import Budget
from kubasolve.errors import IllegalMoveError, RulesError, StateError
from kubasolve.games.protocol import AiMove, Game, LegalMove, LegalMoves, register_game


@dataclass(frozen=True)
class NimRules:
    """The pile's size, the most stones a turn takes, the bonus for the last stone."""

    stones: int = 15
    max_take: int = 3
    last_bonus: int = 5

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 1000:
                raise RulesError(f"{f.name} must be an integer from 0 to 1000, got {value!r}")
        if self.stones < 1 or self.max_take < 1:
            raise RulesError("stones and max_take must be at least 1")

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> NimRules:
        unknown = set(data) - {f.name for f in fields(cls)}
        if unknown:
            raise RulesError(f"unknown rule setting(s): {', '.join(sorted(unknown))}")
        return cls(**data)


@dataclass(frozen=True)
class NimState:
    """The pile left, who is to move, the scores and the stones taken so far (in order)."""

    pile: int
    current: int
    scores: tuple[int, ...]
    taken: tuple[int, ...] = ()


@register_game
class Nim(Game):
    name: ClassVar[str] = "nim"
    ai_names: ClassVar[tuple[str, ...]] = ("random", "greedy")
    default_ai: ClassVar[str] = "greedy"
    rules_type: ClassVar[type] = NimRules

    def player_range(self) -> tuple[int, int]:
        return 2, 4

    def _new(self, seed: int, players: tuple[str, ...]) -> NimState:
        return NimState(self.rules.stones, seed % len(players), (0,) * len(players))

    def _result(self, native: NimState) -> tuple[int | None, int, Sequence[int], bool, Sequence[int]]:
        over = native.pile == 0
        best = max(native.scores)
        return native.current, len(native.taken) + 1, native.scores, over, [p for p, s in enumerate(native.scores) if s == best]

    def _value(self, native: NimState, k: int) -> int:
        return k + (self.rules.last_bonus if k == native.pile else 0)

    def _legal_moves(self, native: NimState, top: int, budget: Budget) -> LegalMoves:
        takes = sorted(range(1, min(self.rules.max_take, native.pile) + 1), key=lambda k: -self._value(native, k))
        moves = [LegalMove({"type": "take", "stones": k}, f"take {k}", self._value(native, k)) for k in takes]
        return LegalMoves(moves[:top], len(moves), top >= len(moves), True, 0)

    def _apply(self, native: NimState, action: dict[str, Any]) -> NimState:
        k = action.get("stones")
        if action.get("type") != "take" or set(action) != {"type", "stones"} or isinstance(k, bool) or not isinstance(k, int):
            raise IllegalMoveError('a Nim action is {"type": "take", "stones": N}')
        if not 1 <= k <= min(self.rules.max_take, native.pile):
            raise IllegalMoveError(f"take 1 to {min(self.rules.max_take, native.pile)} stones, not {k}")
        scores = list(native.scores)
        scores[native.current] += self._value(native, k)
        return NimState(native.pile - k, (native.current + 1) % len(scores), tuple(scores), native.taken + (k,))

    def _ai_move(self, native: NimState, ai: str, budget: Budget, seed: int, options: dict[str, Any]) -> AiMove:
        import random

        top = min(self.rules.max_take, native.pile)
        k = top if ai == "greedy" else random.Random(seed * 7919 + len(native.taken)).randint(1, top)
        return AiMove({"type": "take", "stones": k}, f"take {k}", True, 0)

    def _to_json(self, native: NimState) -> dict[str, Any]:
        return {"first": (native.current - len(native.taken)) % len(native.scores), "taken": list(native.taken)}

    def _from_json(self, data: dict[str, Any], players: tuple[str, ...]) -> NimState:
        if set(data) != {"first", "taken"} or not isinstance(data["taken"], list) or not isinstance(data["first"], int):
            raise StateError("state.native: a Nim state is {first, taken}", key="state.native")
        state = replace(self._new(0, players), current=data["first"] % len(players))
        for k, stones in enumerate(data["taken"]):
            try:
                state = self._apply(state, {"type": "take", "stones": stones})
            except IllegalMoveError as exc:
                raise StateError(f"state.native.taken[{k}]: {exc}", key="state.native.taken") from None
        return state

    def _render_text(self, native: NimState, players: Sequence[str]) -> str:
        return f"pile: {'|' * native.pile} ({native.pile})\n" + "\n".join(f"{n}: {s}" for n, s in zip(players, native.scores))
