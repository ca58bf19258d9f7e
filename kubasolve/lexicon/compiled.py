"""The numba-ready form of a lexicon: flat arrays (layout in ``lexicon/layout.py``) and their build."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kubasolve.lexicon.alphabet import Alphabet

ARRAY_NAMES = ("first_edge", "edges", "node_word", "node_height", "search_edges", "edge_rank", "rank_word", "word_counts", "word_length")


@dataclass(frozen=True)
class CompiledLexicon:
    """Trie in CSR form plus the per-word letter-count matrix; all arrays may be memory-mapped."""

    first_edge: np.ndarray
    edges: np.ndarray
    node_word: np.ndarray
    node_height: np.ndarray
    search_edges: np.ndarray
    edge_rank: np.ndarray
    rank_word: np.ndarray
    word_counts: np.ndarray
    word_length: np.ndarray

    @property
    def n_nodes(self) -> int:
        return int(self.first_edge.shape[0] - 1)

    @property
    def n_words(self) -> int:
        return int(self.word_length.shape[0])

    @property
    def nbytes(self) -> int:
        return int(sum(getattr(self, n).nbytes for n in ARRAY_NAMES))

    def arrays(self) -> dict[str, np.ndarray]:
        return {n: getattr(self, n) for n in ARRAY_NAMES}

    def in_memory(self) -> CompiledLexicon:
        """Plain-ndarray views with every page touched once: memory-mapped pages are faulted in
        here instead of one by one inside the kernels, and numba dispatches faster on ndarrays."""
        views = {n: np.asarray(a).view(np.ndarray) for n, a in self.arrays().items()}
        for a in views.values():
            if a.size:
                a.reshape(-1)[:: max(1, 4096 // a.itemsize)].sum()  # one read per page
        return CompiledLexicon(**views)

    def check_shapes(self, n_letters: int) -> None:
        """Raise ValueError when the arrays do not fit together (e.g. a truncated cache file)."""
        n = self.n_nodes
        ok = (
            self.first_edge.dtype == np.int32
            and self.edges.dtype == np.uint32
            and self.node_word.dtype == np.int32
            and self.node_height.dtype == np.uint8
            and self.word_counts.dtype == np.uint8
            and self.word_length.dtype == np.uint8
            and self.edges.shape == (max(n - 1, 0),)
            and self.node_word.shape == (n,)
            and self.node_height.shape == (n,)
            and self.search_edges.dtype == np.uint64
            and self.search_edges.shape[0] <= self.edges.shape[0]
            and self.edge_rank.dtype == np.uint32
            and self.edge_rank.shape == self.search_edges.shape
            and self.rank_word.dtype == np.int32
            and self.rank_word.shape == (self.n_words,)
            and self.word_counts.shape == (self.n_words, n_letters)
            and int(self.first_edge[-1]) == self.edges.shape[0]
        )
        if not ok:
            raise ValueError("compiled lexicon arrays are inconsistent")


def encode_words(words: list[str], alphabet: Alphabet) -> tuple[np.ndarray, np.ndarray]:
    """Flat uint8 letter codes of all words and int64 offsets (``offsets[i]:offsets[i+1]`` = word i)."""
    table = {ord(c): i for i, c in enumerate(alphabet.letters)}
    joined = "".join(words).translate(table)
    codes = np.frombuffer(joined.encode("latin-1"), dtype=np.uint8).copy() if joined else np.zeros(0, np.uint8)
    offsets = np.zeros(len(words) + 1, np.int64)
    np.cumsum(np.fromiter((len(w) for w in words), dtype=np.int64, count=len(words)), out=offsets[1:])
    return codes, offsets


def compile_lexicon(words: list[str], word_ids: np.ndarray, alphabet: Alphabet) -> CompiledLexicon:
    """Compile ``words`` (sorted by :meth:`Alphabet.sort_key`, unique) with their ids."""
    from kubasolve.kernels.trie_build import build_counts, build_trie, pack_search_edges

    codes, offsets = encode_words(words, alphabet)
    ids = np.ascontiguousarray(word_ids, dtype=np.int32)
    first_edge, edges, node_word, node_height = build_trie(codes, offsets, ids, len(alphabet))
    search_edges, edge_rank = pack_search_edges(first_edge, edges, node_word, node_height)
    counts, lengths = build_counts(codes, offsets, ids, len(alphabet), len(words))
    return CompiledLexicon(first_edge, edges, node_word, node_height, search_edges, edge_rank, ids, counts, lengths)
