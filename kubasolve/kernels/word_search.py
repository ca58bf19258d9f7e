"""Depth-first search of the CSR trie for the words formable from a pool of tiles.

The pool is the count of each fixed letter plus up to ``MAX_FLEX`` *flex* tiles, each a bit mask of
the letters it may show (a III cube just taken, or a joker). Along the walk the kernel keeps, for
the current prefix, the set ``M`` of flex-tile subsets ``U`` such that the prefix can be spelled
with exactly the tiles of ``U`` plus fixed tiles. ``M`` is a bitset over subsets (bit ``U`` of a
``2**F``-bit vector), so each trie node is visited once whatever the number of flex tiles, and at a
terminal the best joker count is the largest ``|U & jokers|`` over ``U`` in ``M``.

Adding the ``i``-th copy of letter ``c`` to the prefix: if ``i <= fixed[c]`` a fixed tile may cover
it, so ``M' = M | shift(M)``; otherwise a flex tile must, ``M' = shift(M)``, where
``shift(M) = {U + k : U in M, k not in U, c in mask[k]}``. An empty ``M'`` prunes the subtree.
"""

from __future__ import annotations

import numpy as np
from numba import literally, njit

LETTER_BITS = 6
LETTER_MASK = 63
MAX_FLEX = 12
# packed search edge (mirrors kubasolve.lexicon.layout)
TERMINAL_SHIFT = 7
HEIGHT_SHIFT = 8
NCHILD_SHIFT = 16
FIRST_SHIFT = 32


@njit(cache=True)
def _no_bit_patterns():
    """pat[k]: 64-bit word with bit u set iff bit k of u is 0 (k < 6)."""
    pat = np.zeros(6, np.uint64)
    for k in range(6):
        x = np.uint64(0)
        for u in range(64):
            if (u >> k) & 1 == 0:
                x |= np.uint64(1) << np.uint64(u)
        pat[k] = x
    return pat


@njit(cache=True)
def joker_level_masks(flex_joker, n_flex):
    """levels[j, w]: bitset of subsets holding at least j jokers (word w of the bitset)."""
    n_sub = 1 << n_flex
    nw = max(1, n_sub >> 6)
    n_jok = 0
    jmask = 0
    for k in range(n_flex):
        if flex_joker[k]:
            n_jok += 1
            jmask |= 1 << k
    levels = np.zeros((n_jok + 1, nw), np.uint64)
    for u in range(n_sub):
        x = u & jmask
        j = 0
        while x:
            x &= x - 1
            j += 1
        for level in range(j + 1):
            levels[level, u >> 6] |= np.uint64(1) << np.uint64(u & 63)
    return levels


@njit(cache=True, inline="always")
def _transition(src, dst, nw, flex_of_c_start, flex_of_c_end, flex_of_letter, optional, nobit):
    """dst = (src if optional else 0) | union of shift_k(src) over flex tiles k holding the letter."""
    any_set = np.uint64(0)
    for w in range(nw):
        dst[w] = src[w] if optional else np.uint64(0)
    for t in range(flex_of_c_start, flex_of_c_end):
        k = flex_of_letter[t]
        if k < 6:
            sh = np.uint64(1 << k)
            pat = nobit[k]
            for w in range(nw):
                dst[w] |= (src[w] & pat) << sh
        else:
            step = 1 << (k - 6)
            for w in range(nw):
                if (w & step) == 0:
                    dst[w | step] |= src[w]
    for w in range(nw):
        any_set |= dst[w]
    return any_set != 0


@njit(cache=True, inline="always")
def _best_jokers(ms, depth, levels, nw):
    """Largest j such that some subset in ``ms[depth]`` holds j jokers."""
    for j in range(levels.shape[0] - 1, 0, -1):
        hit = np.uint64(0)
        for w in range(nw):
            hit |= ms[depth, w] & levels[j, w]
        if hit != 0:
            return j
    return 0


@njit(cache=True, inline="always")
def _length_bonus(length, bonus_from, bonus_step):
    extra = length - bonus_from + 1
    if extra <= 0:
        return 0
    return bonus_step * extra * (extra + 1) // 2


@njit(cache=True)
def edge_requirements(search_edges, root_hi):
    """Per search edge ``e``, two letter masks packed in a uint64: bits 0-31 the letters that every word
    continuing through ``e`` needs (the edge's own letter included), ``need(e) = {c} | (need(target) if
    target is not a word)``, ``need(node) = AND of need over its out-edges``; bits 32-63 the same over the
    longest words through ``e`` only (``1 + height(target)`` more letters): ``long(e) = {c} | long(target)``
    (just ``{c}`` at a leaf), ``long(node) = AND of long over the out-edges of greatest height``. Computed
    once per lexicon by an iterative post-order walk of the DAWG from the root's edge list ``0:root_hi``
    (unreached edges keep 0, which prunes nothing)."""
    n = search_edges.shape[0]
    out = np.zeros(n, np.uint64)
    node_need = np.zeros(n + 1, np.uint32)  # by a node's first out-edge index
    node_long = np.zeros(n + 1, np.uint32)
    done = np.zeros(n + 1, np.bool_)
    stack_lo = np.empty(258, np.int64)
    stack_hi = np.empty(258, np.int64)
    stack_cur = np.empty(258, np.int64)
    sp = 0
    stack_lo[0] = 0
    stack_hi[0] = root_hi
    stack_cur[0] = 0
    while sp >= 0:
        lo = stack_lo[sp]
        hi = stack_hi[sp]
        e = stack_cur[sp]
        if e < hi - lo:
            packed = search_edges[lo + e]
            child = np.int64(packed >> np.uint64(FIRST_SHIFT))
            n_child = np.int64((packed >> np.uint64(NCHILD_SHIFT)) & np.uint64(255))
            stack_cur[sp] = e + 1
            if n_child > 0 and not done[child]:
                sp += 1
                stack_lo[sp] = child
                stack_hi[sp] = child + n_child
                stack_cur[sp] = 0
            continue
        top = np.int64(-1)
        for e2 in range(lo, hi):
            h = np.int64((search_edges[e2] >> np.uint64(HEIGHT_SHIFT)) & np.uint64(255))
            if h > top:
                top = h
        both = np.uint32(0xFFFFFFFF)
        both_long = np.uint32(0xFFFFFFFF)
        for e2 in range(lo, hi):
            packed = search_edges[e2]
            bit = np.uint32(1) << np.uint32(packed & np.uint64(LETTER_MASK))
            child = np.int64(packed >> np.uint64(FIRST_SHIFT))
            n_child = np.int64((packed >> np.uint64(NCHILD_SHIFT)) & np.uint64(255))
            height = np.int64((packed >> np.uint64(HEIGHT_SHIFT)) & np.uint64(255))
            terminal = (packed >> np.uint64(TERMINAL_SHIFT)) & np.uint64(1)
            req = bit if (terminal or n_child == 0) else (bit | node_need[child])
            req_long = bit if n_child == 0 else (bit | node_long[child])
            out[e2] = np.uint64(req) | (np.uint64(req_long) << np.uint64(32))
            both &= req
            if height == top:
                both_long &= req_long
        node_need[lo] = both
        node_long[lo] = both_long
        done[lo] = True
        sp -= 1
    return out


UNLIMITED_NODES = 1 << 62
"""``max_nodes`` for an unlimited search."""


@njit(cache=True)
def search_words(
    search_edges, edge_rank, start_lo, start_hi, fixed_counts, flex_masks, flex_joker,
    min_len, max_len, letter_values, bonus_from, bonus_step, joker_factor, top_k, pool_topsum, capacity, with_codes,
):
    """:func:`search_words_limited` without requirement masks or node budget (kept for callers of the
    first API); returns its first six values."""
    ranks, lengths, jokers, scores, codes, complete, _nodes, _stopped = search_words_limited(
        search_edges, edge_rank, np.zeros(0, np.uint64), start_lo, start_hi, fixed_counts, flex_masks, flex_joker,
        min_len, max_len, letter_values, bonus_from, bonus_step, joker_factor, top_k, pool_topsum, capacity, with_codes,
        np.int64(UNLIMITED_NODES), np.int64(UNLIMITED_NODES),  # typed, not literal: one specialisation for all callers
    )
    return ranks, lengths, jokers, scores, codes, complete


@njit(cache=True)
def search_words_limited(
    search_edges, edge_rank, edge_need, start_lo, start_hi, fixed_counts, flex_masks, flex_joker,
    min_len, max_len, letter_values, bonus_from, bonus_step, joker_factor, top_k, pool_topsum, capacity, with_codes,
    max_nodes, score_cap,
):
    """:func:`search_words_into` with output arrays of ``capacity`` rows allocated per call; returns
    ``(ranks, lengths, jokers, scores, codes, complete, nodes, stopped)`` cut to the words found."""
    n_letters = fixed_counts.shape[0]
    pool = flex_masks.shape[0]
    for c in range(n_letters):
        pool += fixed_counts[c]
    width = max(min(max_len, pool), 1) if with_codes else 1
    out_end = np.empty(capacity, np.int64)
    out_len = np.empty(capacity, np.int16)
    out_jok = np.empty(capacity, np.int8)
    out_score = np.empty(capacity, np.int64)
    out_codes = np.empty((capacity if with_codes else 0, width), np.uint8)
    n_out, complete, nodes, stopped = search_words_into(
        search_edges, edge_rank, edge_need, start_lo, start_hi, fixed_counts, flex_masks, flex_joker,
        min_len, max_len, letter_values, bonus_from, bonus_step, joker_factor, top_k, pool_topsum, with_codes,
        max_nodes, score_cap, out_end, out_len, out_jok, out_score, out_codes,
    )
    return (out_end[:n_out], out_len[:n_out], out_jok[:n_out], out_score[:n_out], out_codes[: n_out if with_codes else 0],
            complete, nodes, stopped)


@njit(cache=True)
def search_words_into(
    search_edges, edge_rank, edge_need, start_lo, start_hi, fixed_counts, flex_masks, flex_joker,
    min_len, max_len, letter_values, bonus_from, bonus_step, joker_factor, top_k, pool_topsum, with_codes,
    max_nodes, score_cap, out_end, out_len, out_jok, out_score, out_codes,
):
    """Words of ``min_len..max_len`` letters formable from the pool, below one trie node.

    ``search_edges`` is the packed edge array of ``lexicon/layout.py``; ``start_lo:start_hi`` are
    the out-edges of the start node (``0:first_edge[1]`` for the root). Score of a word =
    (letter values + length bonus) * joker_factor ** jokers, with the most jokers any valid tile
    assignment can use. ``top_k > 0`` turns on branch-and-bound: a subtree is skipped when its
    upper bound cannot beat the k-th best score so far (ties go to the earlier word, which the
    alphabet-order walk has already seen); ``pool_topsum[r]`` bounds the value of r more letters.

    Only words scoring at most ``score_cap`` count (the others are walked past, neither recorded nor
    raising the top-k threshold): a multi-word claim asks for the best word worth no more than the one
    before it.

    ``edge_need`` (from :func:`edge_requirements`, or empty for none) prunes an edge when a letter
    that every word below it needs is out of the pool: no fixed tile of it left and no flex tile
    offering it (with up to 3 flex tiles: none offering it that the prefix can have left free). The
    walk keeps that availability as a bit mask, updated as letters are taken. When a letter that
    every longest word below needs is out, the height used by the bounds drops by one.

    Work budget: the walk enters at most ``max_nodes`` trie nodes (a node = one letter appended to the
    prefix; :data:`UNLIMITED_NODES` for no limit) and then stops, answering with what it found so far,
    which for ``top_k`` is the best among the words of the alphabet-order prefix walked.

    Output: rows ``0:n_out`` of the caller's arrays ``out_end, out_len, out_jok, out_score`` (and
    ``out_codes``, ``with_codes`` only: at least ``min(max_len, pool size)`` columns), one row per word
    in alphabet order: the word's rank below the start node (summed ``edge_rank``; from the root,
    word id = ``rank_word[rank]``), its length, jokers, score and letter codes (``codes[i, :length]``).
    With top_k, the k best are among them (callers sort by score, stable). At most ``capacity`` =
    ``out_end.shape[0]`` words are recorded; ``complete`` is False when more were found (call again
    with larger arrays). Fixed arrays keep reallocation out of the hot loop, which numba compiles much
    better, and arrays kept by the caller across calls cost no allocation (large fresh ones cost an
    mmap and page faults on every call). Returns ``(n_out, complete, nodes, stopped)``: ``nodes`` is the
    number of nodes entered, ``stopped`` is True when the budget ran out before the walk ended (the
    answer may then miss words).
    """
    return _search(
        search_edges, edge_rank, edge_need, start_lo, start_hi, fixed_counts, flex_masks, flex_joker, min_len, max_len,
        letter_values, bonus_from, bonus_step, joker_factor, top_k, pool_topsum, with_codes, max_nodes, score_cap,
        out_end, out_len, out_jok, out_score, out_codes, False,
    )


SMALL_FLEX = 3
"""Pools of up to this many flex tiles walk with lookup tables over subset sets (and may use
:func:`search_all_words_into`)."""


@njit(cache=True)
def search_all_words_into(
    search_edges, edge_rank, edge_need, start_lo, start_hi, fixed_counts, flex_masks, flex_joker,
    min_len, max_len, letter_values, bonus_from, bonus_step, joker_factor, top_k, pool_topsum, with_codes,
    max_nodes, score_cap, out_end, out_len, out_jok, out_score, out_codes,
):
    """:func:`search_words_into` (same arguments and answer) for the all-words search of a pool of at most
    :data:`SMALL_FLEX` flex tiles: ``top_k`` 0, no letter codes. Its walk is compiled with those flags as
    constants, without the other paths' code and live values in the hot loop (9-11% faster), and as a kernel
    of its own, so only a caller that needs it pays its compilation (about 2 s, once)."""
    if top_k > 0 or with_codes or flex_masks.shape[0] > SMALL_FLEX:
        raise ValueError("search_all_words_into: top_k 0, no letter codes and at most SMALL_FLEX flex tiles only")
    return _search(
        search_edges, edge_rank, edge_need, start_lo, start_hi, fixed_counts, flex_masks, flex_joker, min_len, max_len,
        letter_values, bonus_from, bonus_step, joker_factor, top_k, pool_topsum, with_codes, max_nodes, score_cap,
        out_end, out_len, out_jok, out_score, out_codes, True,
    )


@njit(cache=True, inline="always")
def _pool_tables(edge_need, fixed_counts, flex_masks, flex_joker, max_len, bonus_from, bonus_step, joker_factor):
    """A call's tables: ``edge_need`` or an empty one when it can prune nothing, the flex tiles per letter (CSR
    ``fstart``/``fof``), whether the small path applies and its lookup tables, the joker levels, the length
    bonus and joker factor per length and joker count."""
    n_flex = flex_masks.shape[0]
    n_letters = fixed_counts.shape[0]
    use_need = edge_need.shape[0] > 0
    n_jok = 0
    for k in range(n_flex):
        n_jok += flex_joker[k]
    # flex tiles per letter (CSR)
    fstart = np.zeros(n_letters + 1, np.int64)
    for k in range(n_flex):
        for c in range(n_letters):
            if (flex_masks[k] >> c) & 1:
                fstart[c + 1] += 1
    for c in range(n_letters):
        fstart[c + 1] += fstart[c]
    fof = np.empty(max(fstart[n_letters], 1), np.int64)
    fill = fstart[:n_letters].copy()
    for k in range(n_flex):
        for c in range(n_letters):
            if (flex_masks[k] >> c) & 1:
                fof[fill[c]] = k
                fill[c] += 1
    every_letter_flex = True
    for c in range(n_letters):
        if fstart[c + 1] == fstart[c]:
            every_letter_flex = False
    if every_letter_flex:
        # a joker offers every letter: no letter ever runs out, so ``edge_need`` can prune nothing and reading
        # it would only add a second memory stream to the walk
        use_need = False

    bonus_tab = np.zeros(max_len + 2, np.int64)  # length bonus and joker factors, looked up per word
    for length in range(max_len + 2):
        bonus_tab[length] = _length_bonus(length, bonus_from, bonus_step)
    jpow = np.ones(n_jok + 1, np.int64)
    for j in range(1, n_jok + 1):
        jpow[j] = jpow[j - 1] * joker_factor
    nobit = _no_bit_patterns()
    levels = joker_level_masks(flex_joker, n_flex)
    # up to 3 flex tiles (8 subsets, so a subset set fits in 8 bits): the transition of each letter and the best
    # joker count as lookup tables over all 2**(2**F) subset sets, built once per call (<= 26 x 256 entries)
    small = n_flex <= SMALL_FLEX
    n_sets = (1 << (1 << n_flex)) if small else 1
    step_of = np.zeros((n_letters if small else 0, n_sets), np.uint8)  # uint8: 6.5 KB, stays in L1
    jokers_of = np.zeros(n_sets, np.int64)
    if small:
        for c in range(n_letters):
            for s in range(n_sets):
                d = np.uint64(0)
                for t in range(fstart[c], fstart[c + 1]):
                    k = fof[t]
                    d |= (np.uint64(s) & nobit[k]) << np.uint64(1 << k)
                step_of[c, s] = np.uint8(d)
        for s in range(n_sets):
            for j in range(levels.shape[0] - 1, 0, -1):
                if np.uint64(s) & levels[j, 0]:
                    jokers_of[s] = j
                    break
    need = edge_need if use_need else edge_need[:0]
    return need, n_flex, fstart, fof, small, step_of, jokers_of, levels, bonus_tab, jpow


@njit(cache=True)
def _search(
    search_edges, edge_rank, edge_need, start_lo, start_hi, fixed_counts, flex_masks, flex_joker, min_len, max_len,
    letter_values, bonus_from, bonus_step, joker_factor, top_k, pool_topsum, with_codes, max_nodes, score_cap,
    out_end, out_len, out_jok, out_score, out_codes, fast,
):
    """:func:`search_words_into`: the call's tables, then the depth-first walk. ``fast`` is compiled as a constant
    (``literally``): True, for :func:`search_all_words_into`, fixes the small path, no top-k and no letter codes,
    so that copy is compiled without the other paths' code and live values; each copy compiles on first use."""
    literally(fast)
    pool = flex_masks.shape[0]
    for c in range(fixed_counts.shape[0]):
        pool += fixed_counts[c]
    max_len = min(max_len, pool)
    if with_codes and (out_codes.shape[0] < out_end.shape[0] or out_codes.shape[1] < max_len):
        raise ValueError("out_codes needs a row per output row and a column per letter of the longest word")
    if max_len < 1 or min_len > max_len:
        return 0, True, 0, False
    # edge_need comes back empty when it can prune nothing
    edge_need, n_flex, fstart, fof, small, step_of, jokers_of, levels, bonus_tab, jpow = _pool_tables(
        edge_need, fixed_counts, flex_masks, flex_joker, max_len, bonus_from, bonus_step, joker_factor)
    if fast:
        small = True
        top_k = 0
        with_codes = False
    n_letters = fixed_counts.shape[0]
    use_need = edge_need.shape[0] > 0
    avail = np.int64(0)  # letters still available: a fixed tile left, or some flex tile
    no_flex = np.zeros(n_letters, np.bool_)  # no flex tile offers the letter
    for c in range(n_letters):
        no_flex[c] = fstart[c] == fstart[c + 1]
        if fixed_counts[c] > 0 or not no_flex[c]:
            avail |= np.int64(1) << c
    max_mult = jpow[jpow.shape[0] - 1]
    nw = max(1, (1 << n_flex) >> 6)
    nobit = _no_bit_patterns()
    ms = np.zeros((max_len + 1, nw), np.uint64)
    ms[0, 0] = np.uint64(1)  # only the empty subset
    sets = np.zeros(max_len + 1, np.uint8)  # the small path's subset sets per depth (a flat array: faster)
    sets[0] = 1
    # the small path knows which flex tiles a prefix may have used (its subset set), so a letter that only flex
    # tiles offer is available only while one of them can still be free: avail = letters with a fixed tile left
    # (favail) | the letters a free flex tile offers under the subset set (flex_avail, per set). Exact, and it
    # prunes more: 5% fewer nodes for all words with 3 jokers, 6% for the best word with 1
    favail = np.int64(0)
    flex_avail = np.zeros(step_of.shape[1], np.int64)
    if small:
        for c in range(n_letters):
            if fixed_counts[c] > 0:
                favail |= np.int64(1) << c
            for s in range(step_of.shape[1]):
                if step_of[c, s] != 0:
                    flex_avail[s] |= np.int64(1) << c
        avail = favail | flex_avail[1]
    cap = out_end.shape[0]
    n_out = 0
    complete = True
    nodes = 0
    stopped = False
    # branch-and-bound state: the k best scores so far (threshold = their minimum once k found)
    k_best = top_k if top_k > 0 else 1
    best = np.zeros(k_best, np.int64)
    n_best = 0
    threshold = np.int64(-1)
    cnt = np.zeros(n_letters, np.int64)
    ecur = np.empty(max_len + 1, np.int64)
    eend = np.empty(max_len + 1, np.int64)
    letter = np.empty(max_len + 1, np.int64)
    lsum = np.zeros(max_len + 1, np.int64)
    rank = np.zeros(max_len + 1, np.int64)
    # a top-k search records few words: their ranks are summed along the path when recorded, which keeps the
    # edge_rank array (one more cache line per node) out of the walk; an all-words search sums as it goes
    lazy_rank = top_k > 0
    word_rank = np.int64(0)
    depth = 0
    e = np.int64(start_lo)
    end = np.int64(start_hi)
    while True:
        if e < end:
            packed = search_edges[e]
            c = packed & LETTER_MASK
            masks = np.uint64(edge_need[e]) if use_need else np.uint64(1) << np.uint64(c)
            need = np.int64(masks & np.uint64(0xFFFFFFFF))
            if need & ~avail:
                e += 1
                continue
            height = np.int64((packed >> HEIGHT_SHIFT) & 255)
            if height > 0 and np.int64(masks >> np.uint64(32)) & ~avail:
                height -= 1  # no longest word below fits the pool: one letter less at most
            if depth + 1 + height < min_len:
                e += 1
                continue
            if top_k > 0 and n_best == top_k:
                reach = min(depth + 1 + height, max_len)
                bound = (lsum[depth] + pool_topsum[reach - depth] + bonus_tab[reach]) * max_mult
                if bound <= threshold:
                    e += 1
                    continue
            optional = cnt[c] < fixed_counts[c]
            if small:
                src = sets[depth]
                dst = step_of[c, src]
                if optional:
                    dst |= src
                if dst == 0:
                    e += 1
                    continue
                sets[depth + 1] = dst
            elif nw == 1:
                src = ms[depth, 0]
                dst = src if optional else np.uint64(0)
                for t in range(fstart[c], fstart[c + 1]):
                    k = fof[t]
                    dst |= (src & nobit[k]) << np.uint64(1 << k)
                if dst == 0:
                    e += 1
                    continue
                ms[depth + 1, 0] = dst
            elif not _transition(ms[depth], ms[depth + 1], nw, fstart[c], fstart[c + 1], fof, optional, nobit):
                e += 1
                continue
            if nodes >= max_nodes:
                stopped = True
                break
            nodes += 1
            d1 = depth + 1
            letter[depth] = c
            word_sum = lsum[depth] + letter_values[c]
            if not lazy_rank:
                word_rank = rank[depth] + edge_rank[e]
            if d1 >= min_len and (packed >> TERMINAL_SHIFT) & 1:
                jok = jokers_of[sets[d1]] if small else _best_jokers(ms, d1, levels, nw)
                score = (word_sum + bonus_tab[d1]) * jpow[jok]
                keep = score <= score_cap
                if keep and top_k > 0:
                    if n_best < top_k:
                        best[n_best] = score
                        n_best += 1
                        if n_best == top_k:
                            threshold = best.min()
                    elif score > threshold:
                        best[np.argmin(best)] = score
                        threshold = best.min()
                    else:
                        keep = False
                if keep and n_out == cap:
                    complete = False
                    keep = False
                if keep:
                    if lazy_rank:  # the path's edges: ecur[i] - 1 at the levels above, e here
                        word_rank = edge_rank[e]
                        for i in range(depth):
                            word_rank += edge_rank[ecur[i] - 1]
                    out_end[n_out] = word_rank
                    out_len[n_out] = d1
                    out_jok[n_out] = jok
                    out_score[n_out] = score
                    if with_codes:
                        for i in range(d1):
                            out_codes[n_out, i] = letter[i]
                    n_out += 1
            n_child = np.int64((packed >> NCHILD_SHIFT) & 255)
            e += 1
            if n_child == 0 or d1 >= max_len:
                continue  # a leaf: nothing to enter, the next sibling follows
            # enter the child: save this level's position, take the letter
            ecur[depth] = e
            eend[depth] = end
            cnt[c] += 1
            # branch-free: whether the letter runs out here is data the branch predictor cannot learn (a branch cost
            # ~20% of the all-words walk)
            if small:
                favail &= ~(np.int64(cnt[c] >= fixed_counts[c]) << c)
                avail = favail | flex_avail[sets[d1]]
            else:
                avail &= ~(np.int64((cnt[c] >= fixed_counts[c]) & no_flex[c]) << c)
            lsum[d1] = word_sum
            if not lazy_rank:
                rank[d1] = word_rank
            depth = d1
            e = np.int64(packed >> FIRST_SHIFT)
            end = e + n_child
            continue
        # this level is done: back to the parent, give the letter back
        depth -= 1
        if depth < 0:
            break
        cl = letter[depth]
        cnt[cl] -= 1
        if small:
            favail |= np.int64(cnt[cl] < fixed_counts[cl]) << cl
            avail = favail | flex_avail[sets[depth]]
        else:
            avail |= np.int64(1) << cl
        e = ecur[depth]
        end = eend[depth]
    return n_out, complete, nodes, stopped


@njit(cache=True)
def rank_results(ranks, lengths, jokers, scores, rank_word, top):
    """Results best first (stable: ties keep alphabet order), ranks mapped to word ids, cut to ``top``.

    A counting sort over the score range when it is small (the usual case), a stable sort otherwise.
    Returns ``(order, word_ids, lengths, jokers, scores)``.
    """
    n = scores.shape[0]
    if n == 0:
        order = np.zeros(0, np.int64)
    else:
        lo = scores.min()
        span = scores.max() - lo + 1
        if span <= 4 * n + 1024:
            counts = np.zeros(span + 1, np.int64)
            for i in range(n):
                counts[scores[i] - lo] += 1
            # start positions, highest score first
            pos = 0
            start = np.empty(span, np.int64)
            for v in range(span - 1, -1, -1):
                start[v] = pos
                pos += counts[v]
            order = np.empty(n, np.int64)
            for i in range(n):
                v = scores[i] - lo
                order[start[v]] = i
                start[v] += 1
        else:
            order = np.argsort(-scores, kind="mergesort")
    k = n if top <= 0 else min(top, n)
    order = order[:k]
    ids = np.empty(k, np.int32)
    out_len = np.empty(k, np.int16)
    out_jok = np.empty(k, np.int8)
    out_score = np.empty(k, np.int64)
    if 4 * k >= n:
        # most rows kept: look the word ids up in walk order (ranks ascend: a forward sweep through rank_word,
        # not one cache miss per word in score order), then permute
        walk_ids = np.empty(n, np.int32)
        for j in range(n):
            walk_ids[j] = rank_word[ranks[j]]
        for i in range(k):
            ids[i] = walk_ids[order[i]]
    else:
        for i in range(k):
            ids[i] = rank_word[ranks[order[i]]]
    for i in range(k):
        j = order[i]
        out_len[i] = lengths[j]
        out_jok[i] = jokers[j]
        out_score[i] = scores[j]
    return order, ids, out_len, out_jok, out_score
