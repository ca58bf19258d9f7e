"""Checks shared by every work budget (node counts and time limits of the solvers and AIs)."""

from __future__ import annotations

from kubasolve.errors import PositionError


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
