"""Timing of benchmark scenarios: median, spread and ratio to a baseline measured in the same run.

A :class:`Scenario` has a ``setup`` that returns a zero-argument callable (setup is not timed).
Scenarios sharing a ``group`` are compared with the one named as that group's ``baseline``, so ratios
come from one run on one (noisy, shared) machine rather than from absolute times.
"""

from __future__ import annotations

import os
import statistics
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Scenario:
    """One benchmark: ``setup()`` builds inputs and returns the callable to time."""

    name: str
    group: str
    setup: Callable[[], Callable[[], object]]
    baseline: str | tuple[str, ...] | None = None
    """Name(s) of scenarios in the same group that this one is compared against (None: no ratio)."""
    target_ms: float | None = None
    """The issue's target for the median, shown next to the measurement (not asserted)."""
    description: str = ""
    work: Callable[[Any], float] | None = None
    """Optional: units of work done by one call, from its return value (e.g. states searched);
    the result then carries ``throughput`` = work per second over the timed rounds."""
    work_unit: str = ""
    """Name of the work unit (e.g. ``"states"``), reported as ``throughput_unit`` ``"<unit>/s"``."""


@dataclass
class BenchResult:
    """Timings of one scenario, in milliseconds."""

    name: str
    group: str
    rounds: int
    median_ms: float
    iqr_ms: float
    min_ms: float
    max_ms: float
    target_ms: float | None = None
    baseline: str | tuple[str, ...] | None = None
    speedups: dict[str, float] = field(default_factory=dict)
    """baseline name -> baseline median / this median (>1: this scenario is faster)."""
    extra: dict[str, object] = field(default_factory=dict)
    """Optional fields (``throughput``, ``throughput_unit``, ``work_per_call`` for scenarios with a
    ``work`` counter), included in :meth:`as_dict`."""

    @property
    def met_target(self) -> bool | None:
        """Whether the median is within the target (None: the scenario has no target)."""
        return None if self.target_ms is None else self.median_ms <= self.target_ms

    @property
    def speedup(self) -> float | None:
        """Speed-up against the first baseline, if measured."""
        return next(iter(self.speedups.values()), None)

    def as_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "group": self.group,
            "rounds": self.rounds,
            "median_ms": self.median_ms,
            "iqr_ms": self.iqr_ms,
            "min_ms": self.min_ms,
            "max_ms": self.max_ms,
            "target_ms": self.target_ms,
            "met_target": self.met_target,
            "baseline": self.baseline,
            "speedup_vs_baseline": self.speedup,
            "speedups": dict(self.speedups),
            **self.extra,
        }


def cycle(items: Sequence[object], fn: Callable[[Any], object]) -> Callable[[], object]:
    """Callable that runs ``fn`` on the next item each call, so every timed round sees a new input."""
    state = {"i": 0}

    def run() -> object:
        item = items[state["i"] % len(items)]
        state["i"] += 1
        return fn(item)

    return run


def _cpu_seconds() -> float:
    """CPU seconds used so far by this process and its finished child processes. On a shared machine whose cores
    are all busy, a round's wall time includes the time the process waited for a core; its CPU time does not.
    Children's time comes in clock ticks (10 ms): fine for scenarios that run a whole process."""
    t = os.times()
    return time.process_time() + t.children_user + t.children_system


def run_scenario(scenario: Scenario, min_time_s: float = 0.5, max_rounds: int = 2000, min_rounds: int = 5) -> BenchResult:
    """Time ``scenario``: one untimed warm-up call, then rounds until ``min_time_s`` or ``max_rounds``."""
    t_setup = time.perf_counter()
    fn = scenario.setup()
    setup_s = time.perf_counter() - t_setup
    fn()  # warm-up (JIT compilation, caches)
    times: list[float] = []
    cpu_times: list[float] = []
    work = 0.0
    start = time.perf_counter()
    while len(times) < max_rounds and (len(times) < min_rounds or time.perf_counter() - start < min_time_s):
        c0 = _cpu_seconds()
        t0 = time.perf_counter()
        out = fn()
        times.append((time.perf_counter() - t0) * 1e3)
        cpu_times.append((_cpu_seconds() - c0) * 1e3)
        if scenario.work is not None:
            work += float(scenario.work(out))
    q = statistics.quantiles(times, n=4) if len(times) >= 2 else [times[0]] * 3
    extra: dict[str, object] = {"cpu_median_ms": statistics.median(cpu_times), "setup_s": setup_s}
    if scenario.work is not None:
        extra["throughput"] = work / (sum(times) / 1e3) if sum(times) > 0 else 0.0
        extra["throughput_unit"] = f"{scenario.work_unit or 'units'}/s"
        extra["work_per_call"] = work / len(times)
    return BenchResult(
        name=scenario.name,
        group=scenario.group,
        rounds=len(times),
        median_ms=statistics.median(times),
        iqr_ms=q[2] - q[0],
        min_ms=min(times),
        max_ms=max(times),
        target_ms=scenario.target_ms,
        baseline=scenario.baseline,
        extra=extra,
    )


def run_scenarios(
    scenarios: Iterable[Scenario],
    min_time_s: float = 0.5,
    progress: Callable[[str, int, int], None] | None = None,
) -> list[BenchResult]:
    """Run all scenarios, then fill in each one's speed-up against its group baseline.

    ``progress(name, i, n)`` is called before scenario ``i`` of ``n`` (the CLI draws its bar with it;
    the library never prints)."""
    scenarios = list(scenarios)
    results: list[BenchResult] = []
    for i, sc in enumerate(scenarios):
        if progress:
            progress(sc.name, i, len(scenarios))
        results.append(run_scenario(sc, min_time_s=min_time_s))
    by_name = {(r.group, r.name): r for r in results}
    for r in results:
        names = (r.baseline,) if isinstance(r.baseline, str) else (r.baseline or ())
        for name in names:
            base = by_name.get((r.group, name))
            if base is not None and r.median_ms > 0:
                r.speedups[name] = base.median_ms / r.median_ms
    return results
