"""Kernels for Word colonies: start nodes of table words, and the exact best turn.

``walk_prefixes`` follows each table word (or its last letter) down the DAWG search graph of
``lexicon/layout.py`` and returns the out-edge range of the node reached and the rank of the path
(the sum of ``edge_rank`` along it). The pool word search (``word_search.search_words``) started at
that range finds every extension of the word, or every word starting with the letter, whose other
letters come from the hand; adding the path rank to the ranks it returns gives absolute word ranks.

``best_turn`` finds the best turn: a sequence of up to three word moves, each judged on the table the
previous ones left (the referee's reading). Moves on different groups commute, so a turn is a set of
*programs*, one per group it touches: a first move on the table as it stands (a *root*: a new word,
an extension, a chained word) followed by words chained onto the word the program just made
(*follow-ups*: a colony start on one's own new word, conquest B after an extension of another
player's word, further colony additions), and, right after a decolonisation in the turn, the
extension of the word it left into one of the words that left play. Other second moves on a group
are dominated (an extension of an extension, or of a new word, is one longer extension or new word:
same cards, same points, one move less). The items of the search are the roots, every chained word
of every letter the hand allows (``chain entries``) and those extensions; a set of at most three items
is a turn when its follow-ups can be attached in order to its roots (:func:`_program_value` replays
the colony rules: word uniqueness in a colony, the conquest threshold, the owner's supercolony and
decolonisation as soon as the colony reaches their sizes, which only adds points and options).

Items are sorted by an upper bound of what they add (``ub``: their own key, and for a root every
stake and bonus its program could still take), so the search over index triples ``i <= j <= k``
(new words may repeat: AX + AX) stops a level as soon as the chosen bounds plus the current bound
times the slots left cannot beat the best turn found, and is exact.

A second bound skips a branch when even every card left in the hand plus the largest extras (stakes,
bonuses: what a bound holds beyond its cards' letter values) cannot beat the incumbent: a turn that
spends the whole hand on the best stakes is proven at once; and the second and third items are looked
for only from the largest bound the cards left can carry (a binary search over the sorted bounds).
The search counts its nodes (fit tests) and stops at a node limit with its resume point, so a caller
can cut it into slices, check the clock between them and keep the best turn found when the budget
runs out. Card multisets are packed one letter per byte with a guard bit (``pack_cards``): a set of
cards fits the hand iff subtracting it from the guarded hand leaves every guard bit set (no borrow),
four 64-bit words per test. Moves on other players' groups count only if the player owns a group or
the turn also builds a new word (played first).
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



# Item kinds (column ``KIND`` of the item matrix).
ROOT_TABLE = 0
"""A first move on a group of the table (extension, chained word)."""
ROOT_NEW = 1
"""A new word (it makes a new group; may be built more than once in a turn)."""
CHAIN = 2
"""A chained word of the hand from a letter: a follow-up on the word a program just made."""
EXT = 3
"""The extension, right after a decolonisation, of the word it left into a word that left play."""

# Columns of the item matrix (int64).
KIND, TARGET, ON_OTHER, GKEY, VAL, FIRST, LAST, WORD, XWORD, REQ, WVAL, MODE, SIZE, DECL, FIRSTV, STAKE, EXG, DECOL = range(18)
N_COLS = 18

# Program states after a move (column ``MODE`` of a root; then evolved by ``_program_value``).
M_NONE = 0    # no follow-up (a plain extension of another player's protected word)
M_OWN = 1     # the mover's individual word: a chained word starts a colony
M_OTHER = 2   # another player's individual word (extended by the mover): a chained word must conquer it
M_COLONY = 3  # the mover's colony: chained words are colony additions, the owner's bonuses apply
M_THEIRS = 4  # another player's colony: chained words are colony additions

# Rule and objective parameters (``params``).
P_S, P_SBONUS, P_D, P_A, P_B, P_HAS_OWN, P_MOVES = range(7)

NO_VALUE = -1


@njit(cache=True)
def _excluded(w, ex, nex, exg, gw_off, gw_ids):
    for t in range(nex):
        if ex[t] == w:
            return True
    if exg >= 0:
        for t in range(gw_off[exg], gw_off[exg + 1]):
            if gw_ids[t] == w:
                return True
    return False


@njit(cache=True)
def _program_value(it, root, fa, fb, params, gw_off, gw_ids):
    """Key of the program ``root`` then follow-ups ``fa``, ``fb`` (-1: none) on one group, played in that
    order, or ``NO_VALUE`` when the rules refuse a follow-up. The owner's declaration and decolonisation
    are made as soon as the colony reaches their sizes (only more points and more options)."""
    mode = it[root, MODE]
    last = it[root, LAST]
    cur = it[root, WORD]
    size = it[root, SIZE]
    decl = it[root, DECL]
    firstv = it[root, FIRSTV]
    stake = it[root, STAKE]
    exg = it[root, EXG]
    decol = it[root, DECOL]
    group = it[root, TARGET]
    key = it[root, GKEY]
    ex = np.empty(4, np.int64)
    ex[0] = cur
    nex = 1
    for step in range(2):
        f = fa if step == 0 else fb
        if f < 0:
            break
        kind = it[f, KIND]
        if kind == CHAIN:
            if mode == M_NONE or it[f, FIRST] != last:
                return NO_VALUE
            w = it[f, WORD]
            if _excluded(w, ex, nex, exg, gw_off, gw_ids):
                return NO_VALUE
            key += it[f, GKEY]
            just_decolonised = 0
            if mode in (M_OWN, M_OTHER):
                if mode == M_OTHER:
                    if it[f, VAL] <= firstv:  # conquest B: added cards worth more than the word
                        return NO_VALUE
                    key += stake * (params[P_A] + params[P_B])
                mode = M_COLONY
                size = 2
                decl = 0
                exg = -1
                ex[0] = cur
                ex[1] = w
                nex = 2
                if size >= params[P_S]:
                    key += params[P_SBONUS]
                    decl = 1
            elif mode == M_COLONY:
                size += 1
                ex[nex] = w
                nex += 1
                if decl == 0 and size >= params[P_S]:
                    key += params[P_SBONUS]
                    decl = 1
                if size >= params[P_D]:
                    key += firstv * params[P_A]
                    mode = M_OWN
                    firstv = it[f, WVAL]
                    exg = -1
                    ex[0] = w
                    nex = 1
                    just_decolonised = 1
            else:  # another player's colony
                ex[nex] = w
                nex += 1
            cur = w
            last = it[f, LAST]
            decol = just_decolonised
        elif kind == EXT:
            if decol == 0 or it[f, XWORD] != cur or it[f, TARGET] != group:
                return NO_VALUE
            if it[f, REQ] >= 0 and it[root, WORD] != it[f, REQ]:
                return NO_VALUE
            key += it[f, GKEY]
            cur = it[f, WORD]
            last = it[f, LAST]
            firstv = it[f, WVAL]
            mode = M_OWN
            exg = -1
            ex[0] = cur
            nex = 1
            decol = 0
        else:
            return NO_VALUE
    return key


@njit(cache=True)
def _is_root(it, m):
    return it[m, KIND] == ROOT_TABLE or it[m, KIND] == ROOT_NEW


@njit(cache=True)
def _turn_value(it, items, n, params, gw_off, gw_ids, att):
    """Exact key of the turn made of ``items[:n]`` (at most 3), or ``NO_VALUE`` if they are no turn.
    ``att[p]``: the position in ``items`` of the move that item ``p`` follows (-1 for a root)."""
    roots = np.empty(3, np.int64)
    follows = np.empty(3, np.int64)
    nr = 0
    nf = 0
    for p in range(n):
        att[p] = -1
        if _is_root(it, items[p]):
            roots[nr] = p
            nr += 1
        else:
            follows[nf] = p
            nf += 1
    if nr == 0:
        return NO_VALUE
    # distinct table targets; moves on other players' groups need an own group or a new word
    any_new = False
    any_other = False
    for a in range(nr):
        m = items[roots[a]]
        if it[m, KIND] == ROOT_NEW:
            any_new = True
        if it[m, ON_OTHER] != 0:
            any_other = True
        for b in range(a):
            t = it[items[roots[b]], TARGET]
            if t >= 0 and t == it[m, TARGET]:
                return NO_VALUE
    if any_other and params[P_HAS_OWN] == 0 and not any_new:
        return NO_VALUE
    if nf == 0:
        total = np.int64(0)
        for a in range(nr):
            total += it[items[roots[a]], GKEY]
        return total
    if nf == 1 and nr == 1:
        v = _program_value(it, items[roots[0]], items[follows[0]], -1, params, gw_off, gw_ids)
        att[follows[0]] = roots[0]
        return v
    if nf == 1:  # two roots: the follow-up goes with either
        r0 = items[roots[0]]
        r1 = items[roots[1]]
        f = items[follows[0]]
        v0 = _program_value(it, r0, f, -1, params, gw_off, gw_ids)
        v1 = _program_value(it, r1, f, -1, params, gw_off, gw_ids)
        if v0 == NO_VALUE and v1 == NO_VALUE:
            return NO_VALUE
        if v0 != NO_VALUE and (v1 == NO_VALUE or v0 + it[r1, GKEY] >= v1 + it[r0, GKEY]):
            att[follows[0]] = roots[0]
            return v0 + it[r1, GKEY]
        att[follows[0]] = roots[1]
        return v1 + it[r0, GKEY]
    # one root, two follow-ups in either order
    r = items[roots[0]]
    fa = items[follows[0]]
    fb = items[follows[1]]
    v0 = _program_value(it, r, fa, fb, params, gw_off, gw_ids)
    v1 = _program_value(it, r, fb, fa, params, gw_off, gw_ids)
    if v0 == NO_VALUE and v1 == NO_VALUE:
        return NO_VALUE
    if v0 >= v1:
        att[follows[0]] = roots[0]
        att[follows[1]] = follows[0]
        return v0
    att[follows[1]] = roots[0]
    att[follows[0]] = follows[1]
    return v1


@njit(cache=True)
def _record(v, best, items, n, att, sel, sel_att):
    if v > best:
        for p in range(3):
            sel[p] = items[p] if p < n else -1
            sel_att[p] = att[p] if p < n else -1
        return v
    return best


@njit(cache=True)
def best_turn(ub, card_key, packed, it, params, gw_off, gw_ids, hand_packed, hand_card_key, extra_bound, state, sel,
              sel_att, node_limit):
    """Continue the search for the best turn of up to ``params[P_MOVES]`` (<= 3) items for at most
    ``node_limit`` nodes (fit tests); returns (nodes spent, finished).

    ``ub`` sorted non-increasing, ``ub[m] >= `` what item ``m`` can add to any turn. ``state`` = (i, j + 1,
    k + 1, best key) is where the search stands: (0, 0, 0, 0) starts it; a call that runs out of nodes
    leaves the point to resume at (0 in place of j + 1: item ``i`` not entered yet; of k + 1: pair ``i, j``
    not entered yet) and the incumbent in ``state[3]``, ``sel`` (items, -1 padded) and ``sel_att``
    (which item each follows, see :func:`_turn_value`), so a search cut into several calls does exactly
    what one call does.

    Value bound: ``ub[m] = card_key[m] + extra`` with ``card_key`` additive over cards (letter values times
    the objective's factor) and ``extra >= 0``; ``extra_bound[s]`` bounds the extras of any ``s`` items.
    Items still to add use cards not yet taken, so they add at most the hand's ``card_key`` left plus
    ``extra_bound[slots]``; a branch that cannot beat the incumbent so is skipped (exact). For the same
    reason an item that fits the cards left has a bound of at most their ``card_key`` plus
    ``extra_bound[1]``, so the second and third levels start at the first such bound (binary search).
    """
    n = ub.shape[0]
    moves = params[P_MOVES]
    i0 = state[0]
    j0 = state[1]
    k0 = state[2]
    best = state[3]
    nodes = np.int64(0)
    items = np.full(3, -1, np.int64)
    att = np.full(3, -1, np.int64)
    h0 = np.empty(PACK_WORDS, np.uint64)
    for w in range(PACK_WORDS):
        h0[w] = hand_packed[w] | GUARD
    h1 = np.empty(PACK_WORDS, np.uint64)
    h2 = np.empty(PACK_WORDS, np.uint64)
    h3 = np.empty(PACK_WORDS, np.uint64)
    ceiling = hand_card_key + extra_bound[moves]  # no turn beats it: reaching it ends the search
    for i in range(i0, n):
        ui = ub[i]
        if ui * moves <= best or ceiling <= best:
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
        items[0] = i
        if not resumed_i:
            best = _record(_turn_value(it, items, 1, params, gw_off, gw_ids, att), best, items, 1, att, sel, sel_att)
        left_i = hand_card_key - card_key[i]
        if moves < 2 or ui + left_i + extra_bound[moves - 1] <= best:
            continue
        j_from = i if it[i, KIND] == ROOT_NEW else i + 1
        j_start = j0 - 1 if resumed_i else _first_at_most(ub, j_from, left_i + extra_bound[1])
        for j in range(j_start, n):
            uj = ub[j]
            if ui + uj * (moves - 1) <= best or ceiling <= best:
                break
            resumed_j = resumed_i and j == j0 - 1 and k0 > 0
            if not resumed_j:
                if nodes >= node_limit:
                    state[0] = i
                    state[1] = j + 1
                    state[2] = 0
                    state[3] = best
                    return nodes, False
                nodes += 1
            tj = it[j, TARGET]
            if it[j, KIND] == ROOT_TABLE and it[i, KIND] == ROOT_TABLE and tj == it[i, TARGET]:
                continue
            if not _minus(h1, packed[j], h2):
                continue
            items[1] = j
            if not resumed_j:
                best = _record(_turn_value(it, items, 2, params, gw_off, gw_ids, att), best, items, 2, att, sel, sel_att)
            left_j = left_i - card_key[j]
            if moves < 3 or ui + uj + left_j + extra_bound[1] <= best:
                continue
            k_from = j if it[j, KIND] == ROOT_NEW else j + 1
            k_start = k0 - 1 if resumed_j else _first_at_most(ub, k_from, left_j + extra_bound[1])
            for k in range(k_start, n):
                uk = ub[k]
                if ui + uj + uk <= best:
                    break
                if nodes >= node_limit:
                    state[0] = i
                    state[1] = j + 1
                    state[2] = k + 1
                    state[3] = best
                    return nodes, False
                nodes += 1
                if it[k, KIND] == ROOT_TABLE:
                    tk = it[k, TARGET]
                    if (it[i, KIND] == ROOT_TABLE and tk == it[i, TARGET]) or (it[j, KIND] == ROOT_TABLE and tk == tj):
                        continue
                if not _minus(h2, packed[k], h3):
                    continue
                items[2] = k
                best = _record(_turn_value(it, items, 3, params, gw_off, gw_ids, att), best, items, 3, att, sel, sel_att)
                if best >= ceiling:
                    break
            k0 = 0
        j0 = 0
    state[0] = n
    state[3] = best
    return nodes, True
