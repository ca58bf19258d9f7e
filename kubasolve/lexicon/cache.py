"""On-disk cache of compiled lexicons: one folder per (source, alphabet, format) key, loaded mmapped.

The folder holds ``meta.json``, the two marisa-tries (``words.marisa``, ``rwords.marisa``) and one
``.npy`` per array of ``layout.py``. It is written to a temporary folder and renamed into place, so a
crash never leaves a half-written cache; one that is corrupt or stale anyway is rebuilt.

Damage is detected before anything is mapped: ``meta.json`` holds a CRC-32 of every file, checked by
:func:`verify_files`. Hashing all files of the Dutch cache takes ~0.1 s, so it happens only when a
file's size, modification time, change time or inode differ from the last successful check (recorded
in ``verified.json``); a warm load stats the files and reads two small JSON files. Other caches stored
next to a lexicon (the board graph) can use :func:`file_checksums` and :func:`verify_files` too.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import tempfile
import zlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import marisa_trie
import numpy as np

from kubasolve.lexicon.compiled import ARRAY_NAMES, CompiledLexicon
from kubasolve.lexicon.layout import FORMAT_VERSION

log = logging.getLogger("kubasolve.lexicon")


def cache_root() -> Path:
    """``$KUBASOLVE_CACHE_DIR`` or the user cache folder (e.g. ``~/.cache/kubasolve``)."""
    from kubasolve.kernels import kubasolve_cache_root  # one definition for lexicons and numba's kernels

    return kubasolve_cache_root()


# ------------------------------------------------------------------------------------------------ checksums
STAMP = "verified.json"
"""File (in a cache folder) recording the file states that last passed :func:`verify_files`."""
_CHUNK = 1 << 20


def file_checksum(path: Path) -> str:
    """CRC-32 of a file's bytes as 8 hex digits (read in 1 MB chunks)."""
    crc = 0
    with open(path, "rb") as f:
        while chunk := f.read(_CHUNK):
            crc = zlib.crc32(chunk, crc)
    return f"{crc:08x}"


def file_checksums(folder: Path, names: Iterable[str]) -> dict[str, str]:
    """``{name: CRC-32}`` of the files ``names`` of ``folder`` (store it in the cache's metadata)."""
    return {name: file_checksum(folder / name) for name in names}


def _file_state(path: Path) -> list[int]:
    """What changes whenever a file's bytes change: size, mtime, ctime (not settable) and inode."""
    st = path.stat()
    return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]


def write_stamp(folder: Path, checksums: Mapping[str, str], stamp: str = STAMP) -> None:
    """Record that the files of ``folder`` now match ``checksums`` (best effort: a read-only cache
    simply gets checked on every load)."""
    try:
        data = {"checksums": dict(checksums), "files": {name: _file_state(folder / name) for name in checksums}}
        tmp = folder / f".{stamp}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(data))
        os.replace(tmp, folder / stamp)
    except OSError as exc:
        log.debug("cannot write %s in %s (%s); checksums will be verified on every load", stamp, folder, exc)


def verify_files(folder: Path, checksums: Mapping[str, str], stamp: str = STAMP) -> bool:
    """True when every file named in ``checksums`` exists in ``folder`` with that CRC-32.

    Cheap when nothing changed: if every file's (size, mtime, ctime, inode) equals the state recorded by
    the last successful check, no byte is read. Otherwise the files are hashed and, when they match,
    the new state is recorded. A missing or unreadable file counts as damage (False).
    """
    try:
        states = {name: _file_state(folder / name) for name in checksums}
    except OSError:
        return False
    try:
        recorded = json.loads((folder / stamp).read_text())
        if recorded.get("checksums") == dict(checksums) and recorded.get("files") == states:
            return True
    except (OSError, ValueError, AttributeError):
        pass
    try:
        if file_checksums(folder, checksums) != dict(checksums):
            return False
    except OSError:
        return False
    write_stamp(folder, checksums, stamp)
    return True


def cache_files() -> list[str]:
    """The files of a compiled-lexicon cache folder whose checksums ``meta.json`` holds."""
    return ["words.marisa", "rwords.marisa", *(f"{name}.npy" for name in ARRAY_NAMES)]


def cache_key(source_bytes: bytes, settings: dict[str, Any]) -> str:
    """Key of a compiled lexicon: hash of the source file, the build settings and the format version."""
    h = hashlib.sha256()
    h.update(json.dumps({"format": FORMAT_VERSION, **settings}, sort_keys=True).encode())
    h.update(source_bytes)
    return h.hexdigest()


def lexicons_dir(root: Path | None = None) -> Path:
    """The folder of the compiled lexicons (one subfolder per word list and settings)."""
    return (root or cache_root()) / "lexicons"


def cache_dir_for(key: str, root: Path | None = None) -> Path:
    return lexicons_dir(root) / key[:32]


def save(folder: Path, key: str, meta: dict[str, Any], trie: marisa_trie.Trie, rtrie: marisa_trie.Trie, compiled: CompiledLexicon) -> bool:
    """Write the cache folder atomically; returns False (and logs why) when the cache is not writable."""
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".tmp-", dir=folder.parent))
        try:
            trie.save(str(tmp / "words.marisa"))
            rtrie.save(str(tmp / "rwords.marisa"))
            sizes = {}
            for name, arr in compiled.arrays().items():
                np.save(tmp / f"{name}.npy", np.ascontiguousarray(arr))
                sizes[name] = (tmp / f"{name}.npy").stat().st_size
            checksums = file_checksums(tmp, cache_files())
            full_meta = {**meta, "format": FORMAT_VERSION, "key": key, "file_sizes": sizes, "file_checksums": checksums}
            (tmp / "meta.json").write_text(json.dumps(full_meta, indent=1))
            write_stamp(tmp, checksums)
            if folder.exists():
                shutil.rmtree(folder, ignore_errors=True)
            os.replace(tmp, folder)
        finally:
            if tmp.exists():
                shutil.rmtree(tmp, ignore_errors=True)
        return True
    except (OSError, RuntimeError) as exc:  # marisa reports a failed write (a full disk) as RuntimeError
        log.warning("cannot write lexicon cache in %s (%s); using it from memory only", folder, exc)
        return False


def load(folder: Path, key: str, n_letters: int) -> tuple[dict[str, Any], marisa_trie.Trie, marisa_trie.Trie, CompiledLexicon] | None:
    """Load a cache folder memory-mapped; None when it is missing, stale or corrupt (then rebuild)."""
    meta_path = folder / "meta.json"
    if not meta_path.exists():
        return None
    try:
        meta = json.loads(meta_path.read_text())
        if meta.get("format") != FORMAT_VERSION or meta.get("key") != key:
            raise ValueError("stale (other format or source)")
        checksums = meta.get("file_checksums")
        if not isinstance(checksums, dict) or sorted(checksums) != sorted(cache_files()):
            raise ValueError("no file checksums (written by an older kubasolve)")
        if not verify_files(folder, checksums):
            raise ValueError("a file is damaged (checksum mismatch)")
        for name in ARRAY_NAMES:
            if (folder / f"{name}.npy").stat().st_size != meta["file_sizes"][name]:
                raise ValueError(f"{name}.npy has the wrong size")
        arrays = {name: np.load(folder / f"{name}.npy", mmap_mode="r", allow_pickle=False) for name in ARRAY_NAMES}
        compiled = CompiledLexicon(**arrays)
        compiled.check_shapes(n_letters)
        trie = marisa_trie.Trie()
        trie.mmap(str(folder / "words.marisa"))
        rtrie = marisa_trie.Trie()
        rtrie.mmap(str(folder / "rwords.marisa"))
        if len(trie) != compiled.n_words or len(rtrie) != compiled.n_words or len(trie) != meta["n_words"]:
            raise ValueError("word counts disagree")
        return meta, trie, rtrie, compiled
    except Exception as exc:  # noqa: BLE001 - any damage at all means: rebuild
        log.warning("lexicon cache %s is unusable (%s); rebuilding it", folder, exc)
        return None
