"""pytest-benchmark suite for the lexicon: ``pytest benchmarks/test_bench_lexicon.py --benchmark-enable``.

Times the scenarios of :mod:`kubasolve.bench.lexicon_scenarios` and records the one-off measurements
(cold build in a fresh process, resident memory) as ``extra_info``; the issue's targets are asserted.
"""

from __future__ import annotations

import pytest

from kubasolve.bench.lexicon_scenarios import TARGETS, measure_cold_and_memory, scenarios

SCENARIOS = scenarios()


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.name for s in SCENARIOS])
def test_lexicon_scenario(benchmark, scenario) -> None:
    """Time one scenario (setup untimed); the warm load must meet its target."""
    fn = scenario.setup()
    benchmark.group = scenario.group
    benchmark.extra_info.update({"baseline": scenario.baseline, "target_ms": scenario.target_ms, "description": scenario.description})
    result = benchmark(fn)
    assert result is not None
    stats = getattr(benchmark, "stats", None)
    if scenario.target_ms is not None and stats is not None:
        assert stats.stats.median * 1e3 <= scenario.target_ms


def test_lexicon_cold_build_and_memory(benchmark) -> None:
    """One round: cold builds and RSS in fresh processes with empty caches, against the issue's targets."""
    m = benchmark.pedantic(measure_cold_and_memory, rounds=1, iterations=1)
    benchmark.extra_info.update(m)
    benchmark.extra_info["targets"] = TARGETS
    assert m["words"] == 348_507
    assert m["cold_build_s_numba_cold"] <= TARGETS["cold_build_s"]
    assert m["cold_build_s_numba_warm"] <= TARGETS["cold_build_s"]
    assert m["warm_load_ms"] <= TARGETS["warm_load_ms"]
    assert m["lexicon_rss_mb_touched"] <= TARGETS["rss_mb"]
    assert not m["warm_load_imports_numba"]
