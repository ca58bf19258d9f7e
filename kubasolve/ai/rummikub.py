"""Rummikub players: ``greedy`` plays the solver's best move every turn; ``holdback`` holds its tiles back
after melding until it can go out or the end is near, which scores better over a game."""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from kubasolve.budget import StopFlag, check_work_budget
from kubasolve.errors import PositionError
from kubasolve.games.rummikub.game import RummikubGame, solution_move
from kubasolve.games.rummikub.rules import RummikubRules
from kubasolve.games.rummikub.solver import Objective, Solution, solve


@dataclass
class MoveBudget:
    """A work budget for one AI move (engines: ``movetime_ms`` / ``max_nodes``, as UCI's ``go movetime`` /
    ``go nodes``). ``max_nodes`` caps each exact solve the AI makes (DP states, or ILP branch-and-bound nodes;
    ``holdback`` makes at most two), ``movetime_ms`` the whole move (the solves share the deadline, which
    starts when the budget is made). Afterwards ``proven_optimal`` says whether every solve ran to its end;
    when one did not, the AI played the best legal move found by then (possibly a draw)."""

    max_nodes: int | None = None
    movetime_ms: float | None = None
    proven_optimal: bool = True
    stop: StopFlag | None = field(default=None, repr=False, compare=False)
    """Once set (an engine's ``stop``), the next solve gives up at once: the move is the best found by then."""
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
                    max_nodes=self.max_nodes, time_limit_ms=left)
        self.proven_optimal = self.proven_optimal and sol.proven_optimal
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
    return policy(game) if budget is None else policy(game, budget=budget)


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


@dataclass
class SimulationResult:
    """Totals over simulated games, per AI kind (seats rotate so no AI always starts; an AI named twice
    pools its seats)."""

    games: int
    kinds: list[str]
    wins: dict[str, int]
    total_score: dict[str, int]
    unfinished: int
    out_of_time: int = 0
    """Games cut short or never started because the time budget ran out (counted in ``unfinished`` too)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-friendly totals; ``mean_score`` is per finished game and per seat of that AI (the scores and wins
        count finished games only)."""
        seats = {k: self.kinds.count(k) for k in self.wins}
        finished = self.games - self.unfinished
        return {
            "games": self.games,
            "players": self.kinds,
            "wins": self.wins,
            "mean_score": {k: self.total_score[k] / max(1, finished * seats[k]) for k in self.total_score},
            "unfinished": self.unfinished,
            "out_of_time": self.out_of_time,
        }


def _play_one(task: tuple[list[str], int, int, dict[str, Any], int | None, float | None]) -> dict[str, Any]:
    """Worker: play game ``i`` (seats, deal seed, index, rules, node budget per solve, deadline); its record (the seed
    and the moves replay it exactly)."""
    seats, deal_seed, i, rules, max_nodes, deadline = task
    game = RummikubGame.new(len(seats), deal_seed, RummikubRules.from_dict(rules), players=seats)
    play_game(game, seats, max_nodes=max_nodes, deadline=deadline)
    record = {"game": i, "seed": deal_seed, "seats": seats, "finished": bool(game.over and game.scores is not None),
              "winner": game.winner, "scores": game.scores, "moves": game.moves}
    if deadline is not None and not record["finished"] and time.perf_counter() >= deadline:
        record["out_of_time"] = True
    return record


MAX_GAMES = 10_000_000
"""Most games one :func:`simulate` call plays (checked before anything is built)."""


def game_seed(master: int, i: int) -> int:
    """Deal seed of game ``i`` of a simulation with seed ``master``: the ``i``-th draw of ``Random(master)``
    (``randrange(2**31)``), so game ``i`` is the same game whatever the number of games or workers."""
    rng = random.Random(master)
    seed = 0
    for _ in range(i + 1):
        seed = rng.randrange(2**31)
    return seed


def simulate(
    games: int,
    kinds: Sequence[str],
    seed: int = 0,
    rules: RummikubRules | None = None,
    workers: int = 1,
    records: IO[str] | None = None,
    on_game: Callable[[int, int], None] | None = None,
    backend: str = "local",
    address: str | None = None,
    max_nodes: int | None = None,
    movetime_ms: float | None = None,
) -> SimulationResult:
    """Play ``games`` AI-vs-AI games; game ``i`` is dealt from :func:`game_seed` ``(seed, i)`` (the ``i``-th draw of
    ``Random(seed)``) with seats rotated by ``i``. ``workers`` processes play them (the records and totals do
    not depend on how many);
    one JSON line per game goes to ``records``; ``on_game(done, total)`` is called after each game (the
    CLI draws its progress bar with it; the library never prints). ``backend``/``address``: where the games
    run (:func:`kubasolve.scale.run_ordered`: local processes or Ray actors), with the same results.
    ``max_nodes`` caps every solve of the AIs (deterministic, so the games stay reproducible; engines use it to
    bound a request on a slow rule variant). ``movetime_ms`` bounds the whole simulation (local backend: the
    workers share this machine's clock): no move starts after it, the games it cuts or never starts are counted in
    ``unfinished`` and ``out_of_time``, the others are the same games as without it."""
    from kubasolve.scale import run_ordered

    for name, value, low, high in (("games", games, 1, MAX_GAMES), ("workers", workers, 1, 1024)):
        if type(value) is not int or not low <= value <= high:
            raise PositionError(f"{name} must be an integer from {low} to {high:,}, got {str(value)[:40]}")
    if type(seed) is not int:
        raise PositionError(f"the seed must be an integer, got {str(seed)[:40]}")
    check_work_budget(max_nodes, movetime_ms)
    deadline = None if movetime_ms is None else time.perf_counter() + movetime_ms / 1e3
    if isinstance(kinds, str) or not 2 <= len(kinds) <= 8:
        raise PositionError("a simulation needs 2 to 8 players, e.g. greedy,holdback")
    kinds = list(kinds)
    for k in kinds:
        if k not in AIS:
            raise PositionError(f"unknown Rummikub AI {k!r}; choose from {', '.join(AIS)}")
    rules = rules or RummikubRules()
    wins = {k: 0 for k in kinds}
    total = {k: 0 for k in kinds}
    unfinished = out_of_time = 0
    rng = random.Random(seed)  # draws game_seed(seed, i) for i = 0, 1, ... in one pass
    tasks = []
    for i in range(games):
        shift = i % len(kinds)
        tasks.append((kinds[shift:] + kinds[:shift], rng.randrange(2**31), i, rules.to_dict(), max_nodes, deadline))
    for done, rec in enumerate(run_ordered(_play_one, tasks, workers=workers, backend=backend, address=address), 1):
        seats = rec["seats"]
        if not rec["finished"]:
            unfinished += 1
            out_of_time += bool(rec.get("out_of_time"))
        else:
            wins[seats[rec["winner"]]] += 1
            for p, k in enumerate(seats):
                total[k] += rec["scores"][p]
        if records is not None:
            records.write(json.dumps(rec) + "\n")
        if on_game is not None:
            on_game(done, games)
    return SimulationResult(games=games, kinds=kinds, wins=wins, total_score=total, unfinished=unfinished, out_of_time=out_of_time)
