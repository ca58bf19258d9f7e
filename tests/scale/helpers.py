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
