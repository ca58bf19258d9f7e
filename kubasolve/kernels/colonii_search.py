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
def _first_at_most(keys, start, hi, cap):
    """The first index in ``start:hi`` whose key is ``<= cap`` (``keys`` non-increasing there; ``hi`` if none)."""
    lo = start
    while lo < hi:
        mid = (lo + hi) >> 1
        if keys[mid] <= cap:
            hi = mid
        else:
            lo = mid + 1
    return lo



# Root columns (int64 matrix ``r_it``): the first move of a program and the state its program goes on from.
(R_NEW, R_TARGET, R_ON_OTHER, R_GKEY, R_LAST, R_WORD, R_MODE, R_SIZE, R_DECL, R_FIRSTV, R_STAKE, R_EXG, R_DECOL, R_POT,
 R_CK, R_SU, R_PB1, R_PB2) = range(18)
R_COLS = 18
"""``R_CK``: card key; ``R_SU``: the largest bound from this root on; ``R_PB1``, ``R_PB2``: the largest bound
from this root on of a program with one, two follow-ups (suffix maxima, in the search's root order)."""

# Chained-word columns (``c_it``) and extension columns (``e_it``).
C_VAL, C_WORD, C_LAST, C_WVAL, C_SQ1 = range(5)
C_COLS = 5
"""``C_SQ1``: the largest card key from this word on (same first letter) of it and the best word chained after it."""
E_CK, E_X, E_Y, E_REQ, E_LAST, E_WVAL = range(6)
E_COLS = 6

# Program states (``R_MODE`` of a root, then evolved by the follow-ups).
M_NONE = 0    # no follow-up (a plain extension of another player's protected word)
M_OWN = 1     # the mover's individual word: a chained word starts a colony
M_OTHER = 2   # another player's individual word (extended by the mover): a chained word must conquer it
M_COLONY = 3  # the mover's colony: chained words are colony additions, the owner's bonuses apply
M_THEIRS = 4  # another player's colony: chained words are colony additions

# Rule and objective parameters (``params``).
P_S, P_SBONUS, P_D, P_A, P_B, P_HAS_OWN, P_MOVES = range(7)

# Search state after ``d`` items (row ``d`` of ``st``).
(S_V, S_CK, S_MODE, S_LAST, S_CUR, S_SIZE, S_DECL, S_FIRSTV, S_STAKE, S_EXG, S_DECOL, S_GROUP, S_POT, S_ROOT, S_NEXT,
 S_HASNEW, S_OTHER, S_NT, S_T0, S_T1, S_T2, S_NEX, S_EX0, S_EX1, S_EX2, S_EX3) = range(26)
S_COLS = 26

# Frames (row ``d`` of ``fr``: choosing item ``d``): phase, next position, end of the list.
PH_EXT, PH_CHAIN, PH_ROOT, PH_DONE = range(4)
F_PHASE, F_POS, F_END, F_RUN = range(4)

# Items of a turn (``path``/``sel`` rows: kind, index).
I_ROOT, I_CHAIN, I_EXT = range(3)

# Control (``ctl``): where the search stands between calls.
C_TOP, C_BEST, C_STARTED = range(3)


@njit(cache=True)
def _excluded(w, st, d, gw_off, gw_ids):
    """Is word ``w`` already in the open program's colony (or its individual word)?"""
    for t in range(st[d, S_NEX]):
        if st[d, S_EX0 + t] == w:
            return True
    exg = st[d, S_EXG]
    if exg >= 0:
        for t in range(gw_off[exg], gw_off[exg + 1]):
            if gw_ids[t] == w:
                return True
    return False


@njit(cache=True)
def _rest(s, nxt, r_it):
    """Most that programs with roots from ``nxt`` on can add in ``s`` items: each root's bound is at most
    ``R_SU`` of ``nxt`` and a program of ``t`` follow-ups at most ``R_PB<t>`` (suffix maxima)."""
    if s <= 0 or nxt >= r_it.shape[0]:
        return np.int64(0)
    u = r_it[nxt, R_SU]
    if s == 1:
        return u
    if s == 2:
        return max(r_it[nxt, R_PB1], 2 * u)
    return max(r_it[nxt, R_PB2], r_it[nxt, R_PB1] + u, 3 * u)


@njit(cache=True)
def _open_frame(d, st, fr, r_ub, run_start, run_extra, e_off, c_off, c_ck):
    """Start choosing item ``d`` from the state after ``d`` items: first the open program's follow-ups
    (the extensions a decolonisation allows, then chained words of its last letter), then new programs."""
    fr[d, F_PHASE] = PH_ROOT
    if st[d, S_ROOT] >= 0:
        g = st[d, S_GROUP]
        if st[d, S_DECOL] != 0 and g >= 0 and e_off[g] < e_off[g + 1]:
            fr[d, F_PHASE] = PH_EXT
            fr[d, F_POS] = e_off[g]
            fr[d, F_END] = e_off[g + 1]
            return
        if st[d, S_MODE] != M_NONE:
            _chain_phase(d, st, fr, c_off, c_ck)
            return
    _root_phase(d, st, fr, r_ub, run_start, run_extra)


@njit(cache=True)
def _chain_phase(d, st, fr, c_off, c_ck):
    letter = st[d, S_LAST]
    fr[d, F_PHASE] = PH_CHAIN
    fr[d, F_POS] = _first_at_most(c_ck, c_off[letter], c_off[letter + 1], st[d, S_CK])
    fr[d, F_END] = c_off[letter + 1]


@njit(cache=True)
def _root_phase(d, st, fr, r_ub, run_start, run_extra):
    """Roots come in runs of equal extra (what a root's bound holds beyond its cards: stakes, bonuses), each
    run by bound, so within a run a root fits the cards left only if its bound is at most their card key plus
    the run's extra: each run is entered at the first root that can fit (binary search)."""
    fr[d, F_PHASE] = PH_ROOT
    nxt = st[d, S_NEXT]
    run = np.int64(0)
    while run < run_extra.shape[0] and run_start[run + 1] <= nxt:
        run += 1
    _enter_run(d, run, nxt, st, fr, r_ub, run_start, run_extra)


@njit(cache=True)
def _enter_run(d, run, nxt, st, fr, r_ub, run_start, run_extra):
    """Point frame ``d`` at the first root from ``nxt`` on, in run ``run`` or a later one, that can fit."""
    while run < run_extra.shape[0]:
        end = run_start[run + 1]
        pos = _first_at_most(r_ub, max(nxt, run_start[run]), end, st[d, S_CK] + run_extra[run])
        if pos < end:
            fr[d, F_POS] = pos
            fr[d, F_END] = end
            fr[d, F_RUN] = run
            return
        run += 1
    fr[d, F_PHASE] = PH_DONE


@njit(cache=True)
def _copy_state(st, d):
    """Row ``d + 1`` of ``st`` = row ``d``, element by element (an array-to-slice assignment compiles its
    error-message formatting: seconds of first-run compile time)."""
    for c in range(S_COLS):
        st[d + 1, c] = st[d, c]


@njit(cache=True)
def _place_root(i, d, st, r_it):
    """State ``d + 1``: root ``i`` starts a program after the state ``d``."""
    _copy_state(st, d)
    st[d + 1, S_V] = st[d, S_V] + r_it[i, R_GKEY]
    st[d + 1, S_CK] = st[d, S_CK] - r_it[i, R_CK]
    st[d + 1, S_MODE] = r_it[i, R_MODE]
    st[d + 1, S_SIZE] = r_it[i, R_SIZE]
    st[d + 1, S_DECL] = r_it[i, R_DECL]
    st[d + 1, S_FIRSTV] = r_it[i, R_FIRSTV]
    st[d + 1, S_STAKE] = r_it[i, R_STAKE]
    st[d + 1, S_LAST] = r_it[i, R_LAST]
    st[d + 1, S_CUR] = r_it[i, R_WORD]
    st[d + 1, S_EXG] = r_it[i, R_EXG]
    st[d + 1, S_DECOL] = r_it[i, R_DECOL]
    st[d + 1, S_GROUP] = r_it[i, R_TARGET]
    st[d + 1, S_POT] = r_it[i, R_POT]
    st[d + 1, S_ROOT] = i
    st[d + 1, S_NEXT] = i if r_it[i, R_NEW] != 0 else i + 1
    if r_it[i, R_NEW] != 0:
        st[d + 1, S_HASNEW] = 1
    else:
        st[d + 1, S_T0 + st[d, S_NT]] = r_it[i, R_TARGET]
        st[d + 1, S_NT] = st[d, S_NT] + 1
    if r_it[i, R_ON_OTHER] != 0:
        st[d + 1, S_OTHER] = 1
    st[d + 1, S_NEX] = 1
    st[d + 1, S_EX0] = r_it[i, R_WORD]


@njit(cache=True)
def _place_chain(q, d, st, c_ck, c_it, params, gw_off, gw_ids):
    """State ``d + 1``: chained word ``q`` follows the open program of state ``d``; False if the rules refuse
    it (a word already in the colony, a conquest B that does not out-value the word). The owner declares a
    supercolony and decolonises as soon as the colony reaches their sizes (only more points and moves)."""
    w = c_it[q, C_WORD]
    if _excluded(w, st, d, gw_off, gw_ids):
        return False
    mode = st[d, S_MODE]
    if mode == M_OTHER and c_it[q, C_VAL] <= st[d, S_FIRSTV]:  # conquest B: added cards worth more than the word
        return False
    _copy_state(st, d)
    v = st[d, S_V] + c_ck[q]
    st[d + 1, S_CK] = st[d, S_CK] - c_ck[q]
    st[d + 1, S_DECOL] = 0
    nex = st[d, S_NEX]
    if mode in (M_OWN, M_OTHER):
        if mode == M_OTHER:
            v += st[d, S_STAKE] * (params[P_A] + params[P_B])
        st[d + 1, S_MODE] = M_COLONY
        st[d + 1, S_SIZE] = 2
        st[d + 1, S_DECL] = 0
        st[d + 1, S_EXG] = -1
        st[d + 1, S_EX0] = st[d, S_CUR]
        st[d + 1, S_EX1] = w
        st[d + 1, S_NEX] = 2
        if params[P_S] <= 2:
            v += params[P_SBONUS]
            st[d + 1, S_DECL] = 1
    elif mode == M_COLONY:
        size = st[d, S_SIZE] + 1
        st[d + 1, S_SIZE] = size
        st[d + 1, S_EX0 + nex] = w
        st[d + 1, S_NEX] = nex + 1
        if st[d, S_DECL] == 0 and size >= params[P_S]:
            v += params[P_SBONUS]
            st[d + 1, S_DECL] = 1
        if size >= params[P_D]:
            v += st[d, S_FIRSTV] * params[P_A]
            st[d + 1, S_MODE] = M_OWN
            st[d + 1, S_FIRSTV] = c_it[q, C_WVAL]
            st[d + 1, S_EXG] = -1
            st[d + 1, S_EX0] = w
            st[d + 1, S_NEX] = 1
            st[d + 1, S_DECOL] = 1
    else:  # another player's colony
        st[d + 1, S_EX0 + nex] = w
        st[d + 1, S_NEX] = nex + 1
    st[d + 1, S_V] = v
    st[d + 1, S_CUR] = w
    st[d + 1, S_LAST] = c_it[q, C_LAST]
    return True


@njit(cache=True)
def _place_ext(e, d, st, r_it, e_it):
    """State ``d + 1``: right after a decolonisation, the word it left (``e_x``) extends into ``e_y``, a word
    that left play with it (``e_req``: the root that must have added it this turn, or -1)."""
    if st[d, S_DECOL] == 0 or e_it[e, E_X] != st[d, S_CUR]:
        return False
    if e_it[e, E_REQ] >= 0 and r_it[st[d, S_ROOT], R_WORD] != e_it[e, E_REQ]:
        return False
    _copy_state(st, d)
    st[d + 1, S_V] = st[d, S_V] + e_it[e, E_CK]
    st[d + 1, S_CK] = st[d, S_CK] - e_it[e, E_CK]
    st[d + 1, S_MODE] = M_OWN
    st[d + 1, S_CUR] = e_it[e, E_Y]
    st[d + 1, S_LAST] = e_it[e, E_LAST]
    st[d + 1, S_FIRSTV] = e_it[e, E_WVAL]
    st[d + 1, S_EXG] = -1
    st[d + 1, S_EX0] = e_it[e, E_Y]
    st[d + 1, S_NEX] = 1
    st[d + 1, S_DECOL] = 0
    return True


@njit(cache=True)
def best_turn(r_ub, r_it, r_packed, run_start, run_extra, c_off, c_ck, c_it, c_packed, e_off, e_it, e_packed, params, gw_off,
              gw_ids, hand_packed, hand_card_key, extra_bound, st, hs, fr, path, ctl, sel, node_limit):
    """Continue the search for the best turn of up to ``params[P_MOVES]`` (<= 3) items for at most
    ``node_limit`` nodes (fit tests); returns (nodes spent, finished).

    A depth-first search over programs: a root (``r_it`` rows, columns ``R_*``; in runs ``run_start`` of
    equal extra ``run_extra``, each run by bound ``r_ub`` non-increasing), then its follow-ups (the
    extensions ``e_it`` of its group a decolonisation allows, grouped by group at ``e_off``, then the
    chained words ``c_it`` of its last letter, grouped by first letter at ``c_off``, by card key ``c_ck``
    non-increasing), then the next program with a later root (a new word may repeat). Bounds: a root's
    ``r_ub`` holds its own key and every stake and bonus its program may still take (``R_POT``);
    ``R_SU``, ``R_PB1``, ``R_PB2`` are suffix maxima of the bound of a root and of a program with one or
    two follow-ups; ``C_SQ1`` the suffix maximum (per letter) of a chained word's card key plus the best
    word chained after it; ``extra_bound[s]`` bounds the extras of ``s`` roots, and every item left uses
    cards not yet taken, so what is left is at most the card key left plus those (and the open program's
    potential). Every level stops at the first candidate whose bound cannot beat the incumbent: the search
    is exact.

    The whole search state lives in the caller's arrays (``st``, ``hs``: states after 0..3 items; ``fr``:
    frames; ``path``: the items chosen; ``ctl``: top frame, best key, started), so a search cut into several
    calls by ``node_limit`` does exactly what one call does. ``sel``: the best turn's items (kind, index),
    kind -1 past its end.
    """
    moves = params[P_MOVES]
    ceiling = hand_card_key + extra_bound[moves]
    nodes = np.int64(0)
    if ctl[C_STARTED] == 0:
        ctl[C_STARTED] = 1
        ctl[C_BEST] = 0
        for c in range(S_COLS):
            st[0, c] = 0
        st[0, S_CK] = hand_card_key
        st[0, S_ROOT] = -1
        st[0, S_GROUP] = -1
        st[0, S_EXG] = -1
        for w in range(PACK_WORDS):
            hs[0, w] = hand_packed[w] | GUARD
        ctl[C_TOP] = 0
        _root_phase(ctl[C_TOP], st, fr, r_ub, run_start, run_extra)  # an int64, not a literal 0: one compiled version
    best = ctl[C_BEST]
    top = ctl[C_TOP]
    while top >= 0:
        if best >= ceiling:
            break
        d = top
        phase = fr[d, F_PHASE]
        if phase == PH_DONE:
            top -= 1
            continue
        pos = fr[d, F_POS]
        if pos >= fr[d, F_END]:
            if phase == PH_EXT and st[d, S_MODE] != M_NONE:
                _chain_phase(d, st, fr, c_off, c_ck)
            elif phase == PH_ROOT:
                _enter_run(d, fr[d, F_RUN] + 1, pos, st, fr, r_ub, run_start, run_extra)
            else:
                _root_phase(d, st, fr, r_ub, run_start, run_extra)
            continue
        slots = moves - d  # items still to place, this one included
        v = st[d, S_V]
        if phase == PH_CHAIN:
            after = slots - 1
            bound = c_ck[pos] + _rest(after, st[d, S_NEXT], r_it)
            if after >= 1 and c_it[pos, C_SQ1] > bound:
                bound = c_it[pos, C_SQ1]
            if v + st[d, S_POT] + bound <= best:
                _root_phase(d, st, fr, r_ub, run_start, run_extra)
                continue
        elif phase == PH_ROOT:
            if v + _rest(slots, pos, r_it) <= best:  # no later root, in any run, can do better
                fr[d, F_PHASE] = PH_DONE
                continue
            if slots == 1 and v + r_ub[pos] <= best:  # the last item: no later root of this run can
                _enter_run(d, fr[d, F_RUN] + 1, pos, st, fr, r_ub, run_start, run_extra)
                continue
        if nodes >= node_limit:
            ctl[C_TOP] = top
            ctl[C_BEST] = best
            return nodes, False
        nodes += 1
        fr[d, F_POS] = pos + 1
        if phase == PH_ROOT:
            if r_it[pos, R_NEW] == 0:
                clash = False
                for t in range(st[d, S_NT]):
                    if st[d, S_T0 + t] == r_it[pos, R_TARGET]:
                        clash = True
                if clash:
                    continue
            if not _minus(hs[d], r_packed[pos], hs[d + 1]):
                continue
            _place_root(pos, d, st, r_it)
            kind = I_ROOT
        elif phase == PH_CHAIN:
            if not _minus(hs[d], c_packed[pos], hs[d + 1]):
                continue
            if not _place_chain(pos, d, st, c_ck, c_it, params, gw_off, gw_ids):
                continue
            kind = I_CHAIN
        else:
            if not _minus(hs[d], e_packed[pos], hs[d + 1]):
                continue
            if not _place_ext(pos, d, st, r_it, e_it):
                continue
            kind = I_EXT
        path[d, 0] = kind
        path[d, 1] = pos
        v1 = st[d + 1, S_V]
        if v1 > best and (params[P_HAS_OWN] != 0 or st[d + 1, S_HASNEW] != 0 or st[d + 1, S_OTHER] == 0):
            best = v1
            for t in range(3):
                sel[t, 0] = path[t, 0] if t <= d else -1
                sel[t, 1] = path[t, 1] if t <= d else -1
        if d + 1 < moves and v1 + st[d + 1, S_CK] + st[d + 1, S_POT] + extra_bound[moves - d - 1] > best:
            _open_frame(d + 1, st, fr, r_ub, run_start, run_extra, e_off, c_off, c_ck)
            top = d + 1
    ctl[C_TOP] = -1
    ctl[C_BEST] = best
    return nodes, True
