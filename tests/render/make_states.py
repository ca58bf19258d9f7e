"""Write the saved mid-game states the rendering tests draw (``tests/render/data/<game>.json``).

Each is a game played by the project's own AIs from a fixed seed, saved with the game's ``to_dict``;
the tests load them with ``from_dict``, which replays the whole history through the game's referee,
so a state the rules no longer produce fails loudly. Run from the repository root (a few minutes):
``python tests/render/make_states.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"


def _save(name: str, data: dict[str, Any]) -> None:
    (DATA / f"{name}.json").write_text(json.dumps(data, ensure_ascii=False) + "\n", encoding="utf-8")
    print("wrote", name)


def crossword() -> None:
    """Two score AIs, seed 3, six turns: a blank on the board."""
    from kubasolve.games.crossword.ai import make_policy
    from kubasolve.games.crossword.game import default_referee

    referee = default_referee()
    state = referee.new_game(3, 2)
    policies = [make_policy("score", 0), make_policy("score", 1)]
    for _ in range(6):
        state = referee.apply(state, policies[state.current].turn(referee, state))
    _save("crossword", state.to_dict())


def kubagram() -> None:
    """Greedy, planner and greedy from seed 2, up to turn 106: a held joker, words with a joker, a compound."""
    from kubasolve.games.kubagram.ai import make_policy
    from kubasolve.games.kubagram.game import default_referee

    referee = default_referee()
    state = referee.new_game(2, n_players=3)
    policies = [make_policy("greedy", 2), make_policy("planner", 3), make_policy("greedy", 4)]
    while state.turn < 106:
        for action in policies[state.current].turn(referee, state):
            state = referee.apply(state, action)
    _save("kubagram", state.to_dict())


def colonii() -> None:
    """Two greedy AIs, seed 2, twelve turns: colonies, two supercolonies, a conquest."""
    from kubasolve.games.colonii.ai import make_policy
    from kubasolve.games.colonii.game import default_referee

    referee = default_referee()
    state = referee.new_game(2, 2)
    policies = [make_policy("greedy", 0), make_policy("greedy", 1)]
    for _ in range(12):
        state = referee.apply(state, policies[state.current].turn(referee, state))
    _save("colonii", state.to_dict())


def rummikub() -> None:
    """Three greedy AIs (ann, bob, cy), seed 5, 24 moves: jokers on the table."""
    from kubasolve.games.rummikub.ai import ai_move
    from kubasolve.games.rummikub.game import RummikubGame

    game = RummikubGame.new(3, seed=5, players=["ann", "bob", "cy"])
    for _ in range(24):
        game.apply(ai_move(game, "greedy"))
    _save("rummikub", game.to_dict())


def scruble() -> None:
    """Two greedy AIs, seed 14: after the first turn (its word, GENERA, wraps from L round to B and R) and once
    the game is over (a player passes the target)."""
    from kubasolve.games.scruble.ai import greedy
    from kubasolve.games.scruble.game import ScrubleGame
    from kubasolve.lexicon import load_lexicon

    lexicon = load_lexicon("en")
    game = ScrubleGame.new(2, 14)
    policies = [greedy(2, 0), greedy(2, 1)]
    while not game.over:
        game.play(policies[game.to_move](game, lexicon), lexicon)
        if game.turn == 1:
            _save("scruble", game.to_dict())
    _save("scruble_over", game.to_dict())


if __name__ == "__main__":
    for make in (crossword, kubagram, colonii, rummikub, scruble):
        make()
