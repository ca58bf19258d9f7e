"""Slow, obviously correct Kubagram references: scan every word, try every joker/choice assignment."""

from __future__ import annotations

import itertools
from collections import Counter

from kubasolve.games.kubagram.position import KubagramPosition
from kubasolve.games.kubagram.rules import KubagramRules


def flex_assignments(position: KubagramPosition):
    """Every way to give each choice tile one of its letters or leave it unused: (letters, jokers used)."""
    flex = [t for t in position.tiles if not t.fixed]
    options = [[None, *t.options] for t in flex]
    for combo in itertools.product(*options):
        used = Counter(c for c in combo if c is not None)
        jokers = sum(1 for t, c in zip(flex, combo) if c is not None and t.joker)
        yield used, jokers


def max_jokers(word: str, position: KubagramPosition) -> int | None:
    """Most jokers any assignment of distinct tiles to the letters of ``word`` can use; None if unformable."""
    need = Counter(word)
    fixed = Counter(t.letters[0] for t in position.tiles if t.fixed)
    best = None
    for used, jokers in flex_assignments(position):
        if all(used[c] <= need[c] for c in used) and all(need[c] - used[c] <= fixed[c] for c in need):
            best = jokers if best is None else max(best, jokers)
    return best


def reference_words(words, position: KubagramPosition, rules: KubagramRules) -> list[tuple[str, int, int]]:
    """(word, jokers, score) for every formable word, best first, ties by word."""
    min_len = rules.min_word_length(position.last_cube)
    showable = {c for t in position.tiles for c in t.letters}
    out = []
    for w in words:
        if len(w) < min_len or len(w) > len(position.tiles) or not set(w) <= showable:
            continue
        j = max_jokers(w, position)
        if j is not None:
            out.append((w, j, rules.word_score(w, j)))
    out.sort(key=lambda t: (-t[2], t[0]))
    return out


def reference_compounds(words: set[str], position: KubagramPosition, rules: KubagramRules) -> set[tuple[str, tuple[str, ...]]]:
    """(compound, parts) for every sequence of >= 2 distinct table words plus at most one field word (a table word
    claimed this turn, ``fresh``, is no part)."""
    table = [w.word for w in position.table if not w.fresh]
    use_field = rules.compound_with_field_words or position.last_cube
    field = [w for w, _, _ in reference_words(sorted(words), position, rules)] if use_field else []
    out = set()
    for n in range(1, len(table) + 1):
        for idx in itertools.permutations(range(len(table)), n):
            parts = [table[i] for i in idx]
            if n >= 2 and "".join(parts) in words:
                out.add(("".join(parts), tuple(parts)))
            for f in field:
                for pos in range(n + 1):
                    seq = parts[:pos] + [f] + parts[pos:]
                    if "".join(seq) in words:
                        out.add(("".join(seq), tuple(seq)))
    return out


def claim_feasible(field_words: list[str], jokers: list[int], position: KubagramPosition) -> bool:
    """Can these words be spelled from distinct tiles, word i using exactly jokers[i] jokers?"""
    tiles = list(position.tiles)
    letters = [(i, c) for i, w in enumerate(field_words) for c in w]

    def rec(p: int, used: frozenset, jok: tuple) -> bool:
        if p == len(letters):
            return list(jok) == list(jokers)
        i, c = letters[p]
        for k, t in enumerate(tiles):
            if k in used or c not in t.letters:
                continue
            nj = list(jok)
            if t.joker:
                nj[i] += 1
                if nj[i] > jokers[i]:
                    continue
            if rec(p + 1, used | {k}, tuple(nj)):
                return True
        return False

    return rec(0, frozenset(), tuple(0 for _ in field_words))
