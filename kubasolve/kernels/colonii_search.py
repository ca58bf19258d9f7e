"""Kernels for Word colonies: start nodes of table words, and the exact best turn.

``walk_prefixes`` follows each table word (or its last letter) down the DAWG search graph of
``lexicon/layout.py`` and returns the out-edge range of the node reached and the rank of the path
(the sum of ``edge_rank`` along it). The pool word search (``word_search.search_words``) started at
that range finds every extension of the word, or every word starting with the letter, whose other
letters come from the hand; adding the path rank to the ranks it returns gives absolute word ranks.

``best_turn`` picks up to three moves on disjoint cards and distinct table targets that maximise the
summed key. Moves arrive sorted by key, best first; a depth-first search over index triples
``i < j < k`` stops a level as soon as the chosen keys plus the current key times the slots left
cannot beat the incumbent (later keys are no larger), so it is exact. A second bound skips a branch
when even every card left in the hand plus the largest extras (stakes, bonuses: what a key holds
beyond its cards' letter values) cannot beat the incumbent: a turn that spends the whole hand on the
best stakes is proven at once instead of after every triple; and the second and third moves are
looked for only from the largest key the cards left can carry (a binary search over the sorted
keys). The search counts its nodes (fit tests)
and stops at a node limit with its resume point, so a caller can cut it into slices, check the clock
between them and keep the best turn found when the budget runs out. Card multisets are packed one
letter per byte with a guard bit (``pack_cards``): a set of cards fits the hand iff subtracting
it from the guarded hand leaves every guard bit set (no borrow), four 64-bit words per test. Moves on
other players' groups count only if the player owns a group or the turn also builds a new word.

``keep_useful`` first shrinks the move list without changing the optimum: of the moves with the
same card multiset (and the same on-other flag) a turn of at most three moves never needs more than
the three best with distinct targets (any other is replaceable by one of them whose target is not
taken by the turn's other two moves), so only those are searched.
"""

from __future__ import annotations

import numpy as np
from numba import njit

LETTER_MASK = 63
NCHILD_SHIFT = 16
FIRST_SHIFT = 32
PACK_WORDS = 4  # 4 x 8 bytes: up to 32 letters, one byte (7 count bits + guard) each
GUARD = np.uint64(0x8080808080808080)


@njit(cache=True)
def walk_prefixes(search_edges, edge_rank, root_lo, root_hi, codes, offsets):
    """For prefix ``p`` (``codes[offsets[p]:offsets[p + 1]]``): out-edges ``lo:hi`` of its node and
    its path rank; ``lo = -1`` when no word starts with the prefix."""
    n = offsets.shape[0] - 1
    out_lo = np.full(n, -1, np.int64)
    out_hi = np.full(n, -1, np.int64)
    out_rank = np.zeros(n, np.int64)
    for p in range(n):
        lo = np.int64(root_lo)
        hi = np.int64(root_hi)
        rank = np.int64(0)
        ok = True
        for t in range(offsets[p], offsets[p + 1]):
            c = codes[t]
            found = -1
            for e in range(lo, hi):
                if (search_edges[e] & LETTER_MASK) == c:
                    found = e
                    break
            if found < 0:
                ok = False
                break
            packed = search_edges[found]
            rank += edge_rank[found]
            lo = np.int64(packed >> FIRST_SHIFT)
            hi = lo + np.int64((packed >> NCHILD_SHIFT) & 255)
        if ok:
            out_lo[p] = lo
            out_hi[p] = hi
            out_rank[p] = rank
    return out_lo, out_hi, out_rank


@njit(cache=True)
def pack_cards(codes, lengths):
    """Row ``i``: the multiset ``codes[i, :lengths[i]]`` packed one letter per byte (4 uint64)."""
    n = lengths.shape[0]
    out = np.zeros((n, PACK_WORDS), np.uint64)
    for i in range(n):
        for t in range(lengths[i]):
            c = np.int64(codes[i, t])
            out[i, c >> 3] += np.uint64(1) << np.uint64((c & 7) * 8)
    return out


@njit(cache=True)
def card_values(codes, lengths, values):
    """Row ``i``: the summed ``values`` of the letters ``codes[i, :lengths[i]]`` (the cards a move takes)."""
    n = lengths.shape[0]
    out = np.zeros(n, np.int64)
    for i in range(n):
        total = np.int64(0)
        for t in range(lengths[i]):
            total += values[codes[i, t]]
        out[i] = total
    return out


@njit(cache=True)
def keep_useful(order, packed, targets, on_other, per_group):
    """Keep mask over moves (sorted best first): per (cards, on_other) group, the first
    ``per_group`` moves with distinct targets (new words, target -1, count as distinct).
    ``order`` lists the moves grouped by (cards, on_other), best first within a group."""
    n = order.shape[0]
    keep = np.zeros(n, np.bool_)
    start = 0
    while start < n:
        a = order[start]
        end = start + 1
        while end < n:
            b = order[end]
            same = on_other[a] == on_other[b]
            for w in range(PACK_WORDS):
                if packed[a, w] != packed[b, w]:
                    same = False
            if not same:
                break
            end += 1
        kept = 0
        seen = np.full(per_group, -2, np.int64)
        for t in range(start, end):
            m = order[t]
            if kept == per_group:
                break
            dup = False
            if targets[m] >= 0:
                for q in range(kept):
                    if seen[q] == targets[m]:
                        dup = True
            if not dup:
                seen[kept] = targets[m]
                kept += 1
                keep[m] = True
        start = end
    return keep


@njit(cache=True, inline="always")
def _minus(have, need, out):
    """out = have - need; True when no letter count goes negative (``have`` carries guard bits)."""
    for w in range(PACK_WORDS):
        r = have[w] - need[w]
        if (r & GUARD) != GUARD:
            return False
        out[w] = r
    return True


@njit(cache=True)
def _first_at_most(keys, start, cap):
    """The first index ``>= start`` whose key is ``<= cap`` (``keys`` non-increasing; ``n`` if none)."""
    lo = start
    hi = keys.shape[0]
    while lo < hi:
        mid = (lo + hi) >> 1
        if keys[mid] <= cap:
            hi = mid
        else:
            lo = mid + 1
    return lo


@njit(cache=True)
def best_turn(keys, packed, targets, on_other, is_new, hand_packed, has_own, max_moves, card_key, hand_card_key,
              extra_bound, state, sel, node_limit):
    """Continue the search for the best set of up to ``max_moves`` moves for at most ``node_limit``
    nodes (fit tests); returns (nodes spent, finished).

    ``keys`` sorted non-increasing and > 0; ``targets[i] = -1`` for a new word (those may repeat).
    ``state`` = (i, j, k, best key sum) is where the search stands: (0, 0, 0, key of ``sel``) starts it,
    a call that runs out of nodes leaves the point to resume at (j = 0: move ``i`` not entered yet;
    k = 0: pair ``i, j`` not entered yet) and the incumbent in ``state[3]`` and ``sel`` (indices, -1
    padded), so a search cut into several calls does exactly what one call does.

    Value bound: ``keys[m] = card_key[m] + extra`` with ``card_key`` additive over cards (letter values
    times the tie factor) and ``extra >= 0``; ``extra_bound[s]`` bounds the extras of any ``s`` moves.
    Moves still to add use cards not yet taken, so they add at most the hand's ``card_key`` left plus
    ``extra_bound[slots]``; a branch that cannot beat the incumbent so is skipped (exact). For the same
    reason a move that fits the cards left has a key of at most their ``card_key`` plus ``extra_bound[1]``,
    so the second and third levels start at the first such key (binary search) instead of scanning the
    larger keys, none of which fits.
    """
    n = keys.shape[0]
    i0 = state[0]
    j0 = state[1]
    k0 = state[2]
    best = state[3]
    nodes = np.int64(0)
    h0 = np.empty(PACK_WORDS, np.uint64)
    for w in range(PACK_WORDS):
        h0[w] = hand_packed[w] | GUARD
    h1 = np.empty(PACK_WORDS, np.uint64)
    h2 = np.empty(PACK_WORDS, np.uint64)
    h3 = np.empty(PACK_WORDS, np.uint64)
    ceiling = hand_card_key + extra_bound[max_moves]  # no turn beats it: reaching it ends the search
    for i in range(i0, n):
        ki = keys[i]
        if ki * max_moves <= best or ceiling <= best:
            break
        resumed_i = i == i0 and j0 > 0
        if not resumed_i:
            if nodes >= node_limit:
                state[0] = i
                state[1] = 0
                state[2] = 0
                state[3] = best
                return nodes, False
            nodes += 1
        if not _minus(h0, packed[i], h1):
            continue
        if ki > best and (has_own or not on_other[i]):
            best = ki
            sel[0] = i
            sel[1] = -1
            sel[2] = -1
        if max_moves < 2 or ki + hand_card_key - card_key[i] + extra_bound[max_moves - 1] <= best:
            continue
        left_i = hand_card_key - card_key[i]
        for j in range(j0 if resumed_i else _first_at_most(keys, i + 1, left_i + extra_bound[1]), n):
            kj = keys[j]
            if ki + kj * (max_moves - 1) <= best or ceiling <= best:
                break
            resumed_j = resumed_i and j == j0 and k0 > 0
            if not resumed_j:
                if nodes >= node_limit:
                    state[0] = i
                    state[1] = j
                    state[2] = 0
                    state[3] = best
                    return nodes, False
                nodes += 1
            if targets[j] >= 0 and targets[j] == targets[i]:
                continue
            if not _minus(h1, packed[j], h2):
                continue
            own2 = has_own or is_new[i] or is_new[j]
            if ki + kj > best and (own2 or not (on_other[i] or on_other[j])):
                best = ki + kj
                sel[0] = i
                sel[1] = j
                sel[2] = -1
            if max_moves < 3 or ki + kj + left_i - card_key[j] + extra_bound[1] <= best:
                continue
            for k in range(k0 if resumed_j else _first_at_most(keys, j + 1, left_i - card_key[j] + extra_bound[1]), n):
                kk = keys[k]
                if ki + kj + kk <= best:
                    break
                if nodes >= node_limit:
                    state[0] = i
                    state[1] = j
                    state[2] = k
                    state[3] = best
                    return nodes, False
                nodes += 1
                if targets[k] >= 0 and (targets[k] == targets[i] or targets[k] == targets[j]):
                    continue
                if not _minus(h2, packed[k], h3):
                    continue
                own3 = own2 or is_new[k]
                if own3 or not (on_other[i] or on_other[j] or on_other[k]):
                    best = ki + kj + kk
                    sel[0] = i
                    sel[1] = j
                    sel[2] = k
                    if best >= ceiling:
                        break
    state[0] = n
    state[3] = best
    return nodes, True
