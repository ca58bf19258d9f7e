"""Rummikub benchmarks (pytest-benchmark): the scenarios of ``kubasolve bench rummikub``, plus a side-by-side
run against PyPI's rummikub-solver that checks equal optimal values and prints median/worst ratios.

Run: ``pytest benchmarks/test_bench_rummikub.py --benchmark-enable -s`` or ``python benchmarks/test_bench_rummikub.py``;
``python benchmarks/test_bench_rummikub.py --sweep [--retrieval strict|free] [--n 500]`` times kubasolve alone on
500 positions by jokers in play; ``python benchmarks/test_bench_rummikub.py --big [--n 40]`` times kubasolve and
rummikub-solver GLPK_MI on the big-table positions of issue 9 (worst cases and the ratio of the worst cases).
"""

from __future__ import annotations

import pytest

from kubasolve.bench.rummikub_scenarios import (
    big_tables,
    format_big_tables,
    format_joker_sweep,
    format_side_by_side,
    joker_sweep,
    rummikub_solver_available,
    scenarios,
    side_by_side,
)

SCENARIOS = scenarios()


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[f"{s.group}:{s.name}" for s in SCENARIOS])
def test_bench_rummikub(benchmark, scenario) -> None:  # type: ignore[no-untyped-def]
    benchmark.group = scenario.group
    benchmark(scenario.setup())


def test_side_by_side_with_rummikub_solver() -> None:
    reason = rummikub_solver_available()
    if reason:
        pytest.skip(reason)
    report = side_by_side(n=40)
    print("\n" + format_side_by_side(report))
    for mode, r in report["modes"].items():
        for d in r["differences"]:
            print(f"{mode}: values differ on instance {d['instance']}: {d}")
            assert d["kubasolve_move_legal"], "kubasolve returned an illegal move"


def test_big_tables_against_glpk() -> None:
    """The big-table positions (issue 9): kubasolve's worst case and the ratio to GLPK_MI's, values equal."""
    report = big_tables(n=20, repeat=1)
    print("\n" + format_big_tables(report))
    assert report["modes"]["tiles"]["values_differ"] == []


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sweep", action="store_true", help="kubasolve alone on many positions, by jokers in play")
    parser.add_argument("--retrieval", default="free", choices=["strict", "free"], help="joker_retrieval of the sweep")
    parser.add_argument("--big", action="store_true", help="big tables with jokers (issue 9) against GLPK_MI")
    parser.add_argument("--n", type=int, default=None, help="positions of the sweep (500) or of the big family (40)")
    parser.add_argument("--repeat", type=int, default=2, help="--big: best of this many timings per position")
    args = parser.parse_args()
    if args.big:
        report = big_tables(args.n or 40, repeat=args.repeat)
        print(format_big_tables(report))
        for mode, r in report["modes"].items():
            for name, per in r["times"].items():
                slow = sorted(per.items(), key=lambda kv: -kv[1][0])[:3]
                print(f"{mode} {name} slowest: " + ", ".join(f"{k} {t:.1f} ms" for k, (t, _) in slow))
    elif args.sweep:
        print(format_joker_sweep(joker_sweep(args.n or 500, retrieval=args.retrieval)))
    else:
        reason = rummikub_solver_available()
        if reason:
            print(f"side-by-side skipped: {reason}")
        print(format_side_by_side(side_by_side()))
