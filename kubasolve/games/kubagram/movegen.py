"""Kubagram move generation: best words from the field, compound moves, and best whole claims.

:class:`KubagramSolver` prepares a lexicon and a rule set once (letter values, in-memory arrays)
and answers many positions; the module-level functions keep one solver per (lexicon, rules).
The heavy lifting is done by the numba kernels ``word_search`` and ``compound_search``.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, replace
from itertools import accumulate
from typing import Any, ClassVar, Literal

import numpy as np

from kubasolve.budget import Budget, WorkBudget, meter_for
from kubasolve.errors import LexiconError, PositionError, RulesError
from kubasolve.games.arguments import check_gain_objective, check_top
from kubasolve.games.kubagram.assign import TilePool, assign_words
from kubasolve.games.kubagram.moves import Claim, CompoundMove, WordMove
from kubasolve.games.kubagram.position import MAX_CHOICE_TILES, MAX_FIELD_TILES, KubagramPosition, TableWord, Tile
from kubasolve.games.kubagram.rules import KubagramRules
from kubasolve.lexicon import Lexicon

_MAX_KERNEL_TOP = 4096
_FIRST_SLICE_LETTERS = 1 << 14
"""Field-word letters in the first slice of a budgeted compound search (then twice as many per slice, as the budget
left allows; see :meth:`KubagramSolver._compounds_in_slices`)."""
_COMPOUND_SHARE = 0.5
"""The part of a time budget's time left that ``best_move`` gives its compound search (the rest: the claim search)."""
_FIRST_ROWS = 64
"""Words first asked of the leftover tiles in a multi-word claim search (then 8x more while needed)."""
"""Largest ``top`` given to the word-search kernel's branch-and-bound (its k-best array is sized by it)."""

Objective = Literal["gain", "swing"]
"""``gain``: the mover's own score change; ``swing``: gain plus the points taken from others."""

_UNLIMITED = 1 << 62
_BUILD_S_PER_COMPOUND = 1.5e-4
"""Seconds to build one compound of the answer (lay its field word on tiles), kept out of the compound slices' time:
measured 30 us at light load, 130 us at load 9 (173 compounds prepared in 22.7 ms); before, a 200 ms budget found 193
compounds there and answered 1, the slices having left 15% of the time to build them."""
_PREPARE_CHUNK = 128
"""Field words laid on tiles per step of ``_CompoundTable.prepare`` under a time budget (the clock read between)."""
FIELD_WORDS_SHARE = 0.4
"""The part of a time budget's time left that ``compound_moves``' field-word search may take (the compound search and
the answer's build take the rest)."""


class _OutOfBudget(Exception):
    """The budget of a :meth:`KubagramSolver.best_move` ran out: the search returns its best claim so far."""


class SearchBudget(WorkBudget):
    """A work budget for one request (``best_words``, ``compound_moves``, ``best_move``), shared by its searches.

    ``max_nodes`` caps the search nodes entered in all (word search: a letter appended to a prefix;
    compound search: a part tried at a node), ``movetime_ms`` the wall time. The numba kernels cannot
    read the clock, so before each kernel call the time left becomes a node limit at
    :attr:`NODES_PER_MS` (conservative), and the Python loops around the kernels check the clock
    themselves. When either runs out the answer is the best found so far and :attr:`exhausted` is True
    (the answer is then not proven complete/optimal). ``nodes`` counts what was spent.
    """

    NODES_PER_MS = 8000
    """Kernel nodes per millisecond assumed when turning time into nodes: measured 17,000-35,000 word-search
    nodes/ms (``kubasolve bench kubagram`` positions, busy 2-core machine), halved for safety."""
    COMPOUND_NODES_PER_MS = 1000
    """The same for the compound kernel, whose nodes (a part tried at a trie node) cost more: measured 1,400-1,600
    nodes/ms on a 100-tile field with 150,000 field words (load 6.5)."""

    _measured: ClassVar[dict[str, float]] = {}
    """The process's measured kernel rates (nodes per ms) by kernel kind, from its timed calls (:meth:`timed`)."""
    MEASURED_MIN_MS = 2.0
    """A kernel call is timed into the running rate only when it ran at least this long and entered at least
    :attr:`MEASURED_MIN_NODES` (shorter: noise; a process's first calls load the kernels: 394 nodes in 160 ms)."""
    MEASURED_MIN_NODES = 5000

    @classmethod
    def rate(cls, kind: str = "words") -> float:
        """Nodes per ms to assume for the next call of a kernel ``kind`` (``words``, ``compound``): the lower of its
        fixed conservative rate and the rate this process measured (at load 9-11 the word search of an 83-tile
        field with 3 choice cubes ran 500-700 nodes/ms, far below the fixed 8,000, and a 50 ms ``compounds``
        answered in 150-230 ms)."""
        fixed = float(cls.COMPOUND_NODES_PER_MS if kind == "compound" else cls.NODES_PER_MS)
        measured = cls._measured.get(kind)
        return fixed if measured is None else min(fixed, measured)

    @classmethod
    def timed(cls, kind: str, nodes: int, seconds: float) -> float | None:
        """Record a kernel call's ``nodes`` in ``seconds`` into the running rate of ``kind``; its rate (None when the
        call was too short to time)."""
        if seconds * 1e3 < cls.MEASURED_MIN_MS or nodes < cls.MEASURED_MIN_NODES:
            return None
        rate = nodes / (seconds * 1e3)
        old = cls._measured.get(kind)
        # down at once, up by at most a quarter a call: the rate varies tenfold between first letters and with the load
        # (143-12,800 nodes/ms measured in one search at load 9), and a rate too high overruns where a low one only
        # reads the clock more often
        cls._measured[kind] = rate if old is None or rate < old else min(rate, 1.25 * old)
        return rate

    def node_limit(self, nodes_per_ms: float | None = None) -> int:
        """Nodes the next kernel call may enter (0 once the budget is spent): the time left at ``nodes_per_ms``
        (default :meth:`rate` of the word search)."""
        limit = self.nodes_left()
        if self.deadline is not None:
            left_ms = (self.deadline - time.perf_counter()) * 1e3
            limit = min(limit, int(left_ms * (nodes_per_ms or self.rate())))
        return self._checked(limit)


@dataclass(frozen=True)
class WordTable:
    """All words found for a position, as arrays sorted best first (ties in alphabet order).

    This is the fast, allocation-light form for AIs; :meth:`KubagramSolver.best_words` turns rows
    into :class:`WordMove` objects with tile assignments.
    """

    word_ids: np.ndarray
    lengths: np.ndarray
    jokers: np.ndarray
    scores: np.ndarray
    codes: np.ndarray
    """Letter codes per row (``codes[i, :lengths[i]]``); empty unless asked for (compounds use them)."""

    def __len__(self) -> int:
        return int(self.word_ids.shape[0])


class _Pool:
    """The field as the kernels take it; the tile pool for assignments is built on first use (a best-word
    search alone never needs it)."""

    __slots__ = ("_source", "_tiles", "fixed_counts", "flex_joker", "flex_masks", "topsum")

    def __init__(self, fixed_counts: np.ndarray, flex_masks: np.ndarray, flex_joker: np.ndarray, topsum: np.ndarray,
                 tiles: TilePool | None = None, source: tuple = ()) -> None:
        self.fixed_counts = fixed_counts
        self.flex_masks = flex_masks
        self.flex_joker = flex_joker
        self.topsum = topsum
        self._tiles = tiles
        self._source = source

    @property
    def tiles(self) -> TilePool:
        if self._tiles is None:
            self._tiles = TilePool.from_tiles(self._source)
        return self._tiles


_NO_CODES = np.zeros((0, 1), np.uint8)


class _Scratch:
    """Output arrays of the word-search kernel, reused across calls (one set per thread); on overflow grown to one
    row per word of the lexicon (a search finds each word at most once), so a search is retried at most once."""

    __slots__ = ("_codes", "jokers", "lengths", "ranks", "scores")

    def __init__(self, capacity: int = 1024) -> None:
        self._codes = np.empty((0, 1), np.uint8)
        self._allocate(capacity)

    def _allocate(self, capacity: int) -> None:
        self.ranks = np.empty(capacity, np.int64)
        self.lengths = np.empty(capacity, np.int16)
        self.jokers = np.empty(capacity, np.int8)
        self.scores = np.empty(capacity, np.int64)

    def grow(self, rows: int) -> None:
        """Room for at least ``rows`` output rows (never shrinks)."""
        if rows > self.ranks.shape[0]:
            self._allocate(rows)

    def codes_for(self, width: int) -> np.ndarray:
        """Letter-code rows for every output row, at least ``width`` columns."""
        rows = self.ranks.shape[0]
        if self._codes.shape[0] < rows or self._codes.shape[1] < max(width, 1):
            self._codes = np.empty((rows, max(width, 1, self._codes.shape[1])), np.uint8)
        return self._codes


class KubagramSolver:
    """Move generator for one lexicon and one rule set."""

    def __init__(self, lexicon: Lexicon, rules: KubagramRules | None = None) -> None:
        rules = rules or KubagramRules()
        if lexicon.alphabet.letters != rules.alphabet:
            raise RulesError(f"the rules' alphabet {rules.alphabet!r} differs from the lexicon's {lexicon.alphabet.letters!r}")
        self.lexicon = lexicon
        self.rules = rules
        self.arrays = lexicon.compiled.in_memory()
        self.root = (0, int(self.arrays.first_edge[1]))
        self.values = np.array([rules.letter_values[c] for c in rules.alphabet], np.int64)
        self._value_list: list[int] = self.values.tolist()
        self._code = {c: i for i, c in enumerate(rules.alphabet)}
        self._scratch_local = threading.local()
        self._tile_facts: dict[str, tuple[int, int, int, int]] = {}  # by a non-joker tile's letters
        self._joker_facts: dict[str, tuple[int, int, int, int]] = {}  # by a joker's letters
        self._table_ok: set[TableWord] = set()
        self._table_facts: dict[TableWord, tuple[int, int]] = {}
        self.edge_need = lexicon.edge_need()
        self._warm = False

    def warm_up(self) -> None:
        """Do the one-time work of a first search once per solver (the kernels' load from the numba cache, the
        lexicon arrays' first pages): small word, all-word and compound searches. A budgeted call does it before
        its clock starts, so the budget goes to the search (without it a first 200 ms ``best_words`` in a process
        answered nothing after 1.8-2 s)."""
        if self._warm:
            return
        self._warm = True
        letters = self.rules.alphabet[:10]
        tiles = tuple(Tile(c) for c in letters) + (Tile(self.rules.alphabet[:3], joker=True),)
        position = KubagramPosition(tiles, (TableWord(letters[:5]), TableWord(letters[5:])), last_cube=True)
        self.best_words(position, 1)
        self.word_table(position)
        self.compound_moves(position, 1)

    def _clock(self, budget: Budget | SearchBudget | None) -> SearchBudget | None:
        """Before a budgeted search: the one-time set-up (:meth:`warm_up`) first, so the budget goes to the search: a
        :class:`~kubasolve.budget.Budget` becomes a fresh :class:`SearchBudget` after it; a meter's clock restarts."""
        if isinstance(budget, Budget):
            return meter_for(budget, SearchBudget, self.warm_up)
        if budget is not None and not isinstance(budget, WorkBudget):
            raise PositionError(f"budget must be a kubasolve.Budget (movetime_ms, max_nodes), its SearchBudget meter or None, "
                                f"got {type(budget).__name__}")
        if budget is not None and not self._warm:
            self.warm_up()
            budget.restart_clock()
        return budget

    @property
    def _scratch(self) -> _Scratch:
        """This thread's word-search output arrays."""
        scratch = getattr(self._scratch_local, "arrays", None)
        if scratch is None:
            scratch = self._scratch_local.arrays = _Scratch()
        return scratch

    # ------------------------------------------------------------------ pools
    def _pool(self, position: KubagramPosition) -> _Pool:
        # each distinct tile's kernel facts and each table word's validity are worked out once per solver (the per-call
        # Python was ~15% of a best-word search); a position with anything new is validated first (clear errors)
        facts, joker_facts = self._tile_facts, self._joker_facts
        counts = [0] * len(self._value_list)
        masks, jokers, tile_values = [], [], []
        tiles = position.tiles
        for t in tiles:
            f = (joker_facts if t.joker else facts).get(t.letters)  # keyed by the letters: str hashes are cached
            if f is None:
                return self._validated_pool(position)
            c, m, j, v = f
            if c >= 0:
                counts[c] += 1
            else:
                masks.append(m)
                jokers.append(j)
            tile_values.append(v)
        if len(masks) > MAX_CHOICE_TILES or len(tiles) > MAX_FIELD_TILES or not self._table_ok.issuperset(position.table):
            return self._validated_pool(position)
        tile_values.sort(reverse=True)
        topsum = np.fromiter(accumulate(tile_values, initial=0), np.int64, len(tile_values) + 1)
        return _Pool(np.array(counts, np.int64), np.array(masks, np.int64), np.array(jokers, np.int8), topsum, source=tiles)

    def _table_word_facts(self, word: TableWord) -> tuple[int, int]:
        """(letter sum, current value) of a table word, worked out once per solver."""
        facts = self._table_facts.get(word)
        if facts is None:
            if len(self._table_facts) > 4096:
                self._table_facts.clear()
            facts = self._table_facts[word] = (self.rules.letter_sum(word.word), word.value(self.rules))
        return facts

    def _validated_pool(self, position: KubagramPosition) -> _Pool:
        """:meth:`_pool` after validating the position (raises :class:`PositionError`) and noting its tiles and words."""
        position.validate(self.rules)
        for t in position.tiles:
            self._facts_of(t)
        if len(self._table_ok) > 4096:
            self._table_ok.clear()
        self._table_ok.update(position.table)
        return self._pool(position)

    def _facts_of(self, tile: Tile) -> tuple[int, int, int, int]:
        """(letter code or -1 for a flex tile, letter mask, joker flag, best letter value) of a validated tile."""
        code = self._code
        values = self._value_list
        if tile.fixed:
            c = code[tile.letters[0]]
            f = (c, 1 << c, 0, values[c])
        else:
            m = 0
            for ch in tile.letters:
                m |= 1 << code[ch]
            f = (-1, m, 1 if tile.joker else 0, max(values[code[ch]] for ch in tile.letters))
        known = self._joker_facts if tile.joker else self._tile_facts
        if len(known) > 4096:
            known.clear()
        known[tile.letters] = f
        return f

    def _search(self, pool: _Pool, min_len: int, top: int, with_codes: bool = False, budget: SearchBudget | None = None,
                score_cap: int | None = None) -> WordTable:
        from kubasolve.kernels.word_search import SMALL_FLEX, rank_results, search_all_words_into, search_words_into

        lo, hi = self.root
        r = self.rules
        # branch-and-bound keeps the k best scores in an array of size k: a huge ``top`` (beyond any
        # answer) would allocate from the request, so it searches everything and cuts afterwards
        kernel_top = top if top <= _MAX_KERNEL_TOP else 0
        # the kernel writes into this thread's scratch arrays, kept across calls (fresh large arrays cost an mmap and
        # page faults per call); rank_results copies the rows out. Only the last attempt's nodes are spent: a retry
        # after an output overflow repeats the same search (with room for every word, so at most once), with the
        # same node limit unless the time left is now shorter, so a node budget's answers and node counts do not
        # depend on what this process searched before (the scratch size), and a time budget holds
        scratch = self._scratch
        width = min(int(pool.fixed_counts.sum()) + len(pool.flex_masks), 255) if with_codes else 0
        limit = budget.node_limit() if budget is not None else _UNLIMITED
        # the all-words search of a pool with few flex tiles has a kernel of its own (same answer, faster walk)
        all_words = kernel_top == 0 and not with_codes and len(pool.flex_masks) <= SMALL_FLEX
        kernel = search_all_words_into if all_words else search_words_into
        args = (pool.fixed_counts, pool.flex_masks, pool.flex_joker, min_len, 255, self.values, r.bonus_from, r.bonus_step,
                r.joker_factor, kernel_top, pool.topsum, with_codes)
        cap = _UNLIMITED if score_cap is None else score_cap
        if kernel_top == 0 and budget is not None and budget.deadline is not None and limit > 0:
            # an all-words search under a time budget goes one first letter at a time, reading the clock in between:
            # the node rate that turns time into nodes varies with the pool (many flex tiles walk slower) and the load
            n_out = self._search_by_first_letter(kernel, args, cap, width, budget, limit)
            codes_out = scratch.codes_for(width) if with_codes else _NO_CODES
        else:
            while True:
                codes_out = scratch.codes_for(width) if with_codes else _NO_CODES
                started = time.perf_counter()
                n_out, complete, nodes, stopped = kernel(
                    self.arrays.search_edges, self.arrays.edge_rank, self.edge_need, lo, hi, *args, limit, cap,
                    scratch.ranks, scratch.lengths, scratch.jokers, scratch.scores, codes_out,
                )
                SearchBudget.timed("words", int(nodes), time.perf_counter() - started)
                if complete:
                    if budget is not None:
                        budget.spend(int(nodes), bool(stopped))
                    break
                scratch.grow(len(self.lexicon) + 1)
                if budget is not None:
                    limit = min(limit, budget.node_limit())
        order, word_ids, lengths, jokers, scores = rank_results(
            scratch.ranks[:n_out], scratch.lengths[:n_out], scratch.jokers[:n_out], scratch.scores[:n_out], self.arrays.rank_word, top)
        # np.take of the rows written: half the time of codes_out[order] (28,631 rows of 86 letters: 8 against 16 ms)
        return WordTable(word_ids, lengths, jokers, scores, np.take(codes_out[:n_out], order, axis=0) if with_codes else _NO_CODES[:0])

    def _search_by_first_letter(self, kernel, args: tuple, cap: int, width: int, budget: SearchBudget, limit: int) -> int:
        """The all-words search as one kernel call per out-edge of the root (the same words in the same order as one
        walk, ranks still from the root), each with the nodes the time left allows, the clock read between them;
        the rows go one after another into the scratch arrays (sized for every word of the lexicon). Returns the
        number of rows."""
        lo, hi = self.root
        scratch = self._scratch
        scratch.grow(len(self.lexicon) + 1)  # a search finds each word at most once: no overflow, no retry
        codes = scratch.codes_for(width) if args[-1] else _NO_CODES
        n_out = 0
        rate = SearchBudget.rate()  # nodes/ms: the process's measured rate, then this search's own
        e = lo
        while e < hi:
            # the nodes and the time left (0: spent, exhausted); a call takes at most half the time left at the rate
            # assumed, so the clock is read again before a wrong rate can spend it all
            left = min(limit, budget.node_limit(rate / 2))
            if left <= 0:
                break
            started = time.perf_counter()
            n, _, nodes, stopped = kernel(
                self.arrays.search_edges, self.arrays.edge_rank, self.edge_need, e, e + 1, *args, left, cap,
                scratch.ranks[n_out:], scratch.lengths[n_out:], scratch.jokers[n_out:], scratch.scores[n_out:],
                codes[n_out:] if args[-1] else codes,
            )
            budget.spend(int(nodes), bool(stopped))
            n_out += int(n)
            measured = SearchBudget.timed("words", int(nodes), time.perf_counter() - started)
            if measured is not None:
                rate = measured
            # a first letter cut by its slice (half the time left) keeps the words it found (the kernel cannot resume
            # its walk: the answer is then not complete, budget.exhausted) and the next letters get the time left
            e += 1
        return n_out

    # ------------------------------------------------------------------ words
    def word_table(self, position: KubagramPosition, top: int | None = None, budget: Budget | SearchBudget | None = None) -> WordTable:
        """All words (or the ``top`` best) formable from the field, as arrays sorted best first
        (with a ``budget``: those found within it, see :class:`SearchBudget`)."""
        _check_position(position)
        check_top(top)
        budget = self._clock(budget)
        pool = self._pool(position)
        return self._search(pool, self.rules.min_word_length(position.last_cube), top or 0, budget=budget)

    def best_words(self, position: KubagramPosition, top: int | None = None, budget: Budget | SearchBudget | None = None) -> list[WordMove]:
        """Words formable from distinct field tiles, best first, each with its best assignment.

        Score = (letters + length bonus) x joker_factor^jokers, using as many jokers as fit; ties are
        ordered by word (alphabet order). ``top=None`` returns all. With a ``budget``: the best of the
        words found within it (the walk goes in alphabet order; ``budget.exhausted``: maybe not the best).
        """
        _check_position(position)
        check_top(top)
        budget = self._clock(budget)
        pool = self._pool(position)
        table = self._search(pool, self.rules.min_word_length(position.last_cube), top or 0, budget=budget)
        moves = []
        work = [0]  # the assignment searches' steps: nodes of a node budget
        for n, (w, j) in enumerate(zip(table.word_ids.tolist(), table.jokers.tolist())):
            if n and budget is not None and (budget.charge(work[0]) and budget.spent()):  # a word can cost a small search
                break  # the best words laid on tiles by then (a search cut earlier still lays the words it found)
            work[0] = 0
            moves.append(self._word_move(self.lexicon.word(w), j, pool.tiles, work))
        return moves

    def _word_move(self, word: str, jokers: int, tiles: TilePool, work: list[int] | None = None) -> WordMove:
        assignment = assign_words([word], tiles, [jokers], work)
        if assignment is None:  # the kernel and the assignment search disagree: a bug, never silent
            raise AssertionError(f"no assignment with {jokers} joker(s) for {word!r}")
        return self._word(word, assignment[0], jokers)

    def _word(self, word: str, tiles: tuple[int, ...], jokers: int, letters: int | None = None) -> WordMove:
        """A scored WordMove for ``word`` spelled by ``tiles`` with ``jokers`` jokers (``letters``: its letter sum, if
        known)."""
        r = self.rules
        mult = r.joker_factor**jokers
        if letters is None:
            letters = r.letter_sum(word)
        bonus = r.length_bonus(len(word))
        return WordMove(word, tiles, jokers, letters, bonus, mult, (letters + bonus) * mult)

    def _compound(self, word: str, parts: tuple[str, ...], table_idx: tuple[int, ...], field_move: WordMove | None,
                  level: int, jokers: int, lost: tuple[tuple[int, int], ...], mover: int) -> CompoundMove:
        """A scored CompoundMove (the joker factor replaces the compound factor when jokers > 0)."""
        r = self.rules
        score = r.compound_score(word, level, jokers)
        letters = r.letter_sum(word)
        bonus = r.length_bonus(len(word))
        mult = r.joker_factor**jokers if jokers else r.compound_factor**level
        return CompoundMove(word, parts, table_idx, field_move, level, jokers, letters, bonus, mult, score, lost, mover)

    # ------------------------------------------------------------------ compounds
    def compound_moves(self, position: KubagramPosition, top: int | None = None, objective: Objective = "gain",
                       budget: Budget | SearchBudget | None = None, *, time_share: float = 0.85) -> list[CompoundMove]:
        """Compounds of >= 2 parts: table words of any player and, where the rules allow, one new
        field word; best first by ``objective`` (then the other of gain/taken, then word, then parts).
        With a ``budget``: the compounds found within it (``budget.exhausted``: maybe not all of them): the field
        words are searched in slices (:meth:`_compounds_in_slices`). ``time_share``: the part of the time left that
        the search may take; the rest builds the answer (about 30 us a compound, 1,351 in 40 ms: with the whole time
        to the search, a 200 ms budget built 256 of the 1,351 found), or ``best_move``'s claim search."""
        _check_position(position)
        check_top(top)
        check_gain_objective(objective)
        if any(w.fresh for w in position.table):
            # a word claimed in the turn being played is no compound part before the next turn (docs/kubagram.md):
            # the compounds of the other table words, their parts numbered as in the whole table
            keep = [i for i, w in enumerate(position.table) if not w.fresh]
            older = replace(position, table=tuple(position.table[i] for i in keep))
            return [replace(m, table_parts=tuple(keep[p] for p in m.table_parts))
                    for m in self.compound_moves(older, top, objective, budget, time_share=time_share)]
        budget = self._clock(budget)
        table = position.table
        if not table:
            return []
        if len(table) > 63:
            raise PositionError("at most 63 words on the table")
        pool = self._pool(position)
        r = self.rules
        use_field = (r.compound_with_field_words or position.last_cube) and len(position.tiles) > 0
        field = None
        if use_field:
            # the field words may take FIELD_WORDS_SHARE of the time left: the compound kernel's slices and the answer's
            # build need the rest (before, an 83-tile field with 3 choice cubes spent 50 ms on its field words alone at
            # load 9-11 and answered no compound in 150-230 ms)
            whole = None if budget is None else budget.deadline
            if budget is not None and whole is not None:
                now = time.perf_counter()
                budget.deadline = now + (whole - now) * FIELD_WORDS_SHARE
            try:
                field = self._search(pool, r.min_word_length(position.last_cube), 0, with_codes=True, budget=budget)
            finally:
                if budget is not None:
                    budget.deadline = whole
            # a field-word search cut at its share leaves budget.exhausted set (the answer is not complete): the steps
            # after it read budget.spent(), not that flag, so the compounds of the words found are still searched
        table_codes = [self.lexicon.alphabet.encode(w.word) for w in table]  # letters checked by _pool
        if budget is None or field is None or not len(field):
            flat, offs, nodes, stopped = self._compound_kernel(table_codes, field, 0, len(field) if field is not None else 0,
                                                               field is not None,
                                                               budget.node_limit(SearchBudget.COMPOUND_NODES_PER_MS)
                                                               if budget is not None else _UNLIMITED)
            if budget is not None:
                budget.spend(int(nodes), bool(stopped))
        else:
            field, flat, offs = self._compounds_in_slices(table_codes, field, budget, time_share, top)
        compounds = _CompoundTable(self, position, field, pool, flat, offs)
        order = compounds.order(objective)
        if top:
            order = order[:top]
        compounds.prepare(order, budget)
        moves = []
        for n, i in enumerate(order):
            if n and budget is not None:
                # a compound can cost a small search (its field word's assignment): that work is charged, and the
                # build stops once the budget is spent; the compounds found cost no search to build, so a search cut
                # short still answers every one it found (before, any cut answered its first compound only), reading
                # the clock every 64 of them
                work, compounds.work[0] = compounds.work[0], 0
                if work:
                    budget.charge(work)
                if (work or n % 64 == 0) and budget.spent():  # not merely cut before: the slices' cut left time to build
                    break  # the best compounds built so far
            moves.append(compounds.move(i))
        return moves

    def _compound_kernel(self, table_codes: list[np.ndarray], field: WordTable | None, lo: int, hi: int, with_field: bool,
                         limit: int) -> tuple[np.ndarray, np.ndarray, int, bool]:
        """One compound kernel call over the table words and field rows ``lo:hi`` (field parts numbered from
        ``len(table_codes) + lo``, as in the whole field): (flat, offsets, nodes, stopped)."""
        from kubasolve.kernels.compound_search import search_compounds

        parts = list(table_codes)
        lengths = [len(p) for p in parts]
        if field is not None and hi > lo:
            width = field.codes.shape[1]
            rows = field.lengths[lo:hi]
            keep = np.arange(width)[None, :] < rows[:, None]
            parts.append(field.codes[lo:hi][keep])  # row-major: the field words one after another
            lengths.extend(rows.tolist())
        offsets = np.zeros(len(lengths) + 1, np.int64)
        offsets[1:] = np.cumsum(lengths)
        codes = np.concatenate(parts).astype(np.uint8) if parts else np.zeros(0, np.uint8)
        n_table = len(table_codes)
        flat, offs, nodes, stopped = search_compounds(
            self.arrays.search_edges, self.root[0], self.root[1], codes, offsets, n_table, 1 if with_field else 0,
            n_table + 1, limit,
        )
        if lo:
            flat = np.where(flat >= n_table, flat + lo, flat).astype(flat.dtype)
        return flat, offs, int(nodes), bool(stopped)

    def _compounds_in_slices(self, table_codes: list[np.ndarray], field: WordTable, budget: SearchBudget,
                             time_share: float, top: int | None = None) -> tuple[WordTable, np.ndarray, np.ndarray]:
        """The budgeted compound search: the table words with the field words (best and shortest first in turn) in slices of growing size,
        one kernel call each, the clock read between them. A compound holds at most one field word, so each compound
        with one is found in exactly one slice, and those of table words alone in the first (the others drop theirs):
        run to the end, the slices find what one call finds. Each slice is sized from the budget left: at most half
        the nodes left in field-word letters (a node per letter indexed: the kernel indexes its parts before its
        first node), and under a time budget at most what the time left (its ``time_share``) pays at the highest cost
        per letter measured on the slices so far (index and walk together, no guess: the first slice is small).
        Node budgets give the same slices whatever the machine (deterministic). Returns the field rows searched (in
        the order searched) and the sequences found."""
        n_table = len(table_codes)
        # the field words best first and shortest first in turn: the long, best-scoring ones make the best compounds,
        # the short ones the most compounds per letter (24 letters + 3 jokers, 4 table words, max_nodes 10^6: best first
        # alone found 13 compounds, the best of all among them; shortest first alone 1,019 but not the best). The
        # answer's order does not depend on it (compounds are ranked afterwards).
        n_field = len(field)
        both = np.empty(2 * n_field, np.int64)
        both[0::2] = np.arange(n_field)
        both[1::2] = np.argsort(field.lengths, kind="stable")
        _, first = np.unique(both, return_index=True)
        order = both[np.sort(first)]
        # the letter rows are reordered only as the slices take them (all at once: 16-40 ms for 30,000-40,000 field
        # words at load 9, which before left a 50-200 ms budget no time for a slice)
        codes = field.codes
        field = WordTable(field.word_ids[order], field.lengths[order], field.jokers[order], field.scores[order], codes[:0])
        lengths = field.lengths.astype(np.int64)
        ends = np.cumsum(lengths)  # letters of the first k + 1 field words
        now = time.perf_counter()
        deadline = whole = None if budget.deadline is None else now + (budget.deadline - now) * time_share
        flats: list[np.ndarray] = []
        offsets: list[np.ndarray] = []
        done, size, cost = 0, _FIRST_SLICE_LETTERS, 0.0  # field rows searched, next slice letters, s/letter
        found = 0
        while done < len(field):
            if deadline is not None and whole is not None:  # keep the time to build the answer of the compounds found
                deadline = whole - min(found, top or found) * _BUILD_S_PER_COMPOUND
            before = int(ends[done - 1]) if done else 0
            afford = budget.nodes_left() // 2
            if deadline is not None and cost > 0:
                afford = min(afford, int((deadline - time.perf_counter()) / cost))
            letters = min(max(size, int(lengths[done])), afford)  # at least the next word, when affordable
            hi = int(np.searchsorted(ends, before + letters, "right"))
            if hi <= done or budget.spent() or (deadline is not None and time.perf_counter() >= deadline):
                budget.exhausted = True  # the rest of the field words cannot be paid for
                break
            letters = int(ends[hi - 1]) - before
            start = time.perf_counter()
            budget.charge(letters)  # <= half the nodes left: the walk keeps the rest
            limit = budget.nodes_left()
            if deadline is not None:  # the walk's nodes: the time left at the kernel's conservative or measured rate
                left_ms = (deadline - time.perf_counter()) * 1e3
                limit = min(limit, max(int(left_ms * SearchBudget.rate("compound")), 1))
            rows = WordTable(field.word_ids[done:hi], field.lengths[done:hi], field.jokers[done:hi], field.scores[done:hi],
                             np.take(codes, order[done:hi], axis=0))
            flat, offs, nodes, stopped = self._compound_kernel(table_codes, rows, 0, hi - done, True, limit)
            if done:  # field parts numbered from n_table + done, as in the whole (reordered) field
                flat = np.where(flat >= n_table, flat + done, flat).astype(flat.dtype)
            budget.spend(nodes, stopped)
            SearchBudget.timed("compound", nodes + letters, time.perf_counter() - start)
            if flats and len(offs) > 1:  # the table-only sequences were kept from the first slice
                has_field = np.maximum.reduceat(flat, offs[:-1]) >= n_table
                sizes = np.diff(offs)[has_field]
                flat = flat[np.repeat(has_field, np.diff(offs))]
                offs = np.concatenate(([0], np.cumsum(sizes)))
            flats.append(flat)
            offsets.append(offs)
            found += len(offs) - 1
            cost = max(cost, (time.perf_counter() - start) / max(letters, 1))
            done = hi
            size *= 2
            if stopped:
                budget.exhausted = True
                break
        shift = 0
        all_offs = [np.zeros(1, np.int64)]
        for offs in offsets:
            all_offs.append(offs[1:] + shift)
            shift += int(offs[-1])
        flat = np.concatenate(flats).astype(np.int32) if flats else np.zeros(0, np.int32)
        field = WordTable(field.word_ids[:done], field.lengths[:done], field.jokers[:done], field.scores[:done],
                          np.take(codes, order[:done], axis=0))
        return field, flat, np.concatenate(all_offs).astype(np.int64)

    # ------------------------------------------------------------------ claims
    def best_move(self, position: KubagramPosition, objective: Objective = "gain", max_words: int | None = None,
                  budget: Budget | SearchBudget | None = None) -> Claim:
        """The best claim of up to ``max_words`` items (default: the rules' ``max_claim_words``, at
        most 3): field words and compounds on disjoint field tiles and distinct table words. Exact:
        branch-and-bound over items in value order, each later item searched in the tiles the earlier
        ones leave (every way they can use the jokers and choice cubes is tried).

        With a ``budget`` the search stops when it runs out and answers with the best claim found so far
        (at least the best single word found, when there is one; ``budget.exhausted`` says it may not be
        the best). The claim is always legal: every item in it was found and checked in full."""
        _check_position(position)
        check_gain_objective(objective)
        if max_words is not None and (not isinstance(max_words, int) or isinstance(max_words, bool) or not 1 <= max_words <= 3):
            raise PositionError(f"max_words must be 1, 2 or 3 (or None: the rules' max_claim_words), got {max_words!r}")
        budget = self._clock(budget)
        limit = max_words or self.rules.max_claim_words
        if not 1 <= limit <= 3:
            raise PositionError("max_words must be 1, 2 or 3")
        pool = self._pool(position)
        flex_all = tuple(range(len(pool.flex_masks)))
        min_len = self.rules.min_word_length(position.last_cube)
        best: list = [0, [], []]  # value, [(word, jokers)], [compound with its field jokers]
        single: tuple[int, list] = (0, [])
        try:
            # the best single word first: a valid answer early, whatever the budget leaves for the rest
            single = self._best_word_claim(pool, min_len, pool.fixed_counts, flex_all, 1, None, budget)
            self._claim_search(position, pool, objective, limit, min_len, single[0], best, budget)
        except _OutOfBudget:
            pass
        if single[0] > best[0]:  # only when the budget ran out (the search finds at least the best word)
            best = [single[0], single[1], []]
        if best[0] <= 0:
            return Claim()
        return self._materialise(position, pool, best[1], best[2])

    def _claim_search(self, position: KubagramPosition, pool: _Pool, objective: Objective, limit: int, min_len: int,
                      single_bound: int, best: list, budget: SearchBudget | None) -> None:
        """The branch-and-bound of :meth:`best_move`, improving ``best`` in place (raises _OutOfBudget when the budget
        runs out; ``best`` then holds the best claim found so far)."""
        was_exhausted = budget is not None and budget.exhausted
        compounds = [c for c in self.compound_moves(position, objective=objective, budget=budget, time_share=_COMPOUND_SHARE)
                     if _value(c, objective) > 0]
        if budget is not None and budget.exhausted and not was_exhausted:
            # the compound search stopped at its share of the time: the claim search takes the rest (out_of_time reads
            # the clock and the nodes again), and the answer stays unproven
            budget.exhausted = False
            try:
                self._claim_items(position, pool, objective, limit, min_len, single_bound, best, budget, compounds)
            finally:
                budget.exhausted = True
            return
        self._claim_items(position, pool, objective, limit, min_len, single_bound, best, budget, compounds)

    def _claim_items(self, position: KubagramPosition, pool: _Pool, objective: Objective, limit: int, min_len: int,
                     single_bound: int, best: list, budget: SearchBudget | None, compounds: list[CompoundMove]) -> None:
        """:meth:`_claim_search` over the ``compounds`` found."""
        flex_all = tuple(range(len(pool.flex_masks)))
        # a compound's value bounds all its variants: its field word takes at most the jokers it takes in the whole
        # field (any assignment in leftover tiles is one in the whole field), and the compound was built with the
        # better of that joker count and none (checked by tests/kubagram/test_kubagram_budget.py)
        tops = [_value(c, objective) for c in compounds]
        # suffix maxima of tops: once even the best later compound cannot lift the claim above the best, stop
        tops_after = tops + [0]
        for i in range(len(tops) - 1, -1, -1):
            tops_after[i] = max(tops[i], tops_after[i + 1])
        item_after = [max(single_bound, t) for t in tops_after]  # bound on any item after compound i - 1
        table_sets = [frozenset(c.table_parts) for c in compounds]
        memo: dict = {}  # residual pools' best word claims and field words' variants, each worked out once
        code = self._code
        field_need: list[list[tuple[int, int]]] = []  # per compound, its field word's letter counts
        for c in compounds:
            counts: dict[int, int] = {}
            for ch in c.field_word.word if c.field_word is not None else "":
                counts[code[ch]] = counts.get(code[ch], 0) + 1
            field_need.append(list(counts.items()))
        flex_letters = [[ch for ch in range(len(self._value_list)) if (int(m) >> ch) & 1] for m in pool.flex_masks]

        def search_compounds(start: int, chosen: list, used_table: frozenset, fixed: np.ndarray, flex: tuple, acc: int) -> None:
            slots = limit - len(chosen)
            value, words = self._best_word_claim(pool, min_len, fixed, flex, slots, None, budget, memo)
            if acc + value > best[0]:
                best[0], best[1], best[2] = acc + value, words, list(chosen)
            if slots == 0:
                return
            more = slots - 1
            # letters the residual tiles could show (a fixed tile, or a flex tile offering it): a field word
            # needing more of a letter cannot be laid, whatever the assignment (a cheap test before the exact one)
            have = fixed.tolist()
            for f in flex:
                for ch in flex_letters[f]:
                    have[ch] += 1
            for i in range(start, len(compounds)):
                # the items after compound i are words (each <= the best single word) or later compounds
                if acc + tops_after[i] + item_after[i] * more <= best[0]:
                    break  # no compound from i on can do better (tops_after is non-increasing, best only grows)
                if acc + tops[i] + item_after[i + 1] * more <= best[0]:
                    continue
                if used_table & table_sets[i]:
                    continue
                if any(have[ch] < n for ch, n in field_need[i]):
                    continue
                if budget is not None and budget.charge(1):  # a node: a compound tried (a node budget bounds this too)
                    raise _OutOfBudget
                c = compounds[i]
                if c.field_word is None:
                    search_compounds(i + 1, chosen + [(c, 0)], used_table | table_sets[i], fixed, flex, acc + _value(c, objective))
                    continue
                for jokers, fixed2, flex2 in self._variants_memo(c.field_word.word, fixed, flex, pool, memo, budget):
                    tj = c.jokers - c.field_word.jokers
                    v = self.rules.compound_score(c.word, c.level, tj + jokers) - (c.score - c.gain) + (c.taken if objective == "swing" else 0)
                    search_compounds(i + 1, chosen + [(c, jokers)], used_table | table_sets[i], fixed2, flex2, acc + v)

        search_compounds(0, [], frozenset(), pool.fixed_counts, flex_all, 0)

    def _best_word_claim(self, pool: _Pool, min_len: int, fixed: np.ndarray, flex: tuple[int, ...], slots: int, cap: int | None,
                         budget: SearchBudget | None = None, memo: dict | None = None) -> tuple[int, list[tuple[str, int]]]:
        """Best claim of <= ``slots`` field words from the residual pool, each worth <= ``cap``
        (the caller's own value: items are searched in non-increasing value order). ``memo`` (one per
        :meth:`best_move`) keeps each residual pool's answer: many compounds leave the same tiles."""
        if memo is None:
            return self._best_word_claim_search(pool, min_len, fixed, flex, slots, cap, budget, memo)
        key = ("claim", fixed.tobytes(), flex, slots, cap)
        found = memo.get(key)
        if found is None:
            found = memo[key] = self._best_word_claim_search(pool, min_len, fixed, flex, slots, cap, budget, memo)
        return found

    def _rest_bound(self, pool: _Pool, min_len: int, slots: int, n_tiles: int, memo: dict | None,
                    budget: SearchBudget | None) -> np.ndarray:
        """``out[L]``: the best joker-free base score of ``slots - 1`` words of the whole field totalling <= L letters
        (cut short by the budget it may be too low: the claim search is then not proven anyway)."""
        key = ("rest", slots, n_tiles)
        if memo is not None and key in memo:
            return memo[key]
        base_upto = memo.get("base_upto") if memo is not None else None
        if base_upto is None:
            table = self._search(pool, min_len, 0, budget=budget)  # the whole field's words, once
            n_all = int(pool.fixed_counts.sum()) + len(pool.flex_masks)
            base_upto = np.zeros(n_all + 1, np.int64)
            if len(table):
                bases = table.scores // (np.int64(self.rules.joker_factor) ** table.jokers.astype(np.int64))
                np.maximum.at(base_upto, table.lengths.astype(np.int64), bases)
                base_upto = np.maximum.accumulate(base_upto)
            if memo is not None:
                memo["base_upto"] = base_upto
        one = base_upto[: n_tiles + 1]
        k_upto = [one]
        for _ in range(slots - 2):
            prev = k_upto[-1]
            k_upto.append(np.array([max(prev[L - a] + one[a] for a in range(L + 1)) for L in range(n_tiles + 1)], np.int64))
        out = k_upto[slots - 2]
        if memo is not None:
            memo[key] = out
        return out

    def _variants_memo(self, word: str, fixed: np.ndarray, flex: tuple[int, ...], pool: _Pool, memo: dict | None,
                       budget: SearchBudget | None = None) -> list:
        if memo is None:
            return self._variants(word, fixed, flex, pool, budget)
        key = ("variants", word, fixed.tobytes(), flex)
        found = memo.get(key)
        if found is None:
            found = memo[key] = self._variants(word, fixed, flex, pool, budget)
        return found

    def _best_word_claim_search(self, pool: _Pool, min_len: int, fixed: np.ndarray, flex: tuple[int, ...], slots: int,
                                cap: int | None, budget: SearchBudget | None, memo: dict | None) -> tuple[int, list[tuple[str, int]]]:
        """:meth:`_best_word_claim` without its memo."""
        if slots <= 0 or (budget is not None and budget.out_of_time()):
            return 0, []
        sub = _Pool(fixed, pool.flex_masks[list(flex)], pool.flex_joker[list(flex)], _topsum(self, fixed, pool, flex), pool.tiles)
        if slots == 1:  # the best word worth at most cap (ties: the first in alphabet order), one top-1 search
            table = self._search(sub, min_len, 1, budget=budget, score_cap=cap)
            if len(table):
                return int(table.scores[0]), [(self.lexicon.word(int(table.word_ids[0])), int(table.jokers[0]))]
            return 0, []
        # Bound on what the other slots can add from L remaining tiles: the best joker-free base
        # score of k words totalling <= L letters (superlinear bonus: splitting rarely pays), times
        # the joker factor for each joker left over. Taken from the whole field's words (any word of
        # the leftover tiles is one of them), worked out once per best_move, so that the leftover
        # tiles need no all-words search: their words come best first from top-k searches of growing k.
        jf = self.rules.joker_factor
        n_tiles = int(fixed.sum()) + len(flex)
        rest_base = self._rest_bound(pool, min_len, slots, n_tiles, memo, budget)
        all_jokers = int(pool.flex_joker[list(flex)].sum()) if flex else 0
        best_v, best_items = 0, []
        k = _FIRST_ROWS
        table = self._search(sub, min_len, k, budget=budget, score_cap=cap)
        row = -1
        while True:
            row += 1
            if row == len(table):
                if len(table) < k or k == 0 or (budget is not None and budget.exhausted):
                    break  # every word of the leftover tiles (worth <= cap) was looked at
                k = k * 8 if k * 8 <= _MAX_KERNEL_TOP else 0
                table = self._search(sub, min_len, k, budget=budget, score_cap=cap)  # the first rows are the same
                if row == len(table):
                    break
            if budget is not None and budget.charge(1):  # a node: a word row looked at
                break  # the best claim found so far (each one checked in full)
            v = int(table.scores[row])
            if v * slots <= best_v:
                break
            rem = n_tiles - int(table.lengths[row])
            rest = int(rest_base[rem])
            if v + min(rest * jf**all_jokers, (slots - 1) * v) <= best_v:
                continue
            # the variant bound below depends only on a variant's joker count j <= the row's (its score is
            # base * jf**j, the jokers left all_jokers - j): when it fails for every j, skip the variants
            most = int(table.jokers[row])
            base = v // jf**most
            if all(base * jf**j + min(rest * jf ** (all_jokers - j), (slots - 1) * base * jf**j) <= best_v for j in range(most + 1)):
                continue
            word = self.lexicon.word(int(table.word_ids[row]))
            for jokers, fixed2, flex2 in self._variants_memo(word, fixed, flex, pool, memo, budget):
                vv = self.rules.word_score(word, jokers)
                left_jokers = all_jokers - jokers
                if vv + min(rest * jf**left_jokers, (slots - 1) * vv) <= best_v:
                    continue
                sub_v, sub_items = self._best_word_claim(pool, min_len, fixed2, flex2, slots - 1, vv, budget, memo)
                if vv + sub_v > best_v:
                    best_v, best_items = vv + sub_v, [(word, jokers)] + sub_items
        return best_v, best_items

    def _variants(self, word: str, fixed: np.ndarray, flex: tuple[int, ...], pool: _Pool, budget: SearchBudget | None = None):
        """Every distinct way ``word`` can use the available flex tiles: (jokers, fixed left, flex left); of
        interchangeable flex tiles (same letters, both jokers or both not) the first ones are used.

        Plain Python over the word's own letters (a few small ints): numpy calls on tiny arrays cost more here.
        With a ``budget`` the enumeration reads the clock now and then (raises :class:`_OutOfBudget`)."""
        code = self._code
        need: dict[int, int] = {}
        for ch in word:
            c = code[ch]
            need[c] = need.get(c, 0) + 1
        letters = sorted(need)
        have = {c: int(fixed[c]) for c in letters}
        masks = [int(pool.flex_masks[f]) for f in flex]
        is_joker = [int(pool.flex_joker[f]) for f in flex]
        variants: list[tuple[int, np.ndarray, tuple[int, ...]]] = []
        if len(flex) <= 1:  # the usual case, directly: the flex tile unused, then on each letter it can take
            if all(need[c] <= have[c] for c in letters):
                rest = fixed.copy()
                for c in letters:
                    rest[c] -= need[c]
                variants.append((0, rest, flex))
            if flex:
                for c in letters:
                    if (masks[0] >> c) & 1 and all(need[d] - (d == c) <= have[d] for d in letters):
                        rest = fixed.copy()
                        for d in letters:
                            rest[d] -= need[d] - (d == c)
                        variants.append((is_joker[0], rest, ()))
            variants.sort(key=lambda v: -v[0])
            return variants
        # flex tiles with the same letters and joker flag are interchangeable: per such class only how many of its
        # tiles the word takes, and for which letters, matters (the first ones are taken, the rest left), so each
        # distinct outcome is enumerated once instead of once per permutation of equal tiles (8 all-letter jokers
        # and a 10-letter word: ~1,000 outcomes instead of ~10^8 paths)
        classes: dict[tuple[int, int], list[int]] = {}
        for k, f in enumerate(flex):
            classes.setdefault((masks[k], is_joker[k]), []).append(f)
        groups = [(mask, joker, members, [c for c in letters if (mask >> c) & 1]) for (mask, joker), members in classes.items()]
        taken = dict.fromkeys(letters, 0)
        used_per_group = [0] * len(groups)
        seen: set[tuple] = set()
        steps = 0

        def leaf(jokers: int) -> None:
            if all(need[c] - taken[c] <= have[c] for c in letters):
                left = tuple(sorted(f for (_, _, members, _), u in zip(groups, used_per_group) for f in members[u:]))
                key = (jokers, left, tuple(taken[c] for c in letters))
                if key not in seen:
                    seen.add(key)
                    rest = fixed.copy()
                    for c in letters:
                        rest[c] -= need[c] - taken[c]
                    variants.append((jokers, rest, left))

        def rec(g: int, i: int, room: int, jokers: int) -> None:
            """Group ``g``'s letter ``i`` on: how many of the group's ``room`` tiles left take that letter."""
            nonlocal steps
            steps += 1
            if budget is not None and steps % 256 == 0 and budget.charge(256):  # a node per step: a node budget bounds it
                raise _OutOfBudget
            if g == len(groups):
                leaf(jokers)
                return
            _, joker, members, offered = groups[g]
            if i == len(offered):
                used_per_group[g] = len(members) - room
                rec(g + 1, 0, len(groups[g + 1][2]) if g + 1 < len(groups) else 0, jokers + joker * used_per_group[g])
                return
            c = offered[i]
            most = min(room, need[c] - taken[c])
            for n in range(most + 1):
                taken[c] += n
                rec(g, i + 1, room - n, jokers)
                taken[c] -= n

        rec(0, 0, len(groups[0][2]), 0)
        if budget is not None:
            budget.charge(steps % 256)
        variants.sort(key=lambda v: -v[0])
        return variants

    def _materialise(self, position: KubagramPosition, pool: _Pool, words: list[tuple[str, int]], compounds: list[tuple[CompoundMove, int]]) -> Claim:
        """Concrete tile assignment for the chosen claim (it exists: the search found it)."""
        field_words = [w for w, _ in words] + [c.field_word.word for c, _ in compounds if c.field_word is not None]
        jokers = [j for _, j in words] + [j for c, j in compounds if c.field_word is not None]
        assignment = assign_words(field_words, pool.tiles, jokers)
        if assignment is None:
            raise AssertionError(f"no joint assignment for claim {field_words} with jokers {jokers}")
        moves = [self._word(w, assignment[i], j) for i, (w, j) in enumerate(words)]
        out_compounds = []
        k = len(words)
        for c, j in compounds:
            if c.field_word is None:
                out_compounds.append(c)
                continue
            field_move = self._word(c.field_word.word, assignment[k], j)
            k += 1
            total_jokers = c.jokers - c.field_word.jokers + j
            out_compounds.append(self._compound(c.word, c.parts, c.table_parts, field_move, c.level, total_jokers, c.lost, c.mover))
        return Claim(tuple(moves), tuple(out_compounds))


class _CompoundTable:
    """The compounds of one compound search, scored as arrays (one row per part sequence) and built into
    :class:`CompoundMove` objects only on demand, best first: each part's facts (word, letter sum, owner) and each
    field word's tile assignment are worked out once, not once per compound.

    A field part can be laid with the joker count the word search found for it (always possible) or with none;
    with no joker in the table parts a compound may score more without jokers (compound factor ** level), and on
    equal scores the one without jokers is taken. Whether the field word can be laid without jokers is a letter
    count check against the fixed tiles (exact when the other field tiles are all jokers; otherwise the few
    words that fail it are tried with the choice cubes by the assignment search)."""

    def __init__(self, solver: KubagramSolver, position: KubagramPosition, field: WordTable | None, pool: _Pool,
                 flat: np.ndarray, offs: np.ndarray) -> None:
        r = solver.rules
        self.solver = solver
        self.position = position
        self.field = field
        self.pool = pool
        table = position.table
        n_table = self.n_table = len(table)
        n_field = len(field) if field is not None else 0
        n_parts = n_table + n_field  # + 1 padding part of zeros at index n_parts
        # the words of the parts, by part index: the table words, then only the field words some compound uses
        # (decoding every field word of a large field took ~0.4 s; a compound uses a few of them)
        self._words: dict[int, str] = {i: tw.word for i, tw in enumerate(table)}
        if field is not None and n_field:
            used = np.unique(flat[flat >= n_table]) - n_table
            if len(used):
                picked = WordTable(field.word_ids[used], field.lengths[used], field.jokers[used], field.scores[used], field.codes[used])
                self._words.update(zip((used + n_table).tolist(), _decode_rows(solver.lexicon.alphabet.letters, picked)))
        self._field_moves: dict[tuple[int, int], WordMove | None] = {}
        self.work = [0]  # the assignment searches' steps (a node budget counts them)
        self._spelled: dict[int, tuple[str, tuple[str, ...]]] = {}
        self._fixed_tiles: np.ndarray | None = None
        self._columns: tuple[list[int], ...] | None = None
        self._field_lengths = field.lengths.astype(np.int64) if field is not None else np.zeros(0, np.int64)
        tiles = pool.tiles
        self._one_joker = len(tiles.flex) == 1 and tiles.flex[0][2]  # the field's only flex tile is a joker
        # per part (and one padding part of zeros): summed facts and maxed facts
        SUM_LETTERS, SUM_LENGTH, SUM_JOKERS, SUM_OWN, SUM_TAKEN = range(5)
        summed = np.zeros((n_parts + 1, 5), np.int64)
        maxed = np.zeros((n_parts + 1, 2), np.int64)  # level, field row (-1: a table part)
        maxed[:, 1] = -1
        mover = position.mover
        facts = [solver._table_word_facts(tw) for tw in table]  # (letter sum, value)
        self.values = [v for _, v in facts]
        self.owners = [tw.owner for tw in table]
        if n_table:
            summed[:n_table] = [(s, len(tw.word), tw.jokers, v if tw.owner == mover else 0, 0 if tw.owner == mover else v)
                                for tw, (s, v) in zip(table, facts)]
            maxed[:n_table, 0] = [tw.level for tw in table]
        field_jokers = np.zeros(1, np.int64)
        if field is not None and n_field:
            # letter sums from the kernel's scores: score = (letters + bonus) * joker_factor ** jokers
            flen = self._field_lengths
            extra = np.maximum(flen - r.bonus_from + 1, 0)
            bonus = r.bonus_step * extra * (extra + 1) // 2
            field_jokers = field.jokers.astype(np.int64)
            summed[n_table:n_parts, SUM_LETTERS] = field.scores // np.int64(r.joker_factor) ** field_jokers - bonus
            summed[n_table:n_parts, SUM_LENGTH] = flen
            maxed[n_table:n_parts, 1] = np.arange(n_field)
        self._part_letters = summed[:, SUM_LETTERS].tolist()
        # one row per sequence of parts, padded with the zero part
        bounds = offs.tolist()
        flat_list = flat.tolist()
        self._parts = [tuple(flat_list[bounds[s] : bounds[s + 1]]) for s in range(len(bounds) - 1)]
        sizes = np.diff(offs)
        n_seq = self.n_seq = len(sizes)
        width = int(sizes.max()) if n_seq else 0
        seq = np.full((n_seq, width), n_parts, np.int64)
        seq[np.arange(width)[None, :] < sizes[:, None]] = flat
        sums = summed[seq].sum(1)
        maxes = maxed[seq].max(1) if width else np.zeros((0, 2), np.int64)
        self.letters = sums[:, SUM_LETTERS]
        self.level = level = maxes[:, 0] + 1
        word_length = sums[:, SUM_LENGTH]
        self.bonus = np.array([r.length_bonus(n) for n in range(int(word_length.max(initial=0)) + 1)], np.int64)[word_length]
        base = self.letters + self.bonus
        table_jokers = sums[:, SUM_JOKERS]
        row = maxes[:, 1]
        found_jokers = np.where(row >= 0, field_jokers[np.maximum(row, 0)], 0)
        jf, cf = np.int64(r.joker_factor), np.int64(r.compound_factor)

        def multiplier(j: np.ndarray) -> np.ndarray:
            return np.where(j > 0, jf ** np.maximum(j, 0), cf**level)

        # the field part without jokers where that scores at least as much, if its tiles allow it
        try_none = (found_jokers > 0) & (multiplier(table_jokers) >= multiplier(table_jokers + found_jokers))
        if try_none.any():
            rows = np.unique(row[try_none])
            plain, _ = self._assign(rows, np.zeros(len(rows), np.int64))
            ok = np.zeros(n_field, bool)
            ok[rows] = plain
            if not all(is_joker for _, _, is_joker in pool.tiles.flex):  # choice cubes may cover what fixed tiles lack
                for f in rows[~plain].tolist():
                    ok[f] = self._field_move(f, 0) is not None
            try_none &= ok[np.maximum(row, 0)]
        self.field_row = row
        self.field_jokers = np.where(try_none, 0, found_jokers)
        self.jokers = table_jokers + self.field_jokers
        self.multiplier = multiplier(self.jokers)
        self.score = base * self.multiplier
        self.own = sums[:, SUM_OWN]
        self.taken = sums[:, SUM_TAKEN]

    def _assign(self, rows: np.ndarray, jokers: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Field rows laid on tiles by the kernel (0 jokers, or 1 when the field's only flex tile is a joker):
        (placed flag per row, tile indices per row)."""
        from kubasolve.kernels.tile_assignment import assign_rows

        field = self.field
        assert field is not None
        tiles = self.pool.tiles
        if self._fixed_tiles is None:
            code = self.solver._code
            fixed_counts = self.pool.fixed_counts
            self._fixed_tiles = np.zeros((len(fixed_counts), max(int(fixed_counts.max(initial=0)), 1)), np.int64)
            for letter, indices in tiles.fixed.items():
                self._fixed_tiles[code[letter], : len(indices)] = indices
        joker_mask, joker_tile = (int(self.pool.flex_masks[0]), tiles.flex[0][0]) if self._one_joker else (0, -1)
        out = np.empty((len(rows), max(field.codes.shape[1], 1)), np.int64)
        placed = assign_rows(field.codes, self._field_lengths, rows, jokers, self._fixed_tiles, self.pool.fixed_counts,
                             joker_mask, joker_tile, out)
        return placed.astype(bool), out

    def _field_move(self, row: int, jokers: int) -> WordMove | None:
        """Field row ``row`` with exactly ``jokers`` jokers on concrete tiles (None: the tiles do not allow it)."""
        key = (row, jokers)
        if key not in self._field_moves:
            word = self._words[self.n_table + row]
            found = assign_words([word], self.pool.tiles, [jokers], self.work)
            self._field_moves[key] = self.solver._word(word, found[0], jokers) if found else None
        return self._field_moves[key]

    def order(self, objective: Objective) -> list[int]:
        """Sequence rows best first by ``objective``, then the other of gain/taken, then word, parts, part indices."""
        gain = self.score - self.own
        first, second = (-gain, -self.taken) if objective == "gain" else (-(gain + self.taken), -gain)
        order = np.lexsort((second, first))
        tied = (first[order][1:] == first[order][:-1]) & (second[order][1:] == second[order][:-1])
        out = order.tolist()
        if tied.any():  # equal numbers: by word, parts, part indices (strings only for the tied rows)
            ends = np.flatnonzero(np.diff(np.concatenate(([0], tied.view(np.int8), [0]))))
            for a, b in zip(ends[::2].tolist(), ends[1::2].tolist()):
                run = out[a : b + 1]
                out[a : b + 1] = sorted(run, key=lambda i: (*self._word_and_parts(i), self._parts[i]))
        return out

    def _word_and_parts(self, i: int) -> tuple[str, tuple[str, ...]]:
        found = self._spelled.get(i)
        if found is None:
            words = self._words
            parts = tuple([words[p] for p in self._parts[i]])
            found = self._spelled[i] = ("".join(parts), parts)
        return found

    def prepare(self, rows: list[int], budget: SearchBudget | None = None) -> None:
        """Lay the field words of sequence rows ``rows`` on tiles, all at once (the common cases in a kernel); the rest
        one by one, until ``budget`` runs out (:meth:`move` lays any left)."""
        if self.field is None:
            return
        row_of, jokers_of = self.field_row.tolist(), self.field_jokers.tolist()
        wanted = sorted({(row_of[i], jokers_of[i]) for i in rows if row_of[i] >= 0} - self._field_moves.keys())
        fast = [(f, j) for f, j in wanted if j == 0 or (j == 1 and self._one_joker)]
        # in chunks, the clock read between them under a time budget (all at once, 1,449 field words took 190 ms at
        # load 9, past a 1,000 ms budget's deadline)
        step = len(fast) if budget is None or budget.deadline is None else _PREPARE_CHUNK
        for at in range(0, len(fast), max(step, 1)):
            if at and budget is not None and budget.spent():
                return  # move() lays any compound built from the rows left (the build reads the clock too)
            chunk = fast[at: at + step]
            fast_rows = np.array([f for f, _ in chunk], np.int64)
            placed, out = self._assign(fast_rows, np.array([j for _, j in chunk], np.int64))
            lengths = self._field_lengths[fast_rows].tolist()
            for (f, j), ok, assigned, n in zip(chunk, placed.tolist(), out.tolist(), lengths):
                if ok:
                    self._field_moves[f, j] = self._word_move(f, tuple(assigned[:n]), j)
        for f, j in wanted:
            if budget is not None and (budget.charge(self.work[0]) and budget.spent()):
                break
            self.work[0] = 0
            self._field_move(f, j)  # the rest: the assignment search

    def _word_move(self, row: int, tiles: tuple[int, ...], jokers: int) -> WordMove:
        p = self.n_table + row
        return self.solver._word(self._words[p], tiles, jokers, self._part_letters[p])

    def move(self, i: int) -> CompoundMove:
        """The compound of sequence row ``i`` (its field word laid by :meth:`prepare` or here)."""
        if self._columns is None:
            self._columns = tuple(a.tolist() for a in (self.field_row, self.field_jokers, self.level, self.jokers, self.letters,
                                                        self.bonus, self.multiplier, self.score))
        rows, field_jokers, level, jokers, letters, bonus, multiplier, score = self._columns
        word, words = self._word_and_parts(i)
        n_table = self.n_table
        table_idx = tuple([p for p in self._parts[i] if p < n_table])
        owners, values = self.owners, self.values
        if len(table_idx) == 1:
            lost: tuple[tuple[int, int], ...] = ((owners[table_idx[0]], values[table_idx[0]]),)
        else:
            by_owner: dict[int, int] = {}
            for p in table_idx:
                by_owner[owners[p]] = by_owner.get(owners[p], 0) + values[p]
            lost = tuple(sorted(by_owner.items()))
        field_move = None
        row = rows[i]
        if row >= 0:
            field_move = self._field_move(row, field_jokers[i])  # laid by prepare, or here
            assert field_move is not None  # the word search laid it with these jokers, or the check above did
        return CompoundMove(word, words, table_idx, field_move, level[i], jokers[i], letters[i], bonus[i], multiplier[i],
                            score[i], lost, self.position.mover)


def _decode_rows(letters: str, table: WordTable) -> list[str]:
    """The words of a word table with codes, decoded all at once (row ``i``: ``codes[i, :lengths[i]]``)."""
    width = table.codes.shape[1]
    chars = np.array([*letters, ""], dtype="<U1")  # the last: blank padding, dropped by numpy's str
    codes = np.where(np.arange(width)[None, :] < table.lengths[:, None], table.codes, len(letters))
    return chars[codes].view(f"<U{width}").ravel().tolist()


def _check_position(position: Any) -> None:
    """Refuse (:class:`PositionError`) anything but a :class:`KubagramPosition`."""
    if not isinstance(position, KubagramPosition):
        raise PositionError(f"position must be a KubagramPosition, e.g. KubagramPosition.from_letters('kroegentoch'), "
                            f"got {type(position).__name__}")


def _value(c: CompoundMove, objective: Objective) -> int:
    return c.gain + (c.taken if objective == "swing" else 0)


def _topsum(solver: KubagramSolver, fixed: np.ndarray, pool: _Pool, flex: tuple[int, ...]) -> np.ndarray:
    values: list[int] = np.repeat(solver.values, fixed).tolist()
    for f in flex:
        mask = int(pool.flex_masks[f])
        values.append(max(int(solver.values[c]) for c in range(len(solver.values)) if (mask >> c) & 1))
    out = np.zeros(len(values) + 1, np.int64)
    out[1:] = np.cumsum(sorted(values, reverse=True))
    return out


_SOLVERS: dict[tuple[int, KubagramRules], KubagramSolver] = {}


_MAX_SOLVERS = 32
"""Solvers kept by :func:`solver_for` (each keeps per-thread output arrays): a process asked for many rule sets (an
engine, a fuzzer) keeps the most recent ones instead of growing without bound."""


def solver_for(lexicon: Lexicon, rules: KubagramRules | None = None) -> KubagramSolver:
    """The cached solver for (lexicon, rules) (the :data:`_MAX_SOLVERS` most recently used are kept)."""
    if rules is not None and not isinstance(rules, KubagramRules):
        raise RulesError(f"rules must be a KubagramRules (or None: the defaults), got {type(rules).__name__}")
    if not isinstance(lexicon, Lexicon):
        raise LexiconError(f"lexicon must be a Lexicon, e.g. kubasolve.load_lexicon('nl'), got {type(lexicon).__name__}")
    rules = rules or KubagramRules()
    key = (id(lexicon), rules)
    solver = _SOLVERS.pop(key, None)
    if solver is None or solver.lexicon is not lexicon:
        solver = KubagramSolver(lexicon, rules)
        while len(_SOLVERS) >= _MAX_SOLVERS:
            del _SOLVERS[next(iter(_SOLVERS))]
    _SOLVERS[key] = solver  # most recent last
    return solver


def best_words(position: KubagramPosition, lexicon: Lexicon, rules: KubagramRules | None = None, top: int | None = None,
               budget: Budget | SearchBudget | None = None) -> list[WordMove]:
    """Words formable from the field, best first (see :meth:`KubagramSolver.best_words`; ``budget``: a
    :class:`~kubasolve.budget.Budget`, or its :class:`SearchBudget` meter to read ``nodes``/``exhausted`` afterwards)."""
    return solver_for(lexicon, rules).best_words(position, top, budget)


def compound_moves(position: KubagramPosition, lexicon: Lexicon, rules: KubagramRules | None = None, top: int | None = None,
                   objective: Objective = "gain", budget: Budget | SearchBudget | None = None) -> list[CompoundMove]:
    """Compound moves, best first (see :meth:`KubagramSolver.compound_moves`; ``budget``: :class:`SearchBudget`)."""
    return solver_for(lexicon, rules).compound_moves(position, top, objective, budget)


def best_move(position: KubagramPosition, lexicon: Lexicon, rules: KubagramRules | None = None, objective: Objective = "gain",
              max_words: int | None = None, budget: Budget | SearchBudget | None = None) -> Claim:
    """The best whole claim (see :meth:`KubagramSolver.best_move`; ``budget``: :class:`SearchBudget`)."""
    return solver_for(lexicon, rules).best_move(position, objective, max_words, budget)
