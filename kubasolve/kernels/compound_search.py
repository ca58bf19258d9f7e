"""Search of compound words: sequences of two or more parts whose concatenation is a word.

Parts are table words (each used at most once) and, optionally, words formed from the field (at
most ``max_field_parts`` of them in one compound: they compete for the same tiles). The walk
follows the packed search edges of ``lexicon/layout.py``, so a sequence is abandoned as soon as its
concatenation stops being a prefix of some word.

Parts that start with the same letter are kept in letter order, with the length of the prefix each
shares with the one before it (LCP). Trying the candidate parts at a node in that order, the walk of a
part starts where the walk of the previously tried part shares its letters, and a part whose shared
prefix already failed is dropped without a walk (the sorted-list form of walking a trie of the parts).

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
def _step(search_edges, lo, hi, c):
    """The edge labelled ``c`` among lo:hi (labels ascending): its children's range and terminal flag, or lo=-1."""
    for e in range(lo, hi):
        lab = search_edges[e] & LETTER_MASK
        if lab == c:
            packed = search_edges[e]
            child = np.int64(packed >> FIRST_SHIFT)
            return child, child + np.int64((packed >> NCHILD_SHIFT) & 255), np.int64((packed >> TERMINAL_SHIFT) & 1)
        if lab > c:
            break
    return np.int64(-1), np.int64(-1), np.int64(0)


@njit(cache=True)
def _by_first_letter(part_codes, part_offsets, first, lo, hi):
    """CSR over letters 0..63 of the parts lo..hi-1 by first letter, each bucket in letter order:
    (start[65], parts, lcp) where lcp[i] is the prefix length parts[i] shares with parts[i-1] (0 at a bucket start)."""
    n = max(hi - lo, 1)
    keys = np.zeros(n, np.int64)  # the first 10 letters, 6 bits each: the sort need not be exact, the lcp is
    for p in range(lo, hi):
        a, b = part_offsets[p], part_offsets[p + 1]
        key = np.int64(first[p])
        for i in range(1, 10):
            key = key * 64 + (np.int64(part_codes[a + i]) + 1 if a + i < b else 0)
        keys[p - lo] = key
    order = np.argsort(keys[: hi - lo], kind="mergesort")
    start = np.zeros(65, np.int64)
    for p in range(lo, hi):
        start[first[p] + 1] += 1
    for c in range(64):
        start[c + 1] += start[c]
    parts = np.empty(n, np.int64)
    for i in range(hi - lo):
        parts[i] = lo + order[i]
    lcp = np.zeros(n, np.int64)
    for i in range(1, hi - lo):
        p, q = parts[i - 1], parts[i]
        if first[p] != first[q]:
            continue
        a, b = part_offsets[p], part_offsets[p + 1]
        c, d = part_offsets[q], part_offsets[q + 1]
        k = 0
        while a + k < b and c + k < d and part_codes[a + k] == part_codes[c + k]:
            k += 1
        lcp[i] = k
    return start, parts, lcp


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
    t_start, t_parts, t_lcp = _by_first_letter(part_codes, part_offsets, first, 0, n_table)
    f_start, f_parts, f_lcp = _by_first_letter(part_codes, part_offsets, first, n_table, n_parts)
    longest = 0
    for p in range(n_parts):
        longest = max(longest, part_offsets[p + 1] - part_offsets[p])
    cand = np.empty((max_parts + 1, n_parts), np.int64)  # candidate parts per depth, built on entry
    cand_lcp = np.empty((max_parts + 1, n_parts), np.int64)  # prefix shared with the candidate before
    n_cand = np.zeros(max_parts + 1, np.int64)
    lo_s = np.empty(max_parts + 1, np.int64)
    hi_s = np.empty(max_parts + 1, np.int64)
    cur = np.empty(max_parts + 1, np.int64)
    seq = np.empty(max_parts + 1, np.int64)
    used = np.zeros(n_parts, np.bool_)
    # per depth, the walk of the last part tried there: node after k letters, letters matched, failed or not;
    # ``shared``: the prefix the next candidate shares with it (min of the lcps of the candidates skipped since)
    path_lo = np.empty((max_parts + 1, longest + 1), np.int64)
    path_hi = np.empty((max_parts + 1, longest + 1), np.int64)
    path_term = np.zeros((max_parts + 1, longest + 1), np.int64)
    matched = np.zeros(max_parts + 1, np.int64)
    failed = np.zeros(max_parts + 1, np.bool_)
    shared = np.zeros(max_parts + 1, np.int64)
    lo_s[0] = root_lo
    hi_s[0] = root_hi
    path_lo[0, 0] = root_lo
    path_hi[0, 0] = root_hi
    cur[0] = 0
    depth = 0
    n_field = 0
    n_cand[0] = _candidates(search_edges, root_lo, root_hi, t_start, t_parts, t_lcp, f_start, f_parts, f_lcp,
                            n_field < max_field_parts, cand[0], cand_lcp[0])
    while depth >= 0:
        advanced = False
        if depth < max_parts:
            while cur[depth] < n_cand[depth]:
                p = cand[depth, cur[depth]]
                shared[depth] = min(shared[depth], cand_lcp[depth, cur[depth]])
                cur[depth] += 1
                if used[p]:
                    continue
                if nodes >= max_nodes:
                    stopped = True
                    break
                nodes += 1
                common = shared[depth]
                shared[depth] = 1 << 30
                if failed[depth] and common > matched[depth]:
                    continue  # the letter the last part failed on is in the shared prefix: this one fails there too
                a = part_offsets[p]
                length = part_offsets[p + 1] - a
                k = min(common, matched[depth])
                lo, hi, term = path_lo[depth, k], path_hi[depth, k], path_term[depth, k]
                while k < length:
                    lo, hi, term = _step(search_edges, lo, hi, part_codes[a + k])
                    if lo < 0:
                        break
                    k += 1
                    path_lo[depth, k] = lo
                    path_hi[depth, k] = hi
                    path_term[depth, k] = term
                matched[depth] = k
                failed[depth] = lo < 0
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
                path_lo[depth, 0] = lo
                path_hi[depth, 0] = hi
                matched[depth] = 0
                failed[depth] = False
                shared[depth] = 0
                cur[depth] = 0
                n_cand[depth] = 0
                if depth < max_parts and hi > lo:
                    n_cand[depth] = _candidates(search_edges, lo, hi, t_start, t_parts, t_lcp, f_start, f_parts, f_lcp,
                                                n_field < max_field_parts, cand[depth], cand_lcp[depth])
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
def _candidates(search_edges, lo, hi, t_start, t_parts, t_lcp, f_start, f_parts, f_lcp, with_field, out, out_lcp):
    """Parts whose first letter labels one of the out-edges lo:hi (table parts, then field parts if allowed),
    each with the prefix it shares with the one before it in ``out`` (0 where a bucket starts)."""
    n = 0
    for e in range(lo, hi):
        c = search_edges[e] & LETTER_MASK
        for i in range(t_start[c], t_start[c + 1]):
            out[n] = t_parts[i]
            out_lcp[n] = t_lcp[i] if i > t_start[c] else 0
            n += 1
        if with_field:
            for i in range(f_start[c], f_start[c + 1]):
                out[n] = f_parts[i]
                out_lcp[n] = f_lcp[i] if i > f_start[c] else 0
                n += 1
    return n
