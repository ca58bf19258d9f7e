"""One local Ray instance for every Ray test of this package (starting one costs seconds on a busy
machine): ``ray_cluster`` starts it on first use with 2 CPUs and stops it after the package's last
test. The backends reuse a Ray instance already running in the process, so the CLI tests that pass
``--backend ray`` join it instead of starting their own.

Under pytest-xdist (``pytest -q`` runs on 2 workers) every test that starts or joins a Ray instance is in
the xdist group ``ray``, so they all run on one worker, one after the other: one instance at a time (a
second ``ray.init()`` on the machine may join a cluster another test started), as in a serial run."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

RAY_GROUP = pytest.mark.xdist_group("ray")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests that use ``ray_cluster`` join the group ``ray`` (the others are marked where they are)."""
    for item in items:
        if "ray_cluster" in getattr(item, "fixturenames", ()):
            item.add_marker(RAY_GROUP)


@pytest.fixture(scope="package")
def ray_cluster() -> Iterator[Any]:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield ray
    ray.shutdown()
