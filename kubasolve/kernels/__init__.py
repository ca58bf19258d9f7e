"""Numba kernels: pure functions over flat typed arrays; they import nothing else from kubasolve.

Modules here are imported lazily by the API layers, so ``import kubasolve`` never triggers JIT
compilation. Every kernel is ``@njit(cache=True)``.

Importing this package (which happens before any kernel module is imported) points numba's on-disk
cache at ``<kubasolve cache>/numba`` (``$KUBASOLVE_CACHE_DIR`` or the platform's user cache folder),
so an editable or read-only install compiles its kernels once per user instead of on every run, and
nothing is written inside site-packages. A ``NUMBA_CACHE_DIR`` set by the user is respected.

Before the first kernel module is imported, :mod:`kubasolve.kernels.disk_cache` is installed (that
import needs numba, which every kernel module imports anyway; the package itself imports none): the
kernels' cache files are then checksummed, a damaged one is recompiled instead of failing (or
aborting), and an unusable folder or a full disk means compiling into memory, with one warning.

**Compile once.** numba compiles a kernel again for every distinct argument type signature, and a
constant handed to a (non-inlined) kernel function is typed as a literal: ``f(x, 0)`` and ``f(x, n)``
are two compilations, and so is a counter that starts as ``n = 0`` while type inference still sees
the literal. Kernels pass typed values instead (``np.int64(0)``) unless a literal is wanted (a flag
compiled in as a constant, such as ``word_search._search``'s ``fast``); callers hand the same array
types on every path (read-only memory maps, C order, the same dtypes).
tests/kernels/test_compile_once.py checks the call sites.

An installed wheel ships its kernels and bundled lexicons prebuilt for the machine (issue 23):
:func:`kubasolve.kernels.prebuilt.seed` puts them into that cache on the first run (a ``stat`` later;
it imports no numba, so it runs before the checked cache is installed).
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


def folder_problem(folder: str | os.PathLike[str]) -> str | None:
    """None when ``folder`` can be created and written to (it is created), else why not (``Not a directory``: a
    regular file where the folder should be, ``Permission denied``, ...). The kernels' and the lexicons' caches use
    it to say up front that nothing will be cached."""
    import tempfile

    try:
        os.makedirs(folder, exist_ok=True)
        tempfile.TemporaryFile(dir=folder).close()
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


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


class _InstallDiskCache:
    """A ``sys.meta_path`` finder that installs the checked kernel cache when the first kernel module
    (``kubasolve.kernels.<name>``) is imported, then steps aside (it finds nothing itself)."""

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if name.startswith(__name__ + ".") and self in sys.meta_path:
            sys.meta_path.remove(self)
            if name != f"{__name__}.disk_cache":  # importing it installs it
                import kubasolve.kernels.disk_cache  # noqa: F401
        return None


def _seed_prebuilt() -> None:
    """Seed the cache from the caches a wheel ships (before the checked cache is installed: the seeding
    module imports no numba)."""
    from kubasolve.kernels.prebuilt import seed

    seed(kubasolve_cache_root(), numba_cache_dir())


_use_kubasolve_cache()
_seed_prebuilt()
if not any(isinstance(finder, _InstallDiskCache) for finder in sys.meta_path):
    sys.meta_path.insert(0, _InstallDiskCache())
