"""Slow, obviously correct reference for the Scruble solver: every twist sequence, every run,
membership by set lookup. Used by the tests (hypothesis, small lexicons) and the benchmark ratio.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

import numpy as np

from kubasolve.games.scruble.cube import BELT_LEN, N_CELLS, N_LAYERS, N_TWISTS, Twist
from kubasolve.games.scruble.position import Cube, EarlierWord, Run, apply_twists, score_run, word_fits
from kubasolve.games.scruble.rules import ScrubleRules


def all_runs(rules: ScrubleRules) -> Iterable[Run]:
    """Every run of letters on every belt, in the rules' reading directions."""
    dirs = (1, -1) if rules.directions == "both" else (1,)
    for belt in range(N_LAYERS):
        for start in range(BELT_LEN):
            for d in dirs:
                for n in range(rules.min_length, rules.max_length + 1):
                    yield Run(belt, start, d, n)


def reference_best(
    cube: Cube,
    words: Iterable[str],
    rules: ScrubleRules,
    depth: int,
    earlier: Sequence[EarlierWord] = (),
) -> dict[str, tuple[int, int]]:
    """word -> (best score, fewest twists reaching that score) over all twist sequences of length
    ``0..depth`` (length 0 only counts when no new letter is required)."""
    vocab = set(words)
    by_length: dict[int, list[str]] = {}
    for w in vocab:
        by_length.setdefault(len(w), []).append(w)
    best: dict[str, tuple[int, int]] = {}
    runs = list(all_runs(rules))
    for n in range(depth + 1):
        for seq in itertools.product(range(N_TWISTS), repeat=n):
            twists = [Twist.from_index(t) for t in seq]
            origin = apply_twists(np.arange(N_CELLS), twists)
            syms = [cube.symbols[o] for o in origin]
            for run in runs:
                cells = run.cells()
                text = "".join(syms[c] for c in cells).lower()
                if text.isalpha():  # no wildcard: one set lookup
                    candidates: Iterable[str] = (text,) if text in vocab else ()
                else:
                    candidates = [w for w in by_length.get(run.length, ()) if word_fits(syms, cells, w, rules)]
                for w in candidates:
                    b = score_run(syms, origin, run, w, rules, earlier)
                    if b is None:
                        continue
                    old = best.get(w)
                    if old is None or b.score > old[0] or (b.score == old[0] and n < old[1]):
                        best[w] = (b.score, n)
    return best


__all__ = ["all_runs", "reference_best"]
