"""assign_words' general path (equal flex tiles tried once per class, hopeless branches cut by a matching) and its
alike-jokers shortcut give exactly the reference depth-first search's assignment, or fail where it fails, on pools
of several jokers and choice cubes with different letters and on several words at once (issue 23: with 8 jokers
the plain search took seconds per word)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from kubasolve.games.kubagram.assign import TilePool, assign_words, search_assignment
from kubasolve.games.kubagram.position import Tile

LETTERS = "aenrt"
_letters = st.text(alphabet=LETTERS, min_size=1, max_size=5).map(lambda s: "".join(sorted(set(s))))


@settings(max_examples=300, deadline=None)
@given(fixed=st.text(alphabet=LETTERS, max_size=10), flex=st.lists(st.tuples(_letters, st.booleans()), max_size=5),
       alike=st.booleans(), order=st.randoms(use_true_random=False),
       words=st.lists(st.text(alphabet=LETTERS, min_size=1, max_size=6), min_size=1, max_size=3),
       jokers=st.lists(st.integers(0, 3), min_size=3, max_size=3))
def test_assign_words_equals_the_reference_search(fixed, flex, alike, order, words, jokers):
    if alike and flex:
        flex = [(flex[0][0], True)] * len(flex)  # all jokers offering the same letters: the greedy shortcut
    tiles = [Tile(c) for c in fixed] + [Tile(letters, joker=joker) for letters, joker in flex]
    order.shuffle(tiles)
    pool = TilePool.from_tiles(tiles)
    counts = jokers[: len(words)]
    assert assign_words(words, pool, counts) == search_assignment(words, pool, counts)
