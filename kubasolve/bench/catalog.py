"""Catalogue of benchmark scenario suites: each ``kubasolve/bench/<name>_scenarios.py`` module is a suite.

The suite's name is the module's stem with ``_`` read as ``-`` (``kubagram_game_scenarios`` is suite
``kubagram-game``); each such module exposes ``scenarios()``. A game adds a suite by adding a module.
"""

from __future__ import annotations

import importlib
import pkgutil

from kubasolve.bench.runner import Scenario

_SUFFIX = "_scenarios"


def _discover() -> dict[str, str]:
    import kubasolve.bench as package

    names = sorted(info.name for info in pkgutil.iter_modules(package.__path__) if info.name.endswith(_SUFFIX))
    return {name[: -len(_SUFFIX)].replace("_", "-"): f"kubasolve.bench.{name}" for name in names}


SUITES: dict[str, str] = _discover()


def load_suite(name: str) -> list[Scenario]:
    """Return the scenarios of suite ``name`` (a key of :data:`SUITES`)."""
    return list(importlib.import_module(SUITES[name]).scenarios())
