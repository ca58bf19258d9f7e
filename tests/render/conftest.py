"""Fixtures of the rendering tests: every saved state (see helpers.py) as a parameter."""

from __future__ import annotations

from typing import Any

import pytest

from tests.render.helpers import STATES, state


@pytest.fixture(params=STATES)
def named_state(request: pytest.FixtureRequest) -> tuple[str, Any]:
    """(fixture name, native state) for every saved state; each loaded once per session."""
    return request.param, state(request.param)
