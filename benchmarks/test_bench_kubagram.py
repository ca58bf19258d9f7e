"""pytest-benchmark suite for the Kubagram solver: ``pytest benchmarks/test_bench_kubagram.py --benchmark-enable``.

The same scenarios as ``kubasolve bench kubagram`` (see :mod:`kubasolve.bench.kubagram_scenarios`),
grouped so that each kubasolve scenario sits beside its baselines of the same run. Targets are
recorded in ``extra_info``, not asserted: absolute times drift on shared machines; compare ratios.
"""

from __future__ import annotations

import pytest

from kubasolve.bench.kubagram_scenarios import first_query_seconds, scenarios

SCENARIOS = [s for s in scenarios() if s.group != "kubagram-startup"]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_kubagram_scenario(benchmark, scenario) -> None:
    fn = scenario.setup()
    benchmark.group = scenario.group
    benchmark.extra_info.update({"baseline": scenario.baseline, "target_ms": scenario.target_ms})
    assert benchmark(fn) is not None


def test_first_query_in_new_process(benchmark) -> None:
    """Import + lexicon load + first best-word query in a fresh interpreter (warm caches); target 1.5 s."""
    seconds = benchmark.pedantic(first_query_seconds, rounds=3, iterations=1)
    benchmark.extra_info.update({"target_s": 1.5, "last_first_query_s": seconds})
    assert seconds > 0
