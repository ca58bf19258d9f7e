"""Kubagram game benchmarks (pytest-benchmark): the scenarios of ``kubasolve bench kubagram-game``.

Run: ``pytest benchmarks/test_bench_kubagram_game.py --benchmark-enable`` or
``python benchmarks/test_bench_kubagram_game.py`` (prints medians, targets and the 2-worker speed-up);
``python benchmarks/test_bench_kubagram_game.py --moves 10`` (per-move times of the search AI and the planner over 10
whole games: median, 90th percentile, slowest).
"""

from __future__ import annotations

import pytest

from kubasolve.bench.kubagram_game_scenarios import scenarios

SCENARIOS = scenarios()


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[f"{s.group}:{s.name}" for s in SCENARIOS])
def test_bench_kubagram_game(benchmark, scenario) -> None:  # type: ignore[no-untyped-def]
    benchmark.group = scenario.group
    fn = scenario.setup()
    fn()  # warm-up: kernels compiled, worker pool code paths exercised
    if scenario.group == "kubagram-simulate":
        benchmark.pedantic(fn, rounds=3, iterations=1)
    else:
        benchmark(fn)


if __name__ == "__main__":
    import sys

    if len(sys.argv) == 3 and sys.argv[1] == "--moves":
        from kubasolve.bench.kubagram_game_scenarios import move_times

        for ai, t in move_times(games=int(sys.argv[2])).items():
            print(f"{ai:8} per move: median {t['median_ms']:7.1f} ms  p90 {t['p90_ms']:7.1f} ms  "
                  f"mean {t['mean_ms']:7.1f} ms  max {t['max_ms']:7.1f} ms  moves {t['moves']:.0f}; "
                  f"moves with a choice: median {t['choice_median_ms']:7.1f} ms  moves {t['choice_moves']:.0f}")
        sys.exit(0)
    from kubasolve.bench.runner import run_scenarios

    for r in run_scenarios(SCENARIOS, min_time_s=2.0):
        target = f" (target {r.target_ms:.0f} ms)" if r.target_ms else ""
        ratio = f"  {r.speedup:.2f}x vs {r.baseline}" if r.speedup else ""
        print(f"{r.group:18} {r.name:20} median {r.median_ms:9.2f} ms  iqr {r.iqr_ms:7.2f}  n={r.rounds}{target}{ratio}")
