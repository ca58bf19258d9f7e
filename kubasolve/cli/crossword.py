"""``kubasolve crossword``: every legal move for a board and a rack, terminal play against the AIs,
and AI self-play with confidence intervals. See ``docs/crossword.md``."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from kubasolve.games.limits import CROSSWORD_MAX_LISTED

RULES_DOC = "docs/crossword.md: settings at top level or under [crossword]"

PLAY_HELP = """commands (coordinates as in GCG: 8H = row 8 from column H across, H8 = column H from row 8 down):
  8H WORD            place a word; letters already on the board in parentheses or as '.', e.g. H8 WO(R)D;
                     a blank as a lower-case letter (8H WOrD)
  x LETTERS          exchange tiles (? for a blank), e.g. x QU?
  p                  pass
  c                  challenge the previous play (challenge mode)
  h                  hints: the best moves by score and by equity
  g                  print the game so far as GCG
  q                  quit
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

    p = sub.add_parser("crossword", help="crossword tile game (Dutch Scrabble-type rules): moves, play and simulate games")
    csub = p.add_subparsers(dest="crossword_command", metavar="ACTION")
    csub.required = True

    m = csub.add_parser("moves", help="every legal placement for a board and a rack, best first",
                        description="Every legal placement (the counting rule of docs/crossword.md), best first. "
                                    "The board FILE holds 15 lines of 15 characters ('.' empty, A-Z a tile, a-z a blank), "
                                    "one CGP line (its rack is used unless --rack is given; its bb, lex, ld, etl, mcnz, cr "
                                    "operations are honoured), or a GCG game (the position at its end, the rack of #rack1/#rack2 "
                                    "of the player to move); a CGP string may be given instead of a file.")
    m.add_argument("--board", required=True, metavar="FILE|CGP", help="board file (rows, CGP or GCG) or a CGP string")
    m.add_argument("--rack", default=None, help="the rack, e.g. EKNOW?? ('?' a blank); default the CGP's or GCG's")
    m.add_argument("--top", type=count(0, CROSSWORD_MAX_LISTED), default=20,
                   help=f"how many moves to list (default 20; 0 = all, up to {CROSSWORD_MAX_LISTED:,})")
    m.add_argument("--tiles", default=None, metavar="NAME|TOML", help="tile set: nl (default), en or a TOML file")
    add_rules_argument(m, RULES_DOC)
    add_lexicon_argument(m, "nl: or the CGP's lex / the GCG's #lexicon")
    add_json_argument(m)
    m.set_defaults(func=run_moves, lexicon=None)

    g = csub.add_parser("play", help="play against the AIs in the terminal (with hints)")
    g.add_argument("--players", type=player_list, default=player_list("human,equity"),
                   help="comma-separated seats: human, score, equity, sim (default human,equity)")
    g.add_argument("--seed", type=seed_type, default=None, help="deal seed (default: random, printed)")
    g.add_argument("--tiles", default=None, metavar="NAME|TOML", help="tile set: nl (default), en or a TOML file")
    g.add_argument("--gcg", default=None, metavar="FILE",
                   help="continue the game of a GCG file from its end (its players' seats: --players gives one per player)")
    add_rules_argument(g, RULES_DOC)
    add_lexicon_argument(g, "nl: or the GCG's #lexicon")
    g.set_defaults(func=run_play, lexicon=None)

    e = csub.add_parser("endgame", help="solve a two-player endgame (empty bag) exactly, within a time or node budget",
                        description="The best move of an endgame (the bag empty, both racks known) by the exact solver of "
                                    "docs/crossword.md; 'proven' when it reached the end of the game on every line. --board: a CGP "
                                    "line or file (the player to move's rack first; without a second rack the opponent holds every "
                                    "unseen tile), or a GCG game stopped when the bag ran out (the racks of #rack1/#rack2, or else "
                                    "the unseen tiles).")
    e.add_argument("--board", required=True, metavar="FILE|CGP", help="a CGP string, a file holding one CGP line, or a GCG file")
    e.add_argument("--time-limit", type=float, default=None, metavar="S", help="seconds at most (default 10 unless --nodes)")
    e.add_argument("--nodes", type=count(1, 100_000_000), default=None, help="node budget (deterministic)")
    e.add_argument("--tiles", default=None, metavar="NAME|TOML", help="tile set: nl (default), en or a TOML file")
    add_rules_argument(e, RULES_DOC)
    add_lexicon_argument(e, "nl: or the CGP's lex / the GCG's #lexicon")
    add_json_argument(e)
    e.set_defaults(func=run_endgame, lexicon=None)

    add_show_command(csub, shows="a saved game: the board with its premium squares, racks, scores", lexicon="nl", func=run_show,
                     saved="a saved crossword game (the JSON of CrosswordState.to_dict, as the engine's state holds it)")

    s = csub.add_parser("simulate", help="AI self-play: win rates with 95%% confidence intervals")
    add_simulate_arguments(s, players="score,equity",
                           players_help="score, equity, sim; equity:bounded / equity:NODES choose the endgame search (sim likewise)",
                           rules_doc=RULES_DOC, lexicon="nl")
    s.add_argument("--tiles", default=None, metavar="NAME|TOML", help="tile set: nl (default), en or a TOML file")
    s.set_defaults(func=run_simulate)


def load_rules(path: Path | None, tiles: str | None = None) -> Any:
    from kubasolve.games.crossword.rules import CrosswordRules

    rules = CrosswordRules.from_toml(path) if path else CrosswordRules()
    return rules.with_(tiles=tiles) if tiles else rules


@dataclass
class BoardInput:
    """What ``--board`` holds: its kind (``rows``, ``cgp``, ``gcg``), the text, and for CGP and GCG the
    parsed position or game."""

    kind: str
    text: str
    cgp: Any = None
    gcg: Any = None


def read_board_input(spec: str, n_rows: int, n_cols: int) -> BoardInput:
    """The board of ``--board``: a file of rows, a file holding a CGP line or a GCG game, or a CGP string."""
    from kubasolve.errors import PositionError
    from kubasolve.games.crossword.notation import MAX_GCG_LENGTH, parse_cgp, parse_gcg

    path = Path(spec)
    if path.is_file():
        try:
            if path.stat().st_size > MAX_GCG_LENGTH:
                raise PositionError(f"the board file {spec} is larger than {MAX_GCG_LENGTH:,} bytes")
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise PositionError(f"cannot read the board file {spec}: {exc}") from None
    elif "/" in spec and " " in spec.strip():
        text = spec
    else:
        raise PositionError(f"--board {spec!r}: no such file (give a file of {n_rows} rows, a CGP or GCG file, or a CGP string)")
    if any(ln.lstrip().startswith((">", "#player")) for ln in text.splitlines()):
        return BoardInput("gcg", text, gcg=parse_gcg(text, n_rows, n_cols))
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if len(lines) == 1 and "/" in lines[0]:
        return BoardInput("cgp", lines[0], cgp=parse_cgp(lines[0], n_rows, n_cols))
    if len(lines) != n_rows:
        raise PositionError(f"the board file has {len(lines)} rows, expected {n_rows} lines of {n_cols} characters (or one CGP line, or a GCG game)")
    return BoardInput("rows", "\n".join(lines))


def file_lexicon(named: str | None, given: str | None, what: str) -> str:
    """The lexicon to play: ``--lexicon`` if given, else the one the file names (a bundled name; any other is
    refused by name), else ``nl``."""
    from kubasolve.errors import PositionError
    from kubasolve.lexicon.bundled import BUNDLED

    if given is not None:
        if named is not None and named.lower() != given.lower():
            sys.stderr.write(f"kubasolve: notice: the {what} names lexicon {named!r}; playing {given!r} as --lexicon asks\n")
        return given
    if named is None:
        return "nl"
    match = next((n for n in BUNDLED if n.lower() == named.lower()), None)
    if match is None:
        raise PositionError(f"the {what} names lexicon {named!r}, which kubasolve does not have (bundled: {', '.join(sorted(BUNDLED))}); "
                            "give --lexicon to play the position against one of them")
    return match


def with_cgp_settings(rules: Any, board: BoardInput, args: argparse.Namespace) -> tuple[Any, str]:
    """(rules, lexicon name) with the CGP's operations applied (``--lexicon``/``--tiles`` given win); the
    operations not used are named on stderr."""
    from kubasolve.games.crossword.notation import cgp_settings
    from kubasolve.lexicon.bundled import BUNDLED

    if board.kind != "cgp":
        return rules, file_lexicon(board.gcg.lexicon if board.gcg is not None else None, args.lexicon, "GCG game")
    settings = cgp_settings(board.cgp, sorted(BUNDLED), given_lexicon=args.lexicon)
    changes = dict(settings.rules)
    if settings.tiles is not None and args.tiles is None:
        changes["tiles"] = settings.tiles
    if settings.notice():
        sys.stderr.write(f"kubasolve: notice: {settings.notice()}\n")
    return (rules.with_(**changes) if changes else rules), settings.lexicon or "nl"


def run_moves(args: argparse.Namespace) -> int:
    """Handler of ``crossword moves``."""
    from kubasolve.cli.output import emit_json, format_table
    from kubasolve.errors import PositionError
    from kubasolve.games.crossword.board import Board
    from kubasolve.games.crossword.game import Referee
    from kubasolve.games.crossword.movegen import generate_moves
    from kubasolve.games.crossword.notation import format_placement, state_from_gcg
    from kubasolve.lexicon import load_lexicon

    rules = load_rules(args.rules, args.tiles)
    layout = rules.board_layout()
    board_in = read_board_input(args.board, layout.rows, layout.cols)
    rules, lexicon_name = with_cgp_settings(rules, board_in, args)
    lexicon = load_lexicon(lexicon_name)
    file_rack: str | None = None
    if board_in.kind == "gcg":
        state = state_from_gcg(Referee(lexicon, rules), board_in.gcg)
        rows = state.board.to_rows()
        file_rack = board_in.gcg.racks[state.current] if board_in.gcg.racks else None
    elif board_in.kind == "cgp":
        rows, file_rack = list(board_in.cgp.rows), board_in.cgp.racks[0]
    else:
        rows = board_in.text.split("\n")
    rack = args.rack if args.rack is not None else file_rack
    if not rack:
        raise PositionError("give the rack with --rack (e.g. --rack EKNOW??)" + (" or #rack1/#rack2 in the GCG file" if board_in.kind == "gcg" else ""))
    tiles = rules.tile_set()
    board = Board.from_rows(rows, lexicon.alphabet)
    result = generate_moves(board, rack, lexicon, layout, tiles, top=args.top or CROSSWORD_MAX_LISTED, bingo_bonus=rules.bingo_bonus)
    if args.json:
        moves = []
        for mv in result.moves:
            d = mv.to_dict()
            d["notation"] = format_placement(mv.row, mv.col, mv.direction, mv.word, mv.tiles, through="()")
            moves.append(d)
        emit_json({"ok": True, "count": result.count, "max_score": result.max_score, "moves": moves})
        return 0
    table = [[k + 1, format_placement(m.row, m.col, m.direction, m.word, m.tiles, through="()"), m.score, "bingo" if m.bingo else ""]
             for k, m in enumerate(result.moves)]
    if table:
        print(format_table(["#", "move", "score", ""], table))
    print(f"{result.count} legal placements" + (f", best {result.max_score}" if result.count else " (exchange or pass)"))
    return 0


def run_endgame(args: argparse.Namespace) -> int:
    """Handler of ``crossword endgame``."""
    from kubasolve.ai.crossword_endgame import solve_endgame, state_from_cgp
    from kubasolve.cli.output import emit_json
    from kubasolve.errors import PositionError
    from kubasolve.games.crossword.game import Referee
    from kubasolve.games.crossword.notation import format_placement, state_from_gcg
    from kubasolve.lexicon import load_lexicon

    if args.time_limit is not None and not 0 < args.time_limit <= 86_400:
        raise PositionError(f"--time-limit must be a number of seconds from 0 to 86400, got {args.time_limit}")
    rules = load_rules(args.rules, args.tiles)
    layout = rules.board_layout()
    board_in = read_board_input(args.board, layout.rows, layout.cols)
    if board_in.kind == "rows":
        raise PositionError("--board: give one CGP line (a string or a file) or a GCG file")
    rules, lexicon_name = with_cgp_settings(rules, board_in, args)
    referee = Referee(load_lexicon(lexicon_name), rules)
    if board_in.kind == "gcg":
        state = state_from_gcg(referee, board_in.gcg)
        if state.over:
            raise PositionError("the GCG game is over: nothing to solve")
        if state.bag or state.n_players != 2:
            raise PositionError(f"the endgame solver needs two players and an empty bag; at the end of this GCG game the bag holds {len(state.bag)} tiles")
    else:
        state = state_from_cgp(referee, board_in.text)
    seconds = args.time_limit if args.time_limit is not None else (None if args.nodes else 10.0)
    res = solve_endgame(referee, state, time_limit=seconds, node_limit=args.nodes)
    m = res.move
    notation = "pass" if m is None else format_placement(m.row, m.col, m.direction, m.word, m.tiles, through="()")
    final = state.scores[0] - state.scores[1] + res.value
    if args.json:
        emit_json({"ok": True, **res.to_dict(), "notation": notation, "racks": list(state.racks), "final_spread": final})
        return 0
    print(f"{notation}" + ("" if m is None else f" +{m.score}"))
    print(f"spread still to come {res.value:+d} (final spread {final:+d}), {'proven' if res.proven else 'not proven'}; "
          f"depth {res.depth}, {res.nodes} nodes, {res.seconds:.2f} s")
    if res.pv:
        print("line: " + "; ".join(res.pv))
    return 0


def run_simulate(args: argparse.Namespace) -> int:
    """Handler of ``crossword simulate``."""
    from kubasolve.cli.common import backend_options, emit_summary, open_output, progress
    from kubasolve.cli.output import simulation_summary
    from kubasolve.games.crossword.simulate import simulate

    rules = load_rules(args.rules, args.tiles).to_dict() if args.rules or args.tiles else None
    with open_output(args.records, "records") as records, progress(args, args.games) as on_game:
        res = simulate(args.games, args.players, seed=args.seed, workers=args.workers, **backend_options(args), records=records, rules=rules,
                       on_game=on_game, lexicon=None if args.lexicon == "nl" else args.lexicon)
    text = simulation_summary(res)
    emit_summary(args, res.to_dict(), text)
    return 0


def run_show(args: argparse.Namespace) -> int:
    """Handler of ``crossword show``."""
    from kubasolve.cli.common import show_saved_game
    from kubasolve.games.crossword.game import CrosswordState, default_referee
    from kubasolve.lexicon import load_lexicon

    return show_saved_game(args, "crossword", lambda data: CrosswordState.from_dict(data, default_referee(None, load_lexicon(args.lexicon))))


def render(state: Any, names: list[str], viewer: int | None = None) -> str:
    """The board with coordinates, the scores and (for ``viewer``) the rack, as text."""
    from kubasolve.games.crossword.notation import COLUMNS

    rows = state.board.to_rows()
    lines = ["    " + " ".join(COLUMNS[: len(rows[0])])]
    for i, row in enumerate(rows):
        lines.append(f"{i + 1:>3} " + " ".join(row))
    lines.append(f"bag {len(state.bag)} tiles; scores: " + ", ".join(f"{n} {s}" for n, s in zip(names, state.scores, strict=True)))
    if viewer is not None:
        lines.append("your rack: " + " ".join(state.racks[viewer]))
    return "\n".join(lines)


def run_play(args: argparse.Namespace, stdin: IO[str] | None = None, out: IO[str] | None = None) -> int:
    """Handler of ``crossword play``: humans type moves, AIs play their turns."""
    import random

    from kubasolve.ai.crossword import equity_candidates, load_leaves, make_policy
    from kubasolve.errors import KubasolveError, RulesError
    from kubasolve.games.crossword.game import Referee
    from kubasolve.games.crossword.movegen import generate_moves
    from kubasolve.games.crossword.notation import format_placement, to_gcg
    from kubasolve.lexicon import load_lexicon

    stdin = stdin or sys.stdin
    out = out or sys.stdout
    seats = [p.strip().lower() for p in args.players]
    rules = load_rules(args.rules, args.tiles)
    if not rules.min_players <= len(seats) <= rules.max_players:
        raise RulesError(f"give {rules.min_players} to {rules.max_players} seats, e.g. --players human,equity")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    policies = {i: make_policy(s, seed + i) for i, s in enumerate(seats) if s != "human"}
    names = [f"{s}{i}" for i, s in enumerate(seats)]
    game = None
    gcg_path = getattr(args, "gcg", None)  # absent from a Namespace built by hand
    if gcg_path is not None:
        layout = rules.board_layout()
        game = read_board_input(gcg_path, layout.rows, layout.cols).gcg
        if game is None:
            raise RulesError(f"--gcg {gcg_path}: not a GCG game (#player1 nick Name, then >nick: lines)")
        if len(game.players) != len(seats):
            raise RulesError(f"the GCG game has {len(game.players)} players: give as many seats with --players")
        names = [f"{nick}({s})" for (nick, _), s in zip(game.players, seats, strict=True)]
    referee = Referee(load_lexicon(file_lexicon(game.lexicon if game else None, args.lexicon, "GCG game")), rules)
    if game is not None:
        from kubasolve.games.crossword.notation import state_from_gcg

        state = state_from_gcg(referee, game, seed)
        if state.over:
            raise RulesError(f"the game of {gcg_path} is over: nothing to continue")
    else:
        state = referee.new_game(seed, len(seats))

    def say(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    def describe(entry: dict[str, Any]) -> str:
        kind = entry["type"]
        if kind == "place":
            return f"{format_placement(entry['row'], entry['col'], entry['dir'], entry['word'], [tuple(t) for t in entry['tiles']], through='()')} +{entry['score']}"
        if kind == "exchange":
            return f"exchanged {len(entry['letters'])} tiles"
        if kind == "challenge":
            return f"challenged: {entry['result']}" + (f" ({', '.join(entry.get('invalid', []))})" if entry.get("invalid") else "")
        return kind

    if game is not None:
        say(f"Crossword ({rules.tiles} tiles, seed {seed}): {', '.join(names)}, continuing {gcg_path} after {len(game.events)} "
            f"events; {names[state.current]} to move (racks not in the file drawn from the unseen tiles).")
    else:
        draws = " / ".join(", ".join(f"{names[p]} {t}" for p, t in enumerate(r) if t) for r in state.start_draws)
        say(f"Crossword ({rules.tiles} tiles, seed {seed}): {', '.join(names)}. Start draw: {draws}; {names[state.current]} starts.")
    say("Type ? for help.")
    shown = -1
    while not state.over:
        p = state.current
        if p in policies:
            action = policies[p].turn(referee, state)
            state = referee.apply(state, action)
            say(f"{names[p]}: {describe(next(e for e in reversed(state.log) if e['type'] != 'end'))}")
            continue
        if shown != state.turn:
            say(render(state, names, p))
            shown = state.turn
        out.write(f"{names[p]}> ")
        out.flush()
        line = stdin.readline()
        if not line:
            say("\n(end of input: game abandoned)")
            return 0
        text = line.strip()
        if not text:
            continue
        cmd = text.split()[0].lower()
        try:
            if cmd in ("?", "help"):
                say(PLAY_HELP)
            elif cmd == "q":
                say("bye")
                return 0
            elif cmd == "g":
                say(to_gcg(state, names))
            elif cmd == "h":
                ml = generate_moves(state.board, state.rack(), referee.lexicon, referee.layout, referee.tiles, top=5)
                say(f"  {ml.count} legal placements; best by score:")
                for m in ml.moves:
                    say(f"    {format_placement(m.row, m.col, m.direction, m.word, m.tiles, through='()'):<24} {m.score}")
                say("  best by equity (score + leave value):")
                for c in equity_candidates(referee, state, load_leaves(referee.tiles.name), top=5):
                    what = c.action.letters if c.action.type == "exchange" else ""
                    if c.action.type == "place":
                        e = referee.judge_placement(state.board, state.rack(), c.action.tiles).placement
                        what = format_placement(e.row, e.col, e.direction, e.word, e.tiles, through="()")
                    else:
                        what = f"exchange {what}"
                    say(f"    {what:<24} {c.score:>4}  keep {c.leave or '-':<7} equity {c.equity:.1f}")
            elif cmd == "p":
                state = referee.apply(state, {"type": "pass"})
            elif cmd == "c":
                state = referee.apply(state, {"type": "challenge"})
                say(describe(state.log[-1]))
            elif cmd == "x":
                state = referee.apply(state, {"type": "exchange", "letters": "".join(text.split()[1:])})
            else:
                state = referee.apply(state, {"type": "place", "move": text})
                say(f"ok: {describe(next(e for e in reversed(state.log) if e['type'] != 'end'))}")
        except KubasolveError as exc:
            say(f"not allowed: {exc}")
    say(render(state, names))
    end = state.log[-1]
    say("end of the game: rack adjustments " + ", ".join(f"{names[q]} {a:+d}" for q, a in enumerate(end["adjust"])))
    say("winner: " + " and ".join(names[w] for w in state.winners()))
    return 0
