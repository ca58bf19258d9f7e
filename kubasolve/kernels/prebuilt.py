"""Seed the user's cache from the caches an installed wheel ships (``kubasolve/_prebuilt``; issue 23).

``pip install .`` builds the kernels and the bundled lexicons once, for the machine it installs on
(``kubasolve.prebuild``, run by the wheel's build hook), and ships them in the wheel. On the first run
:func:`seed` puts them where this installation looks: the kernel files into numba's folder for the
installed ``kubasolve/kernels`` (numba names that folder after the source folder's absolute path), the
compiled lexicons into ``<cache>/lexicons`` (keyed by content). Files are hard-linked when the cache
is on the same file system (no extra space), else copied; each lands through a temporary name and a
rename, so a concurrent run never sees half a file. A marker ``<cache>/prebuilt/<build>.done`` makes
every later run cost one ``stat``.

Kernel files are only seeded when the installed numba is the one they were compiled by (numba would
ignore them otherwise). Everything here is best effort: when seeding fails the kernels and lexicons
are built on first use, as without a prebuilt wheel. Standard library only: importing it imports no
numba (see the package docstring).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
from pathlib import Path

log = logging.getLogger("kubasolve.kernels")

KERNELS_DIR = os.path.dirname(os.path.abspath(__file__))
"""This package's folder as numba sees it (``os.path.abspath`` of the module path, symlinks kept)."""
PREBUILT_DIR = Path(KERNELS_DIR).parent / "_prebuilt"
MANIFEST = "manifest.json"
FORMAT = 1


def kernel_subfolder(kernels_dir: str = KERNELS_DIR) -> str:
    """The sub-folder of numba's cache folder holding the kernels of ``kernels_dir``: numba's own layout
    (``numba.core.caching._CacheLocator.get_suitable_cache_subpath``), ``<folder name>_<sha1 of its path>``."""
    return "_".join([os.path.basename(kernels_dir), hashlib.sha1(kernels_dir.encode()).hexdigest()])


def _numba_version() -> str | None:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("numba")
    except PackageNotFoundError:
        return None


def _place(src: Path, dst: Path) -> None:
    """``dst`` becomes ``src``'s content: hard link (else copy) to a temporary name, then rename."""
    tmp = dst.with_name(f".{dst.name}.{os.getpid()}.tmp")
    try:
        try:
            os.link(src, tmp)
        except OSError:
            shutil.copyfile(src, tmp)
        os.replace(tmp, dst)
    finally:
        if tmp.exists():
            tmp.unlink()


def _seed_folder(src: Path, target: Path, members: list[list[str]]) -> None:
    """A compiled lexicon's folder, whole or not at all: built under a temporary name, then renamed
    into place; left alone when the user's cache has that lexicon already."""
    if (target / "meta.json").is_file():
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".tmp-seed-{os.getpid()}-{target.name}")
    try:
        for parts in members:
            dst = tmp.joinpath(*parts)
            dst.parent.mkdir(parents=True, exist_ok=True)
            _place(src.joinpath(*parts), dst)
        if target.exists():  # a damaged or half-built folder of an older run: the cache would rebuild it
            shutil.rmtree(target, ignore_errors=True)
        try:
            os.replace(tmp, target)
        except OSError:
            if not (target / "meta.json").is_file():  # not a concurrent run's identical folder
                raise
    finally:
        if tmp.exists():
            shutil.rmtree(tmp, ignore_errors=True)


def seed(cache_root: Path, numba_dir: Path, prebuilt: Path = PREBUILT_DIR, kernels_dir: str = KERNELS_DIR) -> bool:
    """Put the shipped caches of ``prebuilt`` into ``cache_root`` (lexicons) and ``numba_dir`` (kernels),
    once per build; True when something was seeded now. Never raises for a missing, foreign or
    unwritable cache: the caches are then built on first use."""
    manifest_path = prebuilt / MANIFEST
    if not manifest_path.is_file():  # an editable install or a source tree: nothing shipped
        return False
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        build_id = str(manifest["build_id"])
        files = list(manifest["files"])
        if manifest.get("format") != FORMAT:
            return False
    except (OSError, ValueError, KeyError, TypeError):
        log.debug("prebuilt manifest %s unreadable; building caches on first use", manifest_path)
        return False
    marker = cache_root / "prebuilt" / f"{build_id}.done"
    if marker.exists():
        return False
    try:
        seed_kernels = manifest.get("numba") == _numba_version()
        kernel_folder = numba_dir / kernel_subfolder(kernels_dir)
        lexicons: dict[str, list[list[str]]] = {}
        for rel in files:
            parts = str(rel).split("/")
            if any(part in ("", ".", "..") for part in parts):
                continue  # only plain relative names
            if parts[0] == "numba" and len(parts) == 2 and seed_kernels:
                kernel_folder.mkdir(parents=True, exist_ok=True)
                _place(prebuilt / rel, kernel_folder / parts[1])
            elif parts[0] == "lexicons" and len(parts) >= 3:
                lexicons.setdefault(parts[1], []).append(parts[2:])
        for key, members in lexicons.items():
            _seed_folder(prebuilt / "lexicons" / key, cache_root / "lexicons" / key, members)
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text(json.dumps({"from": str(prebuilt), "kernels": seed_kernels}))
    except OSError as exc:
        log.warning("could not seed the cache %s from the installed %s (%s); building on first use", cache_root, prebuilt, exc)
        return False
    return True
