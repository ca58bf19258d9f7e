"""On-disk cache of compiled lexicons: one folder per (source, alphabet, format) key, loaded mmapped.

The folder holds ``meta.json``, the two marisa-tries (``words.marisa``, ``rwords.marisa``) and one
``.npy`` per array of ``layout.py``. It is written to a temporary folder and renamed into place, so a
crash never leaves a half-written cache; one that is corrupt or stale anyway is rebuilt.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import marisa_trie
import numpy as np

from kubasolve.lexicon.compiled import ARRAY_NAMES, CompiledLexicon
from kubasolve.lexicon.layout import FORMAT_VERSION

log = logging.getLogger("kubasolve.lexicon")


def cache_root() -> Path:
    """``$KUBASOLVE_CACHE_DIR`` or the user cache folder (e.g. ``~/.cache/kubasolve``)."""
    env = os.environ.get("KUBASOLVE_CACHE_DIR")
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("kubasolve", appauthor=False))


def cache_key(source_bytes: bytes, settings: dict[str, Any]) -> str:
    """Key of a compiled lexicon: hash of the source file, the build settings and the format version."""
    h = hashlib.sha256()
    h.update(json.dumps({"format": FORMAT_VERSION, **settings}, sort_keys=True).encode())
    h.update(source_bytes)
    return h.hexdigest()


def cache_dir_for(key: str, root: Path | None = None) -> Path:
    return (root or cache_root()) / "lexicons" / key[:32]


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
            full_meta = {**meta, "format": FORMAT_VERSION, "key": key, "file_sizes": sizes}
            (tmp / "meta.json").write_text(json.dumps(full_meta, indent=1))
            if folder.exists():
                shutil.rmtree(folder, ignore_errors=True)
            os.replace(tmp, folder)
        finally:
            if tmp.exists():
                shutil.rmtree(tmp, ignore_errors=True)
        return True
    except OSError as exc:
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
    except Exception as exc:  # any damage means: rebuild
        log.warning("lexicon cache %s is unusable (%s); rebuilding it", folder, exc)
        return None
