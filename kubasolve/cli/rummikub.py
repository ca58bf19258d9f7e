"""``kubasolve rummikub``: solve a position (``solve``) or let AIs play many games (``simulate``).

Tile text: a colour letter and a number (``r7``; colours r, b, o, k by default) or ``J`` for a joker.
Table sets are separated by ``|`` (or ``;``): ``kubasolve rummikub solve "r1 r2 r3 | b10 o10 k10" --rack "r4 J b11"``.
"""

from __future__ import annotations

import argparse

from kubasolve.errors import KubasolveError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rummikub", help="Rummikub: exact best move, AI games (see docs/rummikub.md)")
    rsub = p.add_subparsers(dest="rummikub_command", metavar="ACTION")
    rsub.required = True

    s = rsub.add_parser(
        "solve", help='best play: TABLE sets separated by "|", e.g. "r1 r2 r3 | b10 o10 k10" --rack "r4 J"'
    )
    s.add_argument(
        "table", nargs="*", help='table sets, "|" between sets (several arguments are joined); empty for an empty table'
    )
    s.add_argument("--rack", required=True, help='rack tiles, e.g. "r4 J b11"')
    s.add_argument(
        "--objective", default="tiles", help="tiles (default), value, keep-jokers or penalty (joker = 30 points)"
    )
    s.add_argument(
        "--first-meld", action="store_true", help="first meld: own tiles only, worth >= min_first_meld points"
    )
    s.add_argument(
        "--fewest-changes",
        action="store_true",
        help="tie-break: change as few table sets as possible (integer programme)",
    )
    s.add_argument("--method", default="auto", choices=["auto", "dp", "ilp"], help="solver engine (both exact)")
    s.add_argument("--rules", default=None, metavar="TOML", help="rule variant file (see docs/rummikub.md)")
    s.add_argument(
        "--joker-retrieval",
        default=None,
        choices=["strict", "free"],
        help="strict (rulebook, default): a table joker moves only when the tile it stands for replaces it;"
        " free: table jokers move to any set (as rummikub-solver)",
    )
    s.add_argument("--json", action="store_true", help="machine-readable output")
    s.set_defaults(func=run_solve)

    m = rsub.add_parser("simulate", help="AI vs AI games from a seed; wins and mean scores per AI")
    m.add_argument("--games", type=int, default=10, help="number of games (default 10)")
    m.add_argument(
        "--players", default="greedy,holdback", help="comma-separated AIs: greedy, holdback (default greedy,holdback)"
    )
    m.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    m.add_argument("--rules", default=None, metavar="TOML", help="rule variant file")
    m.add_argument("--joker-retrieval", default=None, choices=["strict", "free"], help="joker rule (default strict)")
    m.add_argument("--json", action="store_true", help="machine-readable output")
    m.set_defaults(func=run_simulate)


def _rules(path: str | None, joker_retrieval: str | None = None):  # type: ignore[no-untyped-def]
    from dataclasses import replace

    from kubasolve.games.rummikub import RummikubRules

    rules = RummikubRules.from_toml(path) if path else RummikubRules()
    return replace(rules, joker_retrieval=joker_retrieval) if joker_retrieval else rules


def run_solve(args: argparse.Namespace) -> int:
    from kubasolve.cli.output import emit_json
    from kubasolve.games.rummikub import parse_table, parse_tiles, solve

    rules = _rules(args.rules, args.joker_retrieval)
    table = parse_table(" | ".join(args.table), rules)
    rack = parse_tiles(args.rack, rules)
    if not rack:
        raise KubasolveError("the rack is empty")
    sol = solve(
        table,
        rack,
        rules,
        args.objective,
        first_meld=args.first_meld,
        minimise_changes=args.fewest_changes,
        method=args.method,
    )
    if args.json:
        emit_json({"ok": True, **sol.to_dict()})
    else:
        print(sol.text())
        if sol.found:
            print(
                f"value {sol.value} ({sol.objective.value}), {len(sol.played)} tiles, "
                f"{sol.changed_sets} table set(s) changed, {sol.jokers_played} joker(s) played"
            )
    return 0


def run_simulate(args: argparse.Namespace) -> int:
    from kubasolve.ai.rummikub import simulate
    from kubasolve.cli.output import emit_json, format_table

    kinds = [k.strip() for k in args.players.split(",") if k.strip()]
    res = simulate(args.games, kinds, seed=args.seed, rules=_rules(args.rules, args.joker_retrieval), progress=True)
    d = res.to_dict()
    if args.json:
        emit_json({"ok": True, **d})
        return 0
    rows = [[k, res.wins[k], round(d["mean_score"][k], 2)] for k in res.wins]
    print(format_table(["AI", "wins", "mean score"], rows))
    if res.unfinished:
        print(f"{res.unfinished} game(s) hit the move limit")
    return 0
