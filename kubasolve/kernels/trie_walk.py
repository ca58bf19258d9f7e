"""Elementary walks over the CSR trie (see ``lexicon/layout.py``): child lookup, word lookup, listing."""

from __future__ import annotations

import numpy as np
from numba import njit

from kubasolve.kernels.arrays import copy_prefix

LETTER_BITS = 6
LETTER_MASK = 63


@njit(cache=True, inline="always")
def child(first_edge, edges, node, letter):
    """Child of ``node`` along ``letter``, or -1."""
    for e in range(first_edge[node], first_edge[node + 1]):
        packed = edges[e]
        lab = packed & LETTER_MASK
        if lab == letter:
            return np.int64(packed >> LETTER_BITS)
        if lab > letter:
            break
    return np.int64(-1)


@njit(cache=True)
def walk(first_edge, edges, codes):
    """Node reached by spelling ``codes`` from the root, or -1."""
    node = np.int64(0)
    for i in range(codes.shape[0]):
        node = child(first_edge, edges, node, codes[i])
        if node < 0:
            return node
    return node


@njit(cache=True)
def terminal_ids_below(first_edge, edges, node_word, start):
    """Word ids of all terminals in the subtree of ``start`` (pre-order: sorted by code sequence)."""
    out = np.empty(16, np.int32)
    n = 0
    stack = np.empty(300, np.int64)
    stack[0] = start
    sp = 1
    while sp > 0:
        sp -= 1
        v = stack[sp]
        if node_word[v] >= 0:
            if n == out.shape[0]:
                bigger = np.empty(out.shape[0] * 2, np.int32)
                copy_prefix(bigger, out, n)
                out = bigger
            out[n] = node_word[v]
            n += 1
        # push children in reverse so the smallest letter is visited first
        need = sp + first_edge[v + 1] - first_edge[v]
        if need > stack.shape[0]:  # pending siblings can exceed any fixed size: grow
            grown = np.empty(max(need, stack.shape[0] * 2), np.int64)
            copy_prefix(grown, stack, sp)
            stack = grown
        for e in range(first_edge[v + 1] - 1, first_edge[v] - 1, -1):
            stack[sp] = edges[e] >> LETTER_BITS
            sp += 1
    return out[:n]
