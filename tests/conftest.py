"""Suite-wide settings.

Under CI, hypothesis runs derandomised so main's result is reproducible. Locally (no ``CI`` variable)
hypothesis keeps drawing fresh examples on every run, which is how new counterexamples are found; set
``HYPOTHESIS_PROFILE=ci`` to reproduce a CI run exactly.

The whole suite (``pytest -q``, no paths given) first builds the kernels and bundled lexicons into the
cache (``$KUBASOLVE_CACHE_DIR`` or the user's), the way ``pip install .`` does (:mod:`kubasolve.prebuild`),
in two processes at once: otherwise the test that happens to come first compiles each kernel, and the
two xdist workers (addopts) compile the same kernels side by side. The tests load the kernels from
that cache, as every run after a user's first does; the tests of first-run compiling and of the cache
itself use caches of their own. A run of chosen paths (``pytest tests/crossword``) skips it, and so does
``KUBASOLVE_TEST_PREBUILD=0``. A failing warm-up only says so: the tests then compile what they use.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))

WARM_UP = (["crossword"], ["kubagram", "rummikub", "scruble", "colonii"])
"""The games of :data:`kubasolve.prebuild.WORKLOAD` for each warm-up process, about the same time each (cold
cache, load 2-4: crossword 78 s; rummikub 14 s, scruble 25 s, colonii 12 s and kubagram the rest of 72 s)."""


_warm_up: list[tuple[list[str], subprocess.Popen[str]]] = []
_warm_up_start = 0.0


def pytest_sessionstart(session: pytest.Session) -> None:
    """Start the warm-up (the controller, or a run without xdist): the workers collect meanwhile."""
    global _warm_up_start
    config = session.config
    if (hasattr(config, "workerinput") or config.args_source != pytest.Config.ArgsSource.TESTPATHS
            or config.option.collectonly or os.environ.get("KUBASOLVE_TEST_PREBUILD") == "0"):
        return
    _warm_up_start = time.perf_counter()
    for games in WARM_UP:
        proc = subprocess.Popen([sys.executable, "-m", "kubasolve.prebuild", "--run", "--only", *games],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        _warm_up.append((games, proc))


@pytest.hookimpl(tryfirst=True)
def pytest_runtestloop(session: pytest.Session) -> None:
    """No test starts (xdist hands out none) before the warm-up has ended; pytest's time includes it."""
    if not _warm_up:
        return
    notes = []
    for games, proc in _warm_up:
        err = proc.communicate()[1]
        if proc.returncode:
            notes.append(f"kubasolve: the warm-up of {', '.join(games)} failed (the tests will say why):\n{err[-2000:]}")
    notes.insert(0, f"kubasolve: kernels and bundled lexicons built into the cache in {time.perf_counter() - _warm_up_start:.1f} s")
    _warm_up.clear()
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    for note in notes:
        if reporter is not None:
            reporter.write_line(note)
        else:
            print(note, file=sys.stderr)
