"""Build a minimised GADDAG (Gordon 1994) as one flat edge array, for the board move generator.

Every word ``w`` of length ``n`` is stored as the ``n`` strings ``rev(w[:i]) + SEP + w[i:]`` for
``i = 1..n-1`` and ``rev(w)`` (``i = n``, no separator), so a move can be grown from any square of
the word: leftwards first (the reversed prefix), then across the separator rightwards.

Steps (all here, in numba):

1. ``gaddag_keys``: each string packed into ``n_key`` uint64 words, 6 bits a symbol (symbol = code
   + 1, so 0 pads and a prefix sorts before its extensions). The caller sorts the keys (numpy
   ``lexsort``).
2. ``build_trie``: a trie from the sorted keys: nodes in depth-first pre-order (a parent before its
   children, children in symbol order), each with its parent, its symbol and a terminal flag.
3. ``minimise``: nodes bottom-up (reverse pre-order); a node's signature is its terminal flag and the
   list of (symbol, class of child); equal signatures share one class (open-addressing hash table,
   equality checked on the stored edge lists). The result is the minimal automaton (a DAG).
4. ``layout_edges``: the classes laid out breadth-first from the root into the final arrays.

Final layout (``lexicon/board_graph.py`` documents it too): ``nodes`` int64[n_edges], one word an
edge; a node is named by the index of the edge that enters it; edge 0 is a pseudo-edge entering the
root. ``nodes[e]`` packs bits 0-31 the set of symbols of the target's children (bit = symbol code;
at most 31 letters and the separator), bit 32 "accepts" (the path through this edge spells a
complete GADDAG string) and bits 33-63 the index of the target's first child edge, so the child
with symbol ``x`` is ``first + popcount(mask & ((1 << x) - 1))``: O(1), no scan, one load a step.
An edge's own symbol is not stored (its parent's mask names it). 8 bytes an edge, half the
former two-word layout.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kubasolve.kernels.arrays import copy_prefix

SYMBOL_BITS = 6
SYMBOLS_PER_KEY = 10
CHILD_MASK_BITS = 32
ACCEPT_BIT = 32
FIRST_SHIFT = 33


@njit(cache=True)
def gaddag_keys(codes, offsets, sep, n_key):
    """Packed keys of all GADDAG strings of the words ``codes[offsets[i]:offsets[i+1]]``."""
    n_words = offsets.shape[0] - 1
    total = 0
    for i in range(n_words):
        total += offsets[i + 1] - offsets[i]
    keys = np.zeros((total, n_key), np.uint64)
    row = 0
    buf = np.zeros(n_key * SYMBOLS_PER_KEY, np.int64)
    for w in range(n_words):
        a = offsets[w]
        n = offsets[w + 1] - a
        for i in range(1, n + 1):
            m = 0
            for j in range(i - 1, -1, -1):
                buf[m] = codes[a + j] + 1
                m += 1
            if i < n:
                buf[m] = sep + 1
                m += 1
                for j in range(i, n):
                    buf[m] = codes[a + j] + 1
                    m += 1
            for j in range(m):
                k = j // SYMBOLS_PER_KEY
                shift = SYMBOL_BITS * (SYMBOLS_PER_KEY - 1 - j % SYMBOLS_PER_KEY)
                keys[row, k] |= np.uint64(buf[j]) << np.uint64(shift)
            row += 1
    return keys


@njit(cache=True)
def _symbol(keys, row, j):
    k = j // SYMBOLS_PER_KEY
    shift = SYMBOL_BITS * (SYMBOLS_PER_KEY - 1 - j % SYMBOLS_PER_KEY)
    return np.int64((keys[row, k] >> np.uint64(shift)) & np.uint64(63))


@njit(cache=True)
def build_trie(keys, order):
    """Trie of the keys taken in ``order`` (sorted): (parent, symbol code, terminal) per node."""
    n = order.shape[0]
    n_key = keys.shape[1]
    max_len = n_key * SYMBOLS_PER_KEY
    cap = 1024
    parent = np.empty(cap, np.int32)
    label = np.empty(cap, np.int8)
    terminal = np.zeros(cap, np.bool_)
    parent[0] = -1
    label[0] = -1
    n_nodes = 1
    path = np.zeros(max_len + 1, np.int64)
    # typed counters, not literals: a literal argument compiles _symbol once more (kernels/__init__.py)
    prev: int = np.int64(-1)  # type: ignore[assignment]
    prev_len = 0
    for t in range(n):
        row = order[t]
        ln: int = np.int64(0)  # type: ignore[assignment]
        while ln < max_len and _symbol(keys, row, ln) != 0:
            ln += 1
        lcp: int = np.int64(0)  # type: ignore[assignment]
        if prev >= 0:
            lim = min(ln, prev_len)
            while lcp < lim and _symbol(keys, row, lcp) == _symbol(keys, prev, lcp):
                lcp += 1
        if n_nodes + ln - lcp > cap:
            new_cap = max(2 * cap, n_nodes + ln - lcp + 1)
            p2 = np.empty(new_cap, np.int32)
            copy_prefix(p2, parent, n_nodes)
            l2 = np.empty(new_cap, np.int8)
            copy_prefix(l2, label, n_nodes)
            t2 = np.zeros(new_cap, np.bool_)
            copy_prefix(t2, terminal, n_nodes)
            parent, label, terminal, cap = p2, l2, t2, new_cap
        for d in range(lcp, ln):
            v = n_nodes
            n_nodes += 1
            parent[v] = path[d]
            label[v] = _symbol(keys, row, d) - 1
            path[d + 1] = v
        terminal[path[ln]] = True
        prev = row
        prev_len = ln
    return parent[:n_nodes].copy(), label[:n_nodes].copy(), terminal[:n_nodes].copy()


@njit(cache=True)
def minimise(parent, label, terminal):
    """Merge equal sub-tries. Returns (class of each trie node, per class: terminal flag, first
    child slot, child count) and the child slots (symbol, child class), classes numbered bottom-up."""
    n = parent.shape[0]
    first_child = np.zeros(n + 1, np.int64)
    for v in range(1, n):
        first_child[parent[v] + 1] += 1
    for v in range(n):
        first_child[v + 1] += first_child[v]
    fill = first_child[:-1].copy()
    children = np.empty(max(n - 1, 1), np.int32)
    for v in range(1, n):  # pre-order: each parent's children are met in symbol order
        p = parent[v]
        children[fill[p]] = v
        fill[p] += 1
    cls = np.empty(n, np.int32)
    c_term = np.empty(n, np.bool_)
    c_first = np.empty(n, np.int64)
    c_count = np.empty(n, np.int32)
    slot_sym = np.empty(max(n - 1, 1), np.int8)
    slot_cls = np.empty(max(n - 1, 1), np.int32)
    n_cls = 0
    n_slots = 0
    table_size = 1
    while table_size < 2 * n:
        table_size *= 2
    table = np.full(table_size, -1, np.int32)
    mask = table_size - 1
    for v in range(n - 1, -1, -1):
        a = first_child[v]
        b = first_child[v + 1]
        h = np.uint64(1469598103934665603) ^ np.uint64(terminal[v])
        for j in range(a, b):
            c = children[j]
            h = (h ^ np.uint64(label[c] + 1)) * np.uint64(1099511628211)
            h = (h ^ np.uint64(cls[c] + 7)) * np.uint64(1099511628211)
        slot = np.int64(h & np.uint64(mask))
        found = -1
        while table[slot] >= 0:
            k = table[slot]
            if c_term[k] == terminal[v] and c_count[k] == b - a:
                same = True
                base = c_first[k]
                for j in range(a, b):
                    c = children[j]
                    if slot_sym[base + j - a] != label[c] or slot_cls[base + j - a] != cls[c]:
                        same = False
                        break
                if same:
                    found = k
                    break
            slot = (slot + 1) & mask
        if found < 0:
            found = n_cls
            n_cls += 1
            c_term[found] = terminal[v]
            c_first[found] = n_slots
            c_count[found] = b - a
            for j in range(a, b):
                c = children[j]
                slot_sym[n_slots] = label[c]
                slot_cls[n_slots] = cls[c]
                n_slots += 1
            table[slot] = found
        cls[v] = found
    return cls, c_term[:n_cls].copy(), c_first[:n_cls].copy(), c_count[:n_cls].copy(), slot_sym[:n_slots].copy(), slot_cls[:n_slots].copy()


@njit(cache=True)
def layout_edges(root_cls, c_term, c_first, c_count, slot_sym, slot_cls):
    """Final ``nodes[e]``, one 64-bit word per edge: the symbol set of the target's children (bits
    0-31), accepts (bit 32), the index of its first child edge (bits 33-63); classes placed
    breadth-first from the root, children contiguous and sorted by symbol."""
    n_cls = c_term.shape[0]
    placed_at = np.full(n_cls, -1, np.int64)  # index of the class's first child edge
    queue = np.empty(n_cls, np.int32)
    head = 0
    tail = 0
    next_free = 1
    queue[tail] = root_cls
    tail += 1
    placed_at[root_cls] = next_free
    next_free += c_count[root_cls]
    while head < tail:
        k = queue[head]
        head += 1
        for j in range(c_count[k]):
            child = slot_cls[c_first[k] + j]
            if c_count[child] > 0 and placed_at[child] < 0:
                placed_at[child] = next_free
                next_free += c_count[child]
                queue[tail] = child
                tail += 1
    # one word per edge: the target's child symbols (bits 0-31), accepts (bit 32), first child (33-)
    nodes = np.zeros(next_free, np.int64)
    for k in range(n_cls):
        if placed_at[k] < 0:
            continue
        base = placed_at[k]
        for j in range(c_count[k]):
            child = slot_cls[c_first[k] + j]
            word = np.int64(0)
            for jj in range(c_count[child]):
                word |= np.int64(1) << slot_sym[c_first[child] + jj]
            if c_term[child]:
                word |= np.int64(1) << ACCEPT_BIT
            if c_count[child] > 0:
                word |= placed_at[child] << FIRST_SHIFT
            nodes[base + j] = word
    root = np.int64(0)
    for jj in range(c_count[root_cls]):
        root |= np.int64(1) << slot_sym[c_first[root_cls] + jj]
    nodes[0] = root | (placed_at[root_cls] << FIRST_SHIFT)
    return nodes
