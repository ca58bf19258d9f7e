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

from kubasolve.kernels.arrays import copy_prefix


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
    potential: np.ndarray,
    node_limit: int,
    dominators: np.ndarray,
) -> tuple[int, int, np.ndarray, int]:
    """Best score of a legal layout that uses all ``forced`` tiles and any of the ``optional`` ones.

    ``forced``/``optional``/``weights`` are flat ``colour * n_numbers + (number-1)`` arrays; a played optional
    tile scores its weight, a played optional joker ``joker_weight``. ``meld_min > 0``: the laid tiles must be
    worth at least that (jokers counting the number they stand for). Returns (found, best score,
    decisions[n_numbers, n_colours + 1, 3]) where decisions[v-1, c] = (u, g, jr) and decisions[v-1, n_colours, 0]
    = jg; found is 0 when no legal layout exists, 2 when the search stopped at ``node_limit`` nodes
    (a work budget: nothing is known then). The node count returned (the last value) never exceeds ``node_limit``:
    a step that would record one node more stops the search there.

    Within a number the colours are decided one at a time (a "broken profile"): the sub-state carries the
    colour states decided so far, the jokers and meld points used, and the group tiles so far (count and
    largest per-colour count); a closing step adds group jokers and checks the groups can be formed.

    Branch and bound: a node whose score plus everything still playable (``potential[j, v * k + c]``: the
    weights of the rack tiles after number ``v``, colour ``c`` that could still be played with ``j`` jokers
    left, see :func:`upper_potential`; plus every rack joker) cannot exceed ``floor`` (the score of a known
    layout) is dropped; found is 0 when nothing beats ``floor``. A negative ``joker_weight`` (a played rack
    joker costs: the tie-break that keeps jokers) counts in that bound as soon as the jokers used exceed the
    forced ones (the final score subtracts at least that much).

    Dominance: after each number, a state is dropped when the layer holds a state that can do everything it
    can, with at least its score: one of its colours with a run one length class longer or one more complete
    run (``dominators``, see :func:`colour_dominators`), or (every forced joker placed) one joker fewer used
    and at least ``max(0, joker_weight)`` more score.
    """
    k = n_colours
    n_states = states.shape[0]
    j_total = jokers_forced + jokers_optional
    meld_cap = meld_min + 1
    # the state key packs bit fields, low to high: largest per-colour group count, group tiles, meld points,
    # jokers used, then the colours' run states (a bit field each; see key_bits)
    b_gm = _bits(copies)
    b_gs = _bits(copies * k)
    b_meld = _bits(meld_min)
    b_j = _bits(j_total)
    n_states = states.shape[0]
    # colour c's run state: b_cs bits from c * b_cs on (read with shifts: no divisions)
    b_cs = _bits(n_states - 1)
    m_cs = (1 << b_cs) - 1
    pow_states = np.ones(k + 1, dtype=np.int64)
    shift_states = np.zeros(k + 1, dtype=np.int64)
    for c in range(1, k + 1):
        shift_states[c] = c * b_cs
        pow_states[c] = 1 << shift_states[c]
    s_gs = b_gm
    s_meld = s_gs + b_gs
    s_j = s_meld + b_meld
    s_col = s_j + b_j
    m_gm = (1 << b_gm) - 1
    m_gs = (1 << b_gs) - 1
    m_meld = (1 << b_meld) - 1
    m_j = (1 << b_j) - 1
    cap = 4096
    a_key = np.empty(cap, dtype=np.int64)
    a_score = np.empty(cap, dtype=np.int64)
    a_parent = np.empty(cap, dtype=np.int64)
    a_dec = np.empty(cap, dtype=np.int64)
    a_key[0] = 0
    a_score[0] = 0
    a_parent[0] = -1
    a_dec[0] = 0
    # typed, not a literal 1: _clear and _drop_dominated would compile once more for it (kernels/__init__.py)
    size: int = np.int64(1)  # type: ignore[assignment]
    lo = 0
    hi = 1
    opt_starts = states[:, 0].copy()
    joker_pot = jokers_optional * max(0, joker_weight)
    joker_cost = max(0, -joker_weight)  # a played optional joker that costs: the bound subtracts it as soon as laid
    group_room = np.zeros(k + 1, dtype=np.int64)
    short_runs = np.zeros(n_states, dtype=np.int64)
    for st in range(n_states):
        for jj in range(m - 1):
            short_runs[st] += states[st, jj]
    # the layer's hash table: a power of two at least four times the last layer (a step mostly creates about
    # as many nodes as there are in the last layer); a step that fills half of it is run again with twice the
    # slots (slots past ``h_cap`` stay empty: a table sized to the layer keeps the probes in cache)
    h_keys = -np.ones(1 << 10, dtype=np.int64)
    h_vals = np.zeros(1 << 10, dtype=np.int64)
    h_cap = 1 << 10
    for v in range(1, n_numbers + 2):
        last = v == n_numbers + 1
        step = 0
        while step <= k:
            if size > node_limit:  # only the root, with a limit of 0
                return 2, 0, np.zeros((n_numbers, k + 1, 3), dtype=np.int64), min(size, node_limit)
            if h_cap > h_keys.shape[0]:
                h_keys = -np.ones(h_cap, dtype=np.int64)
                h_vals = np.zeros(h_cap, dtype=np.int64)
            # at most h_cap / 2 new nodes: room for them in the node arrays (so offering never reallocates); and
            # at most one past ``node_limit``: the step that needs it stops the search (the budget is exact)
            limit = min(size + h_cap // 2, node_limit + 1)
            if limit + 16 > a_key.shape[0]:
                cap_a = a_key.shape[0]
                while cap_a < limit + 16:
                    cap_a *= 2
                a_key = _grow(a_key, cap_a)
                a_score = _grow(a_score, cap_a)
                a_parent = _grow(a_parent, cap_a)
                a_dec = _grow(a_dec, cap_a)
            first_new = size
            if step == 0:
                # group_room[c]: tiles of colours c.. at this number that could still join groups
                for cc in range(k - 1, -1, -1):
                    room = 0
                    if not last:
                        room = forced[cc * n_numbers + v - 1] + optional[cc * n_numbers + v - 1]
                    group_room[cc] = group_room[cc + 1] + room
            for si in range(lo, hi):
                if a_score[si] <= _DEAD:
                    continue  # dominated
                key = a_key[si]
                g_max = key & m_gm
                g_sum = (key >> s_gs) & m_gs
                meld = (key >> s_meld) & m_meld
                jused = (key >> s_j) & m_j
                colour_part = key >> s_col
                j_left = j_total - jused
                base_score = a_score[si]
                if step < k:
                    c = step
                    cs = (colour_part >> shift_states[c]) & m_cs
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
                        score = base_score
                        if not last:
                            score += (u - f) * weights[c * n_numbers + v - 1]
                        for jr in range(jr_max + 1):
                            # bound first: nothing from here on can beat the floor
                            if last:
                                rem = 0
                            else:
                                rem = potential[j_left - jr, v * k + c + 1]
                            if score + rem + joker_pot - joker_cost * max(0, jused + jr - jokers_forced) <= floor:
                                continue
                            new_meld = meld
                            if meld_min > 0:
                                new_meld = min(meld_cap - 1, meld + v * (u + jr))
                            for g in range(u + 1):
                                e = u - g + jr
                                if e > slots:
                                    continue
                                ns = nxt[cs, e]
                                if ns < 0:
                                    continue
                                if short_runs[ns] > 0:
                                    # every short run must go on at the next number: tiles or jokers needed there
                                    if v >= n_numbers:
                                        continue
                                    nxt_avail = forced[c * n_numbers + v] + optional[c * n_numbers + v]
                                    if short_runs[ns] > nxt_avail + j_left - jr:
                                        continue
                                new_gmax = max(g_max, g)
                                # the groups need new_gmax groups of >= m tiles: enough tiles must remain
                                if new_gmax > 0 and m * new_gmax > g_sum + g + group_room[c + 1] + j_left - jr:
                                    continue
                                if jr > 0 and opt_starts[ns] > u - g:
                                    ahead = False
                                    for w in range(v + 1, min(n_numbers, v + j_left) + 1):
                                        if forced[c * n_numbers + w - 1] + optional[c * n_numbers + w - 1] > 0:
                                            ahead = True
                                            break
                                    if not ahead:
                                        continue
                                nkey = (rest_part + ns * pow_states[c]) << s_col
                                nkey |= ((jused + jr) << s_j) | (new_meld << s_meld) | ((g_sum + g) << s_gs) | new_gmax
                                size = _offer(
                                    h_keys,
                                    h_vals,
                                    h_cap - 1,
                                    limit,
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
                    for jg in range(jg_max + 1):
                        if jg > 0 and joker_cost > 0:
                            # a costly optional joker in a group: the bound again, with its cost
                            rem = potential[j_left - jg, v * k + k]
                            if base_score + rem - joker_cost * max(0, jused + jg - jokers_forced) <= floor:
                                continue
                        tg = g_sum + jg
                        if tg > 0:
                            lower = max(g_max, (tg + k - 1) // k)
                            upper = min(g_sum, tg // m)
                            if lower > upper:
                                continue
                        new_meld = meld
                        if meld_min > 0:
                            new_meld = min(meld_cap - 1, meld + v * jg)
                        nkey = (colour_part << s_col) | ((jused + jg) << s_j) | (new_meld << s_meld)
                        size = _offer(
                            h_keys, h_vals, h_cap - 1, limit, nkey, base_score, si, jg, size, a_key, a_score, a_parent, a_dec
                        )
            if size > node_limit:
                # the node budget is spent and the step needs more: stop (the node past the limit is not counted)
                return 2, 0, np.zeros((n_numbers, k + 1, 3), dtype=np.int64), node_limit
            if size >= limit:
                # the table filled up: this step again with twice the slots
                _clear(h_keys, h_cap - 1, a_key, first_new, size)
                size = first_new
                h_cap *= 2
                continue
            if step == k and not last:
                _drop_dominated(
                    first_new, size, a_key, a_score, h_keys, h_vals, h_cap - 1, dominators, pow_states, shift_states, m_cs, k,
                    s_col, s_j, m_j, jokers_forced, max(0, joker_weight),
                )
            # empty the hash table again (only the slots this step used); the next step's table fits its layer
            _clear(h_keys, h_cap - 1, a_key, first_new, size)
            lo = hi
            hi = size
            h_cap = 1 << 10
            while h_cap < 4 * (hi - lo):
                h_cap *= 2
            step += 1
    best = -1
    best_score = 0
    for si in range(lo, hi):
        key = a_key[si]
        meld = (key >> s_meld) & m_meld
        jused = (key >> s_j) & m_j
        if key >> s_col != 0 or jused < jokers_forced or meld < meld_min:
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


_DEAD = -(1 << 60)


@njit(cache=True)
def _lookup(h_keys: np.ndarray, h_vals: np.ndarray, mask: int, key: int) -> int:
    """Node index of ``key`` in the current layer's hash table (``mask + 1`` slots), or -1."""
    slot = _hash(key) & mask
    while h_keys[slot] != -1:
        if h_keys[slot] == key:
            return h_vals[slot]
        slot = (slot + 1) & mask
    return -1


@njit(cache=True)
def _drop_dominated(
    first: int, end: int, a_key: np.ndarray, a_score: np.ndarray, h_keys: np.ndarray, h_vals: np.ndarray,
    mask: int, dominators: np.ndarray, pow_states: np.ndarray, shift_states: np.ndarray, m_cs: int, k: int, s_col: int,
    s_j: int, m_j: int,
    jokers_forced: int, joker_gain: int,
) -> None:
    """Mark the dominated nodes of a finished layer (``first..end``) dead (see :func:`solve_layout`); an
    empty ``dominators`` (no columns) switches the check off."""
    if dominators.shape[1] == 0:
        return
    low_mask = (1 << s_col) - 1
    for ni in range(first, end):
        key = a_key[ni]
        score = a_score[ni]
        colour_part = key >> s_col
        low = key & low_mask
        dead = False
        for c in range(k):
            cs = (colour_part >> shift_states[c]) & m_cs
            for d in range(dominators.shape[1]):
                ds = dominators[cs, d]
                if ds < 0:
                    break
                pos = _lookup(h_keys, h_vals, mask, ((colour_part + (ds - cs) * pow_states[c]) << s_col) | low)
                if pos >= 0 and a_score[pos] >= score:
                    dead = True
                    break
            if dead:
                break
        if not dead:
            jused = (key >> s_j) & m_j
            if jused > jokers_forced:
                pos = _lookup(h_keys, h_vals, mask, key - (1 << s_j))
                if pos >= 0 and a_score[pos] >= score + joker_gain:
                    dead = True
        if dead:
            a_score[ni] = _DEAD


@njit(cache=True)
def colour_dominators(states: np.ndarray, slots: int) -> np.ndarray:
    """``dom[s]``: the colour states (padded with -1) that dominate state ``s`` by one step: one open run
    moved to a longer length class (the last class is complete runs), or one more complete run. With the
    same tiles still to come, such a state can follow every continuation of ``s`` (its short runs are no
    more, and an open complete run may always end), so it is never worse."""
    n_states, m = states.shape
    dom = -np.ones((n_states, m * m + 1), dtype=np.int64)
    row = np.zeros(m, dtype=np.int64)
    for s in range(n_states):
        d = 0
        for a in range(m - 1):
            if states[s, a] == 0:
                continue
            for b in range(a + 1, m):
                copy_prefix(row, states[s], m)
                row[a] -= 1
                row[b] += 1
                dom[s, d] = _state_index(states, row)
                d += 1
        if states[s].sum() < slots:
            copy_prefix(row, states[s], m)
            row[m - 1] += 1
            dom[s, d] = _state_index(states, row)
            d += 1
    return dom


@njit(cache=True)
def upper_potential(
    forced: np.ndarray, optional: np.ndarray, weights: np.ndarray, n_colours: int, n_numbers: int, m: int, jokers: int
) -> np.ndarray:
    """``pot[j, v * k + c]``: the most the rack tiles from number ``v``, colour ``c`` on can still add with ``j``
    jokers left to place.

    A rack tile counts in full when it fits some legal set without jokers (the other tiles being available
    ones, table or rack), or when it lies within ``m - 1`` numbers of ``v`` (jokers placed at ``v`` or before
    can only help such tiles: a set holding a later tile holds a legal stretch from ``v + 1`` on). The other
    ("far") tiles need one of the ``j`` jokers still to place in their set: they count only if some set with
    ``<= j`` jokers holds them, and together at most what ``j`` jokers can carry: the best split of ``j``
    over sets, a set with ``i`` jokers holding at most ``cap[i]`` (the heaviest such tiles one set can hold)."""
    k, n = n_colours, n_numbers
    need = np.full((k, n), 99, dtype=np.int64)  # fewest jokers some legal set with this tile needs
    for c in range(k):
        for w in range(n):
            if m <= k:
                d = 0
                for cc in range(k):
                    if forced[cc * n + w] + optional[cc * n + w] > 0:
                        d += 1
                need[c, w] = max(0, m - d)
            for s in range(max(0, w - m + 1), min(w, n - m) + 1):
                miss = m
                for x in range(s, s + m):
                    if forced[c * n + x] + optional[c * n + x] > 0:
                        miss -= 1
                need[c, w] = min(need[c, w], miss)
    # cap[i]: the most weight of joker-needing rack tiles (one copy each) that one set with <= i jokers holds
    cap = np.zeros(jokers + 1, dtype=np.int64)
    for i in range(1, jokers + 1):
        best = 0
        for c in range(k):
            for s in range(n):
                miss = 0
                reals = 0
                got = 0
                for e in range(s, n):
                    t = c * n + e
                    if forced[t] + optional[t] > 0:
                        reals += 1
                    else:
                        miss += 1
                    if miss > i:
                        break
                    if need[c, e] > 0 and optional[t] > 0:
                        got += max(0, weights[t])
                    if e - s + 1 >= m and reals > 0 and got > best:
                        best = got
        if m <= k:
            for w in range(n):
                d = 0
                got = 0
                for c in range(k):
                    t = c * n + w
                    if forced[t] + optional[t] > 0:
                        d += 1
                    if need[c, w] > 0 and optional[t] > 0:
                        got += max(0, weights[t])
                if d > 0 and d + i >= m and got > best:
                    best = got
        cap[i] = best
    # j jokers split over several sets: capj[j] = the best split of j
    capj = np.zeros(jokers + 1, dtype=np.int64)
    for j in range(1, jokers + 1):
        capj[j] = cap[j]
        for a in range(1, j):
            capj[j] = max(capj[j], capj[a] + capj[j - a])
    size = (n + 2) * k + 1
    pot = np.zeros((jokers + 1, size), dtype=np.int64)
    for j in range(jokers + 1):
        for v in range(n + 2):
            for c in range(k + 1):
                idx = v * k + c
                if idx >= size:
                    continue
                total = 0
                far = 0
                for w in range(max(v, 1), n + 1):
                    for cc in range(k):
                        if w == v and cc < c:
                            continue
                        t = cc * n + w - 1
                        g = optional[t] * max(0, weights[t])
                        if g <= 0:
                            continue
                        if need[cc, w - 1] == 0 or w <= v + m - 1:
                            total += g
                        elif need[cc, w - 1] <= j:
                            far += g
                pot[j, idx] = total + min(far, capj[j])
    return pot


@njit(cache=True)
def _bits(top: int) -> int:
    """Bits needed to hold the values 0..top."""
    b = 0
    while (1 << b) <= top:
        b += 1
    return b


def key_bits(n_states: int, colours: int, copies: int, jokers: int, meld_min: int) -> int:
    """Bits of :func:`solve_layout`'s state key (it must stay below 63): ``copies`` is the most copies of
    one tile in play, ``n_states`` the per-colour run states."""
    fields = sum(int(x).bit_length() for x in (copies, copies * colours, meld_min, jokers))
    return fields + colours * int(n_states - 1).bit_length()


@njit(cache=True)
def _hash(key: int) -> int:
    x = (key * 0x9E3779B97F4A7C15) & 0x7FFFFFFFFFFFFFFF
    return x ^ (x >> 29)


@njit(cache=True, inline="always")
def _offer(h_keys, h_vals, mask, limit, nkey, score, parent, dec, size, a_key, a_score, a_parent, a_dec):
    """Record ``nkey`` in the current layer (hash table of ``mask + 1`` slots) with ``score`` if new or better;
    returns the new node count. A new node is not recorded once the count has reached ``limit`` (the
    caller then runs the step again with a bigger table; the node arrays have room up to ``limit``)."""
    slot = _hash(nkey) & mask
    while h_keys[slot] != -1:
        if h_keys[slot] == nkey:
            pos = h_vals[slot]
            if score > a_score[pos]:
                a_score[pos] = score
                a_parent[pos] = parent
                a_dec[pos] = dec
            return size
        slot = (slot + 1) & mask
    if size >= limit:
        return size
    a_key[size] = nkey
    a_score[size] = score
    a_parent[size] = parent
    a_dec[size] = dec
    h_keys[slot] = nkey
    h_vals[slot] = size
    return size + 1


@njit(cache=True)
def _clear(h_keys: np.ndarray, mask: int, a_key: np.ndarray, first: int, end: int) -> None:
    """Empty the hash table slots (``mask + 1`` of them) that the nodes ``first..end`` use."""
    for ni in range(first, end):
        slot = _hash(a_key[ni]) & mask
        while h_keys[slot] != -1:
            h_keys[slot] = -1
            slot = (slot + 1) & mask


@njit(cache=True)
def _grow(a: np.ndarray, cap: int) -> np.ndarray:
    b = np.empty(cap, dtype=a.dtype)
    copy_prefix(b, a, a.shape[0])  # a loop, not b[:n] = a (see kernels/arrays.py)
    return b
