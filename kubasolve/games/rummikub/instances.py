"""Random solver instances (a legal table and a rack) for tests and benchmarks, deterministic per seed."""

from __future__ import annotations

import random
from dataclasses import dataclass

from kubasolve.games.rummikub.rules import RummikubRules
from kubasolve.games.rummikub.sets import arrange_set, candidate_sets
from kubasolve.games.rummikub.tiles import Tile, TileSet, full_box


@dataclass(frozen=True)
class Instance:
    """A table of legal sets and a rack drawn from the tiles left in the box."""

    table: tuple[TileSet, ...]
    rack: tuple[Tile, ...]


def random_instance(
    seed: int | random.Random,
    rules: RummikubRules | None = None,
    table_tiles: tuple[int, int] = (20, 40),
    rack_size: int = 14,
) -> Instance:
    """A random legal table of ``table_tiles[0]..table_tiles[1]`` tiles (random legal sets taken from the box)
    and a rack of ``rack_size`` tiles from what is left."""
    rules = rules or RummikubRules()
    rng = seed if isinstance(seed, random.Random) else random.Random(seed)
    target = rng.randint(*table_tiles)
    cat = candidate_sets(rules)
    plain = [s for s in cat.sets if rules.joker not in s]
    with_joker = [s for s in cat.sets if s.count(rules.joker) == 1]
    left: dict[int, int] = {}
    for t in full_box(rules):
        left[t] = left.get(t, 0) + 1
    table: list[TileSet] = []
    size = 0
    tries = 0
    while size < target and tries < 10_000:
        tries += 1
        # about as many jokers as a real game has on the table: 2 in 106 tiles
        pick_from = with_joker if with_joker and rng.random() < 0.06 else plain
        s = pick_from[rng.randrange(len(pick_from))]
        if size + len(s) > table_tiles[1]:
            continue
        need: dict[int, int] = {}
        for t in s:
            need[t] = need.get(t, 0) + 1
        if all(left.get(t, 0) >= c for t, c in need.items()):
            for t, c in need.items():
                left[t] -= c
            table.append(arrange_set(s, rules))
            size += len(s)
    pool = [t for t, c in left.items() for _ in range(c)]
    rng.shuffle(pool)
    return Instance(table=tuple(table), rack=tuple(sorted(pool[:rack_size])))
