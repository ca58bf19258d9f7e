"""``kubasolve crossword``: every legal move for a board and a rack (``moves``) and the exact endgame (``endgame``);
``play``, ``simulate`` and ``show`` are the generic ones of :mod:`kubasolve.cli.games`. See ``docs/crossword.md``."""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kubasolve.games.limits import CROSSWORD_MAX_ENDGAME_THREADS, CROSSWORD_MAX_LISTED

RULES_DOC = "docs/crossword.md: settings at top level or under [crossword]"
HELP = "crossword tile game (Dutch Scrabble-type rules): moves, endgame; play, simulate and show games"
AI_HELP = ("score, equity, sim, equity2, sim2; NAME:bounded / NAME:NODES choose the endgame search, NAME:MSms a time "
           "budget per turn (e.g. sim2:400ms), sim2:win (default) / sim2:spread its objective, sim2:3ply three plies "
           "(default 2), equity2:linear / sim2:linear the linear leaves instead of the learnt ones; options combine (sim2:spread:400ms)")
LEXICON = "nl"
SIMULATE_PLAYERS = "score,equity"
TILES_HELP = "tile set: nl (default), en or a TOML file"


def add_rule_flags(p: argparse.ArgumentParser) -> None:
    """``--tiles``: the rules' tile set (a shortcut for that one setting)."""
    p.add_argument("--tiles", dest="rule_tiles", default=None, metavar="NAME|TOML", help=TILES_HELP)


def add_play_flags(p: argparse.ArgumentParser) -> None:
    """``--gcg FILE``: the older name of ``--resume`` for a GCG game."""
    p.add_argument("--gcg", dest="resume", default=None, metavar="FILE", help=argparse.SUPPRESS)


def add_commands(csub: argparse._SubParsersAction) -> None:
    """``moves`` and ``endgame``."""
    from kubasolve.cli.common import add_budget_arguments, add_json_argument, add_lexicon_argument, add_rules_argument, count
    from kubasolve.cli.common import seed as seed_type

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
    m.add_argument("--tiles", default=None, metavar="NAME|TOML", help=TILES_HELP)
    add_rules_argument(m, RULES_DOC)
    add_lexicon_argument(m, "nl: or the CGP's lex / the GCG's #lexicon")
    add_json_argument(m)
    m.set_defaults(func=run_moves, lexicon=None)

    e = csub.add_parser("endgame", help="solve a two-player endgame (empty bag) exactly, within a time or node budget",
                        description="The best move of an endgame (the bag empty, both racks known) by the exact solver of "
                                    "docs/crossword.md; 'proven' when it reached the end of the game on every line. --board: a CGP "
                                    "line or file (the player to move's rack first; without a second rack the opponent holds every "
                                    "unseen tile), or a GCG game stopped when the bag ran out (#rack1 and/or #rack2: the other player "
                                    "holds the rest of the unseen tiles).")
    e.add_argument("--board", required=True, metavar="FILE|CGP", help="a CGP string, a file holding one CGP line, or a GCG file")
    add_budget_arguments(e, "the solver", "10 s unless --max-nodes")
    e.add_argument("--time-limit", type=float, default=None, metavar="S", help=argparse.SUPPRESS)  # older: seconds
    e.add_argument("--nodes", dest="old_nodes", type=count(1, 100_000_000), default=None, help=argparse.SUPPRESS)  # older --max-nodes
    e.add_argument("--threads", type=count(1, CROSSWORD_MAX_ENDGAME_THREADS), default=1, metavar="N",
                   help="search threads sharing the transposition table (default 1; 2 on a two-core machine proves most "
                        "long endgames about twice as fast; the value is the same, the node count varies from run to run)")
    e.add_argument("--tiles", default=None, metavar="NAME|TOML", help=TILES_HELP)
    add_rules_argument(e, RULES_DOC)
    add_lexicon_argument(e, "nl: or the CGP's lex / the GCG's #lexicon")
    add_json_argument(e)
    e.set_defaults(func=run_endgame, lexicon=None)

    lv = csub.add_parser("learn-leaves", help="learn a leave table (a value per kept-tile multiset) by self-play",
                         description="Self-play games by the best-equity policy; every sub-leave of every full rack is credited "
                                     "with the rack's best equity, rare leaves are shrunk toward their sub-leaves' estimate "
                                     "(docs/crossword.md, 'Learnt leaves'). Writes a compact .npz table; a held-out check "
                                     "reports how well each leave model predicts the next turn's score in unseen games.")
    lv.add_argument("--games", type=count(1, 10_000_000), default=None, help="training games per generation (required unless --refit)")
    lv.add_argument("--refit", default=None, metavar="SAMPLES.npz",
                    help="fit (and check) a table from the samples a run saved with --samples, without playing; "
                         "give --start the table those games were played with (the flags of a run that plays do not go with it)")
    lv.add_argument("--generations", type=count(1, 100), default=None,
                    help="rounds of play-then-refit; each plays with the table the previous one made (default 1)")
    lv.add_argument("--held-out", type=count(0, 1_000_000), default=None, metavar="N",
                    help="held-out games per generation for the check (default: a tenth of --games, at most 2000)")
    lv.add_argument("--start", default="linear", metavar="linear|none|FILE",
                    help="the leaves the first generation plays with: the shipped linear table (default), none, or a .npz table")
    lv.add_argument("--prune", type=float, default=0.1, metavar="POINTS",
                    help="leave out leaves within POINTS of their sub-leave estimate (default 0.1; 0 keeps every leave seen)")
    lv.add_argument("--prior", choices=("subleave", "linear", "synergy"), default=None,
                    help="what rare leaves are shrunk toward (docs/crossword.md; default subleave)")
    lv.add_argument("--shrink", type=float, default=None, metavar="SCALE",
                    help="scale of the empirical-Bayes shrinkage constant (below 1 shrinks less; default in docs/crossword.md)")
    lv.add_argument("--seed", type=seed_type, default=0, help="master seed; the same seed gives the same table (default 0)")
    lv.add_argument("--workers", type=count(1, 256), default=None, help="parallel worker processes or Ray actors (default 1)")
    lv.add_argument("--backend", choices=("local", "ray"), default=None, help="local processes or a Ray cluster (same table; default local)")
    lv.add_argument("--address", default=None, help="Ray cluster to join (auto, HOST:PORT, ray://HOST:PORT)")
    lv.add_argument("-o", "--output", dest="out", default=None, metavar="FILE", help="the table to write (.npz; required)")
    lv.add_argument("--out", dest="out", default=None, metavar="FILE", help=argparse.SUPPRESS)  # the older name of --output
    lv.add_argument("--report", default=None, metavar="FILE", help="also write the per-generation report as JSON")
    lv.add_argument("--samples", default=None, metavar="PREFIX",
                    help="also write each generation's raw samples to PREFIX-gN.npz (to refit without replaying)")
    lv.add_argument("--tiles", default=None, metavar="NAME|TOML", help="tile set: nl (default), en or a TOML file")
    lv.add_argument("--no-progress", action="store_true", help="no progress bar")
    add_rules_argument(lv, RULES_DOC)
    add_lexicon_argument(lv, "nl")
    add_json_argument(lv, "the report as one JSON document")
    lv.set_defaults(func=run_learn_leaves)


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
    from kubasolve.games.crossword.notation import MAX_GCG_LENGTH, decode_gcg, parse_cgp, parse_gcg

    path = Path(spec)
    if path.is_file():
        try:
            if path.stat().st_size > MAX_GCG_LENGTH:
                raise PositionError(f"the board file {spec} is larger than {MAX_GCG_LENGTH:,} bytes")
            text = decode_gcg(path.read_bytes())  # UTF-8, or a GCG's own encoding / ISO-8859-1
        except OSError as exc:
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
    """The lexicon to play: ``--lexicon`` if given (a notice on stderr when the file names another), else the one
    the file names (a bundled name; any other is refused by name), else ``nl``
    (:func:`~kubasolve.games.crossword.notation.file_lexicon`)."""
    from kubasolve.games.crossword.notation import file_lexicon as choose
    from kubasolve.lexicon.bundled import BUNDLED

    name, notice = choose(named, given, sorted(BUNDLED), what)
    if notice:
        sys.stderr.write(f"kubasolve: notice: {notice}\n")
    return name or "nl"


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
    from kubasolve.cli.common import UsageError
    from kubasolve.cli.output import emit_json
    from kubasolve.errors import PositionError
    from kubasolve.games.crossword.endgame import solve_endgame, state_from_cgp
    from kubasolve.games.crossword.game import Referee
    from kubasolve.games.crossword.notation import format_placement, state_from_gcg
    from kubasolve.lexicon import load_lexicon

    if args.time_limit is not None and not 0 < args.time_limit <= 86_400:
        raise PositionError(f"--time-limit must be a number of seconds from 0 to 86400, got {args.time_limit}")
    if args.time_limit is not None and args.movetime_ms is not None:
        raise UsageError("give --movetime-ms (milliseconds) or its older form --time-limit (seconds), not both")
    if args.old_nodes is not None and args.max_nodes is not None:
        raise UsageError("give --max-nodes or its older form --nodes, not both")
    nodes = args.max_nodes if args.max_nodes is not None else args.old_nodes
    movetime_s = args.movetime_ms / 1000 if args.movetime_ms is not None else args.time_limit
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
        known = [bool(r) for r in (board_in.gcg.racks or ())]
        if state.n_players == 2 and not any(known):
            # racks drawn at random from the unseen tiles would be solved as if they were the game's
            raise PositionError("the GCG game gives neither #rack1 nor #rack2: the endgame solver needs the rack of one player "
                                "at least (the other holds the rest of the unseen tiles)")
        if state.bag or state.n_players != 2:
            raise PositionError(f"the endgame solver needs two players and an empty bag; at the end of this GCG game the bag holds {len(state.bag)} tiles")
    else:
        state = state_from_cgp(referee, board_in.text)
    seconds = movetime_s if movetime_s is not None else (None if nodes else 10.0)
    res = solve_endgame(referee, state, time_limit=seconds, node_limit=nodes, threads=args.threads)
    m = res.move
    notation = "pass" if m is None else format_placement(m.row, m.col, m.direction, m.word, m.tiles, through="()")
    final = state.scores[0] - state.scores[1] + res.value
    if args.json:
        answer = res.to_dict()
        answer["proven_optimal"] = bool(answer.pop("proven", res.proven))  # the one name of every answer
        emit_json({"ok": True, **answer, "notation": notation, "racks": list(state.racks), "final_spread": final})
        return 0
    print(f"{notation}" + ("" if m is None else f" +{m.score}"))
    print(f"spread still to come {res.value:+d} (final spread {final:+d}), {'proven' if res.proven else 'not proven'}; "
          f"depth {res.depth}, {res.nodes} nodes, {res.seconds:.2f} s")
    if res.pv:
        print("line: " + "; ".join(res.pv))
    return 0


def run_learn_leaves(args: argparse.Namespace) -> int:
    """Handler of ``crossword learn-leaves``."""

    from kubasolve.cli.common import UsageError, backend_options, check_output_path, progress
    from kubasolve.games.crossword.learn import referee_for, save_samples
    from kubasolve.games.crossword.leaves import LearntLeaves
    from kubasolve.scale.learn import learn_leaves

    if args.out is None:
        raise UsageError("the following argument is required: -o/--output FILE (the table to write)")
    if not 0 <= args.prune <= 100:
        raise UsageError(f"--prune must be from 0 to 100 points, got {args.prune}")
    if args.shrink is not None and not 0 < args.shrink <= 100:
        raise UsageError(f"--shrink must be above 0 and at most 100, got {args.shrink}")
    fit_options = {k: v for k, v in (("prior", args.prior), ("shrink", args.shrink)) if v is not None}
    out = check_output_path(args.out, "--output")
    report_path = check_output_path(args.report, "--report") if args.report else None
    samples = check_output_path(f"{args.samples}-g1.npz", "--samples") if args.samples else None
    start: Any = args.start
    if start not in ("linear", "none"):
        start = LearntLeaves.from_npz(Path(start)) if Path(start).is_file() else None
        if start is None:
            raise UsageError(f"--start {args.start!r}: give linear, none or an existing .npz table")
    rules = load_rules(args.rules, args.tiles).to_dict() if args.rules or args.tiles else None
    lexicon = None if args.lexicon == "nl" else args.lexicon
    if args.refit is not None:
        playing = [flag for flag, value in (("--games", args.games), ("--generations", args.generations), ("--held-out", args.held_out),
                                            ("--workers", args.workers), ("--backend", args.backend), ("--address", args.address),
                                            ("--samples", args.samples)) if value is not None]
        if playing:  # they would be ignored without a word
            raise UsageError(f"--refit fits the saved samples without playing: {', '.join(playing)} "
                             f"{'goes' if len(playing) == 1 else 'go'} with a run that plays games, not with --refit")
        return _refit_leaves(args, out, report_path, start, rules, lexicon, fit_options)
    args.generations = args.generations or 1
    args.workers = args.workers or 1
    args.backend = args.backend or "local"
    if args.games is None:
        raise UsageError("learn-leaves needs --games (or --refit SAMPLES.npz)")
    setting = {"tiles": referee_for((rules, lexicon)).tiles.name, "lexicon": lexicon or "nl"} if samples else None
    held_out = args.held_out if args.held_out is not None else min(2000, max(1, args.games // 10))
    total = (args.games + held_out) * args.generations
    base = {"done": 0}

    with progress(args, total) as bar:
        def on_progress(stage: str, done: int, gen_total: int) -> None:
            bar(min(base["done"] + done, total), total)
            if done == gen_total:
                base["done"] += gen_total

        table, reports = learn_leaves([args.games] * args.generations, seed=args.seed, held_out=held_out, workers=args.workers,
                                      **backend_options(args), rules=rules, lexicon=lexicon,
                                      start=start, prune=args.prune, on_progress=on_progress, **fit_options,
                                      on_samples=(lambda g, train, test: save_samples(f"{args.samples}-g{g}.npz", train, test, setting)) if samples else None)
    table.info.update(command=_learn_command(), generations=args.generations)
    return _emit_learnt(args, table, reports, out, report_path)


def _learn_command() -> str:
    import shlex

    return "kubasolve crossword learn-leaves " + " ".join(shlex.quote(a) for a in sys.argv[3:]) if sys.argv[1:3] == ["crossword", "learn-leaves"] else ""


def _refit_leaves(args: argparse.Namespace, out: Path, report_path: Path | None, start: Any, rules: Any, lexicon: str | None,
                  fit_options: dict[str, Any]) -> int:
    """``learn-leaves --refit SAMPLES``: one generation's fit and check from saved samples."""
    import time

    from kubasolve.cli.common import UsageError
    from kubasolve.errors import RulesError
    from kubasolve.games.crossword.learn import check_table_tiles, load_samples, referee_for, samples_setting, table_from
    from kubasolve.games.crossword.leaves import NPZ_ERRORS, npz_problem
    from kubasolve.scale.learn import fit_generation

    t0 = time.perf_counter()
    try:
        train, test = load_samples(Path(args.refit))
        saved = samples_setting(Path(args.refit))
    except NPZ_ERRORS as exc:
        raise UsageError(f"--refit {args.refit!r}: not a samples file written by --samples ({npz_problem(exc)})") from None
    setting = (rules, lexicon)
    tiles = referee_for(setting).tiles.name
    for key, value in (("tiles", tiles), ("lexicon", lexicon or "nl")):
        if key in saved and saved[key] != value:  # the tally would pack them in another tile order, the check use other tables
            raise RulesError(f"--refit {args.refit!r}: its games were played with the {saved[key]!r} {key}, not {value!r}: "
                             f"give --{key} {saved[key]}")
    if not isinstance(start, str):
        check_table_tiles(start, tiles, "the --start table")
    played = start.to_npz() if not isinstance(start, str) else ("none" if start == "none" else tiles)
    label = "learnt table" if not isinstance(start, str) else ("no leaves" if start == "none" else "linear table")
    info = {"tiles": tiles, "lexicon": lexicon or "nl", "seed": args.seed, "generation": 1, "games": train.games, "racks": len(train.racks),
            "played_with": label, "prune": args.prune, "refit": Path(args.refit).name}
    table, report = fit_generation(train, test, info, table_from(played), setting, prune=args.prune, **fit_options)
    report["seconds_total"] = round(time.perf_counter() - t0, 1)
    table.info.update(command=_learn_command(), generations=1)
    return _emit_learnt(args, table, [report], out, report_path)


def _emit_learnt(args: argparse.Namespace, table: Any, reports: list[dict[str, Any]], out: Path, report_path: Path | None) -> int:
    import json

    from kubasolve.cli.common import emit_summary

    size = table.save(out)
    payload = {"out": str(out), "bytes": size, "leaves": len(table), "generations": reports}
    if report_path is not None:
        report_path.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    lines = []
    for r in reports:
        h = r["held_out"]
        lines.append(f"generation {r['generation']}: {r['games']} games, {r['racks']} racks, {r['leaves_seen']} leaves seen, "
                     f"{r['leaves_stored']} stored, exchange rate {100 * r['exchange_rate']:.2f}%, {r['seconds_total']:.0f} s")
        for target in ("next_score", "next_two_scores"):
            rows = h.get(target)
            if rows:
                check = ", ".join(f"{k} {v['rmse']:.3f}" for k, v in rows.items() if isinstance(v, dict))
                lines.append(f"  held-out RMSE of the {target.replace('_', ' ')} ({rows['test_pairs']} leaves): {check}")
                check = ", ".join(f"{k} {v['rmse_sized']:.3f}" for k, v in rows.items() if isinstance(v, dict))
                lines.append(f"    the same with a term per tile kept: {check}")
    lines.append(f"{out}: {len(table)} leaves, {size} bytes")
    emit_summary(args, payload, "\n".join(lines))
    return 0


