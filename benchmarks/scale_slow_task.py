"""One slow task among quick ones on 2 workers, on each backend (issue 23's case: a 3 s task and sixteen
0.2 s ones). A scheduler that hands tasks round-robin to workers and awaits them in order leaves the
quick tasks queued behind the slow one; a dynamic one finishes in about max(3, 16 x 0.2) = 3.2 s.

    python benchmarks/scale_slow_task.py [--rounds 3]

Reports the wall time of each run and its makespan: from the first task's start to the last task's end,
clocked inside the workers, which leaves out starting the workers (a Ray run starts fresh actor
processes: about 1 s on a busy 2-core machine). The tasks sleep, so the makespan hardly depends on the
machine's load. Not imported by the package or the tests.
"""

from __future__ import annotations

import argparse
import time

from kubasolve.scale import run_ordered

TASKS = [3.0] + [0.2] * 16


def nap(seconds: float) -> tuple[float, float]:
    """Sleep; return when the task started and ended (wall clock of the machine)."""
    start = time.time()
    time.sleep(seconds)
    return start, time.time()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    import ray

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    ideal = max(TASKS[0], sum(TASKS[1:]))
    for backend in ("ray", "local") * args.rounds:
        start = time.perf_counter()
        spans = list(run_ordered(nap, TASKS, workers=2, backend=backend))
        wall = time.perf_counter() - start
        makespan = max(end for _, end in spans) - min(begin for begin, _ in spans)
        print(f"{backend:5s} 2 workers: wall {wall:.2f} s, makespan {makespan:.2f} s (ideal {ideal:.1f} s)")
    ray.shutdown()


if __name__ == "__main__":
    main()
