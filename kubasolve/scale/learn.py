"""Leave learning at scale: the generations of self-play games of :mod:`kubasolve.games.crossword.learn` run on
the local or Ray workers of :mod:`kubasolve.scale.runner`, each generation's table fitted from the last one's games
(``kubasolve crossword learn-leaves``; recipe and measurements in docs/crossword.md)."""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from kubasolve.errors import RulesError
from kubasolve.games.crossword.ai import load_leaves
from kubasolve.games.crossword.learn import (
    DEFAULT_PRIOR,
    DEFAULT_SHRINK,
    GAMES_PER_TASK,
    GameSamples,
    Setting,
    _play_task,
    check_table_tiles,
    fit_table,
    heldout_errors,
    learning_seed,
    leave_stats,
    referee_for,
    table_digest,
    table_from,
    tile_order,
)
from kubasolve.games.crossword.leaves import LearntLeaves, LeaveValues
from kubasolve.scale.runner import run_ordered


def learn_leaves(games: Sequence[int], *, seed: int = 0, held_out: int = 0, workers: int = 1, backend: str = "local",
                 address: str | None = None, rules: dict[str, Any] | None = None, lexicon: str | None = None,
                 start: str | LearntLeaves = "linear", prune: float = 0.1, prior: str = DEFAULT_PRIOR, shrink: float = DEFAULT_SHRINK,
                 on_progress: Callable[[str, int, int], None] | None = None,
                 on_samples: Callable[[int, GameSamples, GameSamples], None] | None = None) -> tuple[LearntLeaves, list[dict[str, Any]]]:
    """Learn a leave table over ``len(games)`` generations of ``games[g]`` training games (plus ``held_out``
    games per generation); generation 0 plays with ``start`` (``linear``: the shipped linear table,
    ``none``: no leave values, or a table), each next one with the table just fitted. Returns the last
    table and a report per generation. ``on_progress(stage, done, total)`` after each batch of games;
    ``on_samples(generation, train, test)`` receives each generation's samples."""
    setting: Setting = (dict(rules) if rules else None, lexicon)
    referee = referee_for(setting)
    if isinstance(start, LearntLeaves):
        check_table_tiles(start, referee.tiles.name)
    current: bytes | str = start.to_npz() if isinstance(start, LearntLeaves) else ("none" if start == "none" else referee.tiles.name)
    if isinstance(current, str) and current != "none" and start != "linear":
        raise RulesError(f"start must be 'linear', 'none' or a leave table, got {start!r}")
    reports: list[dict[str, Any]] = []
    table: LearntLeaves | None = None
    for g, n_games in enumerate(games):
        t0 = time.perf_counter()
        train, test = GameSamples(), GameSamples()
        jobs: list[tuple[Setting, bytes | str, list[int]]] = []
        kinds: list[bool] = []
        for held, count in ((False, n_games), (True, held_out)):
            seeds = [learning_seed(seed, g, k, held) for k in range(count)]
            for i in range(0, len(seeds), GAMES_PER_TASK):
                jobs.append((setting, current, seeds[i : i + GAMES_PER_TASK]))
                kinds.append(held)
        done = 0
        for held, res in zip(kinds, run_ordered(_play_task, jobs, workers=workers, backend=backend, address=address), strict=True):
            (test if held else train).extend(res)
            done += res.games
            if on_progress is not None:
                on_progress(f"generation {g + 1}/{len(games)}", done, n_games + held_out)
        play_s = time.perf_counter() - t0
        if on_samples is not None:
            on_samples(g + 1, train, test)
        info = {"tiles": referee.tiles.name, "lexicon": lexicon or "nl", "seed": seed, "generation": g + 1,
                "games": n_games, "racks": len(train.racks),
                "played_with": "linear table" if current == referee.tiles.name else ("no leaves" if current == "none" else "learnt table"),
                "prune": prune}
        table, report = fit_generation(train, test, info, table_from(current), setting, prune=prune, prior=prior, shrink=shrink)
        reports.append({**report, "seconds_play": round(play_s, 1), "seconds_total": round(time.perf_counter() - t0, 1)})
        current = table.to_npz()
    assert table is not None
    return table, reports


def fit_generation(train: GameSamples, test: GameSamples, info: dict[str, Any], played_with: LeaveValues | None,
                   setting: Setting = (None, None), prune: float = 0.1, prior: str = DEFAULT_PRIOR,
                   shrink: float = DEFAULT_SHRINK) -> tuple[LearntLeaves, dict[str, Any]]:
    """Tally, fit and check one generation's samples (``learn-leaves`` after its games, or ``--refit`` on
    the samples a run saved): the table and the generation's report (``info`` plus the counts, the fit
    and the held-out check when ``test`` holds games)."""
    referee = referee_for(setting)
    order = tile_order(referee.tiles)
    t0 = time.perf_counter()
    stats = leave_stats(train.racks, train.values, order)
    table, fit_report = fit_table(stats, prune=prune, info=info, prior=prior, k_scale=shrink)
    fit_s = time.perf_counter() - t0
    models: dict[str, LeaveValues | None] = {"none": None, "linear": load_leaves(referee.tiles.name), "played-with": played_with,
                                             "learnt": table}
    check = heldout_errors(train, test, models, order) if test.games else {}
    return table, {**info, "turns": train.turns, "exchanges": train.exchanges,
                   "exchange_rate": round(train.exchanges / train.turns, 4) if train.turns else 0.0,
                   "leaves_seen": int(len(stats.keys) - 1), "leaves_stored": len(table), "seconds_fit": round(fit_s, 1),
                   "fit": fit_report, "held_out": {"games": test.games, **check}, "digest": table_digest(table)}
