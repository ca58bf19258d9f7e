"""Checks of library arguments that several games' APIs share, each refusing a bad value by name
(:class:`~kubasolve.errors.PositionError`) instead of a raw TypeError deep inside a search."""

from __future__ import annotations

from kubasolve.errors import PositionError

__all__ = ["check_gain_objective", "check_top", "is_int"]


def is_int(value: object) -> bool:
    """True for a real int (``True``/``False`` are not counts)."""
    return isinstance(value, int) and not isinstance(value, bool)


def check_top(top: object) -> None:
    """Refuse a ``top`` (how many results) that is not None (all) or a whole number >= 1."""
    if top is not None and not (isinstance(top, int) and not isinstance(top, bool) and top >= 1):
        raise PositionError(f"top must be a whole number >= 1 (or None: all), got {top!r}")


def check_gain_objective(objective: object) -> None:
    """Refuse an objective other than ``"gain"`` or ``"swing"`` (Kubagram's and Word colonies' move rankings)."""
    if not isinstance(objective, str) or objective not in ("gain", "swing"):
        raise PositionError(f'objective must be "gain" or "swing", got {objective!r}')
