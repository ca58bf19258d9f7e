"""``kubasolve bench``: run the benchmark scenarios and print medians, spreads and speed-up ratios.

With ``--check`` the exit code says whether every scenario met its target (1 when one missed it).
"""

from __future__ import annotations

import argparse
import sys

from kubasolve.bench.catalog import SUITES, load_suite
from kubasolve.cli.common import ProgressCallback, UsageError, add_json_argument, progress, progress_enabled, seconds
from kubasolve.errors import KubasolveError


class TargetMissed(KubasolveError):
    """``bench --check``: at least one scenario's median exceeded its target."""

    code = "limit-exceeded"


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("bench", help="run benchmark scenarios (ratios against baselines of the same run)")
    p.add_argument("suites", nargs="*", metavar="SUITE",
                   help=f"suites to run (default: all of {', '.join(SUITES)})")
    p.add_argument("--min-time", type=seconds(0.0, 3600.0), default=0.5, help="seconds of timing per scenario (default 0.5)")
    p.add_argument("--filter", default=None, help="only scenarios whose name contains this text")
    p.add_argument("--check", action="store_true", help="exit 1 when a scenario's median misses its target")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress on stderr (a bar on a terminal, else one line per scenario)")
    add_json_argument(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from kubasolve.bench.runner import run_scenarios
    from kubasolve.cli.output import emit_json, format_table

    names = args.suites or list(SUITES)
    unknown = [n for n in names if n not in SUITES]
    if unknown:
        raise UsageError(f"unknown suite(s) {', '.join(unknown)}; choose from {', '.join(SUITES)}")
    every = [sc for n in names for sc in load_suite(n)]
    scenarios = [sc for sc in every if args.filter is None or args.filter in sc.name]
    if not scenarios:  # a value outside the closed set of scenario names: a usage error naming the flag
        known = "; ".join(dict.fromkeys(sc.name for sc in every))
        raise UsageError(f"--filter {args.filter!r} matches no scenario of {', '.join(names)} (a scenario's name must contain it): {known}")
    bar = progress_enabled(args)
    plain = not bar and not args.no_progress  # stderr is not a terminal (a log, CI): one line per scenario

    def show(name: str, i: int, n: int, update: ProgressCallback) -> None:
        if plain:
            sys.stderr.write(f"kubasolve bench: [{i + 1}/{n}] {name} (setting up and timing)\n")
            sys.stderr.flush()
        else:
            update(i, n)

    with progress(args, len(scenarios), unit="scenario", enabled=bar) as update:
        results = run_scenarios(scenarios, min_time_s=args.min_time, progress=lambda name, i, n: show(name, i, n, update))
        update(len(scenarios), len(scenarios))
    missed = [r for r in results if r.met_target is False]
    if args.json:
        emit_json({"ok": not (args.check and missed), "results": [r.as_dict() for r in results],
                   "missed_targets": [r.name for r in missed]})
    else:
        rows = []
        for r in results:
            target = "" if r.target_ms is None else f"<= {r.target_ms:g}{'' if r.met_target else '  MISSED'}"
            ratio = ", ".join(f"{_ratio(v)} vs {k}" for k, v in r.speedups.items())
            cpu = r.extra.get("cpu_median_ms")
            rows.append([r.group, r.name, round(r.median_ms, 4), round(r.iqr_ms, 4),
                         round(cpu, 4) if isinstance(cpu, float) else "",
                         r.rounds, target, ratio])
        print(format_table(["group", "scenario", "median ms", "IQR ms", "CPU ms", "rounds", "target ms", "speed-up"], rows))
    if args.check and missed:
        sys.stdout.flush()
        if args.json:  # the JSON document above already says so; no second document on stdout
            sys.stderr.write(f"kubasolve: {len(missed)} scenario(s) missed their target\n")
            return 1
        raise TargetMissed(f"{len(missed)} scenario(s) missed their target: {', '.join(r.name for r in missed)}")
    return 0


def _ratio(x: float) -> str:
    """Speed-up as text with enough digits for ratios far below or above 1."""
    return f"{x:.1f}x" if x >= 1 else f"{x:.3g}x"
