"""A turn is a sequence of moves (issue 22): the exact best-turn search against every legal sequence of
moves the referee accepts, on positions made for chains, colony sizes and decolonisations."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kubasolve.games.colonii.movegen import ColoniiSolver, TurnBudget
from kubasolve.games.colonii.reference import reference_best_turn, turn_key
from kubasolve.games.colonii.rules import ColoniiRules
from kubasolve.games.colonii.table import ColoniiPosition, Group, MoveKind

from .helpers import assert_best_turn_is_exact, referee_scores, small_lexicon, whole_and_sliced

R = ColoniiRules()
LETTERS = "aceilrtz"  # Z is worth 3: extensions and chained words that conquer


@st.composite
def chain_cases(draw):
    """Few letters so that words chain; prefixes of words are words (extensions); colonies one or two words
    short of a supercolony or a decolonisation, or past it; a hand that holds the cards of a few chains."""
    words = set(draw(st.lists(st.text(LETTERS, min_size=2, max_size=4), min_size=6, max_size=22)))
    for w in list(words)[:8]:
        words.add(w + draw(st.text(LETTERS, min_size=1, max_size=3)))  # an extension
        if len(w) > 2:
            words.add(w[:2])  # a prefix
    words = sorted(words)
    s_words = draw(st.integers(3, 5))
    rules = R.with_(supercolony_words=s_words, decolonisation_words=draw(st.integers(s_words + 1, 7)),
                    supercolony_bonus=draw(st.sampled_from([0, 2, 5])))
    n_players = draw(st.integers(2, 3))
    mover = draw(st.integers(0, n_players - 1))
    table = []
    for _ in range(draw(st.integers(0, 4))):
        owner = mover if draw(st.integers(0, 2)) == 0 else draw(st.integers(0, n_players - 1))
        size = draw(st.sampled_from([1, 1, 1, 2, rules.supercolony_words - 1, rules.supercolony_words,
                                     rules.decolonisation_words - 2, rules.decolonisation_words - 1, rules.decolonisation_words]))
        chain = [draw(st.sampled_from(words))]
        while len(chain) < size:
            nxt = [w for w in words if w[0] == chain[-1][-1] and w not in chain]
            if not nxt:
                break
            chain.append(draw(st.sampled_from(nxt)))
        if len(chain) == 1:
            table.append(Group((chain[0],), owner, draw(st.integers(0, 8)), draw(st.integers(0, 4)) == 0))
        else:
            table.append(Group(tuple(chain), owner, 0, False, len(chain) >= rules.supercolony_words and draw(st.booleans())))
    # the cards of a few chains from the table's last letters and of new words, then a few more
    cards: list[str] = []
    ends = [g.last[-1] for g in table] + [draw(st.sampled_from(LETTERS))]
    for _ in range(draw(st.integers(1, 3))):
        letter = draw(st.sampled_from(ends))
        options = [w for w in words if w[0] == letter]
        if options:
            w = draw(st.sampled_from(options))
            cards += list(w[1:])
            ends.append(w[-1])
    theirs = [g for g in table if len(g.words) == 1 and g.owner != mover and not g.protected]
    for g in theirs:  # words that conquer another player's word: an extension (A), a chained word (B)
        w = g.words[0]
        words += [w + draw(st.text("zc", min_size=2, max_size=3)), w[-1] + draw(st.text("zca", min_size=2, max_size=3))]
    words = sorted(set(words))
    lex = small_lexicon(words)
    if theirs and draw(st.booleans()):  # the cards of a conquest A or B of another player's word, if the lexicon has one
        g = draw(st.sampled_from(theirs))
        w = g.words[0]
        conquering = [x[len(w):] for x in words if x.startswith(w) and rules.value(x[len(w):]) > rules.value(w)]
        conquering += [x[1:] for x in words if x[0] == w[-1] and x != w and rules.value(x[1:]) > rules.value(w)]
        if conquering:
            cards += list(draw(st.sampled_from(conquering)))
    cards += draw(st.lists(st.sampled_from(LETTERS), max_size=2))
    cards = draw(st.permutations(cards))[:9] if cards else ["a"]
    return lex, rules, ColoniiPosition(tuple(table), "".join(cards), mover, n_players)


@settings(max_examples=80, deadline=None)
@given(chain_cases(), st.sampled_from(["gain", "swing"]), st.integers(1, 3))
def test_best_turn_equals_every_legal_sequence(case, objective, max_moves) -> None:
    """The search equals the best of every sequence of moves the referee accepts (each move judged on the
    table the previous ones left), and the referee plays the turn found for the points it claims."""
    assert_best_turn_is_exact(*case, objective, max_moves)


def test_the_same_word_may_be_built_twice(ro) -> None:
    """Issue 22: ``colonii best axax`` answered AXA +5 as proven best; AX + AX (+8) is legal, as is AXA then AX
    chained on its last A (+5 +3)."""
    turn = ColoniiSolver(ro, R).best_turn(ColoniiPosition((), "axax", 0, 2))
    assert turn.proven_optimal and turn.gain == 8
    two_ax = ColoniiSolver(small_lexicon(["ax", "axa"]), R).best_turn(ColoniiPosition((), "axax", 0, 2))
    assert [(m.kind, m.word) for m in two_ax.moves] in ([(MoveKind.NEW, "ax"), (MoveKind.NEW, "ax")],
                                                        [(MoveKind.NEW, "axa"), (MoveKind.COLONY_START, "ax")])


def test_the_rulebooks_supercolony_is_built_in_one_turn(ro) -> None:
    """Issue 22: ``colonii best deelan --table raft+turist+taxi:0`` answered DANELE +7; IDEE then ELAN on the
    colony, then the declaration of the supercolony they make, score 4 + 3 + 5 = 12 (every card)."""
    pos = ColoniiPosition((Group(("raft", "turist", "taxi"), 0),), "deelan", 0, 2)
    turn = ColoniiSolver(ro, R).best_turn(pos)
    assert turn.proven_optimal and turn.gain == 12 and sorted(turn.cards) == sorted("deelan")
    assert turn.moves[-1].kind is MoveKind.SUPERCOLONY
    small = small_lexicon(["raft", "turist", "taxi", "idee", "elan"])
    moves = ColoniiSolver(small, R).best_turn(pos).moves
    assert [(m.kind, m.word, m.gain) for m in moves] == [(MoveKind.COLONY_ADD, "idee", 4), (MoveKind.COLONY_ADD, "elan", 3),
                                                          (MoveKind.SUPERCOLONY, "", 5)]
    assert list(referee_scores(small, R, pos, moves)) == [12, 0]


def test_a_word_made_this_turn_is_built_on() -> None:
    """A new word, then a colony started on it: the new group's number is the one the referee gives it."""
    lex = small_lexicon(["ziar", "rac"])
    turn = ColoniiSolver(lex, R).best_turn(ColoniiPosition((Group(("tac",), 1, 4),), "ziarac", 0, 2))
    assert [(m.kind, m.word, m.target) for m in turn.moves] == [(MoveKind.NEW, "ziar", None), (MoveKind.COLONY_START, "rac", 1)]


def test_after_a_decolonisation_its_word_extends_into_a_word_that_left_play() -> None:
    """CA is the fourth word of a colony of four (rules 3/4): decolonised at once, CA stays and extends into
    CAL, a colony word until then (a chained CAL is refused while CAL is in the colony)."""
    lex = small_lexicon(["tac", "cal", "lac", "ca"])
    rules = R.with_(supercolony_words=3, decolonisation_words=4)
    pos = ColoniiPosition((Group(("tac", "cal", "lac"), 0, supercolony=True),), "al", 0, 2)
    moves = ColoniiSolver(lex, rules).best_turn(pos).moves
    assert [(m.kind, m.word, m.gain) for m in moves] == [(MoveKind.COLONY_ADD, "ca", 1), (MoveKind.DECOLONISATION, "", 4),
                                                          (MoveKind.EXTEND, "cal", 1)]
    assert reference_best_turn(pos, lex, rules) == (6, 0)
    # the colony word that left play may be the one added just before: ACA, AC (decolonises), AC -> ACA
    lex = small_lexicon(["ta", "ara", "aca", "ac"])
    rules = rules.with_(supercolony_bonus=0)
    pos = ColoniiPosition((Group(("ta", "ara"), 0),), "acca", 0, 2)
    moves = ColoniiSolver(lex, rules).best_turn(pos).moves
    assert [(m.kind, m.word) for m in moves] == [(MoveKind.COLONY_ADD, "aca"), (MoveKind.COLONY_ADD, "ac"),
                                                 (MoveKind.DECOLONISATION, ""), (MoveKind.EXTEND, "aca")]
    assert reference_best_turn(pos, lex, rules) == (8, 0) == (sum(m.gain for m in moves), 0)


def test_max_turn_moves_above_three_is_searched_to_three_and_not_called_proven() -> None:
    """The rulebook lets a player build any number of words (``max_turn_moves`` up to 30); the exact search
    covers three, so with more allowed a turn is proven only when the hand cannot make more moves."""
    lex = small_lexicon(["ta", "at", "aa"])
    solver = ColoniiSolver(lex, R)
    long_hand = ColoniiPosition((Group(("ta",), 0, 2),), "aaaa", 0, 2)
    assert not solver.best_turn(long_hand, max_moves=4).proven_optimal
    assert solver.best_turn(long_hand, max_moves=3).proven_optimal
    assert solver.best_turn(ColoniiPosition((), "aaa", 0, 2), max_moves=30).proven_optimal


@settings(max_examples=30, deadline=None)
@given(chain_cases(), st.sampled_from(["gain", "swing"]), st.integers(2, 3), st.integers(1, 5))
def test_a_sliced_or_cut_search_stays_legal_and_exact_when_finished(case, objective, max_moves, slice_nodes) -> None:
    lex, rules, pos = case
    solver = ColoniiSolver(lex, rules)
    whole, sliced = whole_and_sliced(lex, rules, pos, objective, max_moves, slice_nodes)
    assert sliced == whole
    for nodes in (1, 3, 10):
        cut = solver.best_turn(pos, objective, max_moves, TurnBudget(max_nodes=nodes))
        referee_scores(lex, rules.with_(max_turn_moves=max_moves), pos, cut.moves)  # legal
        assert turn_key(cut.moves, objective) <= turn_key(whole.moves, objective)
        assert cut.proven_optimal is False or cut == whole
    unpruned = solver.best_turn(pos, objective, max_moves, value_bound=False)
    assert turn_key(unpruned.moves, objective) == turn_key(whole.moves, objective)
