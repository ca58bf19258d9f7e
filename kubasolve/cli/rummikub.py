"""``kubasolve rummikub``: solve a position (``solve``) or let AIs play many games (``simulate``).

Tile text: a colour letter and a number (``r7``; colours r, b, o, k by default) or ``J`` for a joker.
Table sets are separated by ``|`` (or ``;``): ``kubasolve rummikub solve "r1 r2 r3 | b10 o10 k10" --rack "r4 J b11"``;
several table arguments are joined with spaces (``r1 r2 r3 '|' b10 o10 k10`` is the same table).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from kubasolve.cli.common import (
    add_json_argument,
    add_rules_argument,
    add_show_command,
    add_simulate_arguments,
    ascii_text,
    backend_options,
    emit_summary,
    open_output,
    progress,
)
from kubasolve.errors import KubasolveError

if TYPE_CHECKING:  # pragma: no cover
    from kubasolve.games.rummikub import RummikubRules


OBJECTIVES = ("tiles", "value", "keep-jokers", "penalty")
AI_NAMES = ("greedy", "holdback")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rummikub", help="Rummikub: exact best move, AI games (see docs/rummikub.md)")
    rsub = p.add_subparsers(dest="rummikub_command", metavar="ACTION")
    rsub.required = True

    s = rsub.add_parser(
        "solve", help='best play: TABLE sets separated by "|", e.g. "r1 r2 r3 | b10 o10 k10" --rack "r4 J"'
    )
    s.add_argument(
        "table",
        nargs="*",
        help='table tiles, "|" between sets; several arguments are joined with spaces, so '
        "`r1 r2 r3 '|' b10 o10 k10` is the same as one quoted argument; none for an empty table",
    )
    s.add_argument("--rack", required=True, help='rack tiles, e.g. "r4 J b11"')
    s.add_argument(
        "--objective", default="tiles", choices=OBJECTIVES,
        help="tiles (default), value, keep-jokers or penalty (joker = 30 points)",
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
    add_rules_argument(s, "docs/rummikub.md")
    s.add_argument(
        "--joker-retrieval",
        default=None,
        choices=["strict", "free"],
        help="strict (rulebook, default): a table joker moves only when the tile it stands for replaces it;"
        " free: table jokers move to any set (as rummikub-solver)",
    )
    add_json_argument(s)
    s.set_defaults(func=run_solve)

    add_show_command(rsub, shows="a saved game: the table's sets, the rack, pool and scores", lexicon=None, func=run_show,
                     saved="a saved Rummikub game (the JSON of RummikubGame.to_dict, as the engine's state holds it)")

    m = rsub.add_parser("simulate", help="AI vs AI games from a seed; wins and mean scores per AI")
    add_simulate_arguments(m, players="greedy,holdback", players_help=", ".join(AI_NAMES), rules_doc="docs/rummikub.md",
                           lexicon=None, games=10, max_games=100_000)
    m.add_argument("--joker-retrieval", default=None, choices=["strict", "free"], help="joker rule (default strict)")
    m.set_defaults(func=run_simulate)


def _rules(path: Path | None, joker_retrieval: str | None = None) -> RummikubRules:
    from dataclasses import replace

    from kubasolve.games.rummikub import RummikubRules
    from kubasolve.games.rummikub.sets import check_variant_size

    rules = RummikubRules.from_toml(path) if path else RummikubRules()
    check_variant_size(rules)  # the engine's bound too: larger variants take minutes and gigabytes per solve
    return replace(rules, joker_retrieval=joker_retrieval) if joker_retrieval else rules


def run_solve(args: argparse.Namespace) -> int:
    from kubasolve.cli.output import emit_json
    from kubasolve.games.rummikub import parse_table, parse_tiles, solve

    rules = _rules(args.rules, args.joker_retrieval)
    table = parse_table(ascii_text(" ".join(args.table), "table"), rules)
    rack = parse_tiles(ascii_text(args.rack, "--rack"), rules)
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


def run_show(args: argparse.Namespace) -> int:
    """Handler of ``rummikub show``."""
    from kubasolve.cli.common import show_saved_game
    from kubasolve.games.rummikub import RummikubGame

    return show_saved_game(args, "rummikub", RummikubGame.from_dict)


def run_simulate(args: argparse.Namespace) -> int:
    from kubasolve.ai.rummikub import simulate
    from kubasolve.cli.output import format_table

    rules = _rules(args.rules, args.joker_retrieval)
    with open_output(args.records, "records") as records, progress(args, args.games) as on_game:
        res = simulate(args.games, args.players, seed=args.seed, rules=rules, workers=args.workers, **backend_options(args), records=records,
                       on_game=on_game)
    d = res.to_dict()
    rows = [[k, res.wins[k], round(d["mean_score"][k], 2)] for k in res.wins]
    text = format_table(["AI", "wins", "mean score"], rows)
    if res.unfinished:
        text += f"\n{res.unfinished} game(s) hit the move limit"
    emit_summary(args, {**d, "seed": args.seed, "workers": args.workers}, text)
    return 0
