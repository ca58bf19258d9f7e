"""The compiled endgame search (kubasolve.kernels.crossword_endgame) against slow, obviously correct references.

- The board the search keeps incrementally (tiles placed and taken back, cross-sets recomputed only next to
  new tiles, moves cached per line and rack) gives, after any sequence of placements and passes, exactly the
  move generator's list on a board built from scratch (hypothesis, on the stored bag-empty positions).
- Every search option gives the brute-force minimax value (tests/crossword/test_endgame.py's reference).
- The old solver (LegacyEndgameSolver, an independent implementation) proves the same values on real
  self-play endgames.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from kubasolve.bench.crossword_scenarios import endgame_positions
from kubasolve.games.crossword.endgame import EndgameSolver, LegacyEndgameSolver, state_from_cgp
from kubasolve.games.crossword.game import CrosswordState, Referee, take_from_rack
from kubasolve.games.crossword.movegen import move_arrays
from kubasolve.games.crossword.rules import CrosswordRules
from kubasolve.kernels import crossword_endgame as kernel
from kubasolve.lexicon import Lexicon
from tests.crossword.test_endgame import LETTERS, brute_spread, endgame_state


@pytest.fixture(scope="module")
def nl_referee(nl_lexicon):
    return Referee(nl_lexicon)


@pytest.fixture(scope="module")
def stored():
    return endgame_positions()


def test_stored_positions_are_the_measured_set(nl_referee, stored):
    """40 positions, two racks, an empty bag: the set the proof counts of docs/crossword.md refer to."""
    assert len(stored) == 40 and [seed for seed, _ in stored] == list(range(100, 140))
    for _, cgp in stored:
        state = state_from_cgp(nl_referee, cgp)
        assert not state.bag and len(state.racks[0]) == 7 and 1 <= len(state.racks[1]) <= 7


@settings(max_examples=10, deadline=None)
@given(index=st.integers(0, 39), picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=6))
def test_incremental_move_lists_equal_the_generator(nl_referee, stored, index, picks):
    ref = nl_referee
    state = state_from_cgp(ref, stored[index][1])
    solver = EndgameSolver(ref)
    board = state.board
    racks = [state.racks[0], state.racks[1]]
    choices: list[int] = []
    for r, pick in enumerate(picks):
        mover = r % 2
        meta, tiles = solver.moves_after(state, choices)
        want_meta, want_tiles = move_arrays(board, racks[mover], ref.lexicon, ref.layout, ref.tiles, bingo_bonus=ref.rules.bingo_bonus)
        assert np.array_equal(meta, want_meta) and np.array_equal(tiles, want_tiles), (index, choices)
        if pick % 5 == 0 or len(meta) == 0:
            choices.append(-1)  # a pass
            continue
        j = pick % len(meta)
        placed = solver._placement(board, meta[j], tiles[j])
        if len(placed.tiles) == len(racks[mover]):
            break  # going out ends the game
        board = board.with_tiles(placed.tiles)
        racks[mover] = take_from_rack(racks[mover], "".join(ch for _, _, ch in placed.tiles))
        choices.append(j)


def test_a_cache_that_overflows_keeps_the_lists_right(nl_referee, stored):
    """A tiny line cache and arena, refilled from scratch many times within and between solves: the lists
    the search sees stay the generator's, and consecutive solves keep proving the same values."""
    ref = nl_referee
    small = {"cache_bits": 10, "arena_moves": 6000}
    for index in (9, 18):
        state = state_from_cgp(ref, stored[index][1])
        want = EndgameSolver(ref).solve(state)
        for _ in range(3):
            solver = EndgameSolver(ref, **small)
            res = solver.solve(state)
            assert solver.ws.sc[kernel.SC_CACHE_CLEARS] > 0
            assert (res.proven, res.value, res.nodes) == (True, want.value, want.nodes)
            meta, tiles = solver.moves_after(state, [])
            want_meta, want_tiles = move_arrays(state.board, state.racks[0], ref.lexicon, ref.layout, ref.tiles)
            assert np.array_equal(meta, want_meta) and np.array_equal(tiles, want_tiles)


@pytest.fixture(scope="module")
def word_pool(nl_lexicon):
    allowed = set(LETTERS)
    return sorted(w for w in nl_lexicon if 2 <= len(w) <= 5 and set(w) <= allowed)


ALL = (kernel.OPT_FORCED_PASS_FREE | kernel.OPT_PLACE_TABLE | kernel.OPT_ASPIRATION | kernel.OPT_STUCK_PASS | kernel.OPT_PROBE_FIRST
       | kernel.OPT_LAST_TILE | kernel.OPT_LEAN_TABLE | kernel.OPT_PAIR_BOUND | kernel.OPT_LAST_OUT | kernel.OPT_OPP_OUT
       | kernel.OPT_PASS_BOUND)


@pytest.mark.parametrize(("options", "jump"), [(0, 0), (kernel.OPT_FORCED_PASS_FREE, 0), (kernel.OPT_PLACE_TABLE, 0),
                                                (kernel.OPT_STUCK_PASS, 0), (kernel.OPT_PROBE_FIRST, 0), (kernel.OPT_LAST_TILE, 0),
                                                (kernel.OPT_STUCK_PASS | kernel.OPT_LAST_TILE, 0),
                                                (kernel.OPT_PLACE_TABLE | kernel.OPT_LEAN_TABLE, 0), (kernel.OPT_PAIR_BOUND, 0),
                                                (kernel.OPT_LAST_TILE | kernel.OPT_LAST_OUT, 0), (kernel.OPT_OPP_OUT, 0),
                                                (kernel.OPT_STUCK_PASS | kernel.OPT_PAIR_BOUND | kernel.OPT_PASS_BOUND, 0),
                                                (ALL, 1), (ALL, 2)])
@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), a=st.integers(1, 3), b=st.integers(1, 3), limit=st.sampled_from([1, 2, 6]))
def test_every_option_gives_the_brute_force_value(word_pool, options, jump, seed, a, b, limit):
    """The default is checked by test_endgame.py; here each option alone, none, and all with an early jump to
    the end of the game (so the aspiration window of that iteration is used and re-searched)."""
    rng = random.Random(seed)
    lex = Lexicon.from_words(rng.sample(word_pool, min(len(word_pool), 150)), name=f"kernel{seed}")
    referee = Referee(lex, CrosswordRules(scoreless_turns_end=limit))
    state = endgame_state(referee, rng, 2, (a, b), 0, False)
    res = EndgameSolver(referee, options=options, jump=jump).solve(state)
    assert res.proven and res.value == brute_spread(referee, state, {})


@pytest.mark.parametrize("index", [9, 18])
def test_old_and_new_solvers_prove_the_same_value(nl_referee, stored, index):
    state = state_from_cgp(nl_referee, stored[index][1])
    new = EndgameSolver(nl_referee).solve(state)
    old = LegacyEndgameSolver(nl_referee).solve(state)
    assert new.proven and old.proven and new.value == old.value
    after = nl_referee.apply(state, new.action())  # the move is legal
    assert after.turn == state.turn + 1


def test_time_budget_in_cpu_seconds_and_stats(nl_referee, stored):
    """A thread-CPU clock for measurements on a busy machine; the counters the bench reports."""
    import time

    solver = EndgameSolver(nl_referee, time_limit=0.2, clock=time.thread_time)
    res = solver.solve(state_from_cgp(nl_referee, stored[0][1]))
    assert not res.proven and res.depth >= 2 and res.nodes == solver.stats["nodes"]
    assert solver.stats["move_lists"] > 0 and solver.stats["line_generations"] > 0 and solver.stats["root_moves"] > 0


def test_table_generations_keep_budgeted_answers_identical(nl_referee, stored):
    """The table is not cleared between solves (each solve salts its keys and writes its generation; a slot of
    another generation counts as free) and is cleared when the 5-bit generation wraps: a node-budgeted answer
    is the same whatever was solved before, over more than 31 solves."""
    state = state_from_cgp(nl_referee, stored[0][1])
    first = EndgameSolver(nl_referee, node_limit=3000).solve(state)
    other = state_from_cgp(nl_referee, stored[5][1])
    for i in range(33):
        EndgameSolver(nl_referee, node_limit=500).solve(other if i % 2 else state)
        res = EndgameSolver(nl_referee, node_limit=3000).solve(state)
        assert (res.move, res.value, res.depth, res.nodes, res.pv) == (first.move, first.value, first.depth, first.nodes, first.pv)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), a=st.integers(2, 3), limit=st.sampled_from([0, 1, 2, 6]))
def test_a_stuck_opponent_s_passes_are_valued_not_searched(word_pool, seed, a, limit):
    """The opponent holds only a Q, which no word of the lexicon holds (their turns are forced passes): with
    OPT_STUCK_PASS the mover's pass after such a forced pass is valued, not searched; the brute-force value and
    no more passes searched than without the option."""
    rng = random.Random(seed)
    lex = Lexicon.from_words(rng.sample(word_pool, min(len(word_pool), 150)), name=f"stuck{seed}")
    referee = Referee(lex, CrosswordRules(scoreless_turns_end=limit))
    state = endgame_state(referee, rng, 2, (a, 1), 0, False)
    state = CrosswordState(referee.rules, 0, 2, state.board, "", (state.racks[0], "Q"), (0, 0), 0)
    base = kernel.OPT_FORCED_PASS_FREE | kernel.OPT_PLACE_TABLE
    without = EndgameSolver(referee, options=base)
    with_ = EndgameSolver(referee, options=base | kernel.OPT_STUCK_PASS)
    res, res0 = with_.solve(state), without.solve(state)
    assert res.proven and res0.proven and res.value == res0.value == brute_spread(referee, state, {})
    assert with_.stats["passes"] <= without.stats["passes"]
    # and with the one-tile options (the mover's last tile after the Q holder's forced pass valued in place)
    last = EndgameSolver(referee, options=base | kernel.OPT_STUCK_PASS | kernel.OPT_LAST_TILE | kernel.OPT_LEAN_TABLE).solve(state)
    assert last.proven and last.value == res.value


@pytest.mark.parametrize("index", [9, 18, 38])
def test_probing_the_table_before_a_move_changes_no_node_nor_answer(nl_referee, stored, index):
    """OPT_PROBE_FIRST takes a child's table cut-off without making the move: the same nodes (counted alike), the
    same table cut-offs, value, move and principal variation."""
    state = state_from_cgp(nl_referee, stored[index][1])
    runs, early = [], []
    for options in (11, 11 | kernel.OPT_PROBE_FIRST):
        solver = EndgameSolver(nl_referee, options=options)
        res = solver.solve(state)
        runs.append((res.proven, res.value, res.move, res.pv, res.nodes, solver.stats["table_cutoffs"], solver.stats["cuts"]))
        early.append(solver.stats["table_cutoffs_before_the_move"])
    assert runs[0] == runs[1] and runs[0][0]
    assert early[0] == 0 < early[1] <= runs[1][5]


BOUNDS = kernel.OPT_PAIR_BOUND | kernel.OPT_LAST_OUT | kernel.OPT_OPP_OUT | kernel.OPT_PASS_BOUND


def _bound_case(word_pool, name, seed, sizes, q, blank, limit):
    """(referee, endgame state, brute-force value) of a random small endgame: racks of ``sizes`` tiles, the second
    one's first tile a Q when ``q`` (no word of the pool takes it: stuck), ``limit`` scoreless turns end the game."""
    rng = random.Random(seed)
    lex = Lexicon.from_words(rng.sample(word_pool, min(len(word_pool), 150)), name=name)
    referee = Referee(lex, CrosswordRules(scoreless_turns_end=limit))
    state = endgame_state(referee, rng, 2, sizes, 0, blank)
    if q:
        state = CrosswordState(referee.rules, 0, 2, state.board, "", (state.racks[0], "Q" + state.racks[1][1:]), (0, 0), 0)
    return referee, state, brute_spread(referee, state, {})


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), a=st.integers(1, 3), b=st.integers(1, 2), q=st.booleans(), limit=st.sampled_from([0, 1, 2, 6]))
def test_the_true_bounds_give_the_brute_force_value(word_pool, seed, a, b, q, limit):
    """The cut-offs on true bounds (a two-tile mover's value were the opponent to pass throughout, also valued at a
    forced pass to it, a one-tile mover's going out, the opponent's going out after the move): the brute-force value
    with each alone and all together, also where the opponent holds a Q no word takes (stuck, its turns forced passes)."""
    referee, state, want = _bound_case(word_pool, f"bounds{seed}", seed, (a, b), q, False, limit)
    for options in (123 | kernel.OPT_PAIR_BOUND, 123 | kernel.OPT_LAST_OUT, 123 | kernel.OPT_OPP_OUT,
                    123 | kernel.OPT_PAIR_BOUND | kernel.OPT_PASS_BOUND, 123 | BOUNDS, BOUNDS):
        res = EndgameSolver(referee, options=options).solve(state)
        assert res.proven and res.value == want, options


@pytest.mark.parametrize("index", [7, 13, 21, 31])
def test_the_true_bounds_cut_and_keep_the_values(nl_referee, stored, index):
    """On stored positions the bounds cut (the counters) and the proven value is that of the search without them,
    in fewer nodes."""
    state = state_from_cgp(nl_referee, stored[index][1])
    without = EndgameSolver(nl_referee, options=123)
    with_ = EndgameSolver(nl_referee, options=123 | BOUNDS)
    res0, res = without.solve(state), with_.solve(state)
    assert res0.proven and res.proven and res.value == res0.value
    assert with_.stats["cuts"]["bound"] + with_.stats["cuts"]["opponent_out"] > 0 and res.nodes <= res0.nodes
    # the per-square scratch of the two-tile bound is stamped with node counts, which start again each solve: a
    # solve after others is the same solve
    with_.solve(state_from_cgp(nl_referee, stored[(index + 1) % 40][1]))
    again = with_.solve(state)
    assert (again.value, again.move, again.nodes) == (res.value, res.move, res.nodes)


def _root_list(referee: Referee, state: CrosswordState) -> tuple[Any, ...]:
    """The root's move list as the search holds it: the solver, the generator's arrays, the workspace, the list's first
    row in the move buffer, the buffer's (line, start, end, score) and auxiliary rows, the arena's tiles."""
    solver = EndgameSolver(referee)
    meta, tiles = solver.moves_after(state, [])
    ws = solver.ws
    return solver, meta, tiles, ws, int(ws.sc[kernel.SC_ROOT_N]), ws.moves[0], ws.moves[1], ws.cache[3]


def _root_kept(referee: Referee, state: CrosswordState) -> tuple[Any, ...]:
    """:func:`_root_list` with the root mover's tiles and their best one-tile scores kept in the root's frame (as the
    search keeps them before a leave bound: ``_keep_b1``), and the opponent's rack value last."""
    solver, meta, tiles, ws, base, pm_meta, pm_aux, ar_tiles = _root_list(referee, state)
    i64 = np.int64
    kernel._keep_b1(i64(0), i64(base), i64(len(meta)), i64(0), ws.fr, ws.cnt, pm_meta, pm_aux, ar_tiles, ws.static[1], i64(ws.nl), True)
    return solver, meta, tiles, ws, base, pm_meta, pm_aux, ar_tiles, int(ws.rs[1, kernel.R_VALUE])


def _one_tile_best(referee: Referee, board, rack: str) -> int | None:
    """The best score of a one-tile play of ``rack`` (one tile) on ``board`` by the move generator; None: no play."""
    from kubasolve.games.crossword.movegen import generate_moves

    moves = generate_moves(board, rack, referee.lexicon, referee.layout, referee.tiles).moves
    return max((m.score for m in moves), default=None)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), a=st.integers(2, 4), n_moves=st.integers(1, 3), blank=st.booleans())
def test_the_leave_one_bound_against_the_generator_after_the_move(word_pool, seed, a, n_moves, blank):
    """OPT_LEAVE_ONE's bound on a placement that leaves the mover one tile ``t``, against the move generator on the
    board after the placement (built from scratch): at least ``score + max(vo - value(t), best one-tile play of t
    there + 2 vo)`` (the mover's best were the opponent to pass: a true bound), and at most that with the best
    one-tile play of ``t`` on the board before the move counted too (the bound takes that for the squares the move
    leaves alone, and is exact on the others)."""
    rng = random.Random(seed)
    lex = Lexicon.from_words(rng.sample(word_pool, min(len(word_pool), 150)), name=f"leave{seed}")
    referee = Referee(lex)
    state = endgame_state(referee, rng, n_moves, (a, 2), 0, blank)
    solver, meta, tiles, ws, base, pm_meta, pm_aux, ar_tiles, vo = _root_kept(referee, state)
    g, lines, line_len, line_dir, cell_line, cell_pos, lmult, wmult, val = ws.static[:9]
    i64 = np.int64
    rack = state.racks[0]
    before = {ch: _one_tile_best(referee, state.board, ch) for ch in set(rack)}
    for j in range(len(meta)):
        if int((tiles[j] >= 0).sum()) != len(rack) - 1:
            continue
        placed = solver._placement(state.board, meta[j], tiles[j])
        rest = take_from_rack(rack, "".join(ch for _, _, ch in placed.tiles))
        vt = referee.tiles.values[rest]
        score = int(meta[j, 3])
        after = _one_tile_best(referee, state.board.with_tiles(placed.tiles), rest)
        low = score + max(vo - vt, -10**6 if after is None else after + 2 * vo)
        best_any = max((x for x in (after, before[rest]) if x is not None), default=None)
        high = score + max(vo - vt, -10**6 if best_any is None else best_any + 2 * vo)

        def bound(alpha: int, j: int = j) -> int:
            return int(kernel._leave_one_bound(i64(0), i64(base + j), i64(0), i64(vo), i64(alpha), ws.fr, ws.cnt, pm_meta, pm_aux,
                                               ar_tiles, ws.letters, ws.vob, ws.xmask, ws.xscore, lines, line_len, line_dir,
                                               cell_line, cell_pos, lmult, wmult, g, val, i64(ws.nl), i64(ws.sc[kernel.SC_FILTER]),
                                               i64(0)))

        # just below the true bound: the plays after the move are checked against the lexicon (the bound is tight)
        ub = bound(low - 1)
        assert low <= ub <= high, (j, placed, rest, low, ub, high)
        # any alpha: at or below it (the move is cut) a true bound, maybe the lexicon-free one; above it (the move is
        # searched) no more than the tight one
        for alpha in (kernel.INF, high, low, (low + high) // 2, low - 5):
            ub = bound(alpha)
            assert (ub <= alpha and ub >= low) or (ub > alpha and ub <= high), (j, alpha, low, ub, high)
    # the board arrays are as they were (the move's tiles were on them for a moment only)
    meta2, tiles2 = solver.moves_after(state, [])
    assert np.array_equal(meta, meta2) and np.array_equal(tiles, tiles2)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), a=st.integers(2, 3), b=st.integers(1, 2), q=st.booleans(), blank=st.booleans(),
       limit=st.sampled_from([0, 1, 2, 6]))
def test_the_leave_one_cut_gives_the_brute_force_value(word_pool, seed, a, b, q, blank, limit):
    """OPT_LEAVE_ONE and OPT_LEAVE_TWO alone, with the other true bounds and with the default options (with and without
    the leave memo): the brute-force value, also for a three-tile mover against an opponent holding only a Q that no
    word takes (stuck)."""
    referee, state, want = _bound_case(word_pool, f"leaveone{seed}", seed, (a, b), q, blank, limit)
    for options in (123 | kernel.OPT_LEAVE_ONE, 123 | kernel.OPT_LEAVE_TWO, 123 | BOUNDS | kernel.OPT_LEAVE_ONE,
                    3067 | kernel.OPT_LEAVE_ONE | kernel.OPT_LEAVE_TWO,
                    3067 | kernel.OPT_LEAVE_ONE | kernel.OPT_LEAVE_TWO | kernel.OPT_LEAVE_MEMO):
        res = EndgameSolver(referee, options=options).solve(state)
        assert res.proven and res.value == want, options


def _one_player(referee: Referee, board, rack: str, vo: int) -> int:
    """The mover's best spread were the opponent to pass throughout (brute force): stop (``vo - rack``), or a play
    then the rest (going out: ``+ 2 vo``)."""
    from kubasolve.games.crossword.movegen import generate_moves

    best = vo - sum(referee.tiles.values[ch] for ch in rack)
    for m in generate_moves(board, rack, referee.lexicon, referee.layout, referee.tiles).moves:
        rest = take_from_rack(rack, "".join(ch for _, _, ch in m.tiles))
        best = max(best, m.score + (2 * vo if not rest else _one_player(referee, board.with_tiles(m.tiles), rest, vo)))
    return best


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**32), n_moves=st.integers(1, 3), blank=st.booleans())
def test_the_leave_two_bound_is_at_least_the_one_player_value_after_the_move(word_pool, seed, n_moves, blank):
    """OPT_LEAVE_TWO's bound on a one-tile placement of a three-tile mover is at least ``score +`` the mover's best
    with the two tiles left on the board after it were the opponent to pass throughout (brute force through the move
    generator on that board built from scratch): a true bound, with the plays touching the new tile on both sides."""
    rng = random.Random(seed)
    lex = Lexicon.from_words(rng.sample(word_pool, min(len(word_pool), 150)), name=f"leave2{seed}")
    referee = Referee(lex)
    state = endgame_state(referee, rng, n_moves, (3, 2), 0, blank)
    solver, meta, tiles, ws, base, pm_meta, pm_aux, ar_tiles, vo = _root_kept(referee, state)
    g, lines, line_len, _, cell_line, cell_pos, lmult, wmult, val = ws.static[:9]
    i64 = np.int64
    kernel._keep_leave_two(i64(0), i64(base), i64(len(meta)), i64(0), ws.fr, ws.cnt, pm_meta, pm_aux, ar_tiles, lines, i64(ws.nl),
                           ws.cbuf, i64(1 << 40))
    rack = state.racks[0]
    for j in range(len(meta)):
        if int((tiles[j] >= 0).sum()) != 1:
            continue
        placed = solver._placement(state.board, meta[j], tiles[j])
        rest = take_from_rack(rack, "".join(ch for _, _, ch in placed.tiles))
        want = int(meta[j, 3]) + _one_player(referee, state.board.with_tiles(placed.tiles), rest, vo)
        for alpha in (kernel.INF, want, want - 1, want + 3, want - 10):
            # at or below alpha it is a true bound (a cut), whichever pass settled it (the lexicon-free first or the exact)
            ub = kernel._leave_two_bound(i64(0), i64(base + j), i64(0), i64(vo), i64(alpha), ws.fr, ws.cnt, pm_meta, pm_aux,
                                         ar_tiles, ws.letters, ws.vob, ws.xmask, ws.xscore, lines, line_len, cell_line, cell_pos,
                                         lmult, wmult, g, val, i64(ws.nl), i64(ws.sc[kernel.SC_FILTER]), ws.lh, ws.xmemo)
            assert ub > alpha or ub >= want, (j, placed, rest, want, alpha, ub)
    meta2, tiles2 = solver.moves_after(state, [])
    assert np.array_equal(meta, meta2) and np.array_equal(tiles, tiles2)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**32), n_moves=st.integers(1, 4), blank=st.booleans(), four=st.booleans())
def test_the_leave_two_data_keeps_the_one_tile_bests_in_its_own_pass(word_pool, seed, n_moves, blank, four):
    """At a three- or four-tile mover's node the search keeps each tile's best one-tile score in the leave-two data's pass
    over the list (``_keep_b1`` without its own scan): the same bests as ``_keep_b1``'s scan."""
    rng = random.Random(seed)
    lex = Lexicon.from_words(rng.sample(word_pool, min(len(word_pool), 300)), name=f"keepb1{seed}")
    referee = Referee(lex)
    state = endgame_state(referee, rng, n_moves, (4 if four else 3, 2), 0, blank)
    _, meta, _, ws, base, pm_meta, pm_aux, ar_tiles, _ = _root_kept(referee, state)
    lines = ws.static[1]
    i64 = np.int64
    want = ws.fr[0, kernel.F_B1N : kernel.F_B1 + 16].copy()  # _root_kept scanned the list
    kernel._keep_b1(i64(0), i64(base), i64(len(meta)), i64(0), ws.fr, ws.cnt, pm_meta, pm_aux, ar_tiles, lines, i64(ws.nl), False)
    m = int(ws.fr[0, kernel.F_B1N])
    assert all(ws.fr[0, kernel.F_B1 + 2 * i + 1] == -kernel.INF for i in range(m))  # the tiles only
    if four:
        kernel._keep_leave_two_four(i64(0), i64(base), i64(len(meta)), ws.fr, pm_meta, pm_aux, ar_tiles, lines, i64(ws.nl), ws.cbuf,
                                    i64(1 << 40))
    else:
        kernel._keep_leave_two(i64(0), i64(base), i64(len(meta)), i64(0), ws.fr, ws.cnt, pm_meta, pm_aux, ar_tiles, lines,
                               i64(ws.nl), ws.cbuf, i64(1 << 40))
    assert np.array_equal(ws.fr[0, kernel.F_B1N : kernel.F_B1 + 16], want)
    assert m == len(set(state.racks[0]))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), n_moves=st.integers(2, 5), blank=st.booleans(), pair=st.booleans())
def test_the_four_tile_leave_two_bound_is_at_least_the_one_player_value_after_the_move(word_pool, seed, n_moves, blank, pair):
    """OPT_LEAVE_TWO_FOUR's bound on a two-tile placement of a four-tile mover is at least ``score +`` the mover's best
    with the two tiles left on the board after it were the opponent to pass throughout (brute force through the move
    generator on that board built from scratch): a true bound, with the plays touching the new tiles (across them,
    parallel to them, through them along their line) counted."""
    rng = random.Random(seed)
    lex = Lexicon.from_words(rng.sample(word_pool, min(len(word_pool), 400)), name=f"leave2four{seed}")
    referee = Referee(lex)
    state = endgame_state(referee, rng, n_moves, (4, 2), 0, blank)
    if pair:  # a rack with a repeated tile (the leave may be a pair)
        rack = state.racks[0]
        state = CrosswordState(referee.rules, 0, 2, state.board, "", (rack[0] + rack[0:3], state.racks[1]), (0, 0), 0)
    solver, meta, tiles, ws, base, pm_meta, pm_aux, ar_tiles, vo = _root_kept(referee, state)
    g, lines, line_len, line_dir, cell_line, cell_pos, lmult, wmult, val = ws.static[:9]
    i64 = np.int64
    kernel._keep_leave_two_four(i64(0), i64(base), i64(len(meta)), ws.fr, pm_meta, pm_aux, ar_tiles, lines, i64(ws.nl), ws.cbuf,
                                i64(1 << 40))
    rack = state.racks[0]
    checked = 0
    for j in range(len(meta)):
        if int((tiles[j] >= 0).sum()) != 2:
            continue
        placed = solver._placement(state.board, meta[j], tiles[j])
        rest = take_from_rack(rack, "".join(ch for _, _, ch in placed.tiles))
        want = int(meta[j, 3]) + _one_player(referee, state.board.with_tiles(placed.tiles), rest, vo)
        for alpha in (kernel.INF, want, want - 1, want + 3, want - 10):
            ub = kernel._leave_two_four_bound(i64(0), i64(base + j), i64(0), i64(vo), i64(alpha), ws.fr, ws.cnt, pm_meta, pm_aux,
                                              ar_tiles, ws.letters, ws.vob, ws.xmask, ws.xscore, lines, line_len, line_dir,
                                              cell_line, cell_pos, lmult, wmult, g, val, i64(ws.nl), i64(ws.sc[kernel.SC_FILTER]),
                                              ws.lh, ws.xmemo)
            # at or below alpha it is a true bound (a cut); above it the move is searched
            assert ub > alpha or ub >= want, (j, placed, rest, want, alpha, ub)
        checked += 1
    assume(checked > 0)  # (a rack with no two-tile placement tells nothing)
    meta2, tiles2 = solver.moves_after(state, [])
    assert np.array_equal(meta, meta2) and np.array_equal(tiles, tiles2)


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), b=st.integers(1, 2), q=st.booleans(), blank=st.booleans(), limit=st.sampled_from([0, 1, 6]))
def test_the_four_tile_leave_two_cut_gives_the_brute_force_value(word_pool, seed, b, q, blank, limit):
    """OPT_LEAVE_TWO_FOUR alone and with the default options (with and without the leave memo): the brute-force value of a
    four-tile mover's endgame, also against an opponent holding a Q that no word takes (stuck)."""
    referee, state, want = _bound_case(word_pool, f"leave2four{seed}", seed, (4, b), q, blank, limit)
    for options in (123 | kernel.OPT_LEAVE_TWO_FOUR, 3067 | kernel.OPT_LEAVE_ONE | kernel.OPT_LEAVE_TWO | kernel.OPT_LEAVE_TWO_FOUR,
                    3067 | kernel.OPT_LEAVE_ONE | kernel.OPT_LEAVE_TWO | kernel.OPT_LEAVE_TWO_FOUR | kernel.OPT_LEAVE_MEMO,
                    3067 | kernel.OPT_LEAVE_ONE | kernel.OPT_LEAVE_TWO | kernel.OPT_LEAVE_TWO_FOUR | kernel.OPT_LEAVE_INHERIT,
                    3067 | kernel.OPT_LEAVE_ONE | kernel.OPT_LEAVE_TWO | kernel.OPT_LEAVE_TWO_FOUR | kernel.OPT_LEAVE_MEMO
                    | kernel.OPT_LEAVE_INHERIT):
        res = EndgameSolver(referee, options=options).solve(state)
        assert res.proven and res.value == want, options


@pytest.mark.parametrize("index", [4, 21])
def test_the_one_tile_child_key_is_the_child_key(nl_referee, stored, index):
    """The leave memo's key of a one-tile placement (``_one_tile_child_key``) is ``_child_key``'s for every one-tile
    placement of a stored position's root, so the three- and four-tile movers' cuts share one key space."""
    state = state_from_cgp(nl_referee, stored[index][1])
    _, meta, _, ws, base, pm_meta, pm_aux, ar_tiles = _root_list(nl_referee, state)
    zb, zrw, zs = ws.static[9], ws.static[11], ws.static[12]
    i64 = np.int64
    ones = [j for j in range(len(meta)) if pm_aux[base + j, kernel.A_NTILES] == 1]
    mover = i64(ws.sc[kernel.SC_ROOT_MOVER])
    assert ones and ws.cnt[mover].sum() > 0
    for j in ones:
        args = (i64(base + j), mover, ws.bkey[0], pm_meta, pm_aux, ar_tiles, ws.static[1], zb, ws.cnt, ws.rs, zrw, zs, ws.sc)
        assert kernel._one_tile_child_key(*args) == kernel._child_key(*args)


@pytest.mark.parametrize("index", [4, 21])
def test_the_leave_memo_cuts_by_position_and_keeps_the_values(nl_referee, stored, index):
    """OPT_LEAVE_MEMO on stored positions: some three-tile movers' one-tile moves are cut from the bound found for their
    position the other way round (counted among the leave cuts), the proven value and its move those of the search
    without the memo, and a solve after another the same solve (the memo is cleared)."""
    from kubasolve.games.crossword.endgame import DEFAULT_OPTIONS

    state = state_from_cgp(nl_referee, stored[index][1])
    assert DEFAULT_OPTIONS & kernel.OPT_LEAVE_MEMO
    with_ = EndgameSolver(nl_referee)
    without = EndgameSolver(nl_referee, options=DEFAULT_OPTIONS & ~kernel.OPT_LEAVE_MEMO)
    res, res0 = with_.solve(state), without.solve(state)
    assert res.proven and res0.proven and res.value == res0.value
    cuts = with_.stats["cuts"]
    assert 0 < cuts["leave_memo"] <= cuts["leave"] and without.stats["cuts"]["leave_memo"] == 0
    with_.solve(state_from_cgp(nl_referee, stored[(index + 1) % 40][1]))
    again = with_.solve(state)
    assert (again.value, again.move, again.nodes) == (res.value, res.move, res.nodes)


def test_the_prefetch_hint_compiles_and_changes_nothing():
    """The search asks for the next move's leave memo slot ahead (``_prefetch_row``, an LLVM prefetch): compiled code that
    calls it on any row reads the same values, and the array is unchanged."""
    from numba import njit

    @njit
    def read_with_hints(a, rows):
        total = 0
        for i in range(rows.shape[0]):
            if i + 1 < rows.shape[0]:
                kernel._prefetch_row(a, rows[i + 1])
            total += a[rows[i], 0] - a[rows[i], 1]
        return total

    a = np.arange(2 * 4096, dtype=np.int64).reshape(-1, 2)
    before = a.copy()
    rows = np.random.default_rng(7).integers(0, 4096, 1000)
    assert read_with_hints(a, rows) == int((a[rows, 0] - a[rows, 1]).sum()) == -1000
    assert np.array_equal(a, before)


def test_the_memo_keys_of_placed_tiles_are_distinct_inside_compiled_code():
    """The leave-two bounds' memo keys (``_placed_key``) of every square and tile, computed as the kernel does from the
    board's int8 / int32 arrays: all distinct (a first form, ``_mix((cell << 8) + t + K2)``, gave one value for all of
    them inside compiled code with numba 0.68, so different plays shared memo entries)."""
    from numba import njit

    @njit(cache=False)
    def keys(cells, tiles):  # pragma: no cover - compiled
        out = np.empty(cells.shape[0] * tiles.shape[0], np.int64)
        i = 0
        for a in range(cells.shape[0]):
            for b in range(tiles.shape[0]):
                out[i] = kernel._placed_key(np.int64(cells[a]), np.int64(tiles[b]))
                i += 1
        return out

    cells = np.arange(225, dtype=np.int32)
    tiles = np.array([*range(27), *range(64, 64 + 27)], dtype=np.int8)
    got = keys(cells, tiles)
    assert len(set(got.tolist())) == len(got)
    assert int(got[5]) == int(kernel._placed_key(np.int64(0), np.int64(5)))  # the same key called from Python


def test_the_endgame_bench_runs_the_solver_on_threads():
    """``endgames --threads 2``: the records carry the helpers' nodes and the wall time, the summary its clock."""
    from kubasolve.bench.crossword_scenarios import endgame_proofs

    records: list[dict] = []
    report = endgame_proofs(5.0, cpu_clock=True, positions=[3, 9], on_result=records.append, threads=2)
    assert report["threads"] == 2 and report["clock"] == "process CPU / 2" and report["new"]["proven"] == 2
    assert [r["index"] for r in records] == [3, 9] and all(r["stats"]["threads"] == 2 and r["wall_seconds"] > 0 for r in records)
    one_records: list[dict] = []
    one = endgame_proofs(5.0, cpu_clock=True, positions=[3, 9], on_result=one_records.append, threads=1)
    assert one["clock"] == "thread CPU" and one["new"]["proven"] == 2
    # the positions valued: the nodes entered and the children the bounds valued at their parent
    cut = sum(r["stats"]["cuts"]["opponent_out"] + r["stats"]["cuts"]["leave"] for r in one_records)
    assert cut > 0 and one["new"]["positions_valued"] == one["new"]["nodes"] + cut
    assert one["new"]["positions_valued_per_s"] > one["new"]["nodes_per_s"]
    with pytest.raises(ValueError, match="one thread"):
        endgame_proofs(5.0, legacy=True, positions=[3], threads=2)


def test_the_endgame_bench_solves_the_set_in_rounds(capsys):
    """``endgames --rounds R``: the set solved R times, round after round, each record with its round; the summary's
    per-round proof counts and the positions proven in every / some round; fewer than one round is a usage error."""
    from kubasolve.bench.crossword_scenarios import _endgames_main, _round_summary, endgame_proofs

    records: list[dict] = []
    report = endgame_proofs(5.0, cpu_clock=True, positions=[3, 9], on_result=records.append, rounds=2)
    assert [(r["round"], r["index"]) for r in records] == [(1, 3), (1, 9), (2, 3), (2, 9)]
    assert [r["value"] for r in records[:2]] == [r["value"] for r in records[2:]]
    assert report["rounds"] == {"rounds": 2, "proven": [2, 2], "proven_every_round": 2, "proven_some_round": 2, "unsteady": {}}
    assert report["new"]["proven"] == 4  # the solves of all rounds
    assert "rounds" not in endgame_proofs(5.0, cpu_clock=True, positions=[3])
    # a position proven in some rounds only is listed with its time per round (None: not proven in the budget)
    recs = [{"round": k, "index": i, "proven": ok, "seconds": t}
            for k, i, ok, t in [(1, 0, False, 10.0), (1, 2, True, 9.5), (1, 5, True, 0.1), (2, 0, False, 10.0), (2, 2, False, 10.0),
                                (2, 5, True, 0.2), (3, 0, False, 10.0), (3, 2, True, 9.9), (3, 5, True, 0.1)]]
    assert _round_summary(recs, 3) == {"rounds": 3, "proven": [2, 1, 2], "proven_every_round": 1, "proven_some_round": 2,
                                       "unsteady": {"2": [9.5, None, 9.9]}}
    with pytest.raises(SystemExit) as exc:
        _endgames_main(["--positions", "3", "--rounds", "0"])
    assert exc.value.code == 2 and "--rounds: 1 or more" in capsys.readouterr().err


def test_the_endgame_bench_on_fresh_positions_and_another_jump(capsys):
    """``endgames --fresh SEED GAMES --jump J``: new self-play endgames instead of the stored set, the solver's shallow
    iterations as asked (the proven values the same whatever the jump); an index outside the set is a usage error."""
    from kubasolve.bench.crossword_scenarios import _endgames_main, endgame_proofs

    default, other = [], []
    report = endgame_proofs(20.0, cpu_clock=True, on_result=default.append, fresh=(7, 2))
    assert report["set"] == "fresh: 2 games from seed 7" and report["jump"] == 5 and report["positions"] >= 1
    endgame_proofs(20.0, cpu_clock=True, on_result=other.append, fresh=(7, 2), jump=2)
    assert [r["seed"] for r in default] == [r["seed"] for r in other] and all(7 <= r["seed"] < 9 for r in default)
    assert [r["value"] for r in default if r["proven"]] == [r["value"] for r in other if r["proven"]]
    assert any(r["proven"] for r in default)
    with pytest.raises(SystemExit) as exc:
        _endgames_main(["--positions", "99", "--time-limit", "1"])
    assert exc.value.code == 2 and "indices 0 to 39" in capsys.readouterr().err


def test_the_endgame_bench_takes_fresh_positions_later_in_the_game(capsys, nl_referee):
    """``endgames --fresh SEED GAMES --skip K``: each game's position K turns after its bag emptied (fewer tiles on the
    racks than the first bag-empty one); ``--skip`` without ``--fresh`` is a usage error."""
    from kubasolve.bench.crossword_scenarios import _endgames_main, _selfplay_table, endgame_proofs

    later: list[dict] = []
    report = endgame_proofs(20.0, cpu_clock=True, on_result=later.append, fresh=(7, 2), skip=2)
    assert report["set"] == "fresh: 2 games from seed 7, 2 turns after the bag emptied" and later
    assert all(r["proven"] for r in later)

    def tiles_on_racks(skip: int) -> dict[int, int]:
        return {seed: len(cgp.split()[1]) - 1 for seed, cgp in _selfplay_table(nl_referee, 2, 7, skip)}

    first, two_later = tiles_on_racks(0), tiles_on_racks(2)
    assert {r["seed"] for r in later} == set(two_later) and set(two_later) <= set(first)
    assert all(two_later[seed] < first[seed] for seed in two_later)
    with pytest.raises(SystemExit) as exc:
        _endgames_main(["--skip", "2", "--positions", "3"])
    assert exc.value.code == 2 and "--skip: 0 or more, with --fresh" in capsys.readouterr().err


def test_the_endgame_bench_times_a_reference_workload_when_asked(monkeypatch):
    """``endgames --calibrate``: the same fixed workload timed before and after the solves, in the summary; without it no
    such entry (and no extra time)."""
    from kubasolve.bench import crossword_scenarios

    monkeypatch.setattr(crossword_scenarios, "CALIBRATION_NODES", 20_000)
    report = crossword_scenarios.endgame_proofs(5.0, cpu_clock=True, positions=[3], calibrate=True)
    cal = report["calibration"]
    assert cal["position"] == crossword_scenarios.CALIBRATION_POSITION and cal["nodes"] == 20_000 and cal["jump"] == report["jump"]
    assert cal["cpu_seconds_before"] > 0 and cal["cpu_seconds_after"] > 0
    assert "calibration" not in crossword_scenarios.endgame_proofs(5.0, cpu_clock=True, positions=[3])


def test_the_endgame_bench_says_when_the_stored_set_is_missing(monkeypatch, capsys, tmp_path):
    """An installed package without the source checkout's positions: an error that says where they were looked for,
    exit 1, no traceback."""
    from kubasolve.bench import crossword_scenarios

    monkeypatch.setattr(crossword_scenarios, "ENDGAMES", tmp_path / "missing.jsonl")
    assert crossword_scenarios._endgames_main(["--positions", "0", "--time-limit", "1"]) == 1
    assert "the endgame positions are not here" in capsys.readouterr().err


def test_the_endgame_bench_refuses_a_fresh_set_without_positions(monkeypatch, capsys):
    """Self-play games that all end before their bag is empty give no position: a usage error that says so."""
    from kubasolve.bench import crossword_scenarios

    monkeypatch.setattr(crossword_scenarios, "_selfplay_table", lambda referee, games, seed, skip=0: [])
    with pytest.raises(SystemExit) as exc:
        crossword_scenarios._endgames_main(["--fresh", "7", "1"])
    assert exc.value.code == 2 and "no bag-empty position" in capsys.readouterr().err


FAKE_WOLGES = """#!/usr/bin/env python3
import json, pathlib, resource, sys, time
answers = json.loads((pathlib.Path(sys.argv[0]).parent / "answers.json").read_text())
rec = json.loads(pathlib.Path(sys.argv[2]).read_text())
rec["memory_limit"] = resource.getrlimit(resource.RLIMIT_AS)[0]
rec["path"] = sys.argv[2]
pathlib.Path(sys.argv[0]).with_name("asked.jsonl").open("a").write(json.dumps(rec) + "\\n")
a = answers[str(rec["id"])]
if "sleep" in a:
    time.sleep(a["sleep"])
if "fail" in a:
    sys.exit(a["fail"])
if "memory" in a:
    sys.stderr.write("memory allocation of 12884901888 bytes failed\\n")
    sys.exit(134)
print("after 10s, progress that is not data")
print("RESULT " + json.dumps({"id": rec["id"], "value": a["value"], "nodes": a["nodes"], "prune_s": 0.01, "solve_s": a["solve_s"]}))
"""


def _fake_wolges(tmp_path, answers):
    """A stand-in for wolges' ``nl_endgame`` where ``KUBASOLVE_WOLGES_DIR`` points: answers by position index."""
    import json
    import os

    binary = tmp_path / "wolges-endgame" / "target" / "release" / "nl_endgame"
    binary.parent.mkdir(parents=True)
    binary.write_text(FAKE_WOLGES)
    os.chmod(binary, 0o755)
    (binary.parent / "answers.json").write_text(json.dumps(answers))
    (tmp_path / "nl.kwg").write_bytes(b"")
    return binary.parent / "asked.jsonl"


def test_the_solver_proves_the_values_wolges_endgame_solver_proved(nl_lexicon):
    """Two independent exact solvers, one game: wolges' own endgame solver (its rule: two passes in a row end the game)
    proved these positions (``tests/crossword/data/wolges-endgame-values.jsonl``: 4 of the stored 40 and 36 smaller
    self-play endgames; how they were made in PROVENANCE.md there); the compiled solver under that rule proves the
    same values."""
    import json
    from pathlib import Path

    from kubasolve.bench.crossword_scenarios import WOLGES_SCORELESS_TURNS_END

    rows = [json.loads(line) for line in (Path(__file__).parent / "data" / "wolges-endgame-values.jsonl").read_text().splitlines()]
    assert len(rows) == 40 and len({r["cgp"] for r in rows}) == 40
    referee = Referee(nl_lexicon, CrosswordRules(scoreless_turns_end=WOLGES_SCORELESS_TURNS_END))
    for row in rows:
        res = EndgameSolver(referee, node_limit=1_000_000).solve(state_from_cgp(referee, row["cgp"]))
        assert res.proven and res.value == row["wolges_value"], row


def test_the_endgame_bench_runs_wolges_beside_the_solver_under_its_rule(monkeypatch, tmp_path, stored, nl_referee):
    """``endgames --wolges``: wolges' endgame solver (a stand-in here) on each position after the compiled solver, both
    under wolges' rule (two passes in a row end the game); its answer read from its RESULT line among other output, a
    solve stopped at the time limit (the process killed) or failing is not a proof, and the summary compares the proofs,
    the values where both prove and the times."""
    import json
    from pathlib import Path

    from kubasolve.bench import crossword_scenarios as cs

    monkeypatch.setenv("KUBASOLVE_WOLGES_DIR", str(tmp_path))
    asked = _fake_wolges(tmp_path, {"3": {"value": 55, "nodes": 4000, "solve_s": 0.5}, "9": {"sleep": 30}, "13": {"fail": 3},
                                    "18": {"memory": True}})
    records: list[dict] = []
    report = cs.endgame_proofs(1.0, cpu_clock=True, positions=[3, 9, 13, 18], on_result=records.append, wolges=True)
    assert [(r["solver"], r["index"]) for r in records] == [("new", 3), ("wolges", 3), ("new", 9), ("wolges", 9),
                                                             ("new", 13), ("wolges", 13), ("new", 18), ("wolges", 18)]
    ours = {r["index"]: r for r in records if r["solver"] == "new"}
    theirs = {r["index"]: r for r in records if r["solver"] == "wolges"}
    # the compiled solver played wolges' rule: the same value as a solver built with that rule
    two_passes = Referee(nl_referee.lexicon, CrosswordRules(scoreless_turns_end=2))
    alone = EndgameSolver(two_passes).solve(state_from_cgp(two_passes, stored[3][1]))
    assert ours[3]["proven"] and ours[3]["value"] == alone.value == 55
    assert theirs[3] == {"solver": "wolges", "round": 1, "index": 3, "seed": 103, "proven": True, "value": 55, "nodes": 4000,
                         "seconds": 0.51, "prune_seconds": 0.01}
    assert not theirs[9]["proven"] and theirs[9]["stopped"] == "time limit" and theirs[9]["seconds"] == 1.0
    assert not theirs[13]["proven"] and theirs[13]["stopped"].startswith("exit code 3")
    assert not theirs[18]["proven"] and theirs[18]["stopped"].startswith("memory")
    # what the stand-in was given: the board's rows, the mover's rack first
    sent = [json.loads(line) for line in asked.read_text().splitlines()]
    # its address space capped (it keeps every position it has seen)
    assert {r.pop("memory_limit") for r in sent} == {cs.WOLGES_MEMORY_BYTES}
    # the files it was given are gone with their folder
    paths = [Path(r.pop("path")) for r in sent]
    assert len(paths) == 4 and not any(path.exists() or path.parent.exists() for path in paths)
    state = state_from_cgp(nl_referee, stored[3][1])
    assert sent[0] == {"id": 3, "board": list(state.board.to_rows()),
                       "racks": [state.racks[state.current], state.racks[1 - state.current]]}
    w = report["wolges"]
    assert report["rules"].startswith("two passes in a row") and w["proven"] == 1 and w["positions_both_proved"] == 1
    assert w["proven_by_ours_not_wolges"] == 3 and w["proven_by_wolges_not_ours"] == 0
    assert w["value_mismatches"] == [] and w["nodes"] == 4000 and w["nodes_per_s"] == 8000
    assert w["proof_time_wolges_over_ours_median"] == pytest.approx(0.51 / max(ours[3]["seconds"], 1e-4))
    # a value that differs is named
    wrong = dict(theirs[3], value=54)
    assert cs._wolges_summary([ours[3]], [wrong], 1.0)["value_mismatches"] == [3]


def test_the_endgame_bench_says_how_to_build_wolges(monkeypatch, tmp_path, capsys, stored, nl_referee):
    """``--wolges`` without its build: exit 1 with the two build commands, no traceback; with ``--legacy``: a usage
    error; a position wolges' solver cannot start from (a scoreless turn before it) is refused by name."""
    import dataclasses

    from kubasolve.bench import crossword_scenarios as cs

    monkeypatch.setenv("KUBASOLVE_WOLGES_DIR", str(tmp_path / "none"))
    assert cs._endgames_main(["--wolges", "--positions", "3", "--time-limit", "1"]) == 1
    assert "bash benchmarks/wolges_endgame/build.sh" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        cs._endgames_main(["--wolges", "--legacy", "--positions", "3"])
    assert exc.value.code == 2 and "one comparison at a time" in capsys.readouterr().err
    state = dataclasses.replace(state_from_cgp(nl_referee, stored[3][1]), scoreless=1)
    with pytest.raises(ValueError, match="no scoreless turn before it"):
        cs.wolges_endgame_record(state, 3)


def test_the_ais_endgame_turns_keep_their_jump(nl_referee, stored):
    """The AIs' endgame turns search as the ladders measured them (``AI_ENDGAME_JUMP`` 6), whatever the solver's own
    default (``DEFAULT_JUMP`` 5): the same move and node count as the solver with jump 6 under the same budget."""
    from kubasolve.games.crossword.ai import AI_ENDGAME_JUMP, solved_endgame_turn
    from kubasolve.games.crossword.endgame import DEFAULT_JUMP

    assert (AI_ENDGAME_JUMP, DEFAULT_JUMP) == (6, 5)
    state = state_from_cgp(nl_referee, stored[4][1])
    action, result = solved_endgame_turn(nl_referee, state, nodes=100_000)
    six = EndgameSolver(nl_referee, node_limit=100_000, jump=6).solve(state)
    five = EndgameSolver(nl_referee, node_limit=100_000, jump=5).solve(state)
    assert (result.nodes, result.value, result.depth, action) == (six.nodes, six.value, six.depth, six.action())
    assert (six.depth, five.depth) == (6, 5)  # within this budget jump 6 completes depth 6, jump 5 is in the last iteration


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), n_moves=st.integers(1, 5), blank=st.booleans())
def test_a_placement_whose_words_miss_a_tile_commutes_with_it(word_pool, seed, n_moves, blank):
    """OPT_LEAVE_INHERIT rests on ``_words_hold``: after a one-tile play ``x1``, a two-tile placement whose words (main
    word, runs across its tiles) do not hold ``x1``'s square is a placement of the board before ``x1`` with the same
    score, and ``x1`` after it scores what it scored before (the move generator on both boards, built from scratch)."""
    from kubasolve.games.crossword.movegen import generate_moves

    rng = random.Random(seed)
    lex = Lexicon.from_words(rng.sample(word_pool, min(len(word_pool), 400)), name=f"inherit{seed}")
    referee = Referee(lex)
    state = endgame_state(referee, rng, n_moves, (4, 2), 0, blank)
    board, rack = state.board, state.racks[0]

    def moves(on, tiles_of):
        return {tuple(sorted(m.tiles)): m.score for m in generate_moves(on, tiles_of, lex, referee.layout, referee.tiles).moves}

    ones = [(t, sc) for t, sc in moves(board, rack).items() if len(t) == 1]
    assume(ones)
    x1, x1_score = rng.choice(ones)
    (row, col, ch), = x1
    left = take_from_rack(rack, "?" if ch.islower() else ch)
    after = CrosswordState(referee.rules, 0, 2, board.with_tiles(x1), "", (left, state.racks[1]), (0, 0), 0)
    _, meta, tiles, ws, base, pm_meta, pm_aux, ar_tiles = _root_list(referee, after)
    lines, line_len, line_dir, cell_line, cell_pos = ws.static[1:6]
    square = np.int64(row * referee.layout.cols + col)
    before = moves(board, left)
    seen = [0, 0]
    for j in range(len(meta)):
        if pm_aux[base + j, kernel.A_NTILES] != 2:
            continue
        placed = tuple(sorted(EndgameSolver(referee)._placement(after.board, meta[j], tiles[j]).tiles))
        held = kernel._words_hold(np.int64(base + j), square, pm_meta, pm_aux, ar_tiles, ws.letters, lines, line_len, line_dir,
                                  cell_line, cell_pos)
        if not held:
            assert before.get(placed) == int(meta[j, 3]), (placed, x1)
            assert moves(board.with_tiles(placed), "?" if ch.islower() else ch).get(x1) == x1_score, (placed, x1)
        seen[held] += 1
    assume(seen[0] > 0)


@pytest.mark.parametrize("index", [12, 20])
def test_the_inherited_cuts_keep_the_values(nl_referee, stored, index):
    """OPT_LEAVE_INHERIT on stored positions: some three-tile movers' two-tile placements are cut from the four-tile node's
    bounds (counted apart from the leave cuts), with the proven value of the search without it."""
    from kubasolve.games.crossword.endgame import DEFAULT_OPTIONS

    state = state_from_cgp(nl_referee, stored[index][1])
    with_ = EndgameSolver(nl_referee, options=DEFAULT_OPTIONS | kernel.OPT_LEAVE_INHERIT)
    without = EndgameSolver(nl_referee, options=DEFAULT_OPTIONS & ~kernel.OPT_LEAVE_INHERIT)
    res, res0 = with_.solve(state), without.solve(state)
    assert res.proven and res0.proven and res.value == res0.value
    assert with_.stats["cuts"]["leave_inherited"] > 0 and without.stats["cuts"]["leave_inherited"] == 0


def test_the_helpers_order_alone_proves_a_stored_position_near_the_main_threads_node_count(nl_referee, stored):
    """The helper's order (OPT_HELPER: a fail-low node's other moves reversed, the root's from the worst), searched alone
    on one thread (deterministic): on stored position 23 it proves the main thread's value within 1.5x its nodes. Reversing
    the lists of movers of more than HELPER_REVERSE_TILES tiles too put late cut-offs last: over 600,000 nodes without a
    proof there, against 83,374 (7 December 2026)."""
    from kubasolve.games.crossword.endgame import DEFAULT_OPTIONS

    state = state_from_cgp(nl_referee, stored[23][1])
    main = EndgameSolver(nl_referee).solve(state)
    helper = EndgameSolver(nl_referee, options=DEFAULT_OPTIONS | kernel.OPT_HELPER, node_limit=600_000).solve(state)
    assert main.proven and helper.proven and helper.value == main.value
    assert helper.nodes <= 1.5 * main.nodes
