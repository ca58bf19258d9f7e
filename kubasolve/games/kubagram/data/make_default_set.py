"""Development-time generator of the default Dutch Kubagram cube set (``cubes_nl.toml``); never imported at run time.

Reproduce the committed file with::

    python -m kubasolve.games.kubagram.data.make_default_set /path/to/dutch > cubes_nl.toml

where ``/path/to/dutch`` is the OpenTaal word list (one word per line, UTF-8), e.g. the file
``/usr/share/dict/dutch`` of the Debian package ``wdutch``. The output is byte-for-byte deterministic for a
given word list (fixed seed, no dependence on dict or set ordering).

Method (also documented in ``docs/kubagram_set.md``):

1. Words: keep the lines that are entirely lowercase (no proper names or abbreviations), fold accents
   (``continuüm`` -> ``continuum``), keep those made only of ``a``-``z`` and 3 to 10 letters long (the word lengths
   that are played in practice). Every distinct word counts once (type frequency).
2. Target frequency of a letter = its share of all letters of those words.
3. The 105 normal cubes have 315 letter slots. Each letter gets at least one slot (so ``q``, ``x`` and ``y`` exist
   on a normal cube), the remaining slots are divided by the largest-remainder (Hamilton) method on
   ``315 * frequency``. The three jokers (EYGR, PLTOLE, ODRKTE) are fixed by the game and not counted in the 315.
4. The 315 letters are put on 105 cubes of 3 distinct letters by a seeded local search (simulated annealing on
   letter swaps between cubes) minimising, per cube, the sum over its letter pairs of the share of words that
   contain both letters: two letters on one cube can never be used at the same time, so letters that are often
   needed together (``c``/``h``, ``i``/``j``, ``q``/``u``, ``e``/``n`` ...) should sit on different cubes.
   Hard constraints: 3 distinct letters per cube, at least one vowel (a, e, i, o, u) and one consonant per cube,
   at most one of the rare letters ``c j q x y z`` per cube.
"""

from __future__ import annotations

import math
import random
import re
import sys
import unicodedata
from collections import Counter
from itertools import combinations
from pathlib import Path

ALPHABET = "abcdefghijklmnopqrstuvwxyz"
VOWELS = frozenset("aeiou")
RARE = frozenset("cjqxyz")
N_NORMAL = 105
LETTERS_PER_CUBE = 3
SLOTS = N_NORMAL * LETTERS_PER_CUBE
MIN_LEN, MAX_LEN = 3, 10
JOKERS = ("eygr", "pltole", "odrkte")
SEED = 20240417
STEPS = 100_000
DIVERSITY = 0.03  # weight of the sum of squared letter-pair counts over all cubes
PENALTY = 1000.0  # cost of breaking a soft-but-required constraint (vowel/consonant mix, two rare letters)

_WORD = re.compile(r"[a-z]+")


def fold(word: str) -> str:
    """Strip accents (``ë`` -> ``e``) so Dutch diacritics count as their base letter."""
    return "".join(ch for ch in unicodedata.normalize("NFD", word) if not unicodedata.combining(ch))


def read_words(path: Path) -> list[str]:
    """The distinct lowercase a-z words of length 3..10 of the word list, accents folded, sorted."""
    words: set[str] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        w = line.strip()
        if not w or w != w.lower():
            continue
        f = fold(w)
        if _WORD.fullmatch(f) and MIN_LEN <= len(f) <= MAX_LEN:
            words.add(f)
    return sorted(words)


def target_frequencies(words: list[str]) -> dict[str, float]:
    """Share of each letter a..z among all letters of ``words``."""
    counts = Counter("".join(words))
    total = sum(counts.values())
    return {ch: counts[ch] / total for ch in ALPHABET}


def allocate(freq: dict[str, float], slots: int = SLOTS) -> dict[str, int]:
    """Letter counts summing to ``slots``: one per letter, the rest by largest remainder on ``slots * freq``."""
    counts = {ch: 1 for ch in ALPHABET}
    free = slots - len(ALPHABET)
    quotas = {ch: max(0.0, slots * freq[ch] - 1) for ch in ALPHABET}
    qsum = sum(quotas.values())
    scaled = {ch: free * quotas[ch] / qsum for ch in ALPHABET}
    for ch in ALPHABET:
        counts[ch] += math.floor(scaled[ch])
    left = slots - sum(counts.values())
    by_remainder = sorted(ALPHABET, key=lambda ch: (-(scaled[ch] - math.floor(scaled[ch])), ch))
    for ch in by_remainder[:left]:
        counts[ch] += 1
    return counts


def pair_cooccurrence(words: list[str]) -> dict[tuple[str, str], float]:
    """Share of words containing both letters, for every unordered letter pair (keys sorted)."""
    counts: Counter[tuple[str, str]] = Counter()
    for w in words:
        for pair in combinations(sorted(set(w)), 2):
            counts[pair] += 1
    n = len(words)
    return {pair: counts[pair] / n for pair in combinations(ALPHABET, 2)}


def _cube_cost(cube: list[str], co: dict[tuple[str, str], float]) -> float:
    """Cost of one cube: co-occurrence of its letter pairs plus penalties; infinite for a repeated letter."""
    if len(set(cube)) != len(cube):
        return math.inf
    cost = sum(co[(a, b) if a < b else (b, a)] for a, b in combinations(cube, 2))
    n_vowels = sum(ch in VOWELS for ch in cube)
    if n_vowels == 0 or n_vowels == len(cube):
        cost += PENALTY
    n_rare = sum(ch in RARE for ch in cube)
    if n_rare > 1:
        cost += PENALTY * (n_rare - 1)
    return cost


def _pairs(cube: list[str]) -> list[tuple[str, str]]:
    """The unordered letter pairs of a cube, each sorted."""
    return [(a, b) if a < b else (b, a) for a, b in combinations(cube, 2)]


def build_cubes(counts: dict[str, int], co: dict[tuple[str, str], float], seed: int = SEED) -> list[str]:
    """Assign the letter multiset to 105 cubes of 3 distinct letters by seeded simulated annealing."""
    seq = [ch for ch in sorted(ALPHABET, key=lambda c: (-counts[c], c)) for _ in range(counts[ch])]
    assert len(seq) == SLOTS and max(counts.values()) <= N_NORMAL
    # stride start: a letter would need more than N_NORMAL copies to land twice on one cube
    cubes = [[seq[i], seq[i + N_NORMAL], seq[i + 2 * N_NORMAL]] for i in range(N_NORMAL)]
    costs = [_cube_cost(c, co) for c in cubes]
    pair_count: Counter[tuple[str, str]] = Counter(p for c in cubes for p in _pairs(c))
    rng = random.Random(seed)
    t0, t1 = 0.05, 0.0005
    for step in range(STEPS):
        temp = t0 * (t1 / t0) ** (step / STEPS)
        a, b = rng.randrange(N_NORMAL), rng.randrange(N_NORMAL)
        if a == b:
            continue
        i, j = rng.randrange(LETTERS_PER_CUBE), rng.randrange(LETTERS_PER_CUBE)
        ca, cb = cubes[a], cubes[b]
        if ca[i] == cb[j]:
            continue
        old_pairs = _pairs(ca) + _pairs(cb)
        ca[i], cb[j] = cb[j], ca[i]
        new_a, new_b = _cube_cost(ca, co), _cube_cost(cb, co)
        delta = new_a + new_b - costs[a] - costs[b]
        if delta < math.inf:
            # spread term: DIVERSITY * sum of squared pair counts, so no letter pair (or cube) repeats much
            new_pairs = _pairs(ca) + _pairs(cb)
            before = sum(pair_count[p] ** 2 for p in set(old_pairs + new_pairs))
            for p in old_pairs:
                pair_count[p] -= 1
            for p in new_pairs:
                pair_count[p] += 1
            after = sum(pair_count[p] ** 2 for p in set(old_pairs + new_pairs))
            delta += DIVERSITY * (after - before)
        if delta <= 0 or (delta < math.inf and rng.random() < math.exp(-delta / temp)):
            costs[a], costs[b] = new_a, new_b
        else:
            if delta < math.inf:
                for p in new_pairs:
                    pair_count[p] -= 1
                for p in old_pairs:
                    pair_count[p] += 1
            ca[i], cb[j] = cb[j], ca[i]
    result = sorted("".join(sorted(c)) for c in cubes)
    for cube in result:
        assert _cube_cost(list(cube), co) < PENALTY, cube
    return result


def render(words: list[str], freq: dict[str, float], counts: dict[str, int], cubes: list[str]) -> str:
    """The TOML text of the default set, with its documentation header."""
    target = {ch: SLOTS * freq[ch] for ch in ALPHABET}
    lines = [
        "# Default Dutch cube set for Kubagram (kubasolve).",
        "#",
        "# The rulebook does not list the cube letters; this set is our own, generated by",
        "# kubasolve/games/kubagram/data/make_default_set.py (see docs/kubagram_set.md). Do not edit by hand:",
        "# rerun the script on the OpenTaal word list instead.",
        "#",
        f"# Target frequencies: letter shares in the {len(words)} distinct lowercase a-z words of 3..10 letters of",
        "# the OpenTaal word list (accents folded, proper names dropped, each word counted once).",
        f"# Normal cubes: {N_NORMAL} x {LETTERS_PER_CUBE} distinct letters = {SLOTS} slots; every letter at least once,",
        "# the rest by largest remainder on 315 x frequency. Jokers (fixed by the game) are extra.",
        "# Cubes: seeded annealing so letters often needed together sit on different cubes; every cube has",
        "# a vowel and a consonant and at most one of c j q x y z.",
        "#",
        "# letter  share%  target  count  (normal cubes; + joker faces)",
    ]
    joker_letters = Counter(ch for j in JOKERS for ch in set(j))
    for ch in sorted(ALPHABET, key=lambda c: (-freq[c], c)):
        extra = f"  +{joker_letters[ch]}" if joker_letters[ch] else ""
        lines.append(f"#   {ch}    {100 * freq[ch]:6.2f}  {target[ch]:6.1f}  {counts[ch]:5d}{extra}")
    vowel_share = sum(counts[v] for v in VOWELS) / SLOTS
    lines += [
        (f"# vowels a e i o u: {sum(counts[v] for v in VOWELS)} of {SLOTS} slots ({100 * vowel_share:.1f}%);"
         f" target {100 * sum(freq[v] for v in VOWELS):.1f}%"),
        "",
        'name = "kubasolve default Dutch set"',
        f'alphabet = "{ALPHABET}"',
        f"count = {N_NORMAL + len(JOKERS)}",
        "",
        "# The three jokers of the game, letters as printed (PLTOLE has an L on two faces).",
        "jokers = [" + ", ".join(f'"{j}"' for j in JOKERS) + "]",
        "",
        f"# {N_NORMAL} normal cubes, 3 letters each; each letter is on two opposite faces.",
        "normal = [",
    ]
    for k in range(0, len(cubes), 10):
        lines.append("    " + ", ".join(f'"{c}"' for c in cubes[k : k + 10]) + ",")
    lines += [
        "]",
        "",
        "# Informational (not read by CubeSet): the targets the set was built from, for tests and docs.",
        "[meta]",
        f"words = {len(words)}",
        f"slots = {SLOTS}",
        "",
        "[meta.target_share]",
    ]
    for ch in ALPHABET:
        lines.append(f"{ch} = {freq[ch]:.6f}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Print the default set TOML generated from the word list given as the only argument."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m kubasolve.games.kubagram.data.make_default_set /path/to/dutch", file=sys.stderr)
        return 2
    words = read_words(Path(args[0]))
    freq = target_frequencies(words)
    counts = allocate(freq)
    cubes = build_cubes(counts, pair_cooccurrence(words))
    sys.stdout.write(render(words, freq, counts, cubes))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
