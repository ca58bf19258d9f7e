"""Colonii move generation: every legal move for a hand and a table, and the best combined turn.

:class:`ColoniiSolver` prepares a lexicon and a rule set once and answers many positions. All moves
come from one kernel, the Kubagram pool word search (``kernels/word_search.search_words``) started
at a trie node: at the root for new words, at a table word's node for its extensions, at the node
of a group's last letter for perpendicular (chained) words. The results stay in flat arrays
(:class:`MoveTable`) until a caller asks for :class:`~kubasolve.games.colonii.table.ColoniiMove`
objects; ``best_turn`` searches them exactly (``kernels/colonii_search.best_turn``), or within a
:class:`TurnBudget` (the best turn found by then, ``proven_optimal`` false if it ran out).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from kubasolve.budget import Budget, WorkBudget, meter_for
from kubasolve.errors import PositionError, RulesError
from kubasolve.games.colonii.rules import ColoniiRules
from kubasolve.games.colonii.table import ColoniiMove, ColoniiPosition, MoveKind, judge
from kubasolve.lexicon import Lexicon

Objective = Literal["gain", "swing"]
"""``gain``: the mover's own score change (ties: more taken from others); ``swing``: gain plus taken."""

KINDS = (MoveKind.NEW, MoveKind.EXTEND, MoveKind.CONQUEST_A, MoveKind.COLONY_START, MoveKind.CONQUEST_B, MoveKind.COLONY_ADD)
KIND_CODE = {k: i for i, k in enumerate(KINDS)}
_TIE = np.int64(1) << np.int64(24)
_NO_BONUS = 255  # word_search length bonus starts beyond any word: colonii has none
_UNLIMITED = 1 << 62


class TurnBudget(WorkBudget):
    """A work budget for one request (a ``best_turn``, or an AI turn that makes several), shared by its searches.

    ``max_nodes`` caps the best-turn search nodes in all (a node: one move tested against the cards left),
    ``movetime_ms`` the wall time from the budget's creation. The kernel runs in slices of at most
    :attr:`SLICE_NODES` nodes when there is a deadline, and the clock is read between slices. Move
    generation and sorting (every legal move of the position, before the search) are not cut: a few
    milliseconds for a 10-card hand, 0.2-0.3 s for 30 cards (500,000 moves). ``exhausted``: a search ran out (its turn is the best found,
    not proven best); ``nodes``: what was spent. A node budget alone is deterministic.
    """

    SLICE_NODES = 1 << 20
    """Nodes between two clock reads: measured 60-500 million nodes/s, so a slice takes about 2-20 ms."""

    def node_limit(self) -> int:
        """Nodes the next kernel call may enter (0, and exhausted, once the budget is spent)."""
        limit = self.nodes_left()
        if self.deadline is not None:
            limit = min(limit, self.SLICE_NODES) if time.perf_counter() < self.deadline else 0
        return self._checked(limit)


@dataclass(frozen=True)
class MoveTable:
    """All legal moves of a position as parallel arrays (one row a move), in generation order.

    ``kind`` indexes :data:`KINDS`; ``target`` is the group (-1 for a new word); ``cards``/``n_cards``
    the letter codes taken from the hand; ``gain`` the mover's score change; ``other`` the one other
    player whose score changes (-1 if none) by ``other_delta``; ``on_other`` marks moves on another
    player's group (legal only with an own group on the table, or after a new word in the same turn).
    """

    kind: np.ndarray
    target: np.ndarray
    word_id: np.ndarray
    cards: np.ndarray
    n_cards: np.ndarray
    gain: np.ndarray
    other: np.ndarray
    other_delta: np.ndarray
    on_other: np.ndarray

    def __len__(self) -> int:
        return int(self.kind.shape[0])

    def taken(self) -> np.ndarray:
        return np.where(self.other_delta < 0, -self.other_delta, 0)

    def keys(self, objective: Objective) -> np.ndarray:
        """Integer ranking key per move: the objective first, then the other of gain/taken."""
        taken = self.taken()
        if objective == "gain":
            return self.gain * _TIE + taken
        return (self.gain + taken) * _TIE + self.gain

    def select(self, mask: np.ndarray) -> MoveTable:
        return MoveTable(*(getattr(self, f)[mask] for f in self.__dataclass_fields__))


def _concat(parts: list[MoveTable], width: int) -> MoveTable:
    if not parts:
        z = np.zeros(0, np.int64)
        return MoveTable(z.astype(np.int8), z.astype(np.int32), z.astype(np.int32), np.zeros((0, width), np.uint8),
                         z.astype(np.int16), z, z.astype(np.int16), z, z.astype(np.bool_))
    cards = [np.pad(p.cards, ((0, 0), (0, width - p.cards.shape[1]))) for p in parts]
    fields = {f: np.concatenate([getattr(p, f) for p in parts]) for f in MoveTable.__dataclass_fields__ if f != "cards"}
    return MoveTable(cards=np.concatenate(cards), **fields)


@dataclass(frozen=True)
class Turn:
    """A combined turn: moves on disjoint cards, applied in this order (new words first)."""

    moves: tuple[ColoniiMove, ...] = ()
    proven_optimal: bool = field(default=True, compare=False)
    """False when a budget cut the search: the best turn found by then (always legal)."""

    @property
    def gain(self) -> int:
        return sum(m.gain for m in self.moves)

    @property
    def taken(self) -> int:
        return sum(m.taken for m in self.moves)

    @property
    def cards(self) -> str:
        return "".join(m.cards for m in self.moves)

    def to_dict(self) -> dict[str, object]:
        return {"gain": self.gain, "taken": self.taken, "cards": self.cards, "moves": [m.to_dict() for m in self.moves],
                "proven_optimal": self.proven_optimal}


class ColoniiSolver:
    """Move generator for one lexicon and one rule set."""

    def __init__(self, lexicon: Lexicon, rules: ColoniiRules | None = None) -> None:
        rules = rules or ColoniiRules()
        if lexicon.alphabet.letters != rules.alphabet:
            raise RulesError(f"the rules' alphabet {rules.alphabet!r} differs from the lexicon's {lexicon.alphabet.letters!r}")
        self.lexicon = lexicon
        self.rules = rules
        self.arrays = lexicon.compiled.in_memory()
        self.root = (0, int(self.arrays.first_edge[1]))
        self.values = np.array([rules.letter_values[c] for c in rules.alphabet], np.int64)
        self._code = {c: i for i, c in enumerate(rules.alphabet)}
        self._capacity = 4096
        self._no_flex = np.zeros(0, np.int64)
        self._no_joker = np.zeros(0, np.int8)
        self._warm = False

    def warm_up(self) -> None:
        """Do the one-time work of a first search (the kernels' load from the numba cache) by a small best turn, once
        per solver: engines call it before a time budget starts, so the budget goes to the search itself."""
        if not self._warm:
            self.best_turn(ColoniiPosition((), self.rules.alphabet[:6], 0, 2), max_moves=self.rules.max_turn_moves)
            self._warm = True

    # ------------------------------------------------------------------ kernel calls
    def _hand_counts(self, hand: str) -> np.ndarray:
        counts = np.zeros(len(self.rules.alphabet), np.int64)
        for c in hand:
            counts[self._code[c]] += 1
        return counts

    def _search(self, lo: int, hi: int, counts: np.ndarray, min_added: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(relative ranks, added lengths, added values, added letter codes) below a start node."""
        from kubasolve.kernels.word_search import search_words

        topsum = np.zeros(1, np.int64)
        while True:
            ranks, lengths, _jok, scores, codes, complete = search_words(
                self.arrays.search_edges, self.arrays.edge_rank, lo, hi, counts, self._no_flex, self._no_joker,
                min_added, 255, self.values, _NO_BONUS, 0, 1, 0, topsum, self._capacity, True,
            )
            if complete:
                return ranks, lengths, scores, codes
            self._capacity *= 4

    def _walk(self, words: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        from kubasolve.kernels.colonii_search import walk_prefixes

        lengths = [len(w) for w in words]
        offsets = np.zeros(len(words) + 1, np.int64)
        offsets[1:] = np.cumsum(lengths)
        codes = np.fromiter((self._code[c] for w in words for c in w), np.int64, count=int(offsets[-1]))
        return walk_prefixes(self.arrays.search_edges, self.arrays.edge_rank, self.root[0], self.root[1], codes, offsets)

    # ------------------------------------------------------------------ all moves
    def move_table(self, position: ColoniiPosition, legal_only: bool = True) -> MoveTable:
        """Every move of the position as arrays; ``legal_only=False`` keeps moves on other players'
        groups even without an own group (the best-turn search allows them after a new word)."""
        rules = self.rules
        position.validate(rules)
        if not position.hand:
            return _concat([], 1)
        counts = self._hand_counts(position.hand)
        mover = position.mover
        rank_word = self.arrays.rank_word
        parts: list[MoveTable] = []

        def part(kind: np.ndarray, target: int, ranks: np.ndarray, codes: np.ndarray, lengths: np.ndarray, gain: np.ndarray,
                 other: int, other_delta: np.ndarray | int, on_other: bool) -> None:
            n = ranks.shape[0]
            if n == 0:
                return
            parts.append(MoveTable(
                kind.astype(np.int8), np.full(n, target, np.int32), rank_word[ranks].astype(np.int32), codes,
                lengths.astype(np.int16), gain.astype(np.int64), np.full(n, other, np.int16),
                np.broadcast_to(np.asarray(other_delta, np.int64), (n,)).copy(), np.full(n, on_other, np.bool_)))

        # new words: from the root
        ranks, lengths, scores, codes = self._search(self.root[0], self.root[1], counts, rules.min_word_length)
        part(np.full(len(ranks), KIND_CODE[MoveKind.NEW]), -1, ranks, codes, lengths, scores, -1, 0, False)
        table = position.table
        if not table:
            return _concat(parts, 1 if not parts else max(p.cards.shape[1] for p in parts))
        has_own = position.has_own()
        singles = [i for i, g in enumerate(table) if not g.is_colony]
        ext = self._walk([table[i].words[0] for i in singles])
        letters = sorted({g.last[-1] for g in table})
        chain_nodes = dict(zip(letters, zip(*self._walk(letters))))
        chain_cache: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}
        for k, i in enumerate(singles):
            g = table[i]
            on_other = g.owner != mover
            if on_other and legal_only and not has_own:
                continue
            lo, hi, base_rank = int(ext[0][k]), int(ext[1][k]), int(ext[2][k])
            if lo >= 0:
                min_added = max(1, rules.min_word_length - len(g.words[0]))
                ranks, lengths, scores, codes = self._search(lo, hi, counts, min_added)
                ranks = ranks + base_rank
                if on_other and not g.protected:
                    conquers = scores > rules.value(g.words[0])
                    kind = np.where(conquers, KIND_CODE[MoveKind.CONQUEST_A], KIND_CODE[MoveKind.EXTEND])
                    part(kind, i, ranks, codes, lengths, scores + np.where(conquers, g.stake, 0), g.owner,
                         np.where(conquers, -g.stake, 0), True)
                else:
                    part(np.full(len(ranks), KIND_CODE[MoveKind.EXTEND]), i, ranks, codes, lengths, scores, -1, 0, on_other)
        for i, g in enumerate(table):
            on_other = g.owner != mover
            if on_other and legal_only and not has_own:
                continue
            if not g.is_colony and on_other and g.protected:
                continue
            letter = g.last[-1]
            if letter not in chain_cache:
                lo, hi, base_rank = (int(x) for x in chain_nodes[letter])
                if lo < 0:
                    chain_cache[letter] = (np.zeros(0, np.int64),) * 2 + (np.zeros(0, np.int64), np.zeros((0, 1), np.uint8))
                else:
                    ranks, lengths, scores, codes = self._search(lo, hi, counts, max(1, rules.min_word_length - 1))
                    chain_cache[letter] = (ranks + base_rank, lengths, scores, codes)
            ranks, lengths, scores, codes = chain_cache[letter]
            if not len(ranks):
                continue
            ids = self.arrays.rank_word[ranks]
            keep = np.ones(len(ranks), np.bool_)
            for w in g.words:  # words in a colony are unique
                wid = self.lexicon.word_id(w)
                if wid >= 0:
                    keep &= ids != wid
            if not g.is_colony:
                if on_other:
                    keep &= scores > rules.value(g.last)
                    chain_kind, stake = KIND_CODE[MoveKind.CONQUEST_B], g.stake
                else:
                    chain_kind, stake = KIND_CODE[MoveKind.COLONY_START], 0
                part(np.full(int(keep.sum()), chain_kind), i, ranks[keep], codes[keep], lengths[keep], scores[keep] + stake,
                     g.owner if on_other else -1, -stake, on_other)
                continue
            size = len(g.words) + 1
            bonus = rules.supercolony_bonus if size == rules.supercolony_words and not g.supercolony else 0
            if size == rules.decolonisation_words:
                bonus += rules.value(g.words[0])
            if on_other:
                part(np.full(int(keep.sum()), KIND_CODE[MoveKind.COLONY_ADD]), i, ranks[keep], codes[keep], lengths[keep],
                     scores[keep], g.owner if bonus else -1, bonus, True)
            else:
                part(np.full(int(keep.sum()), KIND_CODE[MoveKind.COLONY_ADD]), i, ranks[keep], codes[keep], lengths[keep],
                     scores[keep] + bonus, -1, 0, False)
        return _concat(parts, max(p.cards.shape[1] for p in parts) if parts else 1)

    def moves(self, table: MoveTable, position: ColoniiPosition, rows: np.ndarray | list[int] | None = None) -> list[ColoniiMove]:
        """Rows of a move table as :class:`ColoniiMove` objects (all rows by default)."""
        idx = range(len(table)) if rows is None else rows
        out = []
        n, mover = position.n_players, position.mover
        letters = self.rules.alphabet
        for r in idx:
            kind = KINDS[int(table.kind[r])]
            target = int(table.target[r])
            deltas = [0] * n
            deltas[mover] += int(table.gain[r])
            if table.other[r] >= 0:
                deltas[int(table.other[r])] += int(table.other_delta[r])
            cards = "".join(letters[int(c)] for c in table.cards[r, : int(table.n_cards[r])])
            out.append(ColoniiMove(kind, None if target < 0 else target, self.lexicon.word(int(table.word_id[r])), cards,
                                   int(table.gain[r]), tuple(deltas), mover))
        return out

    def all_moves(self, position: ColoniiPosition, objective: Objective = "gain", top: int | None = None) -> list[ColoniiMove]:
        """Every legal move, best first by ``objective`` (ties: table order of generation, i.e. new
        words first, then by target; within one search, alphabet order)."""
        if top is not None and top < 1:
            raise PositionError("top must be at least 1")
        table = self.move_table(position)
        order = np.argsort(-table.keys(objective), kind="stable")
        if top:
            order = order[:top]
        return self.moves(table, position, order)

    # ------------------------------------------------------------------ best turn
    def best_turn(self, position: ColoniiPosition, objective: Objective = "gain", max_moves: int | None = None,
                  budget: Budget | TurnBudget | None = None, value_bound: bool = True) -> Turn:
        """The best combined turn: up to ``max_moves`` (default the rules' ``max_turn_moves``, at
        most 3) moves on disjoint cards and distinct table groups, maximising the summed objective.
        Exact: every such set is covered by the kernel's branch-and-bound. With a ``budget`` (a
        :class:`~kubasolve.budget.Budget`, its clock started after :meth:`warm_up`; or a :class:`TurnBudget` meter,
        whose ``nodes`` say what was spent) that runs out, the best turn found by then (at least the best legal
        single move) with ``proven_optimal`` false. ``value_bound=False`` turns off the kernel's card-value bound
        (for tests: same answer)."""
        from kubasolve.kernels.colonii_search import best_turn, keep_useful, pack_cards

        budget = meter_for(budget, TurnBudget, self.warm_up)

        limit = self.rules.max_turn_moves if max_moves is None else max_moves
        if not 1 <= limit <= 3:
            raise PositionError("max_moves must be 1, 2 or 3")
        table = self.move_table(position, legal_only=False)
        if not len(table):
            return Turn()
        keys = table.keys(objective)
        order = np.argsort(-keys, kind="stable")
        order = order[keys[order] > 0]
        if not len(order):
            return Turn()
        sub = table.select(order)
        packed = pack_cards(sub.cards, sub.n_cards)
        # the 3 best moves with distinct targets per card multiset suffice for a turn of <= 3 moves
        grouping = np.lexsort((np.arange(len(order)), sub.on_other, packed[:, 3], packed[:, 2], packed[:, 1], packed[:, 0]))
        useful = keep_useful(grouping, packed, sub.target.astype(np.int64), sub.on_other, limit)
        order, sub, packed = order[useful], sub.select(useful), packed[useful]
        hand = pack_cards(np.array([[self._code[c] for c in position.hand]], np.uint8), np.array([len(position.hand)], np.int64))[0]
        is_new = sub.kind == KIND_CODE[MoveKind.NEW]
        sorted_keys = keys[order]
        targets = sub.target.astype(np.int64)
        card_key, hand_card_key, extra_bound = self._value_bound(sub, sorted_keys, position.hand, value_bound)
        state = np.zeros(4, np.int64)
        sel = np.full(3, -1, np.int64)
        finished = False
        while not finished:
            nodes = _UNLIMITED if budget is None else budget.node_limit()
            if nodes == 0:
                break
            spent, finished = best_turn(sorted_keys, packed, targets, sub.on_other, is_new, hand, position.has_own(), limit,
                                        card_key, hand_card_key, extra_bound, state, sel, nodes)
            if budget is not None:
                budget.nodes += int(spent)
        legal_single = np.flatnonzero(~sub.on_other) if not position.has_own() else np.arange(1)
        if not finished and len(legal_single) and sorted_keys[legal_single[0]] > state[3]:
            sel[:] = (legal_single[0], -1, -1)  # nothing better found yet: the best single move
        rows = [int(s) for s in sel if s >= 0]
        if not rows:
            return Turn(proven_optimal=finished)
        rows.sort(key=lambda r: (0 if is_new[r] else 1, r))  # new words first: they make the others legal
        return Turn(tuple(self.moves(sub, position, rows)), proven_optimal=finished)

    def _value_bound(self, sub: MoveTable, keys: np.ndarray, hand: str, enabled: bool) -> tuple[np.ndarray, int, np.ndarray]:
        """The kernel's card-value bound: per move the part of its key owed to its cards (letter values
        times the tie factor: every objective counts the cards' values once in its leading term), the
        hand's total, and for ``s`` = 0..3 moves the largest sum of the rest (stakes, bonuses, tie terms):
        the largest such extra per table group (moves in a turn have distinct groups), new words' largest
        as often as wanted. ``enabled=False``: a bound that prunes nothing."""
        from kubasolve.kernels.colonii_search import card_values

        card_key = card_values(sub.cards, sub.n_cards, self.values) * _TIE
        extra = keys - card_key
        if not enabled or not len(keys) or extra.min() < 0:
            return card_key, _UNLIMITED, np.zeros(4, np.int64)
        hand_card_key = int(sum(self.rules.letter_values[c] for c in hand) * _TIE)
        on_group = sub.target >= 0
        per_group = np.zeros(int(sub.target.max()) + 1 if on_group.any() else 0, np.int64)
        np.maximum.at(per_group, sub.target[on_group], extra[on_group])
        new_best = int(extra[~on_group].max()) if (~on_group).any() else 0
        candidates = sorted([int(x) for x in per_group] + [new_best] * 3, reverse=True)
        extra_bound = np.zeros(4, np.int64)
        for s in range(1, 4):
            extra_bound[s] = max(extra_bound[s - 1], extra_bound[s - 1] + candidates[s - 1] if s <= len(candidates) else 0)
        return card_key, hand_card_key, extra_bound

    def check(self, position: ColoniiPosition, move: ColoniiMove) -> ColoniiMove:
        """Re-judge a generated move with the rule statement (:func:`judge`); raises if they disagree."""
        judged = judge(position, move.play, move.target, move.word, self.rules, self.lexicon)
        if judged.kind != move.kind or judged.deltas != move.deltas or judged.cards != move.cards:
            raise AssertionError(f"movegen and judge disagree on {move} vs {judged}")
        return judged


_SOLVERS: dict[tuple[int, ColoniiRules], ColoniiSolver] = {}


def solver_for(lexicon: Lexicon, rules: ColoniiRules | None = None) -> ColoniiSolver:
    """The cached solver for (lexicon, rules)."""
    rules = rules or ColoniiRules()
    key = (id(lexicon), rules)
    solver = _SOLVERS.get(key)
    if solver is None or solver.lexicon is not lexicon:
        solver = _SOLVERS[key] = ColoniiSolver(lexicon, rules)
    return solver


def all_moves(position: ColoniiPosition, lexicon: Lexicon, rules: ColoniiRules | None = None, objective: Objective = "gain",
              top: int | None = None) -> list[ColoniiMove]:
    """Every legal move, best first (see :meth:`ColoniiSolver.all_moves`)."""
    return solver_for(lexicon, rules).all_moves(position, objective, top)


def best_turn(position: ColoniiPosition, lexicon: Lexicon, rules: ColoniiRules | None = None, objective: Objective = "gain",
              max_moves: int | None = None, budget: Budget | TurnBudget | None = None) -> Turn:
    """The best combined turn (see :meth:`ColoniiSolver.best_turn`)."""
    return solver_for(lexicon, rules).best_turn(position, objective, max_moves, budget)


__all__ = ["KINDS", "ColoniiSolver", "MoveTable", "Objective", "Turn", "TurnBudget", "all_moves", "best_turn", "solver_for"]
