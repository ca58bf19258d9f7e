"""``kubasolve bench``: run the benchmark scenarios and print medians, spreads and speed-up ratios."""

from __future__ import annotations

import argparse
import sys

from kubasolve.bench.catalog import SUITES, load_suite
from kubasolve.errors import KubasolveError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="run benchmark scenarios (ratios against baselines of the same run)")
    p.add_argument("suites", nargs="*", metavar="SUITE", help=f"suites to run (default: all of {', '.join(SUITES)})")
    p.add_argument("--min-time", type=float, default=0.5, help="seconds of timing per scenario (default 0.5)")
    p.add_argument("--filter", default=None, help="only scenarios whose name contains this text")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from kubasolve.bench.runner import run_scenarios
    from kubasolve.cli.output import emit_json, format_table

    names = args.suites or list(SUITES)
    unknown = [n for n in names if n not in SUITES]
    if unknown:
        raise KubasolveError(f"unknown suite(s) {', '.join(unknown)}; known: {', '.join(SUITES)}")
    scenarios = [sc for n in names for sc in load_suite(n) if not args.filter or args.filter in sc.name]
    if not scenarios:
        raise KubasolveError("no scenario matches")

    def progress(name: str, i: int, n: int) -> None:
        sys.stderr.write(f"\r[{i + 1}/{n}] {name:<60}")
        sys.stderr.flush()

    results = run_scenarios(scenarios, min_time_s=args.min_time, progress=progress)
    sys.stderr.write("\r" + " " * 72 + "\r")
    if args.json:
        emit_json({"ok": True, "results": [r.as_dict() for r in results]})
        return 0
    rows = []
    for r in results:
        target = "" if r.target_ms is None else f"<= {r.target_ms:g}"
        ratio = ", ".join(f"{_ratio(v)} vs {k}" for k, v in r.speedups.items())
        rows.append([r.group, r.name, round(r.median_ms, 4), round(r.iqr_ms, 4), r.rounds, target, ratio])
    print(format_table(["group", "scenario", "median ms", "IQR ms", "rounds", "target ms", "speed-up"], rows))
    return 0


def _ratio(x: float) -> str:
    """Speed-up as text with enough digits for ratios far below or above 1."""
    return f"{x:.1f}x" if x >= 1 else f"{x:.3g}x"
