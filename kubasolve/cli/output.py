"""Shared helpers for CLI subcommands: JSON vs. human output and table formatting."""

from __future__ import annotations

import json
import sys
from typing import Any

from kubasolve.games.rendering import format_table

__all__ = ["emit_json", "format_table", "simulation_summary"]


def emit_json(payload: Any) -> None:
    """Write one JSON document to stdout (UTF-8, no ASCII escaping)."""
    sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2) + "\n")


def simulation_summary(res: Any) -> str:
    """The human summary of a self-play run (a :class:`kubasolve.scale.selfplay.SimulationResult`): one row
    per AI with wins, win rate, Wilson interval, mean score and turn time, then the run's size and speed."""
    rows = [[r["ai"], round(r["wins"], 1), f"{100 * r['win_rate']:.1f}%",
             f"[{100 * r['ci95_low']:.1f}%, {100 * r['ci95_high']:.1f}%]", round(r["mean_score"], 1),
             round(r["mean_turn_ms"], 2)] for r in res.rows()]
    speed = f" ({res.games / res.wall_s:.2f} games/s)" if res.wall_s > 0 else ""
    used = res.workers if getattr(res, "workers_used", None) is None else res.workers_used
    workers = f"{used} worker(s)" + ("" if used == res.workers else f" ({res.workers} requested)")
    return (format_table(["AI", "wins", "win rate", "95% CI (Wilson)", "mean score", "mean turn ms"], rows)
            + f"\n{res.games} games, seed {res.seed}, {workers}, {res.wall_s:.1f} s{speed}")
