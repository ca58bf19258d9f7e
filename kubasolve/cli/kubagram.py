"""``kubasolve kubagram``: best words, compounds and whole claims for a position (plus play/simulate)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from kubasolve.cli.common import UsageError, add_json_argument, add_lexicon_argument, add_rules_argument, ascii_text, count
from kubasolve.errors import RulesError


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("kubagram", help="Kubagram: best words, compounds, claims; play and simulate games")
    ksub = p.add_subparsers(dest="kubagram_command", metavar="ACTION")
    ksub.required = True
    b = ksub.add_parser(
        "best",
        help="ranked words from a central field, e.g. `kubasolve kubagram best kroegentoch --joker EYGR`",
        description="Rank every word (and, with --table, compound) formable from the central field.",
    )
    b.add_argument("letters", nargs="?", default="", help="fixed letters of the central field, e.g. kroegentoch")
    b.add_argument("--joker", action="append", default=[], metavar="LETTERS", help="a held joker, e.g. EYGR (repeatable)")
    b.add_argument("--choice", action="append", default=[], metavar="LETTERS", help="a cube just taken from a III square, e.g. abc (repeatable)")
    b.add_argument("--table", nargs="*", default=[], metavar="WORD[:OWNER[:JOKERS[:LEVEL]]]", help="words on the table, for compounds")
    b.add_argument("--mover", type=count(0, 7), default=0, help="player index of the mover (for compound gains)")
    b.add_argument("--min-length", type=count(1, 64), default=None, help="shortest word (default 5)")
    b.add_argument("--last-cube", action="store_true", help="the mover took the last cube: 2-letter words allowed")
    b.add_argument("--top", type=count(0), default=10, help="how many moves to show (default 10; 0 = all, up to the engine's bound)")
    b.add_argument("--claim", action="store_true", help="also show the best whole claim (up to 3 words/compounds)")
    b.add_argument("--movetime-ms", type=count(1, 600_000), default=None,
                   help="time budget of the searches in ms (default none: exact); then the best found so far")
    b.add_argument("--max-nodes", type=count(1, 10**10), default=None,
                   help="node budget of the searches (deterministic; default none: exact)")
    add_rules_argument(b, "docs/kubagram.md")
    add_lexicon_argument(b, "nl")
    add_json_argument(b)
    b.set_defaults(func=run_best)
    a = ksub.add_parser("analyse", help="per turn: best claim available vs the one made, words left to the next player",
                        description="Analyse a game from `kubagram simulate --records` (a JSON-lines file) or `kubagram play --save`.")
    a.add_argument("record", metavar="GAME", help="game record file")
    a.add_argument("--game", type=count(0), default=None, help="which game of a records file (its `game` number; default the first)")
    add_rules_argument(a, "docs/kubagram_game.md")
    add_lexicon_argument(a, "nl")
    add_json_argument(a)
    a.set_defaults(func=run_analyse)
    try:
        from kubasolve.cli.kubagram_game import add_game_commands
    except ImportError:  # pragma: no cover - game commands ship separately
        return
    add_game_commands(ksub)


def run_best(args: argparse.Namespace) -> int:
    from kubasolve.cli.output import emit_json, format_table
    from kubasolve.games.kubagram import KubagramPosition, solver_for
    from kubasolve.games.kubagram.movegen import SearchBudget
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
    top = args.top or KUBAGRAM_MAX_TOP
    budget = SearchBudget(args.max_nodes, args.movetime_ms) if args.max_nodes or args.movetime_ms else None
    words = solver.best_words(position, top=top, budget=budget)
    compounds = solver.compound_moves(position, top=top, budget=budget) if position.table else []
    claim = solver.best_move(position, budget=budget) if args.claim else None
    if args.json:
        payload: dict[str, Any] = {
            "ok": True,
            "position": position.to_dict(),
            "rules": rules.to_dict(),
            "words": [w.to_dict() for w in words],
            "compounds": [c.to_dict() for c in compounds],
        }
        if claim is not None:
            payload["best_claim"] = claim.to_dict()
        if budget is not None:
            payload.update(proven_optimal=not budget.exhausted, nodes=budget.nodes)
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
    if budget is not None and budget.exhausted:
        print("(the budget ran out: the best found so far, not proven)")
    return 0


def run_analyse(args: argparse.Namespace) -> int:
    from kubasolve.cli.output import emit_json
    from kubasolve.games.kubagram.analysis import analyse_file, render_analysis
    from kubasolve.lexicon import load_lexicon

    rules, game_rules = load_rules(args.rules)
    analysis = analyse_file(args.record, args.game, rules, game_rules, load_lexicon(args.lexicon))
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
