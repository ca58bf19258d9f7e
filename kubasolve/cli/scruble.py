"""``kubasolve scruble``: scramble, best words within D twists, show a cube state or a saved game as the net (text /
SVG); ``play`` and ``simulate`` are the generic ones of :mod:`kubasolve.cli.games`. See ``docs/scruble.md``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from kubasolve.games.limits import SCRUBLE_MAX_TOP

RULES_DOC = "docs/scruble.md: settings at top level or under [scruble]"
HELP = "Scruble Cube (4x4x4 twisty letter cube): best words, show; play and simulate games"
AI_HELP = "random, greedy, planner"
LEXICON = "en"
SIMULATE_PLAYERS = "greedy,planner"


def add_commands(ssub: argparse._SubParsersAction) -> None:
    """``scramble``, ``best`` and ``show`` (a cube state, or a saved game)."""
    from kubasolve.cli.common import add_budget_arguments, add_json_argument, add_lexicon_argument, add_rules_argument, count
    from kubasolve.cli.common import seed as seed_type
    from kubasolve.cli.games import add_show_arguments

    s = ssub.add_parser("scramble", help="a seeded scrambled cube (the 96-character state on the last line)")
    s.add_argument("--seed", type=seed_type, default=0, help="scramble seed (default 0)")
    add_rules_argument(s, RULES_DOC)
    add_json_argument(s)
    s.set_defaults(func=run_scramble)

    b = ssub.add_parser("best", help="best words reachable within D twists, e.g. `kubasolve scruble best STATE --depth 2`")
    b.add_argument("state", help="96-character cube state (faces U R F D L B, 16 cells each; / and spaces ignored)")
    b.add_argument("--depth", type=count(0, 4), default=2, help="twists allowed (0-4, default 2)")
    b.add_argument("--top", type=count(0, SCRUBLE_MAX_TOP), default=10,
                   help=f"how many words (default 10; 0 = all, up to {SCRUBLE_MAX_TOP:,}), as --top of the other games")
    add_budget_arguments(b, "the search")
    add_rules_argument(b, RULES_DOC)
    add_lexicon_argument(b, "en")
    add_json_argument(b, '{"moves": [{"word", "twists", "cells", "score", "breakdown", ...}], "proven_optimal", "nodes"} best first')
    b.set_defaults(func=run_best)

    w = ssub.add_parser("show", help="draw a cube state or a saved game as an unfolded net (text, or --svg)")
    add_show_arguments(w, "scruble", sys.modules[__name__], state_help="a 96-character cube state (after --twists, with --cells "
                       "highlighted in reading order), or a saved game (a file of 'play --save', an engine state; its latest "
                       "word numbered in reading order)", metavar="STATE|FILE")
    add_show_flags(w)
    w.set_defaults(func=run_show)


def add_show_flags(p: argparse.ArgumentParser) -> None:
    """The flags of a cube state in ``show`` (``scruble show``, and ``kubasolve show --game scruble``)."""
    from kubasolve.cli.common import add_rules_argument, count

    p.add_argument("--twists", default=None, help="twists to apply to a cube state first, e.g. \"R U'\"")
    p.add_argument("--cells", type=count(0, 95), nargs="*", default=None, help="cells of a cube state to highlight, in reading order")
    add_rules_argument(p, RULES_DOC)


def _rules(path: Path | None) -> Any:
    from kubasolve.games.scruble.rules import ScrubleRules

    return ScrubleRules.from_toml(path) if path else ScrubleRules()


def _lexicon(name: str, rules: Any) -> Any:
    from kubasolve.lexicon import Lexicon, load_lexicon

    if Path(name).suffix in (".txt", ".xz", ".gz") or "/" in name:
        return Lexicon.from_wordlist(name, alphabet=rules.pegs.alphabet)
    return load_lexicon(name)


def run_scramble(args: argparse.Namespace) -> int:
    from kubasolve.cli.output import emit_json
    from kubasolve.games.scruble.position import Cube
    from kubasolve.games.scruble.render import net_text

    rules = _rules(args.rules)
    cube = Cube.scrambled(rules.pegs, args.seed)
    if args.json:
        emit_json({"ok": True, "seed": args.seed, "state": cube.notation()})
        return 0
    print(net_text(cube))
    print(cube.notation())
    return 0


def run_best(args: argparse.Namespace) -> int:
    from kubasolve.cli.common import budget_of
    from kubasolve.cli.output import emit_json, format_table
    from kubasolve.games.scruble.position import require_cube
    from kubasolve.games.scruble.render import net_text, reading_order_text
    from kubasolve.games.scruble.solver import StateBudget, require_twist_for_new_letter, search, warm_up

    rules = _rules(args.rules)
    cube = require_cube(args.state, rules)
    require_twist_for_new_letter(args.depth, rules, key="--depth")
    lex = _lexicon(args.lexicon, rules)
    warm_up(cube, lex, rules)  # the one-time set-up, before the budget's clock starts
    meter = budget_of(args).meter(StateBudget)
    moves, stats = search(cube, lex, rules, args.depth, args.top or SCRUBLE_MAX_TOP, budget=meter)
    proven = not meter.exhausted and stats.complete
    if args.json:
        emit_json({"ok": True, "states": stats.states, "moves": [m.as_dict() for m in moves], "proven_optimal": proven,
                   "nodes": meter.nodes})
        return 0
    rows = [[k + 1, m.word.upper(), " ".join(m.notation()) or "-", m.score,
             f"{m.breakdown.word_points}+{m.breakdown.length_bonus + m.breakdown.face_bonus}"] for k, m in enumerate(moves)]
    print(format_table(["#", "word", "twists", "score", "word+bonus"], rows))
    if moves:
        print("\n" + net_text(cube.twisted(list(moves[0].twists)), moves[0].cells))
        print("reading order: " + reading_order_text(moves[0].word, moves[0].cells))
    print(f"\n{stats.states} states searched" + ("" if proven else " (cut short: the best found, not proven)"), file=sys.stderr)
    return 0


def run_show(args: argparse.Namespace) -> int:
    """Handler of ``scruble show`` (and of ``kubasolve show --game scruble``): a saved game (the generic show), or a
    cube state."""
    from kubasolve.cli.common import UsageError
    from kubasolve.cli.games import emit_drawing, show_saved_game
    from kubasolve.games.scruble.position import require_cube
    from kubasolve.games.scruble.render import net_svg, net_text

    twists = args.twists or ""
    cells = args.cells or []
    if Path(args.state).is_file():
        if twists.strip() or cells or args.rules:
            raise UsageError("--twists, --cells and --rules apply to a cube state, not to a saved game")
        return show_saved_game(args)
    if args.names is not None or args.lexicon is not None:
        raise UsageError("--names and --lexicon apply to a saved game, not to a cube state")
    rules = _rules(args.rules)
    cube = require_cube(args.state, rules)
    if twists.strip():
        from kubasolve.errors import PositionError
        from kubasolve.games.scruble.cube import NotationError

        try:
            cube = cube.twisted(twists)
        except NotationError as exc:
            raise PositionError(str(exc)) from None
    if args.svg is not None:
        values = dict(rules.pegs.values)
        return emit_drawing(args, net_text(cube, cells), lambda: net_svg(cube, cells, values))
    print(net_text(cube, cells))
    print(cube.notation())
    return 0


