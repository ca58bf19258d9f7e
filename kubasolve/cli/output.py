"""Shared helpers for CLI subcommands: JSON vs. human output and table formatting."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any


def emit_json(payload: Any) -> None:
    """Write one JSON document to stdout (UTF-8, no ASCII escaping)."""
    sys.stdout.write(json.dumps(payload, ensure_ascii=False, indent=2) + "\n")


def format_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """Render a plain-text table with right-aligned numbers and left-aligned text."""
    cells = [[str(h) for h in headers]] + [[_fmt(v) for v in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    numeric = [all(_is_number(row[i]) for row in rows) if rows else False for i in range(len(headers))]
    lines = []
    for k, row in enumerate(cells):
        parts = [c.rjust(w) if numeric[i] else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(parts).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.3g}" if abs(v) < 1e-2 and v != 0 else f"{v:.3f}".rstrip("0").rstrip(".")
    return str(v)


def simulation_summary(res: Any) -> str:
    """The human summary of a self-play run (a :class:`kubasolve.scale.selfplay.SimulationResult`): one row
    per AI with wins, win rate, Wilson interval, mean score and turn time, then the run's size and speed."""
    rows = [[r["ai"], round(r["wins"], 1), f"{100 * r['win_rate']:.1f}%",
             f"[{100 * r['ci95_low']:.1f}%, {100 * r['ci95_high']:.1f}%]", round(r["mean_score"], 1),
             round(r["mean_turn_ms"], 2)] for r in res.rows()]
    speed = f" ({res.games / res.wall_s:.2f} games/s)" if res.wall_s > 0 else ""
    return (format_table(["AI", "wins", "win rate", "95% CI (Wilson)", "mean score", "mean turn ms"], rows)
            + f"\n{res.games} games, seed {res.seed}, {res.workers} worker(s), {res.wall_s:.1f} s{speed}")
