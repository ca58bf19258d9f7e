"""Baselines the Kubagram search is measured against, in the same benchmark run.

* :func:`python_trie_best` — the textbook pure-Python trie DFS: at each letter use a fixed tile or
  any unused flex tile (path branching), over the same CSR trie turned into Python lists.
* :func:`count_scan_words` — the numba full-lexicon count scan (``kernels/count_scan.py``).
"""

from __future__ import annotations

import numpy as np

from kubasolve.games.kubagram.movegen import KubagramSolver
from kubasolve.games.kubagram.position import KubagramPosition
from kubasolve.lexicon.layout import LETTER_BITS, LETTER_MASK


class PythonTrie:
    """The compiled trie as Python lists, for a pure-Python DFS."""

    def __init__(self, solver: KubagramSolver) -> None:
        arrays = solver.lexicon.compiled
        self.first_edge = arrays.first_edge.tolist()
        self.children = [(e & LETTER_MASK, e >> LETTER_BITS) for e in arrays.edges.tolist()]
        self.terminal = (arrays.node_word >= 0).tolist()
        self.solver = solver


def python_trie_best(pt: PythonTrie, position: KubagramPosition) -> int:
    """Best word score by plain recursive DFS in Python (path branching over flex tiles)."""
    solver = pt.solver
    rules = solver.rules
    code = {c: i for i, c in enumerate(rules.alphabet)}
    fixed = [0] * len(rules.alphabet)
    flex: list[tuple[set[int], bool]] = []
    for t in position.tiles:
        if t.fixed:
            fixed[code[t.letters[0]]] += 1
        else:
            flex.append(({code[c] for c in t.letters}, t.joker))
    values = solver.values.tolist()
    used = [False] * len(flex)
    min_len = rules.min_word_length(position.last_cube)
    best = 0
    first_edge, children, terminal = pt.first_edge, pt.children, pt.terminal

    def dfs(node: int, depth: int, lsum: int, jokers: int) -> None:
        nonlocal best
        if depth >= min_len and terminal[node]:
            score = (lsum + rules.length_bonus(depth)) * rules.joker_factor**jokers
            if score > best:
                best = score
        for e in range(first_edge[node], first_edge[node + 1]):
            c, child = children[e]
            if fixed[c]:
                fixed[c] -= 1
                dfs(child, depth + 1, lsum + values[c], jokers)
                fixed[c] += 1
            for k, (letters, is_joker) in enumerate(flex):
                if not used[k] and c in letters:
                    used[k] = True
                    dfs(child, depth + 1, lsum + values[c], jokers + is_joker)
                    used[k] = False

    dfs(0, 0, 0, 0)
    return best


def count_scan_words(solver: KubagramSolver, position: KubagramPosition) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All words by the numba full-lexicon count scan: (word ids, jokers, scores)."""
    from kubasolve.kernels.count_scan import count_scan

    pool = solver._pool(position)
    r = solver.rules
    arrays = solver.arrays
    return count_scan(
        arrays.word_counts, arrays.word_length, pool.fixed_counts, pool.flex_masks, pool.flex_joker,
        r.min_word_length(position.last_cube), solver.values, r.bonus_from, r.bonus_step, r.joker_factor,
    )
