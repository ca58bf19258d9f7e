"""Word colonies (colonii) in the game protocol (:mod:`kubasolve.games.protocol`), over the referee, solver and AIs.

An action is a whole turn. ``legal_moves`` lists the best combined turn (the best-turn search, within the budget),
the best single moves (each a turn of one move), the owner's actions open now (each a turn of one ``declare`` or
``decolonise`` move: the owner chooses them, on their own turn), pass, and one exchange (the whole hand, as far as
the deck allows) when the deck is not empty: an exchange is allowed exactly when that entry is there. Turns of
several moves are legal too, so the list is complete only when no two moves can be combined.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from kubasolve.budget import Budget
from kubasolve.games.colonii.rules import ColoniiRules
from kubasolve.games.protocol import AiMove, Game, LegalMove, LegalMoves, State, action_field, exchange_count, register_game

__all__ = ["Colonii", "turn_text"]


def turn_text(action: dict[str, Any]) -> str:
    """``new ZIAR + extend #0 CALORIFER``, ``declare #2``, ``exchange XZ`` or ``pass`` for a colonii action's JSON form."""
    if action.get("type") == "turn":
        return " + ".join(" ".join(part for part in (m["play"], "" if m.get("target") is None else f"#{m['target']}",
                                                     str(m.get("word", "")).upper()) if part)
                          for m in action.get("moves", []))
    if action.get("type") == "exchange":
        return f"exchange {str(action.get('cards', '')).upper()}"
    return str(action.get("type"))


@register_game
class Colonii(Game):
    """Word colonies: Romanian letter cards (docs/colonii.md)."""

    name: ClassVar[str] = "colonii"
    render_module: ClassVar[str] = "kubasolve.games.colonii.render"
    ai_names: ClassVar[tuple[str, ...]] = ("random", "greedy", "planner")
    default_ai: ClassVar[str] = "planner"
    lexicons: ClassVar[tuple[str, ...]] = ("ro",)
    rules_type: ClassVar[type] = ColoniiRules
    play_help: ClassVar[str] = """Colonii commands (a turn on one line; its moves separated by ';'):
  n WORD             build a new word from your cards
  e GROUP WORD       extend the word of table group GROUP (e.g. e 0 calorifer)
  c GROUP WORD       chain a perpendicular word from the last letter of group GROUP
  s GROUP            declare your colony GROUP a supercolony (at 5 words; +5, once)
  d GROUP            decolonise your colony GROUP (at 10 words: its first word scores again)
                     e.g. n ziar; e 0 calorifer   (two moves in one turn)
  x CARDS            exchange cards (they go under the deck; you draw as many)
  p                  pass"""

    def wordlist_alphabet(self) -> Any:
        return self.rules.alphabet

    def player_range(self) -> tuple[int, int]:
        return 1, 8

    @property
    def referee(self) -> Any:
        """The cached referee of these rules and lexicon."""
        from kubasolve.games.colonii.game import default_referee

        return default_referee(self.rules, self.lexicon)

    def _warm_up(self) -> None:
        self.referee.solver.warm_up()

    # ---------------------------------------------------------------- hooks
    def _new(self, seed: int, players: tuple[str, ...]) -> Any:
        return self.referee.new_game(seed, len(players))

    def _result(self, native: Any) -> tuple[int | None, int, Sequence[int], bool, Sequence[int]]:
        return native.current, native.turn, native.scores, native.over, native.winners() if native.over else []

    def _legal_moves(self, native: Any, top: int, budget: Budget) -> LegalMoves:
        from kubasolve.games.colonii.game import MoveSpec
        from kubasolve.games.colonii.movegen import TurnBudget

        solver = self.referee.solver
        position = native.position()
        meter = budget.meter(TurnBudget)
        scored: list[LegalMove] = []
        table = solver.move_table(position)  # every legal word move (as solver.all_moves, generated once)
        n_singles = len(table)
        singles = solver.moves(table, position, np.argsort(-table.keys("gain"), kind="stable")[:top]) if n_singles else []
        owner = solver.owner_moves(position)  # declare / decolonise: no cards, outside max_turn_moves
        singles = sorted(owner + singles, key=lambda m: -m.gain)[:top]  # stable: the owner's actions first on ties
        n_singles += len(owner)
        if singles:  # the best so far, for progress reports, until the best-turn search improves on it
            first = {"type": "turn", "moves": [MoveSpec.from_move(singles[0]).to_dict()]}
            meter.best = {"action": first, "text": turn_text(first), "score": singles[0].gain}
        best = solver.best_turn(position, "gain", budget=meter) if n_singles else None
        if best is not None and len(best.moves) > 1:
            action = {"type": "turn", "moves": [MoveSpec.from_move(m).to_dict() for m in best.moves]}
            scored.append(LegalMove(action, turn_text(action), best.gain, {"taken": best.taken, "moves": len(best.moves)}))
        for m in singles:
            action = {"type": "turn", "moves": [MoveSpec.from_move(m).to_dict()]}
            scored.append(LegalMove(action, turn_text(action), m.gain, {"taken": m.taken, "kind": m.kind.value}))
        scored.sort(key=lambda e: -(e.score or 0))
        fixed = [LegalMove({"type": "pass"}, "pass")]
        hand, deck = native.hands[native.current], native.deck
        exchanges = exchange_count(hand, len(deck))
        if exchanges:
            cards = hand[: len(deck)]
            fixed.append(LegalMove({"type": "exchange", "cards": cards}, f"exchange {cards.upper()}", None, {"exchanges": exchanges}))
        # two moves combine unless both build a word and a turn builds one word at most
        combined = n_singles > 1 and (self.rules.max_turn_moves > 1 or bool(owner))
        count = None if combined else n_singles + exchanges + 1
        complete = not combined and len(singles) == n_singles and exchanges <= 1
        proven = best is None or best.proven_optimal
        return LegalMoves(scored[:top] + fixed, count, complete, proven, meter.nodes)

    def _apply(self, native: Any, action: dict[str, Any]) -> Any:
        return self.referee.apply(native, action)

    def _ai_move(self, native: Any, ai: str, budget: Budget, seed: int, options: dict[str, Any]) -> AiMove:
        from kubasolve.games.colonii.ai import make_policy
        from kubasolve.games.colonii.movegen import TurnBudget

        meter = budget.meter(TurnBudget)
        action = make_policy(ai, seed).turn(self.referee, native, meter).to_dict()
        # proven only for greedy, which plays the exact best turn; random and planner choose otherwise
        return AiMove(action, turn_text(action), ai == "greedy" and not meter.exhausted, meter.nodes,
                      {"searched": not meter.exhausted})

    def parse_command(self, state: State, text: str) -> dict[str, Any] | str | None:
        words = text.split()
        if not words:
            return None
        shared = self.pass_or_exchange(words, "cards")
        if shared is not None:
            return shared
        moves: list[dict[str, Any]] = []
        for part in text.split(";"):
            w = part.split()
            if len(w) == 2 and w[0].lower() == "n":
                moves.append({"play": "new", "word": w[1]})
            elif len(w) == 3 and w[0].lower() in ("e", "c") and w[1].isascii() and w[1].isdigit():
                moves.append({"play": "extend" if w[0].lower() == "e" else "chain", "target": int(w[1]), "word": w[2]})
            elif len(w) == 2 and w[0].lower() in ("s", "d") and w[1].isascii() and w[1].isdigit():
                moves.append({"play": "declare" if w[0].lower() == "s" else "decolonise", "target": int(w[1])})
            else:
                return None
        return {"type": "turn", "moves": moves}

    def _command_text(self, state: State, action: dict[str, Any]) -> str | None:
        kind = action.get("type")
        if kind == "pass":
            return "p"
        if kind == "exchange":
            return f"x {action_field(action, 'cards', str, required=False) or ''}"
        letters = {"new": "n", "extend": "e", "chain": "c", "declare": "s", "decolonise": "d"}
        parts = []
        for k, m in enumerate(action_field(action, "moves", list, required=False, items=dict) or []):
            where = f"action.moves[{k}]"
            if action_field(m, "play", str, where=where) not in letters:
                return None
            target = action_field(m, "target", int, required=False, where=where)
            word = action_field(m, "word", str, required=False, where=where)  # s GROUP and d GROUP name no word
            parts.append(f"{letters[m['play']]}{'' if target is None else f' {target}'}{f' {word}' if word else ''}")
        return "; ".join(parts) or None

    def _saved_native(self, data: dict[str, Any]) -> tuple[Any, Any, Sequence[str] | None] | None:
        """A ``ColoniiState.to_dict`` (the v2 engine's state) under the rules it holds."""
        from kubasolve.games.colonii.game import STATE_FORMAT, ColoniiState, default_referee

        if data.get("format") != STATE_FORMAT:
            return None
        rules = self.parse_rules(data.get("rules"))
        state = ColoniiState.from_dict(data, default_referee(rules, self.lexicon))
        return state.rules, state, None

    def _from_json(self, data: dict[str, Any], players: tuple[str, ...]) -> Any:
        from kubasolve.games.colonii.game import ColoniiState

        state = ColoniiState.from_dict(data, self.referee)
        return self._loaded(state, state.rules, players)
