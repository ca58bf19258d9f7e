"""Positions shared by the Scruble tests."""

from __future__ import annotations

from kubasolve.games.scruble.ai import make_policy
from kubasolve.games.scruble.game import ScrubleGame


def midgame(en, seed: int, turns: int) -> ScrubleGame:
    """A two-player game after ``turns`` greedy turns (seeded)."""
    game = ScrubleGame.new(2, seed)
    greedy = make_policy("greedy", seed)
    for _ in range(turns):
        game.play(greedy(game, en), en)
    return game
