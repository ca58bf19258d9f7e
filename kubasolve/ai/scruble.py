"""Scruble Cube AIs: ``greedy`` (best word within its twist budget) and ``planner`` (also weighs
the best word the next player can reach, within one twist, from the cube it hands over)."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from kubasolve.errors import RulesError
from kubasolve.games.scruble.cube import N_CELLS, Twist
from kubasolve.games.scruble.game import ScrubleGame, Turn
from kubasolve.games.scruble.position import Cube, apply_twists
from kubasolve.games.scruble.solver import WordMove, search
from kubasolve.lexicon import Lexicon

Policy = Callable[[ScrubleGame, Lexicon], Turn]
POLICIES = ("random", "greedy", "planner")


def _depth(game: ScrubleGame, budget: int) -> int:
    return min(game.rules.max_twists, budget)


def _as_turn(move: WordMove) -> Turn:
    return Turn(tuple(move.notation()), move.word, move.cells)


def _fallback(game: ScrubleGame, rng: np.random.Generator) -> Turn:
    return Turn((Twist.from_index(int(rng.integers(36))).notation(),))


def greedy(budget: int = 2, seed: int = 0) -> Policy:
    """Best-scoring word within ``budget`` twists (a random twist if none)."""
    rng = np.random.default_rng(seed)

    def policy(game: ScrubleGame, lexicon: Lexicon) -> Turn:
        moves, _ = search(game.cube, lexicon, game.rules, _depth(game, budget), 1, game.intact_words())
        return _as_turn(moves[0]) if moves else _fallback(game, rng)

    return policy


def planner(budget: int = 2, candidates: int = 8, weight: float = 1.0, seed: int = 0) -> Policy:
    """Among the ``candidates`` best words, the one maximising score - weight x the next player's best reply."""
    rng = np.random.default_rng(seed)

    def policy(game: ScrubleGame, lexicon: Lexicon) -> Turn:
        moves, _ = search(game.cube, lexicon, game.rules, _depth(game, budget), candidates, game.intact_words())
        if not moves:
            return _fallback(game, rng)
        if game.players == 1:
            return _as_turn(moves[0])
        best, best_value = moves[0], -1e18
        for m in moves:
            origin = apply_twists(np.arange(N_CELLS), m.twists)
            after = Cube(tuple(game.cube.symbols[o] for o in origin))
            reply, _ = search(after, lexicon, game.rules, 1, 1)
            value = m.score - weight * (reply[0].score if reply else 0)
            if value > best_value:
                best, best_value = m, value
        return _as_turn(best)

    return policy


def random_policy(seed: int = 0) -> Policy:
    """A random twist and no word: the baseline every AI must beat."""
    rng = np.random.default_rng(seed)

    def policy(game: ScrubleGame, lexicon: Lexicon) -> Turn:
        return _fallback(game, rng)

    return policy


def make_policy(name: str, seed: int = 0) -> Policy:
    if name == "greedy":
        return greedy(seed=seed)
    if name == "planner":
        return planner(seed=seed)
    if name == "random":
        return random_policy(seed)
    raise RulesError(f"unknown Scruble AI {name!r}; choose from {', '.join(POLICIES)}")


__all__ = ["POLICIES", "greedy", "make_policy", "planner", "random_policy"]
