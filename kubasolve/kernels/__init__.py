"""Numba kernels: pure functions over flat typed arrays; they import nothing else from kubasolve.

Modules here are imported lazily by the API layers, so ``import kubasolve`` never triggers JIT
compilation. Every kernel is ``@njit(cache=True)``.

Importing this package (which happens before any kernel module is imported) points numba's on-disk
cache at ``<kubasolve cache>/numba`` (``$KUBASOLVE_CACHE_DIR`` or the platform's user cache folder),
so an editable or read-only install compiles its kernels once per user instead of on every run, and
nothing is written inside site-packages. A ``NUMBA_CACHE_DIR`` set by the user is respected.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path


def kubasolve_cache_root() -> Path:
    """``$KUBASOLVE_CACHE_DIR`` or the user cache folder (e.g. ``~/.cache/kubasolve``)."""
    env = os.environ.get("KUBASOLVE_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("kubasolve", appauthor=False))


def numba_cache_dir() -> Path:
    """Where numba keeps the compiled kernels: ``$NUMBA_CACHE_DIR`` if the user set it, else
    ``<kubasolve cache>/numba``."""
    env = os.environ.get("NUMBA_CACHE_DIR")
    return Path(env) if env else kubasolve_cache_root() / "numba"


def _use_kubasolve_cache() -> None:
    """Set ``NUMBA_CACHE_DIR`` (unless the user did) before the first kernel is decorated."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    os.environ["NUMBA_CACHE_DIR"] = str(kubasolve_cache_root() / "numba")
    config = sys.modules.get("numba.core.config")
    if config is not None:  # numba was imported before us: make it read the variable again
        config.reload_config()


_use_kubasolve_cache()
