"""Rummikub in the game protocol (:mod:`kubasolve.games.protocol`), over the game, the exact solver and the AIs.

An action is ``{"type": "play", "table": [[...], ...]}`` (the whole new table), ``{"type": "draw"}`` or ``{"type":
"timeout"}``. ``legal_moves`` lists the plays a player chooses among: the solver's best play for each aim (most
tiles, most face value, most numbered tiles keeping the jokers, most penalty points shed; the distinct ones, within
the budget), ordered by tiles played then penalty points shed, then drawing and the timeout; plays cannot be
counted, so the list is never complete. Scores stay 0 until the game ends (then: the rack penalties, the winner's
gain). A node is a DP state (or a branch-and-bound node of the integer programme).
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Sequence
from typing import Any, ClassVar

from kubasolve.budget import Budget
from kubasolve.games.protocol import AiMove, Game, LegalMove, LegalMoves, State, register_game
from kubasolve.games.rummikub.rules import RummikubRules

__all__ = ["Rummikub"]


@register_game
class Rummikub(Game):
    """Rummikub: the tile game, exact solver (docs/rummikub.md)."""

    name: ClassVar[str] = "rummikub"
    render_module: ClassVar[str] = "kubasolve.games.rummikub.render"
    ai_names: ClassVar[tuple[str, ...]] = ("greedy", "holdback")
    default_ai: ClassVar[str] = "greedy"
    rules_type: ClassVar[type] = RummikubRules
    play_help: ClassVar[str] = """Rummikub commands:
  d                  draw a tile (with the pool empty: pass, only when you cannot play)
  t                  timeout: the turn failed, draw the penalty tiles
  TABLE              play: the whole new table, sets separated by '|', e.g. r1 r2 r3 | b4 b5 b6 b7"""

    @classmethod
    def parse_rules(cls, rules: Any) -> Any:
        """The rules, refused (:class:`~kubasolve.errors.LimitError`) when the variant's catalogue of sets is too large
        to build (the bound the engine and the CLI share)."""
        from kubasolve.games.rummikub.sets import check_variant_size

        parsed = super().parse_rules(rules)
        check_variant_size(parsed)
        return parsed

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
        from kubasolve.budget import WorkBudget
        from kubasolve.games.rummikub.ai import MoveBudget
        from kubasolve.games.rummikub.game import solution_move
        from kubasolve.games.rummikub.solver import Objective

        meter = MoveBudget(budget.max_nodes, budget.movetime_ms, stop=budget.stop)
        reporter = budget.meter(WorkBudget)  # progress reports with the elapsed ms, at most every 0.1 s, as in every game
        plays: list[LegalMove] = []
        rules = self.rules
        for objective in (Objective.TILE_COUNT, Objective.JOKER_PENALTY, Objective.TOTAL_VALUE, Objective.KEEP_JOKERS):
            solution = meter.solve(native, objective)
            move = solution_move(solution)
            if solution.found and all(p.action != move for p in plays):
                shed = sum(rules.joker_penalty if t == rules.joker else t % rules.numbers + 1 for t in solution.played)
                plays.append(LegalMove(move, self._text(native, move), None,
                                       {"tiles": len(solution.played), "points": shed, "objective": objective.value}))
                if budget.progress is not None:  # the best so far, for progress reports
                    best = max(plays, key=_play_order)
                    reporter.nodes = meter.nodes
                    reporter.report({"action": best.action, "text": best.text})
        plays.sort(key=_play_order, reverse=True)
        fixed = [LegalMove({"type": "timeout"}, f"timeout: draw {self.rules.timeout_draw}")]
        if not native.must_play_if_able() or not (plays or native.has_legal_play(native.turn)):
            # with the pool empty a player who can play must (the rulebook's "plays the table"): no pass then
            fixed.insert(0, LegalMove({"type": "draw"}, "draw a tile" if native.pool else "pass (the pool is empty)"))
        return LegalMoves(plays[:top] + fixed, None, False, meter.proven_optimal, meter.nodes)

    def _apply(self, native: Any, action: dict[str, Any]) -> Any:
        game = copy.copy(native)  # the lists the game changes in place are copied; tiles and rules are values
        game.pool, game.racks, game.table = list(native.pool), [list(r) for r in native.racks], list(native.table)
        game.melded, game.moves = list(native.melded), list(native.moves)
        game.scores = None if native.scores is None else list(native.scores)
        game.apply(action)
        return game

    def _ai_move(self, native: Any, ai: str, budget: Budget, seed: int, options: dict[str, Any]) -> AiMove:
        from kubasolve.games.rummikub.ai import MoveBudget, ai_move

        meter = MoveBudget(budget.max_nodes, budget.movetime_ms, stop=budget.stop)
        move = ai_move(native, ai, meter)
        # proven only for greedy, which plays the solver's best; holdback keeps tiles back by rule of thumb
        return AiMove(move, self._text(native, move), ai == "greedy" and meter.proven_optimal, meter.nodes,
                      {"searched": meter.proven_optimal})

    def _text(self, native: Any, move: dict[str, Any]) -> str:
        """``play r4 b4 k4 (3 tiles)``, ``draw``, ``timeout``."""
        if move["type"] != "play":
            return str(move["type"])
        from kubasolve.games.rummikub.tiles import format_tiles, parse_table

        before = Counter(t for s in native.table for t in s)
        added = Counter(t for s in parse_table(move["table"], self.rules) for t in s) - before
        return f"play {format_tiles(sorted(added.elements()), self.rules)} ({sum(added.values())} tiles)"

    def parse_command(self, state: State, text: str) -> dict[str, Any] | str | None:
        from kubasolve.errors import KubasolveError
        from kubasolve.games.rummikub.tiles import parse_table

        words = text.split()
        if words in (["d"], ["draw"]):
            return {"type": "draw"}
        if words in (["t"], ["timeout"]):
            return {"type": "timeout"}
        table = text.removeprefix("play ").strip()
        try:
            parse_table(table, self.rules)
        except KubasolveError:
            return None
        return {"type": "play", "table": table}

    def _command_text(self, state: State, action: dict[str, Any]) -> str | None:
        from kubasolve.errors import KubasolveError
        from kubasolve.games.rummikub.tiles import format_table, parse_table

        if action.get("type") in ("draw", "timeout"):
            return "d" if action["type"] == "draw" else "t"
        try:
            return format_table(parse_table(action.get("table", ""), self.rules), self.rules)
        except KubasolveError:
            return None

    def _saved_native(self, data: dict[str, Any]) -> tuple[Any, Any, Sequence[str] | None] | None:
        """A ``RummikubGame.to_dict`` (the v2 engine's state), replayed from its seed; its own seat names."""
        from kubasolve.games.rummikub.game import RummikubGame

        if "moves" not in data or "seed" not in data:
            return None
        game = RummikubGame.from_dict(data)
        return game.rules, game, list(game.players)

    def _from_json(self, data: dict[str, Any], players: tuple[str, ...]) -> Any:
        from kubasolve.errors import StateError
        from kubasolve.games.rummikub.game import RummikubGame

        game = RummikubGame.from_dict(data)
        self._loaded(game, game.rules, players)
        if tuple(game.players) != players:
            raise StateError("state.players: the seat names differ from the game's own", key="state.players")
        return game


def _play_order(play: LegalMove) -> tuple[int, int]:
    """Plays best first: more tiles, then more penalty points shed."""
    return int(play.details["tiles"]), int(play.details["points"])
