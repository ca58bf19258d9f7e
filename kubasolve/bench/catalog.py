"""Catalogue of benchmark scenario suites, one module per game (each exposes ``scenarios()``)."""

from __future__ import annotations

import importlib

from kubasolve.bench.runner import Scenario

SUITES: dict[str, str] = {
    "lexicon": "kubasolve.bench.lexicon_scenarios",
    "kubagram": "kubasolve.bench.kubagram_scenarios",
    "kubagram-game": "kubasolve.bench.kubagram_game_scenarios",
    "rummikub": "kubasolve.bench.rummikub_scenarios",
}


def load_suite(name: str) -> list[Scenario]:
    """Return the scenarios of suite ``name`` (a key of :data:`SUITES`)."""
    return list(importlib.import_module(SUITES[name]).scenarios())
