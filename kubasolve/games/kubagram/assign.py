"""Tile assignment: which field tile spells which letter, with a given number of jokers per word.

The search kernels only say *how many* jokers a word can use at best; the concrete assignment is
found here, for the few moves actually returned, by a small depth-first search with memoised
failures. Several words may be assigned at once (a multi-word claim shares the tile pool).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kubasolve.games.kubagram.position import Tile


@dataclass(frozen=True)
class TilePool:
    """The field split for assignment: fixed tile indices per letter, flex tiles with their letters."""

    fixed: dict[str, tuple[int, ...]]
    flex: tuple[tuple[int, frozenset[str], bool], ...]  # (tile index, letters, is joker)

    @classmethod
    def from_tiles(cls, tiles: Sequence[Tile]) -> TilePool:
        fixed: dict[str, list[int]] = {}
        flex = []
        for i, t in enumerate(tiles):
            if t.fixed:
                fixed.setdefault(t.letters[0], []).append(i)
            else:
                flex.append((i, frozenset(t.letters), t.joker))
        return cls({k: tuple(v) for k, v in fixed.items()}, tuple(flex))

    @property
    def n_jokers(self) -> int:
        return sum(1 for _, _, j in self.flex if j)


def assign_words(words: Sequence[str], pool: TilePool, jokers: Sequence[int]) -> list[tuple[int, ...]] | None:
    """Tile indices for every letter of every word, word ``i`` using exactly ``jokers[i]`` jokers,
    all tiles distinct; None when impossible."""
    if not any(jokers):  # fast path: fixed tiles alone spell every letter (the usual case)
        direct = _fixed_only(words, pool)
        if direct is not None:
            return direct
    elif len(words) == 1 and jokers[0] == 1 and len(pool.flex) == 1 and pool.flex[0][2]:
        return _one_joker(words[0], pool)  # one held joker: the search's answer, found directly
    return search_assignment(words, pool, jokers)


def search_assignment(words: Sequence[str], pool: TilePool, jokers: Sequence[int]) -> list[tuple[int, ...]] | None:
    """:func:`assign_words` by depth-first search alone (no fast paths): the reference of the fast paths."""
    positions = [(i, c) for i, w in enumerate(words) for c in w]
    remaining_in_word = [len(w) for w in words]
    fixed_left = {c: len(v) for c, v in pool.fixed.items()}
    n_flex = len(pool.flex)
    used = [False] * n_flex
    jok_used = [0] * len(words)
    choice: list[int] = [0] * len(positions)  # flex index k, or -1 for a fixed tile
    failed: set[tuple] = set()

    def key(p: int) -> tuple:
        return (p, tuple(used), tuple(jok_used), tuple(sorted(fixed_left.items())))

    def dfs(p: int) -> bool:
        if p == len(positions):
            return all(jok_used[i] == jokers[i] for i in range(len(words)))
        k0 = key(p)
        if k0 in failed:
            return False
        i, c = positions[p]
        remaining_in_word[i] -= 1
        options: list[int] = []
        need = jokers[i] - jok_used[i]
        for k, (_, letters, is_joker) in enumerate(pool.flex):
            if not used[k] and c in letters and is_joker and need > 0:
                options.append(k)
        if fixed_left.get(c, 0) > 0:
            options.append(-1)
        for k, (_, letters, is_joker) in enumerate(pool.flex):
            if not used[k] and c in letters and not is_joker:
                options.append(k)
        for k in options:
            if k == -1:
                fixed_left[c] -= 1
            else:
                used[k] = True
                if pool.flex[k][2]:
                    jok_used[i] += 1
            # the rest of word i must still be able to take its missing jokers
            if jokers[i] - jok_used[i] <= remaining_in_word[i]:
                choice[p] = k
                if dfs(p + 1):
                    remaining_in_word[i] += 1
                    return True
            if k == -1:
                fixed_left[c] += 1
            else:
                used[k] = False
                if pool.flex[k][2]:
                    jok_used[i] -= 1
        remaining_in_word[i] += 1
        failed.add(k0)
        return False

    if any(j < 0 for j in jokers) or sum(jokers) > pool.n_jokers or not dfs(0):
        return None
    out: list[list[int]] = [[] for _ in words]
    next_fixed = {c: 0 for c in pool.fixed}
    for (i, c), k in zip(positions, choice):
        if k == -1:
            out[i].append(pool.fixed[c][next_fixed[c]])
            next_fixed[c] += 1
        else:
            out[i].append(pool.flex[k][0])
    return [tuple(o) for o in out]


def _fixed_only(words: Sequence[str], pool: TilePool) -> list[tuple[int, ...]] | None:
    """The assignment by fixed tiles only, in tile order (as the search finds it first), or None if they do not
    suffice."""
    next_fixed: dict[str, int] = {}
    out = []
    for w in words:
        tiles = []
        for c in w:
            k = next_fixed.get(c, 0)
            have = pool.fixed.get(c, ())
            if k >= len(have):
                return None
            tiles.append(have[k])
            next_fixed[c] = k + 1
        out.append(tuple(tiles))
    return out


def _one_joker(word: str, pool: TilePool) -> list[tuple[int, ...]] | None:
    """The assignment of ``word`` using the pool's only flex tile, a joker, on the earliest letter it can take such
    that fixed tiles spell the rest (what the depth-first search returns: it tries the joker first at each letter)."""
    joker_tile, letters, _ = pool.flex[0]
    need: dict[str, int] = {}
    for c in word:
        need[c] = need.get(c, 0) + 1
    short = {c: n - len(pool.fixed.get(c, ())) for c, n in need.items() if n > len(pool.fixed.get(c, ()))}
    if sum(short.values()) > 1:
        return None
    for i, c in enumerate(word):
        if c in letters and (not short or short == {c: 1}):
            rest = _fixed_only([word[:i] + word[i + 1 :]], pool)
            assert rest is not None  # the counts fit
            tiles = list(rest[0])
            tiles.insert(i, joker_tile)
            return [tuple(tiles)]
    return None
