"""The exact endgame solver (kubasolve.games.crossword.endgame) against a slow, obviously correct minimax
that plays every placement and pass through the referee to the end of the game (the referee applies
the rules: going out, scoreless turns, rack adjustments), on small constructed endgames (1-3 tiles a
rack, small lexicons, hypothesis); the proven flag, the budgets and determinism; the AIs use it.

Issue 10: "an exact endgame search when the bag is empty"; "End: a player plays their last tile with
the bag empty, or no one can move any more [...]. Each player loses the value of the tiles left on their
rack; a player who went out gains the others' rack values."
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kubasolve.bench.crossword_scenarios import endgame_positions
from kubasolve.errors import KubasolveError, RulesError
from kubasolve.games.crossword.ai import EquityPolicy, ScorePolicy, SimPolicy, make_policy, policy_names
from kubasolve.games.crossword.board import Board
from kubasolve.games.crossword.endgame import EndgameSolver, LegacyEndgameSolver, solve_endgame, state_from_cgp
from kubasolve.games.crossword.game import CrosswordAction, CrosswordState, Referee, play_game
from kubasolve.games.crossword.movegen import generate_moves, move_arrays, raw_facts, raw_generator
from kubasolve.games.crossword.rules import CrosswordRules
from kubasolve.lexicon import Lexicon

LETTERS = "aeinorstdk"


@pytest.fixture(scope="module")
def word_pool(nl_lexicon):
    allowed = set(LETTERS)
    return sorted(w for w in nl_lexicon if 2 <= len(w) <= 5 and set(w) <= allowed)


def brute_spread(referee: Referee, state: CrosswordState, memo: dict) -> int:
    """Spread still to come for the player to move under perfect play: every placement and the pass,
    applied by the referee until the game is over (exponential; tiny endgames only)."""
    key = (tuple(state.board.to_rows()), state.racks, state.current, state.scoreless)
    if key in memo:
        return memo[key]
    p, q = state.current, 1 - state.current
    before = state.scores[p] - state.scores[q]
    actions = [CrosswordAction.place(m) for m in generate_moves(state.board, state.rack(), referee.lexicon, referee.layout,
                                                                referee.tiles).moves]
    actions.append(CrosswordAction("pass"))
    best = None
    for a in actions:
        after = referee.apply(state, a)
        gained = (after.scores[p] - after.scores[q]) - before
        v = gained if after.over else gained - brute_spread(referee, after, memo)
        best = v if best is None else max(best, v)
    memo[key] = best
    return best


def endgame_state(referee: Referee, rng: random.Random, n_moves: int, sizes: tuple[int, int], scoreless: int, blank: bool) -> CrosswordState:
    """A board reached by ``n_moves`` random legal placements, two small racks, an empty bag."""
    board = Board.empty(15, 15, referee.lexicon.alphabet)
    for _ in range(n_moves):
        rack = "".join(rng.choice(LETTERS.upper()) for _ in range(5))
        moves = generate_moves(board, rack, referee.lexicon, referee.layout, referee.tiles).moves
        if moves:
            board = board.with_tiles(rng.choice(moves).tiles)
    racks = ["".join(sorted(rng.choice(LETTERS.upper()) for _ in range(n))) for n in sizes]
    if blank:
        racks[0] = racks[0][1:] + "?"
    return CrosswordState(referee.rules, 0, 2, board, "", tuple(racks), (0, 0), 0, scoreless=scoreless)


@settings(max_examples=16, deadline=None)
@given(seed=st.integers(0, 2**32), n_moves=st.integers(1, 3), a=st.integers(1, 3), b=st.integers(1, 3),
       limit=st.sampled_from([1, 2, 3, 6]), scoreless=st.integers(0, 2), blank=st.booleans())
def test_solver_equals_brute_force_minimax(word_pool, seed, n_moves, a, b, limit, scoreless, blank):
    rng = random.Random(seed)
    lex = Lexicon.from_words(rng.sample(word_pool, min(len(word_pool), 150)), name=f"endgame{seed}")
    referee = Referee(lex, CrosswordRules(scoreless_turns_end=limit))
    state = endgame_state(referee, rng, n_moves, (a, b), min(scoreless, limit - 1), blank and a > 1)
    want = brute_spread(referee, state, {})
    res = solve_endgame(referee, state)
    assert res.proven
    assert res.value == want
    # the move it returns achieves that value
    after = referee.apply(state, res.action())
    gained = after.scores[0] - after.scores[1]
    assert (gained if after.over else gained - brute_spread(referee, after, {})) == want


@pytest.fixture(scope="module")
def tiny(word_pool):
    lex = Lexicon.from_words(word_pool[:400], name="endgame-tiny")
    return lex


def test_going_out_gains_twice_the_opponents_rack(tiny):
    """Rule: "a player who went out gains the others' rack values" (and they lose them): going out
    with the last tile is worth its score + 2 x the opponent's rack value."""
    referee = Referee(tiny, CrosswordRules())
    rng = random.Random(5)
    for _ in range(20):
        state = endgame_state(referee, rng, 2, (1, 3), 0, False)
        moves = generate_moves(state.board, state.rack(), tiny, referee.layout, referee.tiles).moves
        if moves:
            break
    res = solve_endgame(referee, state)
    opp = sum(referee.tiles.value(ch) for ch in state.racks[1])
    assert res.proven and res.move is not None
    assert res.value == max(m.score for m in moves) + 2 * opp
    assert res.value == brute_spread(referee, state, {})


def test_scoreless_turns_end_the_game_with_rack_penalties(tiny):
    """Rule setting scoreless_rounds_end (default 2: each player twice, 4 turns with two players): "no one can
    move any more" ends the game, each player losing their own rack value. Racks that fit nowhere: the value is
    the rack difference."""
    referee = Referee(tiny, CrosswordRules())
    board = Board.empty(15, 15, tiny.alphabet).with_tiles([(7, 7, "T"), (7, 8, "E")])
    # a Q and a Z fit nowhere with this lexicon (no word holds them)
    state = CrosswordState(referee.rules, 0, 2, board, "", ("Q", "ZZ"), (0, 0), 0, scoreless=0)
    res = solve_endgame(referee, state)
    assert res.proven and res.move is None
    assert res.value == 2 * referee.tiles.value("Z") - referee.tiles.value("Q")
    assert res.pv == ("pass",) * 4
    state3 = CrosswordState(referee.rules, 0, 2, board, "", ("Q", "ZZ"), (0, 0), 0, scoreless=3)
    assert solve_endgame(referee, state3).pv == ("pass",)


def test_with_scoreless_end_off_two_passes_in_a_row_end_the_search(tiny):
    """scoreless_rounds_end = 0 (off): the referee never ends a passing game (only its turn guard does);
    the solver treats two passes in a row as the end (the position repeats), documented in docs/crossword.md."""
    referee = Referee(tiny, CrosswordRules(scoreless_rounds_end=0))
    board = Board.empty(15, 15, tiny.alphabet).with_tiles([(7, 7, "T"), (7, 8, "E")])
    state = CrosswordState(referee.rules, 0, 2, board, "", ("Q", "ZZ"), (0, 0), 0)
    res = solve_endgame(referee, state)
    assert res.proven and res.move is None and res.pv == ("pass", "pass")
    assert res.value == 2 * referee.tiles.value("Z") - referee.tiles.value("Q")


def self_play_endgame(referee: Referee, seed: int) -> CrosswordState:
    rec = play_game([ScorePolicy(), ScorePolicy()], seed, referee)
    state = referee.new_game(seed, 2)
    for _, a in rec.actions:
        if not state.bag and not state.over:
            return state
        state = referee.apply(state, a)
    raise AssertionError("the game ended before the bag was empty")


@pytest.fixture(scope="module")
def nl_referee(nl_lexicon):
    return Referee(nl_lexicon)


@pytest.fixture(scope="module")
def big_endgame(nl_referee):
    return self_play_endgame(nl_referee, 21)


@pytest.mark.parametrize("seed", [3, 8])
def test_raw_generator_equals_move_arrays(nl_referee, seed):
    """The search's lean entry points give the public move arrays and their facts, on mid-game boards and an empty one."""
    import numpy as np

    ref = nl_referee
    gen = raw_generator(ref.lexicon, ref.layout, ref.tiles, bingo_bonus=ref.rules.bingo_bonus)
    facts = raw_facts(ref.lexicon, ref.layout, ref.tiles, bingo_bonus=ref.rules.bingo_bonus)
    solver = LegacyEndgameSolver(ref)
    state = ref.new_game(seed, 2)
    for turn in range(6):
        rack = state.rack()
        want_meta, want_tiles = move_arrays(state.board, rack, ref.lexicon, ref.layout, ref.tiles, bingo_bonus=ref.rules.bingo_bonus)
        counts, n_blanks = solver.rack_counts(rack)
        meta, tiles = gen(state.board.letters.reshape(-1).copy(), state.board.blank.reshape(-1).copy(), counts, n_blanks)
        assert np.array_equal(meta, want_meta) and np.array_equal(tiles, want_tiles), (seed, turn)
        assert len(meta) > 0
        # move_facts against plain numpy formulas
        from kubasolve.kernels.board_movegen import move_facts

        for rack_len in (len(rack), int((tiles >= 0).sum(axis=1).max())):
            scores, gains, outs, best_out, best_other = move_facts(meta, tiles, rack_len, solver.tile_values)
            placed = tiles >= 0
            want_gains = meta[:, 3] + np.where(placed, solver.tile_values[tiles.view(np.uint8)], 0).sum(axis=1)
            want_outs = placed.sum(axis=1) == rack_len
            assert np.array_equal(scores, meta[:, 3]) and np.array_equal(gains, want_gains) and np.array_equal(outs, want_outs)
            assert best_out == (int(np.argmax(np.where(want_outs, meta[:, 3], -10**9))) if want_outs.any() else -1)
            assert best_other == (int(np.argmax(np.where(want_outs, -10**9, want_gains))) if not want_outs.all() else -1)
        if turn > 0:
            # the kernel's facts mode (no move list) against move_facts on the full list, also for
            # short racks (going-out moves)
            for sub in (rack, rack[:3], rack[:1]):
                counts, n_blanks = solver.rack_counts(sub)
                flat = (state.board.letters.reshape(-1).copy(), state.board.blank.reshape(-1).copy())
                m, t = gen(*flat, counts, n_blanks)
                _, gains, _, best_out, best_other = move_facts(m, t, len(sub), solver.tile_values)
                want = (len(m), best_out, int(m[best_out, 3]) if best_out >= 0 else None,
                        best_other, int(gains[best_other]) if best_other >= 0 else None)
                count, i, si, j, gj = facts(*flat, counts, n_blanks)
                assert (count, i, si if i >= 0 else None, j, gj if j >= 0 else None) == want, (seed, turn, sub)
        state = ref.apply(state, ScorePolicy().turn(ref, state))


def test_node_budget_is_respected_and_deterministic(nl_referee, big_endgame):
    a = solve_endgame(nl_referee, big_endgame, node_limit=300)
    b = solve_endgame(nl_referee, big_endgame, node_limit=300)
    assert a.nodes <= 300 and not a.proven and a.depth >= 1
    assert (a.move, a.value, a.depth, a.nodes, a.pv) == (b.move, b.value, b.depth, b.nodes, b.pv)
    nl_referee.apply(big_endgame, a.action())


def test_library_budget_names(nl_referee, big_endgame):
    """max_nodes / movetime_ms (the library's budget names) are node_limit / time_limit; both names of one budget refused."""
    a = solve_endgame(nl_referee, big_endgame, max_nodes=300)
    b = solve_endgame(nl_referee, big_endgame, node_limit=300)
    assert (a.move, a.value, a.depth, a.nodes) == (b.move, b.value, b.depth, b.nodes) and a.nodes <= 300
    t0 = time.perf_counter()
    res = solve_endgame(nl_referee, big_endgame, movetime_ms=30)  # (its proof takes ~56k nodes, 0.2 s on one thread)
    assert time.perf_counter() - t0 < 0.03 + 0.5 and not res.proven
    with pytest.raises(RulesError, match="not both"):
        solve_endgame(nl_referee, big_endgame, max_nodes=5, node_limit=5)
    with pytest.raises(RulesError, match="movetime_ms"):
        solve_endgame(nl_referee, big_endgame, movetime_ms=-1)


def test_touching_the_buffers_empties_them_and_changes_no_answer(nl_referee, big_endgame):
    """The bench maps the buffers' pages before its clocks (``_Workspace.touch``): the table, leave memo and line cache
    end up empty, with their counters, and a node-budget solve after it is the same as before it."""
    solver = EndgameSolver(nl_referee, node_limit=3000)
    before = solver.solve(big_endgame)
    ws = solver.ws
    assert ws.sc[ws.k.SC_CACHE_USED] > 0 and ws.tt.any()
    ws.touch()
    assert ws.sc[ws.k.SC_CACHE_USED] == 0 and ws.sc[ws.k.SC_ARENA] == 0
    assert not ws.tt.any() and not ws.lmemo.any() and not ws.cache[0].any() and (ws.cache[3] == -1).all()
    after = EndgameSolver(nl_referee, node_limit=3000).solve(big_endgame)
    assert (after.move, after.value, after.nodes, after.depth) == (before.move, before.value, before.nodes, before.depth)


def test_time_budget_is_respected(nl_referee, big_endgame):
    solve_endgame(nl_referee, big_endgame, node_limit=50)  # the kernel loaded and the workspace made outside the clock
    t0 = time.perf_counter()
    res = solve_endgame(nl_referee, big_endgame, time_limit=0.03)  # (its proof takes ~56k nodes, 0.2 s on one thread)
    assert time.perf_counter() - t0 < 0.03 + 0.5  # one node's work and the answer's decoding past the limit
    assert not res.proven
    nl_referee.apply(big_endgame, res.action())


def test_time_budget_is_respected_on_two_threads(nl_referee):
    """The helper searches in slices of ~20 ms too, so the main thread's join at the budget's end waits at most one. (On
    stored position 0, which takes seconds to prove on two threads: ``big_endgame`` proves in 0.2-0.4 s since December
    2026, within the first slices of a loaded machine.)"""
    long_endgame = state_from_cgp(nl_referee, endgame_positions()[0][1])
    solve_endgame(nl_referee, long_endgame, node_limit=50, threads=2)  # the helper's workspace made outside the clock
    t0 = time.perf_counter()
    res = solve_endgame(nl_referee, long_endgame, time_limit=0.03, threads=2)
    assert time.perf_counter() - t0 < 0.03 + 0.5
    assert not res.proven
    nl_referee.apply(long_endgame, res.action())


def test_unfinished_search_is_not_proven_and_deeper_search_is(tiny):
    """proven is False when the depth horizon cut a line, True once every line reached the game's end."""
    referee = Referee(tiny, CrosswordRules())
    rng = random.Random(11)
    state = endgame_state(referee, rng, 3, (2, 3), 0, False)
    shallow = solve_endgame(referee, state, max_depth=1)
    full = solve_endgame(referee, state)
    assert not shallow.proven and shallow.depth == 1
    assert full.proven and full.depth > 1
    assert full.value == brute_spread(referee, state, {})


def test_one_node_gives_the_one_ply_answer(nl_referee, big_endgame):
    """One node: the root valued one ply deep (score + value of the tiles played, going out exact)."""
    res = solve_endgame(nl_referee, big_endgame, node_limit=1)
    assert res.depth == 1 and res.nodes == 1 and not res.proven and res.move is not None
    tiles = nl_referee.tiles
    mine, theirs = (sum(tiles.value(ch) for ch in r) for r in (big_endgame.rack(), big_endgame.racks[1 - big_endgame.current]))
    moves = generate_moves(big_endgame.board, big_endgame.rack(), nl_referee.lexicon, nl_referee.layout, tiles).moves
    assert all(len(m.tiles) < len(big_endgame.rack()) for m in moves)
    best = max(m.score + sum(tiles.value(ch) for _, _, ch in m.tiles) for m in moves)
    assert res.value == best - mine + theirs
    assert res.move.score + sum(tiles.value(ch) for _, _, ch in res.move.tiles) == best


def test_solver_refuses_what_it_cannot_solve(nl_referee, big_endgame):
    with pytest.raises(RulesError, match="empty bag"):
        solve_endgame(nl_referee, nl_referee.new_game(1, 2))
    with pytest.raises(RulesError, match="node_limit"):
        EndgameSolver(nl_referee, node_limit=0)


def test_ais_use_the_solver_with_an_empty_bag(nl_referee, big_endgame):
    want = solve_endgame(nl_referee, big_endgame, node_limit=500).action()
    assert EquityPolicy(endgame_nodes=500).turn(nl_referee, big_endgame) == want
    assert SimPolicy(endgame_nodes=500).turn(nl_referee, big_endgame) == want
    assert make_policy("equity:500").turn(nl_referee, big_endgame) == want
    # the library's budget names override the older fields
    policy = make_policy("equity", max_nodes=500, endgame_nodes=7)
    assert policy.turn(nl_referee, big_endgame) == want and policy.last_endgame.nodes == 500
    assert make_policy("sim", 0, max_nodes=500).turn(nl_referee, big_endgame) == want
    timed = make_policy("equity", movetime_ms=50, endgame_nodes=None)
    timed.turn(nl_referee, big_endgame)
    assert timed.last_endgame.nodes > 0 and timed.last_endgame.seconds < 2
    bounded = make_policy("equity:bounded")
    assert bounded.endgame_mode == "bounded"
    nl_referee.apply(big_endgame, bounded.turn(nl_referee, big_endgame))
    assert policy_names("score,equity:bounded,sim:2000") == ["score", "equity:bounded", "sim:2000"]
    for bad in ("equity:x", "score:5", "equity:0"):
        with pytest.raises(RulesError):
            policy_names(bad)


def _ask(session, cmd, **params):
    """One engine request's answer (a JSON line in, the parsed answer out)."""
    from kubasolve.engine.server import handle_request

    return handle_request(json.dumps({"id": 1, "cmd": cmd, "params": params}), session)


def _engine_endgame(referee: Referee) -> tuple[Any, str, CrosswordState]:
    """An engine session, its game played by the score AI until the bag is empty, and that state."""
    from kubasolve.engine.registry import Session

    s = Session()
    gid = _ask(s, "crossword.new-game", seed=21, players=["a", "b"])["result"]["game"]
    for _ in range(60):
        out = _ask(s, "crossword.ai-move", game=gid, ai="score")["result"]
        if not out["state"]["bag"] or out["state"]["over"]:
            break
    assert not out["state"]["over"] and not out["state"]["bag"]
    return s, gid, CrosswordState.from_dict(out["state"], referee)


def test_engine_ai_move_takes_the_endgame_budget(nl_referee):
    s, gid, state = _engine_endgame(nl_referee)
    want = solve_endgame(nl_referee, state, node_limit=200).action().to_dict()
    got = _ask(s, "crossword.ai-move", game=gid, ai="equity", endgame_nodes=200, apply=False, state=False)["result"]["action"]
    assert got == want
    bounded = _ask(s, "crossword.ai-move", game=gid, ai="equity", endgame="bounded", apply=False, state=False)["result"]["action"]
    assert bounded == make_policy("equity:bounded").turn(nl_referee, state).to_dict()
    for bad in ({"endgame": "perfect"}, {"endgame_nodes": 0}, {"endgame_time": -1}):
        err = _ask(s, "crossword.ai-move", game=gid, ai="equity", **bad)["error"]
        assert err["code"] == "bad-request" and next(iter(bad)) in err.get("key", "") + err["message"]


def test_cli_endgame_solves_a_cgp(nl_referee, big_endgame, capsys, tmp_path):
    from kubasolve.cli.main import main
    from kubasolve.games.crossword.notation import to_cgp

    st = big_endgame
    p, q = st.current, 1 - st.current
    cgp = to_cgp(st.board.to_rows(), [st.racks[p]], [st.scores[p], st.scores[q]], st.scoreless, {"lex": "nl"})
    assert main(["crossword", "endgame", "--board", cgp, "--max-nodes", "300", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    want = solve_endgame(nl_referee, st, node_limit=300)
    assert out["racks"] == [st.racks[p], st.racks[q]]  # the opponent holds every unseen tile
    assert (out["value"], out["proven_optimal"], out["nodes"]) == (want.value, want.proven, want.nodes)
    assert out["move"] == want.move.to_dict() and out["final_spread"] == st.scores[p] - st.scores[q] + want.value
    f = tmp_path / "end.cgp"
    f.write_text(cgp + "\n", encoding="utf-8")
    assert main(["crossword", "endgame", "--board", str(f), "--nodes", "50"]) == 0  # the older name of --max-nodes
    assert "not proven" in capsys.readouterr().out
    # (the solver proves this endgame in ~260k nodes, ~0.2 s: 20 ms is well short of that)
    assert main(["crossword", "endgame", "--board", str(f), "--movetime-ms", "20"]) == 0
    assert "not proven" in capsys.readouterr().out
    for both in (["--nodes", "5", "--max-nodes", "5"], ["--time-limit", "1", "--movetime-ms", "5"]):
        assert main(["crossword", "endgame", "--board", str(f), *both]) == 2  # a budget and its older name together: usage
    capsys.readouterr()
    empty = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0"
    assert main(["crossword", "endgame", "--board", empty, "--nodes", "5"]) == 1
    assert "bag is not empty" in capsys.readouterr().err


def test_cli_endgame_refuses_positions_it_cannot_solve_by_name(nl_referee, big_endgame, capsys, tmp_path):
    """A CGP whose count of scoreless turns has already ended the game, a rack over seven tiles, and a GCG game
    with neither rack: each refused with the reason (exit 1), never solved (the count once indexed past the
    kernel's key table and crashed the process) nor dealt at random."""
    import dataclasses

    from kubasolve.cli.main import main
    from kubasolve.errors import RulesError
    from kubasolve.games.crossword.notation import to_cgp

    st = big_endgame
    p, q = st.current, 1 - st.current
    rows = st.board.to_rows()
    mover, opp = st.racks[p], st.racks[q]

    def cgp(racks: list[str], scoreless: int) -> str:
        return to_cgp(rows, racks, [st.scores[p], st.scores[q]], scoreless, {"lex": "nl"})

    cases = [
        (cgp([mover, opp], 4), "the game is over: the CGP counts 4 scoreless turns in a row, and the rules end it at 4"),
        (cgp([mover, opp], 9_999_999), "9999999 scoreless turns"),
        (cgp(["EEEEEEEE", opp], 0), "the CGP's rack of the player to move, 'EEEEEEEE', has 8 tiles, at most 7"),
        (cgp([mover, "EEEEEEEEE"], 0), "the CGP's rack of the opponent, 'EEEEEEEEE', has 9 tiles, at most 7"),
    ]
    for board, message in cases:
        assert main(["crossword", "endgame", "--board", board, "--max-nodes", "50"]) == 1, board
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err
    assert main(["crossword", "endgame", "--board", cgp([mover, opp], 3), "--max-nodes", "50", "--json"]) == 0  # one pass short
    capsys.readouterr()
    # the library refuses such roots too, before the kernel sees them
    for bad in (dataclasses.replace(st, scoreless=4), dataclasses.replace(st, racks=tuple(r + "EEEEEEEE" if i == p else r for i, r in enumerate(st.racks)))):
        with pytest.raises(RulesError):
            solve_endgame(nl_referee, bad, node_limit=50)
    from pathlib import Path

    gcg = Path(__file__).parent / "data" / "gcg" / "woogles_unfinished.gcg"
    text = "".join(line for line in gcg.read_text(encoding="utf-8").splitlines(keepends=True) if not line.startswith("#rack"))
    bare = tmp_path / "norack.gcg"
    bare.write_text(text, encoding="utf-8")
    assert main(["crossword", "endgame", "--board", str(bare), "--max-nodes", "50"]) == 1
    assert "neither #rack1 nor #rack2" in capsys.readouterr().err
    one = tmp_path / "rack2.gcg"
    one.write_text(text + next(line for line in gcg.read_text(encoding="utf-8").splitlines(keepends=True) if line.startswith("#rack2")),
                   encoding="utf-8")
    assert main(["crossword", "endgame", "--board", str(one), "--max-nodes", "50"]) == 0  # one rack: the other is the rest
    capsys.readouterr()


def test_the_kernel_loads_before_the_budgets_clock(tmp_path):
    """Issue 21: "The budget clock starts after one-time set-up in the library too". In a fresh process the
    solver loads its kernel for the exact argument types before the clock starts (a first solve spent ~4 s of
    its time budget loading it): the one signature warm() loads is the one the search then runs."""
    import os
    import subprocess
    import sys

    script = """
from kubasolve import load_lexicon
from kubasolve.games.crossword.game import Referee, play_game
from kubasolve.games.crossword.ai import ScorePolicy
from kubasolve.games.crossword.endgame import EndgameSolver
from kubasolve.kernels import crossword_endgame as k
referee = Referee(load_lexicon("nl"))
rec = play_game([ScorePolicy(), ScorePolicy()], 21, referee)
state = referee.new_game(21, 2)
for _, a in rec.actions:
    if not state.bag:
        break
    state = referee.apply(state, a)
solver = EndgameSolver(referee, node_limit=2000)
assert not k.search.signatures
solver.ws.warm()
assert len(k.search.signatures) == 1
res = solver.solve(state)
assert len(k.search.signatures) == 1 and res.nodes >= 1
print("ok")
"""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=dict(os.environ), timeout=600)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr[-2000:]


def test_the_buffers_pages_are_mapped_before_the_budgets_clock(nl_referee, big_endgame):
    """Issue 21's rule ("the budget clock starts after one-time set-up") for the buffers' pages too: a process's first
    solve writes them once before its clock (inside it, a 1 ms budget's first solve took up to 0.55 s), the helpers'
    as well; later solves do not write them again."""
    solver = EndgameSolver(nl_referee, node_limit=50, threads=2)
    ws = solver.ws
    for w in (ws, *ws.helpers):
        w.mapped = False  # as a fresh process's workspace (the tests' processes share one per referee)
    seen: list[tuple[bool, ...]] = []

    def clock() -> float:
        seen.append((ws.mapped, *(h.mapped for h in ws.helpers)))
        return time.perf_counter()

    solver.clock = clock
    solver.solve(big_endgame)
    assert seen and len(seen[0]) == 2 and all(all(flags) for flags in seen)
    ws.tt[0, 0] = 12345  # a later solve leaves the pages (and so the table) as they are until it writes them itself
    ws.map_pages()
    assert ws.tt[0, 0] == 12345
    ws.tt[0, 0] = 0


def test_the_games_warm_up_does_an_ai_turns_one_time_work() -> None:
    """protocol.md: "game.warm_up() | the one-time set-up (lexicon, kernels); budgeted calls do it before their clock
    starts". For the crossword that is also the endgame solver's pages and the learnt leave table: without them a
    first sim2 turn of 200 ms took 0.84-1.14 s (0.2-0.3 s later)."""
    from kubasolve import load_game
    from kubasolve.games.crossword.leaves import load_learnt_leaves

    game = load_game("crossword")
    ws = EndgameSolver(game.referee).ws  # the workspace this thread's solves use
    ws.mapped = False
    load_learnt_leaves.cache_clear()
    game.warm_up()
    assert EndgameSolver(game.referee).ws is ws and ws.mapped
    assert load_learnt_leaves.cache_info().currsize == 1


def test_a_stop_ends_the_solve_between_slices_with_a_legal_unproven_move(nl_referee, big_endgame):
    """Issue 21: "a stop ends the current search with its best answer". ``halted`` (the engine's stop) is read between
    kernel slices like the time limit: with ten million nodes allowed, a stop after the second check ends the solve
    with far fewer nodes, not proven, and a legal move."""
    checks: list[int] = []

    def halted() -> bool:
        checks.append(1)
        return len(checks) >= 2

    res = solve_endgame(nl_referee, big_endgame, max_nodes=10**7, halted=halted)
    full = solve_endgame(nl_referee, big_endgame, max_nodes=10**7)
    assert len(checks) == 2 and not res.proven and res.nodes < full.nodes
    nl_referee.apply(big_endgame, res.action())


def test_progress_tells_each_iterations_best_move_and_the_nodes_without_changing_the_search(nl_referee, big_endgame):
    """Issue 21: "long searches can stream progress (info lines: nodes, best so far)". With the hooks on, the solver
    pauses at the root after each completed iteration and tells its best move and value: the move and value a solve
    stopped at that depth (``max_depth``) answers; the nodes are told after each slice, up to the solve's count. The
    search itself is the same: same move, value, proof and node count as without the hooks."""
    told: list[tuple[Any, int, int]] = []
    counts: list[int] = []
    plain = solve_endgame(nl_referee, big_endgame, max_nodes=10**7)
    watched = solve_endgame(nl_referee, big_endgame, max_nodes=10**7, on_best=lambda a, v, d: told.append((a, v, d)),
                            on_nodes=counts.append)
    assert (watched.move, watched.value, watched.proven, watched.nodes) == (plain.move, plain.value, plain.proven, plain.nodes)
    assert [d for _, _, d in told] == list(range(1, len(told) + 1)) and len(told) >= 3
    for action, value, depth in told:
        at_depth = solve_endgame(nl_referee, big_endgame, max_depth=depth)
        assert (at_depth.action(), at_depth.value) == (action, value)
    assert counts == sorted(counts) and counts[-1] == watched.nodes and len(counts) >= 2


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32), n_moves=st.integers(1, 3), a=st.integers(1, 3), b=st.integers(1, 3), blank=st.booleans())
def test_two_threads_sharing_the_table_equal_brute_force_minimax(word_pool, seed, n_moves, a, b, blank):
    """threads=2 (a helper searching the same position into the shared table): the same exact value, and a move achieving it."""
    rng = random.Random(seed)
    lex = Lexicon.from_words(rng.sample(word_pool, min(len(word_pool), 150)), name=f"endgame-mt{seed}")
    referee = Referee(lex, CrosswordRules())
    state = endgame_state(referee, rng, n_moves, (a, b), 0, blank and a > 1)
    want = brute_spread(referee, state, {})
    res = solve_endgame(referee, state, threads=2)
    assert res.proven and res.value == want
    after = referee.apply(state, res.action())
    gained = after.scores[0] - after.scores[1]
    assert (gained if after.over else gained - brute_spread(referee, after, {})) == want


def _value_of(referee: Referee, state: CrosswordState, action: CrosswordAction) -> int:
    """The spread to come for the player to move in ``state`` after ``action``, the rest played exactly."""
    after = referee.apply(state, action)
    me, other = state.current, 1 - state.current
    gained = (after.scores[me] - after.scores[other]) - (state.scores[me] - state.scores[other])
    return gained if after.over else gained - solve_endgame(referee, after).value


def test_two_threads_prove_the_one_thread_value_with_a_move_that_achieves_it(nl_referee, big_endgame):
    one = solve_endgame(nl_referee, big_endgame)
    solver = EndgameSolver(nl_referee, threads=2)
    two = solver.solve(big_endgame)
    assert one.proven and two.proven and two.value == one.value
    assert solver.stats["threads"] == 2 and solver.stats["helper_nodes"] > 0
    assert _value_of(nl_referee, big_endgame, two.action()) == one.value
    # the threads share the table and the leave memo (its entries checked as the table's: key ^ value, value)
    assert solver.ws.helpers[0].tt is solver.ws.tt and solver.ws.helpers[0].lmemo is solver.ws.lmemo


def test_a_helpers_proof_is_the_answer(nl_referee, big_endgame):
    """When a helper thread proves the value first, the main thread stops and answers with it (proven, its move)."""
    one = solve_endgame(nl_referee, big_endgame)
    solver = EndgameSolver(nl_referee, threads=2)
    from kubasolve.kernels import crossword_endgame as k

    def wait_for_the_helper(nodes: int) -> None:  # the main thread waits after its first slice (the helper runs on)
        helper = solver.ws.helpers[0].sc
        t0 = time.perf_counter()
        while helper[k.SC_STATUS] != k.ST_DONE and time.perf_counter() - t0 < 30:
            time.sleep(0.005)

    solver.on_nodes = wait_for_the_helper
    res = solver.solve(big_endgame)
    assert res.proven and res.value == one.value and solver.stats["proven_by_helper"]
    assert _value_of(nl_referee, big_endgame, res.action()) == one.value
    assert res.pv  # read from the table the threads share


@pytest.mark.parametrize("offset", [-7, 0, 5])
def test_a_helper_given_any_root_alpha_leaves_the_answer_exact(nl_referee, big_endgame, monkeypatch, offset):
    """A helper's root takes the main thread's root alpha of the same iteration (kernel docstring, item 10). Whatever alpha
    it is given, here the true value + ``offset`` in every iteration it reaches, the entries it stores below its root are
    true bounds and it answers nothing of its own: the main thread's answer is the one-thread value, with a move achieving
    it. (The main thread waits after its first slice until the helper has taken the alpha a few times.)"""
    from kubasolve.games.crossword import endgame as eg
    from kubasolve.kernels import crossword_endgame as k

    one = solve_endgame(nl_referee, big_endgame)

    def forced(helper: Any, main: Any) -> None:
        helper.sc[k.SC_SHARED_DEPTH] = helper.sc[k.SC_DEPTH]
        helper.sc[k.SC_SHARED_ALPHA] = one.value + offset

    monkeypatch.setattr(eg, "_share_root_alpha", forced)
    solver = EndgameSolver(nl_referee, threads=2)

    def let_the_helper_take_it(nodes: int) -> None:
        helper = solver.ws.helpers[0].sc
        t0 = time.perf_counter()
        while helper[k.SC_BORROWS] < 3 and helper[k.SC_STATUS] != k.ST_DONE and time.perf_counter() - t0 < 20:
            time.sleep(0.005)

    solver.on_nodes = let_the_helper_take_it
    res = solver.solve(big_endgame)
    assert res.proven and res.value == one.value
    assert _value_of(nl_referee, big_endgame, res.action()) == one.value
    if offset > 0:  # above every alpha the helper finds itself: taken at every root move after its first
        assert solver.stats["helper_root_alphas_taken"] >= 3 and not solver.stats["proven_by_helper"]


def test_threads_are_checked(nl_referee, big_endgame, capsys):
    for bad in (0, 17, 1.5, "2"):
        with pytest.raises(RulesError, match="threads"):
            EndgameSolver(nl_referee, threads=bad)  # type: ignore[arg-type]
    from kubasolve.cli.main import main
    from kubasolve.games.crossword.notation import to_cgp

    st = big_endgame
    p, q = st.current, 1 - st.current
    cgp = to_cgp(st.board.to_rows(), [st.racks[p]], [st.scores[p], st.scores[q]], st.scoreless, {"lex": "nl"})
    with pytest.raises(SystemExit) as exit_:
        main(["crossword", "endgame", "--board", cgp, "--threads", "0"])
    assert exit_.value.code == 2
    assert "--threads" in capsys.readouterr().err
    assert main(["crossword", "endgame", "--board", cgp, "--threads", "2", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["proven_optimal"] and out["value"] == solve_endgame(nl_referee, st).value


def test_engine_and_library_ai_take_the_endgame_threads(nl_referee):
    """crossword.ai-move ``threads`` (and the protocol's AI option ``threads``): the exact solver on that many threads,
    proving the one-thread value; a bad count refused by name."""
    from kubasolve.games.crossword.game import action_from_dict

    s, gid, state = _engine_endgame(nl_referee)
    one = solve_endgame(nl_referee, state)
    got = _ask(s, "crossword.ai-move", game=gid, ai="equity2", threads=2, max_nodes=10**7, apply=False, state=False)["result"]
    assert got["proven_optimal"] and one.proven
    assert _value_of(nl_referee, state, action_from_dict(got["action"])) == one.value
    for bad in (0, 17, "2"):
        err = _ask(s, "crossword.ai-move", game=gid, ai="equity2", threads=bad)["error"]
        assert err["code"] == "bad-request" and "threads" in err.get("key", "") + err["message"]
    from kubasolve.games import load_game

    game = load_game("crossword")
    with pytest.raises(KubasolveError, match=r"options\.threads"):
        game.ai_move(game.new_game(seed=1, players=2), ai="equity2", options={"threads": 0})


def test_the_generic_ai_move_takes_the_crossword_ai_options(nl_referee):
    """One client for every game: the generic ``ai-move`` takes the game's AI settings as ``options`` (here the
    endgame solver's ``threads``, as ``crossword.ai-move`` does), the same proven value as one thread."""
    from kubasolve.engine.registry import Session
    from kubasolve.games.crossword.game import action_from_dict

    s = Session()
    gid = _ask(s, "new-game", game="crossword", seed=21, players=["a", "b"])["result"]["game_id"]
    for _ in range(60):
        if not _ask(s, "state", game_id=gid)["result"]["state"]["native"]["bag"]:
            break
        _ask(s, "ai-move", game_id=gid, ai="score")
    state = CrosswordState.from_dict(_ask(s, "state", game_id=gid)["result"]["state"]["native"], nl_referee)
    assert not state.bag and not state.over
    one = solve_endgame(nl_referee, state)
    got = _ask(s, "ai-move", game_id=gid, ai="equity2", options={"threads": 2}, max_nodes=10**7, apply=False)["result"]
    assert got["proven_optimal"] and one.proven
    assert _value_of(nl_referee, state, action_from_dict(got["action"])) == one.value


@pytest.mark.parametrize(("ai", "options", "key"), [
    ("sim2", {"iterations": "x"}, "options.iterations"), ("sim2", {"iterations": 0}, "options.iterations"),
    ("sim", {"plies": 3}, "options.plies"), ("sim2", {"plies": 1}, "options.plies"), ("sim2", {"candidates": 51}, "options.candidates"),
    ("sim2", {"objective": "lose"}, "options.objective"), ("equity2", {"endgame": "fast"}, "options.endgame"),
    ("equity2", {"threads": True}, "options.threads"), ("equity2", {"depth": 3}, "options.depth")])
def test_the_library_refuses_a_bad_ai_setting_by_name(ai, options, key):
    """A crossword AI setting of the wrong type or out of range is refused by name (not a traceback deep in the AI,
    not silently ignored); self-play checks them before the first game."""
    from kubasolve.games import load_game
    from kubasolve.scale.selfplay import simulate

    game = load_game("crossword")
    with pytest.raises(KubasolveError) as err:
        game.ai_move(game.new_game(seed=1, players=2), ai=ai, options=options)
    assert err.value.key == key and str(err.value).startswith(key)
    with pytest.raises(KubasolveError) as err:
        simulate("crossword", games=1, players=[ai, "score"], ai_options=options)
    assert err.value.key == "ai_options" and str(err.value).startswith("ai_" + key)


def test_the_search_does_not_depend_on_where_the_callers_slices_end(nl_referee, big_endgame, monkeypatch):
    """The solver runs the kernel in slices sized by the clock (about 20 ms each); a node budget must give the same
    search whatever the machine's speed, so the node counts and cut-offs must not depend on where a slice ends (they
    did by a few nodes when a slice ended just before a table entry taken before its move or a forced pass valued at
    the passing node: those were then entered as nodes instead). Slices of 13 nodes against the clock's."""
    import kubasolve.games.crossword.endgame as endgame_module

    solver = EndgameSolver(nl_referee)
    plain = solver.solve(big_endgame)
    plain_stats = dict(solver.stats)
    monkeypatch.setattr(endgame_module, "_next_slice", lambda nodes, spent: 13)
    sliced_solver = EndgameSolver(nl_referee)
    sliced = sliced_solver.solve(big_endgame)
    assert plain.proven and sliced.proven and plain.nodes > 10_000
    assert (sliced.move, sliced.value, sliced.nodes) == (plain.move, plain.value, plain.nodes)
    for key in ("cuts", "table_cutoffs", "table_cutoffs_before_the_move", "passes", "move_lists"):
        assert sliced_solver.stats[key] == plain_stats[key], key


def test_engine_ai_move_with_max_nodes_alone_is_not_cut_by_the_default_time(nl_referee, monkeypatch):
    """``crossword.ai-move`` (v2) with ``max_nodes`` alone gave the endgame solver the engine's default 10 s too, so the
    move depended on the machine's speed (a long endgame, or a loaded machine); now the default time applies only to a
    request that gives no budget at all, as in every other command, and ``max_nodes`` alone answers what the library's
    node budget answers (shown with the default shrunk to 1 ms, which cut the search before)."""
    from kubasolve.engine import commands_crossword

    s, gid, state = _engine_endgame(nl_referee)
    want = solve_endgame(nl_referee, state, node_limit=20_000)
    monkeypatch.setattr(commands_crossword, "DEFAULT_MOVETIME_MS", 1)
    got = _ask(s, "crossword.ai-move", game=gid, ai="equity", max_nodes=20_000, apply=False, state=False)["result"]
    assert (got["action"], got["proven_optimal"]) == (want.action().to_dict(), want.proven)
