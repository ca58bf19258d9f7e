"""Colonii: is the best turn the best legal sequence of moves? (issue 22's measure)

For seeded small positions (a hand of 5 cards from the deck; a table of a 3-word and a 4-word colony and
four individual words, owners at random, like the benchmark positions but smaller) this compares the
solver's ``best_turn`` (up to 3 word moves) with the best legal sequence of up to 3 word moves, found move
by move: every legal move of the position (``all_moves``, which the test suite checks against the
judge-every-word reference), applied, and again on the table it leaves (the owner's actions, where the
code has them, count as moves that use no word slot). It runs on any commit, so the same positions can
be measured before and after a change::

    python benchmarks/colonii_turn_sequences.py --positions 549 --save pos.json      # this checkout
    PYTHONPATH=/path/to/old/checkout python benchmarks/colonii_turn_sequences.py --load pos.json

Prints how many positions have a better legal sequence than the best turn, and by how much at most.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import Any


def small_positions(n: int, seed: int = 22, hand: int = 5) -> tuple[Any, Any, list[Any]]:
    """(lexicon, rules, positions): ``n`` seeded positions that have at least one legal move."""
    from kubasolve.bench.colonii_scenarios import positions
    from kubasolve.games.colonii.movegen import ColoniiSolver
    from kubasolve.games.colonii.table import ColoniiPosition

    lex, rules, tables = positions(n=2 * n, seed=seed)  # 20-word tables: keep their two colonies and four words
    solver = ColoniiSolver(lex, rules)
    rng = random.Random(seed)
    out: list[Any] = []
    for base in tables:
        deck = rules.deck()
        rng.shuffle(deck)
        pos = ColoniiPosition(base.table[:6], "".join(deck[:hand]), 0, 2)
        if len(solver.all_moves(pos, top=1)):
            out.append(pos)
        if len(out) == n:
            return lex, rules, out
    raise ValueError(f"only {len(out)} of {2 * n} positions have a legal move")


def load_positions(path: str) -> tuple[Any, Any, list[Any]]:
    """The positions saved by ``--save`` (the same ones whatever the commit measured)."""
    from kubasolve.games.colonii.rules import ColoniiRules
    from kubasolve.games.colonii.table import ColoniiPosition
    from kubasolve.lexicon import load_lexicon

    with open(path, encoding="utf-8") as f:
        return load_lexicon("ro"), ColoniiRules(), [ColoniiPosition.from_dict(d) for d in json.load(f)]


def best_sequence(solver: Any, pos: Any, words_left: int, memo: dict[Any, tuple[int, int]]) -> tuple[int, int]:
    """(gain, taken) of the best legal sequence of moves from ``pos`` with ``words_left`` word moves."""
    from kubasolve.games.colonii.table import ColoniiPosition, apply_move, remove_cards

    key = (pos.table, "".join(sorted(pos.hand)), words_left)
    if key in memo:
        return memo[key]
    best = (0, 0)
    for move in solver.all_moves(pos):
        builds = getattr(move.kind, "builds", True)
        if builds and not words_left:
            continue
        after = ColoniiPosition(apply_move(pos.table, move, solver.rules), remove_cards(pos.hand, move.cards), pos.mover,
                                pos.n_players)
        rest = best_sequence(solver, after, words_left - builds, memo)
        best = max(best, (move.gain + rest[0], move.taken + rest[1]))
    memo[key] = best
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=549)
    parser.add_argument("--seed", type=int, default=22)
    parser.add_argument("--save", help="write the positions to this JSON file (and measure them)")
    parser.add_argument("--load", help="measure the positions of this JSON file")
    args = parser.parse_args(argv)
    from kubasolve.games.colonii.movegen import ColoniiSolver

    lex, rules, items = load_positions(args.load) if args.load else small_positions(args.positions, args.seed)
    if args.save:
        with open(args.save, "w", encoding="utf-8") as f:
            json.dump([p.to_dict() for p in items], f, ensure_ascii=False)
    solver = ColoniiSolver(lex, rules)
    better, worst, t0 = 0, 0, time.perf_counter()
    for k, pos in enumerate(items):
        turn = solver.best_turn(pos, "gain", 3)
        seq = best_sequence(solver, pos, 3, {})
        if seq > (turn.gain, turn.taken):
            better += 1
            worst = max(worst, seq[0] - turn.gain)
        if (k + 1) % 50 == 0:
            print(f"{k + 1} positions, {better} with a better sequence", file=sys.stderr, flush=True)
    print(json.dumps({"positions": len(items), "better_sequence": better, "most_points_missed": worst,
                      "seconds": round(time.perf_counter() - t0, 1)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
