"""Exact Rummikub layout DP (after van Rijn, Takes and Vis, "The complexity of Rummikub problems", 2015).

Numbers are processed from 1 to ``n``. The state after number ``v`` is, per colour, how many open runs
have length 1, 2, ..., ``m-1`` and ``>= m`` (``m`` = minimum set size), plus the jokers used so far and
(first meld only) the points laid so far, capped at the target. At number ``v`` each colour decides how
many of its tiles it uses (``u``: table copies are forced, rack copies optional), how many of them go to
groups (``g``) and how many jokers extend or start its runs (``jr``); the group tiles of all colours, plus
``jg`` jokers, must split into legal groups. Run tiles must first extend every short open run (else it
would end illegal), then complete runs (extending a complete run dominates starting a new one), then start
new runs, so the next colour state is a function of ``e = u - g + jr`` alone. Runs not extended end.

Pure array code, no Python objects: each layer's states live in an open-addressing hash table (flat
arrays) that maps a state key to an index into flat growing arrays (score, parent, decision), which
also serve the backtrack.
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def colour_states(m: int, slots: int) -> np.ndarray:
    """All per-colour run states: rows of counts of open runs of length 1..m-1 and >= m (last column)."""
    # enumerate tuples of m non-negative ints with sum <= slots (row 0 is all zeros: no open run)
    cur = np.zeros(m, dtype=np.int64)
    rows = []
    while True:
        if cur.sum() <= slots:
            rows.append(cur.copy())
        i = 0
        while i < m:
            cur[i] += 1
            if cur.sum() <= slots:
                break
            cur[i] = 0
            i += 1
        if i == m:
            break
    out = np.zeros((len(rows), m), dtype=np.int64)
    for r in range(len(rows)):
        out[r] = rows[r]
    return out


@njit(cache=True)
def _state_index(states: np.ndarray, row: np.ndarray) -> int:
    for i in range(states.shape[0]):
        ok = True
        for j in range(states.shape[1]):
            if states[i, j] != row[j]:
                ok = False
                break
        if ok:
            return i
    return -1


@njit(cache=True)
def colour_transitions(states: np.ndarray, slots: int) -> np.ndarray:
    """``next[s, e]``: colour state after laying ``e`` run tiles of this colour at the next number
    (-1 when short runs would end illegal)."""
    n_states, m = states.shape
    nxt = -np.ones((n_states, slots + 1), dtype=np.int64)
    row = np.zeros(m, dtype=np.int64)
    for s in range(n_states):
        short = 0
        for j in range(m - 1):
            short += states[s, j]
        full = states[s, m - 1]
        for e in range(slots + 1):
            if e < short:
                continue
            extra = e - short
            ext_full = min(extra, full)
            starts = extra - ext_full
            row[:] = 0
            if m == 1:
                row[0] = e
            else:
                row[0] = starts
                for j in range(1, m - 1):
                    row[j] = states[s, j - 1]
                row[m - 1] += states[s, m - 2] + ext_full
            nxt[s, e] = _state_index(states, row)
    return nxt


@njit(cache=True)
def solve_layout(
    forced: np.ndarray,
    optional: np.ndarray,
    weights: np.ndarray,
    jokers_forced: int,
    jokers_optional: int,
    joker_weight: int,
    n_colours: int,
    n_numbers: int,
    m: int,
    copies: int,
    slots: int,
    meld_min: int,
    states: np.ndarray,
    nxt: np.ndarray,
    floor: int,
) -> tuple[int, int, np.ndarray, int]:
    """Best score of a legal layout that uses all ``forced`` tiles and any of the ``optional`` ones.

    ``forced``/``optional``/``weights`` are flat ``colour * n_numbers + (number-1)`` arrays; a played optional
    tile scores its weight, a played optional joker ``joker_weight``. ``meld_min > 0``: the laid tiles must be
    worth at least that (jokers counting the number they stand for). Returns (found, best score,
    decisions[n_numbers, n_colours + 1, 3]) where decisions[v-1, c] = (u, g, jr) and decisions[v-1, n_colours, 0]
    = jg; found is 0 when no legal layout exists.

    Within a number the colours are decided one at a time (a "broken profile"): the sub-state carries the
    colour states decided so far, the jokers and meld points used, and the group tiles so far (count and
    largest per-colour count); a closing step adds group jokers and checks the groups can be formed.

    Branch and bound: a node whose score plus everything still playable (the weights of all rack tiles
    after it, and every rack joker) cannot exceed ``floor`` (the score of a known layout) is dropped;
    found is 0 when nothing beats ``floor``.
    """
    k = n_colours
    n_states = states.shape[0]
    j_total = jokers_forced + jokers_optional
    meld_cap = meld_min + 1
    radix_j = j_total + 1
    gs_radix = copies * k + 1
    gm_radix = copies + 1
    cap = 4096
    a_key = np.empty(cap, dtype=np.int64)
    a_score = np.empty(cap, dtype=np.int64)
    a_parent = np.empty(cap, dtype=np.int64)
    a_dec = np.empty(cap, dtype=np.int64)
    a_key[0] = 0
    a_score[0] = 0
    a_parent[0] = -1
    a_dec[0] = 0
    size = 1
    lo = 0
    hi = 1
    pow_states = np.ones(k + 1, dtype=np.int64)
    for c in range(1, k + 1):
        pow_states[c] = pow_states[c - 1] * n_states
    opt_starts = states[:, 0].copy()
    # potential[v * k + c]: the most the rack tiles of (number v, colour c) and later can still add
    potential = np.zeros((n_numbers + 2) * k + 1, dtype=np.int64)
    for idx_v in range(n_numbers, 0, -1):
        for c in range(k - 1, -1, -1):
            t = c * n_numbers + idx_v - 1
            potential[idx_v * k + c] = potential[idx_v * k + c + 1] + optional[t] * max(0, weights[t])
    joker_pot = jokers_optional * max(0, joker_weight)
    group_room = np.zeros(k + 1, dtype=np.int64)
    short_runs = np.zeros(n_states, dtype=np.int64)
    for st in range(n_states):
        for jj in range(m - 1):
            short_runs[st] += states[st, jj]
    h_keys = -np.ones(1 << 12, dtype=np.int64)
    h_vals = np.zeros(1 << 12, dtype=np.int64)
    for v in range(1, n_numbers + 2):
        last = v == n_numbers + 1
        for step in range(k + 1):
            # room for every node this step can create at load <= 1/2
            n_opts = (j_total + 1) * (copies + 1) * (copies + 2) // 2 + 1
            need = 2 * (hi - lo) * n_opts + 16
            if need > h_keys.shape[0]:
                cap_h = h_keys.shape[0]
                while cap_h < need:
                    cap_h *= 2
                h_keys = -np.ones(cap_h, dtype=np.int64)
                h_vals = np.zeros(cap_h, dtype=np.int64)
            first_new = size
            if step == 0:
                # group_room[c]: tiles of colours c.. at this number that could still join groups
                for cc in range(k - 1, -1, -1):
                    room = 0
                    if not last:
                        room = forced[cc * n_numbers + v - 1] + optional[cc * n_numbers + v - 1]
                    group_room[cc] = group_room[cc + 1] + room
            for si in range(lo, hi):
                key = a_key[si]
                g_max = key % gm_radix
                key //= gm_radix
                g_sum = key % gs_radix
                key //= gs_radix
                meld = key % meld_cap
                key //= meld_cap
                jused = key % radix_j
                colour_part = key // radix_j
                j_left = j_total - jused
                base_score = a_score[si]
                if step < k:
                    c = step
                    cs = (colour_part // pow_states[c]) % n_states
                    rest_part = colour_part - cs * pow_states[c]
                    if last:
                        f = 0
                        r = 0
                        jr_max = 0
                    else:
                        f = forced[c * n_numbers + v - 1]
                        r = optional[c * n_numbers + v - 1]
                        jr_max = j_left
                    for u in range(f, f + r + 1):
                        for g in range(0, u + 1):
                            for jr in range(0, jr_max + 1):
                                e = u - g + jr
                                if e > slots:
                                    continue
                                ns = nxt[cs, e]
                                if ns < 0:
                                    continue
                                if jr > 0 and opt_starts[ns] > u - g:
                                    ahead = False
                                    for w in range(v + 1, min(n_numbers, v + j_left) + 1):
                                        if forced[c * n_numbers + w - 1] + optional[c * n_numbers + w - 1] > 0:
                                            ahead = True
                                            break
                                    if not ahead:
                                        continue
                                score = base_score
                                if not last:
                                    score += (u - f) * weights[c * n_numbers + v - 1]
                                new_meld = meld
                                if meld_min > 0:
                                    new_meld = min(meld_cap - 1, meld + v * (u + jr))
                                nkey = (rest_part + ns * pow_states[c]) * radix_j + jused + jr
                                nkey = (nkey * meld_cap + new_meld) * gs_radix + g_sum + g
                                nkey = nkey * gm_radix + max(g_max, g)
                                if short_runs[ns] > 0:
                                    # every short run must go on at the next number: tiles or jokers needed there
                                    if v >= n_numbers:
                                        continue
                                    nxt_avail = forced[c * n_numbers + v] + optional[c * n_numbers + v]
                                    if short_runs[ns] > nxt_avail + j_left - jr:
                                        continue
                                new_gmax = max(g_max, g)
                                if new_gmax > 0:
                                    # the groups need new_gmax groups of >= m tiles: enough tiles must remain
                                    if m * new_gmax > g_sum + g + group_room[c + 1] + j_left - jr:
                                        continue
                                if last:
                                    rem = 0
                                else:
                                    rem = potential[v * k + c + 1]
                                if score + rem + joker_pot <= floor:
                                    continue
                                size, a_key, a_score, a_parent, a_dec = _offer(
                                    h_keys,
                                    h_vals,
                                    nkey,
                                    score,
                                    si,
                                    u * 25 + g * 5 + jr,
                                    size,
                                    a_key,
                                    a_score,
                                    a_parent,
                                    a_dec,
                                )
                else:
                    jg_max = 0 if last else j_left
                    for jg in range(0, jg_max + 1):
                        tg = g_sum + jg
                        if tg > 0:
                            lower = max(g_max, (tg + k - 1) // k)
                            upper = min(g_sum, tg // m)
                            if lower > upper:
                                continue
                        new_meld = meld
                        if meld_min > 0:
                            new_meld = min(meld_cap - 1, meld + v * jg)
                        nkey = ((colour_part * radix_j + jused + jg) * meld_cap + new_meld) * gs_radix * gm_radix
                        size, a_key, a_score, a_parent, a_dec = _offer(
                            h_keys, h_vals, nkey, base_score, si, jg, size, a_key, a_score, a_parent, a_dec
                        )
            # empty the hash table again (only the slots this step used)
            mask = h_keys.shape[0] - 1
            for ni in range(first_new, size):
                slot = _hash(a_key[ni]) & mask
                while h_keys[slot] != -1:
                    h_keys[slot] = -1
                    slot = (slot + 1) & mask
            lo = hi
            hi = size
    best = -1
    best_score = 0
    for si in range(lo, hi):
        key = a_key[si] // (gs_radix * gm_radix)
        meld = key % meld_cap
        rest = key // meld_cap
        jused = rest % radix_j
        if rest // radix_j != 0 or jused < jokers_forced or meld < meld_min:
            continue
        score = a_score[si] + (jused - jokers_forced) * joker_weight
        if score <= floor:
            continue
        if best < 0 or score > best_score:
            best = si
            best_score = score
    decisions = np.zeros((n_numbers, k + 1, 3), dtype=np.int64)
    if best < 0:
        return 0, 0, decisions, size
    si = best
    for _ in range(k + 1):  # the closing number n+1 lays no tiles
        si = a_parent[si]
    for v in range(n_numbers, 0, -1):
        for step in range(k, -1, -1):
            code = a_dec[si]
            if step == k:
                decisions[v - 1, k, 0] = code
            else:
                decisions[v - 1, step, 0] = code // 25
                decisions[v - 1, step, 1] = (code // 5) % 5
                decisions[v - 1, step, 2] = code % 5
            si = a_parent[si]
    return 1, best_score, decisions, size


@njit(cache=True)
def _hash(key: int) -> int:
    x = (key * 0x9E3779B97F4A7C15) & 0x7FFFFFFFFFFFFFFF
    return x ^ (x >> 29)


@njit(cache=True)
def _offer(h_keys, h_vals, nkey, score, parent, dec, size, a_key, a_score, a_parent, a_dec):  # type: ignore[no-untyped-def]
    """Record ``nkey`` in the current layer with ``score`` if new or better; grows the arrays when full."""
    mask = h_keys.shape[0] - 1
    slot = _hash(nkey) & mask
    while h_keys[slot] != -1:
        if h_keys[slot] == nkey:
            pos = h_vals[slot]
            if score > a_score[pos]:
                a_score[pos] = score
                a_parent[pos] = parent
                a_dec[pos] = dec
            return size, a_key, a_score, a_parent, a_dec
        slot = (slot + 1) & mask
    if size == a_key.shape[0]:
        cap = 2 * size
        a_key = _grow(a_key, cap)
        a_score = _grow(a_score, cap)
        a_parent = _grow(a_parent, cap)
        a_dec = _grow(a_dec, cap)
    a_key[size] = nkey
    a_score[size] = score
    a_parent[size] = parent
    a_dec[size] = dec
    h_keys[slot] = nkey
    h_vals[slot] = size
    return size + 1, a_key, a_score, a_parent, a_dec


@njit(cache=True)
def _grow(a: np.ndarray, cap: int) -> np.ndarray:
    b = np.empty(cap, dtype=a.dtype)
    b[: a.shape[0]] = a
    return b
