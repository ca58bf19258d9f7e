"""Crossword move-generation benchmarks (issue 10), side by side with wolges when its kit is built.

Suite ``crossword`` (``kubasolve bench crossword``): the golden positions (``tests/crossword/data``,
105 Dutch positions made by wolges) cycled one per timed round for all moves and the best move,
the empty-board racks AEINRST, ?EINRST, ??EINRS, and the board graph's warm load. When the wolges
kit is built (``bash ../shared/crossword/kit/build.sh /tmp/wolges-kit``; directory from
``$KUBASOLVE_WOLGES_DIR``, default ``/tmp/wolges-kit``), the group ``crossword-vs-wolges`` times the
same 105 positions as one batch on both sides (wolges: its ``nl_time`` run on them, process start
included) and the runner prints the ratio.

Suite group ``crossword-endgame``: the exact endgame solver proving docs/crossword.md's example, against
the old solver (``LegacyEndgameSolver``), in nodes per second. The proof count over the 40 stored
bag-empty positions (issue 24's measurement) comes from :func:`endgame_proofs`: ``python -m
kubasolve.bench.crossword_scenarios endgames [--time-limit 10] [--legacy] [--cpu] [--threads N] [--jump J]
[--fresh SEED GAMES [--skip K]] [--calibrate] [--rounds R] [--wolges]`` (``--fresh``: new self-play endgames instead of the
stored 40, a check outside the tuned set, ``--skip``: K turns later, smaller ones; ``--calibrate``: the machine's speed in
the run; ``--rounds``: the set that many times, and which positions are proven in every round; ``--wolges``: wolges' own
endgame solver on each position too, both under its rule, when ``benchmarks/wolges_endgame/build.sh`` has built it: the
peer's proofs, values and times beside the solver's).

Per-position medians and p90 against wolges (the issue's targets: all moves within 3x, best move
within 2x) come from :func:`side_by_side`, which times each position like ``nl_time`` does (median
of ``reps`` runs), interleaved with wolges position by position: ``python -m
kubasolve.bench.crossword_scenarios [REPS]`` prints them as JSON (the wolges side is left out, with
the reason, when the kit is absent).
"""

from __future__ import annotations

import json
import lzma
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from kubasolve.bench.runner import Scenario, cycle

GOLDEN = Path(__file__).resolve().parents[2] / "tests" / "crossword" / "data" / "golden-public.jsonl.xz"
ENDGAMES = Path(__file__).resolve().parents[2] / "tests" / "crossword" / "data" / "endgames-seed100.jsonl"
"""The 40 bag-empty self-play positions of the endgame solver's measurements (provenance in that folder)."""
ENDGAME_EXAMPLE = 3
"""The position of docs/crossword.md's endgame example (seed 103): proven at depth 5."""
CALIBRATION_POSITION, CALIBRATION_NODES = 19, 500_000
"""The endgame bench's same-run speed reference (``calibrate``): this many nodes of this stored position, one thread."""
EMPTY_RACKS = ("AEINRST", "?EINRST", "??EINRS")
WOLGES_EMPTY_MS = {"AEINRST": 0.16, "?EINRST": 2.0, "??EINRS": 7.7}
"""wolges on an empty board, measured by the issue's author on this machine (all moves)."""


def wolges_kit() -> tuple[Path, Path] | None:
    """(``nl_time`` binary, ``nl.kwg``) of a built wolges kit, or None."""
    root = Path(os.environ.get("KUBASOLVE_WOLGES_DIR", "/tmp/wolges-kit"))
    binary = root / "wolges" / "target" / "release" / "nl_time"
    kwg = root / "nl.kwg"
    return (binary, kwg) if binary.is_file() and kwg.is_file() else None


def wolges_endgame_kit() -> tuple[Path, Path] | None:
    """(``nl_endgame`` binary, ``nl.kwg``) of wolges' endgame solver as ``benchmarks/wolges_endgame/build.sh`` builds it
    in the wolges kit's directory, or None."""
    root = Path(os.environ.get("KUBASOLVE_WOLGES_DIR", "/tmp/wolges-kit"))
    binary = root / "wolges-endgame" / "target" / "release" / "nl_endgame"
    kwg = root / "nl.kwg"
    return (binary, kwg) if binary.is_file() and kwg.is_file() else None


WOLGES_SCORELESS_TURNS_END = 2
"""The rule wolges' endgame solver plays by, for the side-by-side runs: two passes in a row end the game (each player
loses their rack's value). kubasolve's default is four scoreless turns in a row (two rounds); the comparison runs
kubasolve's solver under wolges' rule, so both solve the same game."""


def wolges_endgame_record(state: Any, index: int) -> dict[str, Any]:
    """One position as ``nl_endgame`` reads it: the board's 15 rows (``.`` empty, a lower-case letter a blank) and the
    racks, the player to move's first (``?`` a blank). wolges' solver starts every position with no pass before it."""
    if len(state.racks) != 2 or state.bag:
        raise ValueError("wolges' endgame solver takes two players and an empty bag")
    if state.scoreless:
        raise ValueError(f"position {index}: wolges' endgame solver starts with no scoreless turn before it, this one has "
                         f"{state.scoreless}")
    p = state.current
    return {"id": index, "board": list(state.board.to_rows()), "racks": [state.racks[p], state.racks[1 - p]]}


WOLGES_MEMORY_BYTES = 8 << 30
"""The address space wolges' endgame process may take: its solver keeps every position it has seen (about 3 GB after
90 s here) and grows its tables by doubling (one asked for 12 GB at once on a long solve); past this it stops, and the
position counts as not proven."""


def wolges_endgame_solve(binary: Path, kwg: Path, record: dict[str, Any], time_limit: float, tmp: Path) -> dict[str, Any]:
    """Run wolges' endgame solver on one position in a process of its own (its solver has no budget: the process is
    stopped after ``time_limit`` seconds of wall time plus a second for loading, or when it asks for more memory than
    :data:`WOLGES_MEMORY_BYTES`). Its seconds are its word list pruning and its solve (its own clock); ``proven`` when it
    finished within ``time_limit``. Its nodes are its negamax calls."""
    path = tmp / f"wolges-endgame-{record['id']}.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    command = [str(binary), str(kwg), str(path)]
    if sys.platform.startswith("linux"):  # the limit set by the shell that then becomes the solver (no fork hook in Python)
        command = ["/bin/sh", "-c", f'ulimit -v {WOLGES_MEMORY_BYTES >> 10} && exec "$0" "$@"', *command]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=time_limit + 1.0, check=False)
    except subprocess.TimeoutExpired:
        return {"proven": False, "value": None, "nodes": None, "seconds": time_limit, "stopped": "time limit"}
    lines = [ln[len("RESULT "):] for ln in done.stdout.splitlines() if ln.startswith("RESULT ")]
    if done.returncode != 0 or not lines:
        why = "memory" if "memory allocation" in done.stderr else f"exit code {done.returncode}"
        return {"proven": False, "value": None, "nodes": None, "seconds": time_limit, "stopped": f"{why}: {done.stderr.strip()[-200:]}"}
    out = json.loads(lines[-1])
    seconds = float(out["prune_s"]) + float(out["solve_s"])
    return {"proven": seconds <= time_limit, "value": int(out["value"]), "nodes": int(out["nodes"]), "seconds": round(seconds, 4),
            "prune_seconds": float(out["prune_s"])}


def golden_records() -> list[dict[str, Any]]:
    if not GOLDEN.is_file():
        raise FileNotFoundError(f"the golden positions are not here: {GOLDEN} (a source checkout has them)")
    with lzma.open(GOLDEN, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def _context() -> tuple[Any, Any, Any]:
    from kubasolve.games.crossword.layout import load_layout, load_tiles
    from kubasolve.lexicon import load_lexicon

    return load_lexicon("nl"), load_layout("standard15"), load_tiles("nl")


def _positions() -> list[tuple[Any, str]]:
    from kubasolve.games.crossword.board import Board

    lex, _, _ = _context()
    return [(Board.from_rows(r["board"], lex.alphabet), r["rack"]) for r in golden_records()]


def _all_moves_setup() -> Callable[[], object]:
    from kubasolve.games.crossword.movegen import move_arrays

    lex, layout, tiles = _context()
    return cycle(_positions(), lambda p: move_arrays(p[0], p[1], lex, layout, tiles))


def _best_move_setup() -> Callable[[], object]:
    from kubasolve.games.crossword.movegen import best_move

    lex, layout, tiles = _context()
    return cycle(_positions(), lambda p: best_move(p[0], p[1], lex, layout, tiles) or 0)


def _batch_setup() -> Callable[[], object]:
    from kubasolve.games.crossword.movegen import move_arrays

    lex, layout, tiles = _context()
    items = _positions()

    def run() -> int:
        return sum(len(move_arrays(b, r, lex, layout, tiles)[0]) for b, r in items)

    return run


def _wolges_batch_setup() -> Callable[[], object]:
    kit = wolges_kit()
    if kit is None:
        raise RuntimeError("no wolges kit")
    binary, kwg = kit
    tmp = Path(tempfile.mkdtemp(prefix="kubasolve-wolges-"))
    pos = tmp / "pos.jsonl"
    pos.write_text("".join(json.dumps(r) + "\n" for r in golden_records()))

    def run() -> int:
        out = subprocess.run([str(binary), str(kwg), str(pos), "1"], capture_output=True, text=True, check=True)
        return len(out.stdout)

    return run


def _empty_setup(rack: str) -> Callable[[], Callable[[], object]]:
    def setup() -> Callable[[], object]:
        from kubasolve.games.crossword.board import Board
        from kubasolve.games.crossword.movegen import move_arrays

        lex, layout, tiles = _context()
        board = Board.empty(layout.rows, layout.cols, lex.alphabet)
        return lambda: move_arrays(board, rack, lex, layout, tiles)

    return setup


def _graph_load_setup() -> Callable[[], object]:
    import kubasolve.lexicon.board_graph as bg

    lex, _, _ = _context()
    bg.load_board_graph(lex, 15)  # built once, on disk

    def run() -> object:
        bg._MEMO.pop(lex, None)
        return bg.load_board_graph(lex, 15)

    return run


def endgame_positions() -> list[tuple[int, str]]:
    """(seed, CGP line) of the stored endgame positions (:data:`ENDGAMES`)."""
    if not ENDGAMES.is_file():
        raise FileNotFoundError(f"the endgame positions are not here: {ENDGAMES} (a source checkout has them)")
    rows = [json.loads(line) for line in ENDGAMES.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [(int(r["seed"]), str(r["cgp"])) for r in rows]


def _endgame_setup(legacy: bool) -> Callable[[], Callable[[], object]]:
    def setup() -> Callable[[], object]:
        from kubasolve.games.crossword.endgame import EndgameSolver, LegacyEndgameSolver, state_from_cgp
        from kubasolve.games.crossword.game import Referee
        from kubasolve.lexicon import load_lexicon

        referee = Referee(load_lexicon("nl"))
        state = state_from_cgp(referee, endgame_positions()[ENDGAME_EXAMPLE][1])
        cls = LegacyEndgameSolver if legacy else EndgameSolver
        return lambda: cls(referee).solve(state)

    return setup


def _bound_cut_children(stats: dict[str, Any]) -> int:
    """The children of one solve valued by a true bound at their parent and never entered (the opponent's going out,
    the leave bounds): a search that checked the same bounds on entering the child would count them as nodes."""
    return int(stats["cuts"]["opponent_out"]) + int(stats["cuts"]["leave"])


def _calibration_seconds(referee: Any, jump: int) -> float:
    """Thread CPU seconds of :data:`CALIBRATION_NODES` nodes of stored position :data:`CALIBRATION_POSITION` on one
    thread, in a new thread (its own workspace: a cold line cache, as in the first solve of a position; its buffers' pages
    mapped before the clock, :meth:`~kubasolve.games.crossword.endgame._Workspace.touch`: until 7 December 2026 the
    operating system's clearing of those pages was timed too, 0.3-0.8 s of the 1.9-2.7 s on the shared machines)."""
    import threading

    from kubasolve.games.crossword.endgame import EndgameSolver, state_from_cgp

    state = state_from_cgp(referee, endgame_positions()[CALIBRATION_POSITION][1])
    spent: list[float] = []

    def run() -> None:
        solver = EndgameSolver(referee, node_limit=CALIBRATION_NODES, jump=jump)
        solver.ws.warm()
        solver.ws.touch()  # the buffers' pages mapped before the clock: the search's speed, not the page clearing's
        c0 = time.thread_time()
        solver.solve(state)
        spent.append(time.thread_time() - c0)

    worker = threading.Thread(target=run)
    worker.start()
    worker.join()
    return spent[0]


def _round_summary(recs: list[dict[str, Any]], rounds: int) -> dict[str, Any]:
    """Per round the proof count; the positions proven in every round and in some round; for each position proven in
    some rounds only, its proof time per round (None: not proven within the budget)."""
    by_index: dict[int, list[float | None]] = {}
    for r in recs:
        by_index.setdefault(r["index"], [None] * rounds)[r["round"] - 1] = r["seconds"] if r["proven"] else None
    unsteady = {str(i): times for i, times in by_index.items() if any(t is None for t in times) and any(t is not None for t in times)}
    return {"rounds": rounds, "proven": [sum(times[k] is not None for times in by_index.values()) for k in range(rounds)],
            "proven_every_round": sum(all(t is not None for t in times) for times in by_index.values()),
            "proven_some_round": sum(any(t is not None for t in times) for times in by_index.values()),
            "unsteady": unsteady}


def endgame_proofs(time_limit: float = 10.0, legacy: bool = False, cpu_clock: bool = False, positions: list[int] | None = None,
                   on_result: Callable[[dict[str, Any]], None] | None = None, threads: int = 1, jump: int | None = None,
                   fresh: tuple[int, int] | None = None, calibrate: bool = False, rounds: int = 1,
                   wolges: bool = False, skip: int = 0) -> dict[str, Any]:
    """Solve the stored endgame positions (:func:`endgame_positions`, or those of index ``positions``) within
    ``time_limit`` seconds each with the compiled solver, and with ``legacy`` the old one too, interleaved
    position by position (a load swing on the shared machine hits both alike). ``cpu_clock``: the budget
    counts this thread's CPU time instead of wall time (steadier on a busy machine). ``on_result`` gets
    each solve's record. Returns per solver: proven within 0.1 / 1 / 10 s (or the budget), nodes, seconds,
    nodes per second (nodes as the old solver counted them: positions the search entered) and the median
    proof time; with ``legacy`` the ratios (new over old: nodes per second, proofs, and the median over the
    positions both prove of old proof time / new proof time); for the compiled solver also the positions valued (the
    nodes plus the children its bounds valued without entering them, :func:`_bound_cut_children`) and their rate.
    ``threads``: the compiled solver's search threads (sharing its table); with more than one, ``cpu_clock`` counts the
    process's CPU time over the threads (the wall time an idle machine with that many cores would take), and each record
    has the helpers' nodes and the wall time.
    ``jump``: the compiled solver's shallow iterations (default its own, ``DEFAULT_JUMP``). ``fresh = (seed, games)``:
    instead of the stored set, the endgames of that many new self-play games from ``seed`` (a check outside the set
    the solver was tuned on). ``calibrate``: a fixed reference workload (:func:`_calibration_seconds`) timed before and
    after the solves, reported beside them: the machines are shared and their speed drifts (the same proof of position
    19 took 7.7 s and 10.0 s of CPU an hour apart on one machine), so a run's times are read against its own reference.
    ``rounds``: the whole set solved that many times, round after round (each record says its ``round``): the proof
    count of the positions near the time limit varies from run to run, most on two threads; the summary then has
    per round the proof count and the positions proven in every round / in some round, with their times, and the
    solver's block counts the solves of all rounds.
    ``wolges``: also wolges' endgame solver (:func:`wolges_endgame_solve`; built by ``benchmarks/wolges_endgame/build.sh``),
    interleaved position by position, with the compiled solver under wolges' rule (:data:`WOLGES_SCORELESS_TURNS_END`) so both
    solve the same game; its budget is wall time (its own process), and the report compares the proofs, the values
    where both prove, and the proof times (median of wolges' time over the compiled solver's). ``skip`` (with ``fresh``):
    each game's position that many turns after its bag emptied (the highest-scoring move played meanwhile): smaller
    endgames; with ``wolges`` those after a pass are left out (its solver starts with no pass before it)."""
    from kubasolve.games.crossword.endgame import DEFAULT_JUMP, EndgameSolver, LegacyEndgameSolver, state_from_cgp
    from kubasolve.games.crossword.game import Referee
    from kubasolve.games.crossword.rules import CrosswordRules
    from kubasolve.lexicon import load_lexicon

    kit = wolges_endgame_kit() if wolges else None
    if wolges and kit is None:
        raise FileNotFoundError("no build of wolges' endgame solver: bash ../shared/crossword/kit/build.sh /tmp/wolges-kit, then "
                                "bash benchmarks/wolges_endgame/build.sh (directory from $KUBASOLVE_WOLGES_DIR)")
    if wolges and legacy:
        raise ValueError("compare with wolges or with the old solver, one at a time")
    referee = Referee(load_lexicon("nl"), CrosswordRules(scoreless_turns_end=WOLGES_SCORELESS_TURNS_END) if wolges else None)
    if skip and fresh is None:
        raise ValueError("skip: only with a fresh set (the stored positions are the first with an empty bag)")
    table = endgame_positions() if fresh is None else _selfplay_table(referee, fresh[1], fresh[0], skip)
    left_out = 0
    if wolges and fresh is not None:
        kept = [(seed, cgp) for seed, cgp in table if state_from_cgp(referee, cgp).scoreless == 0]
        left_out, table = len(table) - len(kept), kept
    new_options: dict[str, Any] = {"threads": threads, "jump": DEFAULT_JUMP if jump is None else jump}
    if not table:
        raise ValueError("the set holds no bag-empty position (every self-play game ended before its bag was empty)")
    chosen = range(len(table)) if positions is None else positions
    if not chosen or any(not 0 <= i < len(table) for i in chosen):
        raise ValueError(f"positions are indices 0 to {len(table) - 1} of the set, got {list(chosen)}")
    if threads > 1 and legacy:
        raise ValueError("the old solver has one thread: compare it with threads=1")
    if rounds < 1:
        raise ValueError(f"rounds: 1 or more, got {rounds}")

    def process_cpu_per_thread() -> float:
        return time.process_time() / threads

    clock: Callable[[], float] = (time.thread_time if threads == 1 else process_cpu_per_thread) if cpu_clock else time.perf_counter
    solvers: dict[str, Any] = {"new": EndgameSolver}
    if legacy:
        solvers["legacy"] = LegacyEndgameSolver
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in solvers}
    peer: list[dict[str, Any]] = []
    tmp = Path(tempfile.mkdtemp(prefix="kubasolve-wolges-")) if kit is not None else None
    for cls in solvers.values():  # compile / load the kernels outside the budgets
        # (the compiled solver's first solve also maps its buffers' pages, before its clock: _Workspace.map_pages)
        cls(referee, node_limit=50, **(new_options if cls is EndgameSolver else {})).solve(state_from_cgp(referee, table[chosen[0]][1]))
    reference = [_calibration_seconds(referee, new_options["jump"])] if calibrate else []
    for round_ in range(1, rounds + 1):
        for i in chosen:
            seed, cgp = table[i]
            state = state_from_cgp(referee, cgp)
            for name, cls in solvers.items():
                c0, w0 = clock(), time.perf_counter()
                solver = cls(referee, time_limit=time_limit, clock=clock, **(new_options if name == "new" else {}))
                res = solver.solve(state)
                spent = clock() - c0
                rec = {"solver": name, "round": round_, "index": i, "seed": seed, "value": res.value, "proven": res.proven,
                       "depth": res.depth, "nodes": res.nodes, "seconds": round(spent, 4),
                       "wall_seconds": round(time.perf_counter() - w0, 4), "move": None if res.move is None else res.move.to_dict(),
                       **({"stats": solver.stats} if name == "new" else {})}
                runs[name].append(rec)
                if on_result is not None:
                    on_result(rec)
            if kit is not None and tmp is not None:
                rec = {"solver": "wolges", "round": round_, "index": i, "seed": seed,
                       **wolges_endgame_solve(kit[0], kit[1], wolges_endgame_record(state, i), time_limit, tmp)}
                peer.append(rec)
                if on_result is not None:
                    on_result(rec)
    if tmp is not None:
        shutil.rmtree(tmp, ignore_errors=True)
    if calibrate:
        reference.append(_calibration_seconds(referee, new_options["jump"]))
    report: dict[str, Any] = {"positions": len(chosen), "time_limit": time_limit, "threads": threads, "jump": new_options["jump"],
                              "set": "stored (seed 100)" if fresh is None else
                              f"fresh: {fresh[1]} games from seed {fresh[0]}" + (f", {skip} turns after the bag emptied" if skip else ""),
                              "clock": ("thread CPU" if threads == 1 else f"process CPU / {threads}") if cpu_clock else "wall"}
    for name, recs in runs.items():
        nodes = sum(r["nodes"] for r in recs)
        secs = sum(r["seconds"] for r in recs)
        proofs = sorted(r["seconds"] for r in recs if r["proven"])
        report[name] = {"proven": len(proofs),
                        "proven_within": {str(t): sum(x <= t for x in proofs) for t in (0.1, 1.0, time_limit)},
                        "nodes": nodes, "seconds": round(secs, 2), "nodes_per_s": round(nodes / secs) if secs else None,
                        "median_proof_s": statistics.median(proofs) if proofs else None}
        if name == "new":
            valued = nodes + sum(_bound_cut_children(r["stats"]) for r in recs)
            report[name].update({"positions_valued": valued, "positions_valued_per_s": round(valued / secs) if secs else None})
    if kit is not None:
        report["rules"] = "two passes in a row end the game (wolges' rule)"
        if left_out:
            report["left_out_after_a_pass"] = left_out
        report["wolges"] = _wolges_summary(runs["new"], peer, time_limit)
    if rounds > 1:
        report["rounds"] = _round_summary(runs["new"], rounds)
    if calibrate:
        report["calibration"] = {"position": CALIBRATION_POSITION, "nodes": CALIBRATION_NODES, "jump": new_options["jump"],
                                 "cpu_seconds_before": round(reference[0], 3), "cpu_seconds_after": round(reference[1], 3)}
    if legacy:
        both = [(o["seconds"], n["seconds"]) for n, o in zip(runs["new"], runs["legacy"], strict=True) if n["proven"] and o["proven"]]
        mismatch = [n["index"] for n, o in zip(runs["new"], runs["legacy"], strict=True) if n["proven"] and o["proven"] and n["value"] != o["value"]]
        report["ratio_new_over_legacy"] = {
            "nodes_per_s": report["new"]["nodes_per_s"] / report["legacy"]["nodes_per_s"] if report["legacy"]["nodes_per_s"] else None,
            "proven": f"{report['new']['proven']} vs {report['legacy']['proven']}",
            "proof_time_speedup_median": statistics.median(o / n for o, n in both) if both else None,
            "positions_both_proved": len(both),
            "value_mismatches": mismatch,
        }
    return report


def _wolges_summary(ours: list[dict[str, Any]], theirs: list[dict[str, Any]], time_limit: float) -> dict[str, Any]:
    """wolges' proofs beside the compiled solver's on the same positions: counts, nodes per second over its finished
    solves, the values where both prove (they must agree: the same game, two exact solvers) and the median of its proof
    time over ours."""
    finished = [r for r in theirs if r["nodes"] is not None]
    proofs = sorted(r["seconds"] for r in theirs if r["proven"])
    both = [(t["seconds"], o["seconds"]) for o, t in zip(ours, theirs, strict=True) if o["proven"] and t["proven"]]
    nodes, secs = sum(r["nodes"] for r in finished), sum(r["seconds"] - r["prune_seconds"] for r in finished)
    return {"proven": len(proofs), "proven_within": {str(t): sum(x <= t for x in proofs) for t in (0.1, 1.0, time_limit)},
            "median_proof_s": statistics.median(proofs) if proofs else None,
            "nodes": nodes, "solve_seconds": round(secs, 2), "nodes_per_s": round(nodes / secs) if secs else None,
            "proven_by_ours_not_wolges": sum(o["proven"] and not t["proven"] for o, t in zip(ours, theirs, strict=True)),
            "proven_by_wolges_not_ours": sum(t["proven"] and not o["proven"] for o, t in zip(ours, theirs, strict=True)),
            "positions_both_proved": len(both),
            "proof_time_wolges_over_ours_median": statistics.median(w / max(o, 1e-4) for w, o in both) if both else None,
            "value_mismatches": [o["index"] for o, t in zip(ours, theirs, strict=True)
                                 if o["proven"] and t["proven"] and o["value"] != t["value"]]}


def scenarios() -> list[Scenario]:
    out = [
        Scenario("all-moves", "crossword-golden", _all_moves_setup,
                 description="every legal placement of one golden position (105 cycled), raw arrays"),
        Scenario("best-move", "crossword-golden", _best_move_setup, baseline="all-moves",
                 description="the highest-scoring placement of one golden position (branch and bound)"),
    ]
    for rack in EMPTY_RACKS:
        out.append(Scenario(f"empty-{rack}", "crossword-empty", _empty_setup(rack),
                            description=f"all moves of {rack} on the empty board (wolges, idle machine: {WOLGES_EMPTY_MS[rack]} ms; "
                                        "the same-run ratio comes from side_by_side)"))
    out.append(Scenario("endgame-proof", "crossword-endgame", _endgame_setup(False), baseline="endgame-proof-legacy",
                        work=lambda res: res.nodes, work_unit="nodes",
                        description="prove docs/crossword.md's endgame example (+55, depth 5): the compiled solver"))
    out.append(Scenario("endgame-proof-legacy", "crossword-endgame", _endgame_setup(True), work=lambda res: res.nodes, work_unit="nodes",
                        description="the same proof by the old solver (LegacyEndgameSolver)"))
    out.append(Scenario("graph-warm-load", "crossword-graph", _graph_load_setup, target_ms=100.0,
                        description="load the nl GADDAG from the disk cache (mmap + checksum)"))
    out.append(Scenario("kubasolve-105", "crossword-vs-wolges", _batch_setup, baseline="wolges-105" if wolges_kit() else None,
                        description="all moves of the 105 golden positions, one batch"))
    if wolges_kit() is not None:
        out.append(Scenario("wolges-105", "crossword-vs-wolges", _wolges_batch_setup,
                            description="wolges nl_time on the same 105 positions (1 rep, all + best move, process start included)"))
    return out


def _p90(xs: list[float]) -> float:
    return statistics.quantiles(xs, n=10)[-1] if len(xs) >= 2 else xs[0]


def _wolges_times(binary: Path, kwg: Path, records: list[dict[str, Any]], reps: int, tmp: Path) -> dict[int, dict[str, Any]]:
    pos = tmp / "pos.jsonl"
    pos.write_text("".join(json.dumps(r) + "\n" for r in records))
    out = subprocess.run([str(binary), str(kwg), str(pos), str(reps)], capture_output=True, text=True, check=True)
    return {r["id"]: r for r in (json.loads(line) for line in out.stdout.splitlines() if line.startswith("{"))}


def side_by_side(reps: int = 5) -> dict[str, Any]:
    """Per-position timings of kubasolve and (if built) wolges on the golden positions, same run.

    Each position: median of ``reps`` runs of all moves and of the best move (as ``nl_time`` does).
    With the kit, the two run interleaved position by position (wolges' ``nl_time`` started on each
    position right after kubasolve's runs; it times itself, so its start-up is not counted), so
    a load swing on the shared machine hits both sides alike. Then medians and p90 over positions
    and their ratios (kubasolve / wolges: below 1 is faster), and the median and p90 over positions
    of the per-position ratio (the issue's "per position (median and p90)"), with the positions of
    the highest all-moves ratio."""
    from kubasolve.games.crossword.board import Board
    from kubasolve.games.crossword.movegen import best_move, move_arrays

    lex, layout, tiles = _context()
    records = golden_records()
    empty_template = next(r for r in records if r["tiles_on_board"] == 0)
    for i, rack in enumerate(EMPTY_RACKS):
        records.append({**empty_template, "id": -1 - i, "rack": "".join(sorted(rack.replace("?", ""))) + "?" * rack.count("?")})
    kit = wolges_kit()
    ours: dict[int, tuple[float, float]] = {}
    theirs: dict[int, tuple[float, float]] = {}
    with tempfile.TemporaryDirectory(prefix="kubasolve-wolges-") as tmp:
        for rec in records:
            board = Board.from_rows(rec["board"], lex.alphabet)
            rack = rec["rack"]
            move_arrays(board, rack, lex, layout, tiles)
            ta, tb = [], []
            for _ in range(reps):
                t0 = time.perf_counter()
                move_arrays(board, rack, lex, layout, tiles)
                t1 = time.perf_counter()
                best_move(board, rack, lex, layout, tiles)
                t2 = time.perf_counter()
                ta.append((t1 - t0) * 1e6)
                tb.append((t2 - t1) * 1e6)
            ours[rec["id"]] = (statistics.median(ta), statistics.median(tb))
            if kit is not None:
                row = _wolges_times(kit[0], kit[1], [rec], reps, Path(tmp))[rec["id"]]
                theirs[rec["id"]] = (float(row["all_moves_us"]), float(row["best_move_us"]))
    golden_ids = [r["id"] for r in records if r["id"] >= 0]
    o_all = [ours[i][0] for i in golden_ids]
    o_best = [ours[i][1] for i in golden_ids]
    report: dict[str, Any] = {
        "positions": len(golden_ids),
        "reps": reps,
        "kubasolve": {"all_moves_median_us": statistics.median(o_all), "all_moves_p90_us": _p90(o_all),
                      "best_move_median_us": statistics.median(o_best), "best_move_p90_us": _p90(o_best),
                      "empty_board_all_moves_ms": {rack: ours[-1 - i][0] / 1e3 for i, rack in enumerate(EMPTY_RACKS)}},
    }
    if kit is None:
        report["wolges"] = None
        report["wolges_skipped"] = "no wolges kit (set KUBASOLVE_WOLGES_DIR or run ../shared/crossword/kit/build.sh /tmp/wolges-kit)"
        return report
    w_all = [theirs[i][0] for i in golden_ids]
    w_best = [theirs[i][1] for i in golden_ids]
    report["wolges"] = {"all_moves_median_us": statistics.median(w_all), "all_moves_p90_us": _p90(w_all),
                        "best_move_median_us": statistics.median(w_best), "best_move_p90_us": _p90(w_best),
                        "empty_board_all_moves_ms": {rack: theirs[-1 - i][0] / 1e3 for i, rack in enumerate(EMPTY_RACKS)}}
    r_all = [a / w for a, w in zip(o_all, w_all, strict=True)]
    r_best = [a / w for a, w in zip(o_best, w_best, strict=True)]
    report["ratio_kubasolve_over_wolges"] = {
        "all_moves_median": statistics.median(o_all) / statistics.median(w_all),
        "all_moves_p90": _p90(o_all) / _p90(w_all),
        "best_move_median": statistics.median(o_best) / statistics.median(w_best),
        "best_move_p90": _p90(o_best) / _p90(w_best),
        "per_position_all_moves_median": statistics.median(r_all),
        "per_position_all_moves_p90": _p90(r_all),
        "per_position_best_move_median": statistics.median(r_best),
        "per_position_best_move_p90": _p90(r_best),
        "empty_board_all_moves": {rack: ours[-1 - i][0] / theirs[-1 - i][0] for i, rack in enumerate(EMPTY_RACKS)},
    }
    by_id = {r["id"]: r for r in records}
    for j, name in enumerate(("all_moves", "best_move")):
        worst = sorted(golden_ids, key=lambda i: -ours[i][j] / theirs[i][j])[:6]
        report[f"worst_per_position_{name}"] = [
            f"id {i} rack {by_id[i]['rack']} moves {by_id[i]['num_moves']}: {ours[i][j]:.1f} / {theirs[i][j]:.1f} us = {ours[i][j] / theirs[i][j]:.2f}x"
            for i in worst]
    return report


def _selfplay_table(referee: Any, games: int, seed: int, skip: int = 0) -> list[tuple[int, str]]:
    """(seed, CGP line) of the bag-empty positions of ``games`` self-play games from ``seed``, ``skip`` turns after the bag
    emptied (:func:`selfplay_endgames`)."""
    from kubasolve.games.crossword.endgame import selfplay_endgames
    from kubasolve.games.crossword.notation import to_cgp

    out = []
    for st in selfplay_endgames(referee, games, seed, skip):
        p, q = st.current, 1 - st.current
        out.append((st.seed, to_cgp(st.board.to_rows(), [st.racks[p], st.racks[q]], [st.scores[p], st.scores[q]], st.scoreless, {"lex": "nl"})))
    return out


def _regenerate_endgames() -> None:
    """Print the endgame positions again from self-play (what :data:`ENDGAMES` holds, if nothing changed)."""
    from kubasolve.games.crossword.game import Referee
    from kubasolve.lexicon import load_lexicon

    for seed, cgp in _selfplay_table(Referee(load_lexicon("nl")), 40, 100):
        sys.stdout.write(json.dumps({"seed": seed, "cgp": cgp}) + "\n")


def _endgames_main(argv: list[str]) -> int:
    import argparse

    ap = argparse.ArgumentParser(prog="python -m kubasolve.bench.crossword_scenarios endgames", description=endgame_proofs.__doc__)
    ap.add_argument("--time-limit", type=float, default=10.0, help="seconds per position (default 10)")
    ap.add_argument("--legacy", action="store_true", help="also the old solver, interleaved, and the ratios")
    ap.add_argument("--cpu", action="store_true", help="budget in thread CPU time instead of wall time")
    ap.add_argument("--positions", default=None, help="comma-separated indices (default all 40)")
    ap.add_argument("--threads", type=int, default=1, help="search threads of the compiled solver (default 1)")
    ap.add_argument("--jump", type=int, default=None, help="shallow iterations before the one to the end (default the solver's)")
    ap.add_argument("--fresh", type=int, nargs=2, metavar=("SEED", "GAMES"), default=None,
                    help="the endgames of GAMES new self-play games from SEED instead of the stored set")
    ap.add_argument("--calibrate", action="store_true",
                    help=f"also time a reference workload ({CALIBRATION_NODES:,} nodes of position {CALIBRATION_POSITION}, one thread) "
                         "before and after: the machine's speed in this run")
    ap.add_argument("--rounds", type=int, default=1, help="solve the set this many times, round after round (default 1)")
    ap.add_argument("--regenerate", action="store_true", help="print the positions again from self-play instead")
    ap.add_argument("--skip", type=int, default=0,
                    help="with --fresh: each game's position this many turns after its bag emptied (smaller endgames)")
    ap.add_argument("--wolges", action="store_true",
                    help="also wolges' endgame solver (benchmarks/wolges_endgame/build.sh), both under its rule: two passes "
                         "in a row end the game")
    args = ap.parse_args(argv)
    if args.regenerate:
        _regenerate_endgames()
        return 0
    chosen = [int(x) for x in args.positions.split(",")] if args.positions else None

    def show(rec: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(rec) + "\n")
        sys.stdout.flush()

    from kubasolve.games.crossword.endgame import MAX_THREADS

    if not 1 <= args.threads <= MAX_THREADS or (args.threads > 1 and args.legacy):
        ap.error(f"--threads: 1 to {MAX_THREADS}, and 1 with --legacy")
    if args.jump is not None and args.jump < 0:
        ap.error("--jump: 0 (no shallow iterations) or more")
    if args.fresh is not None and args.fresh[1] < 1:
        ap.error("--fresh: GAMES must be at least 1")
    if args.rounds < 1:
        ap.error("--rounds: 1 or more")
    if args.skip < 0 or (args.skip and args.fresh is None):
        ap.error("--skip: 0 or more, with --fresh")
    if args.wolges and args.legacy:
        ap.error("--wolges and --legacy: one comparison at a time")
    try:
        report = endgame_proofs(args.time_limit, args.legacy, args.cpu, chosen, on_result=show, threads=args.threads, jump=args.jump,
                                fresh=None if args.fresh is None else (args.fresh[0], args.fresh[1]), calibrate=args.calibrate,
                                rounds=args.rounds, wolges=args.wolges, skip=args.skip)
    except ValueError as exc:
        ap.error(str(exc))
    except FileNotFoundError as exc:
        sys.stderr.write(f"{ap.prog}: error: {exc}\n")
        return 1
    sys.stdout.write(json.dumps({"summary": report}) + "\n")
    return 0


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "endgames":
        raise SystemExit(_endgames_main(sys.argv[2:]))
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    sys.stdout.write(json.dumps(side_by_side(reps), indent=1) + "\n")
