"""Best words on a twisty 4x4x4 letter cube: breadth-first twist search + DAWG scan of the 12 belts.

A state is the permutation ``origin[cell]`` = the cell whose peg (at the start of the turn) now
sits in ``cell``; the root is the identity. Pegs are described by start cell: ``peg_code`` (letter
code, -1 for wildcard and premium pegs, 63 for a letter the lexicon lacks), ``peg_kind`` (0 letter,
1 wildcard, 2/3 2x/3x letter, 4/5 2x/3x word premium), ``peg_value`` and ``peg_tri`` (the peg's
symbol in the trigram table: its letter code, ``WILD`` = any letter, ``BLOCK`` = no letter). A run
places a new letter unless its pegs stood in a row, in that order (or reversed), on one belt at the
start of the turn: ``link[a, b]`` (``cube.belt_links``) codes each pair of belt neighbours by belt and
direction, and a run is old exactly when the links between its consecutive pegs' start cells are all
one nonzero code (an unmoved word, or a word a layer turn slid along its belt).

Search. Level ``d`` holds the states first reached with ``d`` twists. A state is expanded by the
36 twists except redundant ones: a twist on the same axis as the previous twist must turn a layer
of higher index (so the same layer is never turned twice in a row and commuting parallel layers are
turned in one canonical order). Each child is hashed (Zobrist: XOR of ``zobrist[cell, origin]``,
updated from the parent's hash over the cells the twist moves) into an open-addressing table of
64-bit hashes; a state seen before is dropped. The whole loop runs in this one kernel.

Incremental scan. With ``restrict`` (sound when no crossing words are given) a child state scans
only the belts the last twist changed and only runs touching a changed cell: any other run was
already present, with the same pegs and score, in the parent, one twist earlier. Everything about a
belt that does not depend on the pegs is tabled once per search: the reading order of each belt
and direction, its face-change prefix counts (three-face bonus), and for each twist the changed
positions of each belt and the next changed position from each index. Per state and belt only the
16 pegs and their 16 links are gathered (once, for both directions; a belt whose links are all one
is skipped: no run on it places a letter) and the letter-value prefix sums, the stretch of equal
links from each index and the trigram run lengths are rebuilt.

Walk. Each belt is a cyclic string of 16 cells; a word is a run of 1..``max_len`` consecutive
cells read forward (or also backward), walked through the DAWG search graph
(``lexicon/layout.py``, interleaved with each target's letter set by :func:`walk_graph`): a letter
peg follows its one edge (found in O(1): a popcount of the letter set), a wildcard peg (and, in ``wild`` mode, a premium peg)
every edge; in ``ends`` mode a premium peg ends the run and may multiply the letter next to it or
the word. A premium peg does not count for a word it already counted for (``spent_prem`` /
``spent_rank``: premium peg and word rank, looked up only for a peg that has entries). In ``wild``
mode each letter premium multiplies its higher-valued neighbour, a tie read in the player's favour
(:func:`_wild_letter_points`).

Pruning (all exact: only runs that cannot score above the pool's floor are cut).
- Length: a run needs ``need`` letters (the minimum length, two more than the stretch of equal links
  from its start so that it leaves the row its first pegs stood in, and, with ``restrict``, up to a
  changed cell); a walk stops when the node's height cannot reach it.
- Trigrams: a word of 3+ letters starts with the first three letters of some word, ends with the
  last three of some word, and every three consecutive letters occur in some word (``trigram``
  table over letter codes plus ``WILD``/``BLOCK``), so a run from index ``s`` has at most
  ``lim(s)`` letters: the trigrams from ``s`` stay valid up to it and a word-final trigram ends it.
- Score bound: once the pool of the ``top`` best is full, a start (and each walk step, with reach
  ``min(length + height, lim(s))``) is skipped when an upper bound on any run of that reach scores
  no more than the pool's lowest (letter sum of the window, premium factors of any premium peg in
  or next to it, the largest length bonus, the face bonus if the window spans three faces). The
  bound is monotone in the reach, so each start keeps the largest reach known to fail and the
  smallest known to pass and evaluates it only in between.

Results. A pool of the ``top`` best distinct words (one entry per word rank: its best run, first
found = fewest twists), ordered by score then fewer twists (breadth-first order makes the first
found the fewest twists); a pool slot holds the state index, from which the caller rebuilds the
twist sequence via ``parent`` / ``via``.

No reference counting per state. The per-state functions (``scan_state``, the pool and hash-table
helpers) are compiled with ``_nrt=False``: with numba's runtime on, each of the ~30 scratch-row views
``scan_state`` takes per call, and each array handed to a helper, costs an atomic increment and
decrement of a reference count (the same cost ``kernels/board_movegen.py`` measured at 59% of a small
position). They must therefore not allocate; only ``best_words_search`` does.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from kubasolve.kernels.arrays import copy_prefix, copy_prefix_rows

LETTER_MASK = 63
TERMINAL_SHIFT = 7
HEIGHT_SHIFT = 8
NCHILD_SHIFT = 16
FIRST_SHIFT = 32
K_LETTER = 0
K_WILD = 1
K_DL = 2
K_TL = 3
K_DW = 4
K_TW = 5
TRI_IN = 1
TRI_FIRST = 2
TRI_LAST = 4
NONE = 99
"""``nxt_*`` value when there is no later new / changed position."""

# rows of the per-state integer scratch (length SEQ + 1)
(R_F_CODE, R_F_KIND, R_F_VAL, R_F_LINK, R_F_TRI, R_CODE, R_KIND, R_VAL, R_PEG, R_TRI_RUN,
 R_PRE_VAL, R_PRE_DL, R_PRE_TL, R_PRE_DW, R_PRE_TW, R_CUR, R_END, R_TRI_BITS, R_VALS, R_KINDS, R_FACES, R_LIVE,
 R_CHGC, R_POW2, R_POW3, R_F_TRIB, R_R_TRIB, R_F_SAME, R_SAME, R_SCODE, R_SAMEC, R_CELL) = range(32)
N_ROWS = 32
SEQ = 32
"""A belt read from a start index: 16 positions twice over, so runs need no wrap-around arithmetic
(a start below 16, at most 15 more cells and the cell after)."""


@njit(cache=True, inline="always")
def _factor(kind):
    return 2 if kind in (K_DL, K_DW) else 3


@njit(cache=True, inline="always")
def _popcount(x):
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((x * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True)
def walk_graph(search_edges):
    """The search graph with each edge's target letter set beside it: ``[e, 0]`` the packed edge,
    ``[e, 1]`` the set (bit = letter code) of the target's children, so a step reads one cache line
    and finds the child for a letter in O(1) (``first + popcount(set below the letter)``)."""
    n = search_edges.shape[0]
    out = np.zeros((n, 2), np.uint64)
    for e in range(n):
        packed = search_edges[e]
        first = np.int64(packed >> np.uint64(FIRST_SHIFT))
        nchild = np.int64((packed >> np.uint64(NCHILD_SHIFT)) & np.uint64(255))
        m = np.uint64(0)
        for c in range(first, first + nchild):
            m |= np.uint64(1) << (search_edges[c] & np.uint64(LETTER_MASK))
        out[e, 0] = packed
        out[e, 1] = m
    return out


@njit(cache=True)
def word_trigrams(first_edge, edges, node_word, n_letters):
    """``tri[a, b, c]`` bits: ``TRI_IN`` letters ``abc`` occur consecutively in some word,
    ``TRI_FIRST`` some word starts with them, ``TRI_LAST`` some word ends with them (CSR trie,
    nodes numbered parents first)."""
    n_nodes = first_edge.shape[0] - 1
    last1 = np.full(n_nodes, -1, np.int64)
    last2 = np.full(n_nodes, -1, np.int64)
    depth = np.zeros(n_nodes, np.int64)
    tri = np.zeros((n_letters, n_letters, n_letters), np.uint8)
    for v in range(n_nodes):
        for e in range(first_edge[v], first_edge[v + 1]):
            packed = np.int64(edges[e])
            child = packed >> 6
            letter = packed & LETTER_MASK
            last1[child] = letter
            last2[child] = last1[v]
            depth[child] = depth[v] + 1
            if last2[v] >= 0:
                bits = TRI_IN
                if depth[v] == 2:
                    bits |= TRI_FIRST
                if node_word[child] >= 0:
                    bits |= TRI_LAST
                tri[last2[v], last1[v], letter] |= bits
    return tri


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (module docstring)
def _pool_push(pool_i, pool_score, pool_twists, n_pool, top, score, twists, state, belt, start, direction, length, rank):
    """Insert a candidate into the top pool (one entry per word: better score, then fewer twists)."""
    for k in range(n_pool):
        if pool_i[k, 5] == rank:
            if score > pool_score[k]:
                pool_score[k] = score
                pool_twists[k] = twists
                pool_i[k, 0] = state
                pool_i[k, 1] = belt
                pool_i[k, 2] = start
                pool_i[k, 3] = direction
                pool_i[k, 4] = length
            return n_pool
    if n_pool < top:
        k = n_pool
        n_pool += 1
    else:
        # replace the worst: lowest score, then most twists, then latest found
        k = 0
        for m in range(1, n_pool):
            if pool_score[m] < pool_score[k] or (pool_score[m] == pool_score[k] and pool_twists[m] >= pool_twists[k]):
                k = m
        if score < pool_score[k] or (score == pool_score[k] and twists >= pool_twists[k]):
            return n_pool
    pool_score[k] = score
    pool_twists[k] = twists
    pool_i[k, 0] = state
    pool_i[k, 1] = belt
    pool_i[k, 2] = start
    pool_i[k, 3] = direction
    pool_i[k, 4] = length
    pool_i[k, 5] = rank
    return n_pool


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (module docstring)
def _pool_floor(pool_score, n_pool, top):
    """A candidate must score above this to enter the full pool (-1 while it is not full).

    Breadth-first order means a later candidate never has fewer twists, so an equal score never
    displaces a pool entry.
    """
    if n_pool < top:
        return np.int64(-1)
    low = pool_score[0]
    for k in range(1, n_pool):
        if pool_score[k] < low:
            low = pool_score[k]
    return low


@njit(cache=True, inline="always")
def _bound(i, lmax, w, fb, has_prem, len_bonus_max, face_bonus, max_value, cross_total, wild_mode):
    """Upper bound on the score of any run of ``<= lmax`` letters from sequence index ``i``.

    Letter sum of the ``lmax`` cells, premium factors of every premium peg in the window (with the
    cells before and after in ``ends`` mode), the largest length bonus and the face bonus if the
    window spans three faces. Monotone in ``lmax``.
    """
    total = w[R_PRE_VAL, i + lmax] - w[R_PRE_VAL, i]
    if has_prem:
        pre_dl = w[R_PRE_DL]
        pre_tl = w[R_PRE_TL]
        pre_dw = w[R_PRE_DW]
        pre_tw = w[R_PRE_TW]
        w1 = i + lmax if wild_mode else i + lmax + 1
        ndl = pre_dl[w1] - pre_dl[i]
        ntl = pre_tl[w1] - pre_tl[i]
        ndw = pre_dw[w1] - pre_dw[i]
        ntw = pre_tw[w1] - pre_tw[i]
        if not wild_mode:  # the cell before (cyclic)
            w0 = i + 15
            ndl += pre_dl[w0 + 1] - pre_dl[w0]
            ntl += pre_tl[w0 + 1] - pre_tl[w0]
            ndw += pre_dw[w0 + 1] - pre_dw[w0]
            ntw += pre_tw[w0 + 1] - pre_tw[w0]
        pow2 = w[R_POW2]
        pow3 = w[R_POW3]
        lf = pow2[min(ndl, 8)] * pow3[min(ntl, 8)]
        wf = pow2[min(ndw, 8)] * pow3[min(ntw, 8)]
        total = (total + (lf - 1) * max_value) * wf
    total += len_bonus_max[lmax] + cross_total
    if fb[i + lmax - 1] - fb[i] >= 2:
        total += face_bonus
    return total


@njit(cache=True, inline="always")
def _bound_direct(i, lmax, pos, f_val, f_kind, fb, has_prem, len_bonus_max, face_bonus, max_value, cross_total,
                  wild_mode, w):
    """:func:`_bound` read straight from the belt's pegs (before the reading-order prefix sums exist)."""
    total = 0
    for k in range(i, i + lmax):
        total += f_val[pos[k]]
    if has_prem:
        ndl = 0
        ntl = 0
        ndw = 0
        ntw = 0
        lo = i if wild_mode else i - 1
        hi = i + lmax if wild_mode else i + lmax + 1
        for k in range(lo, hi):
            kd = f_kind[pos[(k + 16) % SEQ]]
            if kd == K_DL:
                ndl += 1
            elif kd == K_TL:
                ntl += 1
            elif kd == K_DW:
                ndw += 1
            elif kd == K_TW:
                ntw += 1
        pow2 = w[R_POW2]
        pow3 = w[R_POW3]
        lf = pow2[min(ndl, 8)] * pow3[min(ntl, 8)]
        wf = pow2[min(ndw, 8)] * pow3[min(ntw, 8)]
        total = (total + (lf - 1) * max_value) * wf
    total += len_bonus_max[lmax] + cross_total
    if fb[i + lmax - 1] - fb[i] >= 2:
        total += face_bonus
    return total


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (module docstring)
def _premium_counts(premium, cur, edge_rank, length, spent_prem, spent_rank, n_spent, q_peg, s, spent_pegs, spent_len):
    """Whether the premium peg ``premium`` (its start cell) counts for the word spelled by ``cur[:length]`` on the
    pegs ``q_peg[s:s + length]``: not if it already counted for that word (``spent_prem``/``spent_rank``: premium
    peg and word rank), nor for a word whose pegs hold, in a row either way, the pegs of the word it counted for
    (``spent_pegs[e, :spent_len[e]]``). The rank is summed only when the peg has spent entries."""
    rank = -1
    for e in range(n_spent):
        if spent_prem[e] == premium:
            if rank < 0:
                rank = 0
                for i in range(length):
                    rank += edge_rank[cur[i] - 1]
            if spent_rank[e] == rank:
                return False
            if _holds_pegs(q_peg, s, length, spent_pegs, spent_len[e], e):
                return False
    return True


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (module docstring)
def _holds_pegs(q_peg, s, length, spent_pegs, m, e):
    """Whether ``spent_pegs[e, :m]`` stand in a row inside ``q_peg[s:s + length]``, in that order or reversed."""
    if m == 0 or m > length:
        return False
    for i in range(length - m + 1):
        fwd = True
        rev = True
        for k in range(m):
            p = q_peg[s + i + k]
            if p != spent_pegs[e, k]:
                fwd = False
            if p != spent_pegs[e, m - 1 - k]:
                rev = False
            if not fwd and not rev:
                break
        if fwd or rev:
            return True
    return False


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (module docstring)
def _reformed(q_peg, q_cell, s, length, rank, spent_prem, spent_rank, n_spent, spent_pegs, spent_len, spent_cells):
    """Whether the run ``q_peg[s:s + length]`` (in cells ``q_cell[s:s + length]``) spelling word ``rank`` is a scored
    word made again of its own pegs or in its own cells (an entry with ``spent_prem`` -1: the word's rank, its pegs
    and cells, in that order or reversed)."""
    for e in range(n_spent):
        if (spent_prem[e] == -1 and spent_len[e] == length and spent_rank[e] == rank
                and (_holds_pegs(q_peg, s, length, spent_pegs, length, e)
                     or (spent_cells[e, 0] >= 0 and _holds_pegs(q_cell, s, length, spent_cells, length, e)))):
            return True
    return False


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (module docstring)
def _wild_letter_points(vals, kinds, live, length):
    """Letter points of a run in option 2: each live letter-premium peg (a wildcard worth 0) multiplies its
    higher-valued neighbour; on a tie the reading better for the player. Exact by dynamic programming: two
    letter premiums interact only through the one letter between them (``v * a * b`` when both pick it), so
    the state is whether the previous letter premium picked its right neighbour."""
    base = 0
    for i in range(length):
        base += vals[i]
    neg = -(np.int64(1) << 62)
    best_none = np.int64(0)  # best gain so far with the last letter premium not multiplying its right neighbour
    best_right = neg  # ... multiplying it (the last premium at ``last``, factor ``last_f``)
    last = -10
    last_f = 1
    for i in range(length):
        ki = kinds[i]
        if (ki != K_DL and ki != K_TL) or not live[i]:
            continue
        f = _factor(ki)
        has_l = i > 0
        has_r = i + 1 < length
        can_l = has_l and (not has_r or vals[i - 1] >= vals[i + 1])
        can_r = has_r and (not has_l or vals[i + 1] >= vals[i - 1])
        prev = max(best_none, best_right)
        n_none = neg
        n_right = neg
        if can_l:
            gain = vals[i - 1] * (f - 1)
            n_none = best_none + gain if best_none > neg else neg
            if best_right > neg:
                both = vals[i - 1] * (last_f - 1) * (f - 1) if last == i - 2 else 0
                n_none = max(n_none, best_right + gain + both)
        if can_r:
            n_right = prev + vals[i + 1] * (f - 1)
        if not can_l and not can_r:
            n_none = prev
        best_none = n_none
        best_right = n_right
        last = i
        last_f = f
    return base + max(best_none, best_right)


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (module docstring)
def scan_state(
    origin, twists, state, last_twist, restrict,
    peg_code, peg_kind, peg_value, peg_tri, belt_cells, twist_belts, seq_pos, face_runs, chg_seq, nxt_chg_seq,
    chg_list_seq, n_chg_seq,
    graph, edge_rank, root_edge, root_hi, trigram, tri_stride,
    min_len, max_len, both_dirs, wild_mode, require_new, len_bonus, len_bonus_max, face_bonus, max_value,
    cross_mask_cell, cross_points, belt_of_cross, n_cross, cross_total,
    pool_i, pool_score, pool_twists, n_pool, top, w, q_cross, xmask,
    link, spent_prem, spent_rank, n_spent, spent_pegs, spent_len, spent_cells,
):
    """Scan the belts of one state; push every scoring run into the pool; return the new pool size."""
    f_same = w[R_F_SAME]
    q_same = w[R_SAME]
    q_scode = w[R_SCODE]
    samec = w[R_SAMEC]
    q_cell = w[R_CELL]
    f_code = w[R_F_CODE]
    f_kind = w[R_F_KIND]
    f_val = w[R_F_VAL]
    f_link = w[R_F_LINK]
    f_tri = w[R_F_TRI]
    q_code = w[R_CODE]
    q_kind = w[R_KIND]
    q_val = w[R_VAL]
    q_peg = w[R_PEG]
    tri_run = w[R_TRI_RUN]
    tri_bits = w[R_TRI_BITS]
    f_trib = w[R_F_TRIB]
    r_trib = w[R_R_TRIB]
    pre_val = w[R_PRE_VAL]
    pre_dl = w[R_PRE_DL]
    pre_tl = w[R_PRE_TL]
    pre_dw = w[R_PRE_DW]
    pre_tw = w[R_PRE_TW]
    cur = w[R_CUR]
    end = w[R_END]
    vals = w[R_VALS]
    kinds = w[R_KINDS]
    faces = w[R_FACES]
    live = w[R_LIVE]
    chgc = w[R_CHGC]
    block = tri_stride - 1
    n_dirs = 2 if both_dirs else 1
    floor = _pool_floor(pool_score, n_pool, top)
    ts = max(last_twist, 0)
    for belt in range(12):
        if restrict and not twist_belts[ts, belt]:
            continue
        # gather the belt's 16 pegs once for both directions, and the link from each peg to the next
        # (``link``: where they stood at the start of the turn; one code per belt and direction)
        has_prem = False
        o_first = origin[belt_cells[belt, 0]]
        o_prev = o_first
        slid = True  # every peg follows its neighbour as at the start: no run places a new letter
        unchanged = True  # every cell shows the symbol it showed at the start: no run places a new letter
        any_two = False  # a wildcard where a letter stood: runs over it are checked letter by letter in the walk
        for p in range(16):
            o = o_prev if p == 0 else origin[belt_cells[belt, p]]
            if require_new:  # 1: the cell shows its start symbol; 2: a wildcard now, a letter then (same if read so)
                cell = belt_cells[belt, p]
                if o == cell or (peg_kind[o] == peg_kind[cell] and peg_code[o] == peg_code[cell]):
                    f_same[p] = 1
                else:
                    unchanged = False
                    f_same[p] = 2 if peg_kind[cell] == K_LETTER and (peg_kind[o] == K_WILD or (
                        wild_mode and peg_kind[o] >= K_DL)) else 0
                    if f_same[p] == 2:
                        any_two = True
            f_code[p] = peg_code[o]
            f_kind[p] = peg_kind[o]
            f_val[p] = peg_value[o]
            f_tri[p] = peg_tri[o]
            if peg_kind[o] >= K_DL:
                has_prem = True
            if require_new and p > 0:
                lk = link[o_prev, o]
                f_link[p - 1] = lk
                if lk == 0 or lk != f_link[0]:
                    slid = False
            o_prev = o
        if require_new:
            lk = link[o_prev, o_first]
            f_link[15] = lk
            if lk == 0 or lk != f_link[0]:
                slid = False
            if slid or unchanged:
                continue
        # trigram bits at each belt position, read forward (p, p+1, p+2) and backward (p, p-1, p-2)
        for p in range(16):
            a = f_tri[p]
            b = f_tri[(p + 1) & 15]
            c = f_tri[(p + 2) & 15]
            f_trib[p] = trigram[(a * tri_stride + b) * tri_stride + c]
            if both_dirs:
                b = f_tri[(p + 15) & 15]
                c = f_tri[(p + 14) & 15]
                r_trib[p] = trigram[(a * tri_stride + b) * tri_stride + c]
        for di in range(n_dirs):
            pos = seq_pos[di]
            fb = face_runs[belt, di]
            trib = f_trib if di == 0 else r_trib
            if restrict:
                q_chg = chg_seq[ts, belt, di]
                nxt_chg = nxt_chg_seq[ts, belt, di]
            else:
                q_chg = chg_seq[36, 0, 0]  # all ones
                nxt_chg = nxt_chg_seq[36, 0, 0]  # k itself
            # pass 1 (reading order, backwards): trigram bits and runs
            run = 0
            for k in range(SEQ - 1, -1, -1):
                p = pos[k]
                bits = trib[p]
                tri_bits[k] = bits
                if bits & TRI_IN:
                    run += 1
                else:
                    run = 0
                tri_run[k] = run
            # starts that may touch a changed cell (restrict): from each changed index back while
            # the trigrams can still carry a run to it, and the start right after it (premiums)
            if restrict and n_chg_seq[ts, belt, di] < SEQ - 1:
                cand = 0
                for ci in range(n_chg_seq[ts, belt, di]):
                    c = chg_list_seq[ts, belt, di, ci]
                    cand |= 1 << ((c + 1) & 15)
                    s = min(c, 15)
                    while s >= 0 and s >= c - 15:
                        if s <= c - 2 and tri_run[s] + 2 < c - s:
                            break
                        cand |= 1 << s
                        s -= 1
            else:
                cand = 0xFFFF
            ready = False  # the reading-order copies the walk needs, built for the first start walked
            for s in range(16):
                if not (cand >> s) & 1 or f_tri[pos[s]] == block:
                    continue
                # longest run the trigrams allow: valid trigrams throughout, a word's first three at
                # s and a word's last three at its end
                lim = max_len
                if f_tri[pos[s + 1]] == block:
                    lim = 1
                else:
                    if tri_run[s] + 2 < lim:
                        lim = tri_run[s] + 2
                    if lim >= 3:
                        if tri_bits[s] & TRI_FIRST:
                            k = s + lim - 3
                            while k > s and not tri_bits[k] & TRI_LAST:
                                k -= 1
                            lim = k - s + 3 if tri_bits[k] & TRI_LAST else 2
                        else:
                            lim = 2
                if lim < min_len:
                    continue
                # a run from s must place a new letter (leave the row its first pegs stood in), and
                # (restrict) touch a changed cell
                need = min_len
                new_len = 0
                if require_new:  # leave the row the pegs from s stood in: past the stretch of equal links
                    lk = f_link[s] if di == 0 else f_link[15 - s]  # the link from index s to s + 1
                    same = 0
                    if lk != 0:
                        same = 1
                        while same < 16 and (f_link[(s + same) & 15] if di == 0 else f_link[(15 - s - same) & 15]) == lk:
                            same += 1
                    new_len = same + 2
                    shown = 0  # and leave the cells that show the letters they showed at the start
                    while shown < 16 and f_same[pos[s + shown]] == 1:
                        shown += 1
                    if shown + 1 > new_len:
                        new_len = shown + 1
                if new_len > need:
                    need = new_len
                before_chg = (not wild_mode) and f_kind[pos[s + 15]] >= K_DL and q_chg[s + 15] == 1
                if restrict and not before_chg:
                    need = max(need, nxt_chg[s] - s)  # the cell after the run may be the changed one
                if need > lim:
                    continue
                if floor >= 0 and _bound_direct(s, lim, pos, f_val, f_kind, fb, has_prem, len_bonus_max, face_bonus,
                                                max_value, cross_total, wild_mode, w) <= floor:
                    continue
                if not ready:
                    ready = True
                    for k in range(SEQ):
                        p = pos[k]
                        q_code[k] = f_code[p]
                        q_kind[k] = f_kind[p]
                        q_val[k] = f_val[p]
                        pre_val[k + 1] = pre_val[k] + f_val[p]
                    if n_spent > 0:
                        for k in range(SEQ):
                            q_peg[k] = origin[belt_cells[belt, pos[k]]]
                            q_cell[k] = belt_cells[belt, pos[k]]
                    if any_two:
                        for k in range(SEQ):
                            q_same[k] = f_same[pos[k]]
                            q_scode[k] = peg_code[belt_cells[belt, pos[k]]]
                    if has_prem:
                        for k in range(SEQ):
                            kd = q_kind[k]
                            pre_dl[k + 1] = pre_dl[k] + (1 if kd == K_DL else 0)
                            pre_tl[k + 1] = pre_tl[k] + (1 if kd == K_TL else 0)
                            pre_dw[k + 1] = pre_dw[k] + (1 if kd == K_DW else 0)
                            pre_tw[k + 1] = pre_tw[k] + (1 if kd == K_TW else 0)
                    if n_cross > 0:
                        for k in range(SEQ):
                            q_cross[k] = cross_mask_cell[belt_cells[belt, pos[k]]] & ~belt_of_cross[belt]
                r_ok = lim  # reaches known to pass / fail the bound (monotone in the reach)
                r_bad = need - 1
                kd = q_kind[s]
                j = 0
                faces[0] = 0
                chgc[0] = 0
                samec[0] = 0
                xmask[0] = 0
                if kd == K_LETTER:
                    code = q_code[s]
                    e0 = root_edge[code] if code >= 0 else -1
                    if e0 < 0:
                        continue
                    cur[0] = e0
                    end[0] = e0 + 1
                elif kd == K_WILD or wild_mode:
                    cur[0] = 0
                    end[0] = root_hi
                else:
                    continue
                while j >= 0:
                    if cur[j] >= end[j]:
                        j -= 1
                        continue
                    e = cur[j]
                    cur[j] += 1
                    packed = graph[e, 0]
                    height = np.int64((packed >> HEIGHT_SHIFT) & 255)
                    length = j + 1
                    reach = min(length + height, lim)
                    if reach < need:
                        continue
                    if reach < r_ok and floor >= 0:
                        if reach <= r_bad:
                            continue
                        if _bound(s, reach, w, fb, has_prem, len_bonus_max, face_bonus, max_value, cross_total,
                                  wild_mode) <= floor:
                            r_bad = reach
                            continue
                        r_ok = reach
                    k = s + j
                    vals[j] = q_val[k]
                    kinds[j] = q_kind[k]
                    faces[length] = faces[j] | (1 << fb[SEQ + k])
                    chgc[length] = chgc[j] + q_chg[k]
                    if any_two:  # cells showing the letter they showed (a wildcard read as the letter it replaced)
                        sm = q_same[k]
                        samec[length] = samec[j] + (1 if sm == 1 or (sm == 2 and np.int64(packed & LETTER_MASK) == q_scode[k])
                                                    else 0)
                    if n_cross > 0:
                        xmask[length] = xmask[j] | q_cross[k]
                    if ((packed >> TERMINAL_SHIFT) & 1 and length >= min_len and length >= new_len
                            and not (any_two and samec[length] == length)):
                        lm_first = 1
                        lm_last = 1
                        wm = 1
                        touched = chgc[length] > 0 or not restrict
                        if not wild_mode:
                            if length <= 14:
                                kb = q_kind[s + 15]
                                if kb >= K_DL:
                                    touched = touched or q_chg[s + 15] == 1
                                    if n_spent == 0 or _premium_counts(q_peg[s + 15], cur, edge_rank, length,
                                                                       spent_prem, spent_rank, n_spent, q_peg, s,
                                                                       spent_pegs, spent_len):
                                        if kb <= K_TL:
                                            lm_first = _factor(kb)
                                        else:
                                            wm *= _factor(kb)
                            if length <= 15:
                                ka = q_kind[s + length]
                                if ka >= K_DL:
                                    touched = touched or q_chg[s + length] == 1
                                    if n_spent == 0 or _premium_counts(q_peg[s + length], cur, edge_rank, length,
                                                                       spent_prem, spent_rank, n_spent, q_peg, s,
                                                                       spent_pegs, spent_len):
                                        if ka <= K_TL:
                                            lm_last = _factor(ka)
                                        else:
                                            wm *= _factor(ka)
                        if touched:
                            total = np.int64(0)
                            if wild_mode:
                                for i in range(length):
                                    ki = kinds[i]
                                    live[i] = 1 if ki >= K_DL and (n_spent == 0 or _premium_counts(
                                        q_peg[s + i], cur, edge_rank, length, spent_prem, spent_rank, n_spent, q_peg, s,
                                        spent_pegs, spent_len)) else 0
                                    if live[i] and ki >= K_DW:
                                        wm *= _factor(ki)
                                total = _wild_letter_points(vals, kinds, live, length)
                            else:
                                total = pre_val[s + length] - pre_val[s]
                                total += vals[0] * (lm_first - 1) + vals[length - 1] * (lm_last - 1)
                            total *= wm
                            total += len_bonus[length]
                            f = faces[length]
                            nf = 0
                            while f:
                                f &= f - 1
                                nf += 1
                            if nf >= 3:
                                total += face_bonus
                            if n_cross > 0:
                                xm = xmask[length]
                                wc = 0
                                while xm:
                                    if xm & np.uint64(1):
                                        total += cross_points[wc]
                                    xm >>= np.uint64(1)
                                    wc += 1
                            if total > floor:
                                word_rank = np.int64(0)
                                for i in range(length):
                                    word_rank += edge_rank[cur[i] - 1]
                                if not (n_spent > 0 and require_new and _reformed(
                                        q_peg, q_cell, s, length, word_rank, spent_prem, spent_rank, n_spent,
                                        spent_pegs, spent_len, spent_cells)):  # a scored word made again of its own pegs: no new letter
                                    n_pool = _pool_push(pool_i, pool_score, pool_twists, n_pool, top, total, twists,
                                                        state, belt, (s if di == 0 else (16 - s) % 16), di, length,
                                                        word_rank)
                                    floor = _pool_floor(pool_score, n_pool, top)
                    nchild = (packed >> NCHILD_SHIFT) & 255
                    if length >= max_len or nchild == 0:
                        continue
                    kq = q_kind[s + length]
                    first = np.int64(packed >> FIRST_SHIFT)
                    j = length
                    if kq == K_LETTER:
                        code = q_code[s + length]
                        m = graph[e, 1]
                        if code >= 0 and (m >> np.uint64(code)) & np.uint64(1):
                            e2 = first + _popcount(m & ((np.uint64(1) << np.uint64(code)) - np.uint64(1)))
                            cur[j] = e2
                            end[j] = e2 + 1
                        else:
                            cur[j] = 0
                            end[j] = 0
                    elif kq == K_WILD or wild_mode:
                        cur[j] = first
                        end[j] = first + np.int64(nchild)
                    else:
                        cur[j] = 0
                        end[j] = 0
    return n_pool


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (module docstring)
def _hash(origin, zobrist):
    h = np.uint64(0)
    for c in range(96):
        h ^= zobrist[c, origin[c]]
    return h


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (module docstring)
def _insert(table, h):
    """Insert hash ``h`` (never 0) into the open-addressing table; False if it was there."""
    mask = table.shape[0] - 1
    i = np.int64(h & np.uint64(mask))
    while True:
        v = table[i]
        if v == 0:
            table[i] = h
            return True
        if v == h:
            return False
        i = (i + 1) & mask


@njit(cache=True)
def _belt_tables(belt_cells, cell_face, twist_changed):
    """Peg-independent tables: reading order, face-change counts, changed positions per twist.

    ``seq_pos[di, k]``: belt position of sequence index ``k`` read from start 0 in direction ``di``.
    ``face_runs[belt, di, k]`` (k < SEQ): face changes among indices 1..k; ``[SEQ + k]``: the face.
    ``chg_seq[t, belt, di, k]``: the twist ``t`` changed that cell; ``nxt_chg_seq``: the next such
    index from ``k`` (``NONE`` if none); ``chg_list_seq[t, belt, di, :n_chg_seq[t, belt, di]]`` the
    changed indices below ``SEQ - 1``. Row ``t = 36`` is the unrestricted scan (all changed).
    """
    seq_pos = np.zeros((2, SEQ), np.int64)
    for k in range(SEQ):
        seq_pos[0, k] = k % 16
        seq_pos[1, k] = (SEQ - k) % 16
    face_runs = np.zeros((12, 2, 2 * SEQ), np.int64)
    chg_seq = np.zeros((37, 12, 2, SEQ), np.int64)
    nxt_chg_seq = np.zeros((37, 12, 2, SEQ), np.int64)
    chg_list_seq = np.zeros((37, 12, 2, SEQ), np.int64)
    n_chg_seq = np.zeros((37, 12, 2), np.int64)
    for b in range(12):
        for di in range(2):
            for k in range(SEQ):
                face_runs[b, di, SEQ + k] = cell_face[belt_cells[b, seq_pos[di, k]]]
                if k > 0:
                    changed = face_runs[b, di, SEQ + k] != face_runs[b, di, SEQ + k - 1]
                    face_runs[b, di, k] = face_runs[b, di, k - 1] + (1 if changed else 0)
            for t in range(37):
                nc = NONE
                for k in range(SEQ - 1, -1, -1):
                    if t == 36 or twist_changed[t, belt_cells[b, seq_pos[di, k]]]:
                        chg_seq[t, b, di, k] = 1
                        nc = k
                    nxt_chg_seq[t, b, di, k] = nc
                for k in range(SEQ - 1):
                    if chg_seq[t, b, di, k]:
                        chg_list_seq[t, b, di, n_chg_seq[t, b, di]] = k
                        n_chg_seq[t, b, di] += 1
    return seq_pos, face_runs, chg_seq, nxt_chg_seq, chg_list_seq, n_chg_seq


@njit(cache=True)
def best_words_search(
    depth, top, max_states,
    peg_code, peg_kind, peg_value, peg_tri, cell_face, belt_cells, twist_perm, twist_changed, twist_belts, twist_axis,
    twist_layer, graph, edge_rank, root_hi, trigram, tri_stride,
    min_len, max_len, both_dirs, wild_mode, require_new, len_bonus, face_bonus, max_value,
    cross_cells, cross_belt, cross_points, allow_restrict, zobrist, link, spent_prem, spent_rank, spent_pegs, spent_len,
    spent_cells, stop_at=-1,
):
    """Breadth-first twist search to ``depth`` with a belt scan per new state.

    ``trigram``: flat bool table ``[(a * tri_stride + b) * tri_stride + c]`` over letter codes,
    ``WILD = tri_stride - 2`` and ``BLOCK = tri_stride - 1``; ``graph`` from :func:`walk_graph`.
    Returns (pool_i[n, 6] = state, belt, start, dir, length, rank; pool_score; pool_twists;
    parent[n_states]; via[n_states] (twist that reached the state, -1 for the root); n_states;
    complete (False if ``max_states`` stopped the search, or ``stop_at`` >= 0 and the full pool's
    lowest score reached ``stop_at``: a caller that only needs to know whether some word scores
    ``stop_at`` or more stops at the first state that shows it)).
    """
    pool_i = np.zeros((top, 6), np.int64)
    w = np.zeros((N_ROWS, SEQ + 8), np.int64)
    q_cross = np.zeros(SEQ + 8, np.uint64)
    xmask = np.zeros(SEQ + 8, np.uint64)
    for k in range(9):
        w[R_POW2, k] = 1 << k
        w[R_POW3, k] = 3 ** k
    seq_pos, face_runs, chg_seq, nxt_chg_seq, chg_list_seq, n_chg_seq = _belt_tables(belt_cells, cell_face,
                                                                                  twist_changed)
    root_edge = np.full(64, -1, np.int64)  # root edge of each letter code (the first step of every walk)
    for e in range(root_hi):
        root_edge[np.int64(graph[e, 0] & LETTER_MASK)] = e
    len_bonus_max = np.zeros(17, np.int64)
    for k in range(1, 17):
        len_bonus_max[k] = max(len_bonus_max[k - 1], len_bonus[k])
    cross_total = np.int64(0)
    for wc in range(cross_points.shape[0]):
        cross_total += cross_points[wc]
    pool_score = np.zeros(top, np.int64)
    pool_twists = np.zeros(top, np.int64)
    n_pool = np.int64(0)  # typed, not literal: each literal argument compiles scan_state once more
    cap = 1024
    origins = np.empty((cap, 96), np.uint8)
    hashes = np.empty(cap, np.uint64)
    parent = np.empty(cap, np.int32)
    via = np.empty(cap, np.int8)
    for c in range(96):
        origins[0, c] = c
    parent[0] = -1
    via[0] = -1
    n_states: int = np.int64(1)  # type: ignore[assignment]
    table = np.zeros(1 << 12, np.uint64)
    hashes[0] = _hash(origins[0], zobrist)
    _insert(table, hashes[0] | np.uint64(1))
    n_cross = cross_cells.shape[0]
    n_spent = spent_prem.shape[0]
    cross_mask_cell = np.zeros(96, np.uint64)
    belt_of_cross = np.zeros(12, np.uint64)
    for wc in range(n_cross):
        belt_of_cross[cross_belt[wc]] |= np.uint64(1) << np.uint64(wc)
    restrict = allow_restrict and n_cross == 0
    complete = True
    # cells each twist moves (for the incremental hash)
    moved = np.zeros((36, 96), np.int64)
    n_moved = np.zeros(36, np.int64)
    for t in range(36):
        for c in range(96):
            if twist_changed[t, c]:
                moved[t, n_moved[t]] = c
                n_moved[t] += 1
    # superseded_by[wc]: the words whose cells hold all of word wc's on its belt (longer, or equal and listed later)
    superseded_by = np.zeros(max(n_cross, 1), np.uint64)
    for wc in range(n_cross):
        n_wc = 0
        for k in range(cross_cells.shape[1]):
            if cross_cells[wc, k] >= 0:
                n_wc += 1
        for wo in range(n_cross):
            if wo == wc or cross_belt[wo] != cross_belt[wc]:
                continue
            n_wo = 0
            inside = True
            for k in range(cross_cells.shape[1]):
                if cross_cells[wo, k] >= 0:
                    n_wo += 1
            for k in range(cross_cells.shape[1]):
                c = cross_cells[wc, k]
                if c < 0:
                    continue
                found = False
                for k2 in range(cross_cells.shape[1]):
                    if cross_cells[wo, k2] == c:
                        found = True
                        break
                if not found:
                    inside = False
                    break
            if inside and (n_wo > n_wc or wo > wc):
                superseded_by[wc] |= np.uint64(1) << np.uint64(wo)
    for wc in range(n_cross):
        if superseded_by[wc] != 0:  # the root: every word is intact
            continue
        for k in range(cross_cells.shape[1]):
            c = cross_cells[wc, k]
            if c >= 0:
                cross_mask_cell[c] |= np.uint64(1) << np.uint64(wc)
    if not require_new:
        n_pool = scan_state(origins[0], np.int64(0), np.int64(0), np.int64(-1), np.bool_(False), peg_code, peg_kind, peg_value, peg_tri, belt_cells, twist_belts,
                            seq_pos, face_runs, chg_seq, nxt_chg_seq, chg_list_seq, n_chg_seq, graph, edge_rank,
                            root_edge,
                            root_hi, trigram, tri_stride, min_len, max_len, both_dirs, wild_mode, require_new, len_bonus,
                            len_bonus_max, face_bonus, max_value, cross_mask_cell, cross_points, belt_of_cross, n_cross,
                            cross_total, pool_i, pool_score, pool_twists, n_pool, top, w, q_cross, xmask, link,
                            spent_prem, spent_rank, n_spent, spent_pegs, spent_len, spent_cells)
    level_lo = 0
    level_hi = 1
    child = np.empty(96, np.uint8)
    for d in range(1, depth + 1):
        for si in range(level_lo, level_hi):
            prev = np.int64(via[si])
            for t in range(36):
                if prev >= 0 and twist_axis[t] == twist_axis[prev] and twist_layer[t] <= twist_layer[prev]:
                    continue
                h = hashes[si]
                for m in range(n_moved[t]):
                    c = moved[t, m]
                    o = origins[si, twist_perm[t, c]]
                    child[c] = o
                    h ^= zobrist[c, origins[si, c]] ^ zobrist[c, o]
                if 2 * (n_states + 1) > table.shape[0]:
                    bigger = np.zeros(table.shape[0] * 2, np.uint64)
                    for v in table:
                        if v != 0:
                            _insert(bigger, v)
                    table = bigger
                if not _insert(table, h | np.uint64(1)):
                    continue
                if n_states >= max_states:
                    complete = False
                    break
                if n_states == cap:
                    cap *= 2
                    o2 = np.empty((cap, 96), np.uint8)
                    copy_prefix_rows(o2, origins, n_states)
                    origins = o2
                    h2 = np.empty(cap, np.uint64)
                    copy_prefix(h2, hashes, n_states)
                    hashes = h2
                    p2 = np.empty(cap, np.int32)
                    copy_prefix(p2, parent, n_states)
                    parent = p2
                    v2 = np.empty(cap, np.int8)
                    copy_prefix(v2, via, n_states)
                    via = v2
                for c in range(96):
                    origins[n_states, c] = origins[si, c]
                for m in range(n_moved[t]):
                    c = moved[t, m]
                    origins[n_states, c] = child[c]
                hashes[n_states] = h
                parent[n_states] = si
                via[n_states] = t
                state_origin = origins[n_states]
                # crossing words intact in this state (none of their cells holds a moved peg)
                if n_cross > 0:
                    for c in range(96):
                        cross_mask_cell[c] = 0
                intact_mask = np.uint64(0)
                for wc in range(n_cross):
                    intact = True
                    for k in range(cross_cells.shape[1]):
                        c = cross_cells[wc, k]
                        if c >= 0 and state_origin[c] != c:
                            intact = False
                            break
                    if intact:
                        intact_mask |= np.uint64(1) << np.uint64(wc)
                for wc in range(n_cross):
                    # an intact word inside another intact one on its belt is part of it: crossed once, as the longer
                    if (intact_mask >> np.uint64(wc)) & np.uint64(1) and not intact_mask & superseded_by[wc]:
                        for k in range(cross_cells.shape[1]):
                            c = cross_cells[wc, k]
                            if c >= 0:
                                cross_mask_cell[c] |= np.uint64(1) << np.uint64(wc)
                n_pool = scan_state(state_origin, d, n_states, t, restrict, peg_code, peg_kind, peg_value, peg_tri,
                                    belt_cells, twist_belts, seq_pos, face_runs, chg_seq, nxt_chg_seq, chg_list_seq,
                                    n_chg_seq, graph,
                                    edge_rank, root_edge, root_hi, trigram, tri_stride, min_len, max_len,
                                    both_dirs, wild_mode, require_new, len_bonus, len_bonus_max, face_bonus, max_value,
                                    cross_mask_cell, cross_points, belt_of_cross, n_cross, cross_total, pool_i,
                                    pool_score, pool_twists, n_pool, top, w, q_cross, xmask, link, spent_prem,
                                    spent_rank, n_spent, spent_pegs, spent_len, spent_cells)
                n_states += 1
                if stop_at >= 0 and n_pool >= top and _pool_floor(pool_score, n_pool, top) >= stop_at:
                    complete = False
                    break
            if not complete:
                break
        if not complete:
            break
        level_lo = level_hi
        level_hi = n_states
    return pool_i[:n_pool], pool_score[:n_pool], pool_twists[:n_pool], parent[:n_states], via[:n_states], n_states, complete
