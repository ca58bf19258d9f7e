"""Ladder of two crossword leave tables: ``equity2`` valuing leaves with table A against ``equity2`` with table B.

Every deal is played twice, each table seated first once (the same tiles both ways, so the pair cancels most
of the luck of the draw); games run on worker processes and the records are the same whatever the worker
count. The summary is :func:`kubasolve.games.crossword.ladder.ladder_stats` (win rate with its Wilson 95%
interval, spread per game, exchange rates); ``--records`` keeps the game records (JSON lines, the
``kubasolve crossword simulate --records`` fields).

    python benchmarks/crossword_leaves_ladder.py NEW.npz [--baseline shipped|linear|OLD.npz] --deals 500 --seed 1 \
        --workers 2 [--tiles nl|en] [--lexicon NAME] [--records FILE] [--json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from kubasolve.errors import KubasolveError
from kubasolve.games.crossword.ladder import ladder_stats


def _leaves(spec: str, tiles: str) -> Any:
    """A leave model: ``shipped`` (the learnt table of tile set ``tiles`` in the package), ``linear`` (the linear
    table) or a .npz."""
    from kubasolve.games.crossword.ai import load_leaves
    from kubasolve.games.crossword.leaves import LearntLeaves, load_learnt_leaves

    if spec == "shipped":
        return load_learnt_leaves(tiles)
    if spec == "linear":
        return load_leaves(tiles)
    return LearntLeaves.from_npz(spec)


_MODELS: dict[str, Any] = {}


def _referee(tiles: str, lexicon: str) -> Any:
    """The referee of tile set ``tiles`` (the default rules otherwise) and bundled lexicon ``lexicon`` (cached)."""
    from kubasolve.games.crossword.learn import referee_for
    from kubasolve.games.crossword.rules import CrosswordRules

    rules = None if tiles == "nl" else CrosswordRules().with_(tiles=tiles).to_dict()
    return referee_for((rules, None if lexicon == "nl" else lexicon))


def _game(task: tuple[int, bool, str, str, str, str]) -> dict[str, Any]:
    """One game: deal ``seed``, table A first when ``a_first``, tile set and lexicon by name; the record with seat
    labels ``A``/``B``."""
    from kubasolve.games.crossword.game import play_game
    from kubasolve.games.crossword.sim import Equity2Policy

    seed, a_first, spec_a, spec_b, tiles, lexicon = task
    for spec in (spec_a, spec_b):
        if spec not in _MODELS:
            _MODELS[spec] = _leaves(spec, tiles)
    a = Equity2Policy(name="A", seed=seed, leaves=_MODELS[spec_a])
    b = Equity2Policy(name="B", seed=seed, leaves=_MODELS[spec_b])
    policies = [a, b] if a_first else [b, a]
    record = play_game(policies, seed, _referee(tiles, lexicon)).to_dict()
    record["seats"] = [p.name for p in policies]
    return record


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("table", help="table A: a .npz leave table (or shipped / linear)")
    parser.add_argument("--baseline", default="shipped", help="table B (default: the shipped table of the tile set)")
    parser.add_argument("--tiles", choices=("nl", "en"), default="nl", help="tile set (default nl)")
    parser.add_argument("--lexicon", default=None, help="bundled lexicon (default: the tile set's name)")
    parser.add_argument("--deals", type=int, default=100, help="deals, each played twice (default 100)")
    parser.add_argument("--seed", type=int, default=1, help="first deal's seed (default 1)")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--records", help="write the game records here (JSON lines)")
    parser.add_argument("--json", action="store_true", help="the summary as JSON")
    args = parser.parse_args(argv)
    if args.deals < 1 or args.workers < 1:
        parser.error("--deals and --workers must be at least 1")
    lexicon = args.lexicon or args.tiles
    try:
        _referee(args.tiles, lexicon)  # a bad lexicon name is a usage error here, not a traceback from a worker
    except KubasolveError as exc:
        parser.error(str(exc))
    tasks = [(args.seed + k, first, args.table, args.baseline, args.tiles, lexicon) for k in range(args.deals) for first in (True, False)]
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
    summary = {"table": args.table, "baseline": args.baseline, "tiles": args.tiles, "lexicon": lexicon, "deals": args.deals, "games": len(records),
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
