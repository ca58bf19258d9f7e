"""Self-play simulation of Kubagram AIs: many seeded games, optionally in parallel processes.

Game ``k`` of a run with master seed ``S`` is dealt from a seed derived from ``(S, k)`` and seats the AIs rotated by
``k`` places, so every AI plays every seat equally often; the result does not depend on the number of workers.
Win rates come with Wilson score confidence intervals (a tie for first counts as a shared win: 1/w each).
"""

from __future__ import annotations

import functools
import json
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from kubasolve.errors import RulesError
from kubasolve.scale import run_ordered

__all__ = ["RECORD_TIMINGS", "SimulationResult", "game_seed", "play_seated", "run_games", "simulate", "simulate_kubagram",
           "wilson_interval"]


def wilson_interval(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% for z = 1.96)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def game_seed(master: int, k: int) -> int:
    """Deal seed of game ``k`` of a run with master seed ``master``."""
    return random.Random(f"kubagram-sim:{master}:{k}").randrange(2**62)


def labels(players: Sequence[str]) -> list[str]:
    """Unique labels for the AIs (``greedy``, ``greedy#2`` ... when a name repeats)."""
    out: list[str] = []
    for p in players:
        label, k = p, 2
        while label in out:
            label, k = f"{p}#{k}", k + 1
        out.append(label)
    return out


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
    from kubasolve.ai.kubagram import make_policy
    from kubasolve.games.kubagram.game import play_game

    players, master, k, setting = args
    seed = game_seed(master, k)
    return play_seated(players, k, seed, make_policy, lambda policies: play_game(policies, seed, _referee(setting)))


def play_seated(players: Sequence[str], k: int, seed: int, make_policy: Callable[[str, int], Any],
                play: Callable[[list[Any]], Any]) -> dict[str, Any]:
    """Game ``k`` of a simulation with the AIs rotated ``k`` seats: ``make_policy(name, seed * 8 + seat)`` for
    each seat, ``play(policies)`` returns the game's record (``to_dict()``, ``turn_times``); the record dict
    with ``game``, the AI label of each seat, ``wall_s`` and per-seat ``turn_seconds``/``turn_counts``."""
    n = len(players)
    labs = labels(players)
    seats = [(i + k) % n for i in range(n)]  # seat s is played by AI seats[s]
    policies = [make_policy(players[a], seed * 8 + s) for s, a in enumerate(seats)]
    t0 = time.perf_counter()
    rec = play(policies)
    d: dict[str, Any] = rec.to_dict()
    d.update(game=k, seats=[labs[a] for a in seats], wall_s=time.perf_counter() - t0,
             turn_seconds=[sum(t) for t in rec.turn_times], turn_counts=[len(t) for t in rec.turn_times])
    return d


@dataclass
class SimulationResult:
    """Summary of a simulation run."""

    players: list[str]
    games: int
    seed: int
    workers: int
    wins: dict[str, float] = field(default_factory=dict)
    score_sum: dict[str, float] = field(default_factory=dict)
    turn_seconds: dict[str, float] = field(default_factory=dict)
    turns: dict[str, int] = field(default_factory=dict)
    wall_s: float = 0.0

    @classmethod
    def empty(cls, players: Sequence[str], games: int, seed: int, workers: int) -> SimulationResult:
        """A result with zero totals for every AI label of ``players`` (fill it with :meth:`add_game`)."""
        labs = labels(players)
        return cls(list(players), games, seed, workers, dict.fromkeys(labs, 0.0), dict.fromkeys(labs, 0.0),
                   dict.fromkeys(labs, 0.0), dict.fromkeys(labs, 0))

    def add_game(self, rec: Mapping[str, Any]) -> None:
        """Add one game record (``seats`` labels, ``scores``, ``winners``, ``turn_seconds``, ``turn_counts``);
        a tie for first counts as a shared win (1/w each). Every game's simulation uses this."""
        seats = rec["seats"]
        for s, lab in enumerate(seats):
            self.score_sum[lab] += rec["scores"][s]
            self.turn_seconds[lab] += rec["turn_seconds"][s]
            self.turns[lab] += rec["turn_counts"][s]
        for w in rec["winners"]:
            self.wins[seats[w]] += 1 / len(rec["winners"])

    def win_rate(self, label: str) -> float:
        """Share of games won (ties shared)."""
        return self.wins[label] / self.games if self.games else 0.0

    def rows(self) -> list[dict[str, Any]]:
        """One summary row per AI."""
        out = []
        for lab in labels(self.players):
            lo, hi = wilson_interval(self.wins[lab], self.games)
            out.append({
                "ai": lab, "wins": self.wins[lab], "win_rate": self.win_rate(lab), "ci95_low": lo, "ci95_high": hi,
                "mean_score": self.score_sum[lab] / self.games if self.games else 0.0,
                "mean_turn_ms": 1e3 * self.turn_seconds[lab] / self.turns[lab] if self.turns[lab] else 0.0,
            })
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON summary."""
        return {"games": self.games, "players": self.players, "seed": self.seed, "workers": self.workers,
                "wall_s": self.wall_s, "games_per_s": self.games / self.wall_s if self.wall_s else None,
                "summary": self.rows()}


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
    from kubasolve.ai.kubagram import policy_names

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


RECORD_TIMINGS = ("turn_seconds", "turn_counts")
"""Record keys kept for the summary but left out of the written records."""


def run_games(res: SimulationResult, play_one: Callable[[Any], dict[str, Any]], tasks: Sequence[Any], *,
              init: Callable[[], None] | None = None, backend: str = "local", address: str | None = None,
              records: IO[str] | None = None, on_game: Callable[[int, int], None] | None = None,
              omit: Sequence[str] = RECORD_TIMINGS, ensure_ascii: bool = True) -> SimulationResult:
    """Run ``play_one`` over ``tasks`` (in order, on ``res.workers`` workers of ``backend``), add each game to
    ``res`` and write it as a JSON line to ``records`` without the keys ``omit``; ``on_game(done, total)``
    after each game; ``res.wall_s`` is the run's wall time. The loop of every game's simulation."""
    start = time.perf_counter()
    for done, rec in enumerate(run_ordered(play_one, tasks, workers=res.workers, backend=backend, address=address,
                                           init=init), 1):
        res.add_game(rec)
        if records is not None:
            out = {k: v for k, v in rec.items() if k not in omit}
            records.write(json.dumps(out, ensure_ascii=ensure_ascii) + "\n")
        if on_game is not None:
            on_game(done, len(tasks))
    res.wall_s = time.perf_counter() - start
    return res


def _init_worker(setting: Setting) -> None:
    """Load the lexicon and compile kernels once per worker process."""
    _referee(setting)


simulate_kubagram = simulate
"""Alias exported from :mod:`kubasolve`."""
