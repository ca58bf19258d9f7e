"""Ladder statistics of two crossword AIs from the game records of ``kubasolve crossword simulate --records``:
win rate with its Wilson 95% interval, the spread per game (mean and its 95% interval), and each AI's
exchange rate (exchanges per turn of its own). Records of ``simulate --paired`` (every deal played both ways)
also get intervals over the deals: the mean of each deal's two games, which cancels most of the luck of
the draw.

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
    (own score - the other's) with a normal 95% interval, turns, exchanges and exchange rate; when deals (``seed``)
    were played twice, also ``deals`` (those played both ways), the normal 95% intervals of their per-deal means
    (``paired_win_rate_low``/``_high``, ``paired_spread_low``/``_high``) and ``unpaired``: the games of deals
    played once (a ladder stopped early), left out of those intervals."""
    spreads: dict[str, list[float]] = {}
    wins: dict[str, float] = {}
    turns: dict[str, int] = {}
    exchanges: dict[str, int] = {}
    deals: dict[str, dict[Any, list[tuple[float, float]]]] = {}
    for rec in records:
        seats = rec["seats"]
        if len(seats) != 2:
            raise ValueError("ladder statistics are for two-player games")
        for p, label in enumerate(seats):
            spread = float(rec["scores"][p] - rec["scores"][1 - p])
            won = 1.0 / len(rec["winners"]) if p in rec["winners"] else 0.0
            spreads.setdefault(label, []).append(spread)
            wins[label] = wins.get(label, 0.0) + won
            if rec.get("seed") is not None:
                deals.setdefault(label, {}).setdefault(rec["seed"], []).append((won, spread))
            turns.setdefault(label, 0)
            exchanges.setdefault(label, 0)
        for p, action in rec["actions"]:
            turns[seats[p]] += 1
            exchanges[seats[p]] += action.get("type") == "exchange"
    out: dict[str, Any] = {}
    for label, s in spreads.items():
        n = len(s)
        mean, half = _mean_interval(s) if n > 1 else (s[0], math.inf)
        lo, hi = wilson_interval(wins[label], n)
        out[label] = {"games": n, "wins": wins[label], "win_rate": wins[label] / n, "ci95_low": lo, "ci95_high": hi,
                      "spread": mean, "spread_low": mean - half, "spread_high": mean + half, "turns": turns[label],
                      "exchanges": exchanges[label], "exchange_rate": exchanges[label] / turns[label] if turns[label] else 0.0}
        pairs = [g for g in deals.get(label, {}).values() if len(g) == 2]
        if len(pairs) > 1:
            for key, column in (("win_rate", 0), ("spread", 1)):
                means = [(a[column] + b[column]) / 2 for a, b in pairs]
                mu, half = _mean_interval(means)
                out[label][f"paired_{key}_low"], out[label][f"paired_{key}_high"] = mu - half, mu + half
            out[label]["deals"] = len(pairs)
            out[label]["unpaired"] = n - 2 * len(pairs)
    return out


def _mean_interval(xs: list[float]) -> tuple[float, float]:
    """(mean, half-width of its normal 95% interval) of ``xs`` (at least two values)."""
    n = len(xs)
    mean = sum(xs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1))
    return mean, 1.96 * sd / math.sqrt(n)


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
        if "deals" in r:
            print(f"{'':<12} paired over {r['deals']} deals: win [{100 * r['paired_win_rate_low']:.1f}, "
                  f"{100 * r['paired_win_rate_high']:.1f}], spread [{r['paired_spread_low']:+.1f}, {r['paired_spread_high']:+.1f}]"
                  + (f" ({r['unpaired']} games of deals played once left out)" if r["unpaired"] else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
