"""pytest-benchmark suite for Scruble: ``pytest benchmarks/test_bench_scruble.py --benchmark-enable``.

The same scenarios as ``kubasolve bench scruble`` (:mod:`kubasolve.bench.scruble_scenarios`); targets
are recorded in ``extra_info``, not asserted (compare ratios within one run).
"""

from __future__ import annotations

import pytest

from kubasolve.bench.scruble_scenarios import scenarios

SCENARIOS = scenarios()


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_scruble_scenario(benchmark, scenario) -> None:
    fn = scenario.setup()
    benchmark.group = scenario.group
    benchmark.extra_info.update({"baseline": scenario.baseline, "target_ms": scenario.target_ms})
    assert benchmark(fn) is not None
