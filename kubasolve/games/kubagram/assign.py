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


def assign_words(words: Sequence[str], pool: TilePool, jokers: Sequence[int], work: list[int] | None = None) -> list[tuple[int, ...]] | None:
    """Tile indices for every letter of every word, word ``i`` using exactly ``jokers[i]`` jokers,
    all tiles distinct; None when impossible. ``work``: ``work[0]`` grows by the search steps taken (a node budget
    counts them)."""
    if not any(jokers):  # fast path: fixed tiles alone spell every letter (the usual case)
        direct = _fixed_only(words, pool)
        if direct is not None:
            return direct
    elif len(words) == 1 and jokers[0] == 1 and len(pool.flex) == 1 and pool.flex[0][2]:
        return _one_joker(words[0], pool)  # one held joker: the search's answer, found directly
    elif len(words) == 1 and _equal_jokers(pool):
        return _equal_jokers_one_word(words[0], pool, jokers[0])  # jokers alike (e.g. all offering every letter)
    return search_assignment(words, pool, jokers, prune=True, work=work)


def search_assignment(words: Sequence[str], pool: TilePool, jokers: Sequence[int], *, prune: bool = False,
                      work: list[int] | None = None) -> list[tuple[int, ...]] | None:
    """:func:`assign_words` by depth-first search alone (no fast paths). ``prune=False``: the plain search, the
    reference of the fast paths; ``prune=True``: the same first assignment without the redundant work (equal flex
    tiles tried once per class, hopeless branches cut), which the hypothesis tests compare with the plain one."""
    positions = [(i, c) for i, w in enumerate(words) for c in w]
    remaining_in_word = [len(w) for w in words]
    fixed_left = {c: len(v) for c, v in pool.fixed.items()}
    n_flex = len(pool.flex)
    used = [False] * n_flex
    jok_used = [0] * len(words)
    choice: list[int] = [0] * len(positions)  # flex index k, or -1 for a fixed tile
    failed: set[tuple] = set()
    # flex tiles with the same letters and joker flag are interchangeable: of a class only its first unused tile is
    # tried (if it fails, so would any other: the rest of the search is the same up to a swap of equal tiles), and
    # the failure memo counts the tiles used per class. The first assignment found is unchanged (the search tries
    # tiles in index order, so it only ever takes a class's first unused tile), found without trying every
    # permutation of equal jokers (8 all-letter jokers: seconds per word before)
    classes: dict[tuple[frozenset[str], bool], int] = {}
    if prune:
        klass = [classes.setdefault((letters, is_joker), len(classes)) for _, letters, is_joker in pool.flex]
    else:  # the plain search: every tile a class of its own
        klass = list(range(n_flex))
    n_classes = len(classes) if prune else n_flex
    used_in_class = [0] * n_classes
    # letters still to place (positions p.. on): a branch whose remaining letters the fixed tiles left cannot spell,
    # even with every unused flex tile, has no assignment and is cut at once (a necessary condition, so the first
    # assignment found is unchanged; with many jokers the search otherwise tried them on every early letter first)
    rem_need: dict[str, int] = {}
    for _, c in positions:
        rem_need[c] = rem_need.get(c, 0) + 1

    def hopeless() -> bool:
        """True when the letters still to place cannot all get a tile: what the fixed tiles left lack must be matched
        one to one with free flex tiles offering those letters (a bipartite matching of at most a few letters and
        tiles), and the jokers the words still need must be free. Exact for covering the letters, so only the joker
        counts can still make the search back up (with jokers of different letters the per-letter counts alone let
        it wander: 0.3 s for one 23-letter word with 7 jokers)."""
        free = [k for k in range(n_flex) if not used[k]]
        wanted = sum(jokers[i] - jok_used[i] for i in range(len(words)))
        free_jokers = [k for k in free if pool.flex[k][2]]
        if wanted > len(free_jokers):
            return True
        lacking = [c for c, n in rem_need.items() for _ in range(n - fixed_left.get(c, 0))]
        if len(lacking) > len(free) or _matched(lacking, free, pool) < len(lacking):
            return True
        # the jokers still wanted need as many letters to stand for: a matching of free jokers to letters still to place
        return wanted > 0 and _matched([c for c, n in rem_need.items() for _ in range(n)], free_jokers, pool) < wanted

    def key(p: int) -> tuple:
        return (p, tuple(used_in_class), tuple(jok_used), tuple(sorted(fixed_left.items())))

    def dfs(p: int) -> bool:
        if work is not None:
            work[0] += 1
        if p == len(positions):
            return all(jok_used[i] == jokers[i] for i in range(len(words)))
        k0 = key(p)
        if k0 in failed:
            return False
        if prune and hopeless():
            failed.add(k0)
            return False
        i, c = positions[p]
        remaining_in_word[i] -= 1
        rem_need[c] -= 1
        options: list[int] = []
        need = jokers[i] - jok_used[i]
        tried = [False] * n_classes
        for k, (_, letters, is_joker) in enumerate(pool.flex):
            if not used[k] and c in letters and is_joker and need > 0 and not tried[klass[k]]:
                tried[klass[k]] = True
                options.append(k)
        if fixed_left.get(c, 0) > 0:
            options.append(-1)
        for k, (_, letters, is_joker) in enumerate(pool.flex):
            if not used[k] and c in letters and not is_joker and not tried[klass[k]]:
                tried[klass[k]] = True
                options.append(k)
        for k in options:
            if k == -1:
                fixed_left[c] -= 1
            else:
                used[k] = True
                used_in_class[klass[k]] += 1
                if pool.flex[k][2]:
                    jok_used[i] += 1
            # the rest of word i must still be able to take its missing jokers
            if jokers[i] - jok_used[i] <= remaining_in_word[i]:
                choice[p] = k
                if dfs(p + 1):
                    remaining_in_word[i] += 1
                    rem_need[c] += 1
                    return True
            if k == -1:
                fixed_left[c] += 1
            else:
                used[k] = False
                used_in_class[klass[k]] -= 1
                if pool.flex[k][2]:
                    jok_used[i] -= 1
        remaining_in_word[i] += 1
        rem_need[c] += 1
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


def _matched(letters: list[str], tiles: list[int], pool: TilePool) -> int:
    """The size of a largest matching of ``letters`` (one entry per letter to place) to the flex tiles ``tiles``
    (indices into ``pool.flex``) offering them: augmenting paths over a few letters and tiles."""
    holder: dict[int, int] = {}  # flex tile -> the entry of ``letters`` it stands for

    def place(d: int, seen: set[int]) -> bool:
        for k in tiles:
            if k not in seen and letters[d] in pool.flex[k][1]:
                seen.add(k)
                if k not in holder or place(holder[k], seen):
                    holder[k] = d
                    return True
        return False

    return sum(1 for d in range(len(letters)) if len(holder) < len(tiles) and place(d, set()))


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


def _equal_jokers(pool: TilePool) -> bool:
    """True when every flex tile is a joker and all offer the same letters."""
    return bool(pool.flex) and all(is_joker and letters == pool.flex[0][1] for _, letters, is_joker in pool.flex)


def _equal_jokers_one_word(word: str, pool: TilePool, jokers: int) -> list[tuple[int, ...]] | None:
    """The depth-first search's assignment of ``word`` with exactly ``jokers`` of the pool's jokers, all alike: letter
    by letter, a joker where the rest can still be laid, else a fixed tile (the search's order of preference), the
    jokers taken in tile order. The rest can be laid with ``r`` jokers iff the letters the fixed tiles lack (each
    one a joker offers) are at most ``r`` and the letters a joker can stand for are at least ``r``: O(1) per letter
    instead of a search (10,000 words on 100 tiles with 8 all-letter jokers: seconds before)."""
    offered = pool.flex[0][1]
    if not 0 <= jokers <= len(pool.flex):
        return None
    left = {c: len(v) for c, v in pool.fixed.items()}
    count: dict[str, int] = {}
    for c in word:
        count[c] = count.get(c, 0) + 1
    if any(n > left.get(c, 0) and c not in offered for c, n in count.items()):
        return None
    short = sum(max(0, n - left.get(c, 0)) for c, n in count.items())
    eligible = sum(n for c, n in count.items() if c in offered)
    r = jokers
    if not short <= r <= eligible:
        return None
    next_fixed: dict[str, int] = {}
    joker_tiles = iter(k for k, _, _ in pool.flex)
    out = []
    for c in word:
        n, f = count[c], left.get(c, 0)
        if c in offered:
            # a joker here: the rest has one letter of c fewer to spell, one joker fewer to place
            after_short = short - (1 if n > f else 0)
            if r > 0 and after_short <= r - 1 <= eligible - 1:
                out.append(next(joker_tiles))
                count[c], short, r, eligible = n - 1, after_short, r - 1, eligible - 1
                continue
            eligible -= 1
        # a fixed tile (the rest stays feasible: the check above held before this letter)
        k = next_fixed.get(c, 0)
        out.append(pool.fixed[c][k])
        next_fixed[c] = k + 1
        count[c], left[c] = n - 1, f - 1
    return [tuple(out)]


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
