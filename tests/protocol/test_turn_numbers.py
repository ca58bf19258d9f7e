"""docs/protocol.md: ``Result.turn`` is 1 for the first turn and, once over, one more than the turns played, in every
game. Kubagram's finished game said the number of the last turn (115 after 115 turns); the CLI's ``play`` reads
``turn - 1`` as the number of moves made to continue the AIs' seeds after a resume, as self-play numbers them."""

from __future__ import annotations

import pytest

from kubasolve.games.protocol import load_game
from kubasolve.scale.selfplay import ai_seed

FAST_AI = {"colonii": "random", "crossword": "score", "kubagram": "random", "rummikub": "greedy", "scruble": "random"}


@pytest.mark.parametrize("name", sorted(FAST_AI))
def test_turn_is_one_more_than_the_turns_played_until_and_after_the_end(name: str) -> None:
    game = load_game(name)
    state = game.new_game(3, 2)
    played = 0
    view = game.result(state)
    assert view.turn == 1
    while not view.over:
        assert view.current is not None and played < 3000
        move = game.ai_move(state, FAST_AI[name], None, ai_seed(3, view.current, played))
        state = game.apply(state, move.action)
        played += 1
        view = game.result(state)
        assert view.turn == played + 1, (played, move.text)
    assert view.over and view.turn == played + 1


def test_a_crossword_challenge_is_a_turn() -> None:
    """A challenge (won or lost) is one turn of the challenger: the turn number goes on by one."""
    game = load_game("crossword", rules={"word_check": "challenge"})
    state = game.new_game(7, 2)
    play = game.ai_move(state, "score").action
    state = game.apply(state, play)
    assert game.result(state).turn == 2
    state = game.apply(state, {"type": "challenge"})
    assert game.result(state).turn == 3
