"""Rummikub benchmarks (pytest-benchmark): the scenarios of ``kubasolve bench rummikub``, plus a side-by-side
run against PyPI's rummikub-solver that checks equal optimal values and prints median/worst ratios.

Run: ``pytest benchmarks/test_bench_rummikub.py --benchmark-enable -s`` or ``python benchmarks/test_bench_rummikub.py``.
"""

from __future__ import annotations

import pytest

from kubasolve.bench.rummikub_scenarios import (
    format_side_by_side,
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
    reason = rummikub_solver_available()
    if reason:
        print(f"side-by-side skipped: {reason}")
    print(format_side_by_side(side_by_side()))
