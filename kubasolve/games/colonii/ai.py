"""Colonii AIs: random, greedy (the best turn now) and a planner that keeps cards for conquests and
defends its words.

A turn is a sequence of word moves plus the owner's supercolony declarations and decolonisations. The
greedy AI plays the exact best turn, which declares and decolonises whenever that scores (the
declaration pays the bonus, the decolonisation the colony's first word again, and neither costs a card
or a move). The planner scores a handful of candidate turns (the best turn by gain and by swing, the
best single move, the best turn that keeps the high cards unless it conquers, the best conquest, the
best colony start on an own word, each with the owner's actions that pay) by what it gains and takes
now, plus the conquest potential of the high cards it keeps, minus the exposure of its individual words
to conquest afterwards (a cheap word is easy to out-value; words in a colony or protected are safe).
With no move it exchanges its lowest cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from kubasolve.errors import RulesError
from kubasolve.games.colonii.game import ColoniiState, MoveSpec, Referee, TurnAction
from kubasolve.games.colonii.movegen import Turn, TurnBudget
from kubasolve.games.colonii.table import ColoniiPosition, Group, MoveKind, apply_move

__all__ = ["GreedyPolicy", "PlannerPolicy", "RandomPolicy", "make_policy", "policy_names"]


def _action(turn: Turn) -> TurnAction:
    return TurnAction("turn", tuple(MoveSpec.from_move(m) for m in turn.moves))


def _exchange(referee: Referee, state: ColoniiState, keep_high: bool = False) -> TurnAction:
    """Give back the cards least likely to make words (vowel-poor or rare), or pass if the deck is empty."""
    hand = state.hands[state.current]
    if not state.deck or not hand:
        return TurnAction("pass")
    values = referee.rules.letter_values
    ranked = sorted(hand, key=lambda c: (-values[c], c))  # rare (high-value) cards first
    if keep_high:
        ranked = [c for c in ranked if values[c] < 3] + [c for c in ranked if values[c] >= 3]
    k = min(len(state.deck), max(1, len(hand) // 2))
    return TurnAction("exchange", cards="".join(ranked[:k]))


@dataclass
class RandomPolicy:
    """A uniformly random legal single move (a baseline for the ladder)."""

    seed: int = 0
    name: str = "random"
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(self.seed)

    def turn(self, referee: Referee, state: ColoniiState, budget: TurnBudget | None = None) -> TurnAction:
        """A random move (instant: ``budget`` is not used)."""
        pos = state.position()
        table = referee.solver.move_table(pos)
        if not len(table):
            return _exchange(referee, state)
        row = self.rng.randrange(len(table))
        return _action(Turn(tuple(referee.solver.moves(table, pos, [row]))))


@dataclass
class GreedyPolicy:
    """The best combined turn for points now (exact, up to ``max_turn_moves`` moves)."""

    name: str = "greedy"

    def turn(self, referee: Referee, state: ColoniiState, budget: TurnBudget | None = None) -> TurnAction:
        """The best turn (within ``budget``: the best found by then)."""
        best = referee.solver.best_turn(state.position(), budget=budget)
        return _action(best) if best.moves else _exchange(referee, state)


@dataclass
class PlannerPolicy:
    """Keeps cards for conquests and defends its words (see the module docstring)."""

    name: str = "planner"
    keep_weight: float = 0.4
    """Points per value point of a kept high card (value >= ``high``): its conquest potential."""
    high: int = 3
    exposure: tuple[tuple[int, float], ...] = ((4, 0.6), (6, 0.4), (9, 0.2))
    """(word value up to, share of its stake at risk) for an individual word: cheap words are conquered easily."""

    def risk(self, group: Group, value: int) -> float:
        if group.is_colony or group.protected:
            return 0.0
        for limit, share in self.exposure:
            if value <= limit:
                return share
        return 0.05

    def _evaluate(self, referee: Referee, state: ColoniiState, turn: Turn) -> float:
        me = state.current
        rules = referee.rules
        table = state.table
        for m in turn.moves:
            table = apply_move(table, m, rules)
        left = list(state.hands[me])
        for c in turn.cards:
            left.remove(c)
        kept = sum(rules.letter_values[c] for c in left if rules.letter_values[c] >= self.high)
        at_risk = sum(g.stake * self.risk(g, rules.value(g.words[0])) for g in table if g.owner == me)
        return turn.gain + turn.taken + self.keep_weight * kept - at_risk

    def candidates(self, referee: Referee, state: ColoniiState, budget: TurnBudget | None = None) -> list[Turn]:
        """The turns the planner compares; ``budget`` bounds their best-turn searches in all. Every candidate
        makes the owner's declarations and decolonisations that score (the best-turn searches do; the single
        moves below get them first: they change only the mover's own colonies, which those moves do not use)."""
        solver = referee.solver
        pos = state.position()
        out = [solver.best_turn(pos, "gain", budget=budget), solver.best_turn(pos, "swing", budget=budget),
               solver.best_turn(pos, max_moves=1, budget=budget)]
        values = referee.rules.letter_values
        low = "".join(c for c in pos.hand if values[c] < self.high)
        if low != pos.hand:
            out.append(solver.best_turn(ColoniiPosition(pos.table, low, pos.mover, pos.n_players), budget=budget))
        owner = tuple(solver.owner_turn(pos))
        word_moves = [m for m in solver.all_moves(pos, "swing", top=60) if m.kind.builds]
        # the best conquest on its own, if any
        conquests = [m for m in word_moves if m.kind in (MoveKind.CONQUEST_A, MoveKind.CONQUEST_B)]
        if conquests:
            out.append(Turn(owner + (conquests[0],)))
        # the best colony start on an own word (makes it safe from conquest)
        starts = [m for m in word_moves if m.kind is MoveKind.COLONY_START]
        if starts:
            out.append(Turn(owner + (starts[0],)))
        return [t for t in out if t.moves]

    def turn(self, referee: Referee, state: ColoniiState, budget: TurnBudget | None = None) -> TurnAction:
        """The candidate turn the planner values most (``budget``: see :meth:`candidates`)."""
        options = self.candidates(referee, state, budget)
        if not options:
            return _exchange(referee, state, keep_high=True)
        scored = [(self._evaluate(referee, state, t), -k, t) for k, t in enumerate(options)]
        best = max(scored, key=lambda x: (x[0], x[1]))[2]
        return _action(best)


POLICIES = {"random": RandomPolicy, "greedy": GreedyPolicy, "planner": PlannerPolicy}


def policy_names(names: Sequence[str]) -> list[str]:
    """Validated AI names (clear error for an unknown one)."""
    out = []
    for n in names:
        n = n.strip().lower()
        if n not in POLICIES:
            raise RulesError(f"unknown colonii AI {n!r}; AIs: {', '.join(POLICIES)}")
        out.append(n)
    return out


def make_policy(name: str, seed: int = 0) -> RandomPolicy | GreedyPolicy | PlannerPolicy:
    """An AI by name (``random`` takes the seed)."""
    (name,) = policy_names([name])
    if name == "random":
        return RandomPolicy(seed)
    return GreedyPolicy() if name == "greedy" else PlannerPolicy()
