"""Ladder statistics of two crossword AIs from the game records of ``kubasolve crossword simulate --records``:
win rate with its Wilson 95% interval, the spread per game (mean and its 95% interval), and each AI's
exchange rate (exchanges per turn of its own). Records of ``simulate --paired`` (every deal played both ways)
also get intervals over the deals: the mean of each deal's two games, which cancels most of the luck of
the draw.

    python -m kubasolve.games.crossword.ladder RECORDS.jsonl [--json]

Exit codes: 0 ok; 1 records that cannot be read or summed up (a missing file, a line that is not JSON, a record
of another game or of more than two players, games of more than one pairing of AIs, no record at all), named on
stderr (with ``--json``: ``{"ok": false, "error": {...}}`` on stdout); 2 usage.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable
from typing import Any

from kubasolve.errors import KubasolveError, error_payload
from kubasolve.stats import wilson_interval

__all__ = ["LadderError", "ladder_stats"]


class LadderError(KubasolveError, ValueError):
    """Records the ladder cannot sum up (another game's, more than two players, more than one pairing of AIs,
    malformed): the message names the record."""


def ladder_stats(records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Per AI label (two-player records): games, wins (ties half), win rate and interval, mean spread
    (own score - the other's) with a normal 95% interval, turns, exchanges and exchange rate; when deals (``seed``)
    were played twice, also ``deals`` (those played both ways), the normal 95% intervals of their per-deal means
    (``paired_win_rate_low``/``_high``, ``paired_spread_low``/``_high``) and ``unpaired``: the games of deals
    played once (a ladder stopped early), left out of those intervals. With one game there is no interval:
    ``spread_low``/``spread_high`` are None. Records of another game (``game`` not ``crossword``), of more or fewer
    than two players, or of more than one pairing of AIs (``a`` vs ``b`` and ``a`` vs ``c``: a per-AI sum over
    different opponents says nothing) are refused: :class:`LadderError` naming the record."""
    spreads: dict[str, list[float]] = {}
    wins: dict[str, float] = {}
    turns: dict[str, int] = {}
    exchanges: dict[str, int] = {}
    deals: dict[str, dict[Any, list[tuple[float, float]]]] = {}
    pairing: tuple[str, str] | None = None
    for number, rec in enumerate(records, 1):
        _check_record(rec, number)
        seats = rec["seats"]
        pair = (min(seats), max(seats))
        if pairing is None:
            pairing = pair
        elif pair != pairing:
            raise LadderError(f"record {number} is a game of {pair[0]} vs {pair[1]}, record 1 one of {pairing[0]} vs "
                              f"{pairing[1]}: the ladder sums up the games of one pairing of AIs")
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
        mean, half = _mean_interval(s) if n > 1 else (s[0], None)  # one game: no interval (JSON has no infinity)
        lo, hi = wilson_interval(wins[label], n)
        out[label] = {"games": n, "wins": wins[label], "win_rate": wins[label] / n, "ci95_low": lo, "ci95_high": hi,
                      "spread": mean, "spread_low": None if half is None else mean - half,
                      "spread_high": None if half is None else mean + half, "turns": turns[label],
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


def _check_record(rec: Any, number: int) -> None:
    """Refuse a record the ladder cannot read (:class:`LadderError` naming record ``number``)."""
    if not isinstance(rec, dict):
        raise LadderError(f"record {number} is not a game record (a JSON object of crossword simulate --records)")
    game = rec.get("game", "crossword")
    if game != "crossword":
        raise LadderError(f"record {number} is a {game!r} game: the ladder sums up crossword games")
    seats, scores, winners, actions = (rec.get(k) for k in ("seats", "scores", "winners", "actions"))
    if not isinstance(seats, list) or not all(isinstance(x, str) for x in seats):
        raise LadderError(f"record {number} has no seats (the AI label of each seat): not a game record of crossword simulate")
    if len(seats) != 2:
        raise LadderError(f"record {number} is a game of {len(seats)} players: ladder statistics are for two-player games")
    if seats[0] == seats[1]:
        raise LadderError(f"record {number} seats {seats[0]!r} twice")
    if (not isinstance(scores, list) or len(scores) != 2
            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x) for x in scores)):
        raise LadderError(f"record {number}: scores must be two numbers")
    if not isinstance(winners, list) or not all(x in (0, 1) and not isinstance(x, bool) for x in winners):
        raise LadderError(f"record {number}: winners must be a list of seats (0, 1)")
    if not isinstance(actions, list) or not all(
            isinstance(a, list) and len(a) == 2 and a[0] in (0, 1) and not isinstance(a[0], bool) and isinstance(a[1], dict)
            for a in actions):
        raise LadderError(f"record {number}: actions must be [seat, action] pairs")


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
    try:
        stats = ladder_stats(_read_records(args.records))
    except KubasolveError as exc:
        if args.json:
            print(json.dumps(error_payload(exc)))
        else:
            sys.stderr.write(f"ladder: error: {exc}\n")
        return 1
    if args.json:
        print(json.dumps(stats, indent=1))
        return 0
    for label, r in stats.items():
        interval = "(one game: no interval)" if r["spread_low"] is None else f"[{r['spread_low']:+.1f}, {r['spread_high']:+.1f}]"
        print(f"{label:<12} {r['games']} games, win {100 * r['win_rate']:.1f}% [{100 * r['ci95_low']:.1f}, {100 * r['ci95_high']:.1f}], "
              f"spread {r['spread']:+.1f} {interval}, "
              f"exchanges {r['exchanges']}/{r['turns']} ({100 * r['exchange_rate']:.2f}%)")
        if "deals" in r:
            print(f"{'':<12} paired over {r['deals']} deals: win [{100 * r['paired_win_rate_low']:.1f}, "
                  f"{100 * r['paired_win_rate_high']:.1f}], spread [{r['paired_spread_low']:+.1f}, {r['paired_spread_high']:+.1f}]"
                  + (f" ({r['unpaired']} games of deals played once left out)" if r["unpaired"] else ""))
    return 0


def _read_records(paths: list[str]) -> list[Any]:
    """The records of the JSON-lines files ``paths`` (blank lines skipped); a file that cannot be read, a line that
    is not JSON or no record at all: :class:`LadderError` naming the file and line."""
    from kubasolve.files import read_user_text

    recs: list[Any] = []
    for path in paths:
        for number, line in enumerate(read_user_text(path, "records file", LadderError).split("\n"), 1):
            if not line.strip():
                continue
            try:
                recs.append(json.loads(line))
            except (ValueError, RecursionError) as exc:
                raise LadderError(f"{path} line {number} is not JSON ({getattr(exc, 'msg', exc)}): not a records file of crossword simulate") from None
    if not recs:
        raise LadderError(f"no game records in {', '.join(paths)}")
    return recs


if __name__ == "__main__":
    sys.exit(main())
