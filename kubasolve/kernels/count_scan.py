"""Baseline for benchmarks: scan the whole letter-count matrix instead of walking the trie.

For every word of a suitable length, check that its letters fit the pool (fixed counts plus flex
tiles), then find the most jokers it can use with the same subset-bitset recurrence as
``word_search`` (here per word, letter by letter). Correct but visits all 350k words every call.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kubasolve.kernels.word_search import _no_bit_patterns, joker_level_masks


@njit(cache=True)
def count_scan(word_counts, word_length, fixed_counts, flex_masks, flex_joker, min_len, values, bonus_from, bonus_step, joker_factor):
    """All formable words by full scan: ``(word_ids, jokers, scores)`` in word-id order (F <= 6 flex tiles)."""
    n_words, n_letters = word_counts.shape
    n_flex = flex_masks.shape[0]
    pool = n_flex
    for c in range(n_letters):
        pool += fixed_counts[c]
    nobit = _no_bit_patterns()
    levels = joker_level_masks(flex_joker, n_flex)
    flex_cap = np.zeros(n_letters, np.int64)
    for k in range(n_flex):
        for c in range(n_letters):
            flex_cap[c] += (flex_masks[k] >> c) & 1
    ids = np.empty(1024, np.int32)
    jok = np.empty(1024, np.int8)
    scores = np.empty(1024, np.int64)
    n = 0
    for w in range(n_words):
        length = word_length[w]
        if length < min_len or length > pool:
            continue
        deficit = 0
        ok = True
        for c in range(n_letters):
            need = word_counts[w, c]
            if need > fixed_counts[c]:
                if need - fixed_counts[c] > flex_cap[c]:
                    ok = False
                    break
                deficit += need - fixed_counts[c]
        if not ok or deficit > n_flex:
            continue
        m = np.uint64(1)
        lsum = 0
        for c in range(n_letters):
            need = word_counts[w, c]
            lsum += need * values[c]
            for i in range(need):
                optional = i < fixed_counts[c]
                dst = m if optional else np.uint64(0)
                for k in range(n_flex):
                    if (flex_masks[k] >> c) & 1:
                        dst |= (m & nobit[k]) << np.uint64(1 << k)
                m = dst
        if m == 0:
            continue
        best = 0
        for j in range(levels.shape[0] - 1, 0, -1):
            if m & levels[j, 0]:
                best = j
                break
        extra = length - bonus_from + 1
        score = lsum + (bonus_step * extra * (extra + 1) // 2 if extra > 0 else 0)
        for _ in range(best):
            score *= joker_factor
        if n == ids.shape[0]:
            ids = np.concatenate((ids, np.empty(n, np.int32)))
            jok = np.concatenate((jok, np.empty(n, np.int8)))
            scores = np.concatenate((scores, np.empty(n, np.int64)))
        ids[n] = w
        jok[n] = best
        scores[n] = score
        n += 1
    return ids[:n], jok[:n], scores[:n]
