"""Slow, obviously correct colonii move generation: try every lexicon word as every play on every target.

Used by the tests (hypothesis compares it with :class:`~kubasolve.games.colonii.movegen.ColoniiSolver`)
and by ``kubasolve bench colonii`` as the same-run baseline. Every candidate goes through
:func:`~kubasolve.games.colonii.table.judge`, the single statement of the rules.
"""

from __future__ import annotations

from collections import Counter

from kubasolve.errors import IllegalMoveError
from kubasolve.games.colonii.rules import ColoniiRules
from kubasolve.games.colonii.table import (
    OWNER_PLAYS,
    ColoniiMove,
    ColoniiPosition,
    Group,
    apply_move,
    cards_of,
    judge,
    remove_cards,
)
from kubasolve.lexicon import Lexicon


def reference_moves(position: ColoniiPosition, lexicon: Lexicon, rules: ColoniiRules) -> list[ColoniiMove]:
    """Every legal move: every lexicon word as every play on every target, and the owner's ``declare`` and
    ``decolonise`` on every group, each kept when :func:`judge` accepts it."""
    hand = Counter(position.hand)
    out = []
    for word in lexicon:
        candidates: list[tuple[str, int | None]] = [("new", None)]
        for i in range(len(position.table)):
            candidates += [("extend", i), ("chain", i)]
        for play, target in candidates:
            group = None if target is None else position.table[target]
            if play == "extend" and group is not None and not word.startswith(group.words[0]):
                continue  # quick reject only; judge decides
            if Counter(cards_of(play, group, word)) - hand:
                continue  # the same card check judge makes
            try:
                out.append(judge(position, play, target, word, rules, lexicon))
            except IllegalMoveError:
                continue
    for target in range(len(position.table)):
        for play in OWNER_PLAYS:
            try:
                out.append(judge(position, play, target, "", rules, lexicon))
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
    """Key (objective, tie-break) of the best turn, by trying every legal sequence of moves as the referee
    plays a turn: each move is any move :func:`reference_moves` finds on the table the previous ones left,
    at most ``max_moves`` of them words (the owner's actions any number of times the rules allow).
    Keys add up over a sequence, so the best continuation of a (table, hand, words left) is computed once."""
    memo: dict[tuple[tuple[Group, ...], str, int], tuple[int, int]] = {}

    def best_from(table: tuple[Group, ...], hand: str, words_left: int) -> tuple[int, int]:
        key = (table, "".join(sorted(hand)), words_left)
        if key in memo:
            return memo[key]
        best = (0, 0)
        pos = ColoniiPosition(table, hand, position.mover, position.n_players)
        for move in reference_moves(pos, lexicon, rules):
            builds = move.kind.builds
            if builds and not words_left:
                continue
            rest = best_from(apply_move(table, move, rules), remove_cards(hand, move.cards), words_left - builds)
            here = turn_key([move], objective)
            best = max(best, (here[0] + rest[0], here[1] + rest[1]))
        memo[key] = best
        return best

    return best_from(position.table, position.hand, max_moves)


__all__ = ["reference_best_turn", "reference_moves", "scan_moves", "turn_key"]
