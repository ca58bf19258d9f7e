"""``kubasolve kubagram``: best words, compounds and whole claims for a position, and the analysis of a played game
(``play``, ``simulate`` and ``show`` are the generic ones of :mod:`kubasolve.cli.games`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from kubasolve.cli.common import (
    UsageError,
    add_budget_arguments,
    add_json_argument,
    add_lexicon_argument,
    add_rules_argument,
    ascii_text,
    budget_of,
    count,
)
from kubasolve.errors import RulesError

HELP = "Kubagram: best words, compounds, claims; play, simulate and analyse games"
AI_HELP = "random, greedy, planner[:DEPTH], search[:NODES]"
RULES_DOC = "docs/kubagram.md and docs/kubagram_game.md: scoring settings at top level or under [kubagram], game settings under [game]"
LEXICON = "nl"
SIMULATE_PLAYERS = "greedy,planner"
ROTATIONS = ("0", "90", "180", "270", "bottom-left", "bottom-right", "top-right", "top-left")


def add_play_flags(p: argparse.ArgumentParser) -> None:
    """Kubagram's deal setting in ``play``: the board's rotation."""
    p.add_argument("--rotation", dest="deal_rotation", default=None, metavar="TURN", choices=ROTATIONS,
                   help="the last player's board turn: 0, 90, 180, 270 or the corner that becomes the start cube "
                        "(bottom-left, bottom-right, top-right, top-left); default: seeded random")


def add_commands(ksub: argparse._SubParsersAction) -> None:
    """``best`` and ``analyse``."""
    b = ksub.add_parser(
        "best",
        help="ranked words from a central field, e.g. `kubasolve kubagram best kroegentoch --joker EYGR`",
        description="Rank every word (and, with --table, compound) formable from the central field.",
    )
    b.add_argument("letters", nargs="?", default="", help="fixed letters of the central field, e.g. kroegentoch")
    b.add_argument("--joker", action="append", default=[], metavar="LETTERS", help="a held joker, e.g. EYGR (repeatable)")
    b.add_argument("--choice", action="append", default=[], metavar="LETTERS", help="a cube just taken from a III square, e.g. abc (repeatable)")
    b.add_argument("--table", nargs="*", default=[], metavar="WORD[:OWNER[:JOKERS[:LEVEL]]]",
                   help="words on the table, for compounds: OWNER the player index (0-7, default 0), JOKERS how many of its "
                        "letters are jokers, LEVEL its compound level (default 0 each), e.g. kroegen:1 tocht:2:0:1")
    b.add_argument("--mover", type=count(0, 7), default=0, help="player index of the mover (for compound gains)")
    b.add_argument("--min-length", type=count(1, 64), default=None, help="shortest word (default 5)")
    b.add_argument("--last-cube", action="store_true", help="the mover took the last cube: 2-letter words allowed")
    b.add_argument("--top", type=count(0), default=10, help="how many moves to show (default 10; 0 = all, up to the engine's bound)")
    b.add_argument("--claim", action="store_true", help="also show the best whole claim (up to 3 words/compounds)")
    add_budget_arguments(b, "the searches (words, compounds, claim: one budget)")
    add_rules_argument(b, "docs/kubagram.md")
    add_lexicon_argument(b, "nl")
    add_json_argument(b)
    b.set_defaults(func=run_best)
    a = ksub.add_parser("analyse", help="per turn: best claim available vs the one made, words left to the next player",
                        description="Analyse a game from `kubagram simulate --records` (a JSON-lines file) or `kubagram play --save`.")
    a.add_argument("record", metavar="GAME", help="game record file")
    a.add_argument("--index", type=count(0), default=None, help="which game of a records file (its `index`; default the first)")
    a.add_argument("--game", dest="index", type=count(0), default=None, help=argparse.SUPPRESS)  # the old name of --index
    add_rules_argument(a, "docs/kubagram_game.md")
    add_lexicon_argument(a, "nl")
    add_json_argument(a)
    a.set_defaults(func=run_analyse)


def run_best(args: argparse.Namespace) -> int:
    from kubasolve.cli.output import emit_json, format_table
    from kubasolve.games.kubagram import KubagramPosition, SearchBudget, solver_for
    from kubasolve.games.kubagram.position import parse_table_spec
    from kubasolve.games.limits import KUBAGRAM_MAX_TOP, check_kubagram_request
    from kubasolve.lexicon import load_lexicon

    rules, _ = load_rules(args.rules)
    if args.min_length is not None:
        rules = rules.with_(min_length=args.min_length)
    lexicon = load_lexicon(args.lexicon)
    table = parse_table_spec([ascii_text(spec, "--table") for spec in args.table])
    position = KubagramPosition.from_letters(
        args.letters, jokers=args.joker, choices=args.choice, table=table, last_cube=args.last_cube, mover=args.mover
    )
    check_kubagram_request(position, claim=args.claim)  # the engine's bounds
    if args.top > KUBAGRAM_MAX_TOP:
        raise UsageError(f"--top: at most {KUBAGRAM_MAX_TOP:,} (0 = all, up to that many)")
    solver = solver_for(lexicon, rules)
    solver.warm_up()  # the one-time set-up, before the budget's clock starts
    meter = budget_of(args).meter(SearchBudget)
    top = args.top or KUBAGRAM_MAX_TOP
    words = solver.best_words(position, top=top, budget=meter)
    compounds = solver.compound_moves(position, top=top, budget=meter) if position.table else []
    claim = solver.best_move(position, budget=meter) if args.claim else None
    if claim is not None and meter.exhausted:
        claim = _at_least_the_best_item(claim, words, compounds)
    if args.json:
        payload: dict[str, Any] = {
            "ok": True,
            "position": position.to_dict(),
            "rules": rules.to_dict(),
            "words": [w.to_dict() for w in words],
            "compounds": [c.to_dict() for c in compounds],
            "proven_optimal": not meter.exhausted,
            "nodes": meter.nodes,
        }
        if claim is not None:
            payload["best_claim"] = claim.to_dict()
        emit_json(payload)
        return 0
    field = " ".join(t.label() for t in position.tiles) or "(empty)"
    print(f"field: {field}   min length: {rules.min_word_length(position.last_cube)}{'  (last cube)' if position.last_cube else ''}")
    if words:
        rows = [[i + 1, w.word, w.letters, w.bonus, f"x{w.multiplier}", w.score, _tiles_text(w, position)] for i, w in enumerate(words)]
        print(format_table(["#", "word", "letters", "bonus", "mult", "score", "tiles"], rows))
    else:
        print("no word can be formed")
    if compounds:
        print()
        rows = [[i + 1, c.word, _parts_text(c, position), c.letters, c.bonus, f"x{c.multiplier}", c.score, c.gain, c.taken] for i, c in enumerate(compounds)]
        print(format_table(["#", "compound", "parts", "letters", "bonus", "mult", "score", "gain", "taken"], rows))
        print("(new) = a word formed from the field in the same move")
    if claim is not None:
        print()
        items = [w.word for w in claim.words] + [c.word for c in claim.compounds]
        print(f"best claim: {', '.join(items) if items else '(nothing)'}  gain {claim.gain}, taken from others {claim.taken}")
    if meter.exhausted:
        print(f"\n(the budget ran out after {meter.nodes} nodes: the best found so far, not proven)")
    return 0


def run_analyse(args: argparse.Namespace) -> int:
    from kubasolve.cli.output import emit_json
    from kubasolve.games.kubagram.analysis import analyse_file, render_analysis
    from kubasolve.lexicon import load_lexicon

    rules, game_rules = load_rules(args.rules)
    analysis = analyse_file(args.record, args.index, rules, game_rules, load_lexicon(args.lexicon))
    if args.json:
        emit_json({"ok": True, **analysis.to_dict()})
    else:
        print(render_analysis(analysis))
    return 0


def load_rules(path: Path | None) -> tuple[Any, Any]:
    """Scoring rules and game rules from a ``--rules`` TOML file (defaults when None): scoring settings at
    top level or under ``[kubagram]``, game settings (players, vowel rule, penalty...) under ``[game]``."""
    import tomllib

    from kubasolve.games.kubagram import KubagramRules
    from kubasolve.games.kubagram.game_rules import KubagramGameRules

    if path is None:
        return KubagramRules(), KubagramGameRules()
    data = tomllib.loads(path.read_text(encoding="utf-8"))  # checked by the --rules type
    scoring = data.get("kubagram", {k: v for k, v in data.items() if k != "game"})
    if not isinstance(scoring, dict) or not isinstance(data.get("game", {}), dict):
        raise RulesError("[kubagram] and [game] must be tables of settings")
    return KubagramRules.from_dict(scoring), KubagramGameRules.from_dict(data.get("game", {}))


def _at_least_the_best_item(claim: Any, words: list[Any], compounds: list[Any]) -> Any:
    """The claim, or when the shared budget ran out before the claim search found as much, the best word or compound
    already listed above it (each alone is a legal claim): a claim worth less than a move shown is no best claim."""
    from kubasolve.games.kubagram import Claim

    options = [claim, *(Claim(words=(w,)) for w in words[:1]), *(Claim(compounds=(c,)) for c in compounds[:1])]
    return max(options, key=lambda c: c.gain)  # the first of equals: the claim search's own answer


def _tiles_text(move: Any, position: Any) -> str:
    """Which tile spells each letter: jokers and choice cubes are marked."""
    out = []
    for letter, i in zip(move.word, move.tiles):
        t = position.tiles[i]
        out.append(f"{letter}*" if t.joker else (f"{letter}^" if not t.fixed else letter))
    return "".join(out)


def _parts_text(move: Any, position: Any) -> str:
    """Parts joined by +, the new field word marked: table parts come in compound order."""
    table_words = [position.table[i].word for i in move.table_parts]
    out = []
    for part in move.parts:
        if table_words and part == table_words[0]:
            table_words.pop(0)
            out.append(part)
        else:
            out.append(f"{part} (new)")
    return " + ".join(out)
