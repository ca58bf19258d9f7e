"""Slow, obviously correct references for the Scruble solver: every twist sequence, every run, every
word. Used by the tests (hypothesis, small lexicons) and the benchmark ratio.

- :func:`reference_best_plain`: one loop over every sequence of ``0..depth`` twists, every run of
  every belt, membership by set lookup (wildcards: every word of the run's length that fits), each
  hit scored by :func:`~kubasolve.games.scruble.position.score_run`.
- :func:`reference_best`: the same answer, fast enough for depth 2 on small lexicons: the sequences'
  distinct cubes (the fewest twists for each), every run compared letter by letter with every word
  of its length at once (numpy), and each hit scored by ``score_run`` once per distinct content of
  what ``score_run`` reads (the run, the pegs in it and its two neighbours, whether it places a new
  letter, which earlier words are intact; with spent premiums, which pegs they are and the word). The score does not depend on which fitting
  word is spelled (wildcards are worth 0), only on these. Tests check it equals the plain loop.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

import numpy as np

from kubasolve.games.scruble.cube import BELT_LEN, N_CELLS, N_LAYERS, N_TWISTS, Twist, belt_links
from kubasolve.games.scruble.pegs import LETTER, WILDCARD
from kubasolve.games.scruble.position import (
    Cube,
    EarlierWord,
    Run,
    SpentPremium,
    apply_twists,
    score_run,
    symbol_kind,
    word_fits,
)
from kubasolve.games.scruble.rules import ScrubleRules


def all_runs(rules: ScrubleRules) -> Iterable[Run]:
    """Every run of letters on every belt, in the rules' reading directions."""
    dirs = (1, -1) if rules.directions == "both" else (1,)
    for belt in range(N_LAYERS):
        for start in range(BELT_LEN):
            for d in dirs:
                for n in range(rules.min_length, rules.max_length + 1):
                    yield Run(belt, start, d, n)


def _better(best: dict[str, tuple[int, int]], word: str, score: int, n_twists: int) -> None:
    old = best.get(word)
    if old is None or score > old[0] or (score == old[0] and n_twists < old[1]):
        best[word] = (score, n_twists)


def reference_best_plain(
    cube: Cube,
    words: Iterable[str],
    rules: ScrubleRules,
    depth: int,
    earlier: Sequence[EarlierWord] = (),
    spent: Sequence[SpentPremium] = (),
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
                    b = score_run(syms, origin, run, w, rules, earlier, spent)
                    if b is not None:
                        _better(best, w, b.score, n)
    return best


class _Symbols(Sequence[str]):
    """The symbols of a twisted cube, read lazily: ``[cell]`` is the symbol of the peg now in it."""

    def __init__(self, symbols: tuple[str, ...], origin: np.ndarray) -> None:
        self.symbols = symbols
        self.origin = origin

    def __getitem__(self, cell):
        return self.symbols[self.origin[cell]]

    def __len__(self) -> int:
        return N_CELLS


def reachable_cubes(depth: int) -> tuple[np.ndarray, np.ndarray]:
    """Every distinct ``origin`` permutation reached by a sequence of ``0..depth`` twists (rows) and
    the fewest twists reaching it."""
    seen: dict[bytes, int] = {}
    origins = []
    for n in range(depth + 1):
        for seq in itertools.product(range(N_TWISTS), repeat=n):
            origin = apply_twists(np.arange(N_CELLS), [Twist.from_index(t) for t in seq])
            key = origin.astype(np.int16).tobytes()
            if key not in seen:
                seen[key] = n
                origins.append(origin)
    return np.array(origins, np.int64), np.array(list(seen.values()), np.int64)


def reference_best(
    cube: Cube,
    words: Iterable[str],
    rules: ScrubleRules,
    depth: int,
    earlier: Sequence[EarlierWord] = (),
    spent: Sequence[SpentPremium] = (),
) -> dict[str, tuple[int, int]]:
    """:func:`reference_best_plain`'s answer, vectorised over cubes, runs and words (small lexicons:
    the work grows with the number of words times the number of runs)."""
    origins, n_twists = reachable_cubes(depth)
    wild = rules.premium_mode == "wild"
    # symbol codes: a letter its code point, a wildcard (and a premium in "wild" mode) -1, else -2
    code_of = np.array([ord(s.lower()) if symbol_kind(s) == LETTER
                        else (-1 if symbol_kind(s) == WILDCARD or wild else -2) for s in cube.symbols], np.int64)
    codes = code_of[origins]  # [cube, cell]
    moved = origins != np.arange(N_CELLS)
    symbol_id = np.array([ord(s) for s in cube.symbols], np.int64)
    intact = np.ones((len(origins), len(earlier)), bool)
    for i, ew in enumerate(earlier):
        intact[:, i] = ~moved[:, list(ew.cells)].any(axis=1)
    by_length: dict[int, list[str]] = {}
    for w in sorted(set(words)):
        by_length.setdefault(len(w), []).append(w)
    runs_by_length: dict[int, list[Run]] = {}
    for run in all_runs(rules):
        runs_by_length.setdefault(run.length, []).append(run)
    best: dict[str, tuple[int, int]] = {}
    for n, runs in runs_by_length.items():
        vocab = by_length.get(n)
        if not vocab:
            continue
        cells = np.array([r.cells() for r in runs], np.int64)  # [run, letter]
        window = codes[:, cells]  # [cube, run, letter]
        free = window == -1
        word_codes = np.array([[ord(ch) for ch in w] for w in vocab], np.int64)
        hits = []  # (word, cube, run) of every word that fits a run
        for wi in range(len(vocab)):
            ci, ri = np.nonzero(((window == word_codes[wi]) | free).all(axis=2))
            hits.append((np.full(len(ci), wi), ci, ri))
        word_i = np.concatenate([h[0] for h in hits])
        cube_i = np.concatenate([h[1] for h in hits])
        run_i = np.concatenate([h[2] for h in hits])
        if len(word_i) == 0:
            continue
        # each (cube, run) with a hit, scored once per distinct content of what score_run reads (with spent
        # premiums, or a new letter required, the word matters too: a wildcard read as the letter it replaced
        # places none; each (cube, run, word))
        by_word = bool(spent) or rules.require_new_letter
        per_word = len(vocab) if by_word else 1
        pairs, first_hit, pair_of_hit = np.unique((cube_i * len(runs) + run_i) * per_word + (word_i if by_word else 0),
                                                  return_index=True, return_inverse=True)
        pc, pr = pairs // per_word // len(runs), pairs // per_word % len(runs)
        neighbours = np.array([[-1 if c is None else c for c in r.neighbours()] for r in runs], np.int64)
        around = np.concatenate([cells, np.maximum(neighbours, 0)], axis=1)[pr]
        present = np.concatenate([cells >= 0, neighbours >= 0], axis=1)[pr]
        sym_at = np.where(present, symbol_id[origins[pc[:, None], around]], -1)
        start = origins[pc[:, None], cells[pr]]  # where the run's pegs stood at the start of the turn
        links = belt_links()[start[:, :-1], start[:, 1:]]
        new = (links[:, 0] == 0) | (links != links[:, :1]).any(axis=1)
        parts = [pr[:, None], sym_at, new[:, None], intact[pc]]
        if spent:
            parts += [origins[pc[:, None], around]]
        if by_word:
            parts += [word_i[first_hit][:, None]]
        context = np.concatenate(parts, axis=1).astype(np.int64)
        _, rep, context_of_pair = np.unique(context, axis=0, return_index=True, return_inverse=True)
        scores = np.empty(len(rep), np.int64)
        for u, p in enumerate(rep):
            origin = origins[pc[p]]
            b = score_run(_Symbols(cube.symbols, origin), origin, runs[pr[p]], vocab[word_i[first_hit[p]]], rules, earlier,
                          spent)
            scores[u] = -1 if b is None else b.score
        hit_score = scores[context_of_pair.reshape(-1)][pair_of_hit.reshape(-1)]
        for wi in np.unique(word_i):
            mine = (word_i == wi) & (hit_score >= 0)
            if mine.any():
                top = hit_score[mine].max()
                _better(best, vocab[wi], int(top), int(n_twists[cube_i[mine & (hit_score == top)]].min()))
    return best


__all__ = ["all_runs", "reachable_cubes", "reference_best", "reference_best_plain"]
