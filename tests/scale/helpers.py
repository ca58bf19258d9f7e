"""Module-level task functions for the backend tests (workers import them by name)."""

from __future__ import annotations

import os
import random
from pathlib import Path


def seeded_draws(task: tuple[int, int]) -> list[int]:
    """A deterministic 'game': five draws from the task's own seed."""
    seed, k = task
    rng = random.Random(f"{seed}:{k}")
    return [rng.randrange(1000) for _ in range(5)]


def die_once_then_draw(task: tuple[str, int]) -> tuple[int, list[int], int]:
    """Kills its own worker process the first time it sees task 3 (a marker file remembers), then plays."""
    marker_dir, k = task
    marker = Path(marker_dir) / f"died-{k}"
    if k == 3 and not marker.exists():
        marker.write_text(str(os.getpid()))
        os._exit(1)  # the worker dies mid-batch, as a crashed or killed node would
    (Path(marker_dir) / f"done-{k}-{os.getpid()}-{random.random()}").write_text("")
    return k, seeded_draws((7, k)), os.getpid()


def kill_worker_on(task: tuple[str, int, int]) -> tuple[int, list[int]]:
    """Task ``bad`` kills its worker process every time it runs (as the kernel's out-of-memory killer
    would); the others play. ``marker_dir`` collects one file per run of the bad task."""
    marker_dir, bad, k = task
    if k == bad:
        Path(marker_dir, f"killed-{os.getpid()}-{random.random()}").write_text("")
        os._exit(9)
    return k, seeded_draws((7, k))


def first_waits_for_the_rest(task: tuple[str, int, int]) -> tuple[int, int]:
    """Task 0 returns only once every other task of the run has finished (it polls their marker files,
    for at most 60 s); the others finish at once. A scheduler that queues a task behind a busy worker
    (round-robin, in-order waits) cannot finish them, so task 0 times out and reports -1."""
    marker_dir, total, k = task
    if k == 0:
        import time

        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if len(list(Path(marker_dir).glob("done-*"))) == total - 1:
                return k, os.getpid()
            time.sleep(0.02)
        return k, -1
    Path(marker_dir, f"done-{k}").write_text("")
    return k, os.getpid()
