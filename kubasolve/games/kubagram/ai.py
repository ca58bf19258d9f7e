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
* :class:`SearchPolicy` - alpha-beta over whole turns of every player (iterative deepening up to ``max_plies``
  turns, greedy rollouts to ``horizon`` turns at the leaves) within a node or time budget; the planner's exact
  endgame search from ``endgame_cubes`` cubes left.

Budgets: the planner and the search AI take ``max_nodes`` (simulated turns, deterministic) and ``movetime_ms``;
greedy is one exact solve per take option and random a few solver calls, so neither needs one.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from kubasolve.budget import StopFlag
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
from kubasolve.games.limits import KUBAGRAM_MAX_PLANNER_DEPTH, KUBAGRAM_MAX_SEARCH_NODES

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
    max_nodes: int | None = None
    """Budget of simulated turns per move (None: unbounded). Candidates are valued in order (the first take option
    with greedy claims first); once the rollouts have used the budget the best candidate valued so far is played.
    The exact endgame search counts towards it too."""
    movetime_ms: float | None = None
    """Wall-time budget per move in milliseconds, checked like ``max_nodes`` (None: unbounded)."""
    name: str = "planner"
    stop: StopFlag | None = field(default=None, compare=False, repr=False)
    """Once set (an engine's ``stop``), the move ends like a spent budget: the best candidate valued so far."""

    def __post_init__(self) -> None:
        if self.depth < 1:
            raise RulesError("planner depth must be at least 1")
        if self.max_nodes is not None and self.max_nodes < 1:
            raise RulesError("max_nodes must be at least 1")
        if self.movetime_ms is not None and self.movetime_ms <= 0:
            raise RulesError("movetime_ms must be positive")
        self.greedy = GreedyPolicy()
        self.nodes = 0
        """Simulated turns of the last move (rollout turns and exact endgame nodes)."""
        self._nodes = 0
        self._deadline: float | None = None
        """perf_counter() time after which the exact endgame search gives up (set by SearchPolicy)."""

    # -------------------------------------------------------------- main
    def turn(self, referee: Referee, state: GameState) -> list[Action]:
        """The planned turn (within ``max_nodes`` / ``movetime_ms`` when given)."""
        self.nodes = 0
        budgeted = self.max_nodes is not None or self.movetime_ms is not None or self.stop is not None
        if budgeted:
            self._deadline = None if self.movetime_ms is None else time.perf_counter() + self.movetime_ms / 1000
        if self.endgame_cubes > 0 and state.cubes_left <= self.endgame_cubes:
            full = self.endgame_nodes
            if self.max_nodes is not None:
                self.endgame_nodes = min(full, self.max_nodes)
            try:
                exact = self._endgame_turn(referee, state)
            finally:
                self.nodes += min(self._nodes, self.endgame_nodes)
                self.endgame_nodes = full
            if exact is not None:
                return exact
        me = state.current
        best: tuple[int, int, list[Action]] | None = None
        rank = 0
        for option in _options(referee, state):
            for variant in self._variants(referee, state, option):
                if best is not None and budgeted and self._out_of_budget():
                    return best[2]
                s, actions = finish_turn(referee, state, option, variant)
                turns = self.depth - 1
                if self.max_nodes is not None:  # a rollout stops where the node budget does (before: it finished,
                    turns = min(turns, max(self.max_nodes - self.nodes, 0))  # max_nodes 1 spent 5 turns)
                value = self._rollout(referee, s, me, turns)
                rank += 1
                key = value
                if best is None or key > best[0]:
                    best = (key, rank, actions)
        assert best is not None
        return best[2]

    def _out_of_budget(self) -> bool:
        if (self.max_nodes is not None and self.nodes >= self.max_nodes) or _stopped(self.stop):
            return True
        return self._deadline is not None and time.perf_counter() >= self._deadline

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
            self.nodes += 1
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
        if (self._deadline is not None and time.perf_counter() > self._deadline) or _stopped(self.stop):
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


def _stopped(stop: StopFlag | None) -> bool:
    return stop is not None and stop.is_set()


class _Budget(Exception):
    """The exact endgame search ran out of nodes."""


class _OutOfBudget(Exception):
    """The search AI used up its node or time budget."""


_INF = 10**9


@dataclass
class SearchPolicy:
    """Alpha-beta search over whole turns (2 players: minimax of the score difference; more: paranoid), greedy
    rollouts at the leaves, iterative deepening within a node/time budget, the exact max^n search in the endgame.

    A node is a whole turn: a take/skip/letter choice x a claim variant (greedy claims, another first word,
    claiming nothing), as the planner's candidates. A line of ``plies`` searched turns is completed by greedy turns up
    to ``horizon`` turns and valued by my score minus the best other score. Iteration 1 is the planner (every
    candidate rolled out ``horizon - 1`` turns); iteration ``d`` searches ``d`` turns (each player's choices, the
    others minimising my value) and rolls out ``horizon - d`` greedy turns, up to ``max_plies``. The root candidates
    are searched best-first by the previous iteration, so an iteration cut by the budget still improves the move when
    a later candidate beats the previous best.
    """

    horizon: int = 8
    """Turns looked at per line, the own turn included (searched turns + greedy rollout turns)."""
    max_plies: int = 6
    """Deepest iteration: turns searched with every player's choices (at most ``horizon``)."""
    alternatives: int = 2
    """Other first words tried besides the greedy claim, for the own turn."""
    inner_alternatives: int = 1
    """Other first words tried besides the greedy claim, inside the tree."""
    max_nodes: int | None = 4000
    """Budget of simulated turns per move (deterministic; None: unbounded), the exact endgame's nodes included."""
    movetime_ms: float | None = None
    """Wall-time budget per move in milliseconds (None: only ``max_nodes``); results then depend on the machine."""
    endgame_cubes: int = 5
    """Exact max^n search once at most this many cubes are left (0: never)."""
    endgame_nodes: int = 2000
    """Node budget of the exact endgame search (within ``max_nodes``); beyond it the alpha-beta search is used."""
    skip_cubes: int | None = 12
    """Consider skipping only once at most this many cubes are left (None: always). A skip hands every later cube
    to the other parity; kept for the endgame it decides who takes the last cube."""
    name: str = "search"
    stop: StopFlag | None = field(default=None, compare=False, repr=False)
    """Once set (an engine's ``stop``), the move ends like a spent budget: the best of the deepest iteration."""

    def __post_init__(self) -> None:
        if self.horizon < 1:
            raise RulesError("search horizon must be at least 1")
        if not 1 <= self.max_plies <= self.horizon:
            raise RulesError("max_plies must be from 1 to the horizon")
        if self.max_nodes is not None and self.max_nodes < 1:
            raise RulesError("max_nodes must be at least 1")
        if self.movetime_ms is not None and self.movetime_ms <= 0:
            raise RulesError("movetime_ms must be positive")
        self.planner = PlannerPolicy(depth=self.horizon, alternatives=self.alternatives,
                                     endgame_cubes=self.endgame_cubes, endgame_nodes=self.endgame_nodes)
        self.inner = PlannerPolicy(depth=self.horizon, alternatives=self.inner_alternatives, endgame_cubes=0)
        self.greedy = GreedyPolicy()
        self.nodes = 0
        """Simulated turns of the last move (tree nodes, rollout turns and exact endgame nodes)."""
        self.plies = 0
        """Deepest iteration completed in the last move (0: the exact endgame decided it, or the budget ended the first)."""
        self._deadline: float | None = None
        self._plies_now = 1

    # -------------------------------------------------------------- budget
    def _spend(self, n: int = 1) -> None:
        """Count ``n`` simulated turns; raise :class:`_OutOfBudget` once the budget is used up."""
        if self.max_nodes is not None and self.nodes >= self.max_nodes:
            raise _OutOfBudget
        if (self._deadline is not None and time.perf_counter() >= self._deadline) or _stopped(self.stop):
            raise _OutOfBudget
        self.nodes += n

    # -------------------------------------------------------------- main
    def turn(self, referee: Referee, state: GameState) -> list[Action]:
        """The searched turn."""
        self._deadline = None if self.movetime_ms is None else time.perf_counter() + self.movetime_ms / 1000
        self.nodes, self.plies = 0, 0
        if self.endgame_cubes > 0 and state.cubes_left <= self.endgame_cubes:
            budget = self.endgame_nodes if self.max_nodes is None else min(self.endgame_nodes, self.max_nodes)
            self.planner.endgame_nodes = budget
            self.planner._deadline = self._deadline
            self.planner.stop = self.stop
            exact = self.planner._endgame_turn(referee, state)
            self.nodes += min(self.planner._nodes, budget)
            if exact is not None:
                return exact
        me = state.current
        roots = self._children(referee, state, root=True)
        if len(roots) == 1:
            self.plies = 1
            return roots[0][1]
        # iteration 1: the planner's values (a greedy rollout of horizon - 1 turns per candidate)
        self._plies_now = 1
        values: list[int | None] = [None] * len(roots)
        try:
            for i, (s, _) in enumerate(roots):
                values[i] = self._rollout(referee, s, me, self.horizon - 1)
        except _OutOfBudget:
            pass
        done = [i for i, v in enumerate(values) if v is not None]
        if not done:
            return roots[0][1]  # no budget for any rollout: the first candidate (greedy claims)
        order = sorted(done, key=lambda i: (-values[i], i))  # type: ignore[operator]
        best = order[0]
        if len(done) < len(roots):
            return roots[best][1]
        self.plies = 1
        for plies in range(2, self.max_plies + 1):
            self._plies_now = plies
            alpha, it_best = -_INF, None
            try:
                for i in order:
                    v = self._value(referee, roots[i][0], me, plies - 1, alpha, _INF)
                    if it_best is None or v > alpha:
                        alpha, it_best = v, i
            except _OutOfBudget:
                # the previous best was searched first: a candidate that beat it in this iteration is better
                if it_best is not None:
                    best = it_best
                break
            assert it_best is not None
            best, self.plies = it_best, plies
            order = [best] + [i for i in order if i != best]
        return roots[best][1]

    def _children(self, referee: Referee, state: GameState, root: bool = False) -> list[tuple[GameState, list[Action]]]:
        """Every candidate turn of the player to move: (state after it, its actions)."""
        allow_skip = self.skip_cubes is None or state.cubes_left <= self.skip_cubes
        variants = self.planner if root else self.inner
        out = []
        for option in _options(referee, state, allow_skip):
            for variant in variants._variants(referee, state, option):
                if not root:
                    self._spend()
                else:
                    self.nodes += 1  # the root's candidates are always generated: a move needs them
                out.append(finish_turn(referee, state, option, variant))
        return out

    def _value(self, referee: Referee, state: GameState, me: int, plies: int, alpha: int, beta: int) -> int:
        """Alpha-beta value for ``me`` of ``state`` with ``plies`` more searched turns, then greedy rollouts."""
        if state.over:
            return _swing(state, me)
        if plies == 0:
            return self._rollout(referee, state, me, self.horizon - self._plies_now)
        kids = self._children(referee, state)
        maximise = state.current == me
        # move ordering: the mover's immediate score difference (cheap, and good for cuts)
        kids.sort(key=lambda k: -_swing(k[0], me) if maximise else _swing(k[0], me))
        if maximise:
            value = -_INF
            for s, _ in kids:
                value = max(value, self._value(referee, s, me, plies - 1, alpha, beta))
                alpha = max(alpha, value)
                if alpha >= beta:
                    break
            return value
        value = _INF
        for s, _ in kids:
            value = min(value, self._value(referee, s, me, plies - 1, alpha, beta))
            beta = min(beta, value)
            if alpha >= beta:
                break
        return value

    def _rollout(self, referee: Referee, state: GameState, me: int, turns: int) -> int:
        """Play ``turns`` greedy turns; my score minus the best other score."""
        s = state
        for _ in range(turns):
            if s.over:
                break
            self._spend()
            for a in self.greedy.turn(referee, s):
                s = referee.apply(s, a)
        return _swing(s, me)


POLICIES = {"random": RandomPolicy, "greedy": GreedyPolicy, "planner": PlannerPolicy, "search": SearchPolicy}


MAX_PLANNER_DEPTH = KUBAGRAM_MAX_PLANNER_DEPTH
"""Deepest ``planner:DEPTH`` (``kubasolve.games.limits``: the engine and the CLI take the same bound)."""
MAX_SEARCH_NODES = KUBAGRAM_MAX_SEARCH_NODES
"""Largest ``search:NODES`` (``kubasolve.games.limits``)."""


def _ai_number(name: str, arg: str, what: str, limit: int) -> int:
    """The ``N`` of ``name`` (``planner:N``, ``search:N``): digits 0-9 only, from 1 to ``limit``."""
    if not (arg.isascii() and arg.isdigit()):
        raise RulesError(f"{what} must be a number, got {arg!r}")
    if len(arg) > 12 or not 1 <= int(arg) <= limit:
        raise RulesError(f"{name[:40]!r}: {what} must be from 1 to {limit:,}")
    return int(arg)


def make_policy(name: str, seed: int = 0) -> Policy:
    """A policy by name: ``random``, ``greedy``, ``planner``, ``planner:DEPTH`` (1-:data:`MAX_PLANNER_DEPTH`),
    ``search`` or ``search:NODES`` (1-:data:`MAX_SEARCH_NODES`)."""
    base, colon, arg = name.partition(":")
    if base not in POLICIES:
        raise RulesError(f"unknown AI {name!r}; use one of {', '.join(POLICIES)} (planner:DEPTH for a deeper planner, search:NODES for a node budget)")
    if colon and base in ("random", "greedy"):
        raise RulesError(f"{name[:40]!r}: the {base} AI takes no option (planner:DEPTH sets the planner's depth, "
                         "search:NODES the search's node budget)")
    if base == "random":
        return RandomPolicy(seed)
    if base == "greedy":
        return GreedyPolicy()
    if base == "search":
        if not colon:
            return SearchPolicy()
        return SearchPolicy(max_nodes=_ai_number(name, arg, "search node budget", MAX_SEARCH_NODES))
    if colon:
        return PlannerPolicy(depth=_ai_number(name, arg, "planner depth", MAX_PLANNER_DEPTH))
    return PlannerPolicy()


def policy_names(names: Sequence[str]) -> list[str]:
    """Validate AI names (raises :class:`RulesError` for an unknown one)."""
    for n in names:
        make_policy(n)
    return list(names)
