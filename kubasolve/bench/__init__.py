"""Benchmark scenarios shared by ``kubasolve bench`` and the pytest-benchmark suite in ``benchmarks/``."""

from kubasolve.bench.runner import BenchResult, Scenario, run_scenario, run_scenarios

__all__ = ["BenchResult", "Scenario", "run_scenario", "run_scenarios"]
