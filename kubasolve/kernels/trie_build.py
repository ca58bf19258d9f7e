"""Compile a sorted, de-duplicated list of encoded words into the CSR trie of ``lexicon/layout.py``."""

from __future__ import annotations

import numpy as np
from numba import njit

LETTER_BITS = 6  # mirrors kubasolve.lexicon.layout (kernels import nothing from the package)


@njit(cache=True)
def build_trie(codes, offsets, word_ids, n_letters):
    """Build the trie arrays from words ``codes[offsets[i]:offsets[i+1]]``, sorted by code sequence.

    Returns ``(first_edge, edges, node_word, node_height)``; see ``lexicon/layout.py``.
    """
    n_words = offsets.shape[0] - 1
    max_nodes = codes.shape[0] + 1
    parent = np.empty(max_nodes, np.int32)
    label = np.empty(max_nodes, np.uint8)
    node_word = np.full(max_nodes, -1, np.int32)
    maxlen = 0
    for i in range(n_words):
        ln = offsets[i + 1] - offsets[i]
        if ln > maxlen:
            maxlen = ln
    path = np.zeros(maxlen + 1, np.int32)
    n_nodes = 1
    parent[0] = -1
    label[0] = 0
    prev_start = 0
    prev_len = 0
    for i in range(n_words):
        start = offsets[i]
        ln = offsets[i + 1] - start
        lcp = 0
        lim = min(ln, prev_len)
        while lcp < lim and codes[start + lcp] == codes[prev_start + lcp]:
            lcp += 1
        for d in range(lcp, ln):
            v = n_nodes
            n_nodes += 1
            parent[v] = path[d]
            label[v] = codes[start + d]
            path[d + 1] = v
        node_word[path[ln]] = word_ids[i]
        prev_start = start
        prev_len = ln
    # CSR: children are created in increasing letter order per parent.
    first_edge = np.zeros(n_nodes + 1, np.int32)
    for v in range(1, n_nodes):
        first_edge[parent[v] + 1] += 1
    for v in range(n_nodes):
        first_edge[v + 1] += first_edge[v]
    fill = first_edge[:-1].copy()
    edges = np.empty(n_nodes - 1, np.uint32)
    for v in range(1, n_nodes):
        p = parent[v]
        edges[fill[p]] = (np.uint32(v) << LETTER_BITS) | np.uint32(label[v])
        fill[p] += 1
    height = np.zeros(n_nodes, np.uint8)
    for v in range(n_nodes - 1, 0, -1):
        h = height[v] + 1
        if h > height[parent[v]]:
            height[parent[v]] = h
    return first_edge, edges, node_word[:n_nodes].copy(), height


@njit(cache=True)
def build_counts(codes, offsets, word_ids, n_letters, n_ids):
    """Letter-count matrix (row = word id) and word lengths."""
    counts = np.zeros((n_ids, n_letters), np.uint8)
    lengths = np.zeros(n_ids, np.uint8)
    for i in range(offsets.shape[0] - 1):
        w = word_ids[i]
        lengths[w] = offsets[i + 1] - offsets[i]
        for k in range(offsets[i], offsets[i + 1]):
            counts[w, codes[k]] += 1
    return counts, lengths


HOT_DEPTH = 3  # mirrors kubasolve.lexicon.layout.SEARCH_HOT_DEPTH


@njit(cache=True)
def pack_search_edges(first_edge, edges, node_word, node_height):
    """Packed u64 edges carrying the child's letter, terminal flag, height and edge range.

    A descent then reads one array only. Edge lists are laid out for cache locality: the lists of
    all nodes up to depth ``HOT_DEPTH`` first, level by level (they are visited by every search and
    stay in cache), then the deeper ones in depth-first order (a search walks them in that order).
    ``edge_word[e]`` is the word id ending at edge ``e``'s child (-1 if none).
    """
    n_nodes = first_edge.shape[0] - 1
    n_edges = edges.shape[0]
    depth = np.zeros(n_nodes, np.int64)
    for v in range(n_nodes):  # parents precede children (pre-order numbering)
        for e in range(first_edge[v], first_edge[v + 1]):
            depth[np.int64(edges[e] >> LETTER_BITS)] = depth[v] + 1
    order = np.empty(n_nodes, np.int64)
    k = 0
    for d in range(HOT_DEPTH + 1):
        for v in range(n_nodes):
            if depth[v] == d:
                order[k] = v
                k += 1
    for v in range(n_nodes):
        if depth[v] > HOT_DEPTH:
            order[k] = v
            k += 1
    pos = np.empty(n_nodes, np.int64)
    p = 0
    for i in range(n_nodes):
        v = order[i]
        pos[v] = p
        p += first_edge[v + 1] - first_edge[v]
    packed = np.empty(n_edges, np.uint64)
    edge_word = np.empty(n_edges, np.int32)
    for v in range(n_nodes):
        for i in range(first_edge[v + 1] - first_edge[v]):
            e = first_edge[v] + i
            ch = np.int64(edges[e] >> LETTER_BITS)
            letter = np.uint64(edges[e] & 63)
            term = np.uint64(1) if node_word[ch] >= 0 else np.uint64(0)
            n_child = np.uint64(first_edge[ch + 1] - first_edge[ch])
            q = pos[v] + i
            packed[q] = (
                (np.uint64(pos[ch]) << np.uint64(32))
                | (n_child << np.uint64(16))
                | (np.uint64(node_height[ch]) << np.uint64(8))
                | (term << np.uint64(7))
                | letter
            )
            edge_word[q] = node_word[ch]
    return packed, edge_word
