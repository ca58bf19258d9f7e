"""Search of compound words: sequences of two or more parts whose concatenation is a word.

Parts are table words (each used at most once) and, optionally, words formed from the field (at
most ``max_field_parts`` of them in one compound: they compete for the same tiles). The walk
follows the packed search edges of ``lexicon/layout.py``, so a sequence is abandoned as soon as its
concatenation stops being a prefix of some word.

Parts are bucketed by first letter (table and field parts apart), each bucket in letter order with the
length of the prefix each part shares with the one before it (LCP). At a trie node the walk goes
through the buckets of the node's out-edge letters in that order (nothing is copied): the walk of a
part starts where the walk of the previously tried part shares its letters, and when a part fails at
its ``f``-th letter the walk jumps past every following part that shares those ``f + 1`` letters
(``skip[i, f]``: the next part whose LCP is at most ``f``): the sorted-list form of walking a trie of
the parts.

Work budget: one node is one part tried at a point of the walk (a part's letters followed from the
current trie node; parts jumped over are not tried); after ``max_nodes`` of them the search stops and
answers with the compounds found so far, each a real compound, with ``stopped`` set.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kubasolve.kernels.arrays import copy_prefix

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
def _buckets(part_codes, part_offsets, first, lo, hi, longest, start, parts, lcp, skip):
    """Bucket the parts lo..hi-1 by first letter into ``parts[lo:hi]`` (CSR ``start[65]``, offset by lo), each
    bucket in letter order; ``lcp[i]``: the prefix ``parts[i]`` shares with ``parts[i-1]`` (0 at a bucket start);
    ``skip[i, f]``: the first j > i in the bucket with ``lcp[j] <= f`` (the bucket's end if none)."""
    n = hi - lo
    keys = np.zeros(max(n, 1), np.int64)  # the first 10 letters, 6 bits each: the sort need not be exact, the lcp is
    for p in range(lo, hi):
        a, b = part_offsets[p], part_offsets[p + 1]
        key = np.int64(first[p])
        for i in range(1, 10):
            key = key * 64 + (np.int64(part_codes[a + i]) + 1 if a + i < b else 0)
        keys[p - lo] = key
    order = np.argsort(keys[:n], kind="mergesort")
    start[:] = 0
    for p in range(lo, hi):
        start[first[p] + 1] += 1
    start[0] = lo
    for c in range(64):
        start[c + 1] += start[c]
    for i in range(n):
        parts[lo + i] = lo + order[i]
    for i in range(lo, hi):
        lcp[i] = 0
        if i == lo:
            continue
        p, q = parts[i - 1], parts[i]
        if first[p] != first[q]:
            continue
        a, b = part_offsets[p], part_offsets[p + 1]
        c, d = part_offsets[q], part_offsets[q + 1]
        k = 0
        while a + k < b and c + k < d and part_codes[a + k] == part_codes[c + k]:
            k += 1
        lcp[i] = k
    for c in range(64):
        end = start[c + 1]
        for i in range(end - 1, start[c] - 1, -1):
            for f in range(longest + 1):
                if i + 1 >= end:
                    skip[i, f] = end
                elif lcp[i + 1] <= f:
                    skip[i, f] = i + 1
                else:
                    skip[i, f] = skip[i + 1, f]


@njit(cache=True)
def search_compounds(search_edges, root_lo, root_hi, part_codes, part_offsets, n_table, max_field_parts, max_parts, max_nodes):
    """All sequences of >= 2 distinct parts (<= max_parts) that spell a word.

    Parts ``0..n_table-1`` are table words, the others field words. Returns ``(flat, offsets)``:
    sequence ``s`` is ``flat[offsets[s]:offsets[s+1]]`` (part indices in compound order), then the
    number of nodes (parts tried) and whether ``max_nodes`` stopped the search before its end.

    At each node only the parts whose first letter labels an out-edge are tried, by bucket (table and
    field parts apart: once a compound holds ``max_field_parts`` field words, the field parts are not
    looked at). Sequences come out grouped by first letter, not in part-index order (callers sort).
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
    longest = np.int64(0)  # not a literal 0: a literal argument compiles _buckets once more (kernels/__init__.py)
    for p in range(n_parts):
        first[p] = part_codes[part_offsets[p]] if part_offsets[p + 1] > part_offsets[p] else 63
        longest = max(longest, part_offsets[p + 1] - part_offsets[p])
    parts = np.empty(n_parts, np.int64)
    lcp = np.zeros(n_parts, np.int64)
    skip = np.empty((n_parts, longest + 1), np.int64)
    t_start = np.empty(65, np.int64)
    f_start = np.empty(65, np.int64)
    _buckets(part_codes, part_offsets, first, np.int64(0), n_table, longest, t_start, parts, lcp, skip)
    _buckets(part_codes, part_offsets, first, n_table, n_parts, longest, f_start, parts, lcp, skip)
    lo_s = np.empty(max_parts + 1, np.int64)
    hi_s = np.empty(max_parts + 1, np.int64)
    edge = np.empty(max_parts + 1, np.int64)  # per depth: the out-edge whose bucket is walked,
    field_phase = np.zeros(max_parts + 1, np.bool_)  # its table or field bucket,
    cur = np.empty(max_parts + 1, np.int64)  # the next index in ``parts`` and the bucket's end
    end = np.empty(max_parts + 1, np.int64)
    with_field = np.zeros(max_parts + 1, np.bool_)
    seq = np.empty(max_parts + 1, np.int64)
    used = np.zeros(n_parts, np.bool_)
    # per depth, the walk of the last part tried there: node after k letters, letters matched, failed or not;
    # ``shared``: the prefix the next part shares with it (min of the lcps of the parts passed since)
    path_lo = np.empty((max_parts + 1, longest + 1), np.int64)
    path_hi = np.empty((max_parts + 1, longest + 1), np.int64)
    path_term = np.zeros((max_parts + 1, longest + 1), np.int64)
    matched = np.zeros(max_parts + 1, np.int64)
    failed = np.zeros(max_parts + 1, np.bool_)
    shared = np.zeros(max_parts + 1, np.int64)
    depth = 0
    n_field = 0
    lo_s[0] = root_lo
    hi_s[0] = root_hi
    path_lo[0, 0] = root_lo
    path_hi[0, 0] = root_hi
    edge[0] = root_lo - 1
    field_phase[0] = True
    cur[0] = 0
    end[0] = 0
    with_field[0] = max_field_parts > 0
    while depth >= 0:
        advanced = False
        if depth < max_parts:
            while True:
                i = cur[depth]
                if i >= end[depth]:  # this bucket done: the field bucket of the same letter, or the next edge's
                    c = search_edges[edge[depth]] & LETTER_MASK if edge[depth] >= lo_s[depth] else 0
                    if not field_phase[depth] and with_field[depth] and f_start[c + 1] > f_start[c]:
                        field_phase[depth] = True
                        cur[depth] = f_start[c]
                        end[depth] = f_start[c + 1]
                    else:
                        edge[depth] += 1
                        if edge[depth] >= hi_s[depth]:
                            break
                        c = search_edges[edge[depth]] & LETTER_MASK
                        field_phase[depth] = False
                        cur[depth] = t_start[c]
                        end[depth] = t_start[c + 1]
                    shared[depth] = 0
                    continue
                p = parts[i]
                shared[depth] = min(shared[depth], lcp[i])
                cur[depth] = i + 1
                if used[p]:
                    continue
                common = shared[depth]
                if failed[depth] and common > matched[depth]:
                    cur[depth] = skip[i, matched[depth]]  # fails where the last one did, and so do those after it
                    shared[depth] = 1 << 30
                    continue
                if nodes >= max_nodes:
                    stopped = True
                    break
                nodes += 1
                shared[depth] = 1 << 30
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
                    cur[depth] = skip[i, k]  # the parts sharing the failed letter fail there too
                    continue
                used[p] = True
                if p >= n_table:
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
                edge[depth] = lo - 1
                field_phase[depth] = True
                cur[depth] = 0
                end[depth] = 0
                with_field[depth] = n_field < max_field_parts
                if depth >= 2 and term:
                    if n_flat + depth > flat.shape[0]:
                        bigger = np.empty(max(flat.shape[0] * 2, n_flat + depth), np.int32)
                        copy_prefix(bigger, flat, n_flat)
                        flat = bigger
                    for j in range(depth):
                        flat[n_flat + j] = seq[j]
                    n_flat += depth
                    n_seq += 1
                    if n_seq + 1 > offs.shape[0]:
                        bigger_o = np.empty(offs.shape[0] * 2, np.int64)
                        copy_prefix(bigger_o, offs, n_seq)
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
