"""Kubagram in the game protocol (:mod:`kubasolve.games.protocol`), over the referee, solver and AIs.

A turn is several actions of one player (take a cube, claims, end), each an ``apply`` of its own; ``legal_moves``
lists the take/skip/place choices, the best claims by the mover's gain (a claim of any word the field spells is
legal, so the list is never complete) and ending the turn. An AI plans the rest of the turn at once: its action is
``{"type": "turn", "actions": [...]}``, which ``apply`` plays in order (all or nothing).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from kubasolve.budget import Budget
from kubasolve.errors import IllegalMoveError, KubasolveError, LimitError, RulesError, StateError
from kubasolve.games.kubagram.game_rules import KubagramGameRules
from kubasolve.games.kubagram.rules import KubagramRules
from kubasolve.games.kubagram.terminal import PLAY_HELP
from kubasolve.games.limits import KUBAGRAM_MAX_CLAIM_FIELD, KUBAGRAM_MAX_PLANNER_DEPTH, KUBAGRAM_MAX_SEARCH_NODES
from kubasolve.games.protocol import AiMove, AiNumber, Game, LegalMove, LegalMoves, State, register_game, seat_labels
from kubasolve.games.settings import read_toml_table

__all__ = ["MAX_AI_FIELD", "MAX_PLANNER_DEPTH", "MAX_SEARCH_NODES", "Kubagram", "KubagramPlayRules", "kubagram_policy"]

MAX_PLANNER_DEPTH = KUBAGRAM_MAX_PLANNER_DEPTH
"""Deepest ``planner:DEPTH`` (``kubasolve.games.limits``, the CLI's bound too)."""
MAX_SEARCH_NODES = KUBAGRAM_MAX_SEARCH_NODES
"""Largest ``search:NODES`` (simulated turns, 0.1-2 ms each: at most a few minutes; ``kubasolve.games.limits``)."""
MAX_AI_FIELD = KUBAGRAM_MAX_CLAIM_FIELD
"""Field tiles the AIs search (a larger field is refused up front): greedy and random take no budget, and their
exact solves grow steeply with the field (worst of 8 random fields: 32 tiles 0.2 s, 36 tiles 2.7 s, 60 tiles 27 s);
real games hold ~10-20."""
PLAY_SAVE_FORMAT = "kubasolve-kubagram-play-1"
"""The format tag of the files older versions of ``kubagram play --save`` wrote (still read)."""
TURN = "turn"
"""The protocol's action for several actions of one turn, in order: ``{"type": "turn", "actions": [...]}``."""


@dataclass(frozen=True)
class KubagramPlayRules:
    """Kubagram's rules in the protocol: the scoring rules and the game settings as one value; their JSON form is
    flat (``{"min_length": 4, "skips_per_game": 2}``). The player count comes from the seats, not from here."""

    scoring: KubagramRules = field(default_factory=KubagramRules)
    game: KubagramGameRules = field(default_factory=KubagramGameRules)

    def __post_init__(self) -> None:
        if self.game.n_players != KubagramGameRules().n_players:  # the seats decide it
            object.__setattr__(self, "game", replace(self.game, n_players=KubagramGameRules().n_players))

    def to_dict(self) -> dict[str, Any]:
        """Flat JSON form: every scoring and game setting (but ``n_players``)."""
        game = self.game.to_dict()
        game.pop("n_players")
        return {**self.scoring.to_dict(), **game}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> KubagramPlayRules:
        """Settings of both kinds in one mapping; unknown keys are refused by name."""
        if not isinstance(data, Mapping):
            raise RulesError("rules must be an object of settings")
        if "n_players" in data:
            raise RulesError("n_players: the player count comes from the seats (players), not from the rules")
        game_keys = set(KubagramGameRules.__dataclass_fields__) - {"n_players"}
        scoring = {k: v for k, v in data.items() if k not in game_keys}
        game = {k: v for k, v in data.items() if k in game_keys}
        return cls(KubagramRules.from_dict(scoring), KubagramGameRules.from_dict(game))

    @classmethod
    def from_toml(cls, source: Any) -> KubagramPlayRules:
        """Settings from TOML text or a path: scoring settings at top level or under ``[kubagram]``, game settings
        (vowel rule, penalty, skips...) under ``[game]`` or beside the scoring ones (the player count comes from
        the seats: an ``n_players`` there is ignored)."""
        data = read_toml_table(source, "")
        scoring = data.get("kubagram", {k: v for k, v in data.items() if k != "game"})
        game = data.get("game", {})
        if not isinstance(scoring, Mapping) or not isinstance(game, Mapping):
            raise RulesError("[kubagram] and [game] must be tables of settings")
        return cls.from_dict({**scoring, **{k: v for k, v in game.items() if k != "n_players"}})


def kubagram_policy(ai: str, seed: int, budget: Budget) -> Any:
    """The AI ``ai`` (``random``, ``greedy``, ``planner[:DEPTH]``, ``search[:NODES]``) with ``budget``: the planner and
    the search AI stop their rollouts and search at ``max_nodes`` (simulated turns) / ``movetime_ms`` or a stop; greedy
    and random take no budget. A bad name is a bad request naming ``ai`` (``Kubagram.check_ai`` refuses it first)."""
    from kubasolve.games.kubagram.ai import PlannerPolicy, SearchPolicy, make_policy

    arg = ai.partition(":")[2]
    try:
        policy = make_policy(ai, seed)
    except RulesError as exc:
        raise KubasolveError(f"ai: {exc}", key="ai") from None
    if not isinstance(policy, (PlannerPolicy, SearchPolicy)) or not (budget.limited or budget.stop is not None):
        return policy
    # max_nodes overrides search:NODES; with movetime_ms alone the time bounds the move (plain "search")
    nodes = budget.max_nodes if budget.max_nodes is not None else (policy.max_nodes if arg or not budget.limited else None)
    return replace(policy, max_nodes=nodes, movetime_ms=budget.movetime_ms, stop=budget.stop)


@register_game
class Kubagram(Game):
    """Kubagram: the Dutch letter-cube game (docs/kubagram_game.md)."""

    name: ClassVar[str] = "kubagram"
    render_module: ClassVar[str] = "kubasolve.games.kubagram.render"
    ai_names: ClassVar[tuple[str, ...]] = ("random", "greedy", "planner", "search")
    ai_numbers: ClassVar[Mapping[str, AiNumber]] = {
        "planner": AiNumber("DEPTH", "the planner's depth", 1, MAX_PLANNER_DEPTH),
        "search": AiNumber("NODES", "the search's node budget", 1, MAX_SEARCH_NODES),
    }
    default_ai: ClassVar[str] = "planner"
    lexicons: ClassVar[tuple[str, ...]] = ("nl",)
    rules_type: ClassVar[type] = KubagramPlayRules
    deal_options: ClassVar[tuple[str, ...]] = ("rotation",)
    """``rotation``: the last player's board turn (0, 90, 180, 270 or a corner such as ``"top-left"``; default
    seeded random)."""

    play_help: ClassVar[str] = PLAY_HELP

    def player_range(self) -> tuple[int, int]:
        return 1, 8

    @property
    def referee(self) -> Any:
        """The cached referee of these rules and lexicon."""
        from kubasolve.games.kubagram.game import default_referee

        return default_referee(self.rules.scoring, self.rules.game, self.lexicon)

    def _warm_up(self) -> None:
        self.referee.solver.warm_up()

    # ---------------------------------------------------------------- hooks
    def _new(self, seed: int, players: tuple[str, ...]) -> Any:
        return self.referee.new_game(seed, n_players=len(players))

    def _new_with(self, seed: int, players: tuple[str, ...], options: dict[str, Any]) -> Any:
        rotation = options.get("rotation")
        if isinstance(rotation, str) and rotation.isascii() and rotation.isdigit():
            rotation = int(rotation)
        try:
            return self.referee.new_game(seed, n_players=len(players), rotation=rotation)
        except RulesError as exc:
            raise KubasolveError(f"options.rotation: {exc}", key="options.rotation") from None

    def _result(self, native: Any) -> tuple[int | None, int, Sequence[int], bool, Sequence[int]]:
        # once over, the native turn is one more than the turns played, as the protocol's in every game
        return native.current, native.turn, native.scores, native.over, native.winners() if native.over else []

    def _legal_moves(self, native: Any, top: int, budget: Budget) -> LegalMoves:
        from kubasolve.games.kubagram.actions import EndTurn
        from kubasolve.games.kubagram.movegen import SearchBudget
        from kubasolve.games.kubagram.referee import claim_from_move

        referee = self.referee
        meter = budget.meter(SearchBudget)
        claims: list[LegalMove] = []
        can_claim = native.phase == "after" or (native.phase == "start" and native.game_rules.missed_claims)
        if can_claim:
            position = native.position(include_held=native.phase == "after")
            found: list[Any] = [claim_from_move(w, position.table) for w in referee.solver.best_words(position, top, budget=meter)]
            if found:  # the best so far, for progress reports, while the compounds are searched
                meter.report({"action": found[0].to_dict(), "text": found[0].describe()})
            if position.table:
                # the best compounds by what the list ranks by and reports as score, the mover's gain (by swing, a
                # compound of the mover's own words that gains more but takes nothing could be left out of the top
                # while proven_optimal said the first claim listed was the best)
                found += [claim_from_move(m, position.table)
                          for m in referee.solver.compound_moves(position, top, "gain", budget=meter)]
            for claim in found:
                gain, taken = _claim_value(referee, native, claim)
                claims.append(LegalMove(claim.to_dict(), claim.describe(), gain, {"taken": taken}))
            claims.sort(key=lambda m: -(m.score or 0))
        fixed = [LegalMove(a.to_dict(), a.describe()) for a in referee.take_options(native)]
        if native.phase == "after":
            fixed.append(LegalMove(EndTurn().to_dict(), EndTurn().describe()))
        complete = not can_claim
        return LegalMoves(claims[:top] + fixed, len(fixed) if complete else None, complete, not meter.exhausted, meter.nodes)

    def _apply(self, native: Any, action: dict[str, Any]) -> Any:
        referee = self.referee
        if action.get("type") != TURN:
            return referee.apply(native, action)
        if set(action) != {"type", "actions"} or not isinstance(action["actions"], list) or not action["actions"]:
            extra = set(action) - {"type", "actions"}
            raise IllegalMoveError('a turn action is {"type": "turn", "actions": [<action>, ...]} (at least one)',
                                   key=f"action.{min(extra)}" if extra else "action.actions")
        state = native
        for k, step in enumerate(action["actions"]):
            if state.current != native.current or state.over:
                raise IllegalMoveError(f"actions[{k}]: the turn is already over")
            try:
                state = referee.apply(state, step)
            except IllegalMoveError as exc:  # its key (action.type ...) names a part of this step
                key = f"action.actions[{k}]{exc.key.removeprefix('action')}" if exc.key and exc.key.startswith("action") else None
                raise IllegalMoveError(f"actions[{k}]: {exc}", key=key) from None
        return state

    def _ai_move(self, native: Any, ai: str, budget: Budget, seed: int, options: dict[str, Any]) -> AiMove:
        import time

        tiles = len(native.tile_sources())
        if tiles > MAX_AI_FIELD:
            raise LimitError(f"the AIs search fields of at most {MAX_AI_FIELD} tiles, this one holds {tiles} "
                             "(claim words to shrink it, or choose from the legal moves)", key="state")
        policy = kubagram_policy(ai, seed, budget)
        start = time.perf_counter()
        actions = policy.turn(self.referee, native)
        nodes = int(getattr(policy, "nodes", 0))
        cut = budget.stopped() or (budget.max_nodes is not None and nodes >= budget.max_nodes) or (
            budget.movetime_ms is not None and (time.perf_counter() - start) * 1e3 >= budget.movetime_ms)
        steps = [a.to_dict() for a in actions]
        # never proven: the AIs choose take/skip, claims and the claim's timing by rule of thumb (greedy) or by
        # sampling (search); "the searches ran to their end" is in details.searched
        return AiMove({"type": TURN, "actions": steps}, "; ".join(a.describe() for a in actions), False, nodes,
                      {"actions": len(steps), "searched": not cut})

    def parse_command(self, state: State, text: str) -> dict[str, Any] | str | None:
        from kubasolve.games.kubagram.terminal import parse_command

        return parse_command(text)

    def _command_text(self, state: State, action: dict[str, Any]) -> str | None:
        from kubasolve.games.kubagram.terminal import command_text

        return command_text(action)

    def _saved_native(self, data: dict[str, Any]) -> tuple[Any, Any, Sequence[str] | None] | None:
        """A ``GameState.to_dict`` (the v2 engine's state), or a file of the old ``kubagram play --save`` (format
        ``kubasolve-kubagram-play-1``: its seats named as the AIs are)."""
        from kubasolve.games.kubagram.state import GameState

        names: Sequence[str] | None = None
        if data.get("format") == PLAY_SAVE_FORMAT:
            seats = data.get("seats")
            if not (isinstance(seats, list) and all(isinstance(x, str) and x for x in seats)) or not isinstance(data.get("state"), dict):
                raise StateError("a kubagram play save holds seats (names) and state")
            names, data = seat_labels(seats), data["state"]
        elif "setup" not in data:
            return None
        state = GameState.from_dict(data, lexicon=self.lexicon)
        return KubagramPlayRules(state.rules, state.game_rules), state, names

    def _from_json(self, data: dict[str, Any], players: tuple[str, ...]) -> Any:
        from kubasolve.games.kubagram.state import GameState

        state = GameState.from_dict(data, lexicon=self.lexicon)
        return self._loaded(state, KubagramPlayRules(state.rules, state.game_rules), players)


def _claim_value(referee: Any, state: Any, claim: Any) -> tuple[int, int]:
    """What a claim is worth to the player to move: (their gain, what the others lose)."""
    after = referee.apply(state, claim)
    me = state.current
    taken = sum(max(0, before - now) for p, (before, now) in enumerate(zip(state.scores, after.scores)) if p != me)
    return after.scores[me] - state.scores[me], taken
