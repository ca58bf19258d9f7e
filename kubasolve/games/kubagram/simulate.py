"""Self-play simulation of Kubagram AIs: many seeded games, optionally in parallel processes.

Game ``k`` of a run with master seed ``S`` is dealt from a seed derived from ``(S, k)`` and seats the AIs rotated by
``k`` places, so every AI plays every seat equally often; the result does not depend on the number of workers.
Win rates come with Wilson score confidence intervals (a tie for first counts as a shared win: 1/w each).
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any

from kubasolve.errors import RulesError
from kubasolve.scale.selfplay import (
    RECORD_TIMINGS,
    SimulationResult,
    labels,
    play_seated,
    run_games,
    wilson_interval,
)

__all__ = ["RECORD_TIMINGS", "SimulationResult", "game_seed", "labels", "play_seated", "run_games", "simulate",
           "simulate_kubagram", "wilson_interval"]


def game_seed(master: int, k: int) -> int:
    """Deal seed of game ``k`` of a run with master seed ``master``."""
    return random.Random(f"kubagram-sim:{master}:{k}").randrange(2**62)


Setting = tuple[Mapping[str, Any] | None, Mapping[str, Any] | None, str | None]
"""What a worker needs to build its referee: scoring rules, game rules (dicts) and the lexicon name/path."""


def _referee(setting: Setting) -> Any:
    """The (cached) referee of a simulation setting."""
    from kubasolve.games.kubagram.game import default_referee
    from kubasolve.games.kubagram.game_rules import KubagramGameRules
    from kubasolve.games.kubagram.rules import KubagramRules

    rules, game_rules, lexicon = setting
    return default_referee(KubagramRules.from_dict(rules) if rules else None,
                           KubagramGameRules.from_dict(game_rules) if game_rules else None,
                           _lexicon(lexicon) if lexicon else None)


@functools.cache
def _lexicon(name: str) -> Any:
    """One lexicon object per name in a process (the referee cache is keyed by the lexicon object)."""
    from kubasolve.lexicon import load_lexicon

    return load_lexicon(name)


def _play_one(args: tuple[list[str], int, int, Setting]) -> dict[str, Any]:
    """Worker: play game ``k``; returns its record with AI labels per seat."""
    from kubasolve.games.kubagram.ai import make_policy
    from kubasolve.games.kubagram.game import play_game

    players, master, k, setting = args
    seed = game_seed(master, k)
    return play_seated(players, k, seed, make_policy, lambda policies: play_game(policies, seed, _referee(setting)))


def simulate(games: int, players: Sequence[str], seed: int = 0, workers: int = 1,
             records: IO[str] | None = None, on_game: Callable[[int, int], None] | None = None,
             backend: str = "local", address: str | None = None, rules: Mapping[str, Any] | None = None,
             game_rules: Mapping[str, Any] | None = None, lexicon: str | None = None) -> SimulationResult:
    """Play ``games`` AI games (``players``: AI names, one per seat) and summarise; JSON lines to ``records``.

    ``on_game(done, total)`` is called after each game (the CLI draws its progress bar with it; the
    library never prints). ``rules``/``game_rules``: scoring and game settings as dicts (default the
    rulebook's); ``lexicon``: a bundled name or word-list path (default the bundled Dutch list).
    ``backend``/``address``: where the games run (:func:`kubasolve.scale.run_ordered`); the records and
    the summary are the same for every backend and worker count.
    """
    from kubasolve.games.kubagram.ai import policy_names

    if games < 1:
        raise RulesError(f"--games must be at least 1, got {games}")
    if workers < 1:
        raise RulesError(f"--workers must be at least 1, got {workers}")
    players = policy_names(players)
    if not 1 <= len(players) <= 8:
        raise RulesError("give 1 to 8 players, e.g. greedy,planner")
    res = SimulationResult.empty(players, games, seed, workers)
    setting: Setting = (dict(rules) if rules else None, dict(game_rules) if game_rules else None, lexicon)
    _referee(setting)  # bad rules or an unknown lexicon fail here, once, before any worker starts
    tasks = [(list(players), seed, k, setting) for k in range(games)]
    return run_games(res, _play_one, tasks, init=functools.partial(_init_worker, setting), backend=backend,
                     address=address, records=records, on_game=on_game)


def _init_worker(setting: Setting) -> None:
    """Load the lexicon and compile kernels once per worker process."""
    _referee(setting)


simulate_kubagram = simulate
"""Alias exported from :mod:`kubasolve`."""
