"""Ladder statistics of two crossword AIs from the game records of ``kubasolve crossword simulate --records``:
win rate with its Wilson 95% interval, the spread per game (mean and its 95% interval), and each AI's
exchange rate (exchanges per turn of its own).

    python -m kubasolve.games.crossword.ladder RECORDS.jsonl [--json]
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable
from typing import Any

from kubasolve.stats import wilson_interval

__all__ = ["ladder_stats"]


def ladder_stats(records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Per AI label (two-player records): games, wins (ties half), win rate and interval, mean spread
    (own score - the other's) with a normal 95% interval, turns, exchanges and exchange rate."""
    spreads: dict[str, list[float]] = {}
    wins: dict[str, float] = {}
    turns: dict[str, int] = {}
    exchanges: dict[str, int] = {}
    for rec in records:
        seats = rec["seats"]
        if len(seats) != 2:
            raise ValueError("ladder statistics are for two-player games")
        for p, label in enumerate(seats):
            spreads.setdefault(label, []).append(float(rec["scores"][p] - rec["scores"][1 - p]))
            wins[label] = wins.get(label, 0.0) + (1.0 / len(rec["winners"]) if p in rec["winners"] else 0.0)
            turns.setdefault(label, 0)
            exchanges.setdefault(label, 0)
        for p, action in rec["actions"]:
            turns[seats[p]] += 1
            exchanges[seats[p]] += action.get("type") == "exchange"
    out: dict[str, Any] = {}
    for label, s in spreads.items():
        n = len(s)
        mean = sum(s) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in s) / (n - 1)) if n > 1 else math.inf
        half = 1.96 * sd / math.sqrt(n)
        lo, hi = wilson_interval(wins[label], n)
        out[label] = {"games": n, "wins": wins[label], "win_rate": wins[label] / n, "ci95_low": lo, "ci95_high": hi,
                      "spread": mean, "spread_low": mean - half, "spread_high": mean + half, "turns": turns[label],
                      "exchanges": exchanges[label], "exchange_rate": exchanges[label] / turns[label] if turns[label] else 0.0}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("records", nargs="+", help="JSON-lines files written by crossword simulate --records")
    ap.add_argument("--json", action="store_true", help="one JSON document")
    args = ap.parse_args(argv)
    recs = []
    for path in args.records:
        with open(path, encoding="utf-8") as fh:
            recs += [json.loads(line) for line in fh if line.strip()]
    stats = ladder_stats(recs)
    if args.json:
        print(json.dumps(stats, indent=1))
        return 0
    for label, r in stats.items():
        print(f"{label:<12} {r['games']} games, win {100 * r['win_rate']:.1f}% [{100 * r['ci95_low']:.1f}, {100 * r['ci95_high']:.1f}], "
              f"spread {r['spread']:+.1f} [{r['spread_low']:+.1f}, {r['spread_high']:+.1f}], "
              f"exchanges {r['exchanges']}/{r['turns']} ({100 * r['exchange_rate']:.2f}%)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
