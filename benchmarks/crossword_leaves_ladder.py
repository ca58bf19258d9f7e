"""Ladder of two crossword leave tables: ``equity2`` valuing leaves with table A against ``equity2`` with table B.

Every deal is played twice, each table seated first once (the same tiles both ways, so the pair cancels most
of the luck of the draw); games run on worker processes and the records are the same whatever the worker
count. The summary is :func:`kubasolve.games.crossword.ladder.ladder_stats` (win rate with its Wilson 95%
interval, spread per game, exchange rates); ``--records`` keeps the game records (JSON lines, the
``kubasolve crossword simulate --records`` fields).

    python benchmarks/crossword_leaves_ladder.py NEW.npz [--baseline shipped|linear|OLD.npz] --deals 500 --seed 1 \
        --workers 2 [--records FILE] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from kubasolve.games.crossword.ladder import ladder_stats


def _leaves(spec: str) -> Any:
    """A leave model: ``shipped`` (the learnt Dutch table in the package), ``linear`` (the linear table) or a .npz."""
    from kubasolve.games.crossword.ai import load_leaves
    from kubasolve.games.crossword.leaves import LearntLeaves, load_learnt_leaves

    if spec == "shipped":
        return load_learnt_leaves("nl")
    if spec == "linear":
        return load_leaves("nl")
    return LearntLeaves.from_npz(spec)


_MODELS: dict[str, Any] = {}


def _game(task: tuple[int, bool, str, str]) -> dict[str, Any]:
    """One game: deal ``seed``, table A first when ``a_first``; the record with seat labels ``A``/``B``."""
    from kubasolve.games.crossword.game import default_referee, play_game
    from kubasolve.games.crossword.sim import Equity2Policy

    seed, a_first, spec_a, spec_b = task
    for spec in (spec_a, spec_b):
        if spec not in _MODELS:
            _MODELS[spec] = _leaves(spec)
    a = Equity2Policy(name="A", seed=seed, leaves=_MODELS[spec_a])
    b = Equity2Policy(name="B", seed=seed, leaves=_MODELS[spec_b])
    policies = [a, b] if a_first else [b, a]
    record = play_game(policies, seed, default_referee()).to_dict()
    record["seats"] = [p.name for p in policies]
    return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("table", help="table A: a .npz leave table (or shipped / linear)")
    parser.add_argument("--baseline", default="shipped", help="table B (default: the shipped Dutch table)")
    parser.add_argument("--deals", type=int, default=100, help="deals, each played twice (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="first deal's seed (default 1)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--records", help="write the game records here (JSON lines)")
    parser.add_argument("--json", action="store_true", help="the summary as JSON")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.workers < 1:
        parser.error("--deals and --workers must be at least 1")
    tasks = [(args.seed + k, first, args.table, args.baseline) for k in range(args.deals) for first in (True, False)]
    t0 = time.perf_counter()
    with ProcessPoolExecutor(args.workers) as pool:
        records = []
        for i, rec in enumerate(pool.map(_game, tasks, chunksize=2), 1):
            records.append(rec)
            if i % 20 == 0:
                print(f"{i}/{len(tasks)} games, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    if args.records:
        with open(args.records, "w", encoding="utf-8") as out:
            for rec in records:
                out.write(json.dumps(rec) + "\n")
    stats = ladder_stats(records)
    summary = {"table": args.table, "baseline": args.baseline, "deals": args.deals, "games": len(records),
               "seed": args.seed, "seconds": round(time.perf_counter() - t0, 1), "A": stats["A"], "B": stats["B"]}
    if args.json:
        print(json.dumps(summary))
    else:
        a = stats["A"]
        print(f"A ({args.table}) vs B ({args.baseline}): {a['games']} games, A wins {a['win_rate']:.1%} "
              f"[{a['ci95_low']:.1%}, {a['ci95_high']:.1%}], spread {a['spread']:+.1f} [{a['spread_low']:+.1f}, "
              f"{a['spread_high']:+.1f}], exchange rate A {a['exchange_rate']:.2%} / B {stats['B']['exchange_rate']:.2%}, "
              f"{summary['seconds']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
