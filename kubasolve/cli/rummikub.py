"""``kubasolve rummikub``: solve a position (``solve``); ``play``, ``simulate`` and ``show`` are the generic ones of
:mod:`kubasolve.cli.games`.

Tile text: a colour letter and a number (``r7``; colours r, b, o, k by default) or ``J`` for a joker.
Table sets are separated by ``|`` (or ``;``): ``kubasolve rummikub solve "r1 r2 r3 | b10 o10 k10" --rack "r4 J b11"``;
several table arguments are joined with spaces (``r1 r2 r3 '|' b10 o10 k10`` is the same table).
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from kubasolve.cli.common import add_budget_arguments, add_json_argument, add_rules_argument, ascii_text, budget_of
from kubasolve.errors import KubasolveError

if TYPE_CHECKING:  # pragma: no cover
    from kubasolve.games.rummikub import RummikubRules


OBJECTIVES = ("tiles", "value", "keep-jokers", "penalty")
HELP = "Rummikub: exact best move; play, simulate and show games (see docs/rummikub.md)"
AI_HELP = "greedy, holdback"
RULES_DOC = "docs/rummikub.md"
LEXICON = None
SIMULATE_PLAYERS = "greedy,holdback"
SIMULATE_GAMES = 10
JOKER_HELP = ("strict (rulebook, default): a table joker moves only when the tile it stands for replaces it;"
              " free: table jokers move to any set (as rummikub-solver)")


def add_rule_flags(p: argparse.ArgumentParser) -> None:
    """``--joker-retrieval``: the joker rule (a shortcut for that one setting)."""
    p.add_argument("--joker-retrieval", dest="rule_joker_retrieval", default=None, choices=["strict", "free"], help=JOKER_HELP)


def add_commands(rsub: argparse._SubParsersAction) -> None:
    """``solve``."""

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
        help="tie-break: change as few table sets as possible (integer programme); the library's fewest_changes",
    )
    s.add_argument("--method", default="auto", choices=["auto", "dp", "ilp"], help="solver engine (both exact)")
    add_rules_argument(s, "docs/rummikub.md")
    s.add_argument("--joker-retrieval", default=None, choices=["strict", "free"], help=JOKER_HELP)
    add_budget_arguments(s, "the solve")
    add_json_argument(s)
    s.set_defaults(func=run_solve)

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
        fewest_changes=args.fewest_changes,
        method=args.method,
        budget=budget_of(args),
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
        if not sol.proven_optimal:
            print(f"(the budget ran out after {sol.nodes} nodes: the best play found so far, not proven)")
    return 0


