"""Kubagram game benchmark scenarios: whole seeded greedy games, planner and search turns, and simulation throughput
with 1 and 2 worker processes (issue 4 targets: 4-player greedy game <= 200 ms median, planner turn <= 100 ms median,
2 workers >= 1.7x the throughput of 1); :func:`move_times` times every move of whole search-vs-planner games (issue 14:
search <= 200 ms per move median)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

from kubasolve.bench.runner import Scenario

GAME_SEEDS = tuple(range(100, 110))
SIM_GAMES = 12


def _referee() -> Any:
    from kubasolve.games.kubagram.game import default_referee

    return default_referee()


def greedy_game(n_players: int = 4) -> Callable[[], object]:
    """Setup: each call plays one whole seeded greedy game (seeds cycle through GAME_SEEDS)."""
    from kubasolve.games.kubagram.ai import GreedyPolicy
    from kubasolve.games.kubagram.game import play_game

    ref = _referee()
    seeds = itertools.cycle(GAME_SEEDS)
    return lambda: play_game([GreedyPolicy() for _ in range(n_players)], next(seeds), ref)


def turn_states(n: int = 40, seed: int = 100) -> list[Any]:
    """States at the start of turns spread over a seeded 2-player greedy game (the positions a planner meets)."""
    from kubasolve.games.kubagram.ai import GreedyPolicy
    from kubasolve.games.kubagram.game import play_game, replay

    ref = _referee()
    rec = play_game([GreedyPolicy(), GreedyPolicy()], seed, ref)
    assert rec.final is not None
    hist = rec.final.history
    starts = [k for k in range(len(hist)) if k == 0 or hist[k - 1][0] != hist[k][0]]
    picks = starts[:: max(1, len(starts) // n)][:n]
    return [replay(seed, [a for _, a in hist[:k]], referee=ref) for k in picks]


def policy_turn(name: str) -> Callable[[], Callable[[], object]]:
    """Setup factory: each call plans one turn with AI ``name`` on the next state of :func:`turn_states`."""

    def setup() -> Callable[[], object]:
        from kubasolve.games.kubagram.ai import make_policy

        ref = _referee()
        states = itertools.cycle(turn_states())
        policy = make_policy(name)
        return lambda: policy.turn(ref, next(states))

    return setup


def move_times(players: tuple[str, ...] = ("planner", "search"), games: int = 10, seed: int = 1000
               ) -> dict[str, dict[str, float]]:
    """Planning time of every move of each AI over ``games`` whole 2-player games (deal seeds ``seed``,
    ``seed + 1``, ...; seats alternate): median, 90th percentile, mean and slowest in ms over all moves, and the
    median over the moves with a choice (more than one way to take the cube, or a word to claim; skipping aside). Whole games,
    not sampled states, because the share of moves without a choice matters."""
    import statistics
    import time

    from kubasolve.games.kubagram.ai import _options, make_policy
    from kubasolve.games.kubagram.game import play_game

    ref = _referee()
    times: dict[str, list[float]] = {p: [] for p in players}
    choice: dict[str, list[float]] = {p: [] for p in players}

    class Timed:
        """Times each turn of ``policy`` and notes whether the move had a choice."""

        def __init__(self, label: str) -> None:
            self.label, self.policy = label, make_policy(label)
            self.name = self.policy.name

        def turn(self, referee: Any, state: Any) -> list[Any]:
            t0 = time.perf_counter()
            actions = self.policy.turn(referee, state)
            ms = 1e3 * (time.perf_counter() - t0)
            times[self.label].append(ms)
            if len(_options(referee, state, allow_skip=False)) > 1 or referee.solver.best_words(state.position(), top=1):
                choice[self.label].append(ms)
            return actions

    for k in range(games):
        seats = list(players) if k % 2 == 0 else list(reversed(players))
        play_game([Timed(p) for p in seats], seed + k, ref)
    out = {}
    for p, ts in times.items():
        ts.sort()
        out[p] = {"median_ms": statistics.median(ts), "p90_ms": ts[int(0.9 * (len(ts) - 1))],
                  "mean_ms": statistics.fmean(ts), "max_ms": ts[-1], "moves": float(len(ts)),
                  "choice_median_ms": statistics.median(choice[p]) if choice[p] else 0.0,
                  "choice_moves": float(len(choice[p]))}
    return out


def simulation(workers: int) -> Callable[[], Callable[[], object]]:
    """Setup factory: each call simulates SIM_GAMES greedy-vs-planner games with ``workers`` processes."""

    def setup() -> Callable[[], object]:
        import io

        from kubasolve.scale.selfplay import simulate

        _referee()  # load the lexicon and compile kernels before forking
        return lambda: simulate("kubagram", ["greedy", "planner"], SIM_GAMES, seed=1, workers=workers, records=io.StringIO())

    return setup


def scenarios() -> list[Scenario]:
    """The kubagram game suite."""
    return [
        Scenario("greedy-game-4p", "kubagram-game", lambda: greedy_game(4), target_ms=200.0,
                 description="one seeded 4-player greedy game, start to end"),
        Scenario("greedy-game-2p", "kubagram-game", lambda: greedy_game(2), baseline="greedy-game-4p",
                 description="one seeded 2-player greedy game"),
        Scenario("greedy-turn", "kubagram-turn", policy_turn("greedy"),
                 description="one greedy turn on mid-game states"),
        Scenario("planner-turn", "kubagram-turn", policy_turn("planner"), baseline="greedy-turn", target_ms=100.0,
                 description="one planner turn (default depth) on mid-game states"),
        Scenario("search-turn", "kubagram-turn", policy_turn("search"), baseline="planner-turn", target_ms=200.0,
                 description="one search-AI turn (default budget) on mid-game states (issue 14: <= 200 ms median)"),
        Scenario("simulate-1-worker", "kubagram-simulate", simulation(1),
                 description=f"{SIM_GAMES} greedy-vs-planner games, 1 process"),
        Scenario("simulate-2-workers", "kubagram-simulate", simulation(2), baseline="simulate-1-worker",
                 description=f"{SIM_GAMES} greedy-vs-planner games, 2 processes (target: >= 1.7x the 1-worker speed)"),
    ]
