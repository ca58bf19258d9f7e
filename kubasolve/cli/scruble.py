"""``kubasolve scruble``: scramble, best words within D twists, show the net (text / SVG), play in
the terminal, AI self-play. See ``docs/scruble.md``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import IO, Any

RULES_DOC = "docs/scruble.md: settings at top level or under [scruble]"
PLAY_HELP = """type a turn as twists, then optionally '=' and a word, e.g.   R U' = street
  h      hints: the best words within the twist budget
  q      quit
"""


def add_parser(sub: argparse._SubParsersAction) -> None:
    from kubasolve.cli.common import (
        add_json_argument,
        add_lexicon_argument,
        add_rules_argument,
        add_show_command,
        add_simulate_arguments,
        count,
        player_list,
    )
    from kubasolve.cli.common import seed as seed_type

    p = sub.add_parser("scruble", help="Scruble Cube (4x4x4 twisty letter cube): best words, play, simulate")
    ssub = p.add_subparsers(dest="scruble_command", metavar="ACTION")
    ssub.required = True

    s = ssub.add_parser("scramble", help="a seeded scrambled cube (the 96-character state on the last line)")
    s.add_argument("--seed", type=seed_type, default=0, help="scramble seed (default 0)")
    add_rules_argument(s, RULES_DOC)
    add_json_argument(s)
    s.set_defaults(func=run_scramble)

    b = ssub.add_parser("best", help="best words reachable within D twists, e.g. `kubasolve scruble best STATE --depth 2`")
    b.add_argument("state", help="96-character cube state (faces U R F D L B, 16 cells each; / and spaces ignored)")
    b.add_argument("--depth", type=count(0, 4), default=2, help="twists allowed (0-4, default 2)")
    b.add_argument("--top", type=count(1, 4096), default=10, help="how many words (default 10)")
    add_rules_argument(b, RULES_DOC)
    add_lexicon_argument(b, "en")
    add_json_argument(b, '{"moves": [{"word", "twists", "cells", "score", "breakdown", ...}]} best first')
    b.set_defaults(func=run_best)

    w = add_show_command(ssub, shows="a cube state or a saved game as an unfolded net", lexicon="en", func=run_show,
                         saved="a 96-character cube state (after --twists, with --cells highlighted in reading order), or a "
                               "saved game (a JSON file of ScrubleGame.to_dict, as the engine's state holds it; its latest word "
                               "numbered in reading order)",
                         state_help="a 96-character cube state, or a saved game (JSON file)", metavar="STATE|FILE")
    w.add_argument("--twists", default="", help="twists to apply to a cube state first, e.g. \"R U'\"")
    w.add_argument("--cells", type=count(0, 95), nargs="*", default=[], help="cells of a cube state to highlight, in reading order")
    add_rules_argument(w, RULES_DOC)

    g = ssub.add_parser("play", help="play Scruble against AIs in the terminal")
    g.add_argument("--players", type=player_list, default=player_list("human,planner"),
                   help="comma-separated seats: human, random, greedy, planner (default human,planner)")
    g.add_argument("--seed", type=seed_type, default=0, help="scramble seed (default 0)")
    add_rules_argument(g, RULES_DOC)
    add_lexicon_argument(g, "en")
    g.set_defaults(func=run_play)

    m = ssub.add_parser("simulate", help="AI self-play: win rates with 95%% confidence intervals")
    add_simulate_arguments(m, players="greedy,planner", players_help="random, greedy, planner", rules_doc=RULES_DOC, lexicon="en")
    m.set_defaults(func=run_simulate)


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
    from kubasolve.cli.output import emit_json, format_table
    from kubasolve.games.scruble.position import require_cube
    from kubasolve.games.scruble.render import net_text, reading_order_text
    from kubasolve.games.scruble.solver import require_twist_for_new_letter, search

    rules = _rules(args.rules)
    cube = require_cube(args.state, rules)
    require_twist_for_new_letter(args.depth, rules, key="--depth")
    lex = _lexicon(args.lexicon, rules)
    moves, stats = search(cube, lex, rules, args.depth, args.top)
    if args.json:
        emit_json({"ok": True, "states": stats.states, "moves": [m.as_dict() for m in moves]})
        return 0
    rows = [[k + 1, m.word.upper(), " ".join(m.notation()) or "-", m.score,
             f"{m.breakdown.word_points}+{m.breakdown.length_bonus + m.breakdown.face_bonus}"] for k, m in enumerate(moves)]
    print(format_table(["#", "word", "twists", "score", "word+bonus"], rows))
    if moves:
        print("\n" + net_text(cube.twisted(list(moves[0].twists)), moves[0].cells))
        print("reading order: " + reading_order_text(moves[0].word, moves[0].cells))
    print(f"\n{stats.states} states searched", file=sys.stderr)
    return 0


def run_show(args: argparse.Namespace) -> int:
    from kubasolve.cli.common import UsageError, emit_rendering, show_saved_game
    from kubasolve.games.scruble.position import require_cube
    from kubasolve.games.scruble.render import net_svg, net_text

    if Path(args.state).is_file():
        from kubasolve.games.scruble.game import ScrubleGame

        if args.twists.strip() or args.cells or args.rules:
            raise UsageError("--twists, --cells and --rules apply to a cube state, not to a saved game")
        lexicon = _lexicon(args.lexicon, _rules(None))
        return show_saved_game(args, "scruble", lambda data: ScrubleGame.from_dict(data, lexicon))
    rules = _rules(args.rules)
    cube = require_cube(args.state, rules)
    if args.twists.strip():
        from kubasolve.errors import PositionError
        from kubasolve.games.scruble.cube import NotationError

        try:
            cube = cube.twisted(args.twists)
        except NotationError as exc:
            raise PositionError(str(exc)) from None
    if args.svg is not None:
        values = dict(rules.pegs.values)
        return emit_rendering(args, cube, lambda c, _names: net_text(c, args.cells), lambda c, _names: net_svg(c, args.cells, values))
    print(net_text(cube, args.cells))
    print(cube.notation())
    return 0


def run_play(args: argparse.Namespace, stdin: IO[str] | None = None, out: IO[str] | None = None) -> int:
    """Terminal play: humans type twists and a word; AIs play their turns."""
    from kubasolve.ai.scruble import make_policy
    from kubasolve.errors import IllegalMoveError, RulesError
    from kubasolve.games.scruble.game import ScrubleGame, Turn
    from kubasolve.games.scruble.render import net_text
    from kubasolve.games.scruble.solver import search

    stdin = stdin or sys.stdin
    out = out or sys.stdout
    rules = _rules(args.rules)
    lex = _lexicon(args.lexicon, rules)
    seats = list(args.players)
    if not 1 <= len(seats) <= 4:
        raise RulesError("Scruble takes 1 to 4 players")
    policies = {i: make_policy(n, args.seed * 8 + i) for i, n in enumerate(seats) if n != "human"}
    game = ScrubleGame.new(len(seats), args.seed, rules)
    out.write(PLAY_HELP)
    highlight: tuple[int, ...] = ()
    while not game.over:
        p = game.to_move
        out.write(f"\n{net_text(game.cube, highlight)}\nround {game.round + 1}/{rules.rounds}  scores: "
                  + ", ".join(f"{seats[i]}#{i} {s}" for i, s in enumerate(game.scores)) + "\n")
        if p in policies:
            rec = game.play(policies[p](game, lex), lex)
        else:
            out.write(f"{seats[p]}#{p}> ")
            out.flush()
            line = stdin.readline()
            if not line or line.strip() == "q":
                return 0
            text = line.strip()
            if text == "h":
                for m in search(game.cube, lex, rules, min(2, rules.max_twists), 5, game.intact_words(),
                                spent=game.spent_premiums())[0]:
                    out.write(f"  {' '.join(m.notation())} = {m.word}   ({m.score})\n")
                continue
            twists, _, word = text.partition("=")
            try:
                rec = game.play(Turn(tuple(twists.split()), word.strip() or None), lex)
            except IllegalMoveError as exc:
                out.write(f"illegal: {exc}\n")
                continue
        highlight = tuple(rec.get("cells", ()))
        out.write(f"{seats[p]}#{p}: {' '.join(rec['twists'])}" + (f" = {rec['word'].upper()} +{rec['score']}" if "word" in rec else "") + "\n")
    out.write(f"\n{net_text(game.cube, highlight)}\nfinal scores: {game.scores}\n")
    return 0


def run_simulate(args: argparse.Namespace) -> int:
    from kubasolve.cli.common import backend_options, emit_summary, open_output, progress
    from kubasolve.cli.output import simulation_summary
    from kubasolve.games.scruble.simulate import simulate

    rules = _rules(args.rules).to_dict() if args.rules else None
    with open_output(args.records, "records") as records, progress(args, args.games) as on_game:
        res = simulate(args.games, args.players, seed=args.seed, workers=args.workers, **backend_options(args), records=records, rules=rules,
                       on_game=on_game, lexicon=args.lexicon)
    text = simulation_summary(res)
    emit_summary(args, res.to_dict(), text)
    return 0
