"""pytest-benchmark suite for the crossword move generator: ``pytest benchmarks/test_bench_crossword.py --benchmark-enable``.

The same scenarios as ``kubasolve bench crossword`` (:mod:`kubasolve.bench.crossword_scenarios`);
targets are recorded in ``extra_info``, not asserted (compare ratios within one run). The wolges
scenario is present only when its kit is built (``$KUBASOLVE_WOLGES_DIR``, default /tmp/wolges-kit).
"""

from __future__ import annotations

import pytest

from kubasolve.bench.crossword_scenarios import scenarios

SCENARIOS = scenarios()


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_crossword_scenario(benchmark, scenario) -> None:
    fn = scenario.setup()
    benchmark.group = scenario.group
    benchmark.extra_info.update({"baseline": scenario.baseline, "target_ms": scenario.target_ms})
    assert benchmark(fn) is not None
