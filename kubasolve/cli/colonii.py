"""``kubasolve colonii``: best turn and moves for a hand and a table, terminal play against AIs, and
AI self-play with confidence intervals. See ``docs/colonii.md``."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import IO, Any

TABLE_HELP = ("table groups: WORD:OWNER[:STAKE][:p] for a word (stake: default its value; p: protected), "
              "WORD+WORD+...:OWNER for a colony, e.g. cal:1 ziar+rânjet:0")

PLAY_HELP = """commands (one per line; a turn may hold several moves, then an empty line or '.' ends it):
  n WORD             build a new word from your cards
  e GROUP WORD       extend the word of table group GROUP (e.g. e 0 calorifer)
  c GROUP WORD       chain a perpendicular word from the last letter of group GROUP
  .                  end the turn (play the moves typed so far)
  u                  undo the moves typed so far
  x CARDS            exchange cards (they go under the deck; you draw as many)
  p                  pass
  h                  hints: the best moves and the best turn
  q                  quit
"""


RULES_DOC = "docs/colonii.md: settings at top level or under [colonii]"


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

    p = sub.add_parser("colonii", help="Word colonies (Romanian letter cards): best turn, play and simulate games")
    csub = p.add_subparsers(dest="colonii_command", metavar="ACTION")
    csub.required = True

    b = csub.add_parser("best", help="best turn and moves for a hand, e.g. `kubasolve colonii best oriferânjet --table cal:1 ziar:1 tac:0`",
                        description="Every legal move for the hand on the table, and the best combined turn (exact, up to 3 moves).")
    b.add_argument("hand", help="the cards of the player to move, as letters (e.g. oriferânjet)")
    b.add_argument("--table", nargs="*", default=[], metavar="GROUP", help=TABLE_HELP)
    b.add_argument("--mover", type=count(0, 7), default=0, help="player number of the mover (default 0)")
    b.add_argument("--players", type=count(1, 8), default=2, help="number of players (default 2)")
    b.add_argument("--top", type=count(0, 100_000), default=10, help="how many single moves to list (default 10; 0 = all)")
    b.add_argument("--objective", choices=("gain", "swing"), default="gain",
                   help="gain: own points (ties: more taken); swing: own points plus points taken from others")
    b.add_argument("--max-moves", type=count(1, 3), default=None, help="moves in the best turn (1-3; default the rules')")
    b.add_argument("--movetime-ms", type=count(1, 600_000), default=None,
                   help="time budget of the best-turn search in ms (default none: exact); then the best turn found so far")
    b.add_argument("--max-nodes", type=count(1, 3 * 10**11), default=None,
                   help="node budget of the best-turn search (deterministic; default none: exact)")
    add_rules_argument(b, RULES_DOC)
    add_lexicon_argument(b, "ro")
    add_json_argument(b)
    b.set_defaults(func=run_best)

    g = csub.add_parser("play", help="play colonii against AIs in the terminal")
    g.add_argument("--players", type=player_list, default=player_list("human,planner"),
                   help="comma-separated seats: human, random, greedy, planner (default human,planner)")
    g.add_argument("--seed", type=seed_type, default=None, help="deal seed (default: random, printed)")
    add_rules_argument(g, RULES_DOC)
    add_lexicon_argument(g, "ro")
    g.set_defaults(func=run_play)

    add_show_command(csub, shows="a saved game: the table's words and colonies, the hand, scores", lexicon="ro", func=run_show,
                     saved="a saved colonii game (the JSON of ColoniiState.to_dict, as the engine's state holds it)")

    s = csub.add_parser("simulate", help="AI self-play: win rates with 95%% confidence intervals")
    add_simulate_arguments(s, players="greedy,planner", players_help="random, greedy, planner", rules_doc=RULES_DOC, lexicon="ro")
    s.set_defaults(func=run_simulate)


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
    count = len(solver.move_table(position))
    budget = TurnBudget(args.max_nodes, args.movetime_ms) if args.max_nodes or args.movetime_ms else None
    turn = solver.best_turn(position, args.objective, args.max_moves, budget)
    if args.json:
        emit_json({"ok": True, "count": count, "best_turn": turn.to_dict(), "moves": [m.to_dict() for m in moves]})
        return 0
    if table:
        print(format_table(["group", "owner", "words", "stake"],
                           [[i, g.owner, " + ".join(g.words) + (" (protected)" if g.protected else ""), g.stake] for i, g in enumerate(table)]))
        print()
    rows = [[k + 1, m.kind.value, "" if m.target is None else m.target, m.word.upper(), m.cards, m.gain, m.taken] for k, m in enumerate(moves)]
    print(format_table(["#", "move", "group", "word", "cards", "gain", "taken"], rows))
    print(f"\n{count} legal moves. Best turn{'' if turn.proven_optimal else ' found (budget ran out, not proven)'}: "
          f"+{turn.gain} points, {turn.taken} taken from others"
          + "".join(f"\n  {m.kind.value} {m.word.upper()}{'' if m.target is None else f' on group {m.target}'}: cards {m.cards}, +{m.gain}"
                    for m in turn.moves))
    return 0


def run_simulate(args: argparse.Namespace) -> int:
    """Handler of ``colonii simulate``."""
    from kubasolve.cli.common import backend_options, emit_summary, open_output, progress
    from kubasolve.cli.output import simulation_summary
    from kubasolve.games.colonii.simulate import simulate

    rules = _rules(args.rules).to_dict() if args.rules else None
    with open_output(args.records, "records") as records, progress(args, args.games) as on_game:
        res = simulate(args.games, args.players, seed=args.seed, workers=args.workers, **backend_options(args), records=records, rules=rules,
                       on_game=on_game, lexicon=None if args.lexicon == "ro" else args.lexicon)
    text = simulation_summary(res)
    emit_summary(args, res.to_dict(), text)
    return 0


def run_show(args: argparse.Namespace) -> int:
    """Handler of ``colonii show``."""
    from kubasolve.cli.common import show_saved_game
    from kubasolve.games.colonii.game import ColoniiState, default_referee

    rules = _rules(None)
    return show_saved_game(args, "colonii", lambda data: ColoniiState.from_dict(data, default_referee(rules, _lexicon(args.lexicon, rules))))


def render(state: Any, names: list[str], viewer: int | None = None) -> str:
    """The table, the scores and (for ``viewer``) the hand, as text."""
    lines = [f"turn {state.turn}  deck {len(state.deck)} cards  scores: "
             + ", ".join(f"{n} {s}" for n, s in zip(names, state.scores))]
    for i, g in enumerate(state.table):
        kind = "colony" if g.is_colony else ("word, protected" if g.protected else f"word, stake {g.stake}")
        lines.append(f"  [{i}] {' -> '.join(w.upper() for w in g.words)}  ({names[g.owner]}, {kind})")
    if not state.table:
        lines.append("  (the table is empty)")
    if viewer is not None:
        values = state.rules.letter_values
        lines.append("your cards: " + " ".join(f"{c.upper()}{values[c]}" for c in state.hands[viewer]))
    return "\n".join(lines)


def run_play(args: argparse.Namespace, stdin: IO[str] | None = None, out: IO[str] | None = None) -> int:
    """Handler of ``colonii play``: humans type moves, AIs play their turns."""
    import random

    from kubasolve.ai.colonii import make_policy
    from kubasolve.errors import KubasolveError, RulesError
    from kubasolve.games.colonii.game import Referee

    stdin = stdin or sys.stdin
    out = out or sys.stdout
    seats = [p.strip().lower() for p in args.players]
    if not 1 <= len(seats) <= 8:
        raise RulesError("give 1 to 8 seats, e.g. --players human,planner")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    policies = {i: make_policy(s, seed + i) for i, s in enumerate(seats) if s != "human"}
    names = [f"{s}{i}" for i, s in enumerate(seats)]
    rules = _rules(args.rules)
    referee = Referee(_lexicon(args.lexicon, rules), rules)
    state = referee.new_game(seed, len(seats))

    def say(text: str) -> None:
        out.write(text + "\n")
        out.flush()

    say(f"Colonii, seed {seed}: {', '.join(names)}; first to {rules.target_score} points wins"
        if rules.end == "target" else f"Colonii, seed {seed}: {', '.join(names)}; the game ends when the deck runs out")
    say("Type ? for help.")
    pending: list[dict[str, Any]] = []
    shown = -1
    while not state.over:
        p = state.current
        if p in policies:
            action = policies[p].turn(referee, state)
            before = state.scores
            state = referee.apply(state, action)
            what = ", ".join(f"{m.play} {m.word.upper()}" + ("" if m.target is None else f" on [{m.target}]") for m in action.moves) \
                if action.type == "turn" else action.type
            say(f"{names[p]}: {what}  ({'; '.join(f'{names[q]} {d:+d}' for q, d in enumerate(a - b for a, b in zip(state.scores, before)) if d)})")
            continue
        if shown != state.turn:
            say(render(state, names, p))
            shown = state.turn
        out.write(f"{names[p]}{' (' + str(len(pending)) + ' moves typed)' if pending else ''}> ")
        out.flush()
        line = stdin.readline()
        if not line:
            say("\n(end of input: game abandoned)")
            return 0
        words = line.split()
        if not words and not pending:
            continue
        cmd = words[0].lower() if words else "."
        try:
            if cmd in ("?", "help"):
                say(PLAY_HELP)
            elif cmd == "q":
                say("bye")
                return 0
            elif cmd == "h":
                pos = state.position()
                for m in referee.solver.all_moves(pos, top=8):
                    say(f"  {m.kind.value:<13} {m.word.upper():<14} {'' if m.target is None else f'[{m.target}]':<5} +{m.gain}")
                turn = referee.solver.best_turn(pos)
                say(f"  best turn: {', '.join(m.word.upper() for m in turn.moves) or 'none'} (+{turn.gain})")
            elif cmd == "u":
                pending.clear()
                say("moves cleared")
            elif cmd == "n" and len(words) == 2:
                pending.append({"play": "new", "word": words[1]})
            elif cmd in ("e", "c") and len(words) == 3 and words[1].isascii() and words[1].isdigit():
                pending.append({"play": "extend" if cmd == "e" else "chain", "target": int(words[1]), "word": words[2]})
            elif cmd in (".", "x", "p"):
                if cmd == ".":
                    if not pending:
                        say("no moves typed (p passes)")
                        continue
                    action_dict: dict[str, Any] = {"type": "turn", "moves": list(pending)}
                elif cmd == "x":
                    action_dict = {"type": "exchange", "cards": "".join(words[1:])}
                else:
                    action_dict = {"type": "pass"}
                pending.clear()
                before = state.scores
                state = referee.apply(state, action_dict)
                say("ok: " + "; ".join(f"{names[q]} {d:+d}" for q, d in enumerate(a - b for a, b in zip(state.scores, before)) if d))
            else:
                say("not understood; type ? for help")
        except KubasolveError as exc:
            say(f"not allowed: {exc} (type the turn again)")
    say(render(state, names))
    winners = state.winners()
    say("winner: " + " and ".join(names[w] for w in winners))
    return 0
