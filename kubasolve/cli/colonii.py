"""``kubasolve colonii``: best turn and moves for a hand and a table (``best``); ``play``, ``simulate`` and ``show``
are the generic ones of :mod:`kubasolve.cli.games`. See ``docs/colonii.md``."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

TABLE_HELP = ("table groups: WORD:OWNER[:STAKE][:p] for a word (stake: default its value; p: protected), "
              "WORD+WORD+...:OWNER for a colony, e.g. cal:1 ziar+rânjet:0")

RULES_DOC = "docs/colonii.md: settings at top level or under [colonii]"
HELP = "Word colonies (Romanian letter cards): best turn; play, simulate and show games"
AI_HELP = "random, greedy, planner"
LEXICON = "ro"
SIMULATE_PLAYERS = "greedy,planner"


def add_commands(csub: argparse._SubParsersAction) -> None:
    """``best``."""
    from kubasolve.cli.common import add_budget_arguments, add_json_argument, add_lexicon_argument, add_rules_argument, count

    b = csub.add_parser("best", help="best turn and moves for a hand, e.g. `kubasolve colonii best oriferânjet --table cal:1 ziar:1 tac:0`",
                        description="Every legal move for the hand on the table, and the best turn: a sequence of up to 3 "
                                    "word moves, each on the table the previous one left (exact), with the owner's "
                                    "supercolony declarations and decolonisations.")
    b.add_argument("hand", help="the cards of the player to move, as letters (e.g. oriferânjet)")
    b.add_argument("--table", nargs="*", default=[], metavar="GROUP", help=TABLE_HELP)
    b.add_argument("--mover", type=count(0, 7), default=0, help="player number of the mover (default 0)")
    b.add_argument("--players", type=count(1, 8), default=2, help="number of players (default 2)")
    b.add_argument("--top", type=count(0, 100_000), default=10, help="how many single moves to list (default 10; 0 = all)")
    b.add_argument("--objective", choices=("gain", "swing"), default="gain",
                   help="gain: own points (ties: more taken); swing: own points plus points taken from others")
    b.add_argument("--max-moves", type=count(1, 30), default=None,
                   help="word moves in the best turn (default the rules' max_turn_moves; the exact search covers 3)")
    add_budget_arguments(b, "the best-turn search")
    add_rules_argument(b, RULES_DOC)
    add_lexicon_argument(b, "ro")
    add_json_argument(b)
    b.set_defaults(func=run_best)

def _rules(path: Path | None) -> Any:
    from kubasolve.games.colonii.rules import ColoniiRules

    return ColoniiRules.from_toml(path) if path else ColoniiRules()


def _lexicon(name: str, rules: Any) -> Any:
    from kubasolve.lexicon import load_lexicon

    return load_lexicon(name, alphabet=rules.alphabet) if Path(name).suffix else load_lexicon(name)


def parse_group(spec: str, rules: Any) -> Any:
    """A table group from ``WORD:OWNER[:STAKE][:p]`` or ``W1+W2+...:OWNER`` (a colony)."""
    from kubasolve.cli.common import whole_number
    from kubasolve.errors import PositionError
    from kubasolve.games.colonii.table import Group
    from kubasolve.lexicon.alphabet import normalize_word

    parts = spec.split(":")
    if len(parts) < 2 or not parts[0]:
        raise PositionError(f"table group {spec!r}: write WORD:OWNER (e.g. cal:1) or W1+W2:OWNER for a colony")
    words = tuple(normalize_word(w.strip()) for w in parts[0].split("+"))
    protected = parts[-1].lower() == "p"
    if protected:
        parts = parts[:-1]
    if len(parts) > 3:
        raise PositionError(f"table group {spec!r}: too many ':' fields")
    # digits 0-9 only (a full-width '１' is not read as 1), within the engine's bounds (players 0-7, stake <= 100,000)
    owner = whole_number(parts[1], f"table group {spec!r}: OWNER", 0, 7)
    if len(parts) > 2:
        stake = whole_number(parts[2], f"table group {spec!r}: STAKE", 0, 100_000)
    else:
        stake = rules.value(words[0]) if len(words) == 1 and all(c in rules.alphabet for c in words[0]) else 0
    return Group(words, owner, stake, protected)


def run_best(args: argparse.Namespace) -> int:
    """Handler of ``colonii best``."""
    from kubasolve.cli.common import budget_of
    from kubasolve.cli.output import emit_json, format_table
    from kubasolve.errors import PositionError
    from kubasolve.games.colonii.movegen import TurnBudget, solver_for
    from kubasolve.games.colonii.table import ColoniiPosition

    rules = _rules(args.rules)
    if args.top < 0:
        raise PositionError("--top must be >= 0")
    table = tuple(parse_group(s, rules) for s in args.table)
    position = ColoniiPosition(table, args.hand.strip().lower(), args.mover, args.players)
    solver = solver_for(_lexicon(args.lexicon, rules), rules)
    moves = solver.all_moves(position, args.objective, args.top or None)
    count = solver.count_moves(position)
    solver.warm_up()  # the one-time set-up, before the budget's clock starts
    meter = budget_of(args).meter(TurnBudget)
    turn = solver.best_turn(position, args.objective, args.max_moves, meter)
    if args.json:
        emit_json({"ok": True, "count": count, "best_turn": turn.to_dict(), "moves": [m.to_dict() for m in moves],
                   "proven_optimal": turn.proven_optimal, "nodes": meter.nodes})
        return 0
    if table:
        print(format_table(["group", "owner", "words", "stake"],
                           [[i, g.owner, " + ".join(g.words) + (" (protected)" if g.protected else ""), g.stake] for i, g in enumerate(table)]))
        print()
    rows = [[k + 1, m.kind.value, "" if m.target is None else m.target, m.word.upper(), m.cards, m.gain, m.taken] for k, m in enumerate(moves)]
    print(format_table(["#", "move", "group", "word", "cards", "gain", "taken"], rows))
    why = "" if turn.proven_optimal else (" found (budget ran out, not proven)" if meter.exhausted
                                          else " of up to 3 word moves (not proven: the rules allow more)")
    print(f"\n{count} legal moves. Best turn{why}: "
          f"+{turn.gain} points, {turn.taken} taken from others" + "".join(f"\n  {describe(m)}" for m in turn.moves))
    return 0


def describe(move: Any) -> str:
    """One move of a turn in words, e.g. ``conquest-a CALORIFER on group 0: cards orifer, +11``."""
    if not move.kind.builds:
        what = "a supercolony" if move.play == "declare" else ""
        return f"{move.play} group {move.target} {what}".rstrip() + f": +{move.gain}"
    return f"{move.kind.value} {move.word.upper()}{'' if move.target is None else f' on group {move.target}'}: cards {move.cards}, +{move.gain}"
