"""Exact two-player crossword endgame solver (the bag is empty, so each player knows the other's rack).

The value of a position is the *spread still to come* for the player to move: their points minus the
opponent's from now to the end of the game, end-of-game rack adjustments included (the rules of
:class:`~kubasolve.games.crossword.rules.CrosswordRules` as the referee applies them):

- a placement that empties the mover's rack ends the game: the mover scores it and gains the
  opponent's rack value, which the opponent loses (+ score + 2 x opponent's rack value);
- a pass counts as a scoreless turn; when the count reaches ``rules.scoreless_limit(2)`` the game ends and
  each player loses their own rack value (with the setting off, ``0``, two passes in a row end the
  search so: the position repeats, nothing is gained by passing on, documented in docs/crossword.md);
- any placement resets the scoreless count (exchanges are impossible: the bag is empty).

Search: negamax with alpha-beta (fail-soft) and iterative deepening on plies. Moves are ordered
going-out moves first, then by score, with the transposition table's best move first. The
transposition table is keyed on (board Zobrist hash, mover's rack, opponent's rack, scoreless count)
and stores bounds with the depth searched and whether the subtree met the depth horizon. At the
horizon a position is valued statically (opponent's rack value - mover's: whoever is left holding
tiles pays for them); the last ply before the horizon is evaluated in one vectorised step over the
move arrays. An iteration whose tree never met the horizon is the exact game value: the result is
then ``proven``. Within a node or time budget the solver returns the best move of the deepest
completed iteration (``proven = False``). With a node budget (and no time budget) the result is a pure
function of the position; a time budget makes it depend on the machine.

Moves come from the move generator's lean entry point (:func:`kubasolve.games.crossword.movegen.raw_generator`,
the kernel's arrays without input checks or move objects), cached per (board, rack) within a solve.
Inside the search a board is a pair of flat arrays (letter codes, blank flags) with an incremental
Zobrist key; a child copies the 225-byte arrays and writes the placed tiles, and Placement objects
are built only for the answer and the principal variation.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kubasolve.errors import RulesError
from kubasolve.games.crossword.board import Board, grid_geometry
from kubasolve.games.crossword.game import CrosswordAction, CrosswordState, Referee, sort_rack
from kubasolve.games.crossword.layout import BLANK
from kubasolve.games.crossword.movegen import Placement, raw_facts, raw_generator
from kubasolve.games.crossword.rules import CrosswordRules
from kubasolve.games.limits import CROSSWORD_MAX_ENDGAME_THREADS

__all__ = ["EndgameResult", "EndgameSolver", "solve_endgame"]

PASS = -1
EXACT, LOWER, UPPER = 0, 1, 2
BLANK_FLAG = 64
INF = 10**9
MAX_DEPTH = 200
"""Plies at most (a game of 14 tiles and 6-pass runs ends well within it)."""
DEFAULT_OPTIONS = 48123 | (1 << 16) | (1 << 17)
"""The kernel's search options by default (:mod:`kubasolve.kernels.crossword_endgame`'s ``OPT_*`` flags): forced pass
free, placements' table entry, stuck pass, table before the move, last tile, lean table, the true bounds (pair, last
out, opponent out, pass bound, leave one, leave two, leave two for four tiles), the leave memo, the inherited two-tile
cuts; not the aspiration window.
``OPT_LEAVE_TWO`` joined them in December 2026: 2.4-2.9x fewer nodes, each dearer (the same CPU on one thread); on
two threads the long endgames prove sooner (positions 2, 25, 26 of the measured set: 10.5-10.9, 11.7-12.1, 8.0-8.4 s
instead of 12.1, 13.6, 9.0-9.5 s; 0 the same 16.9 s). ``OPT_LEAVE_TWO_FOUR`` on 6 December 2026: 1.3-1.8x fewer nodes,
positions 2, 19, 26 in 15.6-16.1, 5.5-5.8, 12.0-14.0 s of CPU on one thread instead of 19.2, 6.7, 15.1-15.4 s
``OPT_LEAVE_MEMO`` on 6-7 December 2026: 1-3 % fewer nodes; on positions 2, 19, 25 on one thread 2-9 % less CPU, then 4-8 %
less with the four-tile bound's cuts too; on two threads 5-9 % less with the memo shared. ``OPT_LEAVE_INHERIT`` on 7 December
2026: about 6 % less CPU on positions 2, 19, 25 on one thread, the same values (docs/crossword_endgame_log.md)."""
DEFAULT_JUMP = 5
"""Plies of the shallow iterations before the one to the end of the game (:class:`EndgameSolver`'s ``jump``): 6 until
6 December 2026, then 5 (fewer nodes to prove on 28 of 32 fresh self-play endgames, 0.90x in all; on one thread less
CPU on 31 of the 35 stored positions both prove, on two threads about the same: docs/crossword_endgame_log.md). The AIs keep 6
(``ai.AI_ENDGAME_JUMP``)."""
MAX_THREADS = CROSSWORD_MAX_ENDGAME_THREADS
"""The most search threads an endgame solve takes (:class:`EndgameSolver`'s ``threads``; one limit for every edge)."""


_Flat = tuple[np.ndarray, np.ndarray]
"""A board inside the search: flat letter codes (-1 empty) and blank flags, row-major."""


_MOVE_FACTS: list[Any] = []
"""The numba ``move_facts`` kernel, imported on first use (no JIT work at import)."""


class _OutOfBudget(Exception):
    """Raised inside the search when the node or time budget is spent."""


@dataclass(frozen=True)
class EndgameResult:
    """The solver's answer for the player to move."""

    move: Placement | None
    """The best placement found, or None for a pass."""
    value: int
    """Spread still to come for the mover (their points - the opponent's, rack adjustments included):
    exact when ``proven``, else the estimate of the deepest completed iteration."""
    proven: bool
    """True when the search reached the end of every line: ``value`` is the game-theoretic value and
    ``move`` achieves it."""
    depth: int
    """Plies of the deepest completed iteration (0: none completed; the move is then the first of the ordering)."""
    nodes: int
    seconds: float
    pv: tuple[str, ...] = field(default=())
    """The principal variation in GCG-like text (``8D WO.D``, ``pass``), from the transposition table."""

    def action(self) -> CrosswordAction:
        return _action_of(self.move)

    def to_dict(self) -> dict[str, Any]:
        return {"move": None if self.move is None else self.move.to_dict(), "value": self.value, "proven": self.proven,
                "depth": self.depth, "nodes": self.nodes, "seconds": round(self.seconds, 6), "pv": list(self.pv)}


def _action_of(move: Placement | None) -> CrosswordAction:
    """The referee's action of a solver move (None: a pass)."""
    return CrosswordAction.place(move) if move is not None else CrosswordAction("pass")


class _Moves:
    """The placements of one rack on one board, as kernel arrays plus per-move facts; ``order()`` is
    best first: going-out moves by score, then the others by gain (below), then line and start."""

    __slots__ = ("_order", "best_other", "best_out", "gain", "meta", "n", "out", "scores", "tiles", "used")

    def __init__(self, meta: np.ndarray, tiles: np.ndarray, rack_len: int, tile_values: np.ndarray) -> None:
        self.meta = meta
        self.tiles = tiles
        self.n = int(meta.shape[0])
        # gain: score + value of the tiles played, the mover's spread after this move if the game then
        # ended with each player paying their rack (the static value one ply on, minus constants);
        # best_out / best_other: the best going-out move by score, the best other move by gain (-1: none)
        self.scores, self.gain, self.out, self.best_out, self.best_other = _MOVE_FACTS[0](meta, tiles, rack_len, tile_values)
        self._order: list[int] | None = None
        self.used: dict[int, str] = {}

    def order(self) -> list[int]:
        if self._order is None:
            # one sort on a composite key: going-out first, key descending, then line and start
            # (as a lexsort on the four; line < 2^16, start < 2^10, 0 <= key < 2^30)
            key = np.where(self.out, self.scores, self.gain)
            comp = ((~self.out).astype(np.int64) << 60) | (((1 << 30) - key) << 26) | (self.meta[:, 0].astype(np.int64) << 10) | self.meta[:, 1]
            self._order = np.argsort(comp, kind="stable").tolist() if self.n else []
        return self._order


def _check_limits(time_limit: float | None, node_limit: int | None, max_depth: int | None) -> None:
    """The limits both endgame solvers take, checked alike (a :class:`RulesError` naming the bad one)."""
    if time_limit is not None and not (isinstance(time_limit, (int, float)) and time_limit >= 0):
        raise RulesError(f"time_limit must be a number of seconds >= 0, got {time_limit!r}")
    if node_limit is not None and not (isinstance(node_limit, int) and node_limit >= 1):
        raise RulesError(f"node_limit must be an integer >= 1, got {node_limit!r}")
    if max_depth is not None and not (isinstance(max_depth, int) and 1 <= max_depth <= MAX_DEPTH):
        raise RulesError(f"max_depth must be an integer from 1 to {MAX_DEPTH}, got {max_depth!r}")


class LegacyEndgameSolver:
    """The first exact endgame search (Python loop, a full move generation per node; see the module
    docstring): kept as an independent implementation to check the compiled one against and as the
    baseline of the speed measurements (``python -m kubasolve.games.crossword.endgame --compare``)."""

    def __init__(self, referee: Referee, *, time_limit: float | None = None, node_limit: int | None = None,
                 max_depth: int | None = None, tt_limit: int = 400_000, move_cache_limit: int = 1_000_000,
                 clock: Any = time.perf_counter) -> None:
        _check_limits(time_limit, node_limit, max_depth)
        self.referee = referee
        self.time_limit = time_limit
        self.node_limit = node_limit
        self.max_depth = max_depth or MAX_DEPTH
        self.clock = clock
        """The clock of ``time_limit`` (as :class:`EndgameSolver`'s: ``time.thread_time`` for CPU budgets)."""
        self.tt_limit = tt_limit
        self.move_cache_limit = move_cache_limit
        lex, layout, tiles = referee.lexicon, referee.layout, referee.tiles
        self.alphabet = lex.alphabet
        self.letters = lex.alphabet.letters
        self.values = np.array([tiles.values.get(ch.upper(), 0) for ch in self.letters], np.int64)
        # value of a kernel tile byte (as uint8): a letter code its value, a blank (+64) or no tile (-1 = 255) 0
        self.tile_values = np.zeros(256, np.int64)
        self.tile_values[: len(self.letters)] = self.values
        self.geo = grid_geometry(layout.rows, layout.cols)
        self.limit = referee.rules.scoreless_limit(2)
        rng = random.Random("crossword-endgame-zobrist")
        n_cells, n_codes = layout.rows * layout.cols, len(self.letters)
        self.zobrist = [[rng.getrandbits(64) for _ in range(2 * n_codes)] for _ in range(n_cells)]
        self._rack_values: dict[str, int] = {}
        self._rack_counts: dict[str, tuple[np.ndarray, int]] = {}
        if not _MOVE_FACTS:
            from kubasolve.kernels.board_movegen import move_facts

            _MOVE_FACTS.append(move_facts)
        self._gen = raw_generator(lex, layout, tiles, bingo_bonus=referee.rules.bingo_bonus)
        self._gen_facts = raw_facts(lex, layout, tiles, bingo_bonus=referee.rules.bingo_bonus)
        self.facts_cache: dict[tuple[int, str], tuple[int, int, int, int]] = {}
        self._codes = {ch.upper(): k for k, ch in enumerate(self.letters)}
        self.tt: dict[tuple[int, str, str, int], tuple[int, int, int, int, bool]] = {}
        self.move_cache: dict[tuple[int, str], _Moves] = {}
        self._cached_moves = 0
        self.nodes = 0
        self._deadline = 0.0

    # ------------------------------------------------------------------ helpers
    def rack_value(self, rack: str) -> int:
        v = self._rack_values.get(rack)
        if v is None:
            v = self._rack_values[rack] = sum(self.referee.tiles.value(ch) for ch in rack)
        return v

    def rack_counts(self, rack: str) -> tuple[np.ndarray, int]:
        """The rack as the kernel takes it: letter counts per code and the number of blanks."""
        hit = self._rack_counts.get(rack)
        if hit is None:
            counts = np.zeros(len(self.letters), np.int64)
            for ch in rack:
                if ch != BLANK:
                    counts[self._codes[ch]] += 1
            hit = self._rack_counts[rack] = (counts, rack.count(BLANK))
        return hit

    def board_key(self, flat: np.ndarray, blank: np.ndarray) -> int:
        key = 0
        n = len(self.letters)
        for cell in np.nonzero(flat >= 0)[0].tolist():
            key ^= self.zobrist[cell][int(flat[cell]) + (n if blank[cell] else 0)]
        return key

    def _moves(self, board: _Flat, bkey: int, rack: str) -> _Moves:
        key = (bkey, rack)
        hit = self.move_cache.get(key)
        if hit is not None:
            return hit
        counts, n_blanks = self.rack_counts(rack)
        meta, tiles = self._gen(board[0], board[1], counts, n_blanks)
        moves = _Moves(meta, tiles, len(rack), self.tile_values)
        if self._cached_moves + moves.n > self.move_cache_limit:
            self.move_cache.clear()
            self._cached_moves = 0
        self.move_cache[key] = moves
        self._cached_moves += moves.n + 1
        return moves

    def _facts(self, board: _Flat, bkey: int, rack: str) -> tuple[int, int, int, int]:
        """(best going-out move, its score, best other move by gain, its gain) of ``rack`` on the
        board, -1 indices for none: from the cached move list if there is one, else from the
        kernel's facts mode (no move list made; the indices are those of the list)."""
        key = (bkey, rack)
        moves = self.move_cache.get(key)
        if moves is not None:
            i, j = moves.best_out, moves.best_other
            return i, (int(moves.scores[i]) if i >= 0 else 0), j, (int(moves.gain[j]) if j >= 0 else 0)
        hit = self.facts_cache.get(key)
        if hit is None:
            counts, n_blanks = self.rack_counts(rack)
            _, i, si, j, gj = self._gen_facts(board[0], board[1], counts, n_blanks)
            if len(self.facts_cache) >= self.move_cache_limit:
                self.facts_cache.clear()
            hit = self.facts_cache[key] = (i, si, j, gj)
        return hit

    def _used(self, moves: _Moves, i: int) -> str:
        """The rack tiles move ``i`` uses (upper case, ``?`` for a blank)."""
        u = moves.used.get(i)
        if u is None:
            row = moves.tiles[i]
            u = "".join(BLANK if t & BLANK_FLAG else self.letters[t].upper() for t in row[row >= 0].tolist())
            moves.used[i] = u
        return u

    @staticmethod
    def _leave(rack: str, used: str) -> str:
        left = list(rack)
        for ch in used:
            left.remove(ch)
        return "".join(left)

    def _child(self, board: _Flat, bkey: int, moves: _Moves, i: int) -> tuple[_Flat, int]:
        line, start, end, _ = moves.meta[i].tolist()
        cells = self.geo.lines[line][start : end + 1].tolist()
        row = moves.tiles[i][start : end + 1].tolist()
        letters = board[0].copy()
        blank = board[1].copy()
        n = len(self.letters)
        for cell, t in zip(cells, row, strict=True):
            if t < 0:
                continue
            code = t & (BLANK_FLAG - 1)
            is_blank = bool(t & BLANK_FLAG)
            letters[cell] = code
            blank[cell] = is_blank
            bkey ^= self.zobrist[cell][code + (n if is_blank else 0)]
        return (letters, blank), bkey

    def _placement(self, board: _Flat, moves: _Moves, i: int) -> Placement:
        """Move ``i`` as a Placement (main word, tiles, score) for the caller."""
        line, start, end, score = moves.meta[i].tolist()
        cells = self.geo.lines[line].tolist()
        cols = self.referee.layout.cols
        word, placed = [], []
        for p in range(start, end + 1):
            r, c = divmod(cells[p], cols)
            t = int(moves.tiles[i][p])
            if t < 0:
                ch = self.letters[int(board[0][cells[p]])]
                word.append(ch if board[1][cells[p]] else ch.upper())
            else:
                ch = self.letters[t & (BLANK_FLAG - 1)]
                ch = ch if t & BLANK_FLAG else ch.upper()
                word.append(ch)
                placed.append((r, c, ch))
        r0, c0 = divmod(cells[start], cols)
        direction = "across" if int(self.geo.line_dir[line]) == 0 else "down"
        return Placement(r0, c0, direction, "".join(word), tuple(placed), int(score), len(placed) == self.referee.rules.rack_size)

    def _tick(self) -> None:
        if self.node_limit is not None and self.nodes >= self.node_limit:
            raise _OutOfBudget
        self.nodes += 1
        if self.time_limit is not None and (self.nodes & 15) == 0 and self.clock() > self._deadline:
            raise _OutOfBudget

    def _pass_ends(self, scoreless: int) -> bool:
        return scoreless + 1 >= self.limit if self.limit else scoreless >= 1

    # ------------------------------------------------------------------ search
    def _search(self, board: _Flat, bkey: int, rm: str, ro: str, sl: int, depth: int, alpha: int, beta: int) -> tuple[int, bool]:
        """(value for the mover, whether the subtree met the depth horizon)."""
        self._tick()
        key = (bkey, rm, ro, sl)
        entry = self.tt.get(key)
        tt_move = None
        if entry is not None:
            e_depth, e_flag, e_value, e_move, e_hit = entry
            usable = not e_hit or e_depth >= depth
            if usable and (e_flag == EXACT or (e_flag == LOWER and e_value >= beta) or (e_flag == UPPER and e_value <= alpha)):
                return e_value, e_hit
            tt_move = e_move
        vm, vo = self.rack_value(rm), self.rack_value(ro)
        if depth <= 0:
            return vo - vm, True
        alpha0 = alpha
        best, best_move, hit = -INF, PASS, False
        if depth == 1:
            # the horizon is next: a child that does not end the game is worth score - (leave value - vo)
            # = gain - vm + vo to the mover; going out score + 2 vo and a final pass vo - vm (exact)
            i_out, out_score, i_other, other_gain = self._facts(board, bkey, rm)
            if i_out >= 0:
                best, best_move = out_score + 2 * vo, i_out
            if i_other >= 0 and other_gain - vm + vo > best:
                best, best_move = other_gain - vm + vo, i_other
            if vo - vm > best:
                best, best_move = vo - vm, PASS
            # exact only when every child ends the game (no cut-offs here: every child was valued)
            hit = i_other >= 0 or not self._pass_ends(sl)
        else:
            moves = self._moves(board, bkey, rm)
            order: list[int] = [*moves.order(), PASS]
            if tt_move is not None and tt_move != order[0]:
                order.remove(tt_move)
                order.insert(0, tt_move)
            first = True
            frontier = depth == 2
            for i in order:
                if i == PASS:
                    if self._pass_ends(sl):
                        v, h = vo - vm, False
                    else:
                        v, h = self._pvs(board, bkey, ro, rm, sl + 1, depth - 1, alpha, beta, 0, first)
                else:
                    score = int(moves.scores[i])
                    if moves.out[i]:
                        v, h = score + 2 * vo, False
                    else:
                        if frontier:
                            # the opponent may pass at the horizon, so this move is worth at most gain - vm + vo
                            bound = int(moves.gain[i]) - vm + vo
                            if bound <= alpha:
                                hit = True
                                if bound > best:
                                    best, best_move = bound, i
                                continue
                        child, ckey = self._child(board, bkey, moves, i)
                        leave = self._leave(rm, self._used(moves, i))
                        v, h = self._pvs(child, ckey, ro, leave, 0, depth - 1, alpha, beta, score, first)
                first = False
                hit = hit or h
                if v > best:
                    best, best_move = v, i
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
        if len(self.tt) >= self.tt_limit:
            self.tt.clear()
        self.tt[key] = (depth, flag, best, best_move, hit)
        return best, hit

    def _pvs(self, board: _Flat, bkey: int, rm: str, ro: str, sl: int, depth: int, alpha: int, beta: int, score: int,
             first: bool) -> tuple[int, bool]:
        """Value to the parent's mover of a child reached by a move scoring ``score``: principal variation
        search (a null window around alpha first for every child but the first; a full re-search when it
        fails high inside the window)."""
        if not first and beta - alpha > 1:
            cv, h = self._search(board, bkey, rm, ro, sl, depth, score - alpha - 1, score - alpha)
            v = score - cv
            if v <= alpha or v >= beta:
                return v, h
        cv, h = self._search(board, bkey, rm, ro, sl, depth, score - beta, score - alpha)
        return score - cv, h

    def solve(self, state: CrosswordState) -> EndgameResult:
        """The best move for the player to move in ``state`` (two players, empty bag)."""
        _check_root(state, self.referee.rules)
        t0 = time.perf_counter()
        self._deadline = self.clock() + (self.time_limit or 0.0)
        self.nodes = 0
        board = (np.ascontiguousarray(state.board.letters.reshape(-1)).copy(), np.ascontiguousarray(state.board.blank.reshape(-1)).copy())
        bkey = self.board_key(*board)
        rm, ro = sort_rack(state.rack()), sort_rack(state.racks[1 - state.current])
        root = self._moves(board, bkey, rm)
        best_move = root.order()[0] if root.n else PASS
        value = self.rack_value(ro) - self.rack_value(rm)
        done_depth, proven = 0, False
        try:
            for depth in range(1, self.max_depth + 1):
                v, hit = self._search(board, bkey, rm, ro, state.scoreless, depth, -INF, INF)
                entry = self.tt.get((bkey, rm, ro, state.scoreless))
                value, done_depth = v, depth
                if entry is not None:
                    best_move = entry[3]
                if not hit:
                    proven = True
                    break
        except _OutOfBudget:
            pass
        move = None if best_move == PASS else self._placement(board, root, best_move)
        pv = self._pv(board, bkey, rm, ro, state.scoreless, done_depth)
        return EndgameResult(move, int(value), proven, done_depth, self.nodes, time.perf_counter() - t0, pv)

    def _pv(self, board: _Flat, bkey: int, rm: str, ro: str, sl: int, depth: int) -> tuple[str, ...]:
        from kubasolve.games.crossword.notation import format_placement

        out: list[str] = []
        for _ in range(depth):
            entry = self.tt.get((bkey, rm, ro, sl))
            if entry is None:
                break
            i = entry[3]
            if i == PASS:
                out.append("pass")
                if self._pass_ends(sl):
                    break
                rm, ro, sl = ro, rm, sl + 1
                continue
            moves = self._moves(board, bkey, rm)
            if i >= moves.n:
                break
            p = self._placement(board, moves, i)
            out.append(f"{format_placement(p.row, p.col, p.direction, p.word, p.tiles)} +{p.score}")
            if moves.out[i]:
                break
            leave = self._leave(rm, self._used(moves, i))
            board, bkey = self._child(board, bkey, moves, i)
            rm, ro, sl = ro, leave, 0
        return tuple(out)


class _Workspace:
    """The compiled search's arrays for one (lexicon, layout, tiles): the fixed tables (GADDAG,
    geometry, Zobrist keys) and the buffers (transposition table, line-move cache and arena, move
    buffer, frames). Made once per thread and kept: the line cache stays valid across solves (its keys
    are exact hashes of a line's contents and a rack), the transposition table is cleared per solve
    so a node budget gives the same answer whatever was solved before."""

    def __init__(self, referee: Referee, tt_bits: int, cache_bits: int, arena_moves: int, tt: np.ndarray | None = None,
                 lmemo: np.ndarray | None = None) -> None:
        from kubasolve.games.crossword.movegen import _setup
        from kubasolve.kernels import crossword_endgame as k

        self.k = k
        self.sizes = (referee, tt_bits, cache_bits, arena_moves)
        self.helpers: list[_Workspace] = []
        """The helper threads' workspaces (``threads`` > 1): their own buffers, this one's table."""
        lex, layout, tiles = referee.lexicon, referee.layout, referee.tiles
        s = _setup(lex, layout, tiles)
        geo = grid_geometry(layout.rows, layout.cols)
        self.geo = geo
        self.nl = nl = len(lex.alphabet.letters)
        self.rack_size = tiles.rack_size
        width = int(geo.lines.shape[1])
        n_cells, n_lines = geo.n_cells, int(geo.lines.shape[0])
        rng = np.random.default_rng(20240724)

        def rand(*shape: int) -> np.ndarray:
            return rng.integers(1, 2**63 - 1, size=shape, dtype=np.int64) * rng.choice(np.array([-1, 1], np.int64), size=shape)

        self.static = (
            s.nodes, geo.lines, geo.line_len, geo.line_dir, geo.cell_line, geo.cell_pos,
            s.letter_mult, s.word_mult, s.values,
            rand(n_cells, 2 * nl), rand(nl + 1, self.rack_size + 1), rand(nl + 1, self.rack_size + 1), rand(128), rand(n_lines),
        )
        self.values = s.values
        max_ply = MAX_DEPTH + 2
        self.letters = np.full(n_cells, -1, np.int8)
        self.blank = np.zeros(n_cells, np.bool_)
        self.vob = np.zeros(n_cells, np.int64)
        self.xmask = np.zeros((n_cells, 2), np.int64)
        self.xscore = np.full((n_cells, 2), -1, np.int64)
        self.lh = np.zeros((max_ply + 1, n_lines), np.int64)
        self.bkey = np.zeros(max_ply + 1, np.int64)
        self.undo = np.zeros((64 * max_ply, 5), np.int64)
        self.cnt = np.zeros((2, nl + 1), np.int64)
        self.rs = np.zeros((2, 4), np.int64)
        self.fr = np.zeros((max_ply + 1, k.F_SIZE), np.int64)
        self.tt = np.zeros((1 << tt_bits, 2), np.int64) if tt is None else tt
        self.cache = (np.zeros((1 << cache_bits, 4), np.int64), np.zeros((max_ply + 1, n_lines), np.int64),
                      np.zeros((arena_moves, 4), np.int32), np.full((arena_moves, width), -1, np.int8),
                      np.zeros((arena_moves, 2), np.int64))
        self.sc = np.zeros(k.SC_SIZE, np.int64)
        self.movegen = (np.ones(n_cells, np.bool_), np.zeros((n_lines, 7, width), np.int64), np.zeros((n_lines * width + 1, 4), np.int64),
                        np.full(width, -1, np.int64), np.zeros(20, np.int64), np.zeros((1, 1), np.int64), np.zeros((width + 2, 16), np.int64),
                        np.zeros(nl + 2, np.int64), np.arange(n_lines * width + 1, dtype=np.int64), np.zeros(0, np.int64),
                        np.zeros(0, np.bool_), np.zeros(0, np.int64), np.zeros((3, 1), np.int64))
        self._no_choices = np.zeros(0, np.int64)
        self.cbuf = np.zeros((9, n_cells), np.int64)
        """Per-square scratch of the search (stamped rows: see the kernel's _pair_bound)."""
        self.xmemo = np.zeros((1 << 15, 2), np.int64)
        """The leave-two bounds' memo of run-end cross-sets (key, packed cross-set; the kernel's _memo_cross_set)."""
        self.lmemo = np.zeros((1 << k.LEAVE_MEMO_BITS, 2), np.int64) if lmemo is None else lmemo
        """The leave memo (a position's table key, the true bound of its value that cut a move to it; the kernel's
        OPT_LEAVE_MEMO), shared with the helper threads as the table is, and like it not cleared between solves: its
        keys are the table's, salted by the solve's generation, so another solve's entries read as none (16 MB, 2^20
        slots: filling it each solve would cost about as much as a small endgame)."""
        self._warm = False
        self.mapped = False
        """Whether :meth:`touch` has written this workspace's pages (and, for a main workspace, the shared ones)."""
        self.generation = 0
        """The table's generation (1-31) of the current solve."""
        self.tt_used = False
        """Whether a solve has written to the table (else it is still the zeros it was made with)."""
        self.salts = rand(32)
        self.set_move_buffer(1 << 16)

    def helper(self, i: int) -> _Workspace:
        """Helper thread ``i``'s workspace (made once, kept): buffers of its own, this workspace's table."""
        while len(self.helpers) <= i:
            self.helpers.append(_Workspace(*self.sizes, tt=self.tt, lmemo=self.lmemo))
        return self.helpers[i]

    def touch(self) -> None:
        """Write every page of the large buffers once, with the values they hold already (zeros; the arena's tiles -1), so
        the operating system maps and clears their pages now instead of inside the first solve that reaches them (about
        370 MB at the default sizes: 0.3-0.8 s of a first solve's CPU on the shared machines, 10-30 % of the bench's
        calibration workload). The helpers' workspaces too (the table and leave memo they share written once). The table,
        the leave memo and the line caches end up empty. A solve does it once per workspace before its clock
        (:meth:`map_pages`); the bench again before each measurement."""
        self._touch([self, *self.helpers], shared=True)

    def map_pages(self) -> None:
        """:meth:`touch` for the workspaces (this one, its helpers) whose pages were never written: the one-time set-up
        of a process's first solve, before the budget's clock as the kernel's load (:meth:`warm`). Inside it, a 1 ms
        budget's first solve took 0.06-0.55 s (200 nodes: the table's random writes reach most of its pages)."""
        fresh = [w for w in (self, *self.helpers) if not w.mapped]
        if fresh:
            self._touch(fresh, shared=not self.mapped)

    def _touch(self, workspaces: list[_Workspace], shared: bool) -> None:
        if shared:
            for a in (self.tt, self.lmemo):
                a.fill(0)
            self.tt_used = False
        for ws in workspaces:
            for a in (*ws.cache, *ws.moves):
                a.fill(-1 if a is ws.cache[3] else 0)
            ws.sc[self.k.SC_CACHE_USED] = 0
            ws.sc[self.k.SC_ARENA] = 0
            ws.mapped = True

    def set_move_buffer(self, moves: int) -> None:
        """The move buffer (the lists of the nodes on the current line): (line, start, end, score) rows, (gain,
        tiles placed, arena row) rows, the order of the search, the root moves' ordering keys."""
        self.moves = (np.zeros((moves, 4), np.int32), np.zeros((moves, 4), np.int64), np.zeros(moves, np.int64), np.zeros(moves, np.int64))

    def listed(self, start: int, n: int) -> tuple[np.ndarray, np.ndarray]:
        """Rows ``start .. start + n - 1`` of the move buffer as the move generator's arrays (meta, tiles); valid
        right after the list was made (the tiles are read from the line cache's arena)."""
        meta = self.moves[0][start : start + n].copy()
        return meta, self.cache[3][self.moves[1][start : start + n, 2]].copy()

    def load(self, state: CrosswordState, letter_filter: int) -> None:
        """The root position into the board arrays (player 0 = the mover), with cross-sets, keys, racks."""
        from kubasolve.kernels.board_movegen import cross_sets

        k, nl = self.k, self.nl
        g, lines, line_len, line_dir, cell_line, cell_pos, _, _, val, zb, zrm, zrw, _, _ = self.static
        self.letters[:] = state.board.letters.reshape(-1)
        self.blank[:] = state.board.blank.reshape(-1)
        self.vob[:] = np.where((self.letters >= 0) & ~self.blank, val[np.maximum(self.letters, 0)], 0)
        xm, xs = cross_sets(self.letters, self.vob, lines, line_len, cell_line, cell_pos, g, nl, letter_filter)
        self.xmask[:] = xm
        self.xscore[:] = xs
        self.lh[0] = k.line_hashes(self.letters, self.blank, self.xmask, self.xscore, lines, line_len, line_dir, zb, nl)
        cells = np.nonzero(self.letters >= 0)[0]
        self.bkey[0] = np.bitwise_xor.reduce(zb[cells, self.letters[cells] + np.where(self.blank[cells], nl, 0)]) if len(cells) else 0
        codes = {ch.upper(): i for i, ch in enumerate(state.board.alphabet.letters)}
        self.cnt[:] = 0
        self.rs[:] = 0
        for who, rack in enumerate((state.rack(), state.racks[1 - state.current])):
            for ch in rack:
                slot = nl if ch == BLANK else codes[ch]
                n = self.cnt[who, slot]
                self.rs[who, k.R_HASH_MOVE] ^= zrm[slot, n]
                self.rs[who, k.R_HASH_WAIT] ^= zrw[slot, n]
                self.cnt[who, slot] = n + 1
                self.rs[who, k.R_N] += 1
                if slot < nl:
                    self.rs[who, k.R_VALUE] += int(val[slot])

    def _arguments(self, choices: np.ndarray | None) -> tuple[Any, ...]:
        return (*self.static, self.letters, self.blank, self.vob, self.xmask, self.xscore, self.lh, self.bkey, self.undo,
                self.cnt, self.rs, self.fr, *self.moves, *self.cache, self.tt, *self.movegen, self.sc,
                self._no_choices if choices is None else choices, self.cbuf, self.xmemo, self.lmemo)

    def warm(self) -> None:
        """Load the search kernel from the cache (or compile it) for exactly these argument types, once: the
        one-time set-up a budget's clock must not count (a first solve spent ~4 s of its time budget there)."""
        if self._warm:  # typing ~50 arguments per solve is work an AI's every endgame turn need not repeat
            return
        import numba

        sig = tuple(numba.typeof(a) for a in self._arguments(None))
        if sig not in self.k.search.signatures:
            self.k.search.compile(sig)
        self._warm = True

    def run(self, mode: int, choices: np.ndarray | None = None) -> int:
        """One call of the kernel in ``mode`` (``MODE_SEARCH`` / ``MODE_LIST``); ``sc[SC_RESULT]``."""
        self.sc[self.k.SC_MODE] = mode
        self.k.search(*self._arguments(choices))
        return int(self.sc[self.k.SC_RESULT])


_WORKSPACES = threading.local()


def _workspace(referee: Referee, tt_bits: int, cache_bits: int, arena_moves: int) -> _Workspace:
    """This thread's workspace for the referee's (lexicon, layout, tiles) and sizes (one kept per thread)."""
    key = (id(referee.lexicon), id(referee.layout), id(referee.tiles), tt_bits, cache_bits, arena_moves)
    held = getattr(_WORKSPACES, "held", None)
    if held is not None and held[0] == key and held[2] == (referee.lexicon, referee.layout, referee.tiles):
        return held[1]
    ws = _Workspace(referee, tt_bits, cache_bits, arena_moves)
    _WORKSPACES.held = (key, ws, (referee.lexicon, referee.layout, referee.tiles))
    return ws


class EndgameSolver:
    """Exact endgame search for two players with an empty bag, compiled
    (:mod:`kubasolve.kernels.crossword_endgame`; see the module docstrings)."""

    SLICE = 0.02
    """Seconds of search per kernel call between two looks at the clock (the nodes per call follow the
    speed measured so far, from 200)."""

    def __init__(self, referee: Referee, *, time_limit: float | None = None, node_limit: int | None = None,
                 max_depth: int | None = None, tt_bits: int = 23, cache_bits: int = 22, arena_moves: int = 1 << 21,
                 options: int = DEFAULT_OPTIONS, jump: int = DEFAULT_JUMP, clock: Any = time.perf_counter, halted: Callable[[], bool] | None = None,
                 on_best: Callable[[CrosswordAction, int, int], None] | None = None,
                 on_nodes: Callable[[int], None] | None = None, threads: int = 1) -> None:
        _check_limits(time_limit, node_limit, max_depth)
        if not (isinstance(threads, int) and 1 <= threads <= MAX_THREADS):
            raise RulesError(f"threads must be an integer from 1 to {MAX_THREADS}, got {threads!r}")
        self.threads = threads
        """Search threads sharing the transposition table (lazy SMP, as Macondo's endgame): the main thread's search
        decides the answer; ``threads - 1`` helpers search the same position (their fail-low nodes' moves in the
        other order, their root against the main thread's root alpha) and fill the table. A proven value is exact
        whatever the threads; with more than one thread the node counts and, among moves of equal value, the move
        returned vary from run to run. ``node_limit`` counts the main thread's nodes; ``stats["helper_nodes"]`` the
        helpers', ``stats["helper_root_alphas_taken"]`` how often a helper's root took the main thread's alpha."""
        self.referee = referee
        self.time_limit = time_limit
        self.node_limit = node_limit
        self.halted = halted
        """True once the solve must end now (the engine's ``stop``): the best move of the deepest completed iteration."""
        self.on_best = on_best
        """Told (move, value, depth) of each completed iteration that does not end the solve (progress reports);
        the kernel then pauses at the root after each iteration so the move can be read."""
        self.on_nodes = on_nodes
        """Told the nodes searched so far after each slice of the search (about every 20 ms)."""
        self.max_depth = max_depth or MAX_DEPTH
        self.limit = referee.rules.scoreless_limit(2)
        self.ws = _workspace(referee, tt_bits, cache_bits, arena_moves)
        self.options = options
        self.jump = jump
        self.clock = clock
        """The clock of ``time_limit`` (wall time; ``time.thread_time`` gives CPU budgets for measurements on a shared machine)."""
        self.stats: dict[str, Any] = {}

    def _letter_filter(self, state: CrosswordState) -> int:
        """The letters either rack can place (all when a blank is about): cross-sets need no others."""
        racks = state.racks[0] + state.racks[1]
        if BLANK in racks:
            return (1 << self.ws.nl) - 1
        codes = {ch.upper(): i for i, ch in enumerate(state.board.alphabet.letters)}
        mask = 0
        for ch in set(racks):
            mask |= 1 << codes[ch]
        return mask

    def _prepare(self, state: CrosswordState) -> tuple[np.ndarray, ...]:
        """Load ``state`` into the kernel's arrays and reset the search context and the table; the root
        position's arrays (to put back after a search stopped inside the tree)."""
        ws = self.ws
        letter_filter = self._letter_filter(state)
        ws.load(state, letter_filter)
        root = _root_of(ws)
        # a new generation of the table instead of clearing it (see the kernel's _tt_store); cleared when the
        # 5-bit generation wraps
        ws.generation = ws.generation % 31 + 1
        if ws.generation == 1 and ws.tt_used:  # a fresh table is zeros already (filling its 128 MB took ~0.46 s)
            ws.tt.fill(0)
            ws.lmemo.fill(0)  # its keys are the table's, salted by the generation: cleared as the table is
        ws.tt_used = True
        self._reset(ws, state, letter_filter, ws.generation, int(ws.salts[ws.generation]), self.options)
        return root

    def _reset(self, ws: _Workspace, state: CrosswordState, letter_filter: int, generation: int, salt: int, options: int) -> None:
        """The search context of ``ws`` for a new solve of ``state`` (loaded) in table generation ``generation`` with
        key salt ``salt`` (a helper takes the main thread's, so they share the table's entries)."""
        k = ws.k
        ws.cbuf.fill(0)  # its stamps are node counts, which start again
        ws.xmemo.fill(0)  # its keys hold no lexicon or letter filter
        sc = ws.sc
        # the line cache outlives the solve (its keys are exact): keep how full it is, reset the rest
        used, arena = int(sc[k.SC_CACHE_USED]), int(sc[k.SC_ARENA])
        sc[:] = 0
        sc[k.SC_CACHE_USED], sc[k.SC_ARENA] = used, arena
        ws.fr[:] = 0
        sc[k.SC_ACT] = k.ACT_ITER
        sc[k.SC_DEPTH] = 1
        sc[k.SC_MAX_DEPTH] = self.max_depth
        sc[k.SC_LIMIT] = self.limit
        sc[k.SC_NL] = ws.nl
        sc[k.SC_RACK_SIZE] = ws.rack_size
        sc[k.SC_BINGO] = self.referee.rules.bingo_bonus
        # with no limit only whether the last turn was scoreless matters (the second pass in a row ends the search)
        sc[k.SC_ROOT_SL] = state.scoreless if self.limit else min(state.scoreless, 1)
        sc[k.SC_FILTER] = letter_filter
        sc[k.SC_OPTS] = options
        sc[k.SC_JUMP] = self.jump
        sc[k.SC_WIN_LO], sc[k.SC_WIN_HI] = -k.INF, k.INF
        sc[k.SC_GEN], sc[k.SC_SALT] = generation, salt
        sc[k.SC_TILES] = int((ws.letters >= 0).sum())
        sc[k.SC_CENTRE] = self.referee.layout.centre[0] * self.referee.layout.cols + self.referee.layout.centre[1]

    def moves_after(self, state: CrosswordState, choices: list[int]) -> tuple[np.ndarray, np.ndarray]:
        """The move list the search builds for the player to move after ``choices`` from ``state`` (each an
        index in the then player's list, -1 a pass; players alternate), as the move generator's arrays
        (``meta`` rows: line, start, end, score; ``tiles``): the incremental board the search keeps, made
        visible for the tests. Empty arrays when a choice emptied a rack or was out of range."""
        ws, k = self.ws, self.ws.k
        self._prepare(state)
        n = ws.run(k.MODE_LIST, np.array(choices, np.int64))
        base = int(ws.sc[k.SC_ROOT_N])
        if ws.sc[k.SC_LIST_OUT] or n < 0:
            n = 0
        return ws.listed(base, n)

    def solve(self, state: CrosswordState) -> EndgameResult:
        """The best move for the player to move in ``state`` (two players, empty bag)."""
        _check_root(state, self.referee.rules)
        ws = self.ws
        ws.warm()  # one-time kernel load, before the clock
        for i in range(self.threads - 1):
            ws.helper(i).warm()
        ws.map_pages()  # and the buffers' pages, once per workspace
        t0 = time.perf_counter()
        c0 = self.clock()
        root = self._prepare(state)
        stop = threading.Event()
        helpers = self._start_helpers(state, stop)
        try:
            self._search(state, root, helpers, c0)
        finally:
            stop.set()
            for thread, _ in helpers:
                thread.join()
        return self._result(state, root, helpers, t0, c0)

    def _start_helpers(self, state: CrosswordState, stop: threading.Event) -> list[tuple[threading.Thread, _Workspace]]:
        """The helper threads (``threads - 1``), each searching ``state`` in its workspace until ``stop`` is set."""
        ws = self.ws
        out = []
        letter_filter = int(ws.sc[ws.k.SC_FILTER])  # the main thread's, just set by _prepare
        for i in range(self.threads - 1):
            hws = ws.helper(i)
            hws.load(state, letter_filter)
            self._reset(hws, state, letter_filter, ws.generation, int(ws.salts[ws.generation]), self.options | ws.k.OPT_HELPER)
            thread = threading.Thread(target=_helper_search, args=(hws, stop, ws), name=f"endgame-helper-{i}", daemon=True)
            thread.start()
            out.append((thread, hws))
        return out

    def _search(self, state: CrosswordState, root: tuple[np.ndarray, ...], helpers: list[tuple[threading.Thread, _Workspace]],
                c0: float) -> None:
        """The main thread's search, in slices of about :attr:`SLICE` seconds, until it ends, a helper proves the
        value, or the budget is spent."""
        ws, k = self.ws, self.ws.k
        sc = ws.sc
        deadline = c0 + self.time_limit if self.time_limit is not None else None
        budget = self.node_limit if self.node_limit is not None else 2**62
        chunk = 200
        if self.on_best is not None:
            sc[k.SC_OPTS] |= k.OPT_PAUSE_ITER
        told_depth = 0
        while True:
            nodes_before, t_call = int(sc[k.SC_NODES]), self.clock()
            sc[k.SC_STOP] = min(budget, nodes_before + chunk)
            ws.run(k.MODE_SEARCH)
            spent = self.clock() - t_call
            chunk = _next_slice(int(sc[k.SC_NODES]) - nodes_before, spent)
            status = int(sc[k.SC_STATUS])
            if self.on_nodes is not None:
                self.on_nodes(int(sc[k.SC_NODES]))
            if self.on_best is not None and status == k.ST_PAUSED and sc[k.SC_ACT] == k.ACT_ITER and sc[k.SC_DONE_DEPTH] > told_depth:
                told_depth = int(sc[k.SC_DONE_DEPTH])
                self.on_best(self._iteration_best(state.board), int(sc[k.SC_VALUE]), told_depth)
            if status == k.ST_ERROR:
                if int(sc[k.SC_ERROR]) != k.ERR_MOVE_BUFFER:
                    raise RuntimeError(f"endgame search: internal buffer error {int(sc[k.SC_ERROR])}")
                # a longer move buffer, and the iteration again from the root (the table keeps what was found)
                ws.set_move_buffer(4 * ws.moves[0].shape[0])
                self._restore(root)
                sc[k.SC_ERROR] = 0
                sc[k.SC_ACT] = k.ACT_ITER
                continue
            if status == k.ST_DONE or int(sc[k.SC_NODES]) >= budget:
                break
            proof = next((h.sc for _, h in helpers if h.sc[k.SC_STATUS] == k.ST_DONE and h.sc[k.SC_PROVEN]), None)
            if proof is not None:
                # a helper proved the value: its answer (the root's list is the same in every thread)
                for f in (k.SC_VALUE, k.SC_BEST, k.SC_PROVEN, k.SC_DONE_DEPTH):
                    sc[f] = proof[f]
                break
            if (deadline is not None and self.clock() >= deadline) or (self.halted is not None and self.halted()):
                break

    def _result(self, state: CrosswordState, root: tuple[np.ndarray, ...], helpers: list[tuple[threading.Thread, _Workspace]],
                t0: float, c0: float) -> EndgameResult:
        """The answer of the search just run (and :attr:`stats`)."""
        ws, k = self.ws, self.ws.k
        sc = ws.sc
        done_depth, proven = int(sc[k.SC_DONE_DEPTH]), bool(sc[k.SC_PROVEN])
        by_helper = proven and int(sc[k.SC_STATUS]) != k.ST_DONE
        root_n = int(sc[k.SC_ROOT_N])
        best = int(sc[k.SC_BEST])
        value = int(sc[k.SC_VALUE])
        board = state.board
        self._restore(root)
        move = None
        if best >= 0:
            root_n = self._root_moves()
            meta, tiles = ws.listed(best, 1)
            move = self._placement(board, meta[0], tiles[0])
        pv = self._pv(state, MAX_DEPTH if proven else done_depth) if done_depth else ()
        self.stats = {"nodes": int(sc[k.SC_NODES]), "leaves": int(sc[k.SC_LEAVES]), "move_lists": int(sc[k.SC_ASSEMBLIES]),
                      "line_generations": int(sc[k.SC_LINE_GENS]), "line_cache_hits": int(sc[k.SC_CACHE_HITS]),
                      "table_cutoffs": int(sc[k.SC_TT_CUTS]), "table_cutoffs_before_the_move": int(sc[k.SC_PROBE_CUTS]), "root_moves": root_n, "passes": int(sc[k.SC_PASSES]), "re_searches": int(sc[k.SC_RESEARCHES]),
                      "cuts": {"first_move": int(sc[k.SC_CUT_FIRST]), "later_move": int(sc[k.SC_CUT_LATER]), "pass": int(sc[k.SC_CUT_PASS]),
                               "exact_on_entry": int(sc[k.SC_CUT_EXACT]), "bound": int(sc[k.SC_BOUND_CUTS]), "opponent_out": int(sc[k.SC_OPP_CUTS]), "leave": int(sc[k.SC_LEAVE_CUTS]),
                               "leave_memo": int(sc[k.SC_LEAVE_MEMO_HITS]), "leave_inherited": int(sc[k.SC_INHERIT_CUTS])},
                      "all_nodes": int(sc[k.SC_ALL_NODES]), "all_node_children": int(sc[k.SC_ALL_CHILDREN]),
                      "nodes_by_iteration": self._iterations(),
                      "cpu_seconds": round(self.clock() - c0, 3) if self.clock is time.thread_time else None,
                      "threads": self.threads, "helper_nodes": sum(int(h.sc[k.SC_NODES]) for _, h in helpers),
                      "helper_root_alphas_taken": sum(int(h.sc[k.SC_BORROWS]) for _, h in helpers),
                      "proven_by_helper": by_helper}
        return EndgameResult(move, value, proven, done_depth, int(sc[k.SC_NODES]), time.perf_counter() - t0, pv)

    def _iteration_best(self, board: Board) -> CrosswordAction:
        """The best move of the iteration just completed, read while the search pauses at the root between two
        iterations (``OPT_PAUSE_ITER``): the root's list is made again (the line cache has it) and the search
        context put back, but for the line cache's own fields, which the listing may have moved on."""
        ws, k = self.ws, self.ws.k
        sc = ws.sc
        saved = sc.copy()
        self._root_moves()
        best = int(saved[k.SC_BEST])
        move = None
        if best >= 0:
            meta, tiles = ws.listed(best, 1)
            move = self._placement(board, meta[0], tiles[0])
        cache = [k.SC_CACHE_USED, k.SC_ARENA, k.SC_CACHE_CLEARS, k.SC_CACHE_HITS, k.SC_LINE_GENS, k.SC_ASSEMBLIES]
        moved = sc[cache].copy()
        sc[:] = saved
        sc[cache] = moved
        return _action_of(move)

    def _iterations(self) -> list[list[int]]:
        """[depth, nodes] of each completed iteration (depth 200: the one to the end of the game)."""
        marks = self.ws.fr[:, self.ws.k.F_ITER_NODES]
        done = [(d, int(marks[d])) for d in range(1, len(marks)) if marks[d] > 0]
        return [[d, n - (done[i - 1][1] if i else 0)] for i, (d, n) in enumerate(done)]

    def _restore(self, root: tuple[np.ndarray, ...]) -> None:
        """The root position back in the board arrays (after a search stopped inside the tree)."""
        _restore_root(self.ws, root)

    def _root_moves(self) -> int:
        """The root's move list into the move buffer (from index 0); its length."""
        return self.ws.run(self.ws.k.MODE_LIST)

    def _placement(self, board: Board, meta: np.ndarray, row: np.ndarray) -> Placement:
        from kubasolve.games.crossword.movegen import _placement

        text = board.flat()[2]
        geo = self.ws.geo
        return _placement(text, geo.line_cells, geo.line_dir, self.referee.layout.cols, meta.tolist(), row.tolist(),
                          self.referee.rules.rack_size, self.referee.lexicon.alphabet.letters)

    def _pv(self, state: CrosswordState, depth: int) -> tuple[str, ...]:
        """The principal variation: the table's best move from the root on, as far as the table holds one
        (at most ``depth`` moves: a proven line may be longer than the depth searched, since a pass forced
        on a player without a placement costs no depth)."""
        from kubasolve.games.crossword.notation import format_placement

        ws, k = self.ws, self.ws.k
        board = state.board
        out: list[str] = []
        choices: list[int] = []
        sl = state.scoreless
        forced_before = False
        for _ in range(depth):
            n = ws.run(k.MODE_LIST, np.array(choices, np.int64))
            if ws.sc[k.SC_LIST_OUT]:  # the last move emptied a rack: the game is over
                break
            mv, base = int(ws.sc[k.SC_LIST_TT]), int(ws.sc[k.SC_ROOT_N])
            if mv == k.PASS:
                out.append("pass")
                if self._pass_ends(sl):
                    break
                sl += 1
                if forced_before and self.options & k.OPT_STUCK_PASS:
                    # a pass after the opponent's forced one is valued, not searched (the kernel's OPT_STUCK_PASS):
                    # nobody places a tile any more, the passes run to the end of the game
                    while not self._pass_ends(sl):
                        out.append("pass")
                        sl += 1
                    out.append("pass")
                    break
            elif mv >= 0:
                meta, tiles = ws.listed(base + mv, 1)
                p = self._placement(board, meta[0], tiles[0])
                out.append(f"{format_placement(p.row, p.col, p.direction, p.word, p.tiles)} +{p.score}")
                board = board.with_tiles(p.tiles)
                sl = 0
            else:
                break
            choices.append(mv)
            forced_before = n == 0
        return tuple(out)

    def _pass_ends(self, scoreless: int) -> bool:
        """Whether a pass at this scoreless count ends the game (with the setting off: the second pass in a row)."""
        return scoreless + 1 >= self.limit if self.limit else scoreless >= 1


def _next_slice(nodes: int, spent: float) -> int:
    """The nodes of the next kernel call, from the last one's ``nodes`` in ``spent`` seconds: about
    :attr:`EndgameSolver.SLICE` seconds of search, so a stop or the budget's end is seen that soon."""
    return max(100, min(1_000_000, int((nodes + 1) * EndgameSolver.SLICE / max(spent, 1e-4))))


def _share_root_alpha(helper: _Workspace, main: _Workspace) -> None:
    """The main thread's iteration and root alpha, for ``helper``'s root to take (kernel docstring, item 10): read while
    the main thread runs (single aligned words; a value one slice old is still a value it found)."""
    k = helper.k
    helper.sc[k.SC_SHARED_DEPTH] = main.sc[k.SC_DEPTH]
    helper.sc[k.SC_SHARED_ALPHA] = main.fr[0, k.F_ALPHA]


def _helper_search(ws: _Workspace, stop: threading.Event, main: _Workspace) -> None:
    """A helper thread's search (:class:`EndgameSolver`'s ``threads``): slices of about :attr:`EndgameSolver.SLICE`
    seconds (the kernel runs without the GIL, so the main thread's join waits at most one) until ``stop`` is set or
    its search ends; a full move buffer is made larger as in the main thread, any other error ends the helper (the
    main thread's search does not depend on it)."""
    k = ws.k
    sc = ws.sc
    root = _root_of(ws)
    chunk = 200
    while not stop.is_set():
        nodes_before, t_call = int(sc[k.SC_NODES]), time.perf_counter()
        sc[k.SC_STOP] = nodes_before + chunk
        _share_root_alpha(ws, main)
        ws.run(k.MODE_SEARCH)
        chunk = _next_slice(int(sc[k.SC_NODES]) - nodes_before, time.perf_counter() - t_call)
        status = int(sc[k.SC_STATUS])
        if status == k.ST_DONE:
            return
        if status == k.ST_ERROR:
            if int(sc[k.SC_ERROR]) != k.ERR_MOVE_BUFFER:
                return
            ws.set_move_buffer(4 * ws.moves[0].shape[0])
            _restore_root(ws, root)
            sc[k.SC_ERROR] = 0
            sc[k.SC_ACT] = k.ACT_ITER


def _board_arrays(ws: _Workspace) -> tuple[np.ndarray, ...]:
    """The arrays of ``ws`` a search changes and puts back: board, cross-sets, racks."""
    return (ws.letters, ws.blank, ws.vob, ws.xmask, ws.xscore, ws.cnt, ws.rs)


def _root_of(ws: _Workspace) -> tuple[np.ndarray, ...]:
    """A copy of ``ws``'s board arrays at the root (for :func:`_restore_root`)."""
    return tuple(a.copy() for a in _board_arrays(ws))


def _restore_root(ws: _Workspace, root: tuple[np.ndarray, ...]) -> None:
    """The root position back in ``ws``'s board arrays (after a search stopped inside the tree)."""
    k = ws.k
    for dst, src in zip(_board_arrays(ws), root, strict=True):
        dst[...] = src
    ws.sc[k.SC_UNDO] = 0
    ws.sc[k.SC_PLY] = 0
    ws.sc[k.SC_TILES] = int((ws.letters >= 0).sum())


def _check_root(state: CrosswordState, rules: CrosswordRules) -> None:
    """Refuse a root the solvers cannot search (RulesError): not two players, tiles in the bag, the game over
    (also by its count of scoreless turns), a rack larger than the rules' (the kernel's rack keys have room for
    no more)."""
    if state.n_players != 2:
        raise RulesError("the endgame solver is for two players")
    if state.bag:
        raise RulesError("the endgame solver needs an empty bag")
    if state.over:
        raise RulesError("the game is over")
    limit = rules.scoreless_limit(2)
    if state.scoreless < 0 or (limit and state.scoreless >= limit):
        raise RulesError(f"the game is over: {state.scoreless} scoreless turns in a row, and the rules end it at {limit}")
    for who, rack in zip(("the player to move", "the opponent"), (state.racks[state.current], state.racks[1 - state.current])):
        if len(rack) > rules.rack_size:
            raise RulesError(f"{who} holds {len(rack)} tiles ({rack}), more than a rack of {rules.rack_size}")


def solve_endgame(referee: Referee, state: CrosswordState, *, time_limit: float | None = None, node_limit: int | None = None,
                  max_depth: int | None = None, max_nodes: int | None = None, movetime_ms: float | None = None,
                  halted: Callable[[], bool] | None = None, on_best: Callable[[CrosswordAction, int, int], None] | None = None,
                  on_nodes: Callable[[int], None] | None = None, threads: int = 1, jump: int = DEFAULT_JUMP) -> EndgameResult:
    """Solve the endgame of ``state`` (two players, empty bag) within the budget; see :class:`EndgameSolver`
    (``threads``: search threads sharing the table; ``jump``: its shallow iterations).
    ``max_nodes`` / ``movetime_ms`` are the library's budget names (docs/engine.md); ``node_limit`` /
    ``time_limit`` (seconds) their older names here; giving both names of one budget is refused."""
    if max_nodes is not None:
        if node_limit is not None:
            raise RulesError("give max_nodes or its older name node_limit, not both")
        node_limit = max_nodes
    if movetime_ms is not None:
        if time_limit is not None:
            raise RulesError("give movetime_ms or its older name time_limit (seconds), not both")
        if not (isinstance(movetime_ms, (int, float)) and movetime_ms > 0):
            raise RulesError(f"movetime_ms must be a number of milliseconds > 0, got {movetime_ms!r}")
        time_limit = movetime_ms / 1000
    return EndgameSolver(referee, time_limit=time_limit, node_limit=node_limit, max_depth=max_depth, halted=halted,
                         on_best=on_best, on_nodes=on_nodes, threads=threads, jump=jump).solve(state)


def state_from_cgp(referee: Referee, text: str) -> CrosswordState:
    """A two-player, empty-bag state from a CGP line: the player to move's rack first; the opponent's
    rack is the second rack, or (if absent) every tile not on the board or the first rack. Refused
    (PositionError) unless the tiles add up to the tile set with an empty bag."""
    from collections import Counter

    from kubasolve.errors import PositionError
    from kubasolve.games.crossword.notation import parse_cgp

    layout, tiles = referee.layout, referee.tiles
    pos = parse_cgp(text, layout.rows, layout.cols)
    board = Board.from_rows(list(pos.rows), referee.lexicon.alphabet)
    if len(pos.racks) > 2:
        raise PositionError("the endgame solver is for two players (the CGP holds more racks)")
    mover = pos.racks[0]
    if not mover:
        raise PositionError("the CGP gives no rack for the player to move")
    size = referee.rules.rack_size
    for who, rack in zip(("the player to move", "the opponent"), pos.racks):
        if len(rack) > size:
            raise PositionError(f"the CGP's rack of {who}, {rack!r}, has {len(rack)} tiles, at most {size}")
    limit = referee.rules.scoreless_limit(2)
    if limit and pos.scoreless >= limit:
        raise PositionError(f"the game is over: the CGP counts {pos.scoreless} scoreless turns in a row, and the rules end it at {limit}")
    on_board = Counter(BLANK if ch.islower() else ch for row in pos.rows for ch in row if ch != ".")
    unseen = Counter(tiles.counts) - on_board - Counter(mover)
    opp = pos.racks[1] if len(pos.racks) > 1 and pos.racks[1] else sort_rack("".join(unseen.elements()))
    if len(opp) > referee.rules.rack_size:
        raise PositionError(f"the bag is not empty: {len(opp)} tiles unseen, more than a rack of {referee.rules.rack_size}")
    extra = on_board + Counter(mover) + Counter(opp) - Counter(tiles.counts)
    if extra:
        raise PositionError(f"more tiles than the {tiles.name!r} set holds: {sort_rack(''.join(extra.elements()))}")
    bag = Counter(tiles.counts) - on_board - Counter(mover) - Counter(opp)
    if bag:
        raise PositionError(f"the bag is not empty ({sum(bag.values())} tiles unaccounted for): the endgame solver needs both racks known")
    if not opp:
        raise PositionError("the opponent has no tiles: the game is over")
    scores = tuple(pos.scores) if len(pos.scores) == 2 else (pos.scores[0] if pos.scores else 0, 0)
    return CrosswordState(referee.rules, 0, 2, board, "", (sort_rack(mover), sort_rack(opp)), scores, 0,
                          scoreless=pos.scoreless)


def selfplay_endgames(referee: Referee, games: int, seed: int = 0, skip: int = 0) -> list[CrosswordState]:
    """The first position with an empty bag of ``games`` equity-vs-equity games (dealt from
    ``seed``, ``seed + 1``, ...), or the position ``skip`` turns later (the highest-scoring move
    played meanwhile): the test set of the proof-time measurement."""
    from kubasolve.games.crossword.ai import EquityPolicy, ScorePolicy

    policies = [EquityPolicy(endgame=False), EquityPolicy(endgame=False)]
    out = []
    for k in range(games):
        state = referee.new_game(seed + k, 2)
        while not state.over and state.bag:
            state = referee.apply(state, policies[state.current].turn(referee, state))
        for _ in range(skip):
            if state.over:
                break
            state = referee.apply(state, ScorePolicy().turn(referee, state))
        if not state.over:
            out.append(state)
    return out


def endgame_duel(referee: Referee, states: list[CrosswordState], first: str, second: str) -> list[int]:
    """For each position: the mover's final spread gain when AI ``first`` plays the mover's side and
    ``second`` the other, minus the same with the seats swapped (positive: ``first`` plays the
    endgame better). AIs by name (``equity``, ``equity:bounded``, ``equity:NODES``, ...)."""
    from kubasolve.games.crossword.ai import make_policy

    def playout(state: CrosswordState, mover_ai: str, other_ai: str) -> int:
        p = state.current
        ais = {p: make_policy(mover_ai), 1 - p: make_policy(other_ai)}
        end = state
        while not end.over:
            end = referee.apply(end, ais[end.current].turn(referee, end))
        return (end.scores[p] - end.scores[1 - p]) - (state.scores[p] - state.scores[1 - p])

    return [playout(st, first, second) - playout(st, second, first) for st in states]


def _main(argv: list[str] | None = None) -> int:
    """``python -m kubasolve.games.crossword.endgame --games N --seed S --time-limit T [--skip K]``: solve
    the bag-empty positions of N equity self-play games (or K turns later); one JSON line per position
    on stdout, the distribution of proof times on stderr."""
    import argparse
    import json
    import sys

    from kubasolve.lexicon import load_lexicon

    ap = argparse.ArgumentParser(prog="python -m kubasolve.games.crossword.endgame", description=_main.__doc__)
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--time-limit", type=float, default=10.0)
    ap.add_argument("--skip", type=int, default=0, help="solve the position this many turns after the bag empties")
    ap.add_argument("--lexicon", default="nl")
    ap.add_argument("--duel", metavar="A,B", default=None,
                    help="instead: play each endgame out with AI A against B and with the seats swapped; print A's mean gain")
    args = ap.parse_args(argv)
    referee = Referee(load_lexicon(args.lexicon))
    if args.duel:
        import statistics

        first, second = args.duel.split(",")
        states = selfplay_endgames(referee, args.games, args.seed, args.skip)
        gains = endgame_duel(referee, states, first, second)
        for st, g in zip(states, gains, strict=True):
            print(json.dumps({"seed": st.seed, "racks": [st.rack(), st.racks[1 - st.current]], "gain": g}), flush=True)
        mean = statistics.fmean(gains)
        half = 1.96 * statistics.stdev(gains) / len(gains) ** 0.5 if len(gains) > 1 else float("nan")
        print(f"{first} vs {second}: mean spread gain {mean:+.2f} [{mean - half:+.2f}, {mean + half:+.2f}] (95%, normal) over "
              f"{len(gains)} endgames; better in {sum(g > 0 for g in gains)}, equal in {sum(g == 0 for g in gains)}, "
              f"worse in {sum(g < 0 for g in gains)}", file=sys.stderr)
        return 0
    times = []
    for state in selfplay_endgames(referee, args.games, args.seed, args.skip):
        res = solve_endgame(referee, state, time_limit=args.time_limit)
        row = {"seed": state.seed, "racks": [state.rack(), state.racks[1 - state.current]], **res.to_dict()}
        print(json.dumps(row), flush=True)
        times.append(res.seconds if res.proven else float("inf"))
    n = len(times)
    times.sort()
    for limit in (0.1, 1.0, 10.0):
        k = sum(t <= limit for t in times)
        print(f"proven within {limit:g} s: {k}/{n}", file=sys.stderr)
    if n:
        print("proof time median: " + (f"{times[n // 2]:.2f} s" if times[n // 2] != float("inf") else f"> {args.time_limit:g} s"),
              file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(_main())
