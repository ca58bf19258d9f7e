"""The crossword AIs on learnt leaves: ``equity2`` (static) and ``sim2`` (Monte-Carlo look-ahead), with a
pre-endgame for the last tiles of the bag.

- **equity2**: score + the learnt leave value (:mod:`kubasolve.games.crossword.leaves`) of every placement
  and every exchange (the same table values both), ranked from the move generator's arrays; the bag
  holding 1-6 tiles: the pre-endgame below; the bag empty: the exact endgame solver.
- **pre-endgame** (two players, bag 1 to ``rack_size - 1`` tiles): the best equity candidates, the
  best-scoring move, the best move that empties the bag, the best that does not, and a pass, each
  played out over the opponent's possible racks (every distinct split of the unseen tiles into the
  opponent's rack and the bag when there are few, weighted by how many ways they are drawn; else a
  seeded sample): after the candidate both sides play their best equity move until the bag is empty,
  then the exact endgame solver (within a small node budget) values the rest. So a play that empties
  the bag hands the opponent the first endgame move with their rack known to both, a play that keeps
  one tile in the bag lets the opponent empty it or not, and the candidate is chosen by the mean final
  spread of these playouts.
- **sim2** (bag at least ``rack_size``): the ``candidates`` best equity options (exchanges included),
  each followed, on the same sampled opponent racks and bag orders, by the opponent's best equity reply
  (an exchange when that is their best option) and, with ``plies = 3``, our own best next equity play
  on the leave refilled from the bag; the value of an iteration is our points - theirs + our final
  leave value - theirs. After ``min_iterations`` a candidate whose mean difference to the leader (the
  same racks for both, so the difference is paired) is more than ``prune_z`` standard errors below 0 is
  dropped; the run stops at ``iterations``, when one candidate is left, or at ``time_limit`` seconds.
  With ``objective = "win"`` (the default) an iteration is worth the chance that the mover wins from the
  spread it ends on: ``Phi((spread now + value) / sigma(T))``, where ``T`` is the number of tiles still
  unplayed after the simulated plies and ``sigma(T) = 10.8 sqrt(T)`` points (at least 30) is the spread's
  spread-to-the-end measured over 400 ladder games (docs/crossword.md), plus ``1e-4`` x the value as a
  tie-break: the candidate with the best mean win chance is played, so far ahead it plays safe and far
  behind it takes risks. ``objective = "spread"``: the mean value alone (the first sim2).
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any

import numpy as np

from kubasolve.errors import RulesError
from kubasolve.games.crossword.ai import (
    AI_ENDGAME_JUMP,
    DEFAULT_ENDGAME_NODES,
    Candidate,
    EndgameBudgeted,
    fast_candidates,
    load_leaves,
    rack_options,
)
from kubasolve.games.crossword.game import CrosswordAction, CrosswordState, Referee, sort_rack, take_from_rack
from kubasolve.games.crossword.leaves import LeaveValues, load_learnt_leaves

__all__ = ["Equity2Policy", "Sim2Policy", "default_leaves", "preendgame_choice", "win_chance"]

WIN_SIGMA_PER_ROOT_TILE = 10.8
"""The standard deviation of the spread's change from a position to the game's end, per sqrt of the tiles still
unplayed (bag and racks): 10.6-11.4 for 14-100 tiles over 400 sim2-vs-equity2 games (docs/crossword.md)."""
WIN_SIGMA_MIN = 30.0
"""The floor of that standard deviation (the last tiles: 34-35 points measured for 0-10 tiles)."""
WIN_SPREAD_TIE = 1e-4
"""The win objective's weight of a point of spread: a tie-break (10 points count as 0.1% of win chance)."""
OBJECTIVES = ("win", "spread")

PREENDGAME_NODES = 2000
"""Node budget of each endgame solve inside a pre-endgame playout."""


LEAVE_TABLES = ("learnt", "linear")
"""What ``equity2``/``sim2`` value leaves with (``leave_table``; ``equity2:linear``): the learnt table of the tile set
(the linear one when none ships), or the linear table of ``equity`` (to measure what the learnt table adds)."""


def default_leaves(referee: Referee, table: str = "learnt") -> LeaveValues:
    """The learnt table of the referee's tile set, or the linear table when none ships for it (or ``table`` is
    ``linear``); loaded once per process."""
    if table not in LEAVE_TABLES:
        raise RulesError(f"leave table {table!r}: one of {', '.join(LEAVE_TABLES)}")
    if table == "learnt":
        try:
            return load_learnt_leaves(referee.tiles.name)
        except RulesError:
            pass
    return _linear_leaves(referee.tiles.name)


@cache
def _linear_leaves(tiles_name: str) -> LeaveValues:
    return load_leaves(tiles_name)


def win_chance(margin: float, tiles_left: int) -> float:
    """The chance that a player ``margin`` points ahead wins with ``tiles_left`` tiles still unplayed (a normal
    model of the spread's change to the end; a tie counts half)."""
    sigma = max(WIN_SIGMA_PER_ROOT_TILE * math.sqrt(max(tiles_left, 0)), WIN_SIGMA_MIN)
    return 0.5 * (1.0 + math.erf(margin / (sigma * math.sqrt(2.0))))


def best_option(referee: Referee, board: Any, rack: str, leaves: LeaveValues, bag_size: int) -> tuple[float, int, Any, str]:
    """(equity, score, action or None for a pass, leave) of the best equity option of ``rack`` on ``board``:
    a placement, or an exchange when the bag holds at least ``exchange_min_bag`` tiles and it is better."""
    from kubasolve.games.crossword.movegen import decode_move

    if not rack:
        return 0.0, 0, None, ""
    o = rack_options(referee, board, rack, leaves)
    i = o.best_placement()
    best = float(o.equity[i]) if i >= 0 else -math.inf
    if bag_size >= referee.rules.exchange_min_bag and len(o.sub.values) > 1:
        k = int(np.argmax(o.sub.values[1:])) + 1
        if float(o.sub.values[k]) > best:
            kept = o.sub.leaves[k]
            return float(o.sub.values[k]), 0, CrosswordAction("exchange", letters=take_from_rack(rack, kept)), kept
    if i < 0:
        return float(leaves.value(rack)), 0, None, rack
    move = decode_move(board, o.meta[i], o.tiles[i], referee.lexicon, referee.layout, referee.tiles)
    return best, move.score, CrosswordAction.place(move), o.sub.leaves[int(o.played[i])]


# ------------------------------------------------------------------------------------------------ pre-endgame
def opponent_deals(unseen: str, rack_size: int, limit: int, rng: random.Random) -> list[tuple[str, str, float]]:
    """(opponent rack, bag, weight) splits of the ``unseen`` tiles: every distinct bag (with its number of
    draws as weight) when there are at most ``limit``, else ``limit`` seeded random deals of weight 1.
    The bag's order is shuffled by ``rng``."""
    size = min(rack_size, len(unseen))
    counts = Counter(unseen)
    kinds = sorted(counts)
    bags: list[tuple[str, float]] = []

    def enumerate_bags(i: int, left: int, parts: str, ways: float) -> bool:
        """Every bag of ``left`` more tiles from kinds ``i``..; False once there are more than ``limit``."""
        if i == len(kinds):
            if left == 0:
                bags.append((parts, ways))
            return len(bags) <= limit
        for k in range(min(left, counts[kinds[i]]) + 1):
            if not enumerate_bags(i + 1, left - k, parts + kinds[i] * k, ways * math.comb(counts[kinds[i]], k)):
                return False
        return True

    out = []
    if enumerate_bags(0, len(unseen) - size, "", 1.0):
        for bag_tiles, ways in bags:
            bag = list(bag_tiles)
            rng.shuffle(bag)
            out.append((take_from_rack(sort_rack(unseen), bag_tiles), "".join(bag), ways))
        return out
    pool = list(unseen)
    for _ in range(limit):
        rng.shuffle(pool)
        out.append((sort_rack("".join(pool[:size])), "".join(pool[size:]), 1.0))
    return out


PLAYOUT_PLIES = 8
"""The most plies a pre-endgame playout plays before the bag is empty (then it ends where it stands)."""


def _playout(referee: Referee, state: CrosswordState, me: int, leaves: LeaveValues, nodes: int,
             max_plies: int = PLAYOUT_PLIES) -> tuple[float, int]:
    """Both sides play their best equity option until the bag is empty, then the exact endgame solver
    (``nodes``) finishes; (the final spread change for player ``me`` (from ``state``'s scores), the nodes spent: a
    node per ply played, plus the solver's)."""
    from kubasolve.games.crossword.endgame import solve_endgame

    plies = 0
    while not state.over and state.bag and plies < max_plies:
        _, _, action, _ = best_option(referee, state.board, state.rack(), leaves, len(state.bag))
        state = referee.apply(state, action if action is not None else CrosswordAction("pass"))
        plies += 1
    spread = state.scores[me] - state.scores[1 - me]
    if state.over or state.bag:
        return float(spread), plies
    res = solve_endgame(referee, state, node_limit=nodes, jump=AI_ENDGAME_JUMP)
    return float(spread + (res.value if state.current == me else -res.value)), plies + int(res.nodes)


def preendgame_candidates(referee: Referee, state: CrosswordState, leaves: LeaveValues, top: int) -> list[CrosswordAction]:
    """The pre-endgame's candidates: the ``top`` best equity placements, the best-scoring one, the best that
    empties the bag and the best that does not (by equity), and a pass; without repeats."""
    from kubasolve.games.crossword.movegen import decode_move

    o = rack_options(referee, state.board, state.rack(), leaves)
    picks: list[int] = []
    if len(o.equity):
        order = np.lexsort((-o.meta[:, 3], -o.equity))
        picks += order[:top].tolist()
        picks.append(int(np.argmax(o.meta[:, 3])))
        n_played = (o.tiles >= 0).sum(axis=1)
        for mask in (n_played >= len(state.bag), n_played < len(state.bag)):
            rows = np.flatnonzero(mask)
            if len(rows):
                picks.append(int(rows[np.argmax(o.equity[rows])]))
    seen: set[tuple[Any, ...]] = set()
    out = []
    for i in picks:
        action = CrosswordAction.place(decode_move(state.board, o.meta[i], o.tiles[i], referee.lexicon, referee.layout, referee.tiles))
        if action.tiles not in seen:
            seen.add(action.tiles)
            out.append(action)
    out.append(CrosswordAction("pass"))
    return out


def preendgame_choice(referee: Referee, state: CrosswordState, leaves: LeaveValues, *, seed: int = 0, candidates: int = 5,
                      deals: int = 12, nodes: int = PREENDGAME_NODES, time_limit: float | None = None,
                      policy: EndgameBudgeted | None = None) -> tuple[CrosswordAction, list[tuple[CrosswordAction, float]]]:
    """The pre-endgame move (module docstring) and the mean final spread of each candidate (none when no deal was
    played out: then the first candidate, the best by equity). ``policy``'s budget (its node budget pays for a deal
    only when it can pay each candidate's playout in full: :data:`PLAYOUT_PLIES` plies and ``nodes`` solver nodes;
    its time budget and ``time_limit`` are read before each deal, which must fit at the mean time of those played),
    stop and best-so-far hooks are honoured between deals."""
    me = state.current
    rng = random.Random(f"crossword-peg:{seed}:{state.seed}:{state.turn}")
    splits = opponent_deals(state.unseen(), referee.rules.rack_size, deals, rng)
    cands = preendgame_candidates(referee, state, leaves, candidates)
    totals = [0.0] * len(cands)
    weight = 0.0
    t0 = time.perf_counter()
    played = 0
    for opp, bag, w in splits:
        if policy is not None:  # a deal must fit the time and be paid in full (its nodes spent below)
            if not policy._may_start(t0, played, 0.0, 0, len(cands) * (PLAYOUT_PLIES + nodes), seconds=time_limit):
                break
        elif time_limit is not None:
            elapsed = time.perf_counter() - t0
            if elapsed + (elapsed / played if played else 0.0) > time_limit:
                break
        racks = list(state.racks)
        racks[1 - me] = opp
        hypo = replace(state, racks=tuple(racks), bag=bag)
        for i, action in enumerate(cands):
            value, spent = _playout(referee, referee.apply(hypo, action), me, leaves, nodes)
            totals[i] += w * value
            if policy is not None:
                policy.nodes += spent
        weight += w
        played += 1
        if policy is not None:
            lead = max(range(len(cands)), key=lambda i: (totals[i], -i))
            policy._tell_best(cands[lead], totals[lead] / weight - (state.scores[me] - state.scores[1 - me]))
    base = state.scores[me] - state.scores[1 - me]
    if not played:
        return cands[0], []
    means = [t / weight - base for t in totals]
    best = max(range(len(cands)), key=lambda i: (means[i], -i))
    return cands[best], list(zip(cands, means, strict=True))


def in_preendgame(referee: Referee, state: CrosswordState) -> bool:
    """Two players and 1 to ``rack_size - 1`` tiles in the bag."""
    return state.n_players == 2 and 0 < len(state.bag) < referee.rules.rack_size


# ------------------------------------------------------------------------------------------------ policies
@dataclass
class Equity2Policy(EndgameBudgeted):
    """Score + learnt leave value (placements and exchanges); pre-endgame playouts with 1-6 tiles in the bag;
    the exact endgame solver with the bag empty. ``movetime_ms`` bounds the endgame solver and the pre-endgame."""

    name: str = "equity2"
    seed: int = 0
    leaves: LeaveValues | None = None
    leave_table: str = "learnt"
    """Without ``leaves``: ``learnt`` (default) or ``linear`` (:data:`LEAVE_TABLES`)."""
    endgame: bool = True
    endgame_mode: str = "exact"
    endgame_nodes: int | None = DEFAULT_ENDGAME_NODES
    endgame_time: float | None = None
    preendgame: bool = True
    preendgame_deals: int = 12
    preendgame_nodes: int = PREENDGAME_NODES

    def turn(self, referee: Referee, state: CrosswordState) -> CrosswordAction:
        settled, _, _ = self._open_turn(referee, state, self.endgame_mode, self.endgame_nodes, self.endgame_time, self.endgame)
        if settled is not None:
            return settled
        leaves = self.leaves or default_leaves(referee, self.leave_table)
        if self.preendgame and in_preendgame(referee, state):
            return preendgame_choice(referee, state, leaves, seed=self.seed, deals=self.preendgame_deals, nodes=self.preendgame_nodes,
                                     policy=self)[0]
        cands = fast_candidates(referee, state, leaves, top=1)
        return cands[0].action if cands else CrosswordAction("pass")


@dataclass
class Sim2Policy(EndgameBudgeted):
    """Monte-Carlo look-ahead on learnt leaves with pruning and a time budget (module docstring). ``movetime_ms``
    bounds the simulation, the pre-endgame and the endgame solver."""

    name: str = "sim2"
    seed: int = 0
    candidates: int = 10
    iterations: int = 400
    min_iterations: int = 24
    prune_z: float = 2.5
    plies: int = 2
    objective: str = "win"
    """``win``: the best mean win chance after the simulated plies (module docstring); ``spread``: the best mean value."""
    time_limit: float | None = None
    leaves: LeaveValues | None = None
    leave_table: str = "learnt"
    """Without ``leaves``: ``learnt`` (default) or ``linear`` (:data:`LEAVE_TABLES`)."""
    endgame_mode: str = "exact"
    endgame_nodes: int | None = DEFAULT_ENDGAME_NODES
    preendgame_deals: int = 12
    preendgame_nodes: int = PREENDGAME_NODES
    last_stats: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    """The last simulated turn: iterations done and candidates left."""

    def turn(self, referee: Referee, state: CrosswordState) -> CrosswordAction:
        settled, _, _ = self._open_turn(referee, state, self.endgame_mode, self.endgame_nodes, self.time_limit)
        if settled is not None:
            return settled
        leaves = self.leaves or default_leaves(referee, self.leave_table)
        if in_preendgame(referee, state):
            return preendgame_choice(referee, state, leaves, seed=self.seed, deals=self.preendgame_deals, nodes=self.preendgame_nodes,
                                     policy=self)[0]
        started = time.perf_counter()
        cands = fast_candidates(referee, state, leaves, top=self.candidates)
        self.node_s = time.perf_counter() - started
        if len(cands) <= 1 or state.n_players != 2:
            return cands[0].action if cands else CrosswordAction("pass")
        values = self.simulate(referee, state, cands, leaves, self._seconds_left())
        return cands[int(np.argmax(values))].action

    def simulate(self, referee: Referee, state: CrosswordState, cands: list[Candidate], leaves: LeaveValues,
                 seconds: float | None = None) -> list[float]:
        """Mean objective of each candidate (pruned ones: their mean when dropped, minus a large constant; with no
        iteration done, the candidates' order); at most ``seconds`` and the policy's budget (read before each iteration,
        which must fit at the mean time of those done; the node budget must pay the iteration in full, a node per
        active candidate's reply and next play). ``last_stats["spread"]``: each one's mean value in points."""
        if self.objective not in OBJECTIVES:
            raise RulesError(f"sim2 objective {self.objective!r}: one of {', '.join(OBJECTIVES)}")
        rng = random.Random(f"crossword-sim2:{self.seed}:{state.seed}:{state.turn}")
        unseen = list(state.unseen())
        size = min(referee.rules.rack_size, len(unseen))
        rack_size = referee.rules.rack_size
        me = state.current
        lead_now = state.scores[me] - max(s for k, s in enumerate(state.scores) if k != me)
        in_play = len(unseen) + len(state.rack())  # tiles not on the board yet
        win = self.objective == "win"
        spreads: list[list[float]] = [[] for _ in cands]
        boards = [state.board.with_tiles(c.action.tiles) if c.action.type == "place" else state.board for c in cands]
        leave_values = [leaves.value(c.leave) for c in cands]
        samples: list[list[float]] = [[] for _ in cands]
        active = list(range(len(cands)))
        t0 = time.perf_counter()
        done = 0
        per_candidate = 2 if self.plies >= 3 else 1
        for it in range(self.iterations):
            if not self._may_start(t0, done, len(active) * per_candidate * self.node_s, len(active) * per_candidate,
                                   seconds=seconds):
                break
            rng.shuffle(unseen)
            opp = sort_rack("".join(unseen[:size]))
            bag = unseen[size:]
            for i in active:
                c = cands[i]
                n_draw = rack_size - len(c.leave)
                drawn, rest = bag[:n_draw], bag[n_draw:]
                if c.action.type == "exchange":
                    rest = rest + list(c.action.letters)
                opp_eq, opp_score, opp_action, opp_leave = best_option(referee, boards[i], opp, leaves, len(rest))
                value = c.score - opp_score - (opp_eq - opp_score)
                opp_placed = opp_action is not None and opp_action.type == "place"
                left = in_play - len(c.action.tiles) - (len(opp) - len(opp_leave) if opp_placed else 0)
                if self.plies >= 3:
                    board2 = boards[i].with_tiles(opp_action.tiles) if opp_placed else boards[i]
                    mine = sort_rack(c.leave + "".join(drawn))
                    n_opp = rack_size - len(opp_leave)
                    my_eq, _, my_action, my_leave = best_option(referee, board2, mine, leaves, max(0, len(rest) - n_opp))
                    value += my_eq
                    if my_action is not None and my_action.type == "place":
                        left -= len(mine) - len(my_leave)
                else:
                    value += leave_values[i]
                spreads[i].append(value)
                samples[i].append(win_chance(lead_now + value, left) + WIN_SPREAD_TIE * value if win else value)
            done = it + 1
            if done >= self.min_iterations and len(active) > 1:
                active = self._prune(active, samples, done)
            lead = max(active, key=lambda i: (sum(samples[i]), -i))
            self._tell_best(cands[lead].action, sum(spreads[lead]) / done)
            if len(active) == 1:
                break
        self.last_stats = {"iterations": done, "left": len(active), "candidates": len(cands),
                           "spread": [float(np.mean(v)) if v else None for v in spreads]}
        if not done:
            return [-float(i) for i in range(len(cands))]
        means = [float(np.mean(s)) if s else -math.inf for s in samples]
        return [m if i in active else m - 1e6 for i, m in enumerate(means)]

    def _prune(self, active: list[int], samples: list[list[float]], n: int) -> list[int]:
        """Drop the candidates whose paired mean difference to the leader is ``prune_z`` standard errors below 0."""
        leader = max(active, key=lambda i: (sum(samples[i][:n]), -i))
        lead = np.array(samples[leader][:n])
        keep = []
        for i in active:
            if i == leader:
                keep.append(i)
                continue
            d = np.array(samples[i][:n]) - lead
            se = float(d.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
            if float(d.mean()) + self.prune_z * se >= 0:
                keep.append(i)
        return keep
