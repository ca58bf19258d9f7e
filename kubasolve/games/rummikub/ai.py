"""Rummikub players: ``greedy`` plays the solver's best move every turn; ``holdback`` holds its tiles back
after melding until it can go out or the end is near, which scores better over a game."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from kubasolve.budget import Budget, StopFlag, check_work_budget
from kubasolve.errors import PositionError
from kubasolve.games.rummikub.game import RummikubGame, solution_move
from kubasolve.games.rummikub.solver import Objective, Solution, solve


@dataclass
class MoveBudget:
    """A work budget for one AI move (engines: ``movetime_ms`` / ``max_nodes``, as UCI's ``go movetime`` /
    ``go nodes``). ``max_nodes`` caps each exact solve the AI makes (DP states, or ILP branch-and-bound nodes;
    ``holdback`` makes at most two), ``movetime_ms`` the whole move (the solves share the deadline, which
    starts when the budget is made). Afterwards ``proven_optimal`` says whether every solve ran to its end;
    when one did not, the AI played the best legal move found by then (possibly a draw). ``nodes``: what the
    solves spent in all."""

    max_nodes: int | None = None
    movetime_ms: float | None = None
    proven_optimal: bool = True
    stop: StopFlag | None = field(default=None, repr=False, compare=False)
    """Once set (an engine's ``stop``), the solve gives up before its next search: the move is the best found by then."""
    nodes: int = 0
    _deadline: float | None = field(default=None, init=False, repr=False)

    def __post_init__(self) -> None:
        check_work_budget(self.max_nodes, self.movetime_ms)
        if self.movetime_ms is not None:
            self._deadline = time.perf_counter() + self.movetime_ms / 1e3

    def solve(self, game: RummikubGame, objective: Objective) -> Solution:
        """The solver's best play for the player to move within what is left of the budget."""
        left = None
        if self._deadline is not None:
            left = max(1e-3, (self._deadline - time.perf_counter()) * 1e3)  # spent: the solver gives up at once
        if self.stop is not None and self.stop.is_set():
            left = 1e-3
        sol = solve(game.table, game.rack, game.rules, objective, first_meld=not game.melded[game.turn],
                    budget=Budget(left, self.max_nodes, stop=self.stop))
        self.proven_optimal = self.proven_optimal and sol.proven_optimal
        self.nodes += sol.nodes
        return sol


def _best(game: RummikubGame, objective: Objective, budget: MoveBudget | None) -> Solution:
    return game.best_move(objective) if budget is None else budget.solve(game, objective)


def greedy_move(game: RummikubGame, budget: MoveBudget | None = None) -> dict[str, Any]:
    """Play as many tiles as possible now (exact solver, or the best found within ``budget``), else draw."""
    return solution_move(_best(game, Objective.TILE_COUNT, budget))


def holdback_move(game: RummikubGame, pressure_rack: int = 4, max_rack: int = 20,
                  budget: MoveBudget | None = None) -> dict[str, Any]:
    """Meld as soon as possible; afterwards go out as soon as the whole rack fits, and otherwise hold
    the tiles back (draw), so opponents cannot build on them, until the end is near: the pool is empty,
    an opponent holds <= ``pressure_rack`` tiles, or the own rack reaches ``max_rack``. Then it sheds
    the most penalty points it can (jokers count 30). Over many games this scores better than greedy
    (see docs/rummikub.md for the measured numbers). With a ``budget`` each solve is bounded by it (when the
    penalty solve finds nothing in time, the tile-count play found first is played)."""
    me = game.turn
    if not game.melded[me]:
        return greedy_move(game, budget)
    best = _best(game, Objective.TILE_COUNT, budget)
    if not best.found or len(best.played) == len(game.rack):
        return solution_move(best)
    pressed = (
        not game.pool
        or len(game.rack) >= max_rack
        or any(len(r) <= pressure_rack for p, r in enumerate(game.racks) if p != me)
    )
    if pressed:
        shed = _best(game, Objective.JOKER_PENALTY, budget)
        return solution_move(shed if shed.found or shed.proven_optimal else best)
    return {"type": "draw"}


AIS: dict[str, Callable[..., dict[str, Any]]] = {"greedy": greedy_move, "holdback": holdback_move}
"""The Rummikub AIs by name: ``fn(game, budget=None) -> move``."""


def ai_move(game: RummikubGame, kind: str = "greedy", budget: MoveBudget | None = None) -> dict[str, Any]:
    """Move chosen by the AI named ``kind`` (``greedy`` or ``holdback``) for the player to move; with a
    ``budget`` (:class:`MoveBudget`) the best move found within it (``budget.proven_optimal`` says whether the
    solves ran to their end)."""
    try:
        policy = AIS[kind]
    except KeyError:
        raise PositionError(f"unknown Rummikub AI {kind!r}; choose one of {', '.join(AIS)}") from None
    move = policy(game) if budget is None else policy(game, budget=budget)
    if move["type"] == "draw" and game.must_play_if_able():
        # a budget cut before any play was found: with the pool empty the player must play when they can, so the
        # search runs to its end (the rulebook's "plays the table"; a draw would be refused)
        sol = game.best_move(Objective.TILE_COUNT)
        if sol.found:
            move = solution_move(sol)
    return move


def play_game(game: RummikubGame, kinds: Sequence[str], max_turns: int = 2000, max_nodes: int | None = None,
              deadline: float | None = None) -> RummikubGame:
    """Let the AIs ``kinds[p]`` play ``game`` to its end (or ``max_turns`` moves); ``max_nodes`` caps each of
    their solves (a node budget is deterministic: the same game every time). ``deadline`` (a ``time.perf_counter()``
    value): no move starts after it, and a move's solves stop at it (the game is then left unfinished)."""
    for _ in range(max_turns):
        if game.over:
            break
        if deadline is None:
            budget = None if max_nodes is None else MoveBudget(max_nodes)
        else:
            left_ms = (deadline - time.perf_counter()) * 1e3
            if left_ms <= 0:
                break
            budget = MoveBudget(max_nodes, left_ms)
        game.apply(ai_move(game, kinds[game.turn], budget))
    return game
