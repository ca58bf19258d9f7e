"""Colonii benchmark scenarios (issue 12 targets: all moves <= 5 ms, best turn <= 20 ms, for a hand
of 10 cards and 20 words on the table, on the bundled Romanian lexicon).

``all-moves`` is compared with ``scan`` (the straightforward count-matrix / prefix-listing scan that
every move then goes through the rule judge, :func:`kubasolve.games.colonii.reference.scan_moves`)
in the same run; ``best-turn`` (exact, up to 3 moves) is reported beside ``all-moves`` it builds on.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

from kubasolve.bench.runner import Scenario, cycle

N_POSITIONS = 12
HAND = 10
TABLE_WORDS = 20


@functools.cache
def positions(n: int = N_POSITIONS, seed: int = 12) -> tuple[Any, Any, list[Any]]:
    """(lexicon, rules, positions): seeded hands of 10 cards from the deck and tables of 20 words
    (individual words of both players and two colonies of 3-4 words each). Built once per process for
    the three scenarios; the word lists a colony's next word is drawn from are listed once per letter."""
    from kubasolve.games.colonii.rules import ColoniiRules
    from kubasolve.games.colonii.table import ColoniiPosition, Group
    from kubasolve.lexicon import load_lexicon

    lex = load_lexicon("ro")
    rules = ColoniiRules()
    rng = random.Random(seed)
    n_words = len(lex)

    starting_with: dict[str, list[str]] = {}

    def some_word(first: str | None = None) -> str:
        while True:
            if first is None:
                w = lex.word(rng.randrange(n_words))
            else:
                if first not in starting_with:
                    starting_with[first] = lex.words_with_prefix(first, limit=2000)
                w = rng.choice(starting_with[first])
            if 3 <= len(w) <= 8:
                return w

    out = []
    for _ in range(n):
        groups = []
        for size in (3, 4):  # two colonies
            chain = [some_word()]
            while len(chain) < size:
                nxt = some_word(chain[-1][-1])
                if nxt not in chain:
                    chain.append(nxt)
            groups.append(Group(tuple(chain), rng.randrange(2)))
        while sum(len(g.words) for g in groups) < TABLE_WORDS:
            w = some_word()
            groups.append(Group((w,), rng.randrange(2), rules.value(w)))
        deck = rules.deck()
        rng.shuffle(deck)
        out.append(ColoniiPosition(tuple(groups), "".join(deck[:HAND]), 0, 2))
    return lex, rules, out


def _solver_setup(method: str) -> Callable[[], Callable[[], object]]:
    def setup() -> Callable[[], object]:
        from kubasolve.games.colonii.movegen import ColoniiSolver

        lex, rules, items = positions()
        solver = ColoniiSolver(lex, rules)
        if method == "all":
            return cycle(items, solver.move_table)
        return cycle(items, solver.best_turn)

    return setup


def _scan_setup() -> Callable[[], object]:
    from kubasolve.games.colonii.reference import scan_moves

    lex, rules, items = positions()
    return cycle(items, lambda p: scan_moves(p, lex, rules))


def scenarios() -> list[Scenario]:
    return [
        Scenario("scan", "colonii-moves", _scan_setup,
                 description="baseline: count-matrix and prefix-listing scan, every candidate judged"),
        Scenario("all-moves", "colonii-moves", _solver_setup("all"), baseline="scan", target_ms=5.0,
                 description="every legal move (new, extensions, conquests A/B, colonies), 10 cards, 20 table words"),
        Scenario("best-turn", "colonii-moves", _solver_setup("best"), baseline=("scan", "all-moves"), target_ms=20.0,
                 description="exact best combined turn of up to 3 moves on disjoint cards"),
    ]
