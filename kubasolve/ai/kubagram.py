"""Kubagram AI opponents: random-legal, greedy and a look-ahead planner with an exact endgame search.

Every policy plans a whole turn at once (the draw order is visible, so nothing is hidden within a turn) and returns
the list of actions; :func:`~kubasolve.games.kubagram.game.play_game` applies them through the referee. AIs claim only
words found by the solver, so they never claim a non-word.

* :class:`RandomPolicy` - a uniformly random legal way to take the cube (or skip), and random claims.
* :class:`GreedyPolicy` - the take option and claims with the best immediate swing (own gain + points taken
  from others), claiming greedily one best word or compound after another.
* :class:`PlannerPolicy` - enumerates take options, skip, and claim variants (greedy, an alternative first word,
  nothing) and scores each by a greedy rollout of the next ``depth - 1`` turns (the draw order shows which cubes the
  next players will get, so this sees what the next player could claim from the cube put down); from
  ``endgame_cubes`` cubes left, an exact max^n search over every take/skip choice to the end of the game (skip
  timing, who gets the last cube and its 2-letter words, the field left to the last player).
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from kubasolve.errors import RulesError
from kubasolve.games.kubagram.actions import (
    Action,
    Claim,
    EndTurn,
    Skip,
    Take,
)
from kubasolve.games.kubagram.referee import Referee, claim_from_move
from kubasolve.games.kubagram.state import GameState

__all__ = ["POLICIES", "GreedyPolicy", "PlannerPolicy", "Policy", "RandomPolicy", "SearchPolicy", "best_claim",
           "greedy_claims", "make_policy"]

MAX_CLAIMS_PER_TURN = 8


class Policy(Protocol):
    """A Kubagram AI: plans the rest of the current player's turn."""

    name: str

    def turn(self, referee: Referee, state: GameState) -> list[Action]:
        """Actions for the player to move, up to the end of their turn."""
        ...


def best_claim(referee: Referee, state: GameState) -> tuple[int, Claim | None]:
    """The single claim with the best swing (gain + points taken from others) for the player to move."""
    if state.phase not in ("start", "after"):
        return 0, None
    solver = referee.solver
    position = state.position(include_held=state.phase == "after")
    if not position.tiles and not position.table:
        return 0, None
    best_value, best = 0, None
    if position.tiles:
        words = solver.best_words(position, top=1)
        if words:
            best_value, best = words[0].score, Claim(words[0].word, words[0].tiles)
    if len(position.table) >= 2 or (position.table and position.tiles):
        comps = solver.compound_moves(position, top=1, objective="swing")
        if comps and comps[0].gain + comps[0].taken > best_value:
            best_value, best = comps[0].gain + comps[0].taken, claim_from_move(comps[0], position.table)
    return best_value, best


def greedy_claims(referee: Referee, state: GameState, first: Claim | None = None) -> tuple[GameState, list[Claim]]:
    """Claim the best-swing word or compound again and again (after ``first``, when given) while any is left."""
    claims: list[Claim] = []
    if first is not None:
        state = referee.apply(state, first)
        claims.append(first)
    while len(claims) < MAX_CLAIMS_PER_TURN:
        value, claim = best_claim(referee, state)
        if claim is None or value <= 0:
            break
        state = referee.apply(state, claim)
        claims.append(claim)
    return state, claims


def _swing(state: GameState, player: int) -> int:
    """Score of ``player`` minus the best other score (the quantity every AI maximises)."""
    others = [s for p, s in enumerate(state.scores) if p != player]
    return state.scores[player] - (max(others) if others else 0)


def finish_turn(referee: Referee, state: GameState, option: Action | None, variant: str | Claim = "greedy"
                ) -> tuple[GameState, list[Action]]:
    """Play ``option`` (a take, skip or place choice; None mid-turn) and claims as ``variant`` says (``greedy``,
    ``none``, or a first :class:`Claim` followed by greedy claims); returns the state after the turn and its actions."""
    actions: list[Action] = []
    s = state
    passes_turn = isinstance(option, Skip) or (isinstance(option, Take) and s.phase == "start"
                                               and s.next_cube is not None and s.next_cube.marking.value == "0")
    if option is not None and passes_turn:
        if variant != "none" and s.game_rules.missed_claims:  # claim missed words before the turn passes
            s, claims = greedy_claims(referee, s)
            actions += claims
        s = referee.apply(s, option)
        actions.append(option)
        return s, actions
    if option is not None:
        s = referee.apply(s, option)
        actions.append(option)
    if variant != "none":
        s, claims = greedy_claims(referee, s, variant if isinstance(variant, Claim) else None)
        actions += claims
    s = referee.apply(s, EndTurn())
    actions.append(EndTurn())
    return s, actions


def _options(referee: Referee, state: GameState, allow_skip: bool = True) -> list[Action | None]:
    """The take/skip/place choices of the player to move (None when the cube is already taken)."""
    if state.phase == "after":
        return [None]
    opts: list[Action | None] = list(referee.take_options(state))
    if not allow_skip:
        opts = [o for o in opts if not isinstance(o, Skip)] or opts
    return opts


@dataclass
class RandomPolicy:
    """Uniformly random legal choices: how to take the cube (or skip), then claim random solver words."""

    seed: int = 0
    claim_probability: float = 0.5
    name: str = "random"

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def turn(self, referee: Referee, state: GameState) -> list[Action]:
        """A random legal turn."""
        option = self.rng.choice(_options(referee, state))
        actions: list[Action] = []
        s = state
        if option is not None:
            s = referee.apply(s, option)
            actions.append(option)
            if isinstance(option, Skip) or s.current != state.current:
                return actions
        for _ in range(3):
            if self.rng.random() >= self.claim_probability:
                break
            claims = referee.claim_options(s, top=5)
            if not claims:
                break
            claim = self.rng.choice(claims)
            s = referee.apply(s, claim)
            actions.append(claim)
        actions.append(EndTurn())
        return actions


@dataclass
class GreedyPolicy:
    """Best immediate swing: tries every way to take the cube, claims greedily, keeps the best (never skips)."""

    name: str = "greedy"

    def turn(self, referee: Referee, state: GameState) -> list[Action]:
        """The greedy turn."""
        me = state.current
        best: tuple[int, list[Action]] | None = None
        for option in _options(referee, state, allow_skip=False):
            s, actions = finish_turn(referee, state, option)
            value = _swing(s, me)
            keep_bonus = 1 if isinstance(option, Take) and option.keep else 0  # ties: keep the joker for later
            if best is None or value * 2 + keep_bonus > best[0]:
                best = (value * 2 + keep_bonus, actions)
        assert best is not None
        return best[1]


@dataclass
class PlannerPolicy:
    """Look-ahead planner: greedy rollouts of the next turns for every option, exact search in the endgame."""

    depth: int = 6
    """Turns simulated per option: 1 = own turn only, 2 = also the next player's greedy reply, 3 = and own next
    turn, ... (measured against greedy, 80 games each: depth 2 54%, 3 75%, 4 82%, 6 94%, 8 89%)."""
    alternatives: int = 2
    """Other first words tried besides the greedy claim."""
    endgame_cubes: int = 3
    """Exact search once at most this many cubes are left (0: never)."""
    endgame_nodes: int = 400
    """Node budget of the exact search; beyond it the planner falls back to rollouts."""
    name: str = "planner"

    def __post_init__(self) -> None:
        if self.depth < 1:
            raise RulesError("planner depth must be at least 1")
        self.greedy = GreedyPolicy()
        self._nodes = 0
        self._deadline: float | None = None
        """perf_counter() time after which the exact endgame search gives up (set by SearchPolicy)."""

    # -------------------------------------------------------------- main
    def turn(self, referee: Referee, state: GameState) -> list[Action]:
        """The planned turn."""
        if self.endgame_cubes > 0 and state.cubes_left <= self.endgame_cubes:
            exact = self._endgame_turn(referee, state)
            if exact is not None:
                return exact
        me = state.current
        best: tuple[int, int, list[Action]] | None = None
        rank = 0
        for option in _options(referee, state):
            for variant in self._variants(referee, state, option):
                s, actions = finish_turn(referee, state, option, variant)
                value = self._rollout(referee, s, me, self.depth - 1)
                rank += 1
                key = value
                if best is None or key > best[0]:
                    best = (key, rank, actions)
        assert best is not None
        return best[2]

    def _variants(self, referee: Referee, state: GameState, option: Action | None) -> list[str | Claim]:
        """Claim variants worth trying after ``option``: greedy, a few other first words, and claiming nothing."""
        if isinstance(option, Skip) or self.alternatives <= 0:
            return ["greedy"]
        s = state
        if option is not None:
            s = referee.apply(state, option)  # options come from take_options: always legal
            if s.current != state.current:
                return ["greedy"]
        position = s.position(include_held=True)
        if not position.tiles:
            return ["greedy"]
        words = referee.solver.best_words(position, top=self.alternatives + 1)
        if not words:
            return ["greedy"]
        out: list[str | Claim] = ["greedy"]
        out += [Claim(w.word, w.tiles) for w in words[1:]]
        out.append("none")
        return out

    def _rollout(self, referee: Referee, state: GameState, me: int, turns: int) -> int:
        """Play ``turns`` more greedy turns from ``state``; value = my score minus the best other score."""
        s = state
        for _ in range(turns):
            if s.over:
                break
            for a in self.greedy.turn(referee, s):
                s = referee.apply(s, a)
        return _swing(s, me)

    # -------------------------------------------------------------- exact endgame
    def _endgame_turn(self, referee: Referee, state: GameState) -> list[Action] | None:
        """Exact max^n search over take/skip/letter choices to the end of the game (claims greedy within a turn)."""
        self._nodes = 0
        try:
            _, actions = self._search(referee, state)
        except _Budget:
            return None
        return actions

    def _search(self, referee: Referee, state: GameState) -> tuple[tuple[int, ...], list[Action]]:
        """(value for every player, actions of this turn): each player maximises own score minus the best other."""
        if state.over:
            n = state.n_players
            return tuple(_swing(state, p) for p in range(n)), []
        self._nodes += 1
        if self._nodes > self.endgame_nodes:
            raise _Budget
        if self._deadline is not None and time.perf_counter() > self._deadline:
            raise _Budget
        me = state.current
        best: tuple[tuple[int, ...], list[Action]] | None = None
        for option in _options(referee, state):
            s, actions = finish_turn(referee, state, option)
            values, _ = self._search(referee, s)
            if best is None or values[me] > best[0][me]:
                best = (values, actions)
        assert best is not None
        return best


class _Budget(Exception):
    """The exact endgame search ran out of nodes."""


@dataclass
class SearchPolicy:
    """Paranoid two-level search: my candidate turns against the next player's candidate replies, greedy rollouts
    at the leaves, the exact max^n search in the endgame.

    Every candidate turn (take/skip/letter choice x claim variant, as the planner) first gets the planner's value:
    a greedy rollout of the next ``depth - 1`` turns. The next player's reply is then searched too: each of their
    candidate turns (their take options x claim variants: greedy, other first words, claiming nothing) followed by
    a greedy rollout of ``depth - 2`` turns; the candidate's value is the worst of these for me (paranoid: with two
    players, exactly the reply that is best for them). The greedy reply is one of the replies, so the searched value
    never exceeds the planner value; candidates are searched in planner-value order and one whose planner value
    cannot beat the best searched value is cut, as is a reply list once one reply is bad enough (alpha-beta cuts,
    exact for this two-level tree). The search stops at the budget (``max_nodes`` simulated turns, and
    ``movetime_ms`` wall time when given) and plays the best fully searched candidate.
    """

    depth: int = 6
    """Turns simulated per candidate, the own turn included (as the planner's depth)."""
    alternatives: int = 2
    """Other first words tried besides the greedy claim, for the own turn."""
    reply_alternatives: int = 2
    """Other first words tried besides the greedy claim, for the next player's replies."""
    max_nodes: int | None = 400
    """Budget of simulated turns per move (deterministic; None: unbounded)."""
    movetime_ms: float | None = None
    """Wall-time budget per move in milliseconds (None: only ``max_nodes``); results then depend on the machine."""
    endgame_cubes: int = 5
    """Exact max^n search once at most this many cubes are left (0: never)."""
    endgame_nodes: int = 2000
    """Node budget of the exact endgame search; beyond it (or past ``movetime_ms``) the two-level search is used."""
    skip_cubes: int | None = 12
    """Consider skipping only once at most this many cubes are left (None: always). A skip hands every later cube
    to the other parity; kept for the endgame it decides who takes the last cube."""
    name: str = "search"

    def __post_init__(self) -> None:
        if self.depth < 2:
            raise RulesError("search depth must be at least 2")
        if self.max_nodes is not None and self.max_nodes < 1:
            raise RulesError("max_nodes must be at least 1")
        if self.movetime_ms is not None and self.movetime_ms <= 0:
            raise RulesError("movetime_ms must be positive")
        self.planner = PlannerPolicy(depth=self.depth, alternatives=self.alternatives,
                                     endgame_cubes=self.endgame_cubes, endgame_nodes=self.endgame_nodes)
        self.replies = PlannerPolicy(depth=self.depth - 1, alternatives=self.reply_alternatives, endgame_cubes=0)
        self.nodes = 0
        """Simulated turns of the last move (a rollout turn or a candidate turn counts as one)."""

    def turn(self, referee: Referee, state: GameState) -> list[Action]:
        """The searched turn."""
        deadline = None if self.movetime_ms is None else time.perf_counter() + self.movetime_ms / 1000
        self.nodes = 0
        if self.endgame_cubes > 0 and state.cubes_left <= self.endgame_cubes:
            self.planner._deadline = deadline
            exact = self.planner._endgame_turn(referee, state)
            self.nodes += self.planner._nodes
            if exact is not None:
                return exact
        me = state.current
        candidates: list[tuple[int, int, GameState, list[Action]]] = []
        allow_skip = self.skip_cubes is None or state.cubes_left <= self.skip_cubes
        for option in _options(referee, state, allow_skip):
            for variant in self.planner._variants(referee, state, option):
                s, actions = finish_turn(referee, state, option, variant)
                value = self._rollout(referee, s, me, self.depth - 1)
                candidates.append((value, len(candidates), s, actions))
        candidates.sort(key=lambda c: (-c[0], c[1]))  # stable: the planner's choice first among equals
        best_value, best_actions = candidates[0][0], candidates[0][3]
        searched = False
        for value, _, s, actions in candidates:
            if searched and value <= best_value:
                break  # the searched value never exceeds the planner value: nothing later can win
            if self._out_of_budget(deadline):
                break
            got = self._worst_reply(referee, s, me, best_value if searched else None, deadline)
            if got is None:
                break  # budget ran out inside: keep what was fully searched
            if not searched or got > best_value:
                best_value, best_actions, searched = got, actions, True
        return best_actions

    def _worst_reply(self, referee: Referee, state: GameState, me: int, alpha: int | None,
                     deadline: float | None) -> int | None:
        """My value after the next player's worst reply for me (None if the budget ran out)."""
        if state.over:
            return _swing(state, me)
        worst: int | None = None
        for option in _options(referee, state):
            for variant in self.replies._variants(referee, state, option):
                if self._out_of_budget(deadline):
                    return None
                s, _ = finish_turn(referee, state, option, variant)
                self.nodes += 1
                value = self._rollout(referee, s, me, self.depth - 2)
                if worst is None or value < worst:
                    worst = value
                    if alpha is not None and worst <= alpha:
                        return worst  # cut: this candidate cannot beat the best one
        return worst if worst is not None else _swing(state, me)

    def _rollout(self, referee: Referee, state: GameState, me: int, turns: int) -> int:
        s = state
        for _ in range(turns):
            if s.over:
                break
            self.nodes += 1
            for a in self.planner.greedy.turn(referee, s):
                s = referee.apply(s, a)
        return _swing(s, me)

    def _out_of_budget(self, deadline: float | None) -> bool:
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            return True
        return deadline is not None and time.perf_counter() >= deadline


POLICIES = {"random": RandomPolicy, "greedy": GreedyPolicy, "planner": PlannerPolicy, "search": SearchPolicy}


def make_policy(name: str, seed: int = 0) -> Policy:
    """A policy by name: ``random``, ``greedy``, ``planner``, ``planner:DEPTH``, ``search`` or ``search:NODES``."""
    base, _, arg = name.partition(":")
    if base not in POLICIES:
        raise RulesError(f"unknown AI {name!r}; use one of {', '.join(POLICIES)} (planner:DEPTH for a deeper planner, search:NODES for a node budget)")
    if base == "random":
        return RandomPolicy(seed)
    if base == "greedy":
        return GreedyPolicy()
    if base == "search":
        if not arg:
            return SearchPolicy()
        try:
            nodes = int(arg)
        except ValueError:
            raise RulesError(f"search node budget must be a number, got {arg!r}") from None
        return SearchPolicy(max_nodes=nodes)
    if arg:
        try:
            depth = int(arg)
        except ValueError:
            raise RulesError(f"planner depth must be a number, got {arg!r}") from None
        return PlannerPolicy(depth=depth)
    return PlannerPolicy()


def policy_names(names: Sequence[str]) -> list[str]:
    """Validate AI names (raises :class:`RulesError` for an unknown one)."""
    for n in names:
        make_policy(n)
    return list(names)
