"""Crossword AIs, from weak to strong (measured ladder in ``docs/crossword.md``):

- ``score``: the highest-scoring placement (the move generator's best-move search); passes if none.
- ``equity``: score + the value of the tiles kept (the *leave*, from a table estimated by self-play,
  ``data/leaves_nl.json`` made by ``data/make_leaves.py``); may exchange when that keeps a better
  leave; with an empty bag it plays the exact endgame solver (:mod:`kubasolve.games.crossword.endgame`)
  within its node/time budget (``equity:bounded``: the old bounded search below; ``equity:NODES``: a
  node budget).
- ``sim``: Monte-Carlo look-ahead: the best equity candidates, each followed by the opponent's best
  reply on racks drawn from the unseen tiles (the same racks for every candidate) and then (2 plies,
  the default) our own best next play on the leave refilled from the rest; chooses the best mean of
  own score - reply score + next play (1 ply: + leave value instead), within an iteration and time budget.
- Endgame (bag empty, every rack known): the exact solver (iterative deepening alpha-beta on spread,
  proven when it reaches the end of every line) within a budget; ``endgame_search`` is the older
  bounded negamax over the best ``width`` placements to ``depth`` plies, kept for comparison.
"""

from __future__ import annotations

import json
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from kubasolve.errors import RulesError
from kubasolve.games.crossword.ai_names import AI_NAMES, parse_ai_name
from kubasolve.games.crossword.game import CrosswordAction, CrosswordState, Referee, rack_value, sort_rack, take_from_rack
from kubasolve.games.crossword.layout import BLANK
from kubasolve.games.crossword.leaves import LeaveValues, RackLeaves, rack_leave_values

__all__ = ["AI_NAMES", "ENDGAME_MODES", "EquityPolicy", "LeaveTable", "ScorePolicy", "SimPolicy", "endgame_move", "endgame_search", "make_policy", "policy_names"]

ENDGAME_MODES = ("exact", "bounded")
DEFAULT_ENDGAME_NODES = 200_000
"""Node budget of the exact endgame solver per turn (deterministic, unlike a time budget): 0.1-0.5 s here; it
proves about half the fresh bag-empty endgames, and nearly all a turn or two later (docs/crossword.md)."""
AI_ENDGAME_JUMP = 6
"""The endgame solver's shallow iterations in the AIs' turns (``jump``; the solver's own default is ``DEFAULT_JUMP``, 5
since 6 December 2026): 6 as before, so the AIs' endgame turns stay what the ladders measured. Within their node
budget 5 proves one position more of the 40 (28 against 27) at 15-20 % more CPU (more of the budget goes to the
dearer iteration to the end of the game: docs/crossword.md)."""
LEAVES_DIR = Path(__file__).resolve().parent / "data"
VOWELS = frozenset("AEIOU")


@dataclass(frozen=True)
class LeaveTable:
    """Leave value = sum of per-tile values + ``duplicate`` per repeated tile + ``balance`` * (vowels -
    consonants)^2 (blanks count as neither). Fitted by least squares on self-play (make_leaves.py)."""

    tiles: dict[str, float] = field(hash=False)
    duplicate: float = 0.0
    balance: float = 0.0
    info: dict[str, Any] = field(default_factory=dict, hash=False, compare=False)

    def value(self, leave: str) -> float:
        if not leave:
            return 0.0
        counts = Counter(leave)
        v = sum(self.tiles.get(ch, 0.0) * n for ch, n in counts.items())
        v += self.duplicate * sum(n - 1 for n in counts.values() if n > 1)
        vow = sum(n for ch, n in counts.items() if ch in VOWELS)
        con = sum(n for ch, n in counts.items() if ch != BLANK and ch not in VOWELS)
        return v + self.balance * (vow - con) ** 2

    def to_dict(self) -> dict[str, Any]:
        return {"tiles": self.tiles, "duplicate": self.duplicate, "balance": self.balance, "info": self.info}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LeaveTable:
        return cls({str(k): float(v) for k, v in data["tiles"].items()}, float(data.get("duplicate", 0.0)),
                   float(data.get("balance", 0.0)), dict(data.get("info", {})))


@cache
def load_leaves(tiles_name: str = "nl") -> LeaveTable:
    """The shipped leave table of a tile set (``leaves_<name>.json``; the Dutch one for other sets)."""
    path = LEAVES_DIR / f"leaves_{tiles_name}.json"
    if not path.is_file():
        path = LEAVES_DIR / "leaves_nl.json"
    if not path.is_file():
        return LeaveTable({})
    return LeaveTable.from_dict(json.loads(path.read_text(encoding="utf-8")))


def _moves(referee: Referee, state: CrosswordState, rack: str | None = None, board: Any = None, top: int | None = None) -> Any:
    from kubasolve.games.crossword.movegen import generate_moves

    return generate_moves(state.board if board is None else board, state.rack() if rack is None else rack, referee.lexicon,
                          referee.layout, referee.tiles, top=top, bingo_bonus=referee.rules.bingo_bonus)


def _best(referee: Referee, board: Any, rack: str) -> Any:
    from kubasolve.games.crossword.movegen import best_move

    if not rack:
        return None
    return best_move(board, rack, referee.lexicon, referee.layout, referee.tiles, bingo_bonus=referee.rules.bingo_bonus)


def forced_reply(referee: Referee, state: CrosswordState) -> CrosswordAction | None:
    """Challenge mode: challenge the previous play if it formed a word outside the lexicon; accept
    (pass) a going-out play that is valid. None when the AI is free to choose."""
    last = state.last_play
    if last is None:
        return None
    if any(w.lower() not in referee.lexicon for w in last.words):
        return CrosswordAction("challenge")
    return CrosswordAction("pass") if last.went_out else None


def _leave_of(rack: str, tiles: Any) -> str:
    return take_from_rack(rack, "".join(ch for _, _, ch in tiles))


@dataclass
class ScorePolicy:
    """The highest-scoring placement; pass when there is none."""

    name: str = "score"

    def turn(self, referee: Referee, state: CrosswordState) -> CrosswordAction:
        forced = forced_reply(referee, state)
        if forced is not None:
            return forced
        move = _best(referee, state.board, state.rack())
        return CrosswordAction.place(move) if move is not None else CrosswordAction("pass")


@dataclass
class Candidate:
    action: CrosswordAction
    score: int
    leave: str
    equity: float


def equity_candidates(referee: Referee, state: CrosswordState, leaves: LeaveTable, top: int | None = None) -> list[Candidate]:
    """Placements and (if allowed) exchanges ranked by score + leave value, best first (ties: placements before
    exchanges, placements in the move generator's order, exchanges in :func:`~kubasolve.games.crossword.movegen.exchanges`'
    order). With ``top`` only the placements that can rank among the first ``top`` are decoded (the others are valued
    on the move generator's arrays, :func:`rack_options`): decoding all of them took 0.25-0.65 s for an opening rack
    (9,546 placements, load 3), beyond a 100 ms ``movetime_ms`` of the equity and sim AIs; the answer is the same."""
    from kubasolve.games.crossword.movegen import decode_move, sort_key

    rack = state.rack()
    out = []
    if top:
        opts = rack_options(referee, state.board, rack, leaves)
        if len(opts.equity):
            kth = np.partition(-opts.equity, min(top, len(opts.equity)) - 1)[min(top, len(opts.equity)) - 1]
            rows = np.flatnonzero(-opts.equity <= kth).tolist()  # the first top, and every placement tied with the last
            decoded = [(decode_move(state.board, opts.meta[i], opts.tiles[i], referee.lexicon, referee.layout, referee.tiles), i)
                       for i in rows]
            decoded.sort(key=lambda mi: sort_key(mi[0]))
            out = [Candidate(CrosswordAction.place(m), m.score, opts.sub.leaves[int(opts.played[i])], float(opts.equity[i]))
                   for m, i in decoded]
    else:
        cache_: dict[str, float] = {}
        for m in _moves(referee, state).moves:
            leave = _leave_of(rack, m.tiles)
            v = cache_.get(leave)
            if v is None:
                v = cache_[leave] = leaves.value(leave)
            out.append(Candidate(CrosswordAction.place(m), m.score, leave, m.score + v))
    if len(state.bag) >= referee.rules.exchange_min_bag and not (state.last_play is not None and state.last_play.went_out):
        from kubasolve.games.crossword.movegen import exchanges

        for give in exchanges(rack, referee.tiles):
            leave = take_from_rack(rack, give)
            out.append(Candidate(CrosswordAction("exchange", letters=give), 0, leave, leaves.value(leave)))
    out.sort(key=lambda c: -c.equity)
    return out[:top] if top else out


@dataclass(frozen=True)
class RackOptions:
    """Every placement of one rack on one board valued by score + leave, from the move generator's arrays
    (no Python object per move): ``equity[i]`` of move row ``i`` of ``meta``/``tiles``, and the leave
    value of every set of tiles an exchange could give back (``sub.values[key]``, key 0 = give nothing)."""

    meta: np.ndarray
    tiles: np.ndarray
    played: np.ndarray
    """Key (:class:`RackLeaves` mixed radix) of the tiles each move plays."""
    equity: np.ndarray
    sub: RackLeaves

    def best_placement(self) -> int:
        """Row of the placement with the highest equity (ties: the higher score, then the first), -1 if none."""
        if not len(self.equity):
            return -1
        best = self.equity.max()
        rows = np.flatnonzero(self.equity >= best - 1e-9)
        return int(rows[np.argmax(self.meta[rows, 3])])


def rack_options(referee: Referee, board: Any, rack: str, leaves: LeaveValues) -> RackOptions:
    """:class:`RackOptions` of ``rack`` on ``board`` (one full move generation, vectorised valuation)."""
    from kubasolve.games.crossword.movegen import move_arrays

    sub = rack_leave_values(leaves, rack)
    meta, arr = move_arrays(board, rack, referee.lexicon, referee.layout, referee.tiles, bingo_bonus=referee.rules.bingo_bonus)
    weights = np.zeros(128, np.int64)
    alpha = referee.lexicon.alphabet
    for kind, w in zip(sub.kinds, sub.weights.tolist(), strict=True):
        if kind == BLANK:
            weights[64:127] = w
        else:
            weights[alpha.code(kind.lower())] = w
    played = weights[np.where(arr < 0, 127, arr)].sum(axis=1) if len(meta) else np.zeros(0, np.int64)
    equity = meta[:, 3] + sub.values[played] if len(meta) else np.zeros(0)
    return RackOptions(meta, arr, played, equity, sub)


def fast_candidates(referee: Referee, state: CrosswordState, leaves: LeaveValues, top: int | None = 1,
                    opts: RackOptions | None = None) -> list[Candidate]:
    """The ``top`` best placements and exchanges (when the bag allows) by score + leave value, best first
    (the same ranking as :func:`equity_candidates`, without a Python object per move)."""
    from kubasolve.games.crossword.movegen import decode_move

    rack = state.rack()
    o = opts if opts is not None else rack_options(referee, state.board, rack, leaves)
    n = len(o.equity)
    values = [o.equity]
    can_exchange = len(state.bag) >= referee.rules.exchange_min_bag and not (state.last_play is not None and state.last_play.went_out)
    if can_exchange:
        values.append(o.sub.values[1:])  # keys 1..: give those tiles back, keep the rest
    equity = np.concatenate(values)
    scores = np.concatenate([o.meta[:, 3], np.zeros(len(equity) - n, o.meta.dtype)])
    order = np.lexsort((-scores, -equity))
    chosen = order[:top] if top else order
    out = []
    for i in chosen.tolist():
        if i < n:
            m = decode_move(state.board, o.meta[i], o.tiles[i], referee.lexicon, referee.layout, referee.tiles)
            out.append(Candidate(CrosswordAction.place(m), m.score, o.sub.leaves[int(o.played[i])], float(equity[i])))
        else:
            key = i - n + 1
            give = take_from_rack(rack, o.sub.leaves[key])
            out.append(Candidate(CrosswordAction("exchange", letters=give), 0, o.sub.leaves[key], float(equity[i])))
    return out


@dataclass
class EndgameBudgeted:
    """What every crossword AI shares: the library's budget names for a turn and the exact endgame solver's last
    result, and the start of a turn (a forced reply, or with the bag empty the solver's move)."""

    max_nodes: int | None = None
    """The turn's node budget (the library's budget name; docs/crossword.md "Budgets"): with the bag empty the exact
    endgame solver's nodes (overrides ``endgame_nodes``); before, a node is a position the AI values with a full move
    generation (the turn's own rack: 1; each simulated reply, next play and pre-endgame playout ply: 1 more; the endgame
    solves that end a pre-endgame playout: their solver nodes). A simulation or pre-endgame stops before an iteration
    or deal it cannot pay in full (:attr:`cut`)."""
    movetime_ms: float | None = None
    """Time budget per turn in ms (overrides the policy's seconds field; the policy's docstring says what it bounds)."""
    last_endgame: Any = field(default=None, init=False, repr=False, compare=False)
    """The exact endgame solver's result when it chose the last move (its ``proven``), else None."""
    nodes: int = field(default=0, init=False, repr=False, compare=False)
    """Nodes the last turn spent (see :attr:`max_nodes`)."""
    cut: bool = field(default=False, init=False, repr=False, compare=False)
    """True when a budget (nodes, time or a stop) ended the last turn's search before its own end."""
    node_s: float = field(default=0.0, init=False, repr=False, compare=False)
    """Seconds the turn's own move generation took: the time budget's guess of a node's cost before the first
    iteration of a simulation (which runs only when the guess fits in the time left)."""
    _deadline: float | None = field(default=None, init=False, repr=False, compare=False)
    halted: Callable[[], bool] | None = field(default=None, repr=False, compare=False)
    """True once the turn must end now (the engine's ``stop``): the simulations stop after their current iteration
    and play the best so far."""
    on_best: Callable[[CrosswordAction, float], None] | None = field(default=None, repr=False, compare=False)
    """Told the best move so far and its value after each simulation iteration and each completed iteration of the
    endgame solver (the engine's progress ``best``)."""
    on_nodes: Callable[[int], None] | None = field(default=None, repr=False, compare=False)
    """Told the endgame solver's nodes so far while it searches (the engine's progress ``nodes``)."""
    endgame_threads: int = 1
    """Search threads of the exact endgame solver (sharing its table; :class:`EndgameSolver`'s ``threads``)."""

    def _stop_now(self) -> bool:
        return self.halted is not None and self.halted()

    def _pay(self, nodes: int, reserve: int | None = None) -> bool:
        """Spend ``nodes`` if the node budget can pay ``reserve`` (default ``nodes``) more; else mark the turn cut and
        spend nothing (False)."""
        need = nodes if reserve is None else reserve
        if self.max_nodes is not None and self.nodes + need > self.max_nodes:
            self.cut = True
            return False
        self.nodes += nodes
        return True

    def _seconds_left(self) -> float | None:
        """Seconds left of the turn's time budget (None: no time budget)."""
        return None if self._deadline is None else self._deadline - time.perf_counter()

    def _may_go_on(self, step_s: float) -> bool:
        """True when another step of the turn's search, expected to take ``step_s`` seconds (the mean of those done),
        still fits in the time budget and no stop was asked for; else mark the turn cut."""
        if self._stop_now() or (self._deadline is not None and time.perf_counter() + step_s > self._deadline):
            self.cut = True
            return False
        return True

    def _may_start(self, t0: float, done: int, first_s: float, nodes: int, reserve: int | None = None,
                   seconds: float | None = None) -> bool:
        """Whether the next iteration of a search started at ``t0`` may start: expected to take the mean time of the
        ``done`` ones (``first_s`` before any), it must end within ``seconds`` of ``t0`` (when given) and the turn's
        time budget, and the node budget must pay ``nodes`` (``reserve`` in full: :meth:`_pay`); else the turn is cut."""
        step = (time.perf_counter() - t0) / done if done else first_s
        if seconds is not None and time.perf_counter() - t0 + step > seconds:
            self.cut = True
            return False
        return self._may_go_on(step) and self._pay(nodes, reserve)

    def _tell_best(self, action: CrosswordAction, value: float) -> None:
        if self.on_best is not None:
            self.on_best(action, value)

    def _open_turn(self, referee: Referee, state: CrosswordState, mode: str, nodes: int | None, seconds: float | None,
                   endgame: bool = True) -> tuple[CrosswordAction | None, int | None, float | None]:
        """(the move when the turn is settled before the policy's own choice: a forced reply, or the endgame
        solver's with the bag empty and ``endgame`` on, else None; the turn's node and seconds budget)."""
        self.last_endgame = None
        self.nodes, self.cut = 0, False
        nodes, seconds = _endgame_budget(self.max_nodes, self.movetime_ms, nodes, seconds)
        self._deadline = None if seconds is None else time.perf_counter() + seconds
        forced = forced_reply(referee, state)
        if forced is not None:
            return forced, nodes, seconds
        if not state.bag and endgame:
            tell = None if self.on_best is None else (lambda move, value, depth: self._tell_best(move, value))
            action, self.last_endgame = solved_endgame_turn(referee, state, mode, nodes, seconds, self.halted, tell, self.on_nodes,
                                                                self.endgame_threads)
            if self.last_endgame is not None:
                self.nodes, self.cut = int(self.last_endgame.nodes), not self.last_endgame.proven
            return action, nodes, seconds
        self._pay(1)  # the turn's own move generation: one position valued (a budget of 1 node affords it)
        return None, nodes, seconds


@dataclass
class EquityPolicy(EndgameBudgeted):
    """Score + leave value; exchanges when keeping a better leave is worth more; endgame search when the bag is empty.
    ``movetime_ms`` bounds the endgame solver."""

    name: str = "equity"
    leaves: LeaveTable | None = None
    endgame: bool = True
    endgame_mode: str = "exact"
    """``exact``: the endgame solver within ``endgame_nodes`` / ``endgame_time``; ``bounded``: the old
    width-8, depth-2 search."""
    endgame_nodes: int | None = DEFAULT_ENDGAME_NODES
    endgame_time: float | None = None
    """Seconds per endgame turn at most (then the result depends on the machine's speed)."""

    def turn(self, referee: Referee, state: CrosswordState) -> CrosswordAction:
        settled, _, _ = self._open_turn(referee, state, self.endgame_mode, self.endgame_nodes, self.endgame_time, self.endgame)
        if settled is not None:
            return settled
        leaves = self.leaves or load_leaves(referee.tiles.name)
        cands = equity_candidates(referee, state, leaves, top=1)
        return cands[0].action if cands else CrosswordAction("pass")


def _endgame_budget(max_nodes: int | None, movetime_ms: float | None, nodes: int | None, seconds: float | None) -> tuple[int | None, float | None]:
    """(nodes, seconds) of an endgame turn: ``max_nodes`` / ``movetime_ms`` when set, else the older fields."""
    return (max_nodes if max_nodes is not None else nodes), (movetime_ms / 1000 if movetime_ms is not None else seconds)


def endgame_turn(referee: Referee, state: CrosswordState, mode: str = "exact", nodes: int | None = DEFAULT_ENDGAME_NODES,
                 seconds: float | None = None) -> CrosswordAction:
    """The endgame move (bag empty) by ``mode``: ``exact`` (the solver within ``nodes`` / ``seconds``)
    or ``bounded`` (:func:`endgame_move`). More than two players: the best score."""
    return solved_endgame_turn(referee, state, mode, nodes, seconds)[0]


def solved_endgame_turn(referee: Referee, state: CrosswordState, mode: str = "exact", nodes: int | None = DEFAULT_ENDGAME_NODES,
                        seconds: float | None = None, halted: Callable[[], bool] | None = None,
                        on_best: Callable[[CrosswordAction, int, int], None] | None = None,
                        on_nodes: Callable[[int], None] | None = None, threads: int = 1) -> tuple[CrosswordAction, Any]:
    """:func:`endgame_turn` and the exact solver's result (``EndgameResult``, with ``proven``) when it chose the move;
    ``halted``, ``on_best``, ``on_nodes``: the solver's stop and progress hooks (:class:`EndgameSolver`)."""
    if mode not in ENDGAME_MODES:
        raise RulesError(f"endgame mode must be one of {', '.join(ENDGAME_MODES)}, got {mode!r}")
    if state.n_players != 2:
        return ScorePolicy().turn(referee, state), None
    if mode == "bounded":
        return endgame_move(referee, state), None
    from kubasolve.games.crossword.endgame import solve_endgame

    if nodes is None and seconds is None:
        nodes = DEFAULT_ENDGAME_NODES
    result = solve_endgame(referee, state, node_limit=nodes, time_limit=seconds, halted=halted, on_best=on_best, on_nodes=on_nodes,
                           threads=threads, jump=AI_ENDGAME_JUMP)
    return result.action(), result


@dataclass
class SimPolicy(EndgameBudgeted):
    """Monte-Carlo look-ahead over the opponent's possible racks (see the module docstring). ``movetime_ms`` bounds
    the simulation and the endgame solver."""

    name: str = "sim"
    seed: int = 0
    candidates: int = 8
    iterations: int = 16
    plies: int = 2
    """1: candidate, opponent's best reply, leave value; 2: then also our own best next play on our
    leave refilled from the unseen tiles (no leave value)."""
    time_limit: float | None = None
    """Seconds per turn at most (then the iterations done so far decide; results depend on timing)."""
    leaves: LeaveTable | None = None
    endgame_mode: str = "exact"
    endgame_nodes: int | None = DEFAULT_ENDGAME_NODES
    """Node budget of the endgame solver (with ``time_limit`` set, that time budget applies too)."""

    def turn(self, referee: Referee, state: CrosswordState) -> CrosswordAction:
        settled, _, _ = self._open_turn(referee, state, self.endgame_mode, self.endgame_nodes, self.time_limit)
        if settled is not None:
            return settled
        leaves = self.leaves or load_leaves(referee.tiles.name)
        started = time.perf_counter()
        cands = equity_candidates(referee, state, leaves, top=self.candidates)
        self.node_s = time.perf_counter() - started
        if len(cands) <= 1:
            return cands[0].action if cands else CrosswordAction("pass")
        rng = random.Random(f"crossword-sim:{self.seed}:{state.seed}:{state.turn}")
        unseen = list(state.unseen())
        size = min(referee.rules.rack_size, len(unseen))
        boards = []
        for c in cands:
            boards.append(state.board.with_tiles(c.action.tiles) if c.action.type == "place" else state.board)
        totals = [0.0] * len(cands)
        best = 0
        t0 = time.perf_counter()
        per_iteration = len(cands) * (2 if self.plies >= 2 else 1)  # nodes: a reply (and a next play) per candidate
        for done in range(1, self.iterations + 1):
            if not self._may_start(t0, done - 1, per_iteration * self.node_s, per_iteration):
                break
            opp_tiles = rng.sample(unseen, size)
            opp = sort_rack("".join(opp_tiles))
            rest = list((Counter(unseen) - Counter(opp_tiles)).elements())
            rng.shuffle(rest)  # our next draw: the front of what the opponent does not hold
            for i, c in enumerate(cands):
                reply = _best(referee, boards[i], opp)
                value: float = c.score - (reply.score if reply is not None else 0)
                if self.plies >= 2:
                    board2 = boards[i].with_tiles(reply.tiles) if reply is not None else boards[i]
                    mine = sort_rack(c.leave + "".join(rest[: referee.rules.rack_size - len(c.leave)]))
                    follow = _best(referee, board2, mine)
                    value += follow.score if follow is not None else 0
                else:
                    value += leaves.value(c.leave)
                totals[i] += value
            best = max(range(len(cands)), key=lambda i: (totals[i] / done, -i))
            self._tell_best(cands[best].action, totals[best] / done)
        return cands[best].action


# ------------------------------------------------------------------------------------------------ endgame
def endgame_move(referee: Referee, state: CrosswordState, depth: int = 2, width: int = 8, node_budget: int = 400) -> CrosswordAction:
    """Bag empty: the placement (or pass) with the best spread after ``depth`` plies of alpha-beta over
    the ``width`` best-scoring placements of each side; going out ends the search with the rack bonus.
    More than two players: the best score."""
    if state.n_players != 2:
        return ScorePolicy().turn(referee, state)
    _, move = endgame_search(referee, state, depth, width, node_budget)
    return CrosswordAction.place(move) if move is not None else CrosswordAction("pass")


def leaf_value(referee: Referee, rack_mover: str, rack_other: str) -> float:
    """Static value of an unfinished endgame for the mover: half the difference of the rack values
    (whoever goes out first gains the other's rack; the rest is a coin toss)."""
    return float(rack_value(rack_other, referee.tiles) - rack_value(rack_mover, referee.tiles)) * 0.5


def endgame_search(referee: Referee, state: CrosswordState, depth: int = 2, width: int = 8,
                   node_budget: int = 400) -> tuple[float, Any]:
    """(spread for the player to move, best placement or None for a pass) of the bounded negamax."""
    me = state.current
    racks = {me: state.racks[me], 1 - me: state.racks[1 - me]}
    opp = 1 - me
    nodes = [0]

    def search(board: Any, mover: int, rack_m: str, rack_o: str, d: int, alpha: float, beta: float, passes: int) -> tuple[float, Any]:
        """Spread for ``mover`` (points this search adds for mover minus for the other)."""
        if passes >= 2:  # both passed: the game ends, each loses their own rack
            return float(rack_value(rack_o, referee.tiles) - rack_value(rack_m, referee.tiles)), None
        if d == 0 or nodes[0] >= node_budget:
            return leaf_value(referee, rack_m, rack_o), None
        nodes[0] += 1
        moves = _moves(referee, state, rack=rack_m, board=board, top=width).moves
        best_v, best_m = -1e9, None
        options: list[Any] = [*moves, None]
        for m in options:
            if m is None:
                v = -search(board, mover ^ 1, rack_o, rack_m, d - 1, -beta, -alpha, passes + 1)[0]
            else:
                left = _leave_of(rack_m, m.tiles)
                if not left:
                    v = m.score + 2 * rack_value(rack_o, referee.tiles)
                else:
                    v = m.score - search(board.with_tiles(m.tiles), mover ^ 1, rack_o, left, d - 1, m.score - beta, m.score - alpha, 0)[0]
            if v > best_v:
                best_v, best_m = v, m
            alpha = max(alpha, v)
            if alpha >= beta:
                break
        return best_v, best_m

    return search(state.board, 0, racks[me], racks[opp], depth, -1e9, 1e9, 0)


# ------------------------------------------------------------------------------------------------ factory
def _parse_name(text: str) -> tuple[str, dict[str, Any]]:
    """(base AI, options) of an AI name in any case, with spaces around it: the grammar of
    :mod:`kubasolve.games.crossword.ai_names` (``equity:bounded``, ``equity:NODES``, ``sim2:spread:400ms`` ...);
    a :class:`RulesError` (key ``ai``) listing the forms otherwise."""
    return parse_ai_name(text.strip().lower())


def policy_names(players: Any) -> list[str]:
    """Validated AI names (a list or a comma-separated string)."""
    names = [p.strip().lower() for p in (players.split(",") if isinstance(players, str) else players)]
    for n in names:
        _parse_name(n)
    return names


def make_policy(name: str, seed: int = 0, **options: Any) -> Any:
    """An AI by name (``score``, ``equity``, ``sim``, ``equity2``, ``sim2`` and their ``:`` options, e.g.
    ``equity:bounded``, ``sim2:spread:400ms``: :mod:`kubasolve.games.crossword.ai_names`); ``options`` set the policy's
    fields."""
    base, parsed = _parse_name(name)
    if base == "score":
        return ScorePolicy()
    if base == "equity":
        return EquityPolicy(name=name.strip().lower(), **{**parsed, **options})
    if base == "sim":
        return SimPolicy(name=name.strip().lower(), seed=seed, **{**parsed, **options})
    from kubasolve.games.crossword.sim import Equity2Policy, Sim2Policy

    cls = Equity2Policy if base == "equity2" else Sim2Policy
    return cls(name=name.strip().lower(), seed=seed, **{**parsed, **options})
