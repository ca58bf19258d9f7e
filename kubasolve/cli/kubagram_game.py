"""``kubasolve kubagram play`` (a human against AIs in the terminal) and ``kubasolve kubagram simulate``
(AI self-play with win rates and confidence intervals). See ``docs/kubagram_game.md``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import IO, Any

from kubasolve.cli.common import (
    UsageError,
    add_lexicon_argument,
    add_rules_argument,
    add_show_command,
    add_simulate_arguments,
    backend_options,
    check_output_path,
    emit_summary,
    open_output,
    player_list,
    progress,
)
from kubasolve.cli.common import seed as seed_type
from kubasolve.cli.kubagram import load_rules
from kubasolve.errors import IllegalMoveError, KubasolveError, RulesError, StateError

PLAY_HELP = """commands (one per line):
  t [LETTER]      take the next cube (LETTER: on III, a joker, or under the vowel rule)
  k               take the joker and keep it aside
  p LETTER        place the cube passed on to you from a 0 square
  s               skip this turn (once per game)
  c WORD [TILES]  claim WORD from the field (TILES: tile numbers like 0,3,5,1,2; default: best choice)
  cc WORD PARTS   claim a compound: PARTS are table word numbers and 'new' for a field word, e.g. 3+new
  e               end the turn
  h               hints: what you may type now, with the points each brings
  b               draw the board again
  w [FILE]        save the game (resume with: kubasolve kubagram play --resume FILE)
  q               quit: show the scores (and save to --save FILE if given)
"""


def add_game_commands(kubagram_sub: argparse._SubParsersAction) -> None:
    """Add ``play`` and ``simulate`` to the ``kubasolve kubagram`` subcommands."""
    p = kubagram_sub.add_parser("play", help="play Kubagram against AIs in the terminal")
    p.add_argument("--players", type=player_list, default=None,
                   help="comma-separated seats: human, random, greedy, planner[:DEPTH], search[:NODES] (default human,planner)")
    p.add_argument("--seed", type=seed_type, default=None, help="deal seed (default: random, printed)")
    p.add_argument("--rotation", default=None, metavar="TURN", choices=ROTATIONS,
                   help="the last player's board turn: 0, 90, 180, 270 or the corner that becomes the start cube "
                        "(bottom-left, bottom-right, top-right, top-left); default: seeded random")
    p.add_argument("--no-board", action="store_true", help="do not draw the board every turn")
    p.add_argument("--save", metavar="FILE", default=None,
                   help="save the game to FILE when you quit (q) or the input ends; 'w FILE' saves at any time")
    p.add_argument("--resume", metavar="FILE", default=None, help="go on with a game saved by --save or 'w FILE'")
    add_rules_argument(p, RULES_DOC)
    add_lexicon_argument(p, "nl")
    p.set_defaults(func=run_play)

    add_show_command(kubagram_sub, shows="a saved game: board, central field, table words, scores", lexicon="nl", func=run_show,
                     saved="a saved Kubagram game (a file of `kubagram play --save` or `w FILE`, or the JSON of "
                           "GameState.to_dict, as the engine's state holds it)")

    s = kubagram_sub.add_parser("simulate", help="AI self-play: win rates with 95%% confidence intervals")
    add_simulate_arguments(s, players="greedy,planner", players_help="random, greedy, planner[:DEPTH], search[:NODES]",
                           rules_doc=RULES_DOC, lexicon="nl")
    s.set_defaults(func=run_simulate)


RULES_DOC = "docs/kubagram.md and docs/kubagram_game.md: scoring settings at top level or under [kubagram], game settings under [game]"
ROTATIONS = ("0", "90", "180", "270", "bottom-left", "bottom-right", "top-right", "top-left")



# ------------------------------------------------------------------------------------------------ simulate
def run_simulate(args: argparse.Namespace) -> int:
    """Handler of ``kubagram simulate``."""
    from kubasolve.cli.output import simulation_summary
    from kubasolve.games.kubagram.simulate import simulate

    rules, game_rules = (r.to_dict() for r in load_rules(args.rules)) if args.rules else (None, None)
    with open_output(args.records, "records") as records, progress(args, args.games) as on_game:
        res = simulate(args.games, args.players, seed=args.seed, workers=args.workers, **backend_options(args), records=records, on_game=on_game,
                       rules=rules, game_rules=game_rules,
                       lexicon=None if args.lexicon == "nl" else args.lexicon)
    text = simulation_summary(res)
    emit_summary(args, res.to_dict(), text)
    return 0


# ------------------------------------------------------------------------------------------------ play
def _numbers(text: str, what: str) -> tuple[int, ...]:
    """Comma-separated tile numbers (ASCII digits only), e.g. ``0,3,5``."""
    items = [x.strip() for x in text.split(",")]
    if not all(x.isascii() and x.isdigit() for x in items):
        raise IllegalMoveError(f"{what} look like 0,3,5 (digits 0-9), got {text!r}")
    return tuple(int(x) for x in items)


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
        return Claim(rest[0], _numbers(rest[1], "tile numbers") if len(rest) > 1 else None)
    if cmd == "cc":
        if len(rest) < 2:
            raise IllegalMoveError("a compound needs the word and its parts: cc WORD 3+new")
        pieces: list[int | None] = []
        for x in rest[1].split("+"):
            if x.lower() == "new":
                pieces.append(None)
            elif x.isascii() and x.isdigit():
                pieces.append(int(x))
            else:
                raise IllegalMoveError(f"a part is a table word number or 'new', got {x!r}")
        return Claim(rest[0], _numbers(rest[2], "tile numbers") if len(rest) > 2 else None, tuple(pieces))
    raise IllegalMoveError(f"unknown command {cmd!r}; type ? for help")


def command_text(action: Any) -> str:
    """What to type at the prompt for ``action`` (the inverse of :func:`_parse_command`)."""
    from kubasolve.games.kubagram.actions import Claim, EndTurn, PlaceZero, Skip, Take

    if isinstance(action, Take):
        return "k" if action.keep else f"t {action.letter}" if action.letter else "t"
    if isinstance(action, PlaceZero):
        return f"p {action.letter}"
    if isinstance(action, Skip):
        return "s"
    if isinstance(action, EndTurn):
        return "e"
    if isinstance(action, Claim):
        tiles = "" if action.tiles is None else " " + ",".join(map(str, action.tiles))
        if action.parts:
            parts = "+".join("new" if x is None else str(x) for x in action.parts)
            return f"cc {action.word} {parts}{tiles}"
        return f"c {action.word}{tiles}"
    return str(action.describe())  # pragma: no cover - every action is listed above


def hint_lines(referee: Any, state: Any, claims: int = 8) -> list[str]:
    """The legal actions as the commands to type, with what each does and the points it brings."""
    player = state.current
    lines = []
    for action in referee.legal_actions(state, claims=claims):
        try:
            after = referee.apply(state, action)
        except KubasolveError:  # pragma: no cover - legal_actions lists legal actions only
            continue
        delta = after.scores[player] - state.scores[player]
        points = f"{delta:+d} points" if delta else ""
        lines.append(f"  {command_text(action):<24} {action.describe():<28} {points}".rstrip())
    return lines


def scores_text(state: Any, names: list[str], final: bool) -> str:
    """The scores, best first; the winner(s) marked when ``final``."""
    order = sorted(range(len(names)), key=lambda p: -state.scores[p])
    best = max(state.scores)
    rows = [f"  {names[p]:<12} {state.scores[p]:>5}{'  winner' if final and state.scores[p] == best else ''}" for p in order]
    return ("final scores:" if final else "scores so far:") + "\n" + "\n".join(rows)


SAVE_FORMAT = "kubasolve-kubagram-play-1"


def save_game(path: str, seats: list[str], seed: int, state: Any) -> None:
    """Write a game in progress to ``path`` (JSON: the seats, the seed and the whole state with history)."""
    target = check_output_path(path, "the game")
    data = {"format": SAVE_FORMAT, "seats": seats, "seed": seed, "state": state.to_dict()}
    try:
        target.write_text(json.dumps(data, ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError as exc:
        raise KubasolveError(f"cannot save the game to {path}: {exc.strerror or exc}") from None


def load_game(path: str, lexicon: Any) -> tuple[list[str], int, Any]:
    """Seats, seed and state of a saved game; the state is verified by replaying its history."""
    from kubasolve.games.kubagram.state import GameState

    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise StateError(f"no saved game {path}") from None
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise StateError(f"cannot read the saved game {path}: {exc}") from None
    if not isinstance(data, dict) or data.get("format") != SAVE_FORMAT:
        raise StateError(f"{path} is not a game saved by kubasolve kubagram play")
    seats, game_seed = data.get("seats"), data.get("seed")
    if not (isinstance(seats, list) and all(isinstance(x, str) for x in seats) and type(game_seed) is int):
        raise StateError(f"{path}: bad seats or seed")
    state = GameState.from_dict(data.get("state"), lexicon=lexicon)  # type: ignore[arg-type]
    if state.n_players != len(seats):
        raise StateError(f"{path}: {len(seats)} seats for a game of {state.n_players} players")
    return seats, game_seed, state


def run_show(args: argparse.Namespace) -> int:
    """Handler of ``kubagram show``: a saved game (``play --save``) or a bare state, drawn as text or SVG."""
    from kubasolve.cli.common import show_saved_game
    from kubasolve.games.kubagram.state import GameState
    from kubasolve.lexicon import load_lexicon

    lexicon = load_lexicon(args.lexicon)

    def load(data: dict[str, Any]) -> GameState:
        if data.get("format") != SAVE_FORMAT:
            return GameState.from_dict(data, lexicon=lexicon)
        seats, _, state = load_game(args.state, lexicon)
        if args.names is None:
            args.names = [f"{x}{i}" for i, x in enumerate(seats)]
        return state

    return show_saved_game(args, "kubagram", load)


def run_play(args: argparse.Namespace, stdin: IO[str] | None = None, out: IO[str] | None = None) -> int:
    """Handler of ``kubagram play``: a terminal game, humans typing commands, AIs moving on their own."""
    import random

    from kubasolve.ai.kubagram import make_policy
    from kubasolve.games.kubagram.game import default_referee
    from kubasolve.games.kubagram.render import render_field, render_state
    from kubasolve.lexicon import load_lexicon

    stdin = stdin or sys.stdin
    out = out or sys.stdout
    rules, game_rules = load_rules(getattr(args, "rules", None))
    lexicon = load_lexicon(getattr(args, "lexicon", "nl"))
    if getattr(args, "save", None):
        check_output_path(args.save, "the game")
    if getattr(args, "resume", None):
        seats, game_seed, state = load_game(args.resume, lexicon)
        if args.players is not None and [x.lower() for x in args.players] != seats:
            raise UsageError(f"the saved game seats {','.join(seats)}; leave out --players or give the same seats")
        referee = default_referee(state.rules, state.game_rules, lexicon)
    else:
        seats = [x.lower() for x in (args.players or ["human", "planner"])]
        if not 1 <= len(seats) <= 8:
            raise RulesError("give 1 to 8 seats, e.g. --players human,planner")
        game_seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
        referee = default_referee(rules, game_rules, lexicon)
        rotation: int | str | None = args.rotation
        if isinstance(rotation, str) and rotation.isascii() and rotation.isdigit():
            rotation = int(rotation)
        state = referee.new_game(game_seed, n_players=len(seats), rotation=rotation)
    policies = {i: make_policy(x, game_seed + i) for i, x in enumerate(seats) if x != "human"}
    names = [f"{x}{i}" for i, x in enumerate(seats)]

    def say(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    def leave(why: str) -> int:
        say(why)
        say(scores_text(state, names, final=False))
        if getattr(args, "save", None):
            save_game(args.save, seats, game_seed, state)
            say(f"game saved to {args.save}; go on with: kubasolve kubagram play --resume {args.save}")
        return 0

    resumed = " (resumed)" if getattr(args, "resume", None) else ""
    say(f"Kubagram, seed {game_seed}{resumed}: {', '.join(names)}; {names[state.current]} to move. Type ? for help.")
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
            return leave("\n(end of input: game stopped)")
        line = line.strip()
        if not line:
            continue
        if line in ("?", "help"):
            say(PLAY_HELP)
            continue
        if line == "q":
            return leave("bye")
        if line == "b":
            say(render_state(state, names))
            continue
        if line == "h":
            say("type one of these (best claims first):")
            for hint in hint_lines(referee, state):
                say(hint)
            continue
        if line.split()[0] == "w":
            target = line[1:].strip() or getattr(args, "save", None)
            if not target:
                say("say where: w FILE")
                continue
            try:
                save_game(target, seats, game_seed, state)
            except KubasolveError as exc:
                say(f"not saved: {exc}")
                continue
            say(f"game saved to {target}; go on with: kubasolve kubagram play --resume {target}")
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
    say(scores_text(state, names, final=True))
    return 0
