"""Work budgets (node counts and time limits of the solvers and AIs): the shared checks and bookkeeping."""

from __future__ import annotations

import time

from kubasolve.errors import PositionError

UNLIMITED_NODES = 1 << 62
"""A node limit that never runs out."""


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
        if limit <= 0:
            self.exhausted = True
            return 0
        return limit

    def spend(self, nodes: int, stopped: bool) -> None:
        """Record a kernel call's nodes; ``stopped``: it ran out of its limit before finishing."""
        self.nodes += nodes
        self.exhausted = self.exhausted or stopped

    def charge(self, nodes: int) -> bool:
        """Count ``nodes`` of work done outside the kernels (never past ``max_nodes``); True once the budget is spent
        (then exhausted): for Python loops that a node budget must bound too."""
        if self.max_nodes is not None:
            nodes = min(nodes, max(0, self.max_nodes - self.nodes))
        self.nodes += nodes
        return self.out_of_time()

    def out_of_time(self) -> bool:
        """True (and exhausted) once the budget is spent: for Python loops between kernel calls (cheap)."""
        if not self.exhausted:
            late = self.deadline is not None and time.perf_counter() >= self.deadline
            self.exhausted = late or (self.max_nodes is not None and self.nodes >= self.max_nodes)
        return self.exhausted
