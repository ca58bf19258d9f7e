"""The commands every game has, generic over the game protocol (:mod:`kubasolve.games.protocol`): ``kubasolve GAME
play``, ``simulate`` and ``show`` for every game kind, and the same as ``kubasolve play|simulate|show --game KIND``
(with ``--game-module`` for a game registered outside the package).

A game's own module ``kubasolve/cli/<game>.py`` (optional) adds only the game's solver commands
(``add_commands(subparsers)``) and, when it has them, a few game-specific flags: ``add_rule_flags(parser)`` (flags
whose ``dest`` is ``rule_<setting>``: shortcuts for one rule setting, e.g. crossword's ``--tiles``) and
``add_play_flags(parser)`` (``dest`` ``deal_<option>``: a deal setting such as Kubagram's ``--rotation``). Its
constants ``HELP``, ``AI_HELP``, ``RULES_DOC``, ``LEXICON``, ``SIMULATE_PLAYERS`` and ``SIMULATE_GAMES`` tune the
help and the defaults; without a module, the game's protocol class gives them. See docs/cli.md.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import sys
from collections.abc import Callable
from types import ModuleType
from typing import IO, Any

from kubasolve.cli.common import (
    EXIT_OK,
    UsageError,
    add_budget_arguments,
    add_lexicon_argument,
    add_rules_argument,
    add_simulate_arguments,
    backend_options,
    budget_of,
    check_output_path,
    emit_summary,
    open_output,
    player_list,
    progress,
    read_text_file,
    seed,
)
from kubasolve.errors import KubasolveError, PositionError

__all__ = ["add_parser", "run_play", "run_show", "run_simulate", "show_saved_game"]

FIRST_GAMES = ("kubagram", "rummikub")
"""Game commands listed first in ``kubasolve --help`` (the others follow in name order)."""
GAME_MODULES_VARIABLE = "KUBASOLVE_GAME_MODULES"
HUMAN = "human"
"""The seat name of a person at the terminal (``human#2`` for a second one)."""
HINTS = 10
"""Legal moves listed by ``h``."""


# -------------------------------------------------------------------- the parsers
def add_parser(sub: argparse._SubParsersAction) -> None:
    """``kubasolve GAME ...`` for every game kind, then ``kubasolve play|simulate|show --game KIND``."""
    from kubasolve.games.protocol import game_names, import_game_modules

    extra = [m.strip() for m in os.environ.get(GAME_MODULES_VARIABLE, "").split(",") if m.strip()]
    if extra:
        try:
            import_game_modules(extra)
        except KubasolveError as exc:
            sys.stderr.write(f"kubasolve: error: {GAME_MODULES_VARIABLE}: {exc}\n")
            raise SystemExit(2) from None
    names = game_names()
    for name in [n for n in FIRST_GAMES if n in names] + [n for n in names if n not in FIRST_GAMES]:
        add_game_parser(sub, name)
    for command, adder in (("play", add_play_arguments), ("simulate", add_simulate_flags), ("show", add_show_arguments)):
        p = sub.add_parser(command, help=f"{command} any game (--game KIND), also one registered by --game-module",
                           description=f"The same as 'kubasolve GAME {command}', for the game --game names.")
        p.add_argument("--game", required=True, metavar="KIND", help="the game kind (kubagram, crossword, ...; any registered game)")
        p.add_argument("--game-module", action="append", default=[], metavar="MODULE",
                       help=f"import a module that registers more games (a dotted name or a .py path; repeatable; also ${GAME_MODULES_VARIABLE})")
        adder(p, None, None)
        # show draws a saved game under the rules it holds: no rule flags (as `GAME show`), only a game's own show flags
        # (Scruble's --twists, --cells, --rules for a bare cube state); play takes the deal settings too (Kubagram's
        # --rotation, as `kubagram play`)
        hooks = {"play": ("add_rule_flags", "add_play_flags"), "simulate": ("add_rule_flags",),
                 "show": ("add_show_flags",)}.get(command, ())
        _add_every_game_flag(p, names, hooks)


def _add_every_game_flag(p: argparse.ArgumentParser, names: list[str], hooks: tuple[str, ...]) -> None:
    """The flags of every game that has them on a generic command, where the game is known only when it runs: the rule
    shortcuts (``add_rule_flags``: crossword's ``--tiles``, Rummikub's ``--joker-retrieval``) and, in ``play``, the deal
    settings (``add_play_flags``: Kubagram's ``--rotation``). ``kubasolve simulate --game crossword --tiles en`` is
    ``kubasolve crossword simulate --tiles en``; a rule or deal flag of another game than ``--game`` is refused then
    (:func:`kind_of`)."""
    owners: dict[str, tuple[str, str]] = {}
    for name in names:
        module = cli_module(name)
        for hook in hooks:
            if module is None or not hasattr(module, hook):
                continue
            probe = argparse.ArgumentParser(add_help=False)
            getattr(module, hook)(probe)
            flags = [(a.dest, a.option_strings[0]) for a in probe._actions if a.option_strings]
            if any(dest in owners or flag in p._option_string_actions for dest, flag in flags):
                continue  # the same flag in two games: only the game's own command has it
            getattr(module, hook)(p)
            # a rule or deal setting belongs to its game, a show flag too; an alias of a shared flag (crossword's --gcg:
            # --resume) does not
            owners.update({dest: (name, flag) for dest, flag in flags
                           if dest.startswith(("rule_", "deal_")) or hook == "add_show_flags"})
    p.set_defaults(flag_owners=owners)


def cli_module(name: str) -> ModuleType | None:
    """The game's own CLI module ``kubasolve.cli.<name>`` (it defines ``add_commands``), or None."""
    import importlib.util

    if not name.isidentifier() or importlib.util.find_spec(f"kubasolve.cli.{name}") is None:
        return None
    module = importlib.import_module(f"kubasolve.cli.{name}")
    return module if hasattr(module, "add_commands") else None


def add_game_parser(sub: argparse._SubParsersAction, name: str) -> None:
    """``kubasolve GAME`` with the game's own commands and play, simulate and show."""
    module = cli_module(name)
    help_text = getattr(module, "HELP", None) or f"{name}: play, simulate, show ({_game_doc(name)})"
    p = sub.add_parser(name, help=help_text)
    gsub = p.add_subparsers(dest=f"{name}_command", metavar="ACTION")
    gsub.required = True
    if module is not None:
        module.add_commands(gsub)
    for command, adder, text in (("play", add_play_arguments, "play against AIs in the terminal (human seats type moves)"),
                                 ("simulate", add_simulate_flags, "AI self-play: win rates with 95%% confidence intervals"),
                                 ("show", add_show_arguments, "draw a saved game: text, or --svg")):
        if command not in gsub.choices:
            adder(gsub.add_parser(command, help=text), name, module)


def _game_doc(name: str) -> str:
    from kubasolve.games.protocol import game_class

    doc = (game_class(name).__doc__ or name).strip().splitlines()[0]
    return doc.rstrip(".")


def _has_words(name: str | None, module: ModuleType | None) -> bool:
    if name is None:
        return True  # kubasolve play --game KIND: the game is known only when it runs
    if module is not None and hasattr(module, "LEXICON"):
        return module.LEXICON is not None
    from kubasolve.games.protocol import game_class

    return bool(game_class(name).lexicons)


def _common(p: argparse.ArgumentParser, name: str | None, module: ModuleType | None) -> None:
    """Flags of play and show: the rules, the lexicon, the game's own rule shortcuts."""
    add_rules_argument(p, getattr(module, "RULES_DOC", None) or f"docs/{name or 'GAME'}.md")
    if _has_words(name, module):
        add_lexicon_argument(p, "")
    if module is not None and hasattr(module, "add_rule_flags"):
        module.add_rule_flags(p)
    p.set_defaults(game_kind=name)


def add_play_arguments(p: argparse.ArgumentParser, name: str | None, module: ModuleType | None) -> None:
    """``play``: seats, seed, budget of the AIs, resume/save, the rules and lexicon."""
    ais = getattr(module, "AI_HELP", None) or "the game's AIs ('kubasolve engine': games lists them)"
    p.add_argument("--players", type=player_list, default=None,
                   help=f"comma-separated seats: {HUMAN} (you) or an AI: {ais} (default {HUMAN},<the game's default AI>)")
    p.add_argument("--seed", type=seed, default=None, help="deal seed (default: a random one, printed)")
    add_budget_arguments(p, "each AI move", "the AIs' own settings")
    p.add_argument("--resume", metavar="FILE", default=None,
                   help="go on with a saved game (a file of --save or 'w FILE', an engine state, or the game's own form)")
    p.add_argument("--save", metavar="FILE", default=None, help="save the game to FILE when it ends, you quit (q) or the input ends")
    p.add_argument("--no-board", action="store_true", help="do not draw the position at every turn ('b' draws it)")
    _common(p, name, module)
    if module is not None and hasattr(module, "add_play_flags"):
        module.add_play_flags(p)
    p.set_defaults(func=run_play)


def add_simulate_flags(p: argparse.ArgumentParser, name: str | None, module: ModuleType | None) -> None:
    """``simulate``: the one set of flags (cli.common.add_simulate_arguments) and the game's rule shortcuts."""
    add_simulate_arguments(p, players=getattr(module, "SIMULATE_PLAYERS", None),
                           players_help=getattr(module, "AI_HELP", None) or "the game's AIs",
                           rules_doc=getattr(module, "RULES_DOC", None) or f"docs/{name or 'GAME'}.md",
                           lexicon="" if _has_words(name, module) else None, games=getattr(module, "SIMULATE_GAMES", 100))
    if module is not None and hasattr(module, "add_rule_flags"):
        module.add_rule_flags(p)
    p.set_defaults(func=run_simulate, game_kind=name)


def add_show_arguments(p: argparse.ArgumentParser, name: str | None, module: ModuleType | None,
                       state_help: str = "a saved game: a file of 'play --save', an engine state, or the game's own saved form",
                       metavar: str = "FILE") -> None:
    """``show``: the saved game FILE, ``--svg [PATH]``, ``--names``, the lexicon."""
    p.description = ("Draw a saved game: text by default, an SVG picture with --svg (on stdout, or into PATH). "
                     "The state is checked by replaying its history.")
    p.add_argument("state", metavar=metavar, help=state_help)
    p.add_argument("--svg", nargs="?", const="-", default=None, metavar="PATH",
                   help="draw an SVG picture instead of text: on stdout, or into PATH")
    p.add_argument("--names", type=player_list, default=None, metavar="NAME,NAME",
                   help="seat names to show, comma-separated (default: the state's own)")
    if _has_words(name, module):
        add_lexicon_argument(p, "")
    p.set_defaults(func=run_show, game_kind=name)


# -------------------------------------------------------------------- the game of a command
def kind_of(args: argparse.Namespace) -> str:
    """The game kind of a command (``kubasolve GAME ...``, or ``--game`` after importing ``--game-module``s)."""
    from kubasolve.games.protocol import game_class, import_game_modules

    kind = getattr(args, "game_kind", None) or args.game
    modules = getattr(args, "game_module", None) or []
    if modules:
        try:
            import_game_modules(modules)
        except KubasolveError as exc:
            raise UsageError(str(exc)) from None
    try:
        cls = game_class(kind)
    except KubasolveError as exc:
        raise UsageError(f"--game: {exc}") from None
    for dest, (owner, flag) in (getattr(args, "flag_owners", None) or {}).items():
        if owner != kind and getattr(args, dest, None) is not None:
            what = "rule" if dest.startswith("rule_") else "deal" if dest.startswith("deal_") else "show"
            raise UsageError(f"{flag} is a {what} flag of {owner}, not of {kind}")
    if getattr(args, "lexicon", None) is not None and not cls.lexicons:
        # as 'kubasolve rummikub play --lexicon nl' (no such flag there): a usage error, exit 2, not a domain error
        raise UsageError(f"--lexicon: {kind} uses no lexicon")
    return str(kind)


def game_from_args(args: argparse.Namespace, kind: str) -> Any:
    """The protocol game of a command: ``--rules`` (TOML), the game's rule flags (``rule_<setting>``) over them,
    ``--lexicon`` (default: the game's)."""
    from kubasolve.games.protocol import load_game

    lexicon = getattr(args, "lexicon", None)
    game = load_game(kind, getattr(args, "rules", None), lexicon)
    changes = {k.removeprefix("rule_"): v for k, v in vars(args).items() if k.startswith("rule_") and v is not None}
    if changes:
        game = load_game(kind, {**game.rules_to_dict(), **changes}, lexicon)
    return game


def seats_of(game: Any, players: list[str] | None, default: list[str], human: bool = False) -> list[str]:
    """The seats (AI names, and ``human`` when ``human``): ``players`` or ``default``; an AI the game does not have
    is a usage error naming the AIs."""
    seats = [p.strip() for p in (players or default)]
    allowed = [HUMAN] if human else []
    for s in seats:
        base = s.partition(":")[0]
        if base not in game.ai_names and base not in allowed:
            raise UsageError(f"--players: unknown {game.name} {'seat' if human else 'AI'} {s!r}; choose from "
                             f"{', '.join([*allowed, *game.ai_names])}")
        if base == HUMAN and s != HUMAN:
            raise UsageError(f"--players: {HUMAN} takes no setting, got {s!r}")
        if base != HUMAN:
            try:
                game.check_ai(s)
            except KubasolveError as exc:
                raise UsageError(f"--players: {str(exc).removeprefix('ai: ')}") from None
    return seats


# -------------------------------------------------------------------- simulate
def run_simulate(args: argparse.Namespace) -> int:
    """Handler of ``simulate``: the library's :func:`kubasolve.scale.selfplay.simulate` with progress and records."""
    from kubasolve.cli.output import simulation_summary
    from kubasolve.scale.selfplay import simulate

    options = backend_options(args)
    kind = kind_of(args)
    game = game_from_args(args, kind)
    ais = list(game.ai_names)
    default = ais if game.min_players <= len(ais) <= game.max_players else [game.default_ai] * max(game.min_players, 2)
    players = seats_of(game, args.players, default)
    if args.paired and args.games % len(players):
        raise UsageError(f"--paired plays every deal once per seat rotation: --games must be a multiple of {len(players)}, "
                         f"got {args.games}")
    with open_output(args.records, "records") as records, progress(args, args.games) as on_game:
        res = simulate(kind, players, args.games, args.seed, args.workers, options["backend"], options["address"],
                       rules=game.rules, lexicon=game.lexicon_name, budget=budget_of(args), records=records,
                       on_game=on_game, game_modules=getattr(args, "game_module", None) or (), paired=args.paired)
    emit_summary(args, res.to_dict(), simulation_summary(res))
    return EXIT_OK


# -------------------------------------------------------------------- show
def run_show(args: argparse.Namespace) -> int:
    """Handler of ``show``: the game's own ``run_show`` when its CLI module has one (Scruble's draws a bare cube state
    too), so ``kubasolve show --game KIND`` does what ``kubasolve KIND show`` does; else :func:`show_saved_game`."""
    kind = kind_of(args)
    own = getattr(cli_module(kind), "run_show", None)
    if own is not None:
        return int(own(args))
    return show_saved_game(args)


def show_saved_game(args: argparse.Namespace) -> int:
    """A saved game (any form :meth:`Game.load_saved` reads) drawn as text or SVG."""
    kind = kind_of(args)
    game, state = load_saved_file(args, kind, args.state)
    if args.names is not None:
        n = len(state.players)
        if len(args.names) != n:
            raise PositionError(f"{len(args.names)} player name{'s' if len(args.names) != 1 else ''} for a game of {n} players")
        state = game.state_of(state.native, args.names)
    return emit_drawing(args, game.render_text(state), lambda: game.render_svg(state))


def load_saved_file(args: argparse.Namespace, kind: str, path: str) -> tuple[Any, Any]:
    """(game, state) of the saved game in ``path`` (the game's rules from the file; ``--lexicon`` when given)."""
    from kubasolve.games.protocol import load_game

    text = read_text_file(path, f"saved {kind} game")
    notices: list[str] = []
    found = load_game(kind, None, getattr(args, "lexicon", None)).load_saved(text, notices)
    for notice in notices:
        sys.stderr.write(f"kubasolve: notice: {notice}\n")
    return found


def emit_drawing(args: argparse.Namespace, text: str, svg: Callable[[], str]) -> int:
    """Print ``text``, or with ``--svg`` the SVG picture (on stdout, or into the file it names)."""
    if args.svg is None:
        print(text)
        return EXIT_OK
    picture = svg()
    if args.svg == "-":
        sys.stdout.write(picture)
        return EXIT_OK
    target = check_output_path(args.svg, "the SVG picture")
    try:
        target.write_text(picture, encoding="utf-8")
    except OSError as exc:
        raise KubasolveError(f"cannot write the SVG picture to {args.svg}: {exc.strerror or exc}") from None
    print(f"wrote {target}", file=sys.stderr)
    return EXIT_OK


# -------------------------------------------------------------------- play
GENERIC_HELP = """commands (one per line):
  h                  hints: the legal moves, best first, numbered (with what to type for each)
  N                  play the move numbered N in the last list (h lists them)
  {"type": ...}      play an action given as JSON (as the engine takes it)
  b                  draw the position again
  w [FILE]           save the game (go on with: kubasolve GAME play --resume FILE)
  q                  quit: show the scores (and save to --save FILE if given)
"""


class Terminal:
    """Reading lines and writing text in a terminal game: line editing (``readline``) when the input is the
    keyboard, plain lines otherwise (a script, a pipe, a test)."""

    def __init__(self, stdin: IO[str] | None, out: IO[str] | None) -> None:
        self.stdin = stdin or sys.stdin
        self.out = out or sys.stdout
        self.interactive = stdin is None and out is None and _isatty(sys.stdin) and _isatty(sys.stdout)
        if self.interactive:
            with contextlib.suppress(ImportError):  # Windows without pyreadline: no line editing
                import readline  # noqa: F401  - line editing and history for input()

    def say(self, text: str) -> None:
        self.out.write(text + "\n")
        self.out.flush()

    def ask(self, prompt: str) -> str | None:
        """The next line typed (without its end), None at the end of the input."""
        if self.interactive:
            try:
                return input(prompt)
            except EOFError:
                return None
        self.out.write(prompt)
        self.out.flush()
        line = self.stdin.readline()
        # a moves file saved with a byte-order mark (Windows editors) starts with U+FEFF: not part of the command
        return line.rstrip("\n").removeprefix("\ufeff") if line else None


def _isatty(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def scores_text(game: Any, state: Any, final: bool) -> str:
    """The scores, best first; the winners marked once the game is over."""
    view = game.result(state)
    order = sorted(range(len(view.players)), key=lambda p: -view.scores[p])
    rows = [f"  {view.players[p]:<14} {view.scores[p]:>6}{'  winner' if final and p in view.winners else ''}" for p in order]
    return ("final scores:" if final else "scores so far:") + "\n" + "\n".join(rows)


def save_game(game: Any, state: Any, target: str) -> None:
    """Write ``state`` to ``target`` as a protocol saved state (``--resume``, ``show`` and the engine read it)."""
    path = check_output_path(target, "the game")
    try:
        path.write_text(json.dumps(game.state_to_json(state), ensure_ascii=False) + "\n", encoding="utf-8")
    except OSError as exc:
        raise KubasolveError(f"cannot save the game to {target}: {exc.strerror or exc}") from None


def run_play(args: argparse.Namespace, stdin: IO[str] | None = None, out: IO[str] | None = None) -> int:
    """Handler of ``play``: a game in the terminal over the protocol; human seats type moves (the game's own
    commands, a number from the hints, or a JSON action), AIs move on their own within ``--movetime-ms``/``--max-nodes``."""
    import random

    from kubasolve.scale.selfplay import ai_seed, labels

    kind = kind_of(args)
    term = Terminal(stdin, out)
    if args.save:
        check_output_path(args.save, "the game")
    deal = {k.removeprefix("deal_"): v for k, v in vars(args).items() if k.startswith("deal_") and v is not None}
    if args.resume:
        if deal:
            raise UsageError("--resume goes on with a saved deal: leave out the deal settings")
        rule_flags = (["--rules"] if getattr(args, "rules", None) is not None else []) + [
            "--" + k.removeprefix("rule_").replace("_", "-") for k, v in vars(args).items()
            if k.startswith("rule_") and v is not None]
        if rule_flags:
            raise UsageError(f"--resume goes on with a saved game under the rules it holds: leave out {', '.join(rule_flags)}")
        game, state = load_saved_file(args, kind, args.resume)
        names = list(state.players)
        default = [_seat_of_label(game, n) for n in names]
        seats = seats_of(game, args.players, default, human=True)
        if len(seats) != len(names):
            raise UsageError(f"--players: the saved game has {len(names)} seats ({', '.join(names)}), got {len(seats)}")
        game_seed = args.seed  # the saved game keeps its seat names; --players says who plays each seat
    else:
        game = game_from_args(args, kind)
        seats = seats_of(game, args.players, [HUMAN, game.default_ai], human=True)
        game_seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
        state = game.new_game(game_seed, labels(seats), deal)
    names = list(state.players)
    budget = budget_of(args)
    listed: list[Any] = []
    shown = -1
    drawn: str | None = None  # the drawing last shown: redrawn when a step of a turn changes it (a Kubagram take)
    # an AI's seed: the deal seed (--seed), its seat and the number of the move in the game (as in simulate), so a game
    # resumed with the seed it was dealt from goes on as it would have without the stop. The number is the turn's
    # (Result.turn - 1, the turns played: read from the state, so a resumed game counts as the whole game did), not a
    # count of the actions applied here: a Kubagram player's turn is several actions (take, claims, end) when typed

    def leave(why: str) -> int:
        term.say(why)
        term.say(scores_text(game, state, final=False))
        if args.save:
            save_game(game, state, args.save)
            term.say(_saved_text(kind, args.save, game_seed))
        return EXIT_OK

    title = kind.capitalize()
    origin = f"resumed from {args.resume}" if args.resume else f"seed {game_seed}"
    view = game.result(state)
    term.say(f"{title}, {origin}: {', '.join(names)}; {names[view.current] if view.current is not None else 'nobody'} "
             "to move. Type ? for help.")
    try:
        while not view.over:
            p = view.current
            assert p is not None
            if seats[p] != HUMAN:
                before = view.scores
                move = game.ai_move(state, seats[p], budget, ai_seed(game_seed or 0, p, view.turn - 1))
                state = game.apply(state, move.action)
                view = game.result(state)
                term.say(f"{names[p]}: {move.text}{_gains(names, before, view.scores)}")
                continue
            drawing = None if args.no_board else game.render_text(state)
            if shown != view.turn or drawing != drawn:  # a new turn, or a step of this one changed what is shown
                if drawing is not None:
                    term.say(drawing)
                if shown != view.turn:
                    listed = []
                shown, drawn = view.turn, drawing
            line = term.ask(f"{names[p]}> ")
            if line is None:
                return leave("\n(end of input: game stopped)")
            text = line.strip()
            if not text:
                continue
            if text in ("?", "help"):
                term.say(GENERIC_HELP + (game.play_help or "(this game has no typed commands: choose a move by its number)"))
                continue
            if text == "q":
                return leave("bye")
            if text == "b":
                term.say(drawn := game.render_text(state))
                continue
            if text == "h":
                listed = hints(game, state, budget, term)
                continue
            if text.split()[0] == "w":
                try:
                    target = typed_file(text[1:]) or args.save
                    if not target:
                        term.say("say where: w FILE")
                        continue
                    save_game(game, state, target)
                except KubasolveError as exc:
                    term.say(f"not saved: {exc}")
                    continue
                term.say(_saved_text(kind, target, game_seed))
                continue
            try:
                action = typed_action(game, state, text, listed)
                if isinstance(action, str):
                    term.say(action)
                    continue
                before = view.scores
                state = game.apply(state, action)
            except KubasolveError as exc:
                term.say(f"not allowed: {exc}")
                continue
            view = game.result(state)
            term.say(f"ok{_gains(names, before, view.scores)}")
            listed = []
    except KeyboardInterrupt:  # Ctrl-C: keep the game in --save as q would, then stop (exit 130, kubasolve.cli.main)
        if args.save:
            save_game(game, state, args.save)
            term.say("\n(interrupted) " + _saved_text(kind, args.save, game_seed))
        raise
    term.say(game.render_text(state))
    term.say(scores_text(game, state, final=True))
    if args.save:
        save_game(game, state, args.save)
        term.say(f"game saved to {args.save}; draw it with: kubasolve {kind} show {shlex.quote(args.save)}")
    return EXIT_OK


def _saved_text(kind: str, path: str, seed: int | None = None) -> str:
    """What play says once it saved the game to ``path``: the command that goes on with it (the name quoted for a shell;
    with ``--seed``, the seed of the AIs' draws, when known, so that they go on as they would have)."""
    again = "" if seed is None else f" --seed {seed}"
    return f"game saved to {path}; go on with: kubasolve {kind} play --resume {shlex.quote(path)}{again}"


def typed_file(text: str) -> str | None:
    """The file named after a typed command (``w FILE``) as a shell would read it: quotes group a name with spaces
    (``w "my game.json"``), a leading ``~`` is the home folder; None when no file is named. More than one name, or an
    unclosed quote, is a :class:`~kubasolve.errors.KubasolveError` saying so."""
    lexer = shlex.shlex(text, posix=True)
    lexer.whitespace_split = True
    lexer.commenters = ""
    if os.name == "nt":  # a backslash separates folders there, it escapes nothing
        lexer.escape = ""
    try:
        words = list(lexer)
    except ValueError as exc:  # "No closing quotation", "No escaped character"
        raise KubasolveError(f"cannot read the file name {text.strip()!r}: {str(exc).lower()}") from None
    if len(words) > 1:
        raise KubasolveError(f"one file name, got {len(words)} ({', '.join(map(repr, words))}); "
                               'quote a name with spaces: w "my game.json"')
    return os.path.expanduser(words[0]) if words and words[0] else None


def _seat_of_label(game: Any, label: str) -> str:
    """Who plays a saved seat by default on ``--resume``: the AI its label names, with its options (``planner:2#2`` is
    ``planner:2``, ``equity:bounded`` itself), else a person (``human#2``, a GCG nickname)."""
    base = label.partition("#")[0]
    if base == HUMAN or base.partition(":")[0] not in game.ai_names:
        return HUMAN
    try:
        game.check_ai(base)
    except KubasolveError:
        return HUMAN
    return base


def _gains(names: list[str], before: list[int], after: list[int]) -> str:
    changes = [f"{names[q]} {b - a:+d}" for q, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
    return f"  ({'; '.join(changes)})" if changes else ""


def hints(game: Any, state: Any, budget: Any, term: Terminal) -> list[Any]:
    """Print the legal moves, best first and numbered, with what to type for each; returns them (``N`` picks one)."""
    found = game.legal_moves(state, top=HINTS, budget=budget)
    total = "" if found.count is None else f" of {found.count}"
    term.say(f"legal moves ({len(found.moves)}{total}{'' if found.complete else ', not all listed'}; best first):")
    for i, m in enumerate(found.moves, 1):
        typed = game.command_text(state, m.action) or f"{i}"
        score = "" if m.score is None else f"{m.score:+d}"
        term.say(f"  {i:>2}  {typed:<28} {m.text:<30} {score}".rstrip())
    return list(found.moves)


def typed_action(game: Any, state: Any, text: str, listed: list[Any]) -> dict[str, Any] | str:
    """The action of a typed line: a number from the last hints, a JSON object, or one of the game's commands (a
    text to show for a command that is no action); an :class:`~kubasolve.errors.IllegalMoveError` otherwise."""
    from kubasolve.errors import IllegalMoveError

    if text.isascii() and text.isdigit():
        if not listed:
            raise IllegalMoveError("no numbered list yet: type h for the legal moves")
        k = int(text)
        if not 1 <= k <= len(listed):
            raise IllegalMoveError(f"choose a number from 1 to {len(listed)}")
        return dict(listed[k - 1].action)
    if text.startswith("{"):
        try:
            action = json.loads(text)
        except RecursionError:  # json decodes nested arrays and objects recursively
            raise IllegalMoveError("not a JSON action: nested too deeply") from None
        except ValueError as exc:
            raise IllegalMoveError(f"not a JSON action: {exc}") from None
        if not isinstance(action, dict):
            raise IllegalMoveError("an action is a JSON object")
        return action
    command = game.parse_command(state, text)
    if command is None:
        raise IllegalMoveError(f"{text.split()[0]!r} is not a command; type ? for help")
    return command
