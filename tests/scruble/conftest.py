from __future__ import annotations

import pytest

import kubasolve


@pytest.fixture(scope="session")
def en():
    return kubasolve.load_lexicon("en")
