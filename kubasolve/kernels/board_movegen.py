"""Board move generation for crossword tile games on a GADDAG (Gordon 1994), cells-and-lines geometry.

The board is a set of cells; a *line* is an ordered list of cells (a row or a column on a grid).
Per position the kernel does:

1. **Cross-sets and cross-scores.** For each empty cell and each line direction, the letters that may
   be placed there (the perpendicular word through it, prefix P above and suffix S below, must be a
   word) and the sum of the perpendicular tiles' values. The set comes from the GADDAG itself:
   walk ``rev(P)``, the separator, then each child ``x`` and ``S`` (accepting at the end); with no
   prefix, walk ``rev(S)`` and keep the accepting children. No perpendicular tiles: every letter,
   no cross word.
2. **Anchors.** Empty cells next to a tile (the centre cell on an empty board).
3. **Generation per line and anchor.** From the anchor the walk goes left through the GADDAG,
   placing rack tiles (a real tile and a blank standing for the same letter are separate branches)
   or following tiles already on the board, then crosses the separator and goes right from the
   square after the anchor. Left of the anchor it only places tiles on *non-anchor* empty cells, so
   each placement is produced exactly once: from the leftmost anchor it covers. Scores are
   accumulated incrementally: main-word letter sum (premiums on new tiles only), word-multiplier
   product (premiums multiply: x4, x9, also under a blank) and the cross-word total; a bingo adds
   the bonus when the whole (full) rack is played.
4. **One-tile moves** that form words in both directions are kept only in the across pass.

Child lookup is O(1): a node's children are contiguous, sorted by symbol, and ``masks[e]`` holds
their symbol set, so the child for ``x`` is ``first + popcount(mask & ((1 << x) - 1))``.

Outputs go into fixed-capacity arrays (no allocation in the walk); the count is exact even when the
capacity is exceeded (the caller then retries with a larger buffer). In best-move mode nothing is
written but the best record, and a branch is cut when an upper bound of what it can still score
(every remaining rack tile at the best letter value, with the best premiums still reachable) cannot
beat the best move found.
"""

from __future__ import annotations

import numpy as np
from numba import njit

ACCEPT_BIT = 6
NCHILD_SHIFT = 8
FIRST_SHIFT = 32
BLANK_FLAG = 64

# rows of the per-line table ``lin``
L_LETTER, L_VALUE, L_XMASK, L_XSCORE, L_LMULT, L_WMULT, L_ANCHOR = 0, 1, 2, 3, 4, 5, 6
# slots of the scalar context ``ctx``
C_LINE, C_DIR, C_MODE, C_COUNT, C_CAP, C_BEST, C_RACKSIZE, C_BINGO, C_NL, C_LEN, C_ANCHOR, C_NRACK = range(12)
MODE_ALL, MODE_BEST, MODE_COUNT = 0, 1, 2


@njit(cache=True, inline="always")
def _popcount(x):
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF


@njit(cache=True, inline="always")
def _child(edges, masks, e, x):
    """Edge entering the child of node ``e`` by symbol ``x``, or -1."""
    m = masks[e]
    if ((m >> x) & 1) == 0:
        return -1
    return (edges[e] >> FIRST_SHIFT) + _popcount(m & ((np.int64(1) << x) - 1))


@njit(cache=True)
def cross_sets(letters, values_on_board, lines, line_len, cell_line, cell_pos, edges, masks, n_letters):
    """``xmask[cell, d]`` (letters allowed for a tile placed in a direction-``d`` line) and
    ``xscore[cell, d]`` (perpendicular tiles' value sum, -1 when no cross word)."""
    n_cells = letters.shape[0]
    xmask = np.zeros((n_cells, 2), np.int64)
    xscore = np.full((n_cells, 2), -1, np.int64)
    all_letters = (np.int64(1) << n_letters) - 1
    sep = n_letters
    for cell in range(n_cells):
        if letters[cell] >= 0:
            continue
        for d in range(2):
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
                xmask[cell, d] = all_letters
                continue
            s = 0
            for q in range(lo, hi + 1):
                if q != p:
                    s += values_on_board[lines[k, q]]
            xscore[cell, d] = s
            m = np.int64(0)
            if lo < p:
                e = 0
                q = p - 1
                while q >= lo and e >= 0:
                    e = _child(edges, masks, e, letters[lines[k, q]])
                    q -= 1
                if e >= 0:
                    e = _child(edges, masks, e, sep)
                if e >= 0:
                    cm = masks[e]
                    first = edges[e] >> FIRST_SHIFT
                    idx = first
                    for x in range(n_letters):
                        if (cm >> x) & 1:
                            c = idx
                            idx += 1
                            q = p + 1
                            while q <= hi and c >= 0:
                                c = _child(edges, masks, c, letters[lines[k, q]])
                                q += 1
                            if c >= 0 and (edges[c] >> ACCEPT_BIT) & 1:
                                m |= np.int64(1) << x
            else:
                e = 0
                q = hi
                while q > p and e >= 0:
                    e = _child(edges, masks, e, letters[lines[k, q]])
                    q -= 1
                if e >= 0:
                    cm = masks[e]
                    idx = edges[e] >> FIRST_SHIFT
                    for x in range(n_letters):
                        if (cm >> x) & 1:
                            if (edges[idx] >> ACCEPT_BIT) & 1:
                                m |= np.int64(1) << x
                            idx += 1
            xmask[cell, d] = m
    return xmask, xscore


@njit(cache=True)
def _record(start, end, score, nplaced, lin, word, ctx, out_meta, out_tiles):
    if nplaced == 1 and ctx[C_DIR] == 1:
        for q in range(start, end + 1):
            if word[q] >= 0 and lin[L_XSCORE, q] >= 0:
                return  # one tile forming an across word too: that move is the across one
    mode = ctx[C_MODE]
    if mode == MODE_BEST:
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
    for q in range(start, end + 1):
        out_tiles[i, q] = word[q]


@njit(cache=True)
def _extend(pos, e, phase, start, msum, wprod, xsum, nplaced, edges, masks, lin, rack, word, ctx, val, bound, out_meta, out_tiles):
    """Fill square ``pos`` of the current line from node ``e`` (phase 0: leftwards from the anchor,
    1: rightwards after the separator, the word starting at ``start``)."""
    nl = ctx[C_NL]
    n = ctx[C_LEN]
    anchor = ctx[C_ANCHOR]
    m = masks[e]
    letter = lin[L_LETTER, pos]
    nb = rack[nl]
    if letter >= 0:
        if ((m >> letter) & 1) == 0:
            return
        allowed = np.int64(1) << letter
    else:
        allowed = m & lin[L_XMASK, pos]
        if nb == 0:
            allowed &= rack[nl + 1]
        if allowed == 0:
            return
    if ctx[C_MODE] == MODE_BEST:
        # cut: nothing reachable from here can beat the best move found
        left = ctx[C_NRACK] - nplaced
        ub = (msum + bound[0] + left * bound[2]) * wprod * bound[1] + xsum + left * bound[3]
        if ctx[C_NRACK] == ctx[C_RACKSIZE]:
            ub += ctx[C_BINGO]
        if ub <= ctx[C_BEST]:
            return
    first = edges[e] >> FIRST_SHIFT
    lm = lin[L_LMULT, pos]
    wm = lin[L_WMULT, pos]
    xs = lin[L_XSCORE, pos]
    idx = first
    mm = m
    x = 0
    while mm != 0:
        if mm & 1:
            if (allowed >> x) & 1:
                c = idx
                for variant in range(2):
                    if letter >= 0:
                        if variant == 1:
                            break
                        nm = msum + lin[L_VALUE, pos]
                        nw = wprod
                        nx = xsum
                        npl = nplaced
                        word[pos] = -1
                    elif variant == 0:
                        cnt = rack[x]
                        if cnt == 0:
                            continue
                        v = val[x] * lm
                        nm = msum + v
                        nw = wprod * wm
                        nx = xsum + ((xs + v) * wm if xs >= 0 else 0)
                        npl = nplaced + 1
                        rack[x] = cnt - 1
                        if cnt == 1:
                            rack[nl + 1] &= ~(np.int64(1) << x)
                        word[pos] = x
                    else:
                        if nb == 0:
                            break
                        nm = msum
                        nw = wprod * wm
                        nx = xsum + (xs * wm if xs >= 0 else 0)
                        npl = nplaced + 1
                        rack[nl] = nb - 1
                        word[pos] = x | BLANK_FLAG
                    has_tiles = rack[nl] > 0 or rack[nl + 1] != 0
                    if phase == 0:
                        if pos == 0 or lin[L_LETTER, pos - 1] < 0:
                            if npl > 0 and (edges[c] >> ACCEPT_BIT) & 1 and (anchor + 1 == n or lin[L_LETTER, anchor + 1] < 0):
                                sc = nm * nw + nx + (ctx[C_BINGO] if npl == ctx[C_RACKSIZE] else 0)
                                _record(pos, anchor, sc, npl, lin, word, ctx, out_meta, out_tiles)
                            if anchor + 1 < n and (lin[L_LETTER, anchor + 1] >= 0 or has_tiles):
                                s = _child(edges, masks, c, nl)
                                if s >= 0:
                                    _extend(anchor + 1, s, 1, pos, nm, nw, nx, npl, edges, masks, lin, rack, word, ctx, val, bound, out_meta, out_tiles)
                        if pos > 0 and (lin[L_LETTER, pos - 1] >= 0 or (lin[L_ANCHOR, pos - 1] == 0 and has_tiles)):
                            _extend(pos - 1, c, 0, 0, nm, nw, nx, npl, edges, masks, lin, rack, word, ctx, val, bound, out_meta, out_tiles)
                    else:
                        if (pos + 1 == n or lin[L_LETTER, pos + 1] < 0) and npl > 0 and (edges[c] >> ACCEPT_BIT) & 1:
                            sc = nm * nw + nx + (ctx[C_BINGO] if npl == ctx[C_RACKSIZE] else 0)
                            _record(start, pos, sc, npl, lin, word, ctx, out_meta, out_tiles)
                        if pos + 1 < n and (lin[L_LETTER, pos + 1] >= 0 or has_tiles):
                            _extend(pos + 1, c, 1, start, nm, nw, nx, npl, edges, masks, lin, rack, word, ctx, val, bound, out_meta, out_tiles)
                    # undo the rack
                    if letter < 0:
                        if variant == 0:
                            rack[x] += 1
                            rack[nl + 1] |= np.int64(1) << x
                        else:
                            rack[nl] = nb
            idx += 1
        mm >>= 1
        x += 1


@njit(cache=True)
def generate(edges, masks, letters, blank, lines, line_len, line_dir, cell_line, cell_pos, letter_mult, word_mult,
             centre, val, rack_counts, n_blanks, rack_size, bingo_bonus, mode, out_meta, out_tiles):
    """Generate the placements of a rack on a board; returns ``(count, best score)``.

    ``mode`` 0 writes every move into ``out_meta`` (line, start, end, score) and ``out_tiles`` (per
    line position: letter code, +64 for a blank, -1 for a tile already there) up to their capacity;
    1 keeps only the best move (row 0); 2 only counts.
    """
    n_letters = val.shape[0]
    n_cells = letters.shape[0]
    width = lines.shape[1]
    values_on_board = np.zeros(n_cells, np.int64)
    empty_board = True
    for cell in range(n_cells):
        if letters[cell] >= 0:
            empty_board = False
            if not blank[cell]:
                values_on_board[cell] = val[letters[cell]]
    xmask, xscore = cross_sets(letters, values_on_board, lines, line_len, cell_line, cell_pos, edges, masks, n_letters)
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
    best_val = 0
    for x in range(n_letters):
        rack[x] = rack_counts[x]
        n_rack += rack_counts[x]
        if rack_counts[x] > 0:
            rack[n_letters + 1] |= np.int64(1) << x
            best_val = max(best_val, val[x])
    rack[n_letters] = n_blanks
    ctx = np.zeros(16, np.int64)
    ctx[C_MODE] = mode
    ctx[C_CAP] = out_meta.shape[0]
    ctx[C_BEST] = -1
    ctx[C_RACKSIZE] = rack_size
    ctx[C_BINGO] = bingo_bonus
    ctx[C_NL] = n_letters
    ctx[C_NRACK] = n_rack
    lin = np.zeros((7, width), np.int64)
    word = np.full(width, -1, np.int64)
    bound = np.zeros(4, np.int64)
    for k in range(lines.shape[0]):
        d = line_dir[k]
        n = line_len[k]
        has_anchor = False
        for p in range(n):
            cell = lines[k, p]
            lin[L_LETTER, p] = letters[cell]
            lin[L_VALUE, p] = values_on_board[cell]
            lin[L_XMASK, p] = xmask[cell, d]
            lin[L_XSCORE, p] = xscore[cell, d]
            lin[L_LMULT, p] = letter_mult[cell]
            lin[L_WMULT, p] = word_mult[cell]
            lin[L_ANCHOR, p] = 1 if anchor[cell] else 0
            if anchor[cell]:
                has_anchor = True
        if not has_anchor:
            continue
        ctx[C_LINE] = k
        ctx[C_DIR] = d
        ctx[C_LEN] = n
        if mode == MODE_BEST:
            _line_bound(lin, n, best_val, n_rack, bound)
        for a in range(n):
            if lin[L_ANCHOR, a]:
                ctx[C_ANCHOR] = a
                _extend(a, 0, 0, 0, 0, 1, 0, 0, edges, masks, lin, rack, word, ctx, val, bound, out_meta, out_tiles)
    return ctx[C_COUNT], ctx[C_BEST]


@njit(cache=True)
def _line_bound(lin, n, best_val, n_rack, bound):
    """Loose per-line upper-bound terms for best-move pruning: ``bound[0]`` every existing tile's
    value on the line, ``bound[1]`` the product of the line's largest word multipliers usable by
    the rack, ``bound[2]`` the most one placed tile adds to the main word's letter sum,
    ``bound[3]`` the largest cross word one placed tile can make."""
    tiles_sum = 0
    for p in range(n):
        if lin[L_LETTER, p] >= 0:
            tiles_sum += lin[L_VALUE, p]
    # the largest product of up to n_rack word multipliers of empty squares on the line
    wm = np.ones(n, np.int64)
    k = 0
    for p in range(n):
        if lin[L_LETTER, p] < 0:
            wm[k] = lin[L_WMULT, p]
            k += 1
    srt = np.sort(wm[:k])[::-1]
    prod = 1
    for i in range(min(k, n_rack)):
        prod *= srt[i]
    main_tile = 0
    cross_tile = 0
    for p in range(n):
        if lin[L_LETTER, p] < 0:
            v = best_val * lin[L_LMULT, p]
            main_tile = max(main_tile, v)
            if lin[L_XSCORE, p] >= 0:
                cross = (lin[L_XSCORE, p] + v) * lin[L_WMULT, p]
                cross_tile = max(cross_tile, cross)
    bound[0] = tiles_sum
    bound[1] = prod
    bound[2] = main_tile
    bound[3] = cross_tile
