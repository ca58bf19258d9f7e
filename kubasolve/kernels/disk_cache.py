"""A numba disk cache for kubasolve's kernels that heals instead of failing.

numba's own cache trusts its files: a truncated or garbled ``.nbi``/``.nbc`` raises (UnpicklingError,
"unregistered extension code", UnicodeDecodeError) on every later call, and one flipped bit in the
machine code inside a ``.nbc`` can make LLVM abort the whole process (SIGABRT) when it links it. A
full disk makes every compile fail (the save raises), and an unusable cache folder sends the files
into the installed package's ``__pycache__``.

Importing this module runs :func:`install` (``kubasolve.kernels`` imports it before its first kernel
module), which makes every ``@njit(cache=True)`` function *of this package* use
:class:`CheckedFunctionCache` instead:

- every file it writes starts with :data:`MAGIC` and a SHA-256 of the rest; a file is unpickled (and
  its machine code handed to LLVM) only when the digest matches, so damage is seen before anything
  can abort. Anything that fails to load is a cache miss: the kernel is compiled again and its file
  rewritten, with one warning per process (logger ``kubasolve.kernels``);
- when the cache folder is unusable (cannot be created or written), the kernels are compiled into
  memory only, with one warning; nothing is written elsewhere;
- when a save fails (disk full, quota), this run keeps its kernels in memory and stops trying to
  save, with one warning.

Other numba functions of the process keep numba's own cache.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import pickle
from pathlib import Path
from typing import Any

from numba.core import caching, sigutils
from numba.core.dispatcher import Dispatcher
from numba.core.serialize import dumps

log = logging.getLogger("kubasolve.kernels")

MAGIC = b"kubasolve-numba-cache-1\n"
"""First bytes of every cache file written here (index and data); then the SHA-256 of the payload."""
_DIGEST = 32
KERNELS_DIR = Path(__file__).resolve().parent

_warned: set[str] = set()
_saving = True


def _warn_once(kind: str, message: str) -> None:
    """A warning through logging, at most once per process and kind (the CLI and engine show it on stderr)."""
    if kind in _warned:
        log.debug("%s", message)
        return
    _warned.add(kind)
    log.warning("%s", message)


def cache_dir() -> Path:
    """The folder of the compiled kernels (``$NUMBA_CACHE_DIR`` or ``<kubasolve cache>/numba``)."""
    from kubasolve.kernels import numba_cache_dir

    return numba_cache_dir()


def seal(payload: bytes) -> bytes:
    """``payload`` framed as a cache file: magic, SHA-256, payload."""
    return MAGIC + hashlib.sha256(payload).digest() + payload


def unseal(data: bytes) -> bytes:
    """The payload of a sealed file; ValueError when the frame or the digest is wrong."""
    head = len(MAGIC)
    if not data.startswith(MAGIC):
        raise ValueError("not a kubasolve kernel cache file (damaged, or written by another version)")
    digest, payload = data[head : head + _DIGEST], data[head + _DIGEST :]
    if len(digest) != _DIGEST or hashlib.sha256(payload).digest() != digest:
        raise ValueError("checksum mismatch (the file is damaged or truncated)")
    return payload


class CheckedCacheFile(caching.IndexDataCacheFile):
    """numba's index + data files, each sealed by :func:`seal` and verified before it is unpickled."""

    def _dump(self, obj: Any) -> bytes:
        return seal(dumps(obj))

    def _save_index(self, overloads: dict[Any, str]) -> None:
        with self._open_for_write(self._index_path) as f:
            f.write(self._dump((self._version, self._source_stamp, overloads)))

    def _load_index(self) -> dict[Any, str]:
        """The index (signature -> data file); empty when missing, stale or damaged (numba's ``save``
        reads it too, so a damaged index must not raise: the next save rewrites it)."""
        try:
            with open(self._index_path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            return {}
        try:
            version, stamp, overloads = pickle.loads(unseal(data))
        except Exception as exc:  # noqa: BLE001 - damage of any kind: start a new index
            self._report(exc)
            return {}
        if version != self._version or stamp != self._source_stamp or not isinstance(overloads, dict):
            return {}  # another numba version or an edited kernel source: recompile quietly, as numba does
        return overloads

    def _load_data(self, name: str) -> Any:
        with open(self._data_path(name), "rb") as f:
            data = f.read()
        return pickle.loads(unseal(data))

    def load(self, key: Any) -> Any:
        """The cached entry of ``key``, or None when it is missing or does not load (then it is recompiled)."""
        name = self._load_index().get(key)
        if name is None:
            return None
        try:
            return self._load_data(name)
        except FileNotFoundError:
            return None
        except Exception as exc:  # noqa: BLE001 - damage of any kind is a cache miss
            self._report(exc)
            return None

    def _report(self, exc: BaseException) -> None:
        _warn_once("damaged", f"compiled-kernel cache {self._index_name[:-4]} in {self._cache_path} does not load ({exc}); "
                   "recompiling it (and any other damaged kernel, without repeating this warning)")


class _Locator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """Puts a kernel's files under :func:`cache_dir` (numba's layout: one sub-folder per source folder);
    ``from_function`` gives None when that folder cannot be created or written."""

    def __init__(self, py_func: Any, py_file: str) -> None:
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(str(cache_dir()), self.get_suitable_cache_subpath(py_file))

    def get_cache_path(self) -> str:
        return self._cache_path

    def get_source_stamp(self) -> bytes:
        """The SHA-256 of the kernel's source file, as numba >= 0.68 stamps it. Older numba used the
        file's mtime and size, which an installed copy never keeps, so the kernels a wheel ships
        (``kubasolve/kernels/prebuilt.py``) would never match; by content they do."""
        st = os.stat(self._py_file)
        return _source_digest(self._py_file, st.st_mtime_ns, st.st_size)


@functools.cache
def _source_digest(path: str, mtime_ns: int, size: int) -> bytes:
    """SHA-256 of a file (memoised per path, mtime and size: one read per kernel module)."""
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).digest()


class _Impl(caching.CompileResultCacheImpl):
    _locator_classes = [_Locator]  # noqa: RUF012 - numba's class attribute


class CheckedFunctionCache(caching.FunctionCache):
    """numba's per-function cache with :class:`CheckedCacheFile` files, loads that never raise and saves
    that turn into memory-only on the first failure."""

    _impl_class = _Impl

    def __init__(self, py_func: Any) -> None:
        super().__init__(py_func)
        self._cache_file = CheckedCacheFile(self._cache_path, self._impl.filename_base, self._impl.locator.get_source_stamp())

    def load_overload(self, sig: Any, target_context: Any) -> Any:
        try:
            cres = super().load_overload(sig, target_context)
        except Exception as exc:  # noqa: BLE001 - verified but still unusable: recompile
            _warn_once("damaged", f"compiled-kernel cache {self._cache_file._index_name[:-4]} in {self._cache_path} does not load "
                       f"({type(exc).__name__}: {exc}); recompiling it")
            return None
        if cres is not None and tuple(cres.signature.args) != tuple(sigutils.normalize_signature(sig)[0]):
            # Two processes compiling two signatures of one kernel at once (a cold cache shared by parallel runs,
            # as the install-time build and the test warm-up do) both pick the first free data file name, and the
            # index can end up naming the other one's machine code. numba would hand that code out for this
            # signature; compiling it again rewrites the file under this signature's name.
            log.debug("compiled-kernel cache %s in %s holds %s for %s; recompiling it",
                      self._cache_file._index_name[:-4], self._cache_path, cres.signature.args, sig)
            return None
        return cres

    def save_overload(self, sig: Any, data: Any) -> None:
        global _saving
        if not _saving:
            return
        try:
            super().save_overload(sig, data)
        except Exception as exc:  # noqa: BLE001 - a full disk must not fail the compile that just succeeded
            _saving = False
            _warn_once("save", f"cannot write compiled kernels to {self._cache_path} ({exc}); "
                       "this run keeps them in memory and the next run compiles them again")


def in_memory_only() -> bool:
    """True when kernels compiled by this process are not (all) on disk: the folder is unusable or a save failed."""
    return not _saving or any(problem is not None for problem in _folder_checked.values())


def is_kubasolve_kernel(py_func: Any) -> bool:
    """True for functions defined in this package's modules."""
    try:
        return Path(py_func.__code__.co_filename).resolve().parent == KERNELS_DIR
    except (AttributeError, OSError):
        return False


_numba_enable_caching = Dispatcher.enable_caching


def _enable_caching(self: Any) -> None:
    if not is_kubasolve_kernel(self.py_func):
        _numba_enable_caching(self)
        return
    problem = _folder_problem(str(cache_dir()))
    if problem is None:
        try:
            self._cache = CheckedFunctionCache(self.py_func)
            return
        except Exception as exc:  # noqa: BLE001 - numba raises RuntimeError when no folder is usable
            problem = str(exc)
    _warn_once("folder", f"the compiled-kernel cache folder {cache_dir()} is not usable ({problem}); "
               "kernels are compiled into memory for this run only")
    self._cache = caching.NullCache()


_folder_checked: dict[str, str | None] = {}


def _folder_problem(folder: str) -> str | None:
    """None when ``folder`` can be created and written, else why not (checked once per process)."""
    if folder not in _folder_checked:
        from kubasolve.kernels import folder_problem

        _folder_checked[folder] = folder_problem(folder)
    return _folder_checked[folder]


def install() -> None:
    """Make this package's ``@njit(cache=True)`` kernels use :class:`CheckedFunctionCache` (idempotent)."""
    Dispatcher.enable_caching = _enable_caching  # type: ignore[method-assign]


install()
