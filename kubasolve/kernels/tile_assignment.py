"""Tile assignment of many words at once, for the two common cases of a Kubagram field.

A word found by the search kernels must be laid on concrete field tiles. Most fields hold fixed tiles
(one letter each) and at most one joker; for those the assignment needs no search:

- with no joker, the k-th occurrence of a letter in the word takes the k-th fixed tile of that letter
  (tile order), and the word fails if some letter has too few fixed tiles;
- with the field's only flex tile, a joker, the joker goes on the earliest letter it can stand for such
  that fixed tiles spell the rest: when the fixed tiles already hold every letter, the earliest letter in
  the joker's set; when exactly one letter is one tile short, the earliest occurrence of that letter (if
  the joker offers it); otherwise the word fails. The other letters take fixed tiles as above.

That is the assignment the general depth-first search (``games/kubagram/assign.py``) returns first, and
what the hypothesis test compares against. Words are rows of a letter-code matrix; each call assigns
the rows listed in ``rows`` with the joker count listed in ``jokers`` (0 or 1).
"""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def assign_rows(codes, lengths, rows, jokers, fixed_tiles, fixed_counts, joker_mask, joker_tile, out):
    """Assign word ``rows[i]`` (``codes[rows[i], :lengths[rows[i]]]``) with ``jokers[i]`` (0 or 1) jokers.

    ``fixed_tiles[c, k]``: index of the k-th fixed tile of letter c; ``fixed_counts[c]``: how many there
    are; ``joker_mask``: letter bit mask of the joker (its tile index ``joker_tile``). Writes tile indices to
    ``out[i, :length]`` and returns a flag per row (1: assigned, 0: impossible this way).
    """
    n = rows.shape[0]
    ok = np.zeros(n, np.uint8)
    used = np.zeros(fixed_counts.shape[0], np.int64)
    for i in range(n):
        row = rows[i]
        length = lengths[row]
        used[:] = 0
        for k in range(length):
            used[codes[row, k]] += 1
        short_letter = -1
        short = 0
        for k in range(length):
            c = codes[row, k]
            if used[c] > fixed_counts[c]:  # counted once per letter: its count is then capped
                short += used[c] - fixed_counts[c]
                short_letter = c
                used[c] = fixed_counts[c]
        joker_at = -1
        if jokers[i] == 0:
            if short > 0:
                continue
        else:
            if short > 1:
                continue
            for k in range(length):
                c = codes[row, k]
                if (joker_mask >> c) & 1 and (short == 0 or c == short_letter):
                    joker_at = k
                    break
            if joker_at < 0:
                continue
        used[:] = 0
        for k in range(length):
            if k == joker_at:
                out[i, k] = joker_tile
                continue
            c = codes[row, k]
            out[i, k] = fixed_tiles[c, used[c]]
            used[c] += 1
        ok[i] = 1
    return ok
