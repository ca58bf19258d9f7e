"""One local Ray instance for every Ray test of this package (starting one costs seconds on a busy
machine): ``ray_cluster`` starts it on first use with 2 CPUs and stops it after the package's last
test. The backends reuse a Ray instance already running in the process, so the CLI tests that pass
``--backend ray`` join it instead of starting their own."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest


@pytest.fixture(scope="package")
def ray_cluster() -> Iterator[Any]:
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    yield ray
    ray.shutdown()
