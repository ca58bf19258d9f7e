"""Slow, obviously correct colonii move generation: try every lexicon word as every play on every target.

Used by the tests (hypothesis compares it with :class:`~kubasolve.games.colonii.movegen.ColoniiSolver`)
and by ``kubasolve bench colonii`` as the same-run baseline. Every candidate goes through
:func:`~kubasolve.games.colonii.table.judge`, the single statement of the rules.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations

from kubasolve.errors import IllegalMoveError
from kubasolve.games.colonii.rules import ColoniiRules
from kubasolve.games.colonii.table import (
    ColoniiMove,
    ColoniiPosition,
    Group,
    MoveKind,
    judge,
)
from kubasolve.lexicon import Lexicon


def reference_moves(position: ColoniiPosition, lexicon: Lexicon, rules: ColoniiRules, assume_own: bool = False) -> list[ColoniiMove]:
    """Every legal move; ``assume_own`` judges as if the mover owned a group (a new word built first)."""
    pos = position
    if assume_own and not position.has_own():
        pos = ColoniiPosition(position.table + (Group(("\0",), position.mover),), position.hand, position.mover, position.n_players)
    hand = Counter(position.hand)
    out = []
    for word in lexicon:
        candidates: list[tuple[str, int | None]] = [("new", None)]
        for i in range(len(position.table)):
            candidates += [("extend", i), ("chain", i)]
        for play, target in candidates:
            cards = word if play == "new" else word[1:]  # quick reject only; judge decides
            if play == "chain" and Counter(cards) - hand:
                continue
            try:
                out.append(judge(pos, play, target, word, rules, lexicon))
            except IllegalMoveError:
                continue
    return out


def scan_moves(position: ColoniiPosition, lexicon: Lexicon, rules: ColoniiRules) -> list[ColoniiMove]:
    """Every legal move by a straightforward scan, fast enough for the real lexicon (the benchmark
    baseline): candidate words from the letter-count matrix (new words) or a marisa prefix listing
    (extensions, chained words), kept when their cards fit the hand, then judged one by one."""
    import numpy as np

    code = {c: i for i, c in enumerate(rules.alphabet)}
    hand = np.zeros(len(rules.alphabet), np.int64)
    for c in position.hand:
        hand[code[c]] += 1
    counts = lexicon.compiled.word_counts
    out: list[ColoniiMove] = []

    def judge_all(ids: np.ndarray, play: str, target: int | None) -> None:
        for wid in ids:
            try:
                out.append(judge(position, play, target, lexicon.word(int(wid)), rules, lexicon))
            except IllegalMoveError:
                continue

    fits = np.all(counts <= hand, axis=1) & (lexicon.compiled.word_length >= rules.min_word_length)
    judge_all(np.nonzero(fits)[0], "new", None)

    def prefixed(prefix: str) -> np.ndarray:
        ids = np.array([i for _, i in lexicon.trie.items(prefix)], np.int64)
        if not len(ids):
            return ids
        need = counts[ids].astype(np.int64)
        for c in prefix:
            need[:, code[c]] -= 1
        return ids[np.all(need <= hand, axis=1)]

    for i, g in enumerate(position.table):
        if not g.is_colony:
            judge_all(prefixed(g.words[0]), "extend", i)
        judge_all(prefixed(g.last[-1]), "chain", i)
    return out


def turn_key(moves: tuple[ColoniiMove, ...] | list[ColoniiMove], objective: str = "gain") -> tuple[int, int]:
    gain = sum(m.gain for m in moves)
    taken = sum(m.taken for m in moves)
    return (gain, taken) if objective == "gain" else (gain + taken, gain)


def reference_best_turn(position: ColoniiPosition, lexicon: Lexicon, rules: ColoniiRules, objective: str = "gain",
                        max_moves: int = 3) -> tuple[int, int]:
    """Key (objective, tie-break) of the best set of up to ``max_moves`` moves on disjoint cards and
    distinct targets, by trying every set; moves on others count only with an own group or a new word."""
    moves = [m for m in reference_moves(position, lexicon, rules, assume_own=True) if turn_key([m], objective) > (0, 0)]
    hand = Counter(position.hand)
    has_own = position.has_own()
    best = (0, 0)
    for k in range(1, max_moves + 1):
        for combo in combinations(moves, k):
            targets = [m.target for m in combo if m.target is not None]
            if len(set(targets)) < len(targets):
                continue
            if Counter("".join(m.cards for m in combo)) - hand:
                continue
            if not has_own and any(m.target is not None and position.table[m.target].owner != position.mover for m in combo) \
                    and not any(m.kind is MoveKind.NEW for m in combo):
                continue
            best = max(best, turn_key(combo, objective))
    return best


__all__ = ["reference_best_turn", "reference_moves", "scan_moves", "turn_key"]
