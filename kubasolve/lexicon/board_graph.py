"""The board move generator's lexicon graph: a minimised GADDAG in one flat array, cached mmapped.

Built from any :class:`~kubasolve.lexicon.Lexicon` (words of length 2..``max_len``) by
``kubasolve/kernels/gaddag_build.py``, which documents the layout: ``nodes`` int64[n], one word per
edge (the symbol set of the target's children, an accepts bit, the first child edge); a node is
named by the edge entering it, edge 0 enters the root; symbol ``n_letters`` is the separator.

The arrays are saved next to the lexicon's compiled cache (``board_graph-v<F>-len<N>/``), written
to a temporary folder and renamed into place, and checked on load (format, lexicon key, sizes,
shapes and a CRC-32 of each array, which also faults every page in once); anything wrong means:
rebuild. Lexicons built in memory keep their graph in memory for the process's lifetime.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
import time
import weakref
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from kubasolve.errors import LexiconError
from kubasolve.lexicon.compiled import encode_words
from kubasolve.lexicon.lexicon import Lexicon

log = logging.getLogger("kubasolve.lexicon")

GRAPH_FORMAT = 4
"""Bump when the arrays change meaning; older cached graphs are then rebuilt."""

ARRAYS = ("nodes", "letter_keys", "word_set")
MAX_LETTERS = 31
"""A node word holds the child symbol set in 32 bits: 31 letters and the separator."""
_SHAPES = {"nodes": 1, "letter_keys": 1, "word_set": 1}
"""Number of dimensions of each cached array (all int64)."""


def letter_keys(n_letters: int) -> np.ndarray:
    """Fixed pseudo-random 62-bit keys, one per letter (splitmix64 of the letter code, so the same
    on every platform and version): a multiset of letters hashes to the (wrapping) sum of its keys."""
    out = []
    for x in range(n_letters):
        z = (0x9E3779B97F4A7C15 * (x + 1) + 0x2026_1203) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        z ^= z >> 31
        out.append((z >> 2) | 1)
    return np.array(out, np.int64)


@dataclass(frozen=True)
class BoardGraph:
    """GADDAG arrays plus what they were built from; ``build_s``/``load_s`` are wall times.

    ``word_set`` is an open-addressing hash set (0 = free slot) of the letter-multiset hashes
    (sums of ``letter_keys``) of every word: the best-move search asks it whether a rack plus the
    tiles in reach anagram to any word before it counts a bingo bonus in its bounds."""

    nodes: np.ndarray
    n_letters: int
    max_len: int
    n_words: int
    letter_keys: np.ndarray
    word_set: np.ndarray
    build_s: float = 0.0
    load_s: float = 0.0
    from_cache: bool = False

    @property
    def separator(self) -> int:
        return self.n_letters

    @property
    def n_edges(self) -> int:
        return int(self.nodes.shape[0])

    @property
    def nbytes(self) -> int:
        """Bytes of the GADDAG itself (``nodes``)."""
        return int(self.nodes.nbytes)

    def info(self) -> dict[str, Any]:
        return {
            "edges": self.n_edges,
            "bytes": self.nbytes,
            "word_set_bytes": int(self.word_set.nbytes),
            "words": self.n_words,
            "max_len": self.max_len,
            "build_s": self.build_s,
            "load_s": self.load_s,
            "from_cache": self.from_cache,
        }


def build_board_graph(words: list[str], alphabet_letters: str, max_len: int = 15) -> BoardGraph:
    """Compile the GADDAG of ``words`` (letters of ``alphabet_letters``; lengths outside 2..max_len skipped)."""
    from kubasolve.kernels.board_movegen import word_multisets
    from kubasolve.kernels.gaddag_build import (
        build_trie,
        gaddag_keys,
        layout_edges,
        minimise,
    )
    from kubasolve.lexicon.alphabet import Alphabet

    t0 = time.perf_counter()
    n_letters = len(alphabet_letters)
    if n_letters > MAX_LETTERS:
        raise LexiconError(f"the board graph supports alphabets of at most {MAX_LETTERS} letters, this one has {n_letters}")
    kept = [w for w in words if 2 <= len(w) <= max_len]
    codes, offsets = encode_words(kept, Alphabet(alphabet_letters))
    n_key = (max_len + 1 + 9) // 10
    keys = gaddag_keys(codes, offsets, n_letters, n_key)
    if keys.shape[0] == 0:
        nodes = np.zeros(1, np.int64)
    else:
        order = np.lexsort(tuple(keys[:, k] for k in range(n_key - 1, -1, -1))).astype(np.int64)
        del_keys = keys
        parent, label, terminal = build_trie(del_keys, order)
        del keys, del_keys, order
        cls, c_term, c_first, c_count, slot_sym, slot_cls = minimise(parent, label, terminal)
        nodes = layout_edges(int(cls[0]), c_term, c_first, c_count, slot_sym, slot_cls)
    keys = letter_keys(n_letters)
    word_set = word_multisets(nodes, n_letters, keys, 2, max_len, len(kept))
    for arr in (nodes, keys, word_set):
        # Read-only, like the memory maps later runs load: numba types a read-only array apart from a
        # writable one, so handing out writable arrays on the first run compiled every move generator
        # kernel twice (once for each kind, .1.nbc and .2.nbc) across the first two runs.
        arr.flags.writeable = False
    return BoardGraph(nodes, n_letters, max_len, len(kept), keys, word_set, build_s=time.perf_counter() - t0)


_MEMO: weakref.WeakKeyDictionary[Lexicon, dict[int, BoardGraph]] = weakref.WeakKeyDictionary()


def _folder(lexicon: Lexicon, max_len: int) -> Path | None:
    if lexicon.cache_dir is None:
        return None
    return Path(lexicon.cache_dir) / f"board_graph-v{GRAPH_FORMAT}-len{max_len}"


def _crc(arr: np.ndarray) -> int:
    return zlib.crc32(np.ascontiguousarray(arr).view(np.uint8).data)


def _save(folder: Path, graph: BoardGraph, lexicon: Lexicon) -> None:
    try:
        tmp = Path(tempfile.mkdtemp(prefix=".tmp-graph-", dir=folder.parent))
        try:
            meta: dict[str, Any] = {"format": GRAPH_FORMAT, "lexicon": str(lexicon.cache_dir), "n_words_lexicon": len(lexicon),
                                    "n_letters": graph.n_letters, "max_len": graph.max_len, "n_words": graph.n_words,
                                    "build_s": graph.build_s, "arrays": {}}
            for name in ARRAYS:
                arr = getattr(graph, name)
                np.save(tmp / f"{name}.npy", arr)
                meta["arrays"][name] = {"shape": list(arr.shape), "bytes": (tmp / f"{name}.npy").stat().st_size, "crc32": _crc(arr)}
            (tmp / "meta.json").write_text(json.dumps(meta, indent=1))
            if folder.exists():
                shutil.rmtree(folder, ignore_errors=True)
            os.replace(tmp, folder)
        finally:
            if tmp.exists():
                shutil.rmtree(tmp, ignore_errors=True)
    except OSError as exc:
        log.warning("cannot write the board graph cache in %s (%s); using it from memory only", folder, exc)
        return
    _remove_stale(folder)


def _remove_stale(folder: Path) -> None:
    """Delete the graphs of older formats for the same word length next to ``folder`` (this
    version rebuilt them, so they are dead weight: 20-45 MB each for the nl list)."""
    prefix, _, suffix = folder.name.partition(f"-v{GRAPH_FORMAT}-")
    for old in folder.parent.glob(f"{prefix}-v*-{suffix}"):
        version = old.name[len(prefix) + 2 : -len(suffix) - 1]
        if old != folder and version.isdigit() and int(version) < GRAPH_FORMAT:
            shutil.rmtree(old, ignore_errors=True)


def _load(folder: Path, lexicon: Lexicon, max_len: int) -> BoardGraph | None:
    meta_path = folder / "meta.json"
    if not meta_path.exists():
        return None
    t0 = time.perf_counter()
    try:
        meta = json.loads(meta_path.read_text())
        if meta.get("format") != GRAPH_FORMAT or meta.get("max_len") != max_len:
            raise ValueError("stale (other format or word length)")
        if meta.get("n_letters") != len(lexicon.alphabet) or meta.get("n_words_lexicon") != len(lexicon):
            raise ValueError("built from another lexicon")
        arrays = {}
        for name in ARRAYS:
            info = meta["arrays"][name]
            path = folder / f"{name}.npy"
            if path.stat().st_size != info["bytes"]:
                raise ValueError(f"{name}.npy has the wrong size")
            arr = np.load(path, mmap_mode="r", allow_pickle=False)
            if arr.dtype != np.int64 or list(arr.shape) != info["shape"] or arr.ndim != _SHAPES[name]:
                raise ValueError(f"{name}.npy has the wrong shape or type")
            if _crc(arr) != info["crc32"]:
                raise ValueError(f"{name}.npy is damaged (checksum)")
            arrays[name] = np.asarray(arr).view(np.ndarray)
        if arrays["nodes"].shape[0] < 1:
            raise ValueError("no root")
        if not np.array_equal(arrays["letter_keys"], letter_keys(meta["n_letters"])):
            raise ValueError("letter keys differ from this version's")
        ws = arrays["word_set"].shape[0]
        if ws < 2 or ws & (ws - 1):
            raise ValueError("word_set size is not a power of two")
        return BoardGraph(arrays["nodes"], meta["n_letters"], max_len, meta["n_words"], arrays["letter_keys"], arrays["word_set"],
                          build_s=float(meta.get("build_s", 0.0)), load_s=time.perf_counter() - t0, from_cache=True)
    except Exception as exc:  # noqa: BLE001 - any damage means: rebuild
        log.warning("board graph cache %s is unusable (%s); rebuilding it", folder, exc)
        return None


def load_board_graph(lexicon: Lexicon, max_len: int = 15, *, use_cache: bool = True) -> BoardGraph:
    """The GADDAG of ``lexicon`` for words up to ``max_len`` letters: from memory, the disk cache, or built."""
    per_lex = _MEMO.setdefault(lexicon, {})
    if max_len in per_lex:
        return per_lex[max_len]
    folder = _folder(lexicon, max_len) if use_cache else None
    graph = _load(folder, lexicon, max_len) if folder is not None else None
    if graph is None:
        graph = build_board_graph(list(lexicon), lexicon.alphabet.letters, max_len)
        if folder is not None:
            _save(folder, graph, lexicon)
    per_lex[max_len] = graph
    return graph
