"""Hypothesis: the tries and the compiled arrays hold exactly the word set, over random alphabets."""

from __future__ import annotations

from collections import Counter

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubasolve.kernels.trie_walk import terminal_ids_below, walk
from kubasolve.lexicon import Alphabet, CompiledLexicon, Lexicon
from kubasolve.lexicon.compiled import ARRAY_NAMES
from kubasolve.lexicon.layout import LETTER_BITS, LETTER_MASK, NO_WORD

from .conftest import ROMANIAN, SPANISH

# Lower-case, NFC-stable single code points (so normalisation leaves generated words unchanged).
POOL = "abcdefghijklmnopqrstuvwxyz" "ăâîșțñéèëïöüçåæøßœ" "αβγδεζηθικλμνξοπρστυφχψω"
assert all(c.lower() == c and len(c.lower()) == 1 for c in POOL)

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def alphabets(draw: st.DrawFn) -> str:
    """Fixed game alphabets or a random ordered selection of the pool (order = code order)."""
    fixed = draw(st.sampled_from(["abcdefghijklmnopqrstuvwxyz", ROMANIAN, SPANISH, "ab", "ñ", None]))
    if fixed is not None:
        return fixed
    return "".join(draw(st.permutations(list(POOL)))[: draw(st.integers(1, 40))])


@st.composite
def lexicon_cases(draw: st.DrawFn) -> tuple[str, list[str], list[str]]:
    """(alphabet, words, queries): words over a few letters of the alphabet so prefixes are shared."""
    letters = draw(alphabets())
    used = draw(st.lists(st.sampled_from(letters), min_size=1, max_size=6, unique=True))
    word = st.text(alphabet=st.sampled_from(used), min_size=1, max_size=8)
    words = draw(st.lists(word, min_size=1, max_size=40))
    queries = draw(st.lists(st.one_of(st.sampled_from(words), word, st.text(alphabet=st.sampled_from(letters), max_size=9)), max_size=30))
    return letters, words, queries


@SETTINGS
@given(lexicon_cases())
def test_membership_equals_set_membership(case: tuple[str, list[str], list[str]]) -> None:
    letters, words, queries = case
    lex = Lexicon.from_words(words, letters)
    expected = set(words)
    assert len(lex) == len(expected)
    for q in queries + words:
        assert (q in lex) == (q in expected), q
        assert (lex.word_id(q) >= 0) == (q in expected)
    for w in expected:
        assert lex.word(lex.word_id(w)) == w


@SETTINGS
@given(lexicon_cases())
def test_prefix_and_suffix_enumeration_equal_filtered_sorted_list(case: tuple[str, list[str], list[str]]) -> None:
    letters, words, queries = case
    lex = Lexicon.from_words(words, letters)
    key = Alphabet(letters).sort_key
    ordered = sorted(set(words), key=key)
    assert list(lex) == ordered
    affixes = {""} | set(queries) | {w[:k] for w in words for k in range(len(w) + 1)} | {w[k:] for w in words for k in range(len(w) + 1)}
    for a in affixes:
        assert lex.words_with_prefix(a) == [w for w in ordered if w.startswith(a)], a
        assert lex.words_with_suffix(a) == [w for w in ordered if w.endswith(a)], a
        assert lex.has_prefix(a) == any(w.startswith(a) for w in ordered)
    assert lex.words_with_prefix("", limit=2) == ordered[:2]


@SETTINGS
@given(lexicon_cases(), st.integers(0, 50))
def test_the_first_words_with_a_prefix_are_the_sorted_ones(case: tuple[str, list[str], list[str]], limit: int) -> None:
    """``limit`` stops the trie walk early instead of sorting every match (1.46 s for ``("", limit=10)``
    on the Romanian list, issue 23): the answer is still the head of the sorted matches, for the
    Python walk and for the compiled one (a limit above ``_DFS_LIMIT``)."""
    letters, words, queries = case
    lex = Lexicon.from_words(words, letters)
    ordered = sorted(set(words), key=Alphabet(letters).sort_key)
    affixes = {""} | set(queries) | {w[:k] for w in words for k in range(len(w) + 1)} | {w[k:] for w in words for k in range(len(w) + 1)}
    for a in affixes:
        matching = [w for w in ordered if w.startswith(a)]
        assert lex.words_with_prefix(a, limit=limit) == matching[:limit], (a, limit)
        assert lex.words_with_prefix(a, limit=Lexicon._DFS_LIMIT + 1) == matching[: Lexicon._DFS_LIMIT + 1]
        assert lex.words_with_suffix(a, limit=limit) == [w for w in ordered if w.endswith(a)][:limit], (a, limit)
    assert lex.words_with_prefix("not in the alphabet: ¿", limit=3) == []


def _check_search_edges(c: CompiledLexicon) -> None:
    """Walking the packed search graph from the root mirrors the CSR trie node for node (same
    letters, terminal flags, heights, child counts), summed edge ranks name the right word at every
    terminal, and every search edge is reachable; the graph is never larger than the trie."""
    from kubasolve.lexicon import layout

    assert c.search_edges.shape[0] <= c.edges.shape[0]
    seen = set()
    stack = [(0, 0, int(c.first_edge[1]), 0)]  # (trie node, search-edge range, rank so far)
    while stack:
        node, lo, hi, rank = stack.pop()
        assert hi - lo == c.first_edge[node + 1] - c.first_edge[node]
        for i, e in enumerate(range(c.first_edge[node], c.first_edge[node + 1])):
            child = int(c.edges[e]) >> LETTER_BITS
            q = lo + i
            seen.add(q)
            s = int(c.search_edges[q])
            assert s & LETTER_MASK == int(c.edges[e]) & LETTER_MASK
            assert (s >> layout.SEARCH_TERMINAL_SHIFT) & 1 == int(c.node_word[child] != NO_WORD)
            assert (s >> layout.SEARCH_HEIGHT_SHIFT) & 0xFF == c.node_height[child]
            n_child = (s >> layout.SEARCH_NCHILD_SHIFT) & 0xFF
            assert n_child == c.first_edge[child + 1] - c.first_edge[child]
            child_rank = rank + int(c.edge_rank[q])
            if c.node_word[child] != NO_WORD:
                assert c.rank_word[child_rank] == c.node_word[child]
            first = s >> layout.SEARCH_FIRST_SHIFT
            stack.append((child, first, first + n_child, child_rank))
    assert len(seen) == c.search_edges.shape[0]


def _python_heights(first_edge: np.ndarray, edges: np.ndarray) -> list[int]:
    n = first_edge.shape[0] - 1
    height = [0] * n
    for v in range(n - 1, -1, -1):  # children have larger indices than parents (pre-order)
        for e in range(first_edge[v], first_edge[v + 1]):
            c = int(edges[e]) >> LETTER_BITS
            height[v] = max(height[v], height[c] + 1)
    return height


@SETTINGS
@given(lexicon_cases())
def test_compiled_arrays_walk_to_exactly_the_word_set(case: tuple[str, list[str], list[str]]) -> None:
    letters, words, queries = case
    lex = Lexicon.from_words(words, letters)
    alpha = lex.alphabet
    c = lex.compiled
    expected = set(words)
    ordered = sorted(expected, key=alpha.sort_key)

    # DFS listing from the root equals the sorted words
    ids = terminal_ids_below(c.first_edge, c.edges, c.node_word, 0)
    assert [lex.word(i) for i in ids] == ordered

    # one node per distinct prefix (root = empty prefix); pre-order numbering, letter-sorted edges
    prefixes = {w[:k] for w in expected for k in range(len(w) + 1)}
    assert c.n_nodes == len(prefixes)
    assert c.edges.shape[0] == c.n_nodes - 1
    for v in range(c.n_nodes):
        labels = [int(e) & LETTER_MASK for e in c.edges[c.first_edge[v] : c.first_edge[v + 1]]]
        assert labels == sorted(set(labels)) and all(lab < len(alpha) for lab in labels)
        assert all(int(e) >> LETTER_BITS > v for e in c.edges[c.first_edge[v] : c.first_edge[v + 1]])
        if c.first_edge[v] == c.first_edge[v + 1]:
            assert c.node_word[v] != NO_WORD  # every leaf ends a word

    # walking each word (and each query) ends on a terminal exactly for words
    for q in set(queries) | expected:
        node = walk(c.first_edge, c.edges, alpha.encode(q))
        is_word = node >= 0 and c.node_word[node] != NO_WORD
        assert is_word == (q in expected), q
        if is_word:
            assert c.node_word[node] == lex.word_id(q)
    for p in prefixes:
        node = walk(c.first_edge, c.edges, alpha.encode(p))
        assert node >= 0
        below = [lex.word(i) for i in terminal_ids_below(c.first_edge, c.edges, c.node_word, node)]
        assert below == [w for w in ordered if w.startswith(p)]
        assert c.node_height[node] == max(len(w) for w in below) - len(p)

    assert list(c.node_height) == _python_heights(c.first_edge, c.edges)
    if "search_edges" in ARRAY_NAMES:  # packed search edges mirror the per-node arrays (layout.py)
        _check_search_edges(c)

    # count matrix and lengths, row = word id
    assert c.word_counts.shape == (len(expected), len(alpha))
    for w in expected:
        i = lex.word_id(w)
        want = np.zeros(len(alpha), np.uint8)
        for letter, n in Counter(w).items():
            want[alpha.code(letter)] = n
        assert np.array_equal(c.word_counts[i], want), w
        assert c.word_length[i] == len(w)
    c.check_shapes(len(alpha))


def test_listing_survives_wide_and_deep_tries() -> None:
    """Regression: the DFS stack of ``terminal_ids_below`` once had a fixed size (300) and overflowed."""
    letters = ROMANIAN
    words = ["a" * (d - 1) + x for d in range(1, 40) for x in letters]  # ~30 pending siblings per level
    lex = Lexicon.from_words(words, letters)
    assert list(lex) == sorted(set(words), key=lex.alphabet.sort_key)


def test_alphabet_order_not_code_point_order() -> None:
    lex = Lexicon.from_words(["ș", "t", "s", "ță", "sa"], ROMANIAN)
    assert list(lex) == ["s", "sa", "ș", "t", "ță"]
    assert lex.words_with_prefix("s") == ["s", "sa"]
    assert lex.words_with_suffix("ă") == ["ță"]
    assert Lexicon.from_words(["o", "ñu", "nu"], SPANISH).words_with_suffix("u") == ["nu", "ñu"]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lexicon_cases(), st.lists(st.sampled_from(["e-mail", "X1", "zo'n", "", "  "]), max_size=4))
def test_cache_round_trip(case: tuple[str, list[str], list[str]], junk: list[str]) -> None:
    """A word list compiled into an empty cache loads back memory-mapped with identical answers."""
    import tempfile
    from pathlib import Path

    import pytest

    letters, words, queries = case
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as mp:
        mp.setenv("KUBASOLVE_CACHE_DIR", str(Path(tmp) / "cache"))
        path = Path(tmp) / "words.txt"
        path.write_text("\n".join(words + junk) + "\n", encoding="utf-8")
        built = Lexicon.from_wordlist(path, alphabet=letters)
        loaded = Lexicon.from_wordlist(path, alphabet=letters)
        assert not built.from_cache and loaded.from_cache and loaded.cache_dir == built.cache_dir
        assert list(loaded) == list(built) == sorted(set(words), key=Alphabet(letters).sort_key)
        assert loaded.report == built.report and loaded.report["lines"] == len(words) + len(junk)
        for q in queries + ["", *words]:
            assert (q in loaded) == (q in built) == (q in set(words))
            assert loaded.words_with_prefix(q) == built.words_with_prefix(q)
            assert loaded.words_with_suffix(q) == built.words_with_suffix(q)
        for name, arr in built.compiled.arrays().items():
            assert np.array_equal(np.asarray(loaded.compiled.arrays()[name]), arr), name
