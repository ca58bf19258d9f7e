"""Ordered execution of independent tasks: locally, in a process pool, or on Ray actors.

Every task is a picklable argument for a module-level function ``play(task) -> result``; a result
depends only on its task (games carry their own seed), so the results, yielded in task order, are the
same whatever the backend or the number of workers. An optional ``init()`` runs once per worker (load
the lexicon, compile the kernels) so that each worker pays its start-up once and then plays many tasks.

The Ray backend starts one actor per worker (``max_restarts=-1``, ``max_task_retries=-1``): an actor
whose process dies is restarted (running ``init`` again) and the calls it had not answered are retried
by Ray, so a killed worker loses nothing and, since results are collected per task, counts nothing
twice. At most ``window`` tasks per actor are in flight, which keeps memory flat on long runs.
"""

from __future__ import annotations

import multiprocessing as mp
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from kubasolve.errors import KubasolveError

T = TypeVar("T")
R = TypeVar("R")

BACKENDS = ("local", "ray")
"""Names accepted by ``--backend``."""

MAX_WORKERS = 1024


class ScaleError(KubasolveError):
    """A backend cannot run: Ray missing, cluster unreachable, bad worker count."""


def run_ordered(
    play: Callable[[T], R],
    tasks: Sequence[T],
    *,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    init: Callable[[], None] | None = None,
    window: int = 4,
) -> Iterator[R]:
    """Yield ``play(task)`` for every task, in task order, on the chosen backend.

    ``workers``: processes (local) or actors (ray). ``address``: a Ray cluster (``auto``, ``HOST:PORT``
    or ``ray://HOST:PORT``); without it a local Ray instance with ``workers`` CPUs is started (and shut
    down afterwards) unless one is already running in this process.
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
        raise ScaleError(f"workers must be a whole number from 1 to {MAX_WORKERS}, got {workers!r}")
    if backend not in BACKENDS:
        raise ScaleError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise ScaleError("--address goes with --backend ray")
    if backend == "ray":
        return _run_ray(play, tasks, workers, address, init, window)
    return _run_local(play, tasks, workers, init)


def _run_local(play: Callable[[T], R], tasks: Sequence[T], workers: int, init: Callable[[], None] | None) -> Iterator[R]:
    if workers == 1 or len(tasks) <= 1:
        if init is not None:
            init()
        for task in tasks:
            yield play(task)
        return
    ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
    with ctx.Pool(min(workers, len(tasks)), initializer=init) as pool:
        yield from pool.imap(play, tasks, chunksize=1)


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise ScaleError("the ray backend needs Ray: pip install 'kubasolve[ray]'") from None
    return ray


class _Worker:
    """Body of a Ray actor: runs ``init`` once, then plays the tasks it is sent."""

    def __init__(self, init: Callable[[], None] | None) -> None:
        if init is not None:
            init()

    def run(self, play: Callable[[Any], Any], task: Any) -> Any:
        return play(task)


def _run_ray(
    play: Callable[[T], R],
    tasks: Sequence[T],
    workers: int,
    address: str | None,
    init: Callable[[], None] | None,
    window: int,
) -> Iterator[R]:
    ray = _import_ray()
    started = False
    if not ray.is_initialized():
        try:
            if address is None:
                ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, configure_logging=False)
            else:
                ray.init(address=address, log_to_driver=False, configure_logging=False)
        except Exception as exc:  # noqa: BLE001 -- Ray raises ConnectionError, RuntimeError, ValueError ... for a bad address
            raise ScaleError(f"cannot start or reach the Ray cluster ({address or 'local'}): {exc}") from None
        started = True
    try:
        actor_cls = ray.remote(max_restarts=-1, max_task_retries=-1, num_cpus=1)(_Worker)
        actors = [actor_cls.remote(init) for _ in range(min(workers, max(1, len(tasks))))]
        in_flight: deque[Any] = deque()
        limit = window * len(actors)
        next_task = 0
        while next_task < len(tasks) or in_flight:
            while next_task < len(tasks) and len(in_flight) < limit:
                actor = actors[next_task % len(actors)]
                in_flight.append(actor.run.remote(play, tasks[next_task]))
                next_task += 1
            yield ray.get(in_flight.popleft())
        for actor in actors:
            ray.kill(actor)
    finally:
        if started:
            ray.shutdown()
