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
def _same_node(u, v, first_edge, edges, node_word, canon):
    """True when trie nodes u and v have equal terminal flags and equal (letter, canonical child) lists."""
    if (node_word[u] >= 0) != (node_word[v] >= 0):
        return False
    nu = first_edge[u + 1] - first_edge[u]
    if nu != first_edge[v + 1] - first_edge[v]:
        return False
    for i in range(nu):
        eu = edges[first_edge[u] + i]
        ev = edges[first_edge[v] + i]
        if (eu & 63) != (ev & 63):
            return False
        if canon[np.int64(eu >> LETTER_BITS)] != canon[np.int64(ev >> LETTER_BITS)]:
            return False
    return True


@njit(cache=True)
def minimise_trie(first_edge, edges, node_word):
    """Canonical node of every trie node: equal sub-tries share one node (the trie becomes a DAWG).

    Bottom-up (children have larger pre-order indices), hashing each node's terminal flag and
    (letter, canonical child) list into an open-addressing table, with exact comparison on a hit.
    """
    n = first_edge.shape[0] - 1
    canon = np.empty(n, np.int64)
    size = 1
    while size < 2 * n:
        size *= 2
    mask = size - 1
    table_node = np.full(size, -1, np.int64)
    table_hash = np.zeros(size, np.uint64)
    for v in range(n - 1, -1, -1):
        h = np.uint64(1469598103934665603) ^ np.uint64(1 if node_word[v] >= 0 else 2)
        for e in range(first_edge[v], first_edge[v + 1]):
            h = (h ^ np.uint64(edges[e] & 63)) * np.uint64(1099511628211)
            h = (h ^ np.uint64(canon[np.int64(edges[e] >> LETTER_BITS)])) * np.uint64(1099511628211)
        slot = np.int64(h & np.uint64(mask))
        while True:
            u = table_node[slot]
            if u < 0:
                table_node[slot] = v
                table_hash[slot] = h
                canon[v] = v
                break
            if table_hash[slot] == h and _same_node(u, v, first_edge, edges, node_word, canon):
                canon[v] = u
                break
            slot = (slot + 1) & mask
    return canon


@njit(cache=True)
def pack_search_edges(first_edge, edges, node_word, node_height):
    """The minimised search graph (DAWG) as packed u64 edges, plus per-edge rank increments.

    A descent reads one array only: each edge carries its letter, and its target's terminal flag,
    height, out-degree and first out-edge position. Equal sub-tries are stored once, so the graph
    is several times smaller than the trie and far more of it stays in cache. Edge lists are laid
    out for locality: nodes up to depth ``HOT_DEPTH`` level by level (every search visits them),
    then the others in depth-first order. ``edge_rank[e]`` is what taking edge ``e`` adds to a
    word's rank (its index in sorted order): 1 if the source node is itself a word, plus the
    words below the earlier sibling edges. Returns ``(search_edges, edge_rank)``.
    """
    n = first_edge.shape[0] - 1
    canon = minimise_trie(first_edge, edges, node_word)
    words_below = np.zeros(n, np.int64)
    for v in range(n - 1, -1, -1):
        w = 1 if node_word[v] >= 0 else 0
        for e in range(first_edge[v], first_edge[v + 1]):
            w += words_below[np.int64(edges[e] >> LETTER_BITS)]
        words_below[v] = w
    depth = np.zeros(n, np.int64)
    for v in range(n):  # parents precede children (pre-order numbering)
        for e in range(first_edge[v], first_edge[v + 1]):
            depth[np.int64(edges[e] >> LETTER_BITS)] = depth[v] + 1
    # canonical nodes in layout order: shallow ones level by level, then the rest in pre-order
    order = np.empty(n, np.int64)
    k = 0
    for d in range(HOT_DEPTH + 1):
        for v in range(n):
            if canon[v] == v and depth[v] == d:
                order[k] = v
                k += 1
    for v in range(n):
        if canon[v] == v and depth[v] > HOT_DEPTH:
            order[k] = v
            k += 1
    pos = np.full(n, -1, np.int64)
    p = 0
    for i in range(k):
        v = order[i]
        pos[v] = p
        p += first_edge[v + 1] - first_edge[v]
    packed = np.empty(p, np.uint64)
    edge_rank = np.empty(p, np.uint32)
    for i in range(k):
        v = order[i]
        skip = 1 if node_word[v] >= 0 else 0
        for j in range(first_edge[v + 1] - first_edge[v]):
            e = first_edge[v] + j
            ch = canon[np.int64(edges[e] >> LETTER_BITS)]
            letter = np.uint64(edges[e] & 63)
            term = np.uint64(1) if node_word[ch] >= 0 else np.uint64(0)
            n_child = np.uint64(first_edge[ch + 1] - first_edge[ch])
            q = pos[v] + j
            packed[q] = (
                (np.uint64(pos[ch]) << np.uint64(32))
                | (n_child << np.uint64(16))
                | (np.uint64(node_height[ch]) << np.uint64(8))
                | (term << np.uint64(7))
                | letter
            )
            edge_rank[q] = skip
            skip += words_below[ch]
    return packed, edge_rank
