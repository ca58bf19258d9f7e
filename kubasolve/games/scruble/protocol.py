"""Scruble Cube in the game protocol (:mod:`kubasolve.games.protocol`), over the game, solver and AIs.

An action is a whole turn: ``{"type": "turn", "twists": ["R", "U'"], "word": "cube", "cells": [...]}`` (the word and
its cells optional). ``legal_moves`` lists the best words reachable within the rules' twists (the search, within the
budget) and one turn of a single twist without a word; every twist sequence without a word is legal too, so the
list is never complete.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any, ClassVar

from kubasolve.budget import Budget
from kubasolve.errors import IllegalMoveError
from kubasolve.games.protocol import AiMove, Game, LegalMove, LegalMoves, State, action_field, register_game
from kubasolve.games.scruble.rules import ScrubleRules

__all__ = ["Scruble", "action_text", "turn_action"]


def turn_action(turn: Any) -> dict[str, Any]:
    """The protocol action of a :class:`~kubasolve.games.scruble.game.Turn`."""
    return {"type": "turn", **turn.to_dict()}


def action_text(action: dict[str, Any]) -> str:
    """``R U' CUBE``: the twists and the word of a turn action (``(no word)`` without one)."""
    twists = " ".join(action.get("twists", []))
    return f"{twists} {str(action['word']).upper()}" if action.get("word") else f"{twists} (no word)"


@register_game
class Scruble(Game):
    """Scruble Cube: words along the belts of a 4x4x4 letter cube (docs/scruble.md)."""

    name: ClassVar[str] = "scruble"
    render_module: ClassVar[str] = "kubasolve.games.scruble.render"
    ai_names: ClassVar[tuple[str, ...]] = ("random", "greedy", "planner")
    default_ai: ClassVar[str] = "planner"
    lexicons: ClassVar[tuple[str, ...]] = ("en", "es")
    rules_type: ClassVar[type] = ScrubleRules
    play_help: ClassVar[str] = """Scruble commands:
  TWISTS [= WORD]    a turn: twists, then optionally '=' and a word read along a belt, e.g.  R U' = street
                     (b alone draws the position: the slice twist b is typed 2B)"""

    def wordlist_alphabet(self) -> Any:
        return self.rules.pegs.alphabet

    def default_lexicon(self) -> str:
        name = str(self.rules.pegs.name)
        return name if name in self.lexicons else self.lexicons[0]

    def player_range(self) -> tuple[int, int]:
        return 1, 4

    def _warm_up(self) -> None:
        from kubasolve.games.scruble.position import Cube
        from kubasolve.games.scruble.solver import warm_up

        warm_up(Cube.scrambled(self.rules.pegs, 0), self.lexicon, self.rules)

    # ---------------------------------------------------------------- hooks
    def _new(self, seed: int, players: tuple[str, ...]) -> Any:
        from kubasolve.games.scruble.game import ScrubleGame

        return ScrubleGame.new(len(players), seed, self.rules)

    def _result(self, native: Any) -> tuple[int | None, int, Sequence[int], bool, Sequence[int]]:
        return native.to_move, native.turn + 1, native.scores, native.over, native.winners() if native.over else []

    def _legal_moves(self, native: Any, top: int, budget: Budget) -> LegalMoves:
        from kubasolve.games.scruble.cube import Twist
        from kubasolve.games.scruble.solver import StateBudget, search

        meter = budget.meter(StateBudget)
        found, _ = search(native.cube, self.lexicon, self.rules, self.rules.max_twists, top, native.intact_words(), budget=meter,
                          spent=native.spent_premiums())
        words = []
        for m in found:
            if m.twists:  # a turn needs a twist
                action = {"type": "turn", "twists": m.notation(), "word": m.word, "cells": list(m.cells)}
                words.append(LegalMove(action, action_text(action), m.score, {"belt": m.run.belt}))
        plain = {"type": "turn", "twists": [Twist(0, 1).notation()]}
        return LegalMoves(words + [LegalMove(plain, action_text(plain))], None, False, not meter.exhausted, meter.nodes)

    def _apply(self, native: Any, action: dict[str, Any]) -> Any:
        from kubasolve.games.scruble.game import Turn

        if action.get("type", "turn") != "turn":
            raise IllegalMoveError(f"a Scruble action is a turn ({{\"type\": \"turn\", \"twists\": [...]}}), got type {action.get('type')!r}",
                                   key="action.type")
        action.pop("type", None)
        game = copy.copy(native)  # the lists the game changes in place are copied; the cube and rules are values
        game.scores, game.history, game.words, game.spent = (list(native.scores), list(native.history), list(native.words),
                                                              list(native.spent))
        game.play(Turn.from_dict(action), self.lexicon)
        return game

    def _ai_move(self, native: Any, ai: str, budget: Budget, seed: int, options: dict[str, Any]) -> AiMove:
        from kubasolve.games.scruble.ai import GREEDY_DEPTH, make_policy
        from kubasolve.games.scruble.solver import StateBudget

        meter = budget.meter(StateBudget)
        action = turn_action(make_policy(ai, seed)(native, self.lexicon, meter))
        searched = not meter.exhausted
        # proven only for greedy when its search covers every turn the rules allow (greedy searches GREEDY_DEPTH
        # twists) and ran to its end: it then plays the best-scoring turn; the planner trades score for the reply
        proven = ai == "greedy" and searched and self.rules.max_twists <= GREEDY_DEPTH
        return AiMove(action, action_text(action), proven, meter.nodes, {"searched": searched})

    def parse_command(self, state: State, text: str) -> dict[str, Any] | str | None:
        from kubasolve.games.scruble.cube import NotationError, parse_twist

        twists, _, word = text.partition("=")
        moves = twists.split()
        try:
            for t in moves:
                parse_twist(t)
        except NotationError:
            return None
        action: dict[str, Any] = {"type": "turn", "twists": moves}
        if word.strip():
            action["word"] = word.strip()
        return action if moves else None

    def _command_text(self, state: State, action: dict[str, Any]) -> str | None:
        twists = " ".join(action_field(action, "twists", list, required=False, items=str) or [])
        word = action_field(action, "word", str, required=False)
        return f"{twists} = {word}" if word else twists or None

    def _saved_native(self, data: dict[str, Any]) -> tuple[Any, Any, Sequence[str] | None] | None:
        """A ``ScrubleGame.to_dict`` (the v2 engine's state), replayed under the rules it holds."""
        from kubasolve.games.scruble.game import ScrubleGame

        if data.get("game") != "scruble":
            return None
        game = ScrubleGame.from_dict(data, self.lexicon)
        return game.rules, game, None

    def _from_json(self, data: dict[str, Any], players: tuple[str, ...]) -> Any:
        from kubasolve.games.scruble.game import ScrubleGame

        game = ScrubleGame.from_dict(data, self.lexicon)
        check_dealt_from_seed(game, "state.native.seed")
        return self._loaded(game, game.rules, players)


def check_dealt_from_seed(game: Any, key: str) -> None:
    """A game the engine (or the protocol) starts is scrambled from its seed: a saved state whose start cube is not the
    scramble of its ``seed`` was edited, and is refused (:class:`StateError` keyed ``key``; docs/engine.md, "Resuming
    a saved game": a saved game may not change what its record says)."""
    from kubasolve.errors import StateError
    from kubasolve.games.scruble.position import Cube

    if game.start_cube != Cube.scrambled(game.rules.pegs, game.seed):
        raise StateError(f"{key}: the start cube is not the scramble of seed {game.seed}", key=key)
