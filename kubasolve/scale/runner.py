"""Ordered execution of independent tasks: locally, in a process pool, or on Ray actors.

Every task is a picklable argument for a module-level function ``play(task) -> result``; a result
depends only on its task (games carry their own seed), so the results, yielded in task order, are the
same whatever the backend or the number of workers. An optional ``init()`` runs once per worker (load
the lexicon, compile the kernels) so that each worker pays its start-up once and then plays many tasks.

Both pools schedule dynamically: a worker that finishes takes the next task, so one slow task holds up
only its own worker, and the results wait (at most ``ahead`` of them) until the ones before them are
done. Workers may die (killed for memory, a crashed node):

- ``local``: a :class:`~concurrent.futures.ProcessPoolExecutor` notices the death (``BrokenProcessPool``)
  instead of waiting forever; the pool is replaced and the tasks it lost run again. A task lost twice
  runs alone, so the task that kills its worker is told apart from the ones that merely shared the
  pool; when it kills its worker alone :data:`ATTEMPTS` times it has failed.
- ``ray``: one actor per worker (``max_restarts=-1``): Ray restarts a dead actor (running ``init``
  again) and retries its call up to ``ATTEMPTS - 1`` times before reporting the task failed.

A failed task (its worker died too often, or ``play`` raised) raises :class:`ScaleError` (or the
exception ``play`` raised), unless ``on_failure(task, error)`` is given: then its result stands in.
Execution is at least once: a task whose worker died after finishing it runs again, which is harmless
because a result depends only on the task.
"""

from __future__ import annotations

import logging
import multiprocessing as mp
import os
import sys
import time
from collections import Counter, deque
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, TypeVar

from kubasolve.errors import KubasolveError

T = TypeVar("T")
R = TypeVar("R")

log = logging.getLogger("kubasolve.scale")

BACKENDS = ("local", "ray")
"""Names accepted by ``--backend``."""

MAX_WORKERS = 1024
ATTEMPTS = 3
"""How often a task may lose its worker before it counts as failed (local: while running alone)."""
RAY_WAIT_NOTICE_S = 30.0
"""A warning after this long without a free CPU for any worker on the Ray cluster (then again)."""
RAY_PLACEMENT_TIMEOUT_S = 600.0
"""Without a single worker running for this long, the run fails (a dead or saturated cluster)."""
AHEAD_PER_WORKER = 64
"""Finished results held back while an earlier task still runs, per worker (keeps memory flat)."""


class ScaleError(KubasolveError):
    """A backend cannot run: Ray missing, cluster unreachable, bad worker count, a task that kills its worker."""


class WorkerLost(ScaleError):
    """The worker process running a task died (killed for memory, crashed) every time it was tried."""


def run_ordered(
    play: Callable[[T], R],
    tasks: Sequence[T],
    *,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    init: Callable[[], None] | None = None,
    on_failure: Callable[[T, BaseException], R] | None = None,
    on_workers: Callable[[int], None] | None = None,
) -> Iterator[R]:
    """Yield ``play(task)`` for every task, in task order, on the chosen backend.

    ``workers``: processes (local) or actors (ray; fewer when the cluster has fewer free CPUs, with a
    warning), never more than there are tasks. ``address``: a Ray cluster (``auto``, ``HOST:PORT`` or
    ``ray://HOST:PORT``); without it a local Ray instance with ``workers`` CPUs is started (and shut down
    afterwards) unless one is already running in this process. ``on_failure``: see the module docstring.
    ``on_workers(n)``: told how many workers actually play (1 in this process), before the first result.
    """
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= MAX_WORKERS:
        raise ScaleError(f"workers must be a whole number from 1 to {MAX_WORKERS}, got {workers!r}")
    if backend not in BACKENDS:
        raise ScaleError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if address is not None and backend != "ray":
        raise ScaleError("--address goes with --backend ray")
    if backend == "ray":
        return _run_ray(play, tasks, workers, address, init, on_failure, on_workers)
    if workers == 1 or len(tasks) <= 1:
        if on_workers is not None:
            on_workers(1)
        return _run_here(play, tasks, init, on_failure)
    if on_workers is not None:
        on_workers(min(workers, len(tasks)))
    return _run_pool(play, tasks, min(workers, len(tasks)), init, on_failure)


def _run_here(play: Callable[[T], R], tasks: Sequence[T], init: Callable[[], None] | None,
              on_failure: Callable[[T, BaseException], R] | None) -> Iterator[R]:
    if init is not None:
        init()
    for task in tasks:
        if on_failure is None:
            yield play(task)
            continue
        try:
            result = play(task)
        except Exception as exc:  # noqa: BLE001 - the caller turns any failure into this task's answer
            result = on_failure(task, exc)
        yield result


class _Ordered:
    """Results that arrive in any order, handed out in task order."""

    def __init__(self, n: int) -> None:
        self.n = n
        self.done: dict[int, Any] = {}
        self.next = 0

    def put(self, index: int, result: Any) -> None:
        self.done[index] = result

    def ready(self) -> Iterator[Any]:
        while self.next in self.done:
            yield self.done.pop(self.next)
            self.next += 1

    def room(self, index: int, ahead: int) -> bool:
        """True when task ``index`` may start: it is at most ``ahead`` tasks past the first unfinished one."""
        return index < self.next + ahead


def _fork_context() -> Any:
    return mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()


def _run_pool(play: Callable[[T], R], tasks: Sequence[T], workers: int, init: Callable[[], None] | None,
              on_failure: Callable[[T, BaseException], R] | None) -> Iterator[R]:
    ordered = _Ordered(len(tasks))
    todo: deque[int] = deque(range(len(tasks)))  # task indexes not yet started; lost tasks go back to the front
    lost: Counter[int] = Counter()  # pools broken while the task was running
    alone_deaths: Counter[int] = Counter()  # worker deaths while the task ran alone
    ahead = workers * AHEAD_PER_WORKER
    pool: ProcessPoolExecutor | None = None
    running: dict[Future[Any], int] = {}
    try:
        while ordered.next < len(tasks):
            if pool is None:
                pool = ProcessPoolExecutor(workers, mp_context=_fork_context(), initializer=init)
            # One task per worker plus one queued (so a worker never waits for the parent), no more: the tasks
            # in flight are the ones a dying worker can take down. A task lost twice runs alone, so that the
            # one killing its worker is known.
            while todo and len(running) <= workers and ordered.room(todo[0], ahead):
                suspect = lost[todo[0]] >= 2
                if running and (suspect or any(lost[i] >= 2 for i in running.values())):
                    break
                index = todo.popleft()
                running[pool.submit(play, tasks[index])] = index
            finished, _ = wait(running, return_when=FIRST_COMPLETED)
            broken = False
            for future in finished:
                index = running.pop(future)
                try:
                    ordered.put(index, future.result())
                except BrokenProcessPool:
                    broken = True
                    running[future] = index  # handled with the rest of the lost tasks below
                except Exception as exc:  # play raised: the task failed (not its worker)
                    if on_failure is None:
                        raise
                    ordered.put(index, on_failure(tasks[index], exc))
            if broken:
                _requeue_lost(pool, running, todo, lost, alone_deaths, ordered, tasks, on_failure)
                pool = None
            yield from ordered.ready()
    finally:
        if pool is not None:
            _stop(pool, running)


def _stop(pool: ProcessPoolExecutor, running: dict[Future[Any], int]) -> None:
    """Shut the pool down; tasks still running (the run was interrupted or failed) are killed, not awaited."""
    if running:
        processes = getattr(pool, "_processes", None) or {}
        for process in list(processes.values()):
            process.terminate()
    pool.shutdown(wait=True, cancel_futures=True)


def _requeue_lost(pool: ProcessPoolExecutor, running: dict[Future[Any], int], todo: deque[int], lost: Counter[int],
                  alone_deaths: Counter[int], ordered: _Ordered, tasks: Sequence[Any],
                  on_failure: Callable[[Any, BaseException], Any] | None) -> None:
    """A worker died and took the pool down: keep the answers it still delivered, and put the unfinished
    tasks back at the front of the queue (in order), except a task that killed its worker alone
    :data:`ATTEMPTS` times: that one has failed."""
    pool.shutdown(wait=True, cancel_futures=True)
    indexes = []
    for future, index in running.items():
        if future.done() and not future.cancelled() and future.exception() is None:
            ordered.put(index, future.result())
        else:
            indexes.append(index)
            lost[index] += 1
    indexes.sort()
    running.clear()
    if len(indexes) == 1 and lost[indexes[0]] >= 2:
        index = indexes[0]
        alone_deaths[index] += 1
        if alone_deaths[index] >= ATTEMPTS:
            error = WorkerLost(f"task {index} killed its worker process {ATTEMPTS} times (out of memory? see the system log); "
                               "giving up on it")
            if on_failure is None:
                raise error
            ordered.put(index, on_failure(tasks[index], error))
            indexes = []
    log.warning("a worker process died (killed for memory? crashed?); running its %d unfinished task(s) again on a new pool",
                len(indexes))
    todo.extendleft(reversed(indexes))


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
    on_failure: Callable[[T, BaseException], R] | None,
    on_workers: Callable[[int], None] | None = None,
) -> Iterator[R]:
    if address is not None:
        _send_auth_token(address)  # before Ray reads its configuration
    ray = _import_ray()
    started = _connect(ray, address, workers)
    actors: list[Any] = []
    try:
        n_actors = _actors_for(ray, min(workers, max(1, len(tasks))))
        if on_workers is not None:
            on_workers(n_actors)
        actor_cls = ray.remote(max_restarts=-1, max_task_retries=ATTEMPTS - 1, num_cpus=1)(_Worker)
        actors = [actor_cls.remote(init) for _ in range(n_actors)]
        # An actor takes tasks once it runs (its CPU may still be held by a job that is ending): the
        # run goes on with the actors that are up and the others join when the cluster places them.
        starting = {actor.__ray_ready__.remote(): actor for actor in actors}
        idle: deque[Any] = deque()
        ordered = _Ordered(len(tasks))
        ahead = n_actors * AHEAD_PER_WORKER
        running: dict[Any, tuple[int, Any]] = {}
        todo = 0
        waited = 0.0
        while ordered.next < len(tasks):
            while idle and todo < len(tasks) and ordered.room(todo, ahead):
                actor = idle.popleft()
                running[actor.run.remote(play, tasks[todo])] = (todo, actor)
                todo += 1
            finished, _ = ray.wait([*running, *starting], num_returns=1, timeout=RAY_WAIT_NOTICE_S)
            if not finished:
                if running or idle:
                    continue
                waited += RAY_WAIT_NOTICE_S
                if waited >= RAY_PLACEMENT_TIMEOUT_S:
                    raise ScaleError(f"no Ray worker started in {waited:.0f} s: the cluster has no free CPU, or its nodes "
                                     "failed (see the Ray logs, e.g. /tmp/ray/session_latest/logs)")
                log.warning("waited %.0f s for a free CPU on the Ray cluster (%d worker(s) not placed yet)", waited, len(starting))
                continue
            for ref in finished:
                if ref in starting:
                    actor = starting.pop(ref)
                    try:
                        ray.get(ref)
                    except ray.exceptions.RayActorError as exc:
                        if not starting and not idle and not running:
                            raise ScaleError(f"no Ray worker could start (its set-up failed): {exc}") from None
                        continue
                    idle.append(actor)
                    continue
                index, actor = running.pop(ref)
                idle.append(actor)
                try:
                    ordered.put(index, ray.get(ref))
                except ray.exceptions.RayActorError as exc:
                    error = WorkerLost(f"task {index}: its Ray worker died {ATTEMPTS} times (out of memory? a lost node?): {exc}")
                    if on_failure is None:
                        raise error from None
                    ordered.put(index, on_failure(tasks[index], error))
                except ray.exceptions.RayTaskError as exc:
                    cause = exc.as_instanceof_cause() if hasattr(exc, "as_instanceof_cause") else exc
                    if on_failure is None:
                        raise cause from None
                    ordered.put(index, on_failure(tasks[index], cause))
            yield from ordered.ready()
    finally:
        for actor in actors:
            ray.kill(actor)
        if started:
            ray.shutdown()


def _connect(ray: Any, address: str | None, workers: int) -> bool:
    """Start a local Ray instance (``address`` None) or join a cluster; True when this call started Ray."""
    if ray.is_initialized():
        return False
    if address is not None:
        _check_reachable(address)
    start = time.perf_counter()
    try:
        if address is None:
            ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False, configure_logging=False)
        else:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
    except Exception as exc:  # noqa: BLE001 -- Ray raises ConnectionError, RuntimeError, ValueError ... for a bad address
        raise ScaleError(f"cannot start or reach the Ray cluster ({address or 'local'}): {exc}{_auth_hint(address, start)}") from None
    return True


REACH_TIMEOUT_S = 10.0
"""How long :func:`_check_reachable` waits for the cluster's port to accept a connection."""


def _check_reachable(address: str) -> None:
    """Refuse a ``HOST:PORT`` (or ``ray://HOST:PORT``) nothing listens on, before ``ray.init``: Ray itself retries such
    an address for minutes (over 200 s measured with Ray 2.60), printing a connection warning every few seconds.
    ``auto`` and addresses without a port are left to Ray."""
    import socket

    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not host or not (port.isascii() and port.isdigit()) or not 0 < int(port) < 65536:
        return
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=REACH_TIMEOUT_S).close()
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise ScaleError(f"cannot reach the Ray cluster at {address}: {reason} (is `ray start --head` running there, "
                         "with that port open to this machine?)") from None


def _auth_token_available() -> bool:
    """True when Ray would find an authentication token: ``$RAY_AUTH_TOKEN``, ``$RAY_AUTH_TOKEN_PATH`` or
    ``~/.ray/auth_token``."""
    return bool(os.environ.get("RAY_AUTH_TOKEN") or os.environ.get("RAY_AUTH_TOKEN_PATH")
                or (Path.home() / ".ray" / "auth_token").is_file())


def _send_auth_token(address: str) -> None:
    """Ray >= 2.59 turns token authentication on in ``ray start --head`` when ``~/.ray/auth_token`` exists
    (any local ``ray.init`` writes one), but a driver joining an explicit ``HOST:PORT`` sends its token
    only with ``RAY_AUTH_MODE=token`` and otherwise fails after 20 s. So when the user did not choose a
    mode and a token is at hand, send it (a cluster without authentication accepts it too, measured
    with Ray 2.60). ``auto`` is left to Ray, which does the same itself."""
    if address == "auto" or "RAY_AUTH_MODE" in os.environ or not _auth_token_available():
        return
    os.environ["RAY_AUTH_MODE"] = "token"
    log.info("sending the Ray auth token to %s (RAY_AUTH_MODE=token)", address)
    if "ray" in sys.modules:  # Ray read its configuration when it was imported: make it read it again
        try:
            from ray._private.authentication.authentication_token_setup import _enable_token_auth
        except ImportError:  # a Ray without token authentication (< 2.52): nothing to refresh
            return
        _enable_token_auth()


def _auth_hint(address: str | None, start: float) -> str:
    """Why joining ``address`` may have failed when the cluster uses Ray's token authentication."""
    if address is None:
        return ""
    waited = f" (after {time.perf_counter() - start:.0f} s)"
    if os.environ.get("RAY_AUTH_MODE") == "token":
        return (f"{waited}. This machine sent the Ray auth token it has; if the cluster uses token authentication, its "
                "token must be the same: copy the head node's ~/.ray/auth_token here, or set RAY_AUTH_TOKEN (docs/scale.md)")
    return (f"{waited}. If the cluster uses token authentication (Ray >= 2.59 turns it on in 'ray start' when "
            "~/.ray/auth_token exists), copy the head node's ~/.ray/auth_token to this machine (docs/scale.md)")


def _actors_for(ray: Any, wanted: int) -> int:
    """``wanted`` actors, or as many as the cluster has CPUs (one each), with a warning: an actor that
    can never be placed would wait forever."""
    total = int(ray.cluster_resources().get("CPU", 0))
    if total < 1:
        raise ScaleError("the Ray cluster has no CPU; each worker needs one")
    if total >= wanted:
        return wanted
    log.warning("the Ray cluster has %d CPU(s); running %d workers instead of %d", total, total, wanted)
    return total
