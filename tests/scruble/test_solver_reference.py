"""The numba solver against the slow reference (every sequence, every run, set lookup)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kubasolve.games.scruble.cube import N_CELLS, Twist
from kubasolve.games.scruble.position import SCORED_WORD, Cube, EarlierWord, Run, SpentPremium, apply_twists
from kubasolve.games.scruble.reference import reference_best, reference_best_plain
from kubasolve.games.scruble.rules import ScrubleRules
from kubasolve.games.scruble.solver import search
from kubasolve.lexicon import Lexicon

LETTERS = "ABCDE"
SYMBOLS = LETTERS * 3 + "?23+#"


def small_lexicon(seed: int) -> tuple[list[str], Lexicon]:
    rng = np.random.default_rng(seed)
    words = sorted({"".join(rng.choice(list("abcde"), size=int(rng.integers(3, 7)))) for _ in range(120)})
    return words, Lexicon.from_words(words)


cubes = st.lists(st.sampled_from(SYMBOLS), min_size=N_CELLS, max_size=N_CELLS).map(lambda s: Cube(tuple(s)))
rule_sets = st.builds(
    lambda mode, dirs, minlen, full: ScrubleRules(premium_mode=mode, directions=dirs, min_length=minlen, full_belt_words=full),
    st.sampled_from(["ends", "wild"]), st.sampled_from(["both", "forward"]), st.sampled_from([3, 4]), st.booleans(),
)


def kernel_best(cube, lex, rules, depth, earlier=(), restrict=True):
    moves, stats = search(cube, lex, rules, depth, 4096, earlier, restrict=restrict)
    assert stats.complete
    out = {m.word: (m.score, m.n_twists) for m in moves}
    assert len(out) == len(moves)  # one entry per word
    return out, moves


@settings(max_examples=15, deadline=None)
@given(cube=cubes, rules=rule_sets, seed=st.integers(0, 50))
def test_depth_one_matches_reference(cube, rules, seed):
    words, lex = small_lexicon(seed)
    got, moves = kernel_best(cube, lex, rules, 1)
    assert got == reference_best(cube, words, rules, 1)
    # every move replays: its twists give a cube on which the word's breakdown is the score
    for m in moves:
        assert len(m.twists) <= 1 and m.breakdown.score == m.score


SPARSE_SYMBOLS = LETTERS * 8 + "?23+#"
sparse_cubes = st.lists(st.sampled_from(SPARSE_SYMBOLS), min_size=N_CELLS, max_size=N_CELLS).map(lambda s: Cube(tuple(s)))


@settings(max_examples=12, deadline=None)
@given(cube=sparse_cubes, seed=st.integers(0, 50), mode=st.sampled_from(["ends", "wild"]),
       dirs=st.sampled_from(["forward", "both"]), minlen=st.sampled_from([3, 4]))
def test_depth_two_matches_reference(cube, seed, mode, dirs, minlen):
    rng = np.random.default_rng(seed)
    words = sorted({"".join(rng.choice(list("abcde"), size=int(rng.integers(3, 7)))) for _ in range(60)})
    rules = ScrubleRules(premium_mode=mode, directions=dirs, min_length=minlen)
    got, moves = kernel_best(cube, Lexicon.from_words(words), rules, 2)
    assert got == reference_best(cube, words, rules, 2)
    assert all(m.breakdown.score == m.score and len(m.twists) <= 2 for m in moves)


@settings(max_examples=3, deadline=None)
@given(cube=cubes, seed=st.integers(0, 50), rules=rule_sets,
       picks=st.lists(st.tuples(st.integers(0, 11), st.integers(0, 15), st.integers(2, 6), st.integers(1, 9)), max_size=3))
def test_fast_reference_equals_plain_loop(cube, seed, rules, picks):
    words, _ = small_lexicon(seed)
    earlier = [EarlierWord("x" * n, tuple(Run(b, s, 1, n).cells()), b, pts) for b, s, n, pts in picks]
    spent = [SpentPremium(c, w) for c in range(96) if cube.symbols[c] in "23+#" for w in words[::3]]
    assert (reference_best(cube, words, rules, 1, earlier, spent)
            == reference_best_plain(cube, words, rules, 1, earlier, spent))


@settings(max_examples=8, deadline=None)
@given(cube=cubes, seed=st.integers(0, 50), mode=st.sampled_from(["ends", "wild"]), data=st.data())
def test_spent_premiums_match_reference(cube, seed, mode, data):
    """Premium pegs that already counted for a word (some of the words the cube offers, and random ones) do not
    count again for it: kernel and reference agree."""
    words, lex = small_lexicon(seed)
    rules = ScrubleRules(premium_mode=mode)
    _, moves = kernel_best(cube, lex, rules, 1)
    used = [m for m in moves if m.breakdown.premium_cells]
    spent = []
    for m in data.draw(st.lists(st.sampled_from(used), max_size=4)) if used else []:
        origin = apply_twists(np.arange(N_CELLS), m.twists)
        spent += [SpentPremium(int(origin[c]), m.word) for c in m.breakdown.premium_cells]
    spent += [SpentPremium(c, w) for c, w in data.draw(st.lists(st.tuples(st.integers(0, 95), st.sampled_from(words)),
                                                                max_size=3))]
    got = {m.word: (m.score, m.n_twists) for m in search(cube, lex, rules, 1, 4096, spent=spent)[0]}
    assert got == reference_best(cube, words, rules, 1, spent=spent)


@settings(max_examples=10, deadline=None)
@given(cube=cubes, seed=st.integers(0, 50), mode=st.sampled_from(["ends", "wild"]), data=st.data())
def test_scored_words_and_premiums_by_pegs_match_reference(cube, seed, mode, data):
    """Scored words made again of their own pegs place no new letter, and a premium peg does not count again for a
    word holding the pegs of the word it counted for: kernel and reference agree (the scored words and premium
    entries drawn from the words the cube offers, so both rules bite)."""
    words, lex = small_lexicon(seed)
    rules = ScrubleRules(premium_mode=mode)
    _, moves = kernel_best(cube, lex, rules, 1)
    spent = []
    for m in data.draw(st.lists(st.sampled_from(moves), max_size=5)) if moves else []:
        origin = apply_twists(np.arange(N_CELLS), m.twists)
        pegs = tuple(int(origin[c]) for c in m.cells)
        cut = data.draw(st.integers(0, max(0, len(pegs) - 2)))
        scored = pegs if data.draw(st.booleans()) else pegs[::-1]
        if data.draw(st.booleans()):  # the same cells, other pegs (an I swapped for another I)
            scored = tuple((p + 1) % 96 for p in scored)
        spent.append(SpentPremium(SCORED_WORD, m.word, scored, tuple(m.cells) if data.draw(st.booleans()) else ()))
        spent += [SpentPremium(c, data.draw(st.sampled_from(words)), pegs[cut:cut + 2])
                  for c in range(96) if cube.symbols[c] in "23+#"][:3]
    got = {m.word: (m.score, m.n_twists) for m in search(cube, lex, rules, 1, 4096, spent=spent)[0]}
    assert got == reference_best(cube, words, rules, 1, spent=spent)


PREMIUM_HEAVY = "ABCDE" * 2 + "2233+#?"
premium_cubes = st.lists(st.sampled_from(PREMIUM_HEAVY), min_size=N_CELLS, max_size=N_CELLS).map(lambda s: Cube(tuple(s)))


@settings(max_examples=6, deadline=None)
@given(cube=premium_cubes, seed=st.integers(0, 50))
def test_option_two_ties_match_reference(cube, seed):
    """Option 2 with many letter premiums side by side: the kernel's exact pick of each tie (dynamic programming)
    equals the reference's trial of every pick."""
    words, lex = small_lexicon(seed)
    rules = ScrubleRules(premium_mode="wild")
    assert kernel_best(cube, lex, rules, 1)[0] == reference_best(cube, words, rules, 1)


@settings(max_examples=10, deadline=None)
@given(cube=cubes, seed=st.integers(0, 50), picks=st.lists(st.tuples(st.integers(0, 11), st.integers(0, 15), st.integers(2, 6), st.integers(1, 9)), min_size=1, max_size=4))
def test_crossing_words_match_reference(cube, seed, picks):
    words, lex = small_lexicon(seed)
    rules = ScrubleRules()
    earlier = [EarlierWord("x" * n, tuple(Run(b, s, 1, n).cells()), b, pts) for b, s, n, pts in picks]
    b, s, n, pts = picks[0]  # a word inside the first one on its belt, and the first one again: crossed once
    earlier += [EarlierWord("y" * (n - 1), tuple(Run(b, s + 1, 1, n - 1).cells()), b, pts + 1), earlier[0]]
    assert kernel_best(cube, lex, rules, 1, earlier)[0] == reference_best(cube, words, rules, 1, earlier)


@settings(max_examples=8, deadline=None)
@given(cube=cubes, seed=st.integers(0, 50))
def test_restricted_scan_equals_full_scan(cube, seed):
    _, lex = small_lexicon(seed)
    rules = ScrubleRules()
    assert kernel_best(cube, lex, rules, 2)[0] == kernel_best(cube, lex, rules, 2, restrict=False)[0]


@settings(max_examples=10, deadline=None)
@given(cube=cubes, seed=st.integers(0, 50), top=st.integers(1, 6))
def test_top_k_is_the_head_of_the_full_ranking(cube, seed, top):
    _, lex = small_lexicon(seed)
    rules = ScrubleRules()
    full = search(cube, lex, rules, 2, 4096)[0]
    head = search(cube, lex, rules, 2, top)[0]
    assert [(m.score, m.n_twists) for m in head] == [(m.score, m.n_twists) for m in full[:top]]


def test_no_new_letter_needed_finds_words_without_twisting():
    lex = Lexicon.from_words(["cab", "bed"])
    cube = Cube(tuple("CAB" + "E" * 93))
    rules = ScrubleRules(require_new_letter=False)
    moves = search(cube, lex, rules, 0, 10)[0]
    assert [(m.word, m.twists) for m in moves] == [("cab", ())]
    assert search(cube, lex, ScrubleRules(), 0, 10)[0] == []


def test_twist_sequences_are_shortest():
    _words, lex = small_lexicon(3)
    rng = np.random.default_rng(5)
    cube = Cube(tuple(rng.choice(list(SYMBOLS), size=N_CELLS)))
    for m in search(cube, lex, ScrubleRules(), 2, 50)[0]:
        if len(m.twists) == 2:
            a, b = m.twists
            assert a.layer != b.layer
            assert not (a.axis == b.axis and a.layer > b.layer)
    assert Twist.from_index(0).layer == 0


def test_real_lexicon_depth_one_matches_reference(en):
    rules = ScrubleRules()
    # letters only, so the reference's set lookups stay fast on 64k words
    cube = Cube(tuple("E" if not c.isalpha() else c for c in Cube.scrambled(rules.pegs, 7).symbols))
    moves = search(cube, en, rules, 1, 4096)[0]
    assert {m.word: (m.score, m.n_twists) for m in moves} == reference_best_plain(cube, list(en), rules, 1)
    assert moves == sorted(moves, key=lambda m: m.sort_key())


def test_kernel_arrays_read_each_word_rank_and_symbol():
    """``spent_arrays`` gives each word its place in the lexicon's rank table (read from a table built once per
    lexicon), ``peg_arrays`` each cell its symbol's code, kind and value (worked out once per symbol)."""
    from kubasolve.games.scruble.pegs import LETTER
    from kubasolve.games.scruble.position import symbol_kind
    from kubasolve.games.scruble.solver import peg_arrays, spent_arrays

    words, lex = small_lexicon(5)
    rank_word = np.asarray(lex.compiled.rank_word)
    spent = [SpentPremium(SCORED_WORD if i % 2 else 3, w, (1, 2, 3), (4, 5, 6)) for i, w in enumerate(words[:40])]
    premium, rank = spent_arrays(spent, lex)[:2]
    assert list(premium) == [s.premium for s in spent]
    assert list(rank) == [int(np.flatnonzero(rank_word == lex.word_id(s.word))[0]) for s in spent]
    assert list(spent_arrays([SpentPremium(3, "zzz", (1, 2, 3), (4, 5, 6))], lex)[1]) == [-2]  # not in the lexicon
    rules = ScrubleRules()
    cube = Cube(tuple((SYMBOLS + "XY")[i % 22] for i in range(N_CELLS)))
    code, kind, value = peg_arrays(cube, lex, rules.pegs)
    for c, sym in enumerate(cube.symbols):
        k = symbol_kind(sym)
        assert kind[c] == k
        letter = k == LETTER
        assert code[c] == ((lex.alphabet.code(sym.lower()) if sym.lower() in lex.alphabet else 63) if letter else -1)
        assert value[c] == (rules.pegs.symbol_value(sym) if letter else 0)
    assert -1 in code and (kind == LETTER).sum() > 0
