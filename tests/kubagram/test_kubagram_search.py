"""The word-search kernel against the exhaustive reference, on random lexicons, pools and rules."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubasolve.games.kubagram.movegen import KubagramSolver
from kubasolve.games.kubagram.position import KubagramPosition, Tile
from kubasolve.games.kubagram.rules import DEFAULT_JOKERS, KubagramRules
from kubasolve.lexicon import Lexicon

from .reference import reference_words

LETTERS = "aegnortkdily"
words_st = st.lists(st.text(alphabet=LETTERS, min_size=1, max_size=9), min_size=1, max_size=60, unique=True)
choice_st = st.text(alphabet=LETTERS, min_size=2, max_size=3).filter(lambda s: len(set(s)) > 1)


@st.composite
def positions(draw):
    fixed = draw(st.text(alphabet=LETTERS + "xz", max_size=30))
    jokers = draw(st.lists(st.sampled_from(DEFAULT_JOKERS), max_size=3))
    choices = draw(st.lists(choice_st, max_size=2))
    tiles = [Tile(c) for c in fixed] + [Tile(j, joker=True) for j in jokers] + [Tile(c) for c in choices]
    order = draw(st.permutations(range(len(tiles)))) if tiles else []
    return KubagramPosition(tuple(tiles[i] for i in order), last_cube=draw(st.booleans()))


def check_move(move, position, rules):
    """A returned move is really spelled by its tiles, with the jokers and score it claims."""
    assert len(move.tiles) == len(move.word) == len(set(move.tiles))
    for letter, idx in zip(move.word, move.tiles):
        assert letter in position.tiles[idx].letters
    assert move.jokers == sum(position.tiles[i].joker for i in move.tiles)
    assert move.score == rules.word_score(move.word, move.jokers) == (move.letters + move.bonus) * move.multiplier


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=words_st, position=positions(), min_length=st.integers(2, 8), top=st.integers(1, 6))
def test_best_words_equal_reference(words, position, min_length, top):
    rules = KubagramRules(min_length=min_length)
    lexicon = Lexicon.from_words(words)
    solver = KubagramSolver(lexicon, rules)
    expected = reference_words(words, position, rules)
    got = solver.best_words(position)
    assert [(m.word, m.jokers, m.score) for m in got] == expected
    for m in got:
        check_move(m, position, rules)
    # top-k with branch-and-bound returns exactly the first k of the full ranking (ties by word)
    assert [(m.word, m.jokers, m.score) for m in solver.best_words(position, top=top)] == expected[:top]


def test_nl_positions_equal_reference(nl, rules):
    """Real lexicon: random Dutch-like fields with jokers, checked against a scan of all 348k words."""
    import random

    rng = random.Random(20261202)
    words = list(nl)
    freq = "eeeeeeeennnnnaaaaarrrrttttiiiioooosssddddlllgggkkmmhvupbjwzc"
    solver = KubagramSolver(nl, rules)
    for n_tiles, jokers in [(8, ["eygr"]), (10, ["pltole", "odrkte"]), (12, [])]:
        letters = "".join(rng.choice(freq) for _ in range(n_tiles))
        position = KubagramPosition.from_letters(letters, jokers=jokers)
        expected = reference_words(words, position, rules)
        got = solver.best_words(position)
        assert [(m.word, m.jokers, m.score) for m in got] == expected
        assert solver.best_words(position, top=3) == got[:3]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=words_st, position=positions(), min_length=st.integers(2, 8))
def test_count_scan_baseline_equals_reference(words, position, min_length):
    """The benchmark's count-scan baseline kernel is itself exact (<= 6 choice tiles)."""
    from kubasolve.bench.kubagram_baselines import count_scan_words

    if sum(not t.fixed for t in position.tiles) > 6:
        return
    rules = KubagramRules(min_length=min_length)
    lexicon = Lexicon.from_words(words)
    solver = KubagramSolver(lexicon, rules)
    ids, jokers, scores = count_scan_words(solver, position)
    got = sorted(((lexicon.word(int(i)), int(j), int(s)) for i, j, s in zip(ids, jokers, scores)), key=lambda t: (-t[2], t[0]))
    assert got == reference_words(words, position, rules)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    words=st.lists(st.text(alphabet="aegnort", min_size=2, max_size=7), min_size=1, max_size=40, unique=True),
    fixed=st.text(alphabet="aegnort", max_size=6),
    flex=st.lists(st.tuples(st.text(alphabet="aegnort", min_size=2, max_size=2).filter(lambda s: s[0] != s[1]), st.booleans()), min_size=7, max_size=9),
)
def test_many_choice_tiles_use_the_multiword_bitset(words, fixed, flex):
    """More than 6 jokers/choice cubes: the subset bitset spans several 64-bit words."""
    tiles = tuple(Tile(c) for c in fixed) + tuple(Tile(letters, joker=j) for letters, j in flex)
    position = KubagramPosition(tiles)
    rules = KubagramRules(min_length=2)
    solver = KubagramSolver(Lexicon.from_words(words), rules)
    got = solver.best_words(position)
    assert [(m.word, m.jokers, m.score) for m in got] == reference_words(words, position, rules)
    for m in got:
        check_move(m, position, rules)


def test_top_beyond_the_answer_costs_nothing(nl, rules):
    """``top`` far beyond the number of words gives all of them, without allocating from ``top`` (issue 8:
    ``--top 1000000000`` took 24 s and 8 GB)."""
    import resource

    from kubasolve.games.kubagram import solver_for
    from kubasolve.games.kubagram.position import KubagramPosition

    solver = solver_for(nl, rules)
    position = KubagramPosition.from_letters("kroegentoch")
    every = solver.word_table(position)
    rss_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux (numba memory included)
    huge = solver.word_table(position, top=10**9)
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss_before
    assert list(huge.word_ids) == list(every.word_ids) and len(every) > 100
    assert grown < 200_000
    assert list(solver.word_table(position, top=5000).scores) == list(every.scores[:5000])


@settings(max_examples=300, deadline=None)
@given(fixed=st.text(alphabet="aenrt", max_size=8), joker=st.text(alphabet="aenrt", min_size=1, max_size=3),
       at=st.integers(0, 8), word=st.text(alphabet="aenrt", min_size=1, max_size=7), jokers=st.integers(0, 1))
def test_assignment_fast_paths_equal_the_search(fixed, joker, at, word, jokers):
    """The fixed-only and one-joker shortcuts give exactly the depth-first search's assignment (or both None)."""
    from kubasolve.games.kubagram.assign import TilePool, assign_words, search_assignment
    from kubasolve.games.kubagram.position import Tile

    tiles = [Tile(c) for c in fixed]
    tiles.insert(min(at, len(tiles)), Tile(joker, joker=True))
    pool = TilePool.from_tiles(tiles)
    assert assign_words([word], pool, [jokers]) == search_assignment([word], pool, [jokers])


@settings(max_examples=300, deadline=None)
@given(fixed=st.text(alphabet="aenrt", max_size=9), joker=st.one_of(st.none(), st.text(alphabet="aenrt", min_size=1, max_size=3)),
       at=st.integers(0, 9), words=st.lists(st.text(alphabet="aenrt", min_size=1, max_size=7), min_size=1, max_size=6),
       jokers=st.lists(st.integers(0, 1), min_size=6, max_size=6))
def test_assignment_kernel_equals_the_search(fixed, joker, at, words, jokers):
    """kernels/tile_assignment.py lays many words at once (no joker, or the field's only flex tile, a joker) exactly
    as the depth-first search lays each of them, and fails exactly where the search finds no assignment."""
    import numpy as np

    from kubasolve.games.kubagram.assign import TilePool, search_assignment
    from kubasolve.games.kubagram.position import Tile
    from kubasolve.kernels.tile_assignment import assign_rows

    letters = "aenrt"
    tiles = [Tile(c) for c in fixed]
    if joker is not None:
        tiles.insert(min(at, len(tiles)), Tile(joker, joker=True))
    pool = TilePool.from_tiles(tiles)
    jokers = [j if joker is not None else 0 for j in jokers[: len(words)]]
    width = max(len(w) for w in words) + 2
    codes = np.full((len(words), width), 99, np.uint8)  # past each word: scratch the kernel must not read
    for i, w in enumerate(words):
        codes[i, : len(w)] = [letters.index(c) for c in w]
    fixed_counts = np.array([len(pool.fixed.get(c, ())) for c in letters], np.int64)
    fixed_tiles = np.zeros((len(letters), max(int(fixed_counts.max()), 1)), np.int64)
    for c, indices in pool.fixed.items():
        fixed_tiles[letters.index(c), : len(indices)] = indices
    mask = sum(1 << letters.index(c) for c in set(joker)) if joker is not None else 0
    joker_tile = pool.flex[0][0] if joker is not None else -1
    rows = np.array(list(range(len(words)))[::-1], np.int64)  # any order of rows
    out = np.full((len(words), width), -7, np.int64)
    placed = assign_rows(codes, np.array([len(w) for w in words], np.int64), rows, np.array(jokers, np.int64)[rows],
                         fixed_tiles, fixed_counts, mask, joker_tile, out)
    for k, row in enumerate(rows.tolist()):
        expected = search_assignment([words[row]], pool, [jokers[row]])
        assert bool(placed[k]) == (expected is not None)
        if expected is not None:
            assert tuple(out[k, : len(words[row])].tolist()) == expected[0]


@settings(max_examples=200, deadline=None)
@given(scores=st.lists(st.one_of(st.integers(0, 40), st.integers(0, 10**7)), max_size=60), top=st.integers(0, 70))
def test_rank_results_equal_a_stable_sort(scores, top):
    """Best first, ties in walk (alphabet) order, cut to ``top`` (0: all); both the counting sort (small score
    range) and the fallback sort (wide range) against Python's sorted()."""
    import numpy as np

    from kubasolve.kernels.word_search import rank_results

    n = len(scores)
    ranks = np.arange(n, dtype=np.int64) * 3  # ascending, as the walk emits them
    rank_word = np.arange(3 * n + 1, dtype=np.int32)[::-1].copy()
    lengths = np.arange(n, dtype=np.int16) % 7
    jokers = (np.arange(n, dtype=np.int8) % 3).astype(np.int8)
    order, ids, out_len, out_jok, out_score = rank_results(
        ranks, lengths, jokers, np.array(scores, np.int64), rank_word, top)
    expected = sorted(range(n), key=lambda i: -scores[i])[: top or n]
    assert order.tolist() == expected
    assert ids.tolist() == [int(rank_word[ranks[i]]) for i in expected]
    assert out_len.tolist() == [int(lengths[i]) for i in expected]
    assert out_jok.tolist() == [int(jokers[i]) for i in expected]
    assert out_score.tolist() == [scores[i] for i in expected]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=words_st, position=positions(), min_length=st.integers(2, 5), max_nodes=st.integers(0, 200))
def test_all_words_kernel_equals_the_general_kernel(words, position, min_length, max_nodes):
    """search_all_words_into (its own compiled walk) answers exactly as search_words_into: the same rows, node
    count and stop under a node budget; it refuses the searches it is not for."""
    import numpy as np
    import pytest

    from kubasolve.kernels.word_search import SMALL_FLEX, UNLIMITED_NODES, search_all_words_into, search_words_into

    solver = KubagramSolver(Lexicon.from_words(words), KubagramRules(min_length=min_length))
    pool = solver._pool(position)
    r = solver.rules
    lo, hi = solver.root

    def run(kernel, limit, top_k=0, with_codes=False):
        outs = (np.empty(4096, np.int64), np.empty(4096, np.int16), np.empty(4096, np.int8), np.empty(4096, np.int64),
                np.empty((4096 if with_codes else 0, 64), np.uint8))
        n, complete, nodes, stopped = kernel(
            solver.arrays.search_edges, solver.arrays.edge_rank, solver.edge_need, lo, hi, pool.fixed_counts,
            pool.flex_masks, pool.flex_joker, min_length, 255, solver.values, r.bonus_from, r.bonus_step,
            r.joker_factor, top_k, pool.topsum, with_codes, limit, UNLIMITED_NODES, *outs)
        return [a[:n].tolist() for a in outs[:4]], complete, nodes, stopped

    if len(pool.flex_masks) > SMALL_FLEX:
        with pytest.raises(ValueError):
            run(search_all_words_into, UNLIMITED_NODES)
        return
    for limit in (UNLIMITED_NODES, max_nodes):
        assert run(search_all_words_into, limit) == run(search_words_into, limit)
    for top_k, with_codes in ((1, False), (0, True)):
        with pytest.raises(ValueError):
            run(search_all_words_into, UNLIMITED_NODES, top_k, with_codes)
