"""``kubasolve kubagram play`` (a human against AIs in the terminal) and ``kubasolve kubagram simulate``
(AI self-play with win rates and confidence intervals). See ``docs/kubagram_game.md``."""

from __future__ import annotations

import argparse
import sys
from typing import IO, Any

from kubasolve.errors import IllegalMoveError, KubasolveError, RulesError

PLAY_HELP = """commands (one per line):
  t [LETTER]      take the next cube (LETTER: on III, a joker, or under the vowel rule)
  k               take the joker and keep it aside
  p LETTER        place the cube passed on to you from a 0 square
  s               skip this turn (once per game)
  c WORD [TILES]  claim WORD from the field (TILES: tile numbers like 0,3,5,1,2; default: best choice)
  cc WORD PARTS   claim a compound: PARTS are table word numbers and 'new' for a field word, e.g. 3+new
  e               end the turn
  h               hints: legal moves with the best claims
  b               draw the board again
  q               quit
"""


def add_game_commands(kubagram_sub: argparse._SubParsersAction) -> None:
    """Add ``play`` and ``simulate`` to the ``kubasolve kubagram`` subcommands."""
    p = kubagram_sub.add_parser("play", help="play Kubagram against AIs in the terminal")
    p.add_argument("--players", default="human,planner",
                   help="comma-separated seats: human, random, greedy, planner[:DEPTH] (default human,planner)")
    p.add_argument("--seed", type=int, default=None, help="deal seed (default: random, printed)")
    p.add_argument("--rotation", default=None, metavar="TURN",
                   help="the last player's board turn: 0, 90, 180, 270 or the corner that becomes the start cube "
                        "(bottom-left, bottom-right, top-right, top-left); default: seeded random")
    p.add_argument("--no-board", action="store_true", help="do not draw the board every turn")
    p.set_defaults(func=run_play)

    s = kubagram_sub.add_parser("simulate", help="AI self-play: win rates with 95%% confidence intervals")
    s.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    s.add_argument("--players", default="greedy,planner", help="comma-separated AIs, one per seat (default greedy,planner)")
    s.add_argument("--seed", type=int, default=0, help="master seed (default 0)")
    s.add_argument("--workers", type=int, default=1, help="parallel worker processes (default 1)")
    s.add_argument("--records", metavar="PATH", default=None, help="write one JSON line per game to PATH ('-': stdout)")
    s.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    s.add_argument("--json", action="store_true", help="machine-readable summary")
    s.set_defaults(func=run_simulate)


# ------------------------------------------------------------------------------------------------ simulate
def run_simulate(args: argparse.Namespace) -> int:
    """Handler of ``kubagram simulate``."""
    from kubasolve.cli.output import emit_json, format_table
    from kubasolve.games.kubagram.simulate import simulate

    players = [p.strip() for p in args.players.split(",") if p.strip()]
    records: IO[str] | None = None
    close = False
    if args.records == "-":
        records = sys.stdout
    elif args.records:
        try:
            records = open(args.records, "w", encoding="utf-8")  # noqa: SIM115 - closed in the finally below
        except OSError as exc:
            raise KubasolveError(f"cannot write records to {args.records!r}: {exc}") from None
        close = True
    try:
        res = simulate(args.games, players, seed=args.seed, workers=args.workers, progress=not args.no_progress,
                       records=records)
    finally:
        if close and records is not None:
            records.close()
    if args.json:
        emit_json({"ok": True, **res.to_dict()})
        return 0
    rows = [[r["ai"], round(r["wins"], 1), f"{100 * r['win_rate']:.1f}%",
             f"[{100 * r['ci95_low']:.1f}%, {100 * r['ci95_high']:.1f}%]", round(r["mean_score"], 1),
             round(r["mean_turn_ms"], 2)] for r in res.rows()]
    print(format_table(["AI", "wins", "win rate", "95% CI (Wilson)", "mean score", "mean turn ms"], rows))
    print(f"{res.games} games, seed {res.seed}, {res.workers} worker(s), {res.wall_s:.1f} s "
          f"({res.games / res.wall_s:.2f} games/s)")
    return 0


# ------------------------------------------------------------------------------------------------ play
def _parse_command(line: str, state: Any) -> Any:
    """An action from a typed command (None for commands that are not actions)."""
    from kubasolve.games.kubagram.actions import Claim, EndTurn, PlaceZero, Skip, Take

    parts = line.split()
    cmd, rest = parts[0].lower(), parts[1:]
    if cmd == "t":
        return Take(rest[0].lower() if rest else None)
    if cmd == "k":
        return Take(keep=True)
    if cmd == "p":
        if not rest:
            raise IllegalMoveError("say which letter the passed cube shows: p LETTER")
        return PlaceZero(rest[0].lower())
    if cmd == "s":
        return Skip()
    if cmd == "e":
        return EndTurn()
    if cmd == "c":
        if not rest:
            raise IllegalMoveError("say which word: c WORD")
        tiles = None
        if len(rest) > 1:
            try:
                tiles = tuple(int(x) for x in rest[1].replace(" ", "").split(","))
            except ValueError:
                raise IllegalMoveError("tile numbers look like 0,3,5") from None
        return Claim(rest[0], tiles)
    if cmd == "cc":
        if len(rest) < 2:
            raise IllegalMoveError("a compound needs the word and its parts: cc WORD 3+new")
        pieces: list[int | None] = []
        for x in rest[1].split("+"):
            if x.lower() == "new":
                pieces.append(None)
            else:
                try:
                    pieces.append(int(x))
                except ValueError:
                    raise IllegalMoveError(f"a part is a table word number or 'new', got {x!r}") from None
        tiles = None
        if len(rest) > 2:
            tiles = tuple(int(x) for x in rest[2].split(","))
        return Claim(rest[0], tiles, tuple(pieces))
    raise IllegalMoveError(f"unknown command {cmd!r}; type ? for help")


def run_play(args: argparse.Namespace, stdin: IO[str] | None = None, out: IO[str] | None = None) -> int:
    """Handler of ``kubagram play``: a terminal game, humans typing commands, AIs moving on their own."""
    import random

    from kubasolve.ai.kubagram import make_policy
    from kubasolve.games.kubagram.game import default_referee
    from kubasolve.games.kubagram.render import render_field, render_state

    stdin = stdin or sys.stdin
    out = out or sys.stdout
    seats = [p.strip().lower() for p in args.players.split(",") if p.strip()]
    if not 1 <= len(seats) <= 8:
        raise RulesError("give 1 to 8 seats, e.g. --players human,planner")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    policies = {i: make_policy(s, seed + i) for i, s in enumerate(seats) if s != "human"}
    names = [f"{s}{i}" for i, s in enumerate(seats)]
    referee = default_referee()
    rotation: int | str | None = args.rotation
    if isinstance(rotation, str) and rotation.isdigit():
        rotation = int(rotation)
    state = referee.new_game(seed, n_players=len(seats), rotation=rotation)

    def say(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    say(f"Kubagram, seed {seed}: {', '.join(names)}; {names[state.current]} starts. Type ? for help.")
    shown_turn = -1
    while not state.over:
        p = state.current
        if p in policies:
            actions = policies[p].turn(referee, state)
            for a in actions:
                state = referee.apply(state, a)
            said = [a.describe() for a in actions]
            say(f"{names[p]}: {'; '.join(said)}  (score {state.scores[p]})")
            continue
        if shown_turn != state.turn:
            say(render_state(state, names, board=not args.no_board))
            shown_turn = state.turn
        out.write(f"{names[p]}> ")
        out.flush()
        line = stdin.readline()
        if not line:
            say("\n(end of input: game abandoned)")
            return 0
        line = line.strip()
        if not line:
            continue
        if line in ("?", "help"):
            say(PLAY_HELP)
            continue
        if line == "q":
            say("bye")
            return 0
        if line == "b":
            say(render_state(state, names))
            continue
        if line == "h":
            for a in referee.legal_actions(state, claims=8):
                say(f"  {a.describe():<30} {a.to_dict()}")
            continue
        try:
            action = _parse_command(line, state)
            before = state.scores[p]
            state = referee.apply(state, action)
        except KubasolveError as exc:
            say(f"not allowed: {exc}")
            continue
        delta = state.scores[p] - before
        say(f"ok{f' ({delta:+d} points)' if delta else ''}")
        if state.current == p and not state.over:
            say(render_field(state))
    say(render_state(state, names, board=False))
    return 0
