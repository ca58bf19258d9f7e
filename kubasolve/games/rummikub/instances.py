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


def full_layout(rng: random.Random, rules: RummikubRules | None = None) -> list[TileSet]:
    """Every tile of the box laid out as legal sets: each colour's copies as runs 1..numbers cut at random
    into pieces of ``min_set_size``..``2*min_set_size`` tiles, and each joker added to a random set it fits."""
    from kubasolve.games.rummikub.sets import is_valid_set

    rules = rules or RummikubRules()
    n, m = rules.numbers, rules.min_set_size
    sets: list[list[Tile]] = []
    for c in range(rules.colours):
        for _ in range(rules.copies):
            start = 0
            while start < n:
                length = rng.randint(m, 2 * m)
                if n - start - length < m:
                    length = n - start
                sets.append([c * n + v for v in range(start, start + length)])
                start += length
    for _ in range(rules.jokers):
        fits = [s for s in sets if is_valid_set(tuple(s) + (rules.joker,), rules)]
        rng.choice(fits).append(rules.joker)
    return [arrange_set(tuple(s), rules) for s in sets]


def big_instance(
    seed: int,
    table_tiles: int,
    rack_size: int | None = None,
    rack_jokers: int = 2,
    rules: RummikubRules | None = None,
) -> Instance:
    """A position with a big table (the slow corner of joker-heavy DP searches): whole sets of a
    :func:`full_layout` make a table of at most ``table_tiles`` tiles; ``rack_jokers`` of the box's jokers are
    taken out of their sets onto the rack (the others stay on the table). ``rack_size=None``: every other tile
    goes on the rack too, so the whole rack can go out; else the rack is filled up to ``rack_size`` with random
    tiles from those not on the table."""
    rules = rules or RummikubRules()
    rng = random.Random(seed)
    sets = [list(s) for s in full_layout(rng, rules)]
    moved = 0
    for s in sets:
        while rules.joker in s and moved < rack_jokers:
            s.remove(rules.joker)
            moved += 1
    rng.shuffle(sets)
    table: list[TileSet] = []
    rest: list[Tile] = []
    size = 0
    for s in sets:
        if size + len(s) <= table_tiles:
            table.append(arrange_set(tuple(s), rules))
            size += len(s)
        else:
            rest.extend(s)
    rack = [rules.joker] * moved
    if rack_size is None:
        rack += rest
    else:
        rng.shuffle(rest)
        rack += rest[: max(0, rack_size - moved)]
    return Instance(table=tuple(table), rack=tuple(sorted(rack)))


def big_family(n: int, seed: int = 0, rules: RummikubRules | None = None) -> list[Instance]:
    """``n`` :func:`big_instance` positions: tables of 0-92 tiles, racks of 14, 20 or every other tile, 2 jokers
    in play (on the rack, or one or both on the table)."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        out.append(
            big_instance(
                seed * 100003 + i,
                rng.choice([0, 40, 60, 70, 80, 85, 92]),
                rng.choice([None, 14, 14, 20]),
                rng.choice([2, 2, 1, 0]),
                rules,
            )
        )
    return out


HARD_FAMILY_POSITIONS = ((3, 38), (3, 67), (17, 118), (19, 16))
"""(seed, index) of the slowest :func:`big_family` positions in a sweep of 840 (``big_family(120, seed)`` for
seeds 0, 3, 7, 11, 13, 17 and 19): the only ones over 10 ms of CPU for the DP (11-20 ms at load ~1.5) in some
setting (free / strict retrieval, tiles / value)."""


def hard_instances(rules: RummikubRules | None = None) -> dict[str, Instance]:
    """The positions of :data:`HARD_FAMILY_POSITIONS`, named ``seed S #I``."""
    return {f"seed {s} #{i}": big_family(i + 1, seed=s, rules=rules)[i] for s, i in HARD_FAMILY_POSITIONS}


def issue_instances(rules: RummikubRules | None = None) -> dict[str, Instance]:
    """The positions of issue 9 (two rack jokers, the whole rack can go out): a 92-tile table with a rack of
    14, a 78-tile table with a rack of 28, and an empty table with all 106 tiles on the rack."""
    return {
        "table 92 + rack 14 (2 jokers)": _exact_table(1, 92, rules),
        "table 78 + rack 28 (2 jokers)": _exact_table(2, 78, rules),
        "empty table + rack 106 (2 jokers)": big_instance(3, 0, None, 2, rules),
    }


def _exact_table(seed: int, tiles: int, rules: RummikubRules | None) -> Instance:
    """The first :func:`big_instance` from ``seed`` on whose table holds exactly ``tiles`` tiles."""
    for s in range(seed * 1000, seed * 1000 + 1000):
        inst = big_instance(s, tiles, None, 2, rules)
        if sum(len(t) for t in inst.table) == tiles:
            return inst
    raise ValueError(f"no table of exactly {tiles} tiles")
