"""Best words reachable within a number of twists (numba kernel ``kernels/belt_scan.py``).

``best_words(cube, lexicon, rules, depth=d, top=k)`` returns :class:`WordMove` values best first:
score, then fewer twists, then word and cells. Each move carries its twist sequence (the shortest
that reaches the word), the letter cells, the premium cells used and the score breakdown.
"""

from __future__ import annotations

import time
import weakref
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any, ClassVar

import numpy as np

from kubasolve.budget import Budget, WorkBudget, meter_for
from kubasolve.errors import KubasolveError, LimitError, PositionError
from kubasolve.games.scruble.cube import N_CELLS, N_TWISTS, Twist, belt_links, cell_name, format_twists, geometry
from kubasolve.games.scruble.pegs import LETTER, WILDCARD, PegSet
from kubasolve.games.scruble.position import (
    SCORED_WORD,
    Breakdown,
    Cube,
    EarlierWord,
    Run,
    SpentPremium,
    apply_twists,
    score_run,
    symbol_kind,
)
from kubasolve.games.scruble.rules import ScrubleRules
from kubasolve.lexicon import Lexicon

MAX_DEPTH = 4
MAX_TOP = 4096
DEFAULT_MAX_STATES = 3_000_000
MAX_CROSS_WORDS = 64


@dataclass(frozen=True)
class WordMove:
    """A word reachable from the position: twists to make, then the word on its run of cells."""

    word: str
    twists: tuple[Twist, ...]
    run: Run
    cells: tuple[int, ...]
    breakdown: Breakdown
    score: int

    @property
    def n_twists(self) -> int:
        return len(self.twists)

    def notation(self) -> list[str]:
        return format_twists(self.twists)

    def sort_key(self) -> tuple[Any, ...]:
        return (-self.score, len(self.twists), self.word, self.cells)

    def as_dict(self) -> dict[str, Any]:
        return {
            "word": self.word,
            "twists": self.notation(),
            "cells": list(self.cells),
            "cell_names": [cell_name(c) for c in self.cells],
            "belt": self.run.belt,
            "start": self.run.start,
            "direction": self.run.direction,
            "score": self.score,
            "breakdown": self.breakdown.as_dict(),
        }


@dataclass(frozen=True)
class SearchStats:
    """What a search did: states expanded, whether it ran to the end, and whether it stopped early
    because a word reached ``stop_at`` (then ``complete`` is False and the best word found scores at
    least ``stop_at``)."""

    states: int
    complete: bool
    stopped: bool = False


class StateBudget(WorkBudget):
    """A work budget for one request (a ``best``/``legal-moves`` search, or an AI turn that makes many), shared
    by its searches.

    ``max_nodes`` caps the twist states expanded in all (a state: a cube reached by a twist sequence, its
    belts scanned for words; the root counts), ``movetime_ms`` the wall time from the budget's creation.
    The numba kernel cannot read the clock, so before each search the time left becomes a state limit at
    :meth:`states_per_ms` (conservative), keeping time to decode the words found; decoding stops at the
    deadline (the best-scoring words are decoded first), and the AI's loop between searches checks the clock
    itself. When either runs out the answer is the best found so far and :attr:`exhausted` is True; ``nodes``
    counts the states spent. A node budget alone is deterministic.
    """

    STATES_PER_MS = 60
    """Twist states per millisecond assumed for a small word pool when turning time into states: measured
    125-180 kernel states/ms for depth-3 searches keeping 1-100 words (scrambled cubes, English, 2-core machine
    at load 0.9-1.9), halved for safety."""

    POOL_HALF_RATE = 2000
    """Pool size (``top``) at which the kernel expands half as many states per millisecond: a new word is
    placed in a pool of ``top`` (measured 100-107 states/ms keeping 1,000 words, 56-71 keeping 4,096)."""

    DECODE_MS_PER_WORD = 0.05
    """Time kept per word of ``top`` to decode the words found (measured 0.026-0.04 ms a word for 100-4,096
    words), at most half the time left."""

    MEASURE_MIN_STATES = 500
    """Searches of fewer states do not measure the kernel's rate (their fixed costs would hide it)."""

    measured: ClassVar[float | None] = None
    """The kernel's rate in this process, states/ms for a pool of one word: the running mean of the searches of at
    least :attr:`MEASURE_MIN_STATES` states (None before the first). It depends on the machine, its load and the
    cube: measured 21-68 states/ms at load 2.5-3.6 on the 2-core machine where 125-180 gave :attr:`STATES_PER_MS`,
    where a budget of 100 ms then took 260-330 ms."""

    @classmethod
    def record_rate(cls, states: int, ms: float, top: int) -> None:
        """Learn from one kernel search: ``states`` expanded in ``ms`` milliseconds keeping ``top`` words."""
        if states >= cls.MEASURE_MIN_STATES and ms > 0:
            rate = states / ms * (1 + top / cls.POOL_HALF_RATE)
            StateBudget.measured = rate if StateBudget.measured is None else (StateBudget.measured + rate) / 2

    def states_per_ms(self, top: int) -> float:
        """The assumed kernel rate when it keeps ``top`` words: :attr:`STATES_PER_MS`, or half the rate this process
        measured (halved for safety like the constant) when that is lower."""
        rate = float(self.STATES_PER_MS)
        if StateBudget.measured is not None:
            rate = min(rate, StateBudget.measured / 2)
        return rate / (1 + top / self.POOL_HALF_RATE)

    def node_limit(self, top: int = 1) -> int:
        """States the next search (keeping ``top`` words) may expand (0, and exhausted, once the budget is
        spent): the time left, less the decoding time of ``top`` words, at :meth:`states_per_ms`."""
        limit = self.nodes_left()
        if self.deadline is not None:
            left_ms = (self.deadline - time.perf_counter()) * 1e3
            search_ms = max(left_ms / 2, left_ms - top * self.DECODE_MS_PER_WORD)
            limit = min(limit, int(search_ms * self.states_per_ms(top)))
        return self._checked(limit)

    def past_deadline(self) -> bool:
        """The time budget is spent, or a stop was requested (never true for a node budget alone)."""
        return self.stopped() or (self.deadline is not None and time.perf_counter() >= self.deadline)


@cache
def _zobrist() -> np.ndarray:
    rng = np.random.default_rng(0x5C2B1E)
    return rng.integers(1, 2**63, size=(N_CELLS, N_CELLS), dtype=np.uint64)


@cache
def _geometry_arrays() -> tuple[np.ndarray, ...]:
    """The cube tables in the kernel's types: cell faces, belt cells, twist permutations, twist
    changed cells, twist changed belts, twist axis and layer index on its axis."""
    g = geometry()
    axis = np.array([Twist.from_index(t).axis for t in range(N_TWISTS)], np.int64)
    layer = np.array([Twist.from_index(t).layer % 4 for t in range(N_TWISTS)], np.int64)
    return (g.cell_face.astype(np.int64), g.belt_cells.astype(np.int64), g.twist_perm.astype(np.int64),
            np.ascontiguousarray(g.twist_changed), np.ascontiguousarray(g.twist_belts), axis, layer)


_LEXICON_TABLES: weakref.WeakKeyDictionary[Lexicon, tuple[np.ndarray, np.ndarray, int]] = weakref.WeakKeyDictionary()


def lexicon_tables(lexicon: Lexicon) -> tuple[np.ndarray, np.ndarray, int]:
    """The solver's per-lexicon tables, built once per lexicon (~10 ms on English) and kept in memory.

    ``graph``: the search graph with each edge's target letter set beside it (O(1) child lookup);
    ``trigram``: flat table over letter codes plus ``WILD`` (any letter) and ``BLOCK`` (no letter)
    of the bits: three consecutive letters of some word (1), its first three (2), its last three
    (4); ``stride`` = letters + 2.
    """
    hit = _LEXICON_TABLES.get(lexicon)
    if hit is not None:
        return hit
    from kubasolve.kernels.belt_scan import walk_graph, word_trigrams

    arr = lexicon.compiled
    n = len(lexicon.alphabet)
    graph = walk_graph(np.asarray(arr.search_edges).view(np.ndarray))
    tri = word_trigrams(np.asarray(arr.first_edge).view(np.ndarray), np.asarray(arr.edges).view(np.ndarray),
                        np.asarray(arr.node_word).view(np.ndarray), n)
    # expand[sym, letter]: which letters a trigram symbol stands for (a letter, WILD = all, BLOCK = none)
    expand = np.zeros((n + 2, n), np.int64)
    expand[np.arange(n), np.arange(n)] = 1
    expand[n] = 1
    table = np.zeros((n + 2,) * 3, np.uint8)
    for bit in (1, 2, 4):
        has = ((tri & bit) > 0).astype(np.int64)
        table |= (np.einsum("ax,by,cz,xyz->abc", expand, expand, expand, has, optimize=True) > 0).astype(np.uint8) * bit
    out = (graph, np.ascontiguousarray(table.reshape(-1)), n + 2)
    _LEXICON_TABLES[lexicon] = out
    return out


def peg_arrays(cube: Cube, lexicon: Lexicon, pegs: PegSet) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per-cell letter code (63 = a letter the lexicon lacks, -1 non-letter), kind and value."""
    seen: dict[str, tuple[int, int, int]] = {}  # each distinct symbol worked out once (a cube has ~30)
    rows = []
    for sym in cube.symbols:
        row = seen.get(sym)
        if row is None:
            k = symbol_kind(sym)
            if k == LETTER:
                ch = sym.lower()
                row = (lexicon.alphabet.code(ch) if ch in lexicon.alphabet else 63, k, pegs.symbol_value(sym))
            else:
                row = (-1, k, 0)
            seen[sym] = row
        rows.append(row)
    table = np.array(rows, np.int64).reshape(N_CELLS, 3)
    return table[:, 0].copy(), table[:, 1].copy(), table[:, 2].copy()


def cross_arrays(earlier: Sequence[EarlierWord]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    words = list(earlier)[-MAX_CROSS_WORDS:]
    cells = np.full((len(words), 16), -1, np.int64)
    belts = np.zeros(len(words), np.int64)
    points = np.zeros(max(1, len(words)), np.int64)
    for i, w in enumerate(words):
        cells[i, : len(w.cells)] = w.cells
        belts[i] = w.belt
        points[i] = w.points
    return cells, belts, points


_RANK_OF_WORD: weakref.WeakKeyDictionary[Lexicon, np.ndarray] = weakref.WeakKeyDictionary()


def _rank_of_word(lexicon: Lexicon) -> np.ndarray:
    """``rank_of[word id]``: the word's rank in ``lexicon`` (``compiled.rank_word`` inverted: it orders the word
    ids), built once per lexicon: :func:`spent_arrays` looks up every scored word of the game for each search."""
    hit = _RANK_OF_WORD.get(lexicon)
    if hit is None:
        rank_word = np.asarray(lexicon.compiled.rank_word).astype(np.int64)
        hit = np.full(len(rank_word), -1, np.int64)
        hit[rank_word] = np.arange(len(rank_word))
        _RANK_OF_WORD[lexicon] = hit
    return hit


def spent_arrays(spent: Sequence[SpentPremium], lexicon: Lexicon) -> tuple[np.ndarray, ...]:
    """The kernel's form of ``spent``: the premium peg's cell (-1 for a scored word's entry), the word's rank in
    ``lexicon`` (the sum of ``edge_rank`` along its path; -2 for a word the lexicon lacks: no run spells it),
    the word's pegs (start cells, reading order; -1 padded), their number and the word's cells (-1 padded). An entry that cannot act is left
    out: a scored word the lexicon lacks, a premium entry for such a word without pegs."""
    rank_of = _rank_of_word(lexicon)
    kept = []
    for sp in spent:
        wid = lexicon.word_id(sp.word)
        rank = int(rank_of[wid]) if wid >= 0 else -2
        if rank == -2 and (sp.premium == SCORED_WORD or not sp.pegs):
            continue
        kept.append((sp.premium, rank, tuple(sp.pegs)[:16], tuple(sp.cells)[:16]))
    pegs = np.full((max(1, len(kept)), 16), -1, np.int64)
    cells = np.full((max(1, len(kept)), 16), -1, np.int64)
    for i, (_, _, p, c) in enumerate(kept):
        pegs[i, :len(p)] = p
        if len(c) == len(p):
            cells[i, :len(c)] = c
    return (np.array([k[0] for k in kept], np.int64), np.array([k[1] for k in kept], np.int64), pegs,
            np.array([len(k[2]) for k in kept], np.int64), cells)


def search(
    cube: Cube,
    lexicon: Lexicon,
    rules: ScrubleRules,
    depth: int,
    top: int,
    earlier: Sequence[EarlierWord] = (),
    max_states: int = DEFAULT_MAX_STATES,
    restrict: bool = True,
    stop_at: int = -1,
    budget: Budget | StateBudget | None = None,
    spent: Sequence[SpentPremium] = (),
) -> tuple[list[WordMove], SearchStats]:
    """The kernel search plus decoding; see :func:`best_words`.

    ``stop_at`` >= 0: stop as soon as the ``top`` words found all score ``stop_at`` or more (for a
    caller that only needs to know whether such words exist; the answer is then partial and
    ``stats.stopped`` is True).

    ``budget``: the search expands at most :meth:`StateBudget.node_limit` states (and ``max_states``),
    records what it spent, and marks the budget exhausted when the limit cut it (the answer is then the
    best words of the states expanded) or its deadline cut the decoding (the answer is then the best-scoring
    words decoded by then). A spent budget answers no words at once (``states`` 0). A
    :class:`~kubasolve.budget.Budget` becomes a fresh meter after the one-time set-up (:func:`warm_up`).
    """
    from kubasolve.kernels.belt_scan import best_words_search

    budget = meter_for(budget, StateBudget, lambda: warm_up(cube, lexicon, rules))

    if not isinstance(depth, int) or isinstance(depth, bool) or not 0 <= depth <= MAX_DEPTH:
        raise LimitError(f"depth must be an integer from 0 to {MAX_DEPTH} (depth 4 expands about a million states)")
    if not isinstance(top, int) or isinstance(top, bool) or not 1 <= top <= MAX_TOP:
        raise LimitError(f"top must be an integer from 1 to {MAX_TOP}")
    if budget is not None:
        limit = budget.node_limit(top)
        if limit == 0:
            return [], SearchStats(0, False)
        max_states = min(max_states, limit)
    code, kind, value = peg_arrays(cube, lexicon, rules.pegs)
    wild = rules.premium_mode == "wild"
    graph, trigram, stride = lexicon_tables(lexicon)
    tri = np.where(code >= 0, code, stride - 1)  # a letter's code; letters the lexicon lacks block
    tri[code == 63] = stride - 1
    tri[(kind != LETTER) & ((kind == WILDCARD) | wild)] = stride - 2
    cell_face, belt_cells, twist_perm, twist_changed, twist_belts, axis, layer = _geometry_arrays()
    arr = lexicon.compiled
    cross_cells, cross_belts, cross_points = cross_arrays(earlier if rules.crossing else ())
    spent_premium, spent_rank, spent_pegs, spent_len, spent_cells = spent_arrays(spent, lexicon)
    kernel_start = time.perf_counter()
    pool_i, pool_score, pool_twists, parent, via, n_states, complete = best_words_search(
        depth, top, max_states,
        code, kind, value, tri, cell_face, belt_cells, twist_perm, twist_changed, twist_belts, axis, layer,
        graph, arr.edge_rank, int(arr.first_edge[1]), trigram, stride,
        rules.min_length, rules.max_length, rules.directions == "both", rules.premium_mode == "wild",
        rules.require_new_letter, np.array(rules.length_bonus_table(), np.int64), rules.three_face_bonus,
        max(rules.pegs.values.values(), default=0),
        cross_cells, cross_belts, cross_points, restrict, _zobrist(), belt_links(), spent_premium, spent_rank,
        spent_pegs, spent_len, spent_cells,
        int(stop_at),
    )
    StateBudget.record_rate(int(n_states), (time.perf_counter() - kernel_start) * 1e3, top)
    stopped = (not complete and stop_at >= 0 and len(pool_score) >= top
               and int(pool_score.min()) >= stop_at)
    moves = []
    decoded_all = True
    for n, k in enumerate(np.lexsort((pool_twists, -pool_score))):  # best first, for a decoding cut by the deadline
        if budget is not None and n % 32 == 31 and budget.past_deadline():
            decoded_all = False
            break
        state, belt, start, di, length, rank = (int(x) for x in pool_i[k])
        seq: list[Twist] = []
        s = state
        while s > 0:
            seq.append(Twist.from_index(int(via[s])))
            s = int(parent[s])
        seq.reverse()
        word = lexicon.word(int(arr.rank_word[rank]))
        run = Run(belt, start, 1 if di == 0 else -1, length)
        origin = apply_twists(np.arange(N_CELLS), seq)
        after = Cube(tuple(cube.symbols[o] for o in origin))
        breakdown = score_run(after.symbols, origin, run, word, rules, earlier, spent)
        if breakdown is None or breakdown.score != int(pool_score[k]):  # pragma: no cover - kernel/rules mismatch
            raise AssertionError(f"kernel and scorer disagree on {word!r} after {format_twists(seq)}: "
                                 f"{int(pool_score[k])} vs {breakdown}")
        moves.append(WordMove(word, tuple(seq), run, tuple(run.cells()), breakdown, breakdown.score))
    moves.sort(key=WordMove.sort_key)
    if budget is not None:
        budget.spend(int(n_states), (not complete and not stopped) or not decoded_all)
    return moves, SearchStats(int(n_states), bool(complete), stopped)


def require_twist_for_new_letter(depth: int, rules: ScrubleRules, key: str = "depth") -> None:
    """Refuse depth 0 while a word needs a new letter (the default): without a twist no peg leaves its row,
    so no word can score and the answer would be an empty list with no reason given."""
    if depth == 0 and rules.require_new_letter:
        raise KubasolveError(
            "depth 0 finds no word: a word must place a new letter (\"Se debe colocar al menos una nueva letra\"), "
            "and only a twist moves a peg; ask for depth 1 or more, or set require_new_letter = false", key=key)


def best_words(
    cube: Cube | str,
    lexicon: Lexicon,
    rules: ScrubleRules | None = None,
    depth: int = 2,
    top: int = 10,
    earlier: Sequence[EarlierWord] = (),
    max_states: int = DEFAULT_MAX_STATES,
    spent: Sequence[SpentPremium] = (),
    budget: Budget | StateBudget | None = None,
) -> list[WordMove]:
    """The ``top`` best distinct words (word + cells) reachable within ``depth`` twists, best first.

    ``earlier``: words scored in earlier turns, for the crossing rule (intact ones score again); ``spent``:
    premium pegs that already counted for a word (they do not count again for it). Raises
    :class:`LimitError` if ``max_states`` would be exceeded (never a silently partial answer), and
    :class:`KubasolveError` for depth 0 while a new letter is required (no word can score). With a
    ``budget`` (a :class:`~kubasolve.budget.Budget`, or its :class:`StateBudget` meter to read ``nodes`` and
    ``exhausted`` afterwards): the best words found within it.
    """
    if rules is not None and not isinstance(rules, ScrubleRules):
        raise PositionError(f"rules must be ScrubleRules, got {rules!r}")
    rules = rules or ScrubleRules()
    if isinstance(cube, str):
        cube = Cube.from_notation(cube, rules.pegs)
    elif not isinstance(cube, Cube):
        raise PositionError(f"cube must be a Cube or its 96-character notation, got {cube!r}")
    if not isinstance(lexicon, Lexicon):
        raise PositionError(f"lexicon must be a Lexicon (kubasolve.load_lexicon(\"en\")), got {lexicon!r}")
    if not isinstance(max_states, int) or isinstance(max_states, bool) or max_states < 1:
        raise LimitError(f"max_states must be an integer >= 1, got {max_states!r}")
    require_twist_for_new_letter(depth, rules)
    moves, stats = search(cube, lexicon, rules, depth, top, earlier, max_states, spent=spent, budget=budget)
    if not stats.complete and budget is None:
        raise LimitError(f"the search needs more than max_states={max_states} states at depth {depth}")
    return moves


_WARM: weakref.WeakSet[Lexicon] = weakref.WeakSet()


def warm_up(cube: Cube, lexicon: Lexicon, rules: ScrubleRules) -> None:
    """Do the one-time work of a first search with ``lexicon`` (its tables, the kernel's load from the numba
    cache) once per process, by a depth-0 search, so that a time budget started afterwards goes to the search
    itself: a first call costs 0.1-1 s (more while the kernels compile), a later one nothing."""
    if lexicon not in _WARM:
        search(cube, lexicon, rules, 0, 1)
        _WARM.add(lexicon)


__all__ = ["MAX_DEPTH", "MAX_TOP", "SearchStats", "StateBudget", "WordMove", "best_words", "require_twist_for_new_letter",
           "search", "spent_arrays", "warm_up"]
