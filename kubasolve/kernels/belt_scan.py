"""Best words on a twisty 4x4x4 letter cube: breadth-first twist search + DAWG scan of the 12 belts.

A state is the permutation ``origin[cell]`` = the cell whose peg (at the start of the turn) now
sits in ``cell``; the root is the identity. Pegs are described by start cell: ``peg_code`` (letter
code, -1 for wildcard and premium pegs), ``peg_kind`` (0 letter, 1 wildcard, 2/3 2x/3x letter,
4/5 2x/3x word premium) and ``peg_value``. A letter is *new* when ``origin[cell] != cell``.

Search. Level ``d`` holds the states first reached with ``d`` twists. A state is expanded by the
36 twists except redundant ones: a twist on the same axis as the previous twist must turn a layer
of higher index (so the same layer is never turned twice in a row and commuting parallel layers are
turned in one canonical order). Each child is hashed (Zobrist: XOR of ``zobrist[cell, origin]``)
into an open-addressing table of 64-bit hashes; a state seen before is dropped.

Scan. Each belt is a cyclic string of 16 cells; a word is a run of 1..``max_len`` consecutive
cells read forward (or also backward), walked through the DAWG search graph
(``lexicon/layout.py``): a letter peg follows its one edge, a wildcard peg (and, in ``wild``
mode, a premium peg) every edge; in ``ends`` mode a premium peg ends the run and may multiply the
letter next to it or the word. The walk is pruned by the target node's height against the length a
run still needs (to reach a new letter and, when ``restrict``, a cell the last twist changed).
With ``restrict`` (sound when no crossing words are given) a child state scans only the belts the
last twist changed and only runs touching a changed cell: any other run was already present, with
the same pegs and score, in the parent, one twist earlier.

Results. A pool of the ``top`` best distinct runs (key: belt, start, direction, length, word rank),
ordered by score then fewer twists (breadth-first order makes the first found the fewest twists);
a pool slot holds the state index, from which the caller rebuilds the twist sequence via
``parent`` / ``via``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

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


@njit(cache=True, inline="always")
def _factor(kind):
    return 2 if kind in (K_DL, K_DW) else 3


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def _bound(i, lmax, pre_val, pre_dl, pre_tl, pre_dw, pre_tw, pre_fb, len_bonus_max, face_bonus, max_value, cross_total,
           wild_mode, pow2, pow3):
    """Upper bound on the score of any run of ``<= lmax`` letters from sequence index ``i``.

    Letter sum of the ``lmax`` cells, premium factors of every premium peg in the window (with the
    cells before and after in ``ends`` mode), the largest length bonus and the face bonus if the
    window spans three faces. Monotone in ``lmax``.
    """
    total = pre_val[i + lmax] - pre_val[i]
    if wild_mode:
        w0 = i
        w1 = i + lmax
    else:
        w0 = i + 15  # the cell before (cyclic)
        w1 = i + lmax + 1
    if wild_mode:
        ndl = pre_dl[w1] - pre_dl[w0]
        ntl = pre_tl[w1] - pre_tl[w0]
        ndw = pre_dw[w1] - pre_dw[w0]
        ntw = pre_tw[w1] - pre_tw[w0]
    else:
        ndl = pre_dl[w1] - pre_dl[i] + pre_dl[w0 + 1] - pre_dl[w0]
        ntl = pre_tl[w1] - pre_tl[i] + pre_tl[w0 + 1] - pre_tl[w0]
        ndw = pre_dw[w1] - pre_dw[i] + pre_dw[w0 + 1] - pre_dw[w0]
        ntw = pre_tw[w1] - pre_tw[i] + pre_tw[w0 + 1] - pre_tw[w0]
    lf = pow2[min(ndl, 8)] * pow3[min(ntl, 8)]
    wf = pow2[min(ndw, 8)] * pow3[min(ntw, 8)]
    total = (total + (lf - 1) * max_value) * wf + len_bonus_max[lmax] + cross_total
    if pre_fb[i + lmax - 1] - pre_fb[i] >= 2:
        total += face_bonus
    return total


@njit(cache=True)
def scan_state(
    origin, twists, state, last_twist, restrict,
    peg_code, peg_kind, peg_value, cell_face, belt_cells, twist_changed, twist_belts,
    search_edges, edge_rank, root_hi,
    min_len, max_len, both_dirs, wild_mode, require_new, len_bonus, len_bonus_max, face_bonus, max_value,
    cross_mask_cell, cross_points, belt_of_cross, cross_total,
    pool_i, pool_score, pool_twists, n_pool, top, scratch, iscratch, root_edge,
):
    """Scan the belts of one state; push every scoring run into the pool; return the new pool size."""
    # sequence arrays over 32 positions: index k is belt position seq_pos(k) for the direction
    q_code = iscratch[0]
    q_kind = iscratch[1]
    q_val = iscratch[2]
    q_face = iscratch[3]
    q_new = iscratch[4]
    q_chg = iscratch[5]
    nxt_new = iscratch[6]
    nxt_chg = iscratch[7]
    pre_val = iscratch[8]
    pre_dl = iscratch[9]
    pre_tl = iscratch[10]
    pre_dw = iscratch[11]
    pre_tw = iscratch[12]
    pre_fb = iscratch[13]
    cur = iscratch[14]
    end = iscratch[15]
    rank = iscratch[16]
    vals = iscratch[17]
    kinds = iscratch[18]
    faces = iscratch[19]
    newc = iscratch[20]
    chgc = iscratch[21]
    mult = iscratch[22]
    q_cross = scratch[0]
    xmask = scratch[1]
    pow2 = iscratch[23]
    pow3 = iscratch[24]
    n_dirs = 2 if both_dirs else 1
    floor = _pool_floor(pool_score, n_pool, top)
    for belt in range(12):
        if restrict and not twist_belts[last_twist, belt]:
            continue
        for di in range(n_dirs):
            any_new = False
            pre_val[0] = 0
            pre_dl[0] = 0
            pre_tl[0] = 0
            pre_dw[0] = 0
            pre_tw[0] = 0
            pre_fb[0] = 0
            for k in range(32):
                p = k % 16 if di == 0 else (32 - k) % 16
                cell = belt_cells[belt, p]
                o = origin[cell]
                kd = peg_kind[o]
                q_code[k] = peg_code[o]
                q_kind[k] = kd
                q_val[k] = peg_value[o]
                q_face[k] = cell_face[cell]
                q_new[k] = 1 if o != cell else 0
                q_chg[k] = (1 if twist_changed[last_twist, cell] else 0) if restrict else 1
                q_cross[k] = cross_mask_cell[cell] & ~belt_of_cross[belt]
                any_new = any_new or o != cell
                pre_val[k + 1] = pre_val[k] + q_val[k]
                pre_dl[k + 1] = pre_dl[k] + (1 if kd == K_DL else 0)
                pre_tl[k + 1] = pre_tl[k] + (1 if kd == K_TL else 0)
                pre_dw[k + 1] = pre_dw[k] + (1 if kd == K_DW else 0)
                pre_tw[k + 1] = pre_tw[k] + (1 if kd == K_TW else 0)
            # pre_fb[k]: face changes among sequence indices 1..k
            for k in range(1, 32):
                pre_fb[k] = pre_fb[k - 1] + (1 if q_face[k] != q_face[k - 1] else 0)
            if require_new and not any_new:
                break
            nn = 99
            nc = 99
            for k in range(31, -1, -1):
                if q_new[k]:
                    nn = k
                if q_chg[k]:
                    nc = k
                nxt_new[k] = nn
                nxt_chg[k] = nc
            for s in range(16):
                # a run from s must reach a new letter, and (restrict) touch a changed cell
                need = min_len
                if require_new:
                    need = max(need, nxt_new[s] - s + 1)
                before_chg = (not wild_mode) and q_kind[s + 15] >= K_DL and q_chg[s + 15] == 1
                if restrict and not before_chg:
                    need = max(need, nxt_chg[s] - s)  # the cell after the run may be the changed one
                if need > max_len:
                    continue
                if _bound(s, max_len, pre_val, pre_dl, pre_tl, pre_dw, pre_tw, pre_fb, len_bonus_max, face_bonus,
                          max_value, cross_total, wild_mode, pow2, pow3) <= floor:
                    continue
                kd = q_kind[s]
                j = 0
                rank[0] = 0
                faces[0] = 0
                newc[0] = 0
                chgc[0] = 0
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
                    packed = search_edges[e]
                    height = np.int64((packed >> HEIGHT_SHIFT) & 255)
                    length = j + 1
                    reach = min(length + height, max_len)
                    if reach < need:
                        continue
                    if floor >= 0 and _bound(s, reach, pre_val, pre_dl, pre_tl, pre_dw, pre_tw, pre_fb, len_bonus_max,
                                             face_bonus, max_value, cross_total, wild_mode, pow2, pow3) <= floor:
                        continue
                    k = s + j
                    vals[j] = q_val[k]
                    kinds[j] = q_kind[k]
                    faces[length] = faces[j] | (1 << q_face[k])
                    newc[length] = newc[j] + q_new[k]
                    chgc[length] = chgc[j] + q_chg[k]
                    xmask[length] = xmask[j] | q_cross[k]
                    rank[length] = rank[j] + edge_rank[e]
                    if (packed >> TERMINAL_SHIFT) & 1 and length >= min_len and (newc[length] > 0 or not require_new):
                        lm_first = 1
                        lm_last = 1
                        wm = 1
                        touched = chgc[length] > 0 or not restrict
                        if not wild_mode:
                            if length <= 14:
                                kb = q_kind[s + 15]
                                if kb >= K_DL:
                                    touched = touched or q_chg[s + 15] == 1
                                    if kb <= K_TL:
                                        lm_first = _factor(kb)
                                    else:
                                        wm *= _factor(kb)
                            if length <= 15:
                                ka = q_kind[s + length]
                                if ka >= K_DL:
                                    touched = touched or q_chg[s + length] == 1
                                    if ka <= K_TL:
                                        lm_last = _factor(ka)
                                    else:
                                        wm *= _factor(ka)
                        if touched:
                            total = 0
                            if wild_mode:
                                for i in range(length):
                                    mult[i] = 1
                                for i in range(length):
                                    ki = kinds[i]
                                    if ki in (K_DL, K_TL):
                                        best = -1
                                        if i > 0:
                                            best = i - 1
                                        if i + 1 < length and (best < 0 or vals[i + 1] > vals[best]):
                                            best = i + 1
                                        if best >= 0:
                                            mult[best] *= _factor(ki)
                                    elif ki in (K_DW, K_TW):
                                        wm *= _factor(ki)
                                for i in range(length):
                                    total += vals[i] * mult[i]
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
                            xm = xmask[length]
                            w = 0
                            while xm:
                                if xm & np.uint64(1):
                                    total += cross_points[w]
                                xm >>= np.uint64(1)
                                w += 1
                            if total > floor:
                                n_pool = _pool_push(pool_i, pool_score, pool_twists, n_pool, top, total, twists, state,
                                                    belt, (s if di == 0 else (16 - s) % 16), di, length, rank[length])
                                floor = _pool_floor(pool_score, n_pool, top)
                    nchild = (packed >> NCHILD_SHIFT) & 255
                    if length >= max_len or nchild == 0:
                        continue
                    kq = q_kind[s + length]
                    first = np.int64(packed >> FIRST_SHIFT)
                    j = length
                    hi = first + np.int64(nchild)
                    if kq == K_LETTER:
                        cur[j] = hi
                        end[j] = hi
                        code = q_code[s + length]
                        for e2 in range(first, hi):
                            lab = search_edges[e2] & LETTER_MASK
                            if lab == code:
                                cur[j] = e2
                                end[j] = e2 + 1
                                break
                            if lab > code:
                                break
                    elif kq == K_WILD or wild_mode:
                        cur[j] = first
                        end[j] = hi
                    else:
                        cur[j] = hi
                        end[j] = hi
    return n_pool


@njit(cache=True)
def _hash(origin, zobrist):
    h = np.uint64(0)
    for c in range(96):
        h ^= zobrist[c, origin[c]]
    return h


@njit(cache=True)
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
def best_words_search(
    depth, top, max_states,
    peg_code, peg_kind, peg_value, cell_face, belt_cells, twist_perm, twist_changed, twist_belts, twist_axis, twist_layer,
    search_edges, edge_rank, root_hi,
    min_len, max_len, both_dirs, wild_mode, require_new, len_bonus, face_bonus, max_value,
    cross_cells, cross_belt, cross_points, allow_restrict, zobrist,
):
    """Breadth-first twist search to ``depth`` with a belt scan per new state.

    Returns (pool_i[n, 6] = state, belt, start, dir, length, rank; pool_score; pool_twists;
    parent[n_states]; via[n_states] (twist that reached the state, -1 for the root); n_states;
    complete (False if ``max_states`` stopped the search)).
    """
    pool_i = np.zeros((top, 6), np.int64)
    scratch = np.zeros((2, 40), np.uint64)
    iscratch = np.zeros((25, 40), np.int64)
    for k in range(9):
        iscratch[23, k] = 1 << k
        iscratch[24, k] = 3 ** k
    root_edge = np.full(64, -1, np.int64)  # root edge of each letter code (the first step of every walk)
    for e in range(root_hi):
        root_edge[np.int64(search_edges[e] & LETTER_MASK)] = e
    len_bonus_max = np.zeros(17, np.int64)
    for k in range(1, 17):
        len_bonus_max[k] = max(len_bonus_max[k - 1], len_bonus[k])
    cross_total = np.int64(0)
    for w in range(cross_points.shape[0]):
        cross_total += cross_points[w]
    pool_score = np.zeros(top, np.int64)
    pool_twists = np.zeros(top, np.int64)
    n_pool = 0
    cap = 1024
    origins = np.empty((cap, 96), np.uint8)
    parent = np.empty(cap, np.int32)
    via = np.empty(cap, np.int8)
    for c in range(96):
        origins[0, c] = c
    parent[0] = -1
    via[0] = -1
    n_states = 1
    table = np.zeros(1 << 12, np.uint64)
    h0 = _hash(origins[0], zobrist)
    _insert(table, h0 | np.uint64(1))
    n_cross = cross_cells.shape[0]
    cross_mask_cell = np.zeros(96, np.uint64)
    belt_of_cross = np.zeros(12, np.uint64)
    for w in range(n_cross):
        belt_of_cross[cross_belt[w]] |= np.uint64(1) << np.uint64(w)
    restrict = allow_restrict and n_cross == 0
    complete = True
    for w in range(n_cross):
        for k in range(cross_cells.shape[1]):
            c = cross_cells[w, k]
            if c >= 0:
                cross_mask_cell[c] |= np.uint64(1) << np.uint64(w)
    if not require_new:
        n_pool = scan_state(origins[0], 0, 0, 0, False, peg_code, peg_kind, peg_value, cell_face, belt_cells,
                            twist_changed, twist_belts, search_edges, edge_rank, root_hi, min_len, max_len, both_dirs,
                            wild_mode, require_new, len_bonus, len_bonus_max, face_bonus, max_value, cross_mask_cell,
                            cross_points, belt_of_cross, cross_total, pool_i, pool_score, pool_twists, n_pool, top,
                            scratch, iscratch, root_edge)
    level_lo = 0
    level_hi = 1
    child = np.empty(96, np.uint8)
    for d in range(1, depth + 1):
        for si in range(level_lo, level_hi):
            prev = np.int64(via[si])
            for t in range(36):
                if prev >= 0 and twist_axis[t] == twist_axis[prev] and twist_layer[t] <= twist_layer[prev]:
                    continue
                for c in range(96):
                    child[c] = origins[si, twist_perm[t, c]]
                h = _hash(child, zobrist) | np.uint64(1)
                if 2 * (n_states + 1) > table.shape[0]:
                    bigger = np.zeros(table.shape[0] * 2, np.uint64)
                    for v in table:
                        if v != 0:
                            _insert(bigger, v)
                    table = bigger
                if not _insert(table, h):
                    continue
                if n_states >= max_states:
                    complete = False
                    break
                if n_states == cap:
                    cap *= 2
                    o2 = np.empty((cap, 96), np.uint8)
                    o2[:n_states] = origins[:n_states]
                    origins = o2
                    p2 = np.empty(cap, np.int32)
                    p2[:n_states] = parent[:n_states]
                    parent = p2
                    v2 = np.empty(cap, np.int8)
                    v2[:n_states] = via[:n_states]
                    via = v2
                origins[n_states] = child
                parent[n_states] = si
                via[n_states] = t
                # crossing words intact in this state (none of their cells holds a moved peg)
                if n_cross > 0:
                    for c in range(96):
                        cross_mask_cell[c] = 0
                for w in range(n_cross):
                    intact = True
                    for k in range(cross_cells.shape[1]):
                        c = cross_cells[w, k]
                        if c >= 0 and child[c] != c:
                            intact = False
                            break
                    if intact:
                        for k in range(cross_cells.shape[1]):
                            c = cross_cells[w, k]
                            if c >= 0:
                                cross_mask_cell[c] |= np.uint64(1) << np.uint64(w)
                n_pool = scan_state(child, d, n_states, t, restrict, peg_code, peg_kind, peg_value, cell_face,
                                    belt_cells, twist_changed, twist_belts, search_edges, edge_rank, root_hi, min_len,
                                    max_len, both_dirs, wild_mode, require_new, len_bonus, len_bonus_max, face_bonus, max_value,
                                    cross_mask_cell, cross_points, belt_of_cross, cross_total, pool_i, pool_score,
                                    pool_twists, n_pool, top, scratch, iscratch, root_edge)
                n_states += 1
            if not complete:
                break
        if not complete:
            break
        level_lo = level_hi
        level_hi = n_states
    return pool_i[:n_pool], pool_score[:n_pool], pool_twists[:n_pool], parent[:n_states], via[:n_states], n_states, complete
