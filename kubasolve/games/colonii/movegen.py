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

import itertools
import time
from dataclasses import dataclass, field
from typing import Literal

import numpy as np

from kubasolve.budget import Budget, WorkBudget, meter_for
from kubasolve.errors import PositionError, RulesError
from kubasolve.games.arguments import check_gain_objective, check_top
from kubasolve.games.colonii.rules import MAX_TURN_MOVES, SEARCH_MOVES, ColoniiRules
from kubasolve.games.colonii.table import (
    ColoniiMove,
    ColoniiPosition,
    MoveKind,
    apply_move,
    judge,
    judge_owner_play,
    owner_actions,
    remove_cards,
)
from kubasolve.lexicon import Lexicon

Objective = Literal["gain", "swing"]
"""``gain``: the mover's own score change (ties: more taken from others); ``swing``: gain plus taken."""

KINDS = (MoveKind.NEW, MoveKind.EXTEND, MoveKind.CONQUEST_A, MoveKind.COLONY_START, MoveKind.CONQUEST_B, MoveKind.COLONY_ADD)
KIND_CODE = {k: i for i, k in enumerate(KINDS)}
_TIE = np.int64(1) << np.int64(24)
_NO_BONUS = 255  # word_search length bonus starts beyond any word: colonii has none
_UNLIMITED = 1 << 62
_PLAN_NS_PER_ROOT = 1000
"""What preparing the best-turn search costs per move of the table, after the move table (follow-up words, the roots'
bounds, sorting): measured 1.5-2.2 µs (360,000 moves of a rich 30-card hand: 0.55-0.8 s, load 2-2.4); a time budget
that cannot pay for it at this rate answers the best single move at once."""
ChainWords = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""Words chained from one letter: (absolute ranks, added lengths, added card values, added letter codes)."""


class TurnBudget(WorkBudget):
    """A work budget for one request (a ``best_turn``, or an AI turn that makes several), shared by its searches.

    ``max_nodes`` caps the best-turn searches' nodes in all, ``movetime_ms`` the wall time from the budget's creation.
    Nodes: the kernel's (one move tested against the cards left), and the search's preparation (follow-up words,
    the roots' bounds, sorting) at one node per move of the move table, charged before it starts. The kernel runs
    in slices of at most :attr:`SLICE_NODES` nodes when there is a deadline, and the clock is read between slices.
    Move generation (every legal move of the position, before the search) is not cut: a few milliseconds for a
    10-card hand, 0.05-0.2 s for 30 cards (360,000-500,000 moves); the preparation after it is skipped (the best
    single move answered) when the nodes left cannot pay for it and one search node, or the time left cannot pay
    for it, and it reads the clock between its steps. ``exhausted``: a search ran out (its turn is the best found,
    not proven best); ``nodes``: what was spent (never more than ``max_nodes``). A node budget alone is
    deterministic.
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


def _check_position(position: object) -> None:
    """PositionError unless ``position`` is a :class:`ColoniiPosition`."""
    if not isinstance(position, ColoniiPosition):
        raise PositionError(f"position must be a ColoniiPosition (ColoniiPosition.from_dict reads JSON), got {position!r}")


def move_key(move: ColoniiMove, objective: Objective) -> int:
    """A move's integer ranking key (as :meth:`MoveTable.keys`): the objective first, then the other of gain/taken."""
    tie = int(_TIE)
    return move.gain * tie + move.taken if objective == "gain" else (move.gain + move.taken) * tie + move.gain


def _first_of_class(columns: np.ndarray, per_class: int) -> np.ndarray:
    """Keep mask: of the rows with equal ``columns`` (an int64 matrix), the first ``per_class`` in row order."""
    n = columns.shape[0]
    if n == 0:
        return np.zeros(0, np.bool_)
    order = np.lexsort((np.arange(n),) + tuple(columns[:, c] for c in range(columns.shape[1] - 1, -1, -1)))
    ordered = columns[order]
    new_class = np.ones(n, np.bool_)
    new_class[1:] = (ordered[1:] != ordered[:-1]).any(axis=1)
    starts = np.flatnonzero(new_class)
    rank = np.arange(n) - starts[np.cumsum(new_class) - 1]
    keep = np.zeros(n, np.bool_)
    keep[order] = rank < per_class
    return keep


def _extra_bound(extra: np.ndarray, is_new: np.ndarray, target: np.ndarray) -> np.ndarray:
    """For ``s`` = 0..3 programs, the largest sum of their roots' extras (what a root's bound holds beyond
    its cards): the largest extra per table group (a turn's roots have distinct groups), new words' largest
    as often as wanted."""
    on_group = ~is_new
    per_group = np.zeros(int(target.max()) + 1 if on_group.any() else 0, np.int64)
    np.maximum.at(per_group, target[on_group], extra[on_group])
    new = extra[is_new]
    new_best = int(new.max()) if len(new) else 0
    candidates = sorted(per_group.tolist() + [new_best] * SEARCH_MOVES, reverse=True)
    out = np.zeros(SEARCH_MOVES + 1, np.int64)
    for s in range(1, SEARCH_MOVES + 1):
        out[s] = out[s - 1] + (candidates[s - 1] if s <= len(candidates) else 0)
    return out


def _suffix_max(values: np.ndarray) -> np.ndarray:
    return np.maximum.accumulate(values[::-1])[::-1] if len(values) else values


@dataclass(frozen=True)
class _TurnPlan:
    """The best-turn search's input for one position (``args``: the kernel's arrays before its work arrays,
    see ``kernels/colonii_search.best_turn``), and what the replay needs: the move table the roots come
    from (``root_rows``: each root's row), the chained words' and extensions' word ids."""

    args: tuple[object, ...]
    roots: MoveTable
    root_rows: np.ndarray
    r_it: np.ndarray
    c_word: np.ndarray
    e_y: np.ndarray
    has_own: bool


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
    def _chain_words(self, counts: np.ndarray, letters: list[str], cache: dict[str, ChainWords]) -> None:
        """Fill ``cache[letter]`` for each letter: every word starting with it whose other letters come from the
        hand (absolute ranks, added lengths, added values, added letter codes), best found once per letter."""
        todo = [c for c in letters if c not in cache]
        if not todo:
            return
        for letter, lo, hi, base_rank in zip(todo, *self._walk(todo)):
            if lo < 0:
                cache[letter] = (np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((0, 1), np.uint8))
            else:
                ranks, lengths, scores, codes = self._search(int(lo), int(hi), counts, max(1, self.rules.min_word_length - 1))
                cache[letter] = (ranks + int(base_rank), lengths, scores, codes)

    def move_table(self, position: ColoniiPosition, legal_only: bool = True, chain_cache: dict[str, ChainWords] | None = None,
                   validate: bool = True) -> MoveTable:
        """Every word move of the position as arrays; ``legal_only=False`` keeps moves on other players'
        groups even without an own group (the best-turn search allows them after a new word).
        ``chain_cache`` receives the chained words searched per letter (see :meth:`_chain_words`);
        ``validate=False`` skips the position's check (a caller that made it)."""
        rules = self.rules
        if validate:
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
        chains = chain_cache if chain_cache is not None else {}
        self._chain_words(counts, sorted({g.last[-1] for g in table}), chains)
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
            ranks, lengths, scores, codes = chains[g.last[-1]]
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
            part(np.full(int(keep.sum()), KIND_CODE[MoveKind.COLONY_ADD]), i, ranks[keep], codes[keep], lengths[keep],
                 scores[keep], -1, 0, on_other)
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

    def owner_moves(self, position: ColoniiPosition) -> list[ColoniiMove]:
        """The owner's actions open to the mover now (``declare``, ``decolonise``), judged."""
        return [judge_owner_play(position, play, target, self.rules) for play, target in owner_actions(position, self.rules)]

    def count_moves(self, position: ColoniiPosition) -> int:
        """How many legal moves the position has (word moves and the owner's actions)."""
        return len(self.move_table(position)) + len(owner_actions(position, self.rules))

    def all_moves(self, position: ColoniiPosition, objective: Objective = "gain", top: int | None = None) -> list[ColoniiMove]:
        """Every legal move, best first by ``objective``: the word moves and the owner's declarations and
        decolonisations (ties: the owner's actions first, then the order of generation, i.e. new words,
        then by target; within one search, alphabet order)."""
        _check_position(position)
        check_gain_objective(objective)
        check_top(top)
        table = self.move_table(position)
        owner = self.owner_moves(position)
        keys = np.concatenate([np.array([move_key(m, objective) for m in owner], np.int64), table.keys(objective)])
        order = np.argsort(-keys, kind="stable")
        if top:
            order = order[:top]
        words = iter(self.moves(table, position, [int(r) - len(owner) for r in order if r >= len(owner)]))
        return [owner[r] if r < len(owner) else next(words) for r in order]

    # ------------------------------------------------------------------ best turn
    def best_turn(self, position: ColoniiPosition, objective: Objective = "gain", max_moves: int | None = None,
                  budget: Budget | TurnBudget | None = None, value_bound: bool = True) -> Turn:
        """The best turn: a sequence of up to ``max_moves`` word moves (default the rules'
        ``max_turn_moves``), each judged on the table the previous ones left, as the referee judges a
        turn, with the owner's declarations and decolonisations as soon as they pay, maximising the
        summed objective. Exact for up to 3 word moves (``kernels/colonii_search.best_turn``, see its
        docstring); ``proven_optimal`` is true when the search covered every turn the rules allow (with
        ``max_moves`` above 3 only when the hand holds at most 3 cards: a word move takes at least one).
        With a ``budget`` (a Budget, its clock started after :meth:`warm_up`, or a TurnBudget meter) that runs out, the best turn found by then (at least the best legal single
        move) with ``proven_optimal`` false. ``value_bound=False`` turns off the kernel's card-value
        bound (for tests: same answer)."""
        from kubasolve.kernels import colonii_search as cs

        _check_position(position)
        check_gain_objective(objective)
        budget = meter_for(budget, TurnBudget, self.warm_up)

        limit = self.rules.max_turn_moves if max_moves is None else max_moves
        if not isinstance(limit, int) or isinstance(limit, bool) or not 1 <= limit <= MAX_TURN_MOVES:
            raise PositionError(f"max_moves must be an integer from 1 to {MAX_TURN_MOVES}, got {limit!r}")
        position.validate(self.rules)
        complete = min(limit, len(position.hand)) <= SEARCH_MOVES
        prefix, pos = self._owner_prefix(position)
        depth = min(limit, SEARCH_MOVES)
        plan = self._plan(pos, objective, depth, value_bound, budget)
        if plan is None:
            return Turn(tuple(prefix), proven_optimal=complete)
        if isinstance(plan, MoveTable):  # the budget ran out while the search was prepared: the best single move
            return Turn(tuple(prefix + self._best_single(pos, plan, objective)), proven_optimal=False)
        st = np.zeros((depth + 1, cs.S_COLS), np.int64)
        hs = np.zeros((depth + 1, 4), np.uint64)
        fr = np.zeros((depth, 4), np.int64)
        path = np.full((depth, 2), -1, np.int64)
        ctl = np.zeros(3, np.int64)
        sel = np.full((3, 2), -1, np.int64)
        finished = False
        while not finished:
            nodes = _UNLIMITED if budget is None else budget.node_limit()
            if nodes == 0:
                break
            spent, finished = cs.best_turn(*plan.args, st, hs, fr, path, ctl, sel, nodes)  # type: ignore[call-arg]
            if budget is not None:
                budget.nodes += int(spent)
        best = int(ctl[cs.C_BEST])
        if not finished:  # nothing better found yet: the best legal single move
            r_it = plan.r_it
            alone = np.flatnonzero((r_it[:, cs.R_ON_OTHER] == 0) | plan.has_own)
            if len(alone):
                single = int(alone[np.argmax(r_it[alone, cs.R_GKEY])])
                if r_it[single, cs.R_GKEY] > best:
                    best = int(r_it[single, cs.R_GKEY])
                    sel[:] = -1
                    sel[0] = (cs.I_ROOT, single)
        moves = self._replay(pos, plan, sel) if sel[0, 0] >= 0 else []
        found = sum(move_key(m, objective) for m in moves)
        if moves and found != best:
            raise AssertionError(f"best-turn search and referee disagree: key {best} vs {found} for {moves}")
        return Turn(tuple(prefix + moves), proven_optimal=finished and complete)

    def _paying_owner_actions(self, position: ColoniiPosition) -> list[tuple[str, int]]:
        """The owner's actions open now, less a declaration worth nothing (``supercolony_bonus`` 0). A
        decolonisation is always made: it adds the first word's value and leaves more moves (the word it
        leaves can be extended, and colony words that left play may be chained again)."""
        return [(play, t) for play, t in owner_actions(position, self.rules) if play != "declare" or self.rules.supercolony_bonus]

    def owner_turn(self, position: ColoniiPosition) -> list[ColoniiMove]:
        """The owner's actions that score at the start of the mover's turn (declarations, then decolonisations),
        judged: every best turn begins with them."""
        return self._owner_prefix(position)[0]

    def _owner_prefix(self, position: ColoniiPosition) -> tuple[list[ColoniiMove], ColoniiPosition]:
        """The owner's actions open at the start of the turn (they only add points and options), made first."""
        moves: list[ColoniiMove] = []
        pos = position
        for play, target in self._paying_owner_actions(position):
            move = judge_owner_play(pos, play, target, self.rules)
            moves.append(move)
            pos = ColoniiPosition(apply_move(pos.table, move, self.rules), pos.hand, pos.mover, pos.n_players)
        return moves, pos

    def _best_single(self, pos: ColoniiPosition, roots: MoveTable, objective: Objective) -> list[ColoniiMove]:
        """The best legal single word move of a move table (``legal_only=False``: a move on another player's group
        is legal with an own group on the table), judged, with the owner's actions on its group that then pay (as
        :meth:`_replay` plays them); empty when no word move is legal. The owner's actions (a declaration, a
        decolonisation) are the same for every move of one kind on one group, so the best move of each (group, kind) is
        judged and the best of them in all answered (ties: the first in the table). Only chained words (a colony
        started, conquered or grown) open them, and the table holds those in runs of one kind on one group: the best
        move of the table and the best of each such run are judged."""
        legal = np.flatnonzero((roots.on_other == 0) | pos.has_own())
        if not len(legal):
            return []
        keys = roots.keys(objective)
        rows = {int(legal[np.argmax(keys[legal])])}  # the first of the best, as the search's fallback
        kind = roots.kind[legal]
        chained = legal[np.isin(kind, [KIND_CODE[k] for k in (MoveKind.COLONY_START, MoveKind.CONQUEST_B, MoveKind.COLONY_ADD)])]
        if len(chained):
            cls = roots.target[chained].astype(np.int64) * len(KINDS) + roots.kind[chained]
            starts = np.flatnonzero(np.concatenate([[True], cls[1:] != cls[:-1]])).tolist()
            for lo, hi in itertools.pairwise([*starts, len(chained)]):
                run = chained[lo:hi]
                rows.add(int(run[np.argmax(keys[run])]))
        best: tuple[int, int, list[ColoniiMove]] | None = None
        for row in sorted(rows):
            moves = self._single_with_owner(pos, roots, row)
            total = sum(move_key(m, objective) for m in moves)
            if best is None or total > best[0]:
                best = (total, row, moves)
        assert best is not None
        return best[2]

    def _single_with_owner(self, pos: ColoniiPosition, roots: MoveTable, row: int) -> list[ColoniiMove]:
        """Row ``row`` of a move table judged, with the owner's actions on its group that then pay."""
        kind, target = KINDS[int(roots.kind[row])], int(roots.target[row])
        move = judge(pos, kind.play, None if target < 0 else target, self.lexicon.word(int(roots.word_id[row])),
                     self.rules, self.lexicon)
        out = [move]
        table, hand = apply_move(pos.table, move, self.rules), remove_cards(pos.hand, move.cards)
        where = len(pos.table) if target < 0 else target
        for owner_play, group in self._paying_owner_actions(ColoniiPosition(table, hand, pos.mover, pos.n_players)):
            if group == where:
                owner = judge(ColoniiPosition(table, hand, pos.mover, pos.n_players), owner_play, group, "", self.rules,
                              self.lexicon)
                table, hand = apply_move(table, owner, self.rules), remove_cards(hand, owner.cards)
                out.append(owner)
        return out

    def _plan(self, pos: ColoniiPosition, objective: Objective, depth: int, value_bound: bool,
              budget: TurnBudget | None = None) -> _TurnPlan | MoveTable | None:
        """The search's input for a position (see ``kernels/colonii_search.best_turn``); None without any move. With a
        ``budget``, the preparation is charged a node per move of the table first (skipped when the nodes left cannot pay
        for it and a search node), and the clock is read between the steps (the follow-up words and the roots' bounds
        of a rich 30-card hand took 1-2.4 s, load 2-4): once it is spent, the move table alone (the caller answers its
        best move)."""
        from kubasolve.kernels import colonii_search as cs
        from kubasolve.kernels.colonii_search import pack_cards

        rules = self.rules
        table = pos.table
        a, b = (int(_TIE), 1) if objective == "gain" else (int(_TIE) + 1, int(_TIE))
        chains: dict[str, ChainWords] = {}
        roots = self.move_table(pos, legal_only=False, chain_cache=chains, validate=False)
        if not len(roots):
            return None

        def spent() -> bool:
            return budget is not None and budget.out_of_time()

        if budget is not None and budget.deadline is not None and not budget.exhausted:
            left_ms = (budget.deadline - time.perf_counter()) * 1e3
            if len(roots) * _PLAN_NS_PER_ROOT / 1e6 > left_ms:  # the time left cannot pay for the rest of the plan
                budget.exhausted = True
        if budget is not None and not budget.exhausted and len(roots) >= budget.nodes_left():
            budget.exhausted = True  # the nodes left cannot pay for the preparation and a search node
        if spent():
            return roots
        if budget is not None:
            budget.nodes += len(roots)  # the preparation: a node per move of the table (see TurnBudget)
        gw_off = np.zeros(len(table) + 1, np.int64)
        gw_off[1:] = np.cumsum([len(g.words) for g in table])
        gw_ids = np.array([self.lexicon.word_id(w) for g in table for w in g.words], np.int64)
        n_letters = len(rules.alphabet)
        # follow-ups: the chained words of every letter, and the extensions a decolonisation allows
        c_off = np.zeros(n_letters + 1, np.int64)
        chain = ext = None
        if depth > 1:
            # a word move adds cards at the word's end, so a follow-up starts with a letter of the hand
            letters = sorted(set(pos.hand))
            self._chain_words(self._hand_counts(pos.hand), letters, chains)
            if spent():
                return roots
            chain = self._chain_items({c: chains[c] for c in letters}, a, gw_ids)
            if spent():
                return roots
            c_off[1:] = np.cumsum(np.bincount(chain["first"], minlength=n_letters))
            ext = self._extension_items(pos, roots, depth, a)
        fb1 = np.zeros(n_letters, np.int64)  # best chained word's card key per first letter
        fb2 = np.zeros(n_letters, np.int64)  # best two chained words from it
        if chain is not None and len(chain["ck"]):
            starts = c_off[:-1][c_off[:-1] < c_off[1:]]
            fb1[chain["first"][starts]] = chain["ck"][starts]
            two = chain["ck"] + fb1[chain["last"]]
            np.maximum.at(fb2, chain["first"], two)
            sq1 = two.copy()
            for lo, hi in itertools.pairwise(c_off):
                sq1[lo:hi] = _suffix_max(two[lo:hi])
            chain["sq1"] = sq1
        ext_best = np.zeros(len(table) + 1, np.int64)
        if ext is not None:
            np.maximum.at(ext_best, ext["group"], ext["ck"])
        chain_best = np.where(c_off[1:] > c_off[:-1], fb1 // a, -1)  # best chained word's card value, -1: none
        if spent():
            return roots
        r = self._root_items(pos, roots, depth, a, b, ext_best, chain_best)
        keep = r.pop("keep")
        rows = np.flatnonzero(keep)
        r = {k: v[keep] for k, v in r.items()}
        extra = r["ub"] - r["ck"]  # roots in runs of equal extra (stakes, bonuses), largest first; by bound in a run
        order = np.lexsort((np.arange(len(extra)), -r["ub"], -extra))
        r = {k: v[order] for k, v in r.items()}
        rows = rows[order]
        r_it = r["it"]
        follows = r_it[:, cs.R_MODE] != cs.M_NONE
        letter = r_it[:, cs.R_LAST]
        with_ext = ext_best[np.where(r_it[:, cs.R_TARGET] >= 0, r_it[:, cs.R_TARGET], len(table))] > 0
        hand_card_key: int = _UNLIMITED
        extra_bound = np.zeros(SEARCH_MOVES + 1, np.int64)
        if value_bound:
            hand_card_key = int(sum(rules.letter_values[c] for c in pos.hand)) * a
            extra_bound = _extra_bound(r["ub"] - r["ck"], r_it[:, cs.R_NEW] != 0, r_it[:, cs.R_TARGET])
        # a program's bound: its root's, plus the best one or two chained words of its last letter, which use
        # cards the root left (the extensions a decolonisation allows are in the root's potential)
        left = np.maximum(hand_card_key - r["ck"], 0)
        pb1 = r["ub"] + np.where(follows, np.minimum(fb1[letter], left), 0)
        two = np.where(with_ext, max(int(fb2.max()), 2 * int(fb1.max())), fb2[letter])
        pb2 = np.maximum(r["ub"] + np.where(follows, np.minimum(two, left), 0), pb1)
        z = np.zeros(0, np.int64)
        zp = np.zeros((0, 4), np.uint64)
        chain = chain or {"val": z, "ck": z, "packed": zp, "word": z, "last": z, "wval": z, "sq1": z}
        if ext is None:
            ext = {"group": z, "ck": z, "packed": zp, "x": z, "y": z, "req": z, "last": z, "wval": z}
        e_off = np.zeros(len(table) + 1, np.int64)
        e_off[1:] = np.cumsum(np.bincount(ext["group"], minlength=len(table)))
        params = np.zeros(7, np.int64)
        params[cs.P_S], params[cs.P_SBONUS], params[cs.P_D] = rules.supercolony_words, rules.supercolony_bonus * a, rules.decolonisation_words
        params[cs.P_A], params[cs.P_B], params[cs.P_HAS_OWN], params[cs.P_MOVES] = a, b, pos.has_own(), depth
        run_extra, run_size = np.unique(r["ub"] - r["ck"], return_counts=True)
        run_extra, run_size = run_extra[::-1].copy(), run_size[::-1]
        run_start = np.concatenate([[0], np.cumsum(run_size)]).astype(np.int64)
        hand_packed = pack_cards(np.array([[self._code[c] for c in pos.hand]], np.uint8), np.array([len(pos.hand)], np.int64))[0]
        r_it[:, cs.R_CK] = r["ck"]
        r_it[:, cs.R_SU] = _suffix_max(r["ub"])
        r_it[:, cs.R_PB1] = _suffix_max(pb1)
        r_it[:, cs.R_PB2] = _suffix_max(pb2)
        c_it = np.column_stack([chain[k] for k in ("val", "word", "last", "wval", "sq1")]).astype(np.int64)
        e_it = np.column_stack([ext[k] for k in ("ck", "x", "y", "req", "last", "wval")]).astype(np.int64)
        args = (r["ub"], r_it, r["packed"], run_start, run_extra, c_off, chain["ck"], c_it.reshape(-1, cs.C_COLS),
                chain["packed"], e_off, e_it.reshape(-1, cs.E_COLS), ext["packed"], params, gw_off, gw_ids, hand_packed,
                hand_card_key, extra_bound)
        return _TurnPlan(args, roots, rows, r_it, chain["word"], ext["y"], pos.has_own())

    def _root_items(self, pos: ColoniiPosition, roots: MoveTable, depth: int, a: int, b: int,
                    ext_best: np.ndarray, chain_best: np.ndarray) -> dict[str, np.ndarray]:
        """Per move of the table: the root columns (its key, the state its program goes on from, its
        potential: what the program's follow-ups may add beyond their cards), bound, card key, packed
        cards, and ``keep`` (a bound above 0 or follow-ups possible; three new words per anagram class)."""
        from kubasolve.kernels import colonii_search as cs
        from kubasolve.kernels.colonii_search import card_values, pack_cards

        rules, table = self.rules, pos.table
        n = len(roots)
        kind = roots.kind.astype(np.int64)
        target = roots.target.astype(np.int64)
        tg = np.where(target < 0, len(table), target)
        g_first = np.array([rules.value(g.words[0]) for g in table] + [0], np.int64)
        g_last = np.array([rules.letter_values[g.last[-1]] for g in table] + [0], np.int64)
        g_size = np.array([len(g.words) for g in table] + [0], np.int64)
        g_decl = np.array([g.supercolony for g in table] + [False], np.int64)
        g_stake = np.array([g.stake for g in table] + [0], np.int64)
        g_prot = np.array([g.protected for g in table] + [False], np.bool_)
        card_val = card_values(roots.cards, roots.n_cards, self.values)
        last = roots.cards[np.arange(n), roots.n_cards.astype(np.int64) - 1].astype(np.int64)
        is_new = kind == KIND_CODE[MoveKind.NEW]
        extends = (kind == KIND_CODE[MoveKind.EXTEND]) | (kind == KIND_CODE[MoveKind.CONQUEST_A])
        starts = (kind == KIND_CODE[MoveKind.COLONY_START]) | (kind == KIND_CODE[MoveKind.CONQUEST_B])
        adds = kind == KIND_CODE[MoveKind.COLONY_ADD]
        on_other = roots.on_other.astype(np.bool_)
        word_val = np.where(is_new, card_val, np.where(extends, g_first[tg] + card_val, g_last[tg] + card_val))
        gkey = roots.gain * a + roots.taken() * b
        plain = (kind == KIND_CODE[MoveKind.EXTEND]) & on_other
        mode = np.where(is_new | (extends & ~plain), cs.M_OWN, cs.M_NONE)
        mode = np.where(plain & ~g_prot[tg], cs.M_OTHER, mode)
        mode = np.where(starts | (adds & ~on_other), cs.M_COLONY, mode)
        mode = np.where(adds & on_other, cs.M_THEIRS, mode)
        size = np.where(starts, 2, np.where(adds, g_size[tg] + 1, 1))
        decl = np.where(adds, g_decl[tg], 0)
        firstv = np.where(starts | adds, g_first[tg], word_val)
        exg = np.where(starts | adds, target, -1)
        own_add = adds & ~on_other
        declares = own_add & (decl == 0) & (size >= rules.supercolony_words)
        gkey = gkey + declares * rules.supercolony_bonus * a
        decl = np.where(declares, 1, decl)
        decolonises = own_add & (size >= rules.decolonisation_words)
        gkey = gkey + np.where(decolonises, firstv * a, 0)
        mode = np.where(decolonises, cs.M_OWN, mode)
        firstv = np.where(decolonises, word_val, firstv)
        exg = np.where(decolonises, -1, exg)
        it = np.zeros((n, cs.R_COLS), np.int64)
        it[:, cs.R_NEW] = is_new
        it[:, cs.R_TARGET] = target
        it[:, cs.R_ON_OTHER] = on_other
        it[:, cs.R_GKEY] = gkey
        it[:, cs.R_LAST] = last
        it[:, cs.R_WORD] = roots.word_id
        it[:, cs.R_MODE] = mode
        it[:, cs.R_SIZE] = size
        it[:, cs.R_DECL] = decl
        it[:, cs.R_FIRSTV] = firstv
        it[:, cs.R_STAKE] = np.where(mode == cs.M_OTHER, g_stake[tg], 0)
        it[:, cs.R_EXG] = exg
        it[:, cs.R_DECOL] = decolonises
        pot = self._potential(it, depth - 1, a, b, chain_best) + np.where(depth > 1, ext_best[tg], 0)
        it[:, cs.R_POT] = pot
        ub = gkey + pot
        packed = pack_cards(roots.cards, roots.n_cards.astype(np.int64))  # int64 lengths at every call: one compilation
        keep = (ub > 0) | ((depth > 1) & (mode != cs.M_NONE))
        keep &= _first_of_class(np.column_stack([packed.view(np.int64), last, np.where(is_new, -1, np.arange(n))]), 3)
        return {"it": it, "ub": ub, "ck": card_val * a, "packed": packed, "keep": keep}

    def _potential(self, it: np.ndarray, more: int, a: int, b: int, chain_best: np.ndarray) -> np.ndarray:
        """Per root, the most its program's further ``more`` moves can add beyond their cards: the stake of
        a conquest B after an extension of another player's word (if a chained word of its last letter is
        worth more than the word: ``chain_best``, the best chained word's card value per first letter, -1 if
        none), the supercolony and decolonisation bonuses of a colony that reaches their sizes (if any word
        chains)."""
        from kubasolve.kernels import colonii_search as cs

        rules = self.rules
        if more < 1:
            return np.zeros(len(it), np.int64)
        mode, size, decl, firstv = it[:, cs.R_MODE], it[:, cs.R_SIZE], it[:, cs.R_DECL], it[:, cs.R_FIRSTV]
        single = (mode == cs.M_OWN) | (mode == cs.M_OTHER)
        colony = mode == cs.M_COLONY
        best_next = chain_best[it[:, cs.R_LAST]]
        pot = np.where((mode == cs.M_OTHER) & (best_next > firstv), it[:, cs.R_STAKE] * (a + b), 0)
        reach = np.where(best_next >= 0, np.where(single, 1 + more, size + more), 0)  # words after ``more`` chained words
        pot += np.where((single | (colony & (decl == 0))) & (reach >= rules.supercolony_words), rules.supercolony_bonus * a, 0)
        # a decolonisation doubles the first word; an individual word's first word may still grow by one extension
        hand_bound = int(self.values.max()) * 30
        pot += np.where((single | colony) & (reach >= rules.decolonisation_words), (firstv + np.where(single, hand_bound, 0)) * a, 0)
        return pot

    def _chain_items(self, chains: dict[str, ChainWords], a: int, table_words: np.ndarray) -> dict[str, np.ndarray]:
        """Every word chained from every letter that the hand allows, grouped by first letter, best card key
        first (of the words with the same first letter, cards and last letter, three, and any table word)."""
        from kubasolve.kernels.colonii_search import pack_cards

        cols: dict[str, list[np.ndarray]] = {k: [] for k in ("first", "val", "word", "last", "wval", "packed")}
        for letter, (ranks, lengths, scores, codes) in chains.items():
            m = len(ranks)
            if not m:
                continue
            cols["first"].append(np.full(m, self._code[letter], np.int64))
            cols["val"].append(scores.astype(np.int64))
            cols["word"].append(self.arrays.rank_word[ranks].astype(np.int64))
            cols["last"].append(codes[np.arange(m), lengths - 1].astype(np.int64))
            cols["wval"].append(scores + self.rules.letter_values[letter])
            cols["packed"].append(pack_cards(codes, lengths.astype(np.int64)))
        if not cols["first"]:
            z = np.zeros(0, np.int64)
            return {"first": z, "val": z, "ck": z, "word": z, "last": z, "wval": z, "sq1": z, "packed": np.zeros((0, 4), np.uint64)}
        c = {k: np.concatenate(v) for k, v in cols.items()}
        keep = _first_of_class(np.column_stack([c["packed"].view(np.int64), c["first"], c["last"]]), 3)
        if len(table_words):
            keep |= np.isin(c["word"], table_words)
        c = {k: v[keep] for k, v in c.items()}
        order = np.lexsort((-c["val"], c["first"]))
        c = {k: v[order] for k, v in c.items()}
        c["ck"] = c["val"] * a
        return c

    def _extension_items(self, pos: ColoniiPosition, roots: MoveTable, depth: int, a: int) -> dict[str, np.ndarray] | None:
        """Extensions that a decolonisation in the turn makes possible and no chained word gives: of the word it
        leaves (x, just chained) into a word y that left play with it (a chained word y is refused while y
        is in the colony; any other extension of x is the chained word itself). Only for the mover's colonies
        one or two words short of ``decolonisation_words``; grouped by colony."""
        from kubasolve.kernels.colonii_search import pack_cards

        rules, lex = self.rules, self.lexicon
        found: dict[tuple[int, str, str, str], None] = {}
        for g_index, g in enumerate(pos.table):
            short = rules.decolonisation_words - len(g.words)
            if g.owner != pos.mover or not g.is_colony or not 1 <= short <= depth - 1:
                continue
            candidates = [(y, "") for y in g.words]
            if short == 2 and depth >= 3:  # y: the colony addition made just before x, starting and ending with x's letter
                for row in np.flatnonzero((roots.target == g_index) & (roots.kind == KIND_CODE[MoveKind.COLONY_ADD])):
                    word = lex.word(int(roots.word_id[row]))
                    if word[0] == word[-1]:
                        candidates.append((word, word))
            for y, req in candidates:
                for cut in range(rules.min_word_length, len(y)):
                    x = y[:cut]
                    if x not in g.words and x in lex:
                        found[(g_index, x, y, req)] = None
        if not found:
            return None
        items = sorted(found)
        m = len(items)
        codes = np.zeros((m, max(len(y) for _, _, y, _ in items)), np.uint8)
        lengths = np.zeros(m, np.int64)
        for r, (_, x, y, _) in enumerate(items):
            codes[r, :len(y) - len(x)] = [self._code[c] for c in y[len(x):]]
            lengths[r] = len(y) - len(x)
        val = np.array([rules.value(y[len(x):]) for _, x, y, _ in items], np.int64)
        return {"group": np.array([g for g, _, _, _ in items], np.int64), "ck": val * a, "packed": pack_cards(codes, lengths),
                "x": np.array([lex.word_id(x) for _, x, _, _ in items], np.int64),
                "y": np.array([lex.word_id(y) for _, _, y, _ in items], np.int64),
                "req": np.array([lex.word_id(req) if req else -1 for _, _, _, req in items], np.int64),
                "last": np.array([self._code[y[-1]] for _, _, y, _ in items], np.int64),
                "wval": np.array([rules.value(y) for _, _, y, _ in items], np.int64)}

    def _replay(self, pos: ColoniiPosition, plan: _TurnPlan, sel: np.ndarray) -> list[ColoniiMove]:
        """The chosen items as the referee's moves: programs with a new word first (they make moves on
        others' groups legal), each program's moves in order, the owner's actions as soon as they pay."""
        from kubasolve.kernels import colonii_search as cs

        rules, lex, r_it = self.rules, self.lexicon, plan.r_it
        programs: list[list[tuple[int, int]]] = []
        for kind, index in sel.tolist():
            if kind == cs.I_ROOT:
                programs.append([(kind, index)])
            elif kind >= 0:
                programs[-1].append((kind, index))
        programs.sort(key=lambda prog: r_it[prog[0][1], cs.R_NEW] == 0)
        table, hand, out = pos.table, pos.hand, []

        def play(kind: str, target: int | None, word: str) -> None:
            nonlocal table, hand
            move = judge(ColoniiPosition(table, hand, pos.mover, pos.n_players), kind, target, word, rules, lex)
            table, hand = apply_move(table, move, rules), remove_cards(hand, move.cards)
            out.append(move)

        for prog in programs:
            root = prog[0][1]
            word = lex.word(int(r_it[root, cs.R_WORD]))
            if r_it[root, cs.R_NEW]:
                target = len(table)
                play("new", None, word)
            else:
                target = int(r_it[root, cs.R_TARGET])
                play(KINDS[int(plan.roots.kind[plan.root_rows[root]])].play, target, word)
            for step in [*prog[1:], None]:
                for owner_play, where in self._paying_owner_actions(ColoniiPosition(table, hand, pos.mover, pos.n_players)):
                    if where == target:
                        play(owner_play, target, "")
                if step is not None:
                    kind, index = step
                    if kind == cs.I_CHAIN:
                        play("chain", target, lex.word(int(plan.c_word[index])))
                    else:
                        play("extend", target, lex.word(int(plan.e_y[index])))
        return out

    def check(self, position: ColoniiPosition, move: ColoniiMove) -> ColoniiMove:
        """Re-judge a generated move with the rule statement (:func:`judge`); raises if they disagree."""
        judged = judge(position, move.play, move.target, move.word, self.rules, self.lexicon)
        if judged.kind != move.kind or judged.deltas != move.deltas or judged.cards != move.cards:
            raise AssertionError(f"movegen and judge disagree on {move} vs {judged}")
        return judged


_SOLVERS: dict[tuple[int, ColoniiRules], ColoniiSolver] = {}


def solver_for(lexicon: Lexicon, rules: ColoniiRules | None = None) -> ColoniiSolver:
    """The cached solver for (lexicon, rules)."""
    if not isinstance(lexicon, Lexicon):
        raise PositionError(f"lexicon must be a Lexicon (kubasolve.load_lexicon(\"ro\")), got {lexicon!r}")
    if rules is not None and not isinstance(rules, ColoniiRules):
        raise PositionError(f"rules must be ColoniiRules, got {rules!r}")
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
