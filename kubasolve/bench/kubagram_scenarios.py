"""Kubagram benchmark scenarios (filled in with the solver)."""

from kubasolve.bench.runner import Scenario


def scenarios() -> list[Scenario]:
    return []
