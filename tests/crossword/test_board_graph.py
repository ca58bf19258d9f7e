"""The GADDAG board graph: every word reachable from every split, nothing else accepted; cached
on disk next to the lexicon, checked on load, rebuilt when damaged."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kubasolve.lexicon import Lexicon
from kubasolve.lexicon.board_graph import build_board_graph, load_board_graph


def _children(nodes: np.ndarray, e: int) -> dict[int, int]:
    """Symbol -> child edge of node ``e`` (slow, from the layout: mask bits 0-31, first child >> 33)."""
    word = int(nodes[e])
    syms = [s for s in range(32) if (word >> s) & 1]
    return {s: (word >> 33) + j for j, s in enumerate(syms)}


def _walk(nodes: np.ndarray, symbols: list[int]) -> bool:
    """True when the symbol path exists from the root and its last edge accepts."""
    e = 0
    for s in symbols:
        nxt = _children(nodes, e).get(s)
        if nxt is None:
            return False
        e = nxt
    return bool((int(nodes[e]) >> 32) & 1)


def _gaddag_strings(word: str, sep: int) -> list[list[int]]:
    codes = [ord(c) - ord("a") for c in word]
    out = []
    for i in range(1, len(codes) + 1):
        s = codes[:i][::-1]
        if i < len(codes):
            s += [sep, *codes[i:]]
        out.append(s)
    return out


@settings(max_examples=30, deadline=None)
@given(st.sets(st.text("abcde", min_size=1, max_size=7), min_size=1, max_size=40), st.lists(st.text("abcde", min_size=1, max_size=8), max_size=20))
def test_graph_accepts_exactly_the_gaddag_strings(words, probes):
    graph = build_board_graph(sorted(words), "abcde", max_len=6)
    kept = {w for w in words if 2 <= len(w) <= 6}
    assert graph.n_words == len(kept)
    sep = graph.separator
    for w in kept:
        assert all(_walk(graph.nodes, s) for s in _gaddag_strings(w, sep))
    for p in probes:
        for s in _gaddag_strings(p, sep):
            assert _walk(graph.nodes, s) == (p in kept)
    # child edges lie inside the array and every edge but the root's pseudo-edge is some node's
    # child (children blocks are shared by equal sub-graphs, none is orphaned)
    slots = sorted(c for e in range(graph.n_edges) for c in set(_children(graph.nodes, e).values()))
    assert all(0 < c < graph.n_edges for c in slots)
    assert set(slots) == set(range(1, graph.n_edges))


def test_graph_is_minimised():
    # "ab", "cb" share suffix structure; a trie of all GADDAG strings would have more edges
    graph = build_board_graph(["ab", "cb", "db", "eb"], "abcde", max_len=15)
    trie_edges = len({tuple(s[:i]) for w in ["ab", "cb", "db", "eb"] for s in _gaddag_strings(w, 5) for i in range(1, len(s) + 1)})
    assert graph.n_edges - 1 < trie_edges


def test_cache_round_trip_and_damage(tmp_path, monkeypatch, caplog):
    monkeypatch.setenv("KUBASOLVE_CACHE_DIR", str(tmp_path / "cache"))
    wl = tmp_path / "words.txt"
    wl.write_text("kat\nkater\nrat\nraten\nat\nta\n", encoding="utf-8")
    lex = Lexicon.from_wordlist(wl)
    built = load_board_graph(lex, 15)
    assert not built.from_cache
    lex2 = Lexicon.from_wordlist(wl)  # a new object: no in-process memo
    cached = load_board_graph(lex2, 15)
    assert cached.from_cache and np.array_equal(cached.nodes, built.nodes)
    folder = next((tmp_path / "cache").rglob("board_graph-*"))
    data = (folder / "nodes.npy").read_bytes()
    damaged = bytearray(data)
    damaged[-16] ^= 0xFF  # same size, one byte flipped
    (folder / "nodes.npy").write_bytes(bytes(damaged))
    lex3 = Lexicon.from_wordlist(wl)
    rebuilt = load_board_graph(lex3, 15)
    assert not rebuilt.from_cache and np.array_equal(rebuilt.nodes, built.nodes)
    assert "checksum" in caplog.text
    assert load_board_graph(lex3, 15) is rebuilt  # memoised per lexicon


def test_rebuild_removes_graphs_of_older_formats(tmp_path, monkeypatch):
    from kubasolve.lexicon.board_graph import GRAPH_FORMAT

    monkeypatch.setenv("KUBASOLVE_CACHE_DIR", str(tmp_path / "cache"))
    wl = tmp_path / "words.txt"
    wl.write_text("kat\nrat\nat\n", encoding="utf-8")
    lex = Lexicon.from_wordlist(wl)
    load_board_graph(lex, 15)
    current = next((tmp_path / "cache").rglob(f"board_graph-v{GRAPH_FORMAT}-len15"))
    stale = current.parent / f"board_graph-v{GRAPH_FORMAT - 1}-len15"
    other_len = current.parent / f"board_graph-v{GRAPH_FORMAT - 1}-len7"
    stale.mkdir()
    other_len.mkdir()
    (current / "meta.json").unlink()  # force a rebuild
    load_board_graph(Lexicon.from_wordlist(wl), 15)
    assert (current / "meta.json").exists() and not stale.exists() and other_len.exists()


def test_nl_graph_size_and_warm_load(nl_lexicon):
    graph = load_board_graph(nl_lexicon, 15)
    assert graph.n_words == 299_609  # words of 2..15 letters (the golden files' count)
    assert graph.nbytes == 8 * graph.n_edges < 24 * 2**20  # one 64-bit word an edge
