"""Rummikub benchmark scenarios: kubasolve's exact solver on random tables of 20-40 tiles and racks of 14,
in three modes, side by side with PyPI's ``rummikub-solver`` (both backends) on the same instances.

Each timed call solves the next instance of a fixed list (deterministic seeds), so a median is a median
over positions. ``rummikub-solver`` (cvxpy, optional extra ``compare``) is skipped when not installed.
"""

from __future__ import annotations

import functools
import statistics
import time
from collections.abc import Callable
from typing import Any

from kubasolve.bench.runner import Scenario, cycle

MODES = ("tiles", "value", "first-meld")
N_INSTANCES = 60


def instances(n: int = N_INSTANCES, seed: int = 2015) -> list[Any]:
    """The benchmark positions: seeds ``seed .. seed+n-1`` of :func:`random_instance`."""
    from kubasolve.games.rummikub.instances import random_instance

    return [random_instance(seed + i) for i in range(n)]


def compare_rules() -> Any:
    """The rules of the comparison: the defaults with free joker retrieval, which is what rummikub-solver
    does (table jokers may move to any set)."""
    from kubasolve.games.rummikub import RummikubRules

    return RummikubRules(joker_retrieval="free")


def kubasolve_call(mode: str, rules: Any = None) -> Callable[[Any], int]:
    """Function solving one instance with kubasolve in ``mode`` (under ``rules``, by default
    :func:`compare_rules`); returns the optimal value in rummikub-solver's terms (tiles; face value;
    numbered tiles of the first meld)."""
    from kubasolve.games.rummikub import solve

    rules = rules or compare_rules()

    def run(inst: Any) -> int:
        if mode == "tiles":
            return solve(inst.table, inst.rack, rules, "tiles").value
        if mode == "value":
            return solve(inst.table, inst.rack, rules, "value").value
        return solve(inst.table, inst.rack, rules, "keep-jokers", first_meld=True).value

    return run


def rummikub_solver_available() -> str | None:
    """None when rummikub-solver can run, else the reason (for a clear skip message)."""
    try:
        import rummikub_solver  # noqa: F401
    except ImportError:
        return "rummikub-solver is not installed (pip install 'kubasolve[compare]')"
    return None


def baseline_backends() -> list[str]:
    """rummikub-solver backends installed here: SCIPY (its default without highspy... HiGHS via SciPy) and GLPK_MI."""
    if rummikub_solver_available():
        return []
    import rummikub_solver as rs

    supported = {str(b) for b in rs.MILPSolver.supported()}
    return [b for b in ("SCIPY", "GLPK_MI") if b in supported]


def baseline_call(mode: str, backend: str) -> Callable[[Any], int]:
    """Function solving one instance with rummikub-solver; returns its optimal value (see kubasolve_call)."""
    import rummikub_solver as rs

    ruleset = rs.RuleSet(solver_backend=rs.MILPSolver(backend))
    tiles = ruleset.tiles  # same order as kubasolve codes: colour-major numbers, joker last

    def run(inst: Any) -> int:
        state = ruleset.new_game()
        state.initial = mode == "first-meld"
        if mode != "first-meld":  # a first meld uses own tiles only: the table plays no part
            state.add_table(*[tiles[t] for s in inst.table for t in s])
        state.add_rack(*[tiles[t] for t in inst.rack])
        if mode == "first-meld":
            p = ruleset.solve(state, rs.SolverMode.INITIAL)
            return 0 if p is None else sum(1 for t in p.tiles if isinstance(t, rs.Number))
        p = ruleset.solve(state, rs.SolverMode.TILE_COUNT if mode == "tiles" else rs.SolverMode.TOTAL_VALUE)
        if p is None:
            return 0
        if mode == "tiles":
            return len(p.tiles)
        return sum(getattr(t, "value", 0) for t in p.tiles)

    return run


_CRASHES: dict[tuple[str, str, int, int], list[int]] = {}


def baseline_crashes(mode: str, backend: str, n: int = N_INSTANCES, seed: int = 2015) -> list[int]:
    """Instances on which rummikub-solver aborts the whole process (GLPK_MI hits ``glp_add_cols: ncs = 0``
    on some first melds). Found by solving them in child processes; they are left out of its timings."""
    key = (mode, backend, n, seed)
    if key in _CRASHES:
        return _CRASHES[key]
    import subprocess
    import sys

    crashed: list[int] = []
    start = 0
    code = (
        "import sys\nfrom kubasolve.bench.rummikub_scenarios import baseline_call, instances\n"
        f"insts = instances({n}, {seed}); fn = baseline_call({mode!r}, {backend!r})\n"
        "for i in range(int(sys.argv[1]), len(insts)):\n    print(i, flush=True); fn(insts[i])\nprint('done', flush=True)\n"
    )
    while start < n:
        lines = subprocess.run(
            [sys.executable, "-c", code, str(start)], capture_output=True, text=True, check=False
        ).stdout.splitlines()
        if "done" in lines:
            break
        started = [int(x) for x in lines if x.strip().isdigit()]
        last = started[-1] if started else start
        crashed.append(last)
        start = last + 1
    _CRASHES[key] = crashed
    return crashed


def _safe_instances(mode: str, backend: str) -> list[Any]:
    skip = set(baseline_crashes(mode, backend)) if backend == "GLPK_MI" and mode == "first-meld" else set()
    return [inst for i, inst in enumerate(instances()) if i not in skip]


def _baseline_setup(mode: str, backend: str) -> Callable[[], object]:
    return cycle(_safe_instances(mode, backend), baseline_call(mode, backend))


def _kubasolve_setup(mode: str) -> Callable[[], object]:
    return cycle(instances(), kubasolve_call(mode))


def _one_position(fn: Callable[[Any], int], inst: Any) -> Callable[[], object]:
    return functools.partial(fn, inst)


def _slowest_position(fn: Callable[[Any], int], insts: list[Any]) -> Callable[[], object]:
    """``fn`` on the position it is slowest on (best of two timings each, after a warm-up call), so the
    runner's median over repeated calls is that solver's worst case on ``insts``."""
    fn(insts[0])
    slowest = max(insts, key=lambda inst: min(_timed(fn, inst) for _ in range(2)))
    return functools.partial(fn, slowest)


def _timed(fn: Callable[[Any], int], inst: Any) -> float:
    t0 = time.perf_counter()
    fn(inst)
    return time.perf_counter() - t0


def scenarios() -> list[Scenario]:
    """kubasolve in each mode, with rummikub-solver (each installed backend) as the group's baselines; the
    big-table positions of issue 9 one by one, and each solver's slowest of :func:`big_instances` (free
    retrieval, GLPK_MI as the baseline: the ratio is the ratio of the worst cases)."""
    out: list[Scenario] = []
    backends = baseline_backends()
    for mode in MODES:
        group = f"rummikub-{mode}"
        base = f"rummikub-solver-{backends[0]}" if backends else None
        for b in backends:
            out.append(
                Scenario(
                    name=f"rummikub-solver-{b}",
                    group=group,
                    setup=functools.partial(_baseline_setup, mode, b),
                    description=f"PyPI rummikub-solver ({b} via cvxpy), {mode}",
                )
            )
        out.append(
            Scenario(
                name="kubasolve",
                group=group,
                baseline=base,
                target_ms=1.0,
                setup=functools.partial(_kubasolve_setup, mode),
                description=f"kubasolve exact solver, {mode}, tables of 20-40 tiles, racks of 14",
            )
        )
        for b in backends[1:]:  # the runner compares with one baseline: time kubasolve again for the other
            out.append(
                Scenario(
                    name=f"kubasolve (vs {b})",
                    group=group,
                    baseline=f"rummikub-solver-{b}",
                    target_ms=1.0,
                    setup=functools.partial(_kubasolve_setup, mode),
                    description=f"kubasolve exact solver, {mode} (same as 'kubasolve', ratio against {b})",
                )
            )
    glpk = "GLPK_MI" in backends
    from kubasolve.games.rummikub.instances import issue_instances

    for name, inst in issue_instances().items():
        group = f"rummikub-issue9 {name}"
        if glpk:
            out.append(Scenario(
                name="rummikub-solver-GLPK_MI", group=group,
                setup=functools.partial(lambda i: _one_position(baseline_call("tiles", "GLPK_MI"), i), inst),
                description=f"rummikub-solver GLPK_MI, most tiles, {name}",
            ))
        out.append(Scenario(
            name="kubasolve", group=group, baseline="rummikub-solver-GLPK_MI" if glpk else None, target_ms=10.0,
            setup=functools.partial(lambda i: _one_position(kubasolve_call("tiles"), i), inst),
            description=f"kubasolve, most tiles, {name}",
        ))
    for mode in BIG_MODES:
        group = f"rummikub-big-worst-{mode}"
        if glpk:
            out.append(Scenario(
                name="rummikub-solver-GLPK_MI (its slowest)", group=group,
                setup=functools.partial(
                    lambda m: _slowest_position(baseline_call(m, "GLPK_MI"), list(big_instances().values())), mode
                ),
                description=f"rummikub-solver GLPK_MI on its slowest of the big-table positions, {mode}",
            ))
        out.append(Scenario(
            name="kubasolve (its slowest)", group=group, target_ms=10.0,
            baseline="rummikub-solver-GLPK_MI (its slowest)" if glpk else None,
            setup=functools.partial(
                lambda m: _slowest_position(kubasolve_call(m), list(big_instances().values())), mode
            ),
            description=f"kubasolve on its slowest of the {len(big_instances())} big-table positions, {mode}",
        ))
    return out


def side_by_side(n: int = N_INSTANCES, seed: int = 2015) -> dict[str, Any]:
    """Solve the same instances with kubasolve and every installed rummikub-solver backend; per mode:
    median and worst time of each, ratios, and every instance where the optimal values differ (with the
    kubasolve move, independently checked, so it is clear which answer is right)."""
    from kubasolve.games.rummikub import (
        check_play,
        format_table,
        format_tiles,
        solve,
    )

    insts = instances(n, seed)
    rules = compare_rules()
    report: dict[str, Any] = {"instances": n, "modes": {}}
    for mode in MODES:
        solvers: dict[str, Callable[[Any], int]] = {"kubasolve": kubasolve_call(mode)}
        for b in baseline_backends():
            solvers[f"rummikub-solver-{b}"] = baseline_call(mode, b)
        times: dict[str, list[float]] = {k: [] for k in solvers}
        values: dict[str, list[int | None]] = {k: [] for k in solvers}
        crashes: dict[str, list[int]] = {}
        for name, fn in solvers.items():
            skip = (
                set(baseline_crashes(mode, "GLPK_MI", n, seed))
                if name.endswith("GLPK_MI") and mode == "first-meld"
                else set()
            )
            crashes[name] = sorted(skip)
            fn(insts[min(set(range(n)) - skip)])  # warm-up (JIT, cvxpy problem build)
            for i, inst in enumerate(insts):
                if i in skip:
                    values[name].append(None)
                    continue
                t0 = time.perf_counter()
                values[name].append(fn(inst))
                times[name].append((time.perf_counter() - t0) * 1e3)
        stats = {k: {"median_ms": statistics.median(v), "worst_ms": max(v)} for k, v in times.items()}
        for k in stats:
            if k != "kubasolve":
                stats[k]["median_ratio"] = stats[k]["median_ms"] / stats["kubasolve"]["median_ms"]
                stats[k]["worst_ratio"] = stats[k]["worst_ms"] / stats["kubasolve"]["worst_ms"]
        diffs = []
        for i, inst in enumerate(insts):
            row = {k: values[k][i] for k in solvers}
            if len({v for v in row.values() if v is not None}) > 1:
                objective = {"tiles": "tiles", "value": "value", "first-meld": "keep-jokers"}[mode]
                sol = solve(inst.table, inst.rack, rules, objective, first_meld=mode == "first-meld")
                diffs.append(
                    {
                        "instance": i,
                        "values": row,
                        "table": format_table(inst.table, rules),
                        "rack": format_tiles(inst.rack, rules),
                        "kubasolve_move": sol.text(),
                        "kubasolve_move_legal": not check_play(inst.table, inst.rack, sol.table, rules),
                    }
                )
                others = [v for k, v in row.items() if k != "kubasolve" and v is not None]
                legal = diffs[-1]["kubasolve_move_legal"]
                # a legal move worth more than another solver's "optimum" proves that optimum wrong
                diffs[-1]["verdict"] = (
                    "kubasolve right: its legal move beats the other value"
                    if legal and all(row["kubasolve"] is not None and row["kubasolve"] >= v for v in others)
                    else "kubasolve wrong"
                )
        report["modes"][mode] = {"stats": stats, "differences": diffs, "baseline_crashes": crashes}
    return report


def format_side_by_side(report: dict[str, Any]) -> str:
    """Plain-text table of :func:`side_by_side`."""
    from kubasolve.cli.output import format_table

    rows = []
    for mode, r in report["modes"].items():
        for name, s in r["stats"].items():
            rows.append(
                [
                    mode,
                    name,
                    round(s["median_ms"], 3),
                    round(s["worst_ms"], 3),
                    "" if "median_ratio" not in s else f"{s['median_ratio']:.1f}x",
                    "" if "worst_ratio" not in s else f"{s['worst_ratio']:.1f}x",
                ]
            )
        rows.append([mode, "values differ on", len(r["differences"]), "", "", ""])
        wrong = sum(
            1 for d in r["differences"] if d["verdict"] != "kubasolve right: its legal move beats the other value"
        )
        if r["differences"]:
            rows.append([mode, "  of which kubasolve wrong", wrong, "", "", ""])
        for name, bad in r.get("baseline_crashes", {}).items():
            if bad:
                rows.append([mode, f"{name} aborted on", len(bad), "", "", ""])
    return format_table(["mode", "solver", "median ms", "worst ms", "median ratio", "worst ratio"], rows)


def joker_sweep(
    n: int = 500, seed: int = 10000, retrieval: str = "free", modes: tuple[str, ...] = MODES
) -> dict[str, Any]:
    """Time kubasolve alone on ``n`` random positions (seeds ``seed..seed+n-1``) per mode: median, worst and
    positions over 10 ms, overall and by jokers in play (table and rack; rack only for a first meld)."""
    from kubasolve.games.rummikub import RummikubRules

    rules = RummikubRules(joker_retrieval=retrieval)
    insts = instances(n, seed)
    joker = rules.joker
    report: dict[str, Any] = {"instances": n, "seed": seed, "retrieval": retrieval, "modes": {}}
    for mode in modes:
        fn = kubasolve_call(mode, rules)
        fn(insts[0])  # warm-up (JIT)
        rows: list[tuple[int, float]] = []
        for inst in insts:
            jokers = inst.rack.count(joker) + (0 if mode == "first-meld" else sum(s.count(joker) for s in inst.table))
            t0 = time.perf_counter()
            fn(inst)
            rows.append((jokers, (time.perf_counter() - t0) * 1e3))
        groups: dict[str, list[float]] = {"all": [t for _, t in rows]}
        for j in sorted({j for j, _ in rows}):
            groups[f"{j} joker(s)"] = [t for jj, t in rows if jj == j]
        report["modes"][mode] = {
            k: {
                "positions": len(v),
                "median_ms": statistics.median(v),
                "worst_ms": max(v),
                "over_10ms": sum(t > 10 for t in v),
            }
            for k, v in groups.items()
        }
    return report


def format_joker_sweep(report: dict[str, Any]) -> str:
    """Plain-text table of :func:`joker_sweep`."""
    from kubasolve.cli.output import format_table

    rows = [
        [mode, k, s["positions"], round(s["median_ms"], 3), round(s["worst_ms"], 2), s["over_10ms"]]
        for mode, r in report["modes"].items()
        for k, s in r.items()
    ]
    title = f"{report['instances']} positions from seed {report['seed']}, joker_retrieval={report['retrieval']}\n"
    return title + format_table(["mode", "jokers in play", "positions", "median ms", "worst ms", "> 10 ms"], rows)


BIG_FAMILY = 40
"""Generated big-table positions in the worst-case benchmark (besides the issue's three)."""
BIG_MODES = ("tiles", "value")


def big_instances(n: int = BIG_FAMILY) -> dict[str, Any]:
    """The worst-case positions: the issue's three (two rack jokers, the whole rack can go out), ``n`` of
    :func:`~kubasolve.games.rummikub.instances.big_family` (tables of 0-92 tiles, two jokers anywhere) and the
    four slowest of a wider sweep of that family (:func:`~kubasolve.games.rummikub.instances.hard_instances`)."""
    from kubasolve.games.rummikub.instances import big_family, hard_instances, issue_instances

    out: dict[str, Any] = dict(issue_instances())
    for i, inst in enumerate(big_family(n)):
        out[f"family {i}"] = inst
    out.update(hard_instances())
    return out


def _time_each(fn: Callable[[Any], int], insts: dict[str, Any], repeat: int = 1) -> dict[str, tuple[float, int]]:
    """(best time of ``repeat`` in ms, value) per position."""
    out = {}
    for name, inst in insts.items():
        best = float("inf")
        value = 0
        for _ in range(repeat):
            t0 = time.perf_counter()
            value = fn(inst)
            best = min(best, (time.perf_counter() - t0) * 1e3)
        out[name] = (best, value)
    return out


def big_tables(n: int = BIG_FAMILY, repeat: int = 2, modes: tuple[str, ...] = BIG_MODES) -> dict[str, Any]:
    """kubasolve (free retrieval, as compared, and strict, the default) and rummikub-solver GLPK_MI on the
    worst-case positions (:func:`big_instances`), one run: per mode every position's time (best of ``repeat``)
    and value, each solver's median and worst, and the ratio of the worst cases (GLPK_MI worst / kubasolve
    worst). Values are checked equal in ``tiles`` mode (rummikub-solver's value objective counts tiles)."""
    from kubasolve.games.rummikub import RummikubRules

    insts = big_instances(n)
    first = next(iter(insts.values()))
    report: dict[str, Any] = {"positions": len(insts), "modes": {}}
    for mode in modes:
        solvers: dict[str, Callable[[Any], int]] = {
            "kubasolve": kubasolve_call(mode),
            "kubasolve strict": kubasolve_call(mode, RummikubRules()),
        }
        if "GLPK_MI" in baseline_backends():
            solvers["rummikub-solver-GLPK_MI"] = baseline_call(mode, "GLPK_MI")
        rows: dict[str, dict[str, tuple[float, int]]] = {}
        for name, fn in solvers.items():
            fn(first)  # warm-up (JIT, cvxpy problem build)
            rows[name] = _time_each(fn, insts, repeat)
        stats: dict[str, dict[str, Any]] = {}
        for name, per in rows.items():
            times = [t for t, _ in per.values()]
            worst = max(per, key=lambda k: per[k][0])
            stats[name] = {"median_ms": statistics.median(times), "worst_ms": per[worst][0], "worst_position": worst}
        if "rummikub-solver-GLPK_MI" in stats:
            glpk = stats["rummikub-solver-GLPK_MI"]["worst_ms"]
            for name in ("kubasolve", "kubasolve strict"):
                stats[name]["worst_ratio_vs_GLPK_MI"] = glpk / stats[name]["worst_ms"]
                stats[name]["slower_than_GLPK_MI_on"] = [
                    k for k in insts if rows[name][k][0] >= rows["rummikub-solver-GLPK_MI"][k][0]
                ]
        differ = []
        if mode == "tiles" and "rummikub-solver-GLPK_MI" in rows:
            differ = [k for k in insts if rows["kubasolve"][k][1] != rows["rummikub-solver-GLPK_MI"][k][1]]
        report["modes"][mode] = {"stats": stats, "values_differ": differ, "times": rows}
    return report


def format_big_tables(report: dict[str, Any]) -> str:
    """Plain-text summary of :func:`big_tables`."""
    from kubasolve.cli.output import format_table

    rows = []
    for mode, r in report["modes"].items():
        for name, s in r["stats"].items():
            ratio = s.get("worst_ratio_vs_GLPK_MI")
            slower = s.get("slower_than_GLPK_MI_on")
            rows.append([
                mode, name, round(s["median_ms"], 2), round(s["worst_ms"], 2), s["worst_position"],
                "" if ratio is None else f"{ratio:.1f}x", "" if slower is None else len(slower),
            ])
        if r["values_differ"]:
            rows.append([mode, "values differ (kubasolve vs GLPK_MI) on", len(r["values_differ"]), "", "", "", ""])
    title = f"{report['positions']} big-table positions (issue 9 and a generated family), one run\n"
    return title + format_table(
        ["mode", "solver", "median ms", "worst ms", "worst position", "GLPK_MI worst / worst", "slower than GLPK_MI on"],
        rows,
    )
