"""``Game.command_text`` (what to type for a listed action in ``kubasolve GAME play``'s hints) on a malformed action:
an :class:`IllegalMoveError` naming the problem, as ``apply`` gives, not a raw Python error (AttributeError,
TypeError, KeyError before)."""

from __future__ import annotations

from typing import Any

import pytest

from kubasolve.errors import IllegalMoveError
from kubasolve.games import load_game

from .helpers import BUILT_IN, QUICK_RULES

NOT_AN_OBJECT: list[Any] = [None, [1], "pass", 3]
MALFORMED = [  # (game, action, what the message names)
    ("colonii", {"moves": 5}, "action.moves must be a list of JSON objects"),
    ("colonii", {"moves": [5]}, "action.moves must be a list of JSON objects"),
    ("colonii", {"moves": [{"play": ["n"]}]}, "action.moves[0].play must be a text"),
    ("colonii", {"moves": [{"play": "extend", "target": "0", "word": "x"}]}, "action.moves[0].target must be a whole number"),
    ("colonii", {"moves": [{"play": "new", "word": 5}]}, "action.moves[0].word must be a text"),
    ("colonii", {"type": "exchange", "cards": ["a"]}, "action.cards must be a text"),
    ("scruble", {"twists": 5}, "action.twists must be a list of texts"),
    ("scruble", {"twists": [1, 2]}, "action.twists must be a list of texts"),
    ("scruble", {"twists": ["R"], "word": 5}, "action.word must be a text"),
    ("crossword", {"type": ["place"]}, "an action's type is a text"),
    ("crossword", {"type": {}}, "an action's type is a text"),
    ("crossword", {"type": "exchange", "letters": ["a"]}, "action.letters must be a text"),
    ("kubagram", {"type": "claim"}, "action.word is missing"),
    ("kubagram", {"type": "claim", "word": "ab", "tiles": 5}, "action.tiles must be a list of whole numbers"),
    ("kubagram", {"type": "place-zero"}, "action.letter is missing"),
]


@pytest.mark.parametrize("game", BUILT_IN)
@pytest.mark.parametrize("action", NOT_AN_OBJECT)
def test_an_action_that_is_no_json_object_is_refused(game: str, action: Any) -> None:
    g = load_game(game, QUICK_RULES[game])
    with pytest.raises(IllegalMoveError, match="an action must be a JSON object"):
        g.command_text(g.new_game(1, 2), action)


@pytest.mark.parametrize(("game", "action", "message"), MALFORMED)
def test_a_malformed_action_names_its_field(game: str, action: dict[str, Any], message: str) -> None:
    g = load_game(game, QUICK_RULES[game])
    with pytest.raises(IllegalMoveError) as exc:
        g.command_text(g.new_game(1, 2), action)
    assert message in str(exc.value)


@pytest.mark.parametrize("game", BUILT_IN)
def test_listed_actions_still_have_their_typed_text(game: str) -> None:
    g = load_game(game, QUICK_RULES[game])
    state = g.new_game(1, 2)
    for move in g.legal_moves(state, top=5).moves:
        text = g.command_text(state, move.action)
        assert text is None or (isinstance(text, str) and text)
