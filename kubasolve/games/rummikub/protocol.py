"""Rummikub in the game protocol (:mod:`kubasolve.games.protocol`), over the game, the exact solver and the AIs.

An action is ``{"type": "play", "table": [[...], ...]}`` (the whole new table), ``{"type": "draw"}`` or ``{"type":
"timeout"}``. ``legal_moves`` lists the solver's best plays (most tiles, then most points; within the budget),
drawing and the timeout; plays cannot be counted, so the list is never complete. Scores stay 0 until the game
ends (then: the rack penalties, the winner's gain).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from kubasolve.budget import Budget
from kubasolve.games.protocol import AiMove, Game, LegalMove, LegalMoves, register_game
from kubasolve.games.rummikub.rules import RummikubRules

__all__ = ["Rummikub"]


@register_game
class Rummikub(Game):
    """Rummikub: the tile game, exact solver (docs/rummikub.md)."""

    name: ClassVar[str] = "rummikub"
    ai_names: ClassVar[tuple[str, ...]] = ("greedy", "holdback")
    default_ai: ClassVar[str] = "greedy"
    rules_type: ClassVar[type] = RummikubRules

    def player_range(self) -> tuple[int, int]:
        from kubasolve.games.rummikub.game import MAX_PLAYERS

        return 2, min(MAX_PLAYERS, self.rules.total_tiles // self.rules.tiles_dealt)

    def _warm_up(self) -> None:
        from kubasolve.games.rummikub.solver import warm_up

        warm_up(self.rules)

    # ---------------------------------------------------------------- hooks
    def _new(self, seed: int, players: tuple[str, ...]) -> Any:
        from kubasolve.games.rummikub.game import RummikubGame

        return RummikubGame.new(len(players), seed, self.rules, list(players))

    def _result(self, native: Any) -> tuple[int | None, int, Sequence[int], bool, Sequence[int]]:
        n = len(native.players)
        scores = native.scores if native.scores is not None else [0] * n
        return native.turn, len(native.moves) + 1, scores, native.over, [native.winner] if native.over else []

    def _legal_moves(self, native: Any, top: int, budget: Budget) -> LegalMoves:
        from kubasolve.ai.rummikub import MoveBudget
        from kubasolve.games.rummikub.game import solution_move
        from kubasolve.games.rummikub.solver import Objective

        meter = MoveBudget(budget.max_nodes, budget.movetime_ms, stop=budget.stop)
        plays: list[LegalMove] = []
        for objective in (Objective.TILE_COUNT, Objective.TOTAL_VALUE)[:top]:
            solution = meter.solve(native, objective)
            move = solution_move(solution)
            if solution.found and all(p.action != move for p in plays):
                plays.append(LegalMove(move, self._text(native, move), None,
                                       {"tiles": len(solution.played), "objective": objective.value}))
        fixed = [LegalMove({"type": "draw"}, "draw a tile" if native.pool else "pass (the pool is empty)"),
                 LegalMove({"type": "timeout"}, f"timeout: draw {self.rules.timeout_draw}")]
        return LegalMoves(plays + fixed, None, False, meter.proven_optimal, 0)

    def _apply(self, native: Any, action: dict[str, Any]) -> Any:
        game = copy.copy(native)  # the lists the game changes in place are copied; tiles and rules are values
        game.pool, game.racks, game.table = list(native.pool), [list(r) for r in native.racks], list(native.table)
        game.melded, game.moves = list(native.melded), list(native.moves)
        game.scores = None if native.scores is None else list(native.scores)
        game.apply(action)
        return game

    def _ai_move(self, native: Any, ai: str, budget: Budget, seed: int, options: dict[str, Any]) -> AiMove:
        from kubasolve.ai.rummikub import MoveBudget, ai_move

        meter = MoveBudget(budget.max_nodes, budget.movetime_ms, stop=budget.stop)
        move = ai_move(native, ai, meter)
        return AiMove(move, self._text(native, move), meter.proven_optimal, 0)

    def _text(self, native: Any, move: dict[str, Any]) -> str:
        """``play r4 b4 k4 (3 tiles)``, ``draw``, ``timeout``."""
        if move["type"] != "play":
            return str(move["type"])
        from kubasolve.games.rummikub.tiles import format_tiles, parse_table

        before = Counter(t for s in native.table for t in s)
        added = Counter(t for s in parse_table(move["table"], self.rules) for t in s) - before
        return f"play {format_tiles(sorted(added.elements()), self.rules)} ({sum(added.values())} tiles)"

    def _from_json(self, data: dict[str, Any], players: tuple[str, ...]) -> Any:
        from kubasolve.errors import StateError
        from kubasolve.games.rummikub.game import RummikubGame

        game = RummikubGame.from_dict(data)
        self._loaded(game, game.rules, players)
        if tuple(game.players) != players:
            raise StateError("state.players: the seat names differ from the game's own", key="state.players")
        return game

    def _render_text(self, native: Any, players: Sequence[str]) -> str:
        from kubasolve.games.rummikub.render import render_text

        return render_text(native, players)

    def _render_svg(self, native: Any, players: Sequence[str]) -> str:
        from kubasolve.games.rummikub.render import render_svg

        return render_svg(native, players)
