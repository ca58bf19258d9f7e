"""pytest-benchmark suite for Scruble: ``pytest benchmarks/test_bench_scruble.py --benchmark-enable``.

The same scenarios as ``kubasolve bench scruble`` (:mod:`kubasolve.bench.scruble_scenarios`); targets
are recorded in ``extra_info``, not asserted (compare ratios within one run), with the states of the
last call and states/s at the mean time.
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
    out = benchmark(fn)
    assert out is not None
    if scenario.work is not None and benchmark.stats is not None:  # states per call and per second (mean time)
        work = scenario.work(out)
        benchmark.extra_info.update({scenario.work_unit: work, f"{scenario.work_unit}_per_s": work / benchmark.stats.stats.mean})
