"""Compound search and multi-word claims against brute force."""

from __future__ import annotations

import itertools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubasolve.games.kubagram.movegen import KubagramSolver
from kubasolve.games.kubagram.position import KubagramPosition, TableWord, Tile
from kubasolve.games.kubagram.rules import KubagramRules
from kubasolve.lexicon import Lexicon

from .reference import claim_feasible, reference_compounds, reference_words

LETTERS = "aent"


@st.composite
def compound_cases(draw):
    parts = draw(st.lists(st.text(alphabet=LETTERS, min_size=1, max_size=4), min_size=1, max_size=5))
    joined = draw(st.lists(st.lists(st.sampled_from(parts), min_size=2, max_size=3).map("".join), max_size=6))
    extra = draw(st.lists(st.text(alphabet=LETTERS, min_size=1, max_size=6), max_size=10))
    words = sorted(set(parts) | set(joined) | set(extra))
    table = draw(st.lists(st.sampled_from(parts), min_size=1, max_size=4))
    owners = draw(st.lists(st.integers(0, 2), min_size=len(table), max_size=len(table)))
    fresh = draw(st.lists(st.booleans(), min_size=len(table), max_size=len(table)))  # claimed this turn: no part
    field = draw(st.text(alphabet=LETTERS, max_size=6))
    position = KubagramPosition(
        tuple(Tile(c) for c in field),
        tuple(TableWord(w, o, fresh=f) for w, o, f in zip(table, owners, fresh)),
        last_cube=draw(st.booleans()),
    )
    rules = KubagramRules(min_length=draw(st.integers(2, 4)), compound_with_field_words=draw(st.booleans()))
    return words, position, rules


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=compound_cases())
def test_compounds_equal_reference(case):
    words, position, rules = case
    solver = KubagramSolver(Lexicon.from_words(words), rules)
    got = solver.compound_moves(position)
    assert {(m.word, m.parts) for m in got} == reference_compounds(set(words), position, rules)
    for m in got:
        assert "".join(m.parts) == m.word
        # the table parts named are really table words, in compound order, each used once
        assert len(set(m.table_parts)) == len(m.table_parts)
        assert not any(position.table[i].fresh for i in m.table_parts)
        table_words = [position.table[i].word for i in m.table_parts]
        field_parts = [p for p in m.parts if m.field_word is not None and p == m.field_word.word]
        assert len(m.parts) == len(m.table_parts) + (1 if m.field_word is not None else 0)
        assert len(field_parts) >= (1 if m.field_word is not None else 0)
        remaining = list(m.parts)
        for w in table_words:
            remaining.remove(w)
        assert remaining == ([m.field_word.word] if m.field_word is not None else [])
        lost = {}
        for i in m.table_parts:
            tw = position.table[i]
            lost[tw.owner] = lost.get(tw.owner, 0) + tw.value(rules)
        assert dict(m.lost) == lost
        assert m.gain == m.score - lost.get(position.mover, 0)
    assert [(m.gain, m.taken) for m in got] == sorted(((m.gain, m.taken) for m in got), reverse=True)


def brute_force_claim_value(words: list[str], position: KubagramPosition, rules: KubagramRules, limit: int) -> int:
    """Best total over all multisets of <= limit field words, every joker split, checked tile by tile."""
    candidates = [w for w, _, _ in reference_words(words, position, rules)]
    n_jokers = sum(t.joker for t in position.tiles)
    best = 0
    for size in range(1, limit + 1):
        for combo in itertools.combinations_with_replacement(candidates, size):  # the same word twice is two claims
            for js in itertools.product(range(n_jokers + 1), repeat=size):
                if sum(js) > n_jokers:
                    continue
                value = sum(rules.word_score(w, j) for w, j in zip(combo, js))
                if value > best and claim_feasible(list(combo), list(js), position):
                    best = value
    return best


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    words=st.lists(st.text(alphabet="aegnort", min_size=2, max_size=5), min_size=1, max_size=25, unique=True),
    fixed=st.text(alphabet="aegnort", max_size=9),
    jokers=st.lists(st.sampled_from(["eygr", "pltole"]), max_size=2),
    limit=st.integers(1, 3),
)
def test_best_move_equals_brute_force(words, fixed, jokers, limit):
    rules = KubagramRules(min_length=2)
    position = KubagramPosition.from_letters(fixed, jokers=jokers)
    solver = KubagramSolver(Lexicon.from_words(words), rules)
    claim = solver.best_move(position, max_words=limit)
    assert claim.gain == brute_force_claim_value(words, position, rules, limit)
    used = [i for w in claim.words for i in w.tiles]
    assert len(used) == len(set(used))  # disjoint tiles
    for w in claim.words:
        assert all(c in position.tiles[i].letters for c, i in zip(w.word, w.tiles))
        assert w.jokers == sum(position.tiles[i].joker for i in w.tiles)


def brute_force_claim_with_compounds(words, position, rules, limit):
    """Best claim value over multisets of field words and compounds (each table word used once)."""
    wordset = set(words)
    n_jokers = sum(t.joker for t in position.tiles)
    items = [("w", w, None) for w, _, _ in reference_words(words, position, rules)]
    table = position.table
    for compound, parts in reference_compounds(wordset, position, rules):
        # every way of mapping the parts to table indices (equal spellings are interchangeable)
        choices = [[i for i, tw in enumerate(table) if tw.word == p and not tw.fresh] + ([None] if (rules.compound_with_field_words or position.last_cube) else []) for p in parts]
        for assign in itertools.product(*choices):
            fields = [p for p, a in zip(parts, assign) if a is None]
            used = [a for a in assign if a is not None]
            if len(fields) > 1 or len(set(used)) != len(used) or len(fields) + len(used) < 2:
                continue
            if fields and len(fields[0]) < rules.min_word_length(position.last_cube):
                continue
            items.append(("c", compound, (tuple(used), fields[0] if fields else None)))
    best = 0
    for size in range(1, limit + 1):
        for combo in itertools.combinations_with_replacement(range(len(items)), size):
            chosen = [items[i] for i in combo]
            used_table = [t for kind, _, info in chosen if kind == "c" for t in info[0]]
            if len(set(used_table)) != len(used_table):
                continue
            field_words = [w if kind == "w" else info[1] for kind, w, info in chosen if kind == "w" or info[1] is not None]
            for js in itertools.product(range(n_jokers + 1), repeat=len(field_words)):
                if sum(js) > n_jokers:
                    continue
                value, k = 0, 0
                for kind, w, info in chosen:
                    if kind == "w":
                        value += rules.word_score(w, js[k])
                        k += 1
                        continue
                    used, field = info
                    level = 1 + max(table[t].level for t in used)
                    jokers = sum(table[t].jokers for t in used)
                    if field is not None:
                        jokers += js[k]
                        k += 1
                    own = sum(table[t].value(rules) for t in used if table[t].owner == position.mover)
                    value += rules.compound_score(w, level, jokers) - own
                if value > best and claim_feasible(field_words, list(js), position):
                    best = value
    return best


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=compound_cases(), limit=st.integers(1, 3), jokers=st.lists(st.sampled_from(["eat", "ant"]), max_size=1))
def test_best_move_with_compounds_equals_brute_force(case, limit, jokers):
    words, position, rules = case
    rules = rules.with_(jokers=("eat", "ant"))
    position = KubagramPosition(position.tiles + tuple(Tile(j, joker=True) for j in jokers), position.table, position.last_cube)
    solver = KubagramSolver(Lexicon.from_words(words), rules)
    claim = solver.best_move(position, max_words=limit)
    assert claim.gain == brute_force_claim_with_compounds(words, position, rules, limit)
    assert len(claim.words) + len(claim.compounds) <= limit


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=compound_cases(), joker=st.sampled_from(["", "ae", "nt", "aent"]), table_jokers=st.integers(0, 1),
       top=st.integers(1, 4), objective=st.sampled_from(["gain", "swing"]))
def test_top_compounds_equal_the_head_of_all(case, joker, table_jokers, top, objective):
    """``top=k`` builds only the moves it needs (optimistic keys in a heap) and must equal the first k of all."""
    words, position, rules = case
    tiles = position.tiles + ((Tile(joker, joker=True),) if joker else ())
    table = tuple(TableWord(w.word, w.owner, jokers=table_jokers if i == 0 else 0) for i, w in enumerate(position.table))
    position = KubagramPosition(tiles, table, last_cube=position.last_cube, mover=1)
    solver = KubagramSolver(Lexicon.from_words(words), rules)
    every = solver.compound_moves(position, objective=objective)
    assert solver.compound_moves(position, top=top, objective=objective) == every[:top]


def test_top_compounds_on_dutch_positions(nl, rules):
    """The same on the benchmark's Dutch positions (20 table words, 12 field tiles and a joker)."""
    from kubasolve.bench.kubagram_scenarios import random_positions

    solver = KubagramSolver(nl, rules)
    for position in random_positions(12, 1, n_table=20)[:6]:
        for objective in ("gain", "swing"):
            every = solver.compound_moves(position, objective=objective)
            for top in (1, 5):
                assert solver.compound_moves(position, top=top, objective=objective) == every[:top]
