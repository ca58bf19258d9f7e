"""Self-play machinery shared by every game's ``simulate``: seating, totals, Wilson intervals and the run loop.

Game ``k`` of a run seats the AIs rotated by ``k`` places (every AI plays every seat equally often) and
:func:`run_games` runs the games through :func:`kubasolve.scale.run_ordered`, adds each to a
:class:`SimulationResult` (a tie for first counts as a shared win: 1/w each) and writes its record;
results do not depend on the backend or the number of workers. No game is imported here.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from kubasolve.scale.runner import run_ordered

__all__ = ["RECORD_TIMINGS", "SimulationResult", "labels", "play_seated", "run_games", "wilson_interval"]


def wilson_interval(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """Wilson score interval of a proportion (95% for z = 1.96)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def labels(players: Sequence[str]) -> list[str]:
    """Unique labels for the AIs (``greedy``, ``greedy#2`` ... when a name repeats)."""
    out: list[str] = []
    for p in players:
        label, k = p, 2
        while label in out:
            label, k = f"{p}#{k}", k + 1
        out.append(label)
    return out


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
