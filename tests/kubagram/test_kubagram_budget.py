"""Work budgets of the Kubagram solver (``SearchBudget``: ``max_nodes``, ``movetime_ms``) and the kernels' node
counters: the budget is respected, the answer within it is a valid one, an unlimited budget gives the exact one."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubasolve.errors import PositionError
from kubasolve.games.kubagram.movegen import KubagramSolver, SearchBudget
from kubasolve.games.kubagram.position import KubagramPosition, TableWord
from kubasolve.games.kubagram.rules import KubagramRules
from kubasolve.kernels.compound_search import search_compounds
from kubasolve.kernels.word_search import UNLIMITED_NODES, search_words_limited
from kubasolve.lexicon import Lexicon

from .reference import reference_compounds, reference_words
from .test_kubagram_compounds import brute_force_claim_value
from .test_kubagram_search import check_move, positions, words_st

SLOW = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _kernel(solver: KubagramSolver, position: KubagramPosition, top: int, max_nodes: int, need: np.ndarray | None = None):
    pool = solver._pool(position)
    r = solver.rules
    a = solver.arrays
    return search_words_limited(
        a.search_edges, a.edge_rank, solver.edge_need if need is None else need, solver.root[0], solver.root[1],
        pool.fixed_counts, pool.flex_masks, pool.flex_joker, r.min_word_length(position.last_cube), 255, solver.values,
        r.bonus_from, r.bonus_step, r.joker_factor, top, pool.topsum, 1 << 14, False, max_nodes, UNLIMITED_NODES,
    )


@SLOW
@given(words=words_st, position=positions(), top=st.integers(0, 3), fraction=st.floats(0, 1))
def test_word_kernel_node_budget(words, position, top, fraction):
    """At most ``max_nodes`` nodes; every word found within the budget is in the full answer with the same jokers and
    score; the requirement masks change nothing but the work; with enough nodes the answer is the full one."""
    solver = KubagramSolver(Lexicon.from_words(words), KubagramRules(min_length=2))
    full = _kernel(solver, position, top, UNLIMITED_NODES)
    no_need = _kernel(solver, position, top, UNLIMITED_NODES, np.zeros(0, np.uint64))
    for k in range(4):
        assert np.array_equal(full[k], no_need[k])
    assert full[6] <= no_need[6] and not full[7]
    limit = int(full[6] * fraction)
    if limit < 1:
        limit = 1
    part = _kernel(solver, position, top, limit)
    assert part[6] <= limit
    assert part[7] == (full[6] > limit)
    if not part[7]:
        for k in range(4):
            assert np.array_equal(full[k], part[k])
    # every word found is a real answer row (with top-k it may be one the full search drops later)
    every = _kernel(solver, position, 0, UNLIMITED_NODES)
    every_rows = {(int(r), int(n), int(j), int(s)) for r, n, j, s in zip(*every[:4])}
    assert {(int(r), int(n), int(j), int(s)) for r, n, j, s in zip(*part[:4])} <= every_rows


@SLOW
@given(words=words_st, position=positions(), top=st.integers(1, 4), max_nodes=st.integers(1, 40))
def test_best_words_within_budget_are_valid(words, position, top, max_nodes):
    rules = KubagramRules(min_length=2)
    solver = KubagramSolver(Lexicon.from_words(words), rules)
    expected = reference_words(words, position, rules)
    budget = SearchBudget(max_nodes=max_nodes)
    got = solver.best_words(position, top=top, budget=budget)
    assert budget.nodes <= max_nodes
    for m in got:
        check_move(m, position, rules)
        assert (m.word, m.jokers, m.score) in expected
    if not budget.exhausted:
        assert [(m.word, m.jokers, m.score) for m in got] == expected[:top]
    unlimited = SearchBudget()
    assert [(m.word, m.jokers, m.score) for m in solver.best_words(position, top=top, budget=unlimited)] == expected[:top]
    assert not unlimited.exhausted


TABLE_WORDS = ["kroeg", "en", "tocht", "regen", "toe", "oog", "rood"]
COMPOUND_LEXICON = ["kroeg", "kroegen", "tocht", "kroegentocht", "kroegentochten", "en", "ten", "tochten", "regen",
                    "regent", "tegen", "groen", "groente", "groenten", "erg", "ergo", "toen", "toe", "rente", "renten",
                    "geen", "teken", "tekenen", "oog", "ogen", "rood", "rode", "roede", "oogen", "roodoog", "toeoog"]


@SLOW
@given(table=st.lists(st.sampled_from(TABLE_WORDS), min_size=1, max_size=6, unique=True),
       field=st.text(alphabet="kroegntch", max_size=8), max_nodes=st.integers(1, 60))
def test_compounds_within_budget_are_valid(table, field, max_nodes):
    rules = KubagramRules(min_length=2, compound_with_field_words=True)
    solver = KubagramSolver(Lexicon.from_words(COMPOUND_LEXICON), rules)
    position = KubagramPosition.from_letters(field, table=[TableWord(w, owner=i % 2) for i, w in enumerate(table)])
    exact = solver.compound_moves(position)
    assert {(m.word, m.parts) for m in exact} == reference_compounds(set(COMPOUND_LEXICON), position, rules)
    budget = SearchBudget(max_nodes=max_nodes)
    got = solver.compound_moves(position, budget=budget)
    assert budget.nodes <= max_nodes
    assert set(got) <= set(exact)  # each one a real compound, scored as in the full answer
    if not budget.exhausted:
        assert got == exact
    assert solver.compound_moves(position, budget=SearchBudget()) == exact


def test_compound_kernel_counts_parts_tried():
    """One node per part tried; a budget below the full count stops the search with a prefix of its sequences."""
    solver = KubagramSolver(Lexicon.from_words(COMPOUND_LEXICON), KubagramRules(min_length=2))
    parts = [solver.lexicon.encode(w) for w in TABLE_WORDS]
    offsets = np.zeros(len(parts) + 1, np.int64)
    offsets[1:] = np.cumsum([len(p) for p in parts])
    codes = np.concatenate(parts).astype(np.uint8)
    args = (solver.arrays.search_edges, solver.root[0], solver.root[1], codes, offsets, len(parts), 0, len(parts))
    flat, offs, nodes, stopped = search_compounds(*args, UNLIMITED_NODES)
    assert not stopped and len(offs) > 2 and nodes >= len(parts)
    seqs = [tuple(flat[offs[s]:offs[s + 1]]) for s in range(len(offs) - 1)]
    for limit in range(1, nodes):
        f2, o2, n2, s2 = search_compounds(*args, limit)
        assert n2 == limit and s2
        assert [tuple(f2[o2[s]:o2[s + 1]]) for s in range(len(o2) - 1)] == seqs[: len(o2) - 1]
    assert search_compounds(*args, nodes)[3] is False


@pytest.fixture(scope="module")
def nl_solver(nl, rules):
    return KubagramSolver(nl, rules)


CLAIM_POSITION = KubagramPosition.from_letters("kroegentocht", jokers=["eygr"], table=["en", "huis"])  # ~50,000 nodes


def _check_claim(claim, position, lexicon, rules):
    used = [t for w in claim.words for t in w.tiles] + [t for c in claim.compounds if c.field_word for t in c.field_word.tiles]
    assert len(used) == len(set(used))  # disjoint field tiles
    for w in claim.words:
        assert w.word in lexicon
        check_move(w, position, rules)
    table_parts = [p for c in claim.compounds for p in c.table_parts]
    assert len(table_parts) == len(set(table_parts))
    for c in claim.compounds:
        assert c.word in lexicon and "".join(c.parts) == c.word


@pytest.mark.parametrize("max_nodes", [1, 50, 2_000, 20_000])
def test_best_move_within_node_budget_is_legal(nl_solver, nl, rules, max_nodes):
    exact = nl_solver.best_move(CLAIM_POSITION)
    budget = SearchBudget(max_nodes=max_nodes)
    claim = nl_solver.best_move(CLAIM_POSITION, budget=budget)
    assert budget.nodes <= max_nodes and budget.exhausted
    _check_claim(claim, CLAIM_POSITION, nl, rules)
    assert claim.gain <= exact.gain
    if max_nodes >= 2_000:
        assert not claim.empty  # the best single word is searched first
    unlimited = SearchBudget()
    assert nl_solver.best_move(CLAIM_POSITION, budget=unlimited) == exact and not unlimited.exhausted


def test_best_move_time_budget(nl_solver, nl, rules):
    """A 2 ms budget answers fast with a legal claim, on a position whose full search takes about 2 s (850,000
    nodes, measured) and a budget ten times as long answers at least as well."""
    position = KubagramPosition.from_letters("kroegentochtaen", jokers=["eygr"], table=["en", "huis", "kroeg", "water"])
    nl_solver.best_move(position, budget=SearchBudget(max_nodes=20_000))  # kernels compiled or loaded before timing
    answers = []
    for ms in (2, 20):
        t0 = time.perf_counter()
        budget = SearchBudget(movetime_ms=ms)
        claim = nl_solver.best_move(position, budget=budget)
        spent = time.perf_counter() - t0
        assert budget.exhausted and spent < 0.1 + ms / 1e3 * 5, (ms, spent)
        _check_claim(claim, position, nl, rules)
        answers.append(claim.gain)
    assert min(answers) > 0


def test_node_counts_do_not_depend_on_earlier_requests(nl, rules):
    """A fresh solver starts with small output buffers and retries a search that overflows them: the retry
    must not count twice, or the same request would spend (and, under a node budget, answer) differently
    in a fresh process and in a warm one (seen: 5,535 nodes first, 4,084 after)."""
    position = KubagramPosition.from_letters("kroegentoch", jokers=["eygr"])
    spent = []
    for solver in (KubagramSolver(nl, rules), None):
        solver = solver or spent[0][0]
        budget = SearchBudget()
        claim = solver.best_move(position, budget=budget)
        spent.append((solver, budget.nodes, claim))
    (_, first, claim1), (_, second, claim2) = spent
    assert first == second and claim1 == claim2
    fresh, warm = KubagramSolver(nl, rules), spent[0][0]
    for max_nodes in (first // 3, first // 2):
        assert fresh.best_move(position, budget=SearchBudget(max_nodes=max_nodes)) == warm.best_move(position, budget=SearchBudget(max_nodes=max_nodes))


@pytest.mark.parametrize("bad", [0, -1, 2.5, True, float("nan"), "5", 2**62])
def test_budget_refuses_bad_node_counts(bad):
    with pytest.raises(PositionError, match="max_nodes"):
        SearchBudget(max_nodes=bad)


@pytest.mark.parametrize("bad", [0, -2.5, True, float("nan"), float("inf"), "5"])
def test_budget_refuses_bad_times(bad):
    with pytest.raises(PositionError, match="movetime_ms"):
        SearchBudget(movetime_ms=bad)


# ------------------------------------------------------------------ engine
def _ask(cmd: str, **params):
    from kubasolve.engine.registry import Session
    from kubasolve.engine.server import handle_request, load_handlers

    load_handlers()
    return handle_request(json.dumps({"id": 1, "cmd": cmd, "params": params}), Session())


POSITION = {"field": "kroegentochaenrs", "jokers": ["EYGR"], "table": ["en", "huis"]}


@pytest.mark.parametrize("cmd", ["kubagram.best-words", "kubagram.compounds", "kubagram.best-move"])
@pytest.mark.parametrize("key,value", [("max_nodes", 0), ("max_nodes", -3), ("max_nodes", "9"), ("max_nodes", 1.5),
                                       ("max_nodes", 10**11), ("movetime_ms", 0), ("movetime_ms", 600_001),
                                       ("movetime_ms", "fast"), ("movetime_ms", True), ("max_nodez", 5)])
def test_engine_refuses_bad_budget_by_name(cmd, key, value):
    answer = _ask(cmd, position=POSITION, **{key: value})
    assert answer["ok"] is False
    assert answer["error"]["code"] == "bad-request" and answer["error"]["key"] == f"params.{key}"


@pytest.mark.parametrize("cmd,field", [("kubagram.best-words", "words"), ("kubagram.compounds", "compounds"),
                                       ("kubagram.best-move", "claim")])
def test_engine_answers_within_budget(cmd, field):
    full = _ask(cmd, position=POSITION)["result"]
    assert full["proven_optimal"] is True and full["nodes"] > 5
    cut = _ask(cmd, position=POSITION, max_nodes=5)["result"]
    assert cut["proven_optimal"] is False and cut["nodes"] <= 5
    again = _ask(cmd, position=POSITION, max_nodes=full["nodes"] * 100, movetime_ms=600_000)["result"]
    assert again[field] == full[field] and again["proven_optimal"] is True


def test_engine_best_move_has_a_default_time_budget(monkeypatch):
    """Without a budget best-move still stops (default 10 s, here lowered to 50 ms) on a field whose exact search
    takes over a minute (16 letters + 2 jokers + 4 table words: 75 s measured), with a legal claim."""
    import kubasolve.engine.registry as registry

    monkeypatch.setattr(registry, "DEFAULT_MOVETIME_MS", 50)
    position = {"field": "kroegentochtaens", "jokers": ["eygr", "pltole"], "table": ["en", "huis", "kroeg", "water"]}
    _ask("kubagram.best-move", position=position, max_nodes=20_000)  # kernels compiled or loaded before timing
    t0 = time.perf_counter()
    answer = _ask("kubagram.best-move", position=position)["result"]
    assert time.perf_counter() - t0 < 2.0
    assert answer["proven_optimal"] is False and answer["claim"]["gain"] > 0


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=words_st)
def test_edge_requirements_equal_a_walk_over_the_words(words):
    """Each edge's masks equal the letters common to the suffixes of all words through it (low half) and of the longest
    of them (high half), computed by walking every word's path through the DAWG."""
    from kubasolve.lexicon.layout import SEARCH_FIRST_SHIFT, SEARCH_NCHILD_SHIFT

    lexicon = Lexicon.from_words(words)
    edges = lexicon.compiled.search_edges
    code = {c: i for i, c in enumerate(lexicon.alphabet.letters)}
    through: dict[int, list[str]] = {}  # edge -> suffixes (from the edge's letter on) of the words through it
    for w in words:
        lo, hi = 0, int(lexicon.compiled.first_edge[1])
        for i, ch in enumerate(w):
            e = next(e for e in range(lo, hi) if int(edges[e]) & 63 == code[ch])
            through.setdefault(e, []).append(w[i:])
            lo = int(edges[e]) >> SEARCH_FIRST_SHIFT
            hi = lo + ((int(edges[e]) >> SEARCH_NCHILD_SHIFT) & 255)
    need = lexicon.edge_need()

    def common(suffixes: list[str]) -> int:
        mask = (1 << 32) - 1
        for s in suffixes:
            mask &= sum(1 << code[ch] for ch in set(s))
        return mask

    for e, suffixes in through.items():
        longest = max(len(s) for s in suffixes)
        assert int(need[e]) & 0xFFFFFFFF == common(suffixes)
        assert int(need[e]) >> 32 == common([s for s in suffixes if len(s) == longest])


@SLOW
@given(table=st.lists(st.sampled_from(TABLE_WORDS), min_size=1, max_size=5, unique=True),
       field=st.text(alphabet="kroegntch", max_size=8), jokers=st.lists(st.sampled_from(["eygr", "pltole", "odrkte"]), max_size=3),
       choices=st.lists(st.sampled_from(["ogn", "ert"]), max_size=1), with_jokers=st.integers(0, 2))
def test_a_compound_bounds_every_variant_of_its_field_word(table, field, jokers, choices, with_jokers):
    """best_move's bound: no way of laying a compound's field word (any joker count the tiles allow) scores more than
    the compound as built."""
    rules = KubagramRules(min_length=2, compound_with_field_words=True)
    solver = KubagramSolver(Lexicon.from_words(COMPOUND_LEXICON), rules)
    table_words = [TableWord(w, owner=i % 2, jokers=with_jokers if i == 0 else 0) for i, w in enumerate(table)]
    position = KubagramPosition.from_letters(field, jokers=jokers, choices=choices, table=table_words)
    pool = solver._pool(position)
    flex_all = tuple(range(len(pool.flex_masks)))
    for c in solver.compound_moves(position):
        if c.field_word is None:
            continue
        table_jokers = c.jokers - c.field_word.jokers
        for n_jokers, _, _ in solver._variants(c.field_word.word, pool.fixed_counts, flex_all, pool):
            assert rules.compound_score(c.word, c.level, table_jokers + n_jokers) <= c.score


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(words=st.lists(st.text(alphabet="aegnort", min_size=2, max_size=5), min_size=1, max_size=25, unique=True),
       fixed=st.text(alphabet="aegnort", max_size=9), jokers=st.lists(st.sampled_from(["eygr", "pltole"]), max_size=2),
       limit=st.integers(2, 3))
def test_multi_word_claims_fetch_more_rows_when_needed(words, fixed, jokers, limit):
    """The multi-word claim search asks the leftover tiles for their best words 1 at a time (then 8, 64...): the claim
    still equals the brute force (with the default 64 first rows a small lexicon never needs a second fetch)."""
    import kubasolve.games.kubagram.movegen as movegen

    rules = KubagramRules(min_length=2)
    position = KubagramPosition.from_letters(fixed, jokers=jokers)
    solver = KubagramSolver(Lexicon.from_words(words), rules)
    first_rows = movegen._FIRST_ROWS
    movegen._FIRST_ROWS = 1
    try:
        claim = solver.best_move(position, max_words=limit)
    finally:
        movegen._FIRST_ROWS = first_rows
    assert claim.gain == brute_force_claim_value(words, position, rules, limit)
