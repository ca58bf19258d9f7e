"""The protocol's Kubagram legal moves: when they say ``proven_optimal``, the first claim listed is the best claim
of all by the score they report (the mover's gain), checked against every compound and word the solver knows."""

from __future__ import annotations

from kubasolve.games import load_game
from kubasolve.games.kubagram.position import TableWord

from .conftest import make_state

FILLER = ("xyz", "x", "I")  # a cube that is never useful


def test_the_first_claim_listed_is_the_best_gain_when_proven(referee) -> None:  # type: ignore[no-untyped-def]
    """The mover's own KROEGEN (3 jokers) + TOCHT make KROEGENTOCHT, gain 1,098, taking nothing; the other player's
    REGENBOOG (a compound) + KLEUR make REGENBOOGKLEUR, gain 1,016, taking 145. Before, the compounds were chosen by
    swing (gain + taken: 1,161 against 1,098), so `top=1` listed REGENBOOGKLEUR alone and said it was proven best."""
    table = (TableWord("kroegen", 0, 3, 0), TableWord("tocht", 0, 0, 0), TableWord("regenboog", 1, 0, 1),
             TableWord("kleur", 1, 0, 0))
    native = make_state([("abc", "a", "I"), FILLER], table=table, phase="after", taken=1)
    game = load_game("kubagram")
    state = game.state_of(native)
    position = native.position()
    every = referee.solver.compound_moves(position, None, "gain")
    best_gain = max(m.gain for m in every)
    best_word = max((w.score for w in referee.solver.best_words(position, None)), default=0)
    best = max(best_gain, best_word)
    assert {m.word: m.gain for m in every}["kroegentocht"] == best == 1098
    for top in (1, 2, 5):
        listed = game.legal_moves(state, top=top)
        scored = [m for m in listed.moves if m.score is not None]
        assert listed.proven_optimal and scored[0].score == best, (top, [(m.text, m.score) for m in scored])
        assert scored[0].action["word"] == "kroegentocht"
        assert game.apply(state, scored[0].action).native.scores[0] - native.scores[0] == best
