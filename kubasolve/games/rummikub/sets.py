"""What makes a set legal (runs and groups, with jokers), its value, its display order, and the catalogue
of candidate sets the exact solver chooses from.

``set_problem`` is the plain, independent validity checker used to validate moves and every layout
the solver returns; ``candidate_sets`` is the (cached) catalogue behind the integer programme.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

import numpy as np

from kubasolve.games.limits import RUMMIKUB_MAX_CANDIDATE_SETS
from kubasolve.games.rummikub.rules import RummikubRules
from kubasolve.games.rummikub.tiles import Tile, TileSet, format_tiles


def _run_interpretations(tiles: TileSet, rules: RummikubRules) -> list[int]:
    """Start numbers ``s`` such that ``tiles`` can be laid as the run s, s+1, ... (jokers filling gaps)."""
    reals = [t for t in tiles if t != rules.joker]
    if not reals:
        return []
    if len({t // rules.numbers for t in reals}) != 1:
        return []
    nums = sorted(t % rules.numbers + 1 for t in reals)
    if len(set(nums)) != len(nums):
        return []
    length = len(tiles)
    # Rule: "1 is only the lowest, no 12-13-1": a run lies inside 1..numbers, no wrap-around.
    return [s for s in range(1, rules.numbers - length + 2) if s <= nums[0] and nums[-1] <= s + length - 1]


def _is_group(tiles: TileSet, rules: RummikubRules) -> bool:
    reals = [t for t in tiles if t != rules.joker]
    if not reals or len(tiles) > rules.colours:
        return False
    colours = [t // rules.numbers for t in reals]
    return len({t % rules.numbers for t in reals}) == 1 and len(set(colours)) == len(colours)


def set_problem(tiles: TileSet | list[Tile], rules: RummikubRules) -> str | None:
    """Why ``tiles`` is not a legal set, or None if it is one (a run or a group of >= min_set_size)."""
    tiles = tuple(tiles)
    if len(tiles) < rules.min_set_size:
        return f"a set needs at least {rules.min_set_size} tiles"
    if all(t == rules.joker for t in tiles):
        return "a set needs at least one numbered tile"
    if _is_group(tiles, rules) or _run_interpretations(tiles, rules):
        return None
    return (
        "neither a run (consecutive numbers of one colour, no wrap-around) nor a group (one number, distinct colours)"
    )


def is_valid_set(tiles: TileSet | list[Tile], rules: RummikubRules) -> bool:
    """True if ``tiles`` form a legal run or group."""
    return set_problem(tiles, rules) is None


def set_value(tiles: TileSet | list[Tile], rules: RummikubRules) -> int:
    """Points of a legal set for the first meld: the numbers it shows, each joker counting as the tile it
    stands for (when that is ambiguous, the best reading). 0 for an illegal set."""
    tiles = tuple(tiles)
    if set_problem(tiles, rules) is not None:
        return 0
    best = 0
    if _is_group(tiles, rules):
        best = len(tiles) * (next(t for t in tiles if t != rules.joker) % rules.numbers + 1)
    for s in _run_interpretations(tiles, rules):
        best = max(best, sum(range(s, s + len(tiles))))
    return best


def joker_readings(tiles: TileSet | list[Tile], rules: RummikubRules) -> list[TileSet]:
    """Every reading of the jokers of a legal set: the sorted tiles they stand for, one tuple per reading
    (``[r6 r7 J]`` -> ``[(r5,), (r8,)]``); ``[()]`` for a set without jokers, ``[]`` for an illegal set."""
    tiles = tuple(tiles)
    if set_problem(tiles, rules) is not None:
        return []
    reals = [t for t in tiles if t != rules.joker]
    jokers = len(tiles) - len(reals)
    if not jokers:
        return [()]
    out: set[TileSet] = set()
    n = rules.numbers
    for s in _run_interpretations(tiles, rules):
        colour = reals[0] // n
        have = {t % n + 1 for t in reals}
        out.add(tuple(colour * n + v - 1 for v in range(s, s + len(tiles)) if v not in have))
    if _is_group(tiles, rules):
        number = reals[0] % n
        missing = sorted(set(range(rules.colours)) - {t // n for t in reals})
        for cols in combinations(missing, jokers):
            out.add(tuple(c * n + number for c in cols))
    return sorted(out)


def arrange_set(tiles: TileSet | list[Tile], rules: RummikubRules) -> TileSet:
    """Display order of a legal set: a run ascending with jokers in the gaps they fill, a group by colour
    with jokers last. Uses the highest-value reading."""
    tiles = tuple(tiles)
    reals = sorted(t for t in tiles if t != rules.joker)
    jokers = len(tiles) - len(reals)
    starts = _run_interpretations(tiles, rules)
    group_value = len(tiles) * (reals[0] % rules.numbers + 1) if reals and _is_group(tiles, rules) else -1
    if starts and sum(range(starts[-1], starts[-1] + len(tiles))) >= group_value:
        s = starts[-1]
        colour = reals[0] // rules.numbers
        have = {t % rules.numbers + 1 for t in reals}
        return tuple(colour * rules.numbers + n - 1 if n in have else rules.joker for n in range(s, s + len(tiles)))
    return tuple(reals) + (rules.joker,) * jokers


def canonical_set(tiles: TileSet | list[Tile]) -> TileSet:
    """Order-free key of a set (sorted codes), to compare layouts."""
    return tuple(sorted(tiles))


def describe_set(tiles: TileSet | list[Tile], rules: RummikubRules) -> str:
    """Text of a set for messages."""
    return "[" + format_tiles(tiles, rules) + "]"


@dataclass(frozen=True)
class CandidateSets:
    """Every distinct legal set up to the length needed to build any table (as multisets of tile codes).

    ``members[s, t]`` is how many of tile code ``t`` set ``s`` uses (jokers in the last column).
    """

    sets: tuple[TileSet, ...]
    members: np.ndarray
    """(n_sets, kinds) int8 membership counts."""
    values: np.ndarray
    """(n_sets,) first-meld value of each set."""


MAX_CANDIDATE_SETS = RUMMIKUB_MAX_CANDIDATE_SETS
"""Largest catalogue of sets the engine and the CLI accept (``kubasolve.games.limits``; :func:`check_variant_size`)."""


def candidate_set_estimate(rules: RummikubRules) -> int:
    """Upper bound on the number of candidate sets of ``rules`` (runs and groups with every joker placement, as
    enumerated by :func:`candidate_sets`), computed without enumerating them."""
    from math import comb

    n, k, m, jokers = rules.numbers, rules.colours, rules.min_set_size, rules.jokers
    max_run = min(n, 2 * m - 1 if jokers < m else n)
    runs = k * sum((n - length + 1) * sum(comb(length, j) for j in range(min(jokers, length - 1) + 1))
                   for length in range(m, max_run + 1))
    groups = n * sum(comb(k, size - j) for size in range(m, k + 1) for j in range(min(jokers, size - 1) + 1))
    return runs + groups


def check_variant_size(rules: RummikubRules) -> None:
    """Refuse (:class:`~kubasolve.errors.LimitError`) a variant whose catalogue of sets exceeds
    :data:`MAX_CANDIDATE_SETS`: building it alone would take minutes and gigabytes."""
    from kubasolve.errors import LimitError

    size = candidate_set_estimate(rules)
    if size > MAX_CANDIDATE_SETS:
        raise LimitError(f"this variant has up to {size:,} candidate sets to consider (limit {MAX_CANDIDATE_SETS:,}): "
                         "fewer numbers, colours or jokers (or a larger min_set_size)")


@lru_cache(maxsize=16)
def candidate_sets(rules: RummikubRules) -> CandidateSets:
    """The catalogue of sets. Runs longer than ``2*min_set_size-1`` are left out when they can always be cut
    into two legal runs (fewer jokers than ``min_set_size``): any table is a union of catalogue sets."""
    n, k, m, joker = rules.numbers, rules.colours, rules.min_set_size, rules.joker
    max_run = min(n, 2 * m - 1 if rules.jokers < m else n)
    seen: dict[TileSet, int] = {}

    def add(reals: list[int], jokers: int, value: int) -> None:
        """A set and the first-meld value of this reading of it; a set read several ways keeps its best reading,
        which is :func:`set_value`'s (every reading of a catalogue set is generated here; computing the value with
        the reading instead of calling set_value per set made the catalogue ~5x faster: 74,000 sets in 8.7 s)."""
        if not reals or jokers > rules.jokers:
            return
        key = tuple(sorted(reals)) + (joker,) * jokers
        if value > seen.get(key, -1):
            seen[key] = value

    for c in range(k):
        for length in range(m, max_run + 1):
            for s in range(1, n - length + 2):
                nums = list(range(s, s + length))
                run_value = sum(nums)
                for nj in range(min(rules.jokers, length - 1) + 1):
                    for jpos in combinations(range(length), nj):
                        add([c * n + nums[i] - 1 for i in range(length) if i not in jpos], nj, run_value)
    for v in range(1, n + 1):
        for size in range(m, k + 1):
            for nj in range(min(rules.jokers, size - 1) + 1):
                for cols in combinations(range(k), size - nj):
                    add([c * n + v - 1 for c in cols], nj, v * size)
    all_sets = tuple(seen)
    members = np.zeros((len(all_sets), rules.kinds), dtype=np.int8)
    for i, tiles in enumerate(all_sets):
        for t in tiles:
            members[i, t] += 1
    values = np.array([seen[s] for s in all_sets], dtype=np.int64)
    return CandidateSets(sets=all_sets, members=members, values=values)
