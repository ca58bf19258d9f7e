"""Board move generation for crossword tile games on a GADDAG (Gordon 1994), cells-and-lines geometry.

The board is a set of cells; a *line* is an ordered list of cells (a row or a column on a grid).
Per position the kernel does:

1. **Cross-sets and cross-scores.** For each empty cell and each line direction, the letters that may
   be placed there (the perpendicular word through it, prefix P above and suffix S below, must be a
   word) and the sum of the perpendicular tiles' values. The set comes from the GADDAG itself:
   walk ``rev(P)``, the separator, then each child ``x`` and ``S`` (accepting at the end); with no
   prefix, walk ``rev(S)`` and keep the accepting children. No perpendicular tiles: every letter,
   no cross word.
2. **Anchors, wolges-style.** Each line is scanned right to left. A group of tiles on the line
   anchors every move whose rightmost group it is: the walk starts on its rightmost tile and follows
   the tiles leftwards through the GADDAG (the known letters prune at once), may go on left over
   anything, and may not touch the group to its right. Between groups, each *hook* square (empty,
   with perpendicular neighbours) anchors the moves that touch no group and have it as their
   rightmost hook. So every placement is produced exactly once. On an empty board the centre square
   is the one anchor.
3. **Generation per anchor.** From the anchor the walk goes left through the GADDAG, placing rack
   tiles (a real tile and a blank standing for the same letter are separate branches) or following
   tiles already on the board, then crosses the separator and goes right from the square after the
   anchor. It is a depth-first search with an explicit stack (one frame per square), not recursion.
   Scores are accumulated incrementally: main-word letter sum (premiums on new tiles only),
   word-multiplier product (premiums multiply: x4, x9, also under a blank) and the cross-word
   total; a bingo adds the bonus when the whole (full) rack is played.
4. **One-tile moves** that form words in both directions are kept only in the across pass.

Child lookup is O(1): a node's children are contiguous, sorted by symbol, and the node's one
64-bit word ``g[e]`` holds their symbol set (bits 0-31), so the child for ``x`` is
``first + popcount(mask & ((1 << x) - 1))`` with ``first = g[e] >> 33``; bit 32 says the path
accepts (``kubasolve/kernels/gaddag_build.py``).

Outputs go into fixed-capacity arrays (no allocation in the walk); the count is exact even when the
capacity is exceeded (the caller then retries with a larger buffer). In best-move mode nothing is
written but the best record: anchors are taken in order of an upper bound of their moves (every
window of squares a move can cover, exact but for the letters, see ``_anchor_bound``) and the search
stops at the first anchor whose bound cannot beat the best move found; inside an anchor a branch is
cut when the tiles still to place, on the best premiums of the squares still open, cannot lift it
above the best (``_line_bound``). The bingo bonus enters a bound only where the rack plus the tiles
of a window anagram to some word (``word_multisets``, ``_bingo_possible``).

**No reference counting in the hot code.** ``generate`` only allocates; everything that loops (cross
sets, lines and anchors, bounds, the walk) runs in functions compiled with ``_nrt=False``. With
numba's runtime on, every array handed to a helper (also an inlined one, such as ``_push`` or
``_child``) and every view such as ``lin_all[k]`` costs an atomic increment and decrement of the
array's reference count, and on this machine (a KVM guest) those two atomics took 59% of the
time of a small position (``perf``: ``NRT_incref``/``NRT_decref``). Without them the all-moves
kernel of a small late position went from about 24 to 11 us and every position got faster. The
helpers must therefore not allocate (scratch arrays come from ``generate``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

CHILD_MASK = 0xFFFFFFFF  # bits 0-31 of a node word: the symbols of its children
ACCEPT_BIT = 32
FIRST_SHIFT = 33
BLANK_FLAG = 64

# rows of the per-line table ``lin``
L_LETTER, L_VALUE, L_XMASK, L_XSCORE, L_LMULT, L_WMULT, L_CAP = 0, 1, 2, 3, 4, 5, 6
# slots of the scalar context ``ctx``
(C_LINE, C_DIR, C_MODE, C_COUNT, C_CAP, C_BEST, C_RACKSIZE, C_BINGO, C_NL, C_LEN, C_ANCHOR, C_NRACK, C_WL, C_WR,
 C_ANCHOR_BINGO, C_TB_ROWS, C_OUT_I, C_OUT_SCORE, C_OTHER_I, C_OTHER_GAIN) = range(20)
B_TABLES = 5  # first row of the best-move tables in ``bound`` (see ``_line_bound``)
MODE_ALL, MODE_BEST, MODE_COUNT = 0, 1, 2
MODE_BEST_PLAIN = 3
MODE_FACTS = 4
"""Only the facts an endgame search needs one ply before its horizon, nothing written per move:
``out_meta[0]`` = (index of the highest-scoring move that uses the whole rack, its score, index
of the highest-gain other move, its gain; -1 indices when there is none), gain = score + value of
the tiles placed, indices as in mode 0's output (first of equals), so ``move_facts`` on mode 0's
output gives the same."""
"""Internal: best move without anchor ordering or bounds (chosen for racks below the rack size
with no blank, where the bounds cost more than they save: 10-17 us of bounds against 2-5 us of
walk on the small late positions)."""
# columns of a stack frame
(F_POS, F_NODE, F_PHASE, F_START, F_MSUM, F_WPROD, F_XSUM, F_NPLACED, F_ALLOWED, F_CODE, F_STAGE,
 F_CHILD, F_NMSUM, F_NWPROD, F_NXSUM, F_NNPLACED) = range(16)


@njit(cache=True, inline="always")
def _popcount(x):
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


@njit(cache=True, inline="always")
def _child(g, e, x):
    """Edge entering the child of node ``e`` by symbol ``x``, or -1."""
    m = (g[e] & CHILD_MASK)
    if ((m >> x) & 1) == 0:
        return -1
    return (g[e] >> FIRST_SHIFT) + _popcount(m & ((np.int64(1) << x) - 1))


@njit(cache=True)
def cross_sets(letters, values_on_board, lines, line_len, cell_line, cell_pos, g, n_letters, letter_filter):
    """``xmask[cell, d]`` (letters allowed for a tile placed in a direction-``d`` line) and
    ``xscore[cell, d]`` (perpendicular tiles' value sum, -1 when no cross word). Only the letters
    of ``letter_filter`` are tried on squares with a cross word (the rack's letters when it has no
    blank: no other letter can be placed)."""
    n_cells = letters.shape[0]
    xmask = np.zeros((n_cells, 2), np.int64)
    xscore = np.full((n_cells, 2), -1, np.int64)
    _cross_sets_into(xmask, xscore, letters, values_on_board, lines, line_len, cell_line, cell_pos, g, n_letters, letter_filter)
    return xmask, xscore


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the docstring)
def _cross_sets_into(xmask, xscore, letters, values_on_board, lines, line_len, cell_line, cell_pos, g, n_letters, letter_filter):
    """:func:`cross_sets` into given arrays (``xmask`` zeros, ``xscore`` -1 on entry)."""
    n_cells = letters.shape[0]
    for cell in range(n_cells):
        if letters[cell] >= 0:
            continue
        for d in range(2):
            xmask[cell, d], xscore[cell, d] = cross_set_of(cell, d, letters, values_on_board, lines, line_len, cell_line, cell_pos, g,
                                                           n_letters, letter_filter)


@njit(cache=True, inline="always")
def cross_set_of(cell, d, letters, values_on_board, lines, line_len, cell_line, cell_pos, g, n_letters, letter_filter):
    """``(xmask, xscore)`` of one empty ``cell`` for a tile placed in a direction-``d`` line (see
    :func:`cross_sets`); the endgame search calls it for the squares next to the tiles it places."""
    pd = 1 - d
    k = cell_line[cell, pd]
    p = cell_pos[cell, pd]
    n = line_len[k]
    lo = p
    while lo > 0 and letters[lines[k, lo - 1]] >= 0:
        lo -= 1
    hi = p
    while hi + 1 < n and letters[lines[k, hi + 1]] >= 0:
        hi += 1
    if lo == p and hi == p:
        return (np.int64(1) << n_letters) - 1, np.int64(-1)
    s = np.int64(0)
    for q in range(lo, hi + 1):
        if q != p:
            s += values_on_board[lines[k, q]]
    sep = n_letters
    m = np.int64(0)
    if lo < p:
        e = 0
        q = p - 1
        while q >= lo and e >= 0:
            e = _child(g, e, letters[lines[k, q]])
            q -= 1
        if e >= 0:
            e = _child(g, e, sep)
        if e >= 0:
            cm = (g[e] & CHILD_MASK)
            first = g[e] >> FIRST_SHIFT
            todo = cm & letter_filter
            while todo != 0:
                x = _ctz(todo)
                todo &= todo - 1
                c = first + _popcount(cm & ((np.int64(1) << x) - 1))
                q = p + 1
                while q <= hi and c >= 0:
                    c = _child(g, c, letters[lines[k, q]])
                    q += 1
                if c >= 0 and (g[c] >> ACCEPT_BIT) & 1:
                    m |= np.int64(1) << x
    else:
        e = 0
        q = hi
        while q > p and e >= 0:
            e = _child(g, e, letters[lines[k, q]])
            q -= 1
        if e >= 0:
            cm = (g[e] & CHILD_MASK)
            first = g[e] >> FIRST_SHIFT
            todo = cm & letter_filter
            while todo != 0:
                x = _ctz(todo)
                todo &= todo - 1
                if (g[first + _popcount(cm & ((np.int64(1) << x) - 1))] >> ACCEPT_BIT) & 1:
                    m |= np.int64(1) << x
    return m, s


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the docstring)
def _record(start, end, score, nplaced, lin, word, ctx, out_meta, out_tiles, val):
    if nplaced == 1 and ctx[C_DIR] == 1:
        for q in range(start, end + 1):
            if word[q] >= 0 and lin[L_XSCORE, q] >= 0:
                return  # one tile forming an across word too: that move is the across one
    mode = ctx[C_MODE]
    if mode == MODE_FACTS:
        i = ctx[C_COUNT]
        ctx[C_COUNT] = i + 1
        ctx[C_BEST] = max(ctx[C_BEST], score)
        if nplaced == ctx[C_NRACK]:
            if ctx[C_OUT_I] < 0 or score > ctx[C_OUT_SCORE]:
                ctx[C_OUT_I] = i
                ctx[C_OUT_SCORE] = score
        else:
            gain = score
            for q in range(start, end + 1):
                if word[q] >= 0 and word[q] < BLANK_FLAG:
                    gain += val[word[q]]
            if ctx[C_OTHER_I] < 0 or gain > ctx[C_OTHER_GAIN]:
                ctx[C_OTHER_I] = i
                ctx[C_OTHER_GAIN] = gain
        return
    if mode in (MODE_BEST, MODE_BEST_PLAIN):
        if score <= ctx[C_BEST]:
            return
        ctx[C_BEST] = score
        i = 0
    else:
        i = ctx[C_COUNT]
        ctx[C_COUNT] = i + 1
        ctx[C_BEST] = max(ctx[C_BEST], score)
        if mode == MODE_COUNT or i >= ctx[C_CAP]:
            return
    out_meta[i, 0] = ctx[C_LINE]
    out_meta[i, 1] = start
    out_meta[i, 2] = end
    out_meta[i, 3] = score
    for q in range(out_tiles.shape[1]):
        out_tiles[i, q] = word[q] if start <= q <= end else -1


@njit(cache=True, inline="always")
def _ctz(b):
    return _popcount((b & -b) - 1)


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the docstring)
def _walk_anchors(order, n_order, work, ub, anchor_bingo, lin_all, line_dir, line_len, g, rack, word, ctx, val, bound,
                  out_meta, out_tiles, fr, best_val, rvals, scratch):
    """All placements from the anchors ``work[order[j]]`` (``j < n_order``): ``(line, anchor, left,
    right)``, the moves of line ``line`` through square ``anchor`` within squares ``left..right-1``.
    In best-move mode the anchors come in decreasing order of their bound ``ub`` and the loop stops
    at the first that cannot beat the best move found. (One call for all anchors: a call per anchor
    cost about 0.25 us, most of the time of a small position.)

    Per anchor, a depth-first walk with an explicit stack (one frame per placed tile or run of board
    tiles; no recursion, so the compiled kernel caches safely): frame ``i`` of ``fr`` holds the
    square, the GADDAG node it extends, the phase (0 leftwards, 1 rightwards), the word start, the
    running score terms, the choice in progress (``2 * letter + variant``, variant 1 = a blank) and
    the stage of its continuation (0 next choice, 1 cross the separator, 2 extend one square further).
    """
    nl = ctx[C_NL]
    best_mode = ctx[C_MODE] == MODE_BEST
    n_rack = ctx[C_NRACK]
    for j in range(n_order):
        it = order[j]
        if best_mode and ub[it] <= ctx[C_BEST]:
            break
        k = work[it, 0]
        anchor = work[it, 1]
        left = work[it, 2]
        right = work[it, 3]
        lin = lin_all[k]
        n = line_len[k]
        ctx[C_LINE] = k
        ctx[C_DIR] = line_dir[k]
        ctx[C_LEN] = n
        ctx[C_ANCHOR] = anchor
        if best_mode:
            ctx[C_ANCHOR_BINGO] = 1 if anchor_bingo[it] else 0
            wl, wr = _window(lin, anchor, left, right, n_rack)
            ctx[C_WL] = wl
            ctx[C_WR] = wr
            _line_bound(lin, wl, wr + 1, anchor, best_val, rvals, n_rack, bound, ctx[C_TB_ROWS], scratch)
        depth = _push(0, anchor, 0, 0, 0, 0, 1, 0, 0, g, lin, rack, ctx, bound, fr, best_mode)
        depth = _push(0, anchor, 0, 0, 0, 0, 1, 0, 0, g, lin, rack, ctx, bound, fr, best_mode)
        while depth > 0:
            i = depth - 1
            pos = fr[i, F_POS]
            stage = fr[i, F_STAGE]
            if stage == 0:
                # undo the previous choice of this frame, then take the next one
                code = fr[i, F_CODE]
                letter = lin[L_LETTER, pos]
                if code >= 0 and letter < 0:
                    if code & 1:
                        rack[nl] += 1
                    else:
                        x = code >> 1
                        rack[x] += 1
                        rack[nl + 1] |= np.int64(1) << x
                e = fr[i, F_NODE]
                msum = fr[i, F_MSUM]
                wprod = fr[i, F_WPROD]
                xsum = fr[i, F_XSUM]
                npl = fr[i, F_NPLACED]
                if letter >= 0:
                    if code >= 0:
                        depth -= 1
                        continue
                    # follow the whole run of tiles in the walk's direction in one frame
                    fr[i, F_CODE] = 0
                    c = e
                    step = -1 if fr[i, F_PHASE] == 0 else 1
                    limit = left if step < 0 else right - 1
                    ok = True
                    while True:
                        t = lin[L_LETTER, pos]
                        if (((g[c] & CHILD_MASK) >> t) & 1) == 0:
                            ok = False
                            break
                        c = (g[c] >> FIRST_SHIFT) + _popcount((g[c] & CHILD_MASK) & ((np.int64(1) << t) - 1))
                        msum += lin[L_VALUE, pos]
                        word[pos] = -1
                        if pos == limit or lin[L_LETTER, pos + step] < 0:
                            break
                        pos += step
                    if not ok:
                        depth -= 1
                        continue
                    fr[i, F_POS] = pos
                else:
                    allowed = fr[i, F_ALLOWED]
                    code += 1
                    x = code >> 1
                    found = False
                    while True:
                        if code & 1:
                            if rack[nl] > 0 and (allowed >> x) & 1:
                                found = True
                                break
                            code += 1
                            x += 1
                        rest = allowed & ~((np.int64(1) << x) - 1) if x < 63 else np.int64(0)
                        if rest == 0:
                            break
                        x = _ctz(rest)
                        code = 2 * x
                        if rack[x] > 0:
                            found = True
                            break
                        code += 1
                    if not found:
                        depth -= 1
                        continue
                    fr[i, F_CODE] = code
                    c = (g[e] >> FIRST_SHIFT) + _popcount((g[e] & CHILD_MASK) & ((np.int64(1) << x) - 1))
                    wm = lin[L_WMULT, pos]
                    xs = lin[L_XSCORE, pos]
                    if code & 1:
                        v = 0
                        rack[nl] -= 1
                        word[pos] = x | BLANK_FLAG
                    else:
                        v = val[x] * lin[L_LMULT, pos]
                        rack[x] -= 1
                        if rack[x] == 0:
                            rack[nl + 1] &= ~(np.int64(1) << x)
                        word[pos] = x
                    msum += v
                    wprod *= wm
                    if xs >= 0:
                        xsum += (xs + v) * wm
                    npl += 1
                fr[i, F_CHILD] = c
                fr[i, F_NMSUM] = msum
                fr[i, F_NWPROD] = wprod
                fr[i, F_NXSUM] = xsum
                fr[i, F_NNPLACED] = npl
                fr[i, F_STAGE] = 1
                if npl > 0 and (g[c] >> ACCEPT_BIT) & 1:
                    if fr[i, F_PHASE] == 0:
                        if (pos == 0 or lin[L_LETTER, pos - 1] < 0) and (anchor + 1 == n or lin[L_LETTER, anchor + 1] < 0):
                            sc = msum * wprod + xsum + (ctx[C_BINGO] if npl == ctx[C_RACKSIZE] else 0)
                            if not best_mode or sc > ctx[C_BEST]:
                                _record(pos, anchor, sc, npl, lin, word, ctx, out_meta, out_tiles, val)
                    elif pos + 1 == n or lin[L_LETTER, pos + 1] < 0:
                        sc = msum * wprod + xsum + (ctx[C_BINGO] if npl == ctx[C_RACKSIZE] else 0)
                        if not best_mode or sc > ctx[C_BEST]:
                            _record(fr[i, F_START], pos, sc, npl, lin, word, ctx, out_meta, out_tiles, val)
                stage = 1  # fall through to the continuations
            has_tiles = rack[nl] > 0 or rack[nl + 1] != 0
            c = fr[i, F_CHILD]
            if stage == 1:
                fr[i, F_STAGE] = 2
                if fr[i, F_PHASE] == 0 and (pos == 0 or lin[L_LETTER, pos - 1] < 0) and anchor + 1 < right and (lin[L_LETTER, anchor + 1] >= 0 or has_tiles) and ((g[c] & CHILD_MASK) >> nl) & 1:
                    s = (g[c] >> FIRST_SHIFT) + _popcount((g[c] & CHILD_MASK) & ((np.int64(1) << nl) - 1))
                    new_depth = _push(depth, anchor + 1, s, 1, pos, fr[i, F_NMSUM], fr[i, F_NWPROD], fr[i, F_NXSUM], fr[i, F_NNPLACED],
                                      g, lin, rack, ctx, bound, fr, best_mode)
                    if new_depth != depth:
                        depth = new_depth
                        continue
            fr[i, F_STAGE] = 0
            if fr[i, F_PHASE] == 0:
                if pos > left and (lin[L_LETTER, pos - 1] >= 0 or has_tiles):
                    depth = _push(depth, pos - 1, c, 0, 0, fr[i, F_NMSUM], fr[i, F_NWPROD], fr[i, F_NXSUM], fr[i, F_NNPLACED],
                                  g, lin, rack, ctx, bound, fr, best_mode)
            elif pos + 1 < right and (lin[L_LETTER, pos + 1] >= 0 or has_tiles):
                depth = _push(depth, pos + 1, c, 1, fr[i, F_START], fr[i, F_NMSUM], fr[i, F_NWPROD], fr[i, F_NXSUM], fr[i, F_NNPLACED],
                              g, lin, rack, ctx, bound, fr, best_mode)


@njit(cache=True, inline="always")
def _push(depth, pos, e, phase, start, msum, wprod, xsum, nplaced, g, lin, rack, ctx, bound, fr, best_mode):
    """Push the frame filling square ``pos`` from node ``e`` when it has any choice; the new depth."""
    nl = ctx[C_NL]
    m = (g[e] & CHILD_MASK)
    letter = lin[L_LETTER, pos]
    if letter >= 0:
        if ((m >> letter) & 1) == 0:
            return depth
        allowed = np.int64(1) << letter
    else:
        allowed = m & lin[L_XMASK, pos]
        if rack[nl] == 0:
            allowed &= rack[nl + 1]
        if allowed == 0:
            return depth
    if best_mode:
        # cut: nothing reachable from here can beat the best move found
        left = ctx[C_NRACK] - nplaced
        # the squares of the window the move has not covered yet (prefix sums in bound[3] and
        # bound[4]): the tiles there score, and at most as many rack tiles as empty squares fit
        wr1 = ctx[C_WR] + 1
        if phase == 0:
            a1 = ctx[C_ANCHOR] + 1
            wl = ctx[C_WL]
            rest = bound[3, pos + 1] - bound[3, wl] + bound[3, wr1] - bound[3, a1]
            room = bound[4, pos + 1] - bound[4, wl] + bound[4, wr1] - bound[4, a1]
        else:
            rest = bound[3, wr1] - bound[3, pos]
            room = bound[4, wr1] - bound[4, pos]
        # the best ``j`` tiles on the best premiums of the squares still open (``_line_bound``)
        j = min(left, room)
        row = B_TABLES + 3 * phase * ctx[C_TB_ROWS] + (max(pos, ctx[C_WL]) if phase == 0 else min(pos, ctx[C_WR]))
        ub = (msum + rest + bound[row, j]) * wprod * bound[row + ctx[C_TB_ROWS], j] + xsum + bound[row + 2 * ctx[C_TB_ROWS], j]
        if ctx[C_ANCHOR_BINGO] and room >= left:
            ub += ctx[C_BINGO]
        if ub <= ctx[C_BEST]:
            return depth
    fr[depth, F_POS] = pos
    fr[depth, F_NODE] = e
    fr[depth, F_PHASE] = phase
    fr[depth, F_START] = start
    fr[depth, F_MSUM] = msum
    fr[depth, F_WPROD] = wprod
    fr[depth, F_XSUM] = xsum
    fr[depth, F_NPLACED] = nplaced
    fr[depth, F_ALLOWED] = allowed
    fr[depth, F_CODE] = -1
    fr[depth, F_STAGE] = 0
    return depth + 1


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the docstring)
def _prepare_lines(lines, line_len, line_dir, cell_pos, centre, letters, values_on_board, xmask, xscore, letter_mult, word_mult,
                   anchor, lin_all, work, empty_board, across_only, mode, rack_letters, by_value, val):
    """Fill ``lin_all`` with the lines that have an anchor and list their anchors in ``work``; in
    best-move mode also each square's ``L_CAP``. Returns the number of anchors."""
    n_work = 0
    for k in range(lines.shape[0]):
        if across_only and line_dir[k] == 1:
            continue
        lk = lin_all[k]
        if _fill_line(k, lines, line_len, line_dir, letters, values_on_board, xmask, xscore, letter_mult, word_mult, anchor, lk):
            n_work = _line_anchors(k, lk, line_len[k], empty_board, cell_pos[centre, line_dir[k]], work, n_work)
            if mode == MODE_BEST:
                # the most a tile placed on each square can be worth (its cross-set and the rack)
                for p in range(line_len[k]):
                    cm = lk[L_XMASK, p] & rack_letters
                    cap = 0
                    if cm != 0:
                        for i in range(by_value.shape[0]):
                            x = by_value[i]
                            if (cm >> x) & 1:
                                cap = val[x]
                                break
                    lk[L_CAP, p] = cap
    return n_work


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the docstring)
def _anchor_bounds(n_work, work, lin_all, ub, anchor_bingo, rvals, rack_size, bingo_bonus, scratch, keys, word_set, rack_hash,
                   n_blanks, memo):
    """``ub[i], anchor_bingo[i] = _anchor_bound(...)`` of every anchor ``work[i]``."""
    for it in range(n_work):
        k = work[it, 0]
        ub[it], anchor_bingo[it] = _anchor_bound(lin_all[k], work[it, 1], work[it, 2], work[it, 3], rvals, rack_size, bingo_bonus,
                                                 scratch, keys, word_set, rack_hash, n_blanks, memo)


@njit(cache=True)
def generate(g, letters, blank, lines, line_len, line_dir, cell_line, cell_pos, letter_mult, word_mult,
             centre, val, rack_counts, n_blanks, rack_size, bingo_bonus, mode, symmetric, out_meta, out_tiles,
             keys, word_set):
    """Generate the placements of a rack on a board; returns ``(count, best score, mirrored)``.

    ``mode`` 0 writes every move into ``out_meta`` (line, start, end, score) and ``out_tiles`` (per
    line position: letter code, +64 for a blank, -1 for a tile already there) up to their capacity;
    1 keeps only the best move (row 0); 2 only counts; 4 the endgame facts (``MODE_FACTS``; not on an
    empty board, whose mode-0 output is mirrored). ``symmetric``: the layout is symmetric about
    its diagonal, so on an empty board only the across lines are walked and ``mirrored`` is True
    (the caller mirrors the across moves). ``keys``/``word_set``: the letter keys and the set of
    the words' letter-multiset hashes (``word_multisets``), for the best-move bound; a one-slot
    ``word_set`` means: assume a bingo is always possible.
    """
    n_letters = val.shape[0]
    n_cells = letters.shape[0]
    width = lines.shape[1]
    values_on_board = np.zeros(n_cells, np.int64)
    empty_board: np.bool_ = np.bool_(True)  # typed, not literal: one compilation of _prepare_lines (kernels/__init__.py)
    for cell in range(n_cells):
        if letters[cell] >= 0:
            empty_board = np.bool_(False)
            if not blank[cell]:
                values_on_board[cell] = val[letters[cell]]
    across_only = symmetric and empty_board
    rack_letters = np.int64(0)
    for x in range(n_letters):
        if rack_counts[x] > 0:
            rack_letters |= np.int64(1) << x
    letter_filter = rack_letters if n_blanks == 0 else (np.int64(1) << n_letters) - 1
    xmask = np.zeros((n_cells, 2), np.int64)
    xscore = np.full((n_cells, 2), -1, np.int64)
    _cross_sets_into(xmask, xscore, letters, values_on_board, lines, line_len, cell_line, cell_pos, g, n_letters, letter_filter)
    anchor = np.zeros(n_cells, np.bool_)
    if empty_board:
        anchor[centre] = True
    else:
        for cell in range(n_cells):
            if letters[cell] >= 0:
                continue
            for d in range(2):
                k = cell_line[cell, d]
                p = cell_pos[cell, d]
                if p > 0 and letters[lines[k, p - 1]] >= 0:
                    anchor[cell] = True
                if p + 1 < line_len[k] and letters[lines[k, p + 1]] >= 0:
                    anchor[cell] = True
    rack = np.zeros(n_letters + 2, np.int64)
    n_rack = n_blanks
    best_val = np.int64(0)
    for x in range(n_letters):
        rack[x] = rack_counts[x]
        n_rack += rack_counts[x]
        if rack_counts[x] > 0:
            rack[n_letters + 1] |= np.int64(1) << x
            best_val = max(best_val, val[x])
    rack[n_letters] = n_blanks
    if mode == MODE_BEST and n_blanks == 0 and n_rack < rack_size:
        mode = np.int64(MODE_BEST_PLAIN)
    ctx = np.zeros(20, np.int64)
    ctx[C_MODE] = mode
    ctx[C_CAP] = out_meta.shape[0]
    ctx[C_BEST] = -1
    ctx[C_RACKSIZE] = rack_size
    ctx[C_BINGO] = bingo_bonus
    ctx[C_NL] = n_letters
    ctx[C_NRACK] = n_rack
    ctx[C_OUT_I] = -1
    ctx[C_OTHER_I] = -1
    n_lines = lines.shape[0]
    lin_all = np.zeros((n_lines, 7, width), np.int64)  # the lines' squares (``_fill_line``)
    word = np.full(width, -1, np.int64)
    # rows 3-4: prefix sums; then the 6 tables of ``_line_bound`` (width + 1 rows each); one 2-D
    # array, because every array the walk uses holds registers
    bound = np.zeros((B_TABLES + 6 * (width + 1), max(n_rack, width) + 2), np.int64)
    ctx[C_TB_ROWS] = width + 1
    frames = np.zeros((width + 2, 16), np.int64)
    work = np.zeros((lines.shape[0] * width + 1, 4), np.int64)  # line, anchor, left, right
    # the rack's letters, most valuable first (the best letter a square's cross-set allows)
    by_value = np.argsort(-val[:n_letters], kind="mergesort")
    n_work = _prepare_lines(lines, line_len, line_dir, cell_pos, centre, letters, values_on_board, xmask, xscore, letter_mult,
                            word_mult, anchor, lin_all, work, empty_board, across_only, mode, rack_letters, by_value, val)
    if mode == MODE_BEST:
        # most promising anchors first; stop when no anchor's upper bound beats the best move found
        rvals = np.zeros(n_rack, np.int64)
        j = 0
        for x in range(n_letters):
            for _ in range(rack_counts[x]):
                rvals[j] = val[x]
                j += 1
        rvals = np.sort(rvals)[::-1].copy()
        scratch = np.zeros((3, width + 1), np.int64)
        ub = np.zeros(n_work, np.int64)
        anchor_bingo = np.zeros(n_work, np.bool_)
        rack_hash = np.int64(0)
        for x in range(n_letters):
            rack_hash += keys[x] * rack_counts[x]
        memo = np.zeros(129, np.int64)
        _anchor_bounds(n_work, work, lin_all, ub, anchor_bingo, rvals, rack_size, bingo_bonus, scratch, keys, word_set, rack_hash,
                       n_blanks, memo)
        order = np.argsort(-ub, kind="mergesort")
    else:
        order = np.arange(n_work)
        ub = np.zeros(0, np.int64)
        anchor_bingo = np.zeros(0, np.bool_)
        rvals = np.zeros(0, np.int64)
        scratch = np.zeros((3, 1), np.int64)
    _walk_anchors(order, n_work, work, ub, anchor_bingo, lin_all, line_dir, line_len, g, rack, word, ctx, val, bound,
                  out_meta, out_tiles, frames, best_val, rvals, scratch)
    if mode == MODE_FACTS:
        out_meta[0, 0] = ctx[C_OUT_I]
        out_meta[0, 1] = ctx[C_OUT_SCORE]
        out_meta[0, 2] = ctx[C_OTHER_I]
        out_meta[0, 3] = ctx[C_OTHER_GAIN]
    return ctx[C_COUNT], ctx[C_BEST], across_only


@njit(cache=True, inline="always")
def _insert_desc(buf, m, v):
    """Insert ``v`` into ``buf[0:m]`` kept in descending order."""
    q = m
    while q > 0 and buf[q - 1] < v:
        buf[q] = buf[q - 1]
        q -= 1
    buf[q] = v


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the docstring)
def _window(lin, anchor, left, right, n_rack):
    """The squares ``wl..wr`` a move from ``anchor`` can cover: up to ``n_rack`` empty squares on
    each side (and the tiles among them), within ``left..right-1``."""
    wl = anchor
    empties = 1 if lin[L_LETTER, anchor] < 0 else 0
    while wl - 1 >= left and (lin[L_LETTER, wl - 1] >= 0 or empties < n_rack):
        wl -= 1
        if lin[L_LETTER, wl] < 0:
            empties += 1
    wr = anchor
    empties = 1 if lin[L_LETTER, anchor] < 0 else 0
    while wr + 1 < right and (lin[L_LETTER, wr + 1] >= 0 or empties < n_rack):
        wr += 1
        if lin[L_LETTER, wr] < 0:
            empties += 1
    return wl, wr


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the docstring)
def _store_bounds(bound, rows, phase, p, rvals, lms, wms, crs, m, n_rack):
    """The three table rows of square ``p`` and ``phase`` from the sorted lists of the ``m``
    squares of its set (column ``j``: the best ``j`` tiles placed there)."""
    r0 = B_TABLES + 3 * phase * rows + p
    r1 = r0 + rows
    r2 = r1 + rows
    a = 0
    w = 1
    c = 0
    bound[r0, 0] = 0
    bound[r1, 0] = 1
    bound[r2, 0] = 0
    for q in range(min(m, n_rack)):
        a += rvals[q] * lms[q]
        w *= wms[q]
        c += crs[q]
        bound[r0, q + 1] = a
        bound[r1, q + 1] = w
        bound[r2, q + 1] = c


@njit(cache=True, inline="always")
def _add_square(lin, p, best_val, lms, wms, crs, m):
    """Insert square ``p``'s multipliers and best cross word into the sorted lists; new length."""
    _insert_desc(lms, m, lin[L_LMULT, p])
    _insert_desc(wms, m, lin[L_WMULT, p])
    cr = (lin[L_XSCORE, p] + best_val * lin[L_LMULT, p]) * lin[L_WMULT, p] if lin[L_XSCORE, p] >= 0 else 0
    _insert_desc(crs, m, cr)
    return m + 1


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the docstring)
def _line_bound(lin, lo, hi, anchor, best_val, rvals, n_rack, bound, rows, scratch):
    """Terms of the walk's upper bound for an anchor whose moves lie in squares ``lo..hi-1``.

    ``bound[3, p]``: value of the tiles already on squares ``lo..p-1``; ``bound[4, p]``: number of
    empty squares there that some letter may fill (prefix sums: the walk counts only the squares it
    has not covered yet). Then three tables per walk phase (``rows`` rows each, from row
    ``B_TABLES``; phase 0 first): for the squares still open when the walk is about to fill square
    ``p`` (leftwards, phase 0: ``lo..p`` and ``anchor+1..hi-1``; rightwards, phase 1: ``p..hi-1``),
    column ``j`` of row ``p`` of the first holds the largest letter sum of ``j`` rack tiles there
    (the rack's values sorted, paired with the letter multipliers sorted), of the second the largest
    product of ``j`` of their word multipliers, of the third the largest total of ``j`` cross words
    (each with the rack's most valuable letter). Squares the move has covered are left out, so a
    word premium already under a placed tile is not counted twice."""
    lms = scratch[0]
    wms = scratch[1]
    crs = scratch[2]
    m = np.int64(0)
    tiles = 0
    for p in range(lo, hi):
        bound[3, p] = tiles
        bound[4, p] = m
        if lin[L_LETTER, p] >= 0:
            tiles += lin[L_VALUE, p]
        elif lin[L_XMASK, p] != 0:
            m += 1
    bound[3, hi] = tiles
    bound[4, hi] = m
    m = np.int64(0)
    for p in range(hi - 1, anchor, -1):
        if lin[L_LETTER, p] < 0 and lin[L_XMASK, p] != 0:
            m = _add_square(lin, p, best_val, lms, wms, crs, m)
        _store_bounds(bound, rows, np.int64(1), p, rvals, lms, wms, crs, m, n_rack)
    m = np.int64(0)
    for p in range(anchor + 1, hi):
        if lin[L_LETTER, p] < 0 and lin[L_XMASK, p] != 0:
            m = _add_square(lin, p, best_val, lms, wms, crs, m)
    for p in range(lo, anchor + 1):
        if lin[L_LETTER, p] < 0 and lin[L_XMASK, p] != 0:
            m = _add_square(lin, p, best_val, lms, wms, crs, m)
        _store_bounds(bound, rows, np.int64(0), p, rvals, lms, wms, crs, m, n_rack)


@njit(cache=True, inline="always")
def _fill_line(k, lines, line_len, line_dir, letters, values_on_board, xmask, xscore, letter_mult, word_mult, anchor, lin):
    """Copy line ``k``'s squares into ``lin``; False (and nothing copied) when the line has no
    anchor (nothing to do)."""
    d = line_dir[k]
    n = line_len[k]
    has_anchor = False
    for p in range(n):
        if anchor[lines[k, p]]:
            has_anchor = True
            break
    if not has_anchor:
        return False
    for p in range(n):
        cell = lines[k, p]
        lin[L_LETTER, p] = letters[cell]
        lin[L_VALUE, p] = values_on_board[cell]
        lin[L_XMASK, p] = xmask[cell, d]
        lin[L_XSCORE, p] = xscore[cell, d]
        lin[L_LMULT, p] = letter_mult[cell]
        lin[L_WMULT, p] = word_mult[cell]
    return True


@njit(cache=True, inline="always")
def _line_anchors(k, lin, n, empty_board, centre_pos, work, n_work):
    """Append the line's anchors ``(line, anchor, left, right)`` to ``work``; the new length.

    Right to left: each group of tiles anchors the moves whose rightmost group it is (they may reach
    left over anything but not touch the group to the right); between groups, each hook square
    (perpendicular neighbours) anchors the moves that touch no group and have it as their rightmost
    hook. On an empty board the centre square is the only anchor."""
    if empty_board:
        work[n_work, 0] = k
        work[n_work, 1] = centre_pos
        work[n_work, 2] = 0
        work[n_work, 3] = n
        return n_work + 1
    lo = n
    while True:
        hi = lo
        while lo > 0 and lin[L_LETTER, lo - 1] < 0:
            lo -= 1
        if lo > 0:
            work[n_work, 0] = k
            work[n_work, 1] = lo - 1
            work[n_work, 2] = 0
            work[n_work, 3] = hi
            n_work += 1
        start_free = lo + 1 if lo > 0 else 0
        for a in range(hi - 1, start_free - 1, -1):
            if lin[L_XSCORE, a] >= 0:
                if hi - start_free < 2:
                    break
                if lin[L_XMASK, a] != 0:
                    work[n_work, 0] = k
                    work[n_work, 1] = a
                    work[n_work, 2] = start_free
                    work[n_work, 3] = hi
                    n_work += 1
                hi = a
        if lo == 0:
            break
        gstart = lo - 1  # skip the group to its leftmost tile
        while gstart > 0 and lin[L_LETTER, gstart - 1] >= 0:
            gstart -= 1
        if gstart < 3:  # fewer than 2 squares left of the empty square before the group
            break
        lo = gstart - 1  # moves further left must not cover this square (it touches the group)
    return n_work


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the docstring)
def _anchor_bound(lin, anchor, left, right, rvals, rack_size, bingo_bonus, scratch, keys, word_set, rack_hash, n_blanks, memo):
    """An upper bound of the score of any move from ``anchor`` (-1: none possible).

    For every window of squares the move could cover (through the anchor, within ``left..right-1``,
    not touching tiles outside it, 1..rack-size empty squares, none with an empty cross-set) the
    score is exact but for the letters: each empty square ``i`` adds ``v * lm_i * (W + wm_i if it
    hooks a cross word)`` for the value ``v`` put there, so pairing the rack's values (sorted) with
    these effective multipliers (sorted) is the best any assignment can do; so is every square
    taking the most valuable rack letter its cross-set allows (``L_CAP``); the smaller of the two.
    A window of ``rack_size`` empty squares adds the bingo bonus only when some word is an anagram
    of the rack and the window's tiles (``_bingo_possible``). Returns ``(bound, some bingo window)``.

    The windows' sums are built incrementally (the part left of and at the anchor as the start
    moves left, the part right of it as the end moves right); the pairing, the only step that
    sorts, is skipped for a window whose capped bound cannot beat the best window so far."""
    n_rack = rvals.shape[0]
    eff = scratch[0]
    sq_lm = scratch[1]  # per empty square of the window: lm, and lm * wm when it hooks a cross word
    sq_c = scratch[2]
    best = -1
    bingo_window = False
    # the part s..anchor (this loop and the one for anchor+1..t below add a square to their sums
    # the same way; written out twice on purpose: through a shared inlined helper returning the
    # sums, or through a small array of sums, the whole best-move search measured 10-16% slower)
    l_tiles = 0
    l_hash = np.int64(0)
    l_wmul = 1
    l_x = 0
    l_capl = 0
    l_capc = 0
    l_m = 0
    for s in range(anchor, left - 1, -1):
        if lin[L_LETTER, s] < 0:
            if lin[L_XMASK, s] == 0:
                break
            if l_m + 1 > n_rack:
                break
            lm = lin[L_LMULT, s]
            wm = lin[L_WMULT, s]
            c = lm * wm if lin[L_XSCORE, s] >= 0 else 0
            if lin[L_XSCORE, s] >= 0:
                l_x += lin[L_XSCORE, s] * wm
            l_wmul *= wm
            l_capl += lin[L_CAP, s] * lm
            l_capc += lin[L_CAP, s] * c
            sq_lm[l_m] = lm
            sq_c[l_m] = c
            l_m += 1
        else:
            l_tiles += lin[L_VALUE, s]
            l_hash += keys[lin[L_LETTER, s]]
        if s - 1 >= left and lin[L_LETTER, s - 1] >= 0:
            continue
        # the part anchor+1..t
        r_tiles = 0
        r_hash = np.int64(0)
        r_wmul = 1
        r_x = 0
        r_capl = 0
        r_capc = 0
        m = l_m
        for t in range(anchor, right):
            if t > anchor:
                if lin[L_LETTER, t] < 0:
                    if lin[L_XMASK, t] == 0:
                        break
                    if m + 1 > n_rack:
                        break
                    lm = lin[L_LMULT, t]
                    wm = lin[L_WMULT, t]
                    c = lm * wm if lin[L_XSCORE, t] >= 0 else 0
                    if lin[L_XSCORE, t] >= 0:
                        r_x += lin[L_XSCORE, t] * wm
                    r_wmul *= wm
                    r_capl += lin[L_CAP, t] * lm
                    r_capc += lin[L_CAP, t] * c
                    sq_lm[m] = lm
                    sq_c[m] = c
                    m += 1
                else:
                    r_tiles += lin[L_VALUE, t]
                    r_hash += keys[lin[L_LETTER, t]]
            if t + 1 < right and lin[L_LETTER, t + 1] >= 0:
                continue
            if t == s or m == 0:
                continue
            wmul = l_wmul * r_wmul
            const = (l_tiles + r_tiles) * wmul + l_x + r_x
            capped = const + wmul * (l_capl + r_capl) + l_capc + r_capc
            bonus = 0
            if m == rack_size and n_rack == rack_size and _bingo_possible(rack_hash + l_hash + r_hash, keys, word_set, n_blanks, memo):
                bonus = bingo_bonus
                bingo_window = True
            if capped + bonus <= best:
                continue
            for i in range(m):
                _insert_desc(eff, i, sq_lm[i] * wmul + sq_c[i])
            total = const
            for i in range(m):
                total += rvals[i] * eff[i]
            total = min(total, capped) + bonus
            if total > best:
                best = total
    return best, bingo_window


@njit(cache=True)
def word_multisets(g, n_letters, keys, min_len, max_len, n_words):
    """Open-addressing set (0 = free) of the letter-multiset hashes (sums of ``keys``, wrapping) of
    every word of ``min_len`` to ``max_len`` letters, read off the GADDAG's separator-free paths
    (``rev(w)``). Used to rule out the bingo bonus in best-move bounds: a false hit (hash
    collision) only loosens a bound, never drops a move."""
    bits = 4
    while (np.int64(1) << bits) < 2 * max(n_words, 1):
        bits += 1
    table = np.zeros(np.int64(1) << bits, np.int64)
    mask = table.shape[0] - 1
    st_e = np.zeros(max_len + 2, np.int64)
    st_todo = np.zeros(max_len + 2, np.int64)  # children not visited yet (symbol set)
    st_h = np.zeros(max_len + 2, np.int64)
    st_todo[0] = g[0] & CHILD_MASK & ((np.int64(1) << n_letters) - 1)
    depth = 0
    while depth >= 0:
        e = st_e[depth]
        todo = st_todo[depth]
        if depth >= max_len or todo == 0:
            depth -= 1
            continue
        sym = _ctz(todo)
        st_todo[depth] = todo & (todo - 1)
        c = (g[e] >> FIRST_SHIFT) + _popcount(g[e] & CHILD_MASK & ((np.int64(1) << sym) - 1))
        h = st_h[depth] + keys[sym]
        if depth + 1 >= min_len and (g[c] >> ACCEPT_BIT) & 1:
            key = h if h != 0 else np.int64(1)
            j = key & mask
            while table[j] != 0 and table[j] != key:
                j = (j + 1) & mask
            table[j] = key
        depth += 1
        st_e[depth] = c
        st_todo[depth] = g[c] & CHILD_MASK & ((np.int64(1) << n_letters) - 1)
        st_h[depth] = h
    return table


@njit(cache=True, inline="always")
def _in_set(word_set, h):
    key = h if h != 0 else np.int64(1)
    mask = word_set.shape[0] - 1
    j = key & mask
    while True:
        v = word_set[j]
        if v == key:
            return True
        if v == 0:
            return False
        j = (j + 1) & mask


@njit(cache=True, _nrt=False)  # type: ignore[call-overload]  # no reference counting (see the docstring)
def _bingo_possible(h, keys, word_set, n_blanks, memo):
    """Whether some word has the letter multiset of hash ``h`` plus ``n_blanks`` letters (blanks are
    wild). ``memo[0]``: number of cached answers; then (hash, answer) pairs."""
    if word_set.shape[0] <= 1 or n_blanks > 2:
        return True
    n_memo = memo[0]
    for i in range(n_memo):
        if memo[1 + 2 * i] == h:
            return memo[2 + 2 * i] == 1
    found = False
    n_letters = keys.shape[0]
    if n_blanks == 0:
        found = _in_set(word_set, h)
    elif n_blanks == 1:
        for x in range(n_letters):
            if _in_set(word_set, h + keys[x]):
                found = True
                break
    else:
        for x in range(n_letters):
            for y in range(x, n_letters):
                if _in_set(word_set, h + keys[x] + keys[y]):
                    found = True
                    break
            if found:
                break
    if 2 * n_memo + 2 < memo.shape[0]:
        memo[1 + 2 * n_memo] = h
        memo[2 + 2 * n_memo] = 1 if found else 0
        memo[0] = n_memo + 1
    return found


@njit(cache=True)
def move_facts(meta, tiles, rack_len, tile_values):
    """Per-move facts an endgame search orders and bounds with, in one pass over ``generate``'s
    output: ``(scores, gains, outs, best_out, best_other)`` where ``gains[i]`` = score + value of
    the tiles move ``i`` places (``tile_values`` indexed by the tile byte as uint8: a letter code
    its value, a blank (+64) or no tile (-1 = 255) 0), ``outs[i]``: the move uses all ``rack_len``
    tiles, ``best_out``: the highest-scoring going-out move and ``best_other`` the highest-gain
    other move (the first of equals; -1 when there is none)."""
    n = meta.shape[0]
    width = tiles.shape[1]
    scores = np.empty(n, np.int64)
    gains = np.empty(n, np.int64)
    outs = np.zeros(n, np.bool_)
    best_out = -1
    best_other = -1
    for i in range(n):
        s = np.int64(meta[i, 3])
        g = s
        used = 0
        for p in range(width):
            t = tiles[i, p]
            if t >= 0:
                used += 1
                g += tile_values[t]
        scores[i] = s
        gains[i] = g
        if used == rack_len:
            outs[i] = True
            if best_out < 0 or s > scores[best_out]:
                best_out = i
        elif best_other < 0 or g > gains[best_other]:
            best_other = i
    return scores, gains, outs, best_out, best_other
