"""Search of compound words: sequences of two or more parts whose concatenation is a word.

Parts are table words (each used at most once) and, optionally, words formed from the field (at
most ``max_field_parts`` of them in one compound: they compete for the same tiles). The walk
follows the packed search edges of ``lexicon/layout.py``, so a sequence is abandoned as soon as its
concatenation stops being a prefix of some word.

Work budget: one node is one part tried at a point of the walk (a part's letters followed from the
current trie node); after ``max_nodes`` of them the search stops and answers with the compounds found
so far, each a real compound, with ``stopped`` set.
"""

from __future__ import annotations

import numpy as np
from numba import njit

LETTER_MASK = 63
TERMINAL_SHIFT = 7
NCHILD_SHIFT = 16
FIRST_SHIFT = 32


@njit(cache=True, inline="always")
def _walk(search_edges, lo, hi, codes, start, stop):
    """Follow letters ``codes[start:stop]`` from edge range lo:hi; returns (lo, hi, terminal) or lo=-1."""
    terminal = np.int64(0)
    for i in range(start, stop):
        c = codes[i]
        found = -1
        for e in range(lo, hi):
            lab = search_edges[e] & LETTER_MASK
            if lab == c:
                found = e
                break
            if lab > c:
                break
        if found < 0:
            return -1, -1, 0
        packed = search_edges[found]
        lo = np.int64(packed >> FIRST_SHIFT)
        hi = lo + np.int64((packed >> NCHILD_SHIFT) & 255)
        terminal = np.int64((packed >> TERMINAL_SHIFT) & 1)
    return lo, hi, terminal


@njit(cache=True)
def _by_first_letter(first, lo, hi):
    """CSR over letters 0..63 of the parts lo..hi-1 by first letter: (start[65], parts in index order)."""
    start = np.zeros(65, np.int64)
    for p in range(lo, hi):
        start[first[p] + 1] += 1
    for c in range(64):
        start[c + 1] += start[c]
    fill = start[:64].copy()
    parts = np.empty(max(hi - lo, 1), np.int64)
    for p in range(lo, hi):
        parts[fill[first[p]]] = p
        fill[first[p]] += 1
    return start, parts


@njit(cache=True)
def search_compounds(search_edges, root_lo, root_hi, part_codes, part_offsets, n_table, max_field_parts, max_parts, max_nodes):
    """All sequences of >= 2 distinct parts (<= max_parts) that spell a word.

    Parts ``0..n_table-1`` are table words, the others field words. Returns ``(flat, offsets)``:
    sequence ``s`` is ``flat[offsets[s]:offsets[s+1]]`` (part indices in compound order), then the
    number of nodes (parts tried) and whether ``max_nodes`` stopped the search before its end.

    At each node only the parts whose first letter labels an out-edge are tried, found through a
    first-letter index (table and field parts apart: once a compound holds ``max_field_parts`` field
    words, the field parts are not looked at). Sequences come out grouped by first letter, not in
    part-index order (callers sort).
    """
    n_parts = part_offsets.shape[0] - 1
    flat = np.empty(64, np.int32)
    n_flat = 0
    offs = np.empty(16, np.int64)
    offs[0] = 0
    n_seq = 0
    nodes = 0
    stopped = False
    if n_parts < 2 or max_parts < 2:
        return flat[:0], offs[:1], nodes, stopped
    first = np.empty(n_parts, np.int64)
    for p in range(n_parts):
        first[p] = part_codes[part_offsets[p]] if part_offsets[p + 1] > part_offsets[p] else 63
    t_start, t_parts = _by_first_letter(first, 0, n_table)
    f_start, f_parts = _by_first_letter(first, n_table, n_parts)
    cand = np.empty((max_parts + 1, n_parts), np.int64)  # candidate parts per depth, built on entry
    n_cand = np.zeros(max_parts + 1, np.int64)
    lo_s = np.empty(max_parts + 1, np.int64)
    hi_s = np.empty(max_parts + 1, np.int64)
    cur = np.empty(max_parts + 1, np.int64)
    seq = np.empty(max_parts + 1, np.int64)
    used = np.zeros(n_parts, np.bool_)
    lo_s[0] = root_lo
    hi_s[0] = root_hi
    cur[0] = 0
    depth = 0
    n_field = 0
    n_cand[0] = _candidates(search_edges, root_lo, root_hi, t_start, t_parts, f_start, f_parts,
                            n_field < max_field_parts, cand[0])
    while depth >= 0:
        advanced = False
        if depth < max_parts:
            while cur[depth] < n_cand[depth]:
                p = cand[depth, cur[depth]]
                cur[depth] += 1
                if used[p]:
                    continue
                if nodes >= max_nodes:
                    stopped = True
                    break
                nodes += 1
                lo, hi, term = _walk(search_edges, lo_s[depth], hi_s[depth], part_codes, part_offsets[p], part_offsets[p + 1])
                if lo < 0:
                    continue
                used[p] = True
                is_field = p >= n_table
                if is_field:
                    n_field += 1
                seq[depth] = p
                depth += 1
                lo_s[depth] = lo
                hi_s[depth] = hi
                cur[depth] = 0
                n_cand[depth] = 0
                if depth < max_parts and hi > lo:
                    n_cand[depth] = _candidates(search_edges, lo, hi, t_start, t_parts, f_start, f_parts,
                                                n_field < max_field_parts, cand[depth])
                if depth >= 2 and term:
                    if n_flat + depth > flat.shape[0]:
                        bigger = np.empty(max(flat.shape[0] * 2, n_flat + depth), np.int32)
                        bigger[:n_flat] = flat[:n_flat]
                        flat = bigger
                    for i in range(depth):
                        flat[n_flat + i] = seq[i]
                    n_flat += depth
                    n_seq += 1
                    if n_seq + 1 > offs.shape[0]:
                        bigger_o = np.empty(offs.shape[0] * 2, np.int64)
                        bigger_o[:n_seq] = offs[:n_seq]
                        offs = bigger_o
                    offs[n_seq] = n_flat
                advanced = True
                break
        if stopped:
            break
        if not advanced:
            depth -= 1
            if depth >= 0:
                p = seq[depth]
                used[p] = False
                if p >= n_table:
                    n_field -= 1
    return flat[:n_flat], offs[: n_seq + 1], nodes, stopped


@njit(cache=True, inline="always")
def _candidates(search_edges, lo, hi, t_start, t_parts, f_start, f_parts, with_field, out):
    """Parts whose first letter labels one of the out-edges lo:hi (table parts, then field parts if allowed)."""
    n = 0
    for e in range(lo, hi):
        c = search_edges[e] & LETTER_MASK
        for i in range(t_start[c], t_start[c + 1]):
            out[n] = t_parts[i]
            n += 1
        if with_field:
            for i in range(f_start[c], f_start[c + 1]):
                out[n] = f_parts[i]
                n += 1
    return n
