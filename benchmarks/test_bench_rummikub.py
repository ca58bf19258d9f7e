"""Rummikub benchmarks (pytest-benchmark): the scenarios of ``kubasolve bench rummikub``, plus a side-by-side
run against PyPI's rummikub-solver that checks equal optimal values and prints median/worst ratios.

Run: ``pytest benchmarks/test_bench_rummikub.py --benchmark-enable -s`` or ``python benchmarks/test_bench_rummikub.py``;
``python benchmarks/test_bench_rummikub.py --sweep [--retrieval strict|free] [--n 500]`` times kubasolve alone on
500 positions by jokers in play (the worst-case goal).
"""

from __future__ import annotations

import pytest

from kubasolve.bench.rummikub_scenarios import (
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


if __name__ == "__main__":
    import argparse

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sweep", action="store_true", help="kubasolve alone on many positions, by jokers in play")
    parser.add_argument("--retrieval", default="free", choices=["strict", "free"], help="joker_retrieval of the sweep")
    parser.add_argument("--n", type=int, default=500, help="positions of the sweep (seeds 10000..)")
    args = parser.parse_args()
    if args.sweep:
        print(format_joker_sweep(joker_sweep(args.n, retrieval=args.retrieval)))
    else:
        reason = rummikub_solver_available()
        if reason:
            print(f"side-by-side skipped: {reason}")
        print(format_side_by_side(side_by_side()))
