"""Fixtures for the colonii tests: the real Romanian lexicon (compiled once into the cache)."""

from __future__ import annotations

import pytest

from kubasolve.lexicon import Lexicon


@pytest.fixture(scope="session")
def ro() -> Lexicon:
    from kubasolve import load_lexicon

    return load_lexicon("ro")
