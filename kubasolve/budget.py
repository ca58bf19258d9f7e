"""Work budgets (node counts and time limits of the solvers and AIs): the one budget spec (:class:`Budget`, the
same names in library, CLI and engine), and the meters the searches read (:class:`WorkBudget` and its game kinds)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from kubasolve.errors import PositionError

UNLIMITED_NODES = 1 << 62
"""A node limit that never runs out."""
PROGRESS_INTERVAL_S = 0.1
"""Least time between two progress reports of one search."""


class StopFlag(Protocol):
    """What a budget reads to learn that the search must end now (a ``threading.Event`` is one)."""

    def is_set(self) -> bool: ...


Progress = Callable[[dict[str, Any]], None]
"""Receives ``{"nodes": N, "ms": elapsed, "best"?: {...}}`` while a search runs (at most every 0.1 s)."""


@dataclass(frozen=True)
class Budget:
    """The one work budget spec of a request: ``movetime_ms`` (wall time in milliseconds) and ``max_nodes`` (search
    nodes; what a node is, each game says), both optional and positive. ``None`` for both: no limit (the exact
    answer). A frozen value: the clock starts when a search makes its meter (:meth:`meter`), after the game's
    one-time set-up. ``stop`` (e.g. a ``threading.Event``) ends the search with its best answer so far once set;
    ``progress`` receives progress reports. Neither takes part in equality."""

    movetime_ms: float | None = None
    max_nodes: int | None = None
    stop: StopFlag | None = field(default=None, compare=False, repr=False)
    progress: Progress | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        check_work_budget(self.max_nodes, self.movetime_ms)

    @property
    def limited(self) -> bool:
        """True when a time or node limit is set (a stop flag alone is no limit)."""
        return self.movetime_ms is not None or self.max_nodes is not None

    def stopped(self) -> bool:
        """True once the stop flag is set."""
        return self.stop is not None and self.stop.is_set()

    def meter(self, kind: type[W] | None = None) -> W:
        """A fresh meter of ``kind`` (default :class:`WorkBudget`) for this budget: its clock starts now."""
        meter = (kind or WorkBudget)(self.max_nodes, self.movetime_ms)
        meter.stop = self.stop
        meter.progress = self.progress
        return meter  # type: ignore[return-value]


def check_work_budget(max_nodes: object, time_ms: object, time_name: str = "movetime_ms") -> None:
    """Refuse a node budget that is not a positive integer, or a time budget (named ``time_name``) that is not a
    positive number, naming the parameter: :class:`PositionError`. ``None`` means no budget."""
    for name, limit in (("max_nodes", max_nodes), (time_name, time_ms)):
        if limit is None:
            continue
        if isinstance(limit, bool) or not isinstance(limit, (int, float)) or (name == "max_nodes" and not isinstance(limit, int)):
            raise PositionError(f"{name} must be {'an integer' if name == 'max_nodes' else 'a number'}, got {limit!r}")
        if not 0 < limit < 2**62:  # NaN fails too
            raise PositionError(f"{name} must be positive, got {limit!r}")


class WorkBudget:
    """A node and time budget for one request, shared by its searches: ``max_nodes`` caps the nodes spent in
    all, ``movetime_ms`` the wall time from the budget's creation (``None``: no limit). ``nodes``: what was
    spent; ``exhausted``: a search ran out (its answer is the best found, not proven). Subclasses say how the
    time left becomes a kernel's node limit (:meth:`node_limit`)."""

    def __init__(self, max_nodes: int | None = None, movetime_ms: float | None = None) -> None:
        check_work_budget(max_nodes, movetime_ms)
        self.max_nodes = max_nodes
        self.movetime_ms = movetime_ms
        self.deadline = None if movetime_ms is None else time.perf_counter() + movetime_ms / 1e3
        self.nodes = 0
        self.exhausted = False
        self.stop: StopFlag | None = None
        """Set (e.g. by :meth:`Budget.meter`): once it is set, the budget is spent (a ``stop`` request)."""
        self.progress: Progress | None = None
        """Called with ``{"nodes", "ms"}`` as the nodes are spent (at most every :data:`PROGRESS_INTERVAL_S`)."""
        self.best: dict[str, Any] | None = None
        """The best answer so far, as JSON, where the search reports one (sent with the progress)."""
        self._started = time.perf_counter()
        self._reported = self._started

    def stopped(self) -> bool:
        """True once a stop was requested (the stop flag is set)."""
        return self.stop is not None and self.stop.is_set()

    def restart_clock(self) -> None:
        """Start the time budget again now: for one-time set-up done after the meter was made (a kernel's first
        load), which is no part of the search."""
        if self.movetime_ms is not None:
            self.deadline = time.perf_counter() + self.movetime_ms / 1e3
        self._started = time.perf_counter()

    def report(self, best: dict[str, Any] | None = None, force: bool = False) -> None:
        """Send a progress report (nodes, elapsed ms, the best so far) if one is wanted and due."""
        if best is not None:
            self.best = best
        if self.progress is None:
            return
        now = time.perf_counter()
        if force or now - self._reported >= PROGRESS_INTERVAL_S:
            self._reported = now
            info: dict[str, Any] = {"nodes": self.nodes, "ms": round((now - self._started) * 1e3, 1)}
            if self.best is not None:
                info["best"] = self.best
            self.progress(info)

    def nodes_left(self) -> int:
        """Nodes still allowed by ``max_nodes`` (:data:`UNLIMITED_NODES` without one)."""
        return UNLIMITED_NODES if self.max_nodes is None else self.max_nodes - self.nodes

    def node_limit(self) -> int:
        """Nodes the next kernel call may enter (0, and exhausted, once the budget is spent)."""
        limit = self.nodes_left()
        if self.deadline is not None and time.perf_counter() >= self.deadline:
            limit = 0
        return self._checked(limit)

    def _checked(self, limit: int) -> int:
        self.report()  # called before each kernel call or slice: the progress is as fresh as the slices
        if limit <= 0 or self.stopped():
            self.exhausted = True
            return 0
        return limit

    def spend(self, nodes: int, stopped: bool) -> None:
        """Record a kernel call's nodes; ``stopped``: it ran out of its limit before finishing."""
        self.nodes += nodes
        self.exhausted = self.exhausted or stopped
        self.report()

    def charge(self, nodes: int) -> bool:
        """Count ``nodes`` of work done outside the kernels (never past ``max_nodes``); True once the budget is spent
        (then exhausted): for Python loops that a node budget must bound too."""
        if self.max_nodes is not None:
            nodes = min(nodes, max(0, self.max_nodes - self.nodes))
        self.nodes += nodes
        return self.out_of_time()

    def spent(self) -> bool:
        """True (and exhausted) once nothing is left: the nodes spent, the deadline passed or a stop asked for. Unlike
        :meth:`out_of_time` it does not answer True only because an earlier search of the request was cut (its own
        share of the time ran out, or its kernel stopped): for the steps after such a search, which still have
        budget to build the answer with."""
        late = self.deadline is not None and time.perf_counter() >= self.deadline
        if late or (self.max_nodes is not None and self.nodes >= self.max_nodes) or self.stopped():
            self.exhausted = True
            return True
        return False

    def out_of_time(self) -> bool:
        """True (and exhausted) once the budget is spent: for Python loops between kernel calls (cheap)."""
        if not self.exhausted:
            late = self.deadline is not None and time.perf_counter() >= self.deadline
            self.exhausted = late or (self.max_nodes is not None and self.nodes >= self.max_nodes) or self.stopped()
        return self.exhausted


W = TypeVar("W", bound=WorkBudget)


def meter_for(budget: Budget | W | None, kind: type[W], warm_up: Callable[[], None] | None = None) -> W | None:
    """The meter a library search spends from its ``budget`` argument (every search takes either form):

    - a :class:`Budget` spec: ``warm_up()`` first (the one-time set-up: the lexicon's tables, the kernels' load or
      compilation, is no part of the budget), then a fresh meter of ``kind`` whose clock starts now;
    - a meter (a :class:`WorkBudget`, e.g. ``budget.meter(kind)`` made by the caller): as it is, so the caller reads
      its ``nodes`` and ``exhausted`` (not proven optimal) afterwards;
    - None: no budget."""
    if budget is None:
        return None
    if isinstance(budget, Budget):
        if warm_up is not None:
            warm_up()
        return budget.meter(kind)
    if not isinstance(budget, WorkBudget):
        raise PositionError(f"budget must be a kubasolve.budget.Budget (or its meter), got {type(budget).__name__}")
    return budget
