"""The crossword game in the game protocol (:mod:`kubasolve.games.protocol`), over the referee, move generator and AIs.

``legal_moves`` lists the best placements (the move generator is exact: ``count`` counts them all), pass, one
exchange (the whole rack) when the bag allows exchanges, and a challenge when there is a play to challenge; the
count includes every distinct exchange. In challenge mode a placement forming a word outside the lexicon is legal
too (it may be challenged), so the list is not complete there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from kubasolve.budget import Budget
from kubasolve.errors import KubasolveError
from kubasolve.games.crossword.ai_names import AI_NAME_FORMS, AI_NAMES, parse_ai_name
from kubasolve.games.crossword.rules import CrosswordRules
from kubasolve.games.limits import CROSSWORD_MAX_ENDGAME_THREADS, CROSSWORD_MAX_SIM_CANDIDATES, CROSSWORD_MAX_SIM_ITERATIONS
from kubasolve.games.protocol import AiMove, Game, LegalMove, LegalMoves, SavedGame, State, action_field, exchange_count, register_game

__all__ = ["Crossword", "check_ai_options"]


AI_OPTION_RANGES: dict[str, tuple[int, int]] = {"iterations": (1, CROSSWORD_MAX_SIM_ITERATIONS), "candidates": (1, CROSSWORD_MAX_SIM_CANDIDATES),
                                                 "plies": (1, 3), "threads": (1, CROSSWORD_MAX_ENDGAME_THREADS)}
"""The integer AI settings and their bounds (``plies``: ``sim`` 1 or 2, ``sim2`` 2 or 3)."""
AI_OPTION_CHOICES: dict[str, tuple[str, ...]] = {"objective": ("win", "spread"), "endgame": ("exact", "bounded")}
"""The AI settings that name a choice, and their choices."""


def check_ai_options(base: str, options: Mapping[str, Any]) -> None:
    """Refuse, by name (``options.<key>``), an AI setting of the wrong type or out of its range; ``base``: the AI
    without its ``:`` options. A setting the AI does not use is allowed (self-play gives one set to every seat)."""
    for key, value in options.items():
        if key in AI_OPTION_RANGES:
            lo, hi = AI_OPTION_RANGES[key]
            if key == "plies" and base in ("sim", "sim2"):
                lo, hi = (1, 2) if base == "sim" else (2, 3)
            if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
                who = f"{base}'s " if key == "plies" and base in ("sim", "sim2") else ""
                raise KubasolveError(f"options.{key}: {who}{key} is an integer from {lo} to {hi}, got {value!r}", key=f"options.{key}")
        elif key in AI_OPTION_CHOICES and value not in AI_OPTION_CHOICES[key]:
            raise KubasolveError(f"options.{key}: one of {', '.join(AI_OPTION_CHOICES[key])}, got {value!r}", key=f"options.{key}")


@register_game
class Crossword(Game):
    """The crossword tile game (Dutch Scrabble-type rules; docs/crossword.md)."""

    name: ClassVar[str] = "crossword"
    render_module: ClassVar[str] = "kubasolve.games.crossword.render"
    ai_names: ClassVar[tuple[str, ...]] = AI_NAMES
    default_ai: ClassVar[str] = "equity2"
    lexicons: ClassVar[tuple[str, ...]] = ("nl", "en")
    rules_type: ClassVar[type] = CrosswordRules
    ai_options: ClassVar[tuple[str, ...]] = ("iterations", "candidates", "plies", "objective", "endgame", "threads")
    """``sim``/``sim2``: opponent racks sampled per candidate, equity candidates simulated, plies (``sim`` 1 or 2,
    ``sim2`` 2 or 3); ``sim2``: ``objective`` ``win`` (default) or ``spread``; all but ``score``: ``endgame``
    ``exact`` (the solver, default) or ``bounded`` (the old bounded search), ``threads`` the exact solver's search
    threads (1 to 16, default 1); each checked by :func:`check_ai_options`."""

    play_help: ClassVar[str] = """Crossword commands (coordinates as in GCG: 8H = row 8 from column H across, H8 = column H from row 8 down):
  8H WORD            place a word; letters already on the board in parentheses or as '.', e.g. H8 WO(R)D;
                     a blank as a lower-case letter (8H WOrD)
  x LETTERS          exchange tiles (? for a blank), e.g. x QU?
  p                  pass
  c                  challenge the previous play (challenge mode)
  g                  the game so far as GCG"""

    def default_lexicon(self) -> str:
        return "en" if self.rules.tiles == "en" else "nl"

    def player_range(self) -> tuple[int, int]:
        return self.rules.min_players, self.rules.max_players

    @property
    def referee(self) -> Any:
        """The cached referee of these rules and lexicon."""
        from kubasolve.games.crossword.game import default_referee

        return default_referee(self.rules, self.lexicon)

    def _warm_up(self) -> None:
        from kubasolve.games.crossword.board import Board
        from kubasolve.games.crossword.movegen import generate_moves

        referee = self.referee
        layout = referee.layout
        empty = Board.from_rows(["." * layout.cols] * layout.rows, self.lexicon.alphabet)
        generate_moves(empty, "".join(referee.tiles.letters[:7]), self.lexicon, layout, referee.tiles, top=1)
        from kubasolve.games.crossword.endgame import EndgameSolver

        solver = EndgameSolver(referee)
        solver.ws.warm()  # the exact endgame solver's kernel too (its first load from the cache: ~0.7 s)
        solver.ws.map_pages()  # and its buffers' pages (0.3-0.5 s of a first AI turn's budget otherwise)
        from kubasolve.games.crossword.sim import default_leaves

        default_leaves(referee)  # the learnt leave table of equity2 and sim2 (~0.2 s to load once)

    # ---------------------------------------------------------------- hooks
    @classmethod
    def ai_name_forms(cls) -> str:
        return AI_NAME_FORMS

    def check_ai(self, name: Any) -> None:
        """Refuse a name outside the grammar of :mod:`kubasolve.games.crossword.ai_names` (an unknown AI, an option
        it does not take, a value out of range): a bad request keyed ``ai`` whose message lists the forms."""
        if not isinstance(name, str):
            super().check_ai(name)
            return
        try:
            parse_ai_name(name)
        except KubasolveError as exc:
            raise KubasolveError(f"ai: {exc}", key="ai") from None

    def _new(self, seed: int, players: tuple[str, ...]) -> Any:
        return self.referee.new_game(seed, len(players))

    def _result(self, native: Any) -> tuple[int | None, int, Sequence[int], bool, Sequence[int]]:
        return native.current, native.turn, native.scores, native.over, native.winners() if native.over else []

    def _legal_moves(self, native: Any, top: int, budget: Budget) -> LegalMoves:
        from kubasolve.games.crossword.game import CrosswordAction
        from kubasolve.games.crossword.movegen import generate_moves

        referee = self.referee
        rules = referee.rules
        fixed = [LegalMove({"type": "pass"}, "pass")]
        if native.last_play is not None:
            fixed.append(LegalMove({"type": "challenge"}, "challenge the previous play"))
        if native.last_play is not None and native.last_play.went_out:  # only a challenge or a pass (accepting it)
            return LegalMoves(fixed, len(fixed), True, True, 0)
        rack = native.rack()
        found = generate_moves(native.board, rack, referee.lexicon, referee.layout, referee.tiles, top=top,
                               bingo_bonus=rules.bingo_bonus)
        placed = []
        for m in found.moves:
            action = CrosswordAction.place(m)
            placed.append(LegalMove(action.to_dict(), _placement_text(m), m.score,
                                    {"word": m.word, "bingo": m.bingo}))
        exchanges = exchange_count(rack, len(native.bag)) if len(native.bag) >= rules.exchange_min_bag and rack else 0
        if exchanges:
            whole = rack[: len(native.bag)]
            fixed.append(LegalMove({"type": "exchange", "letters": whole}, f"exchange {whole}", None, {"exchanges": exchanges}))
        count = found.count + exchanges + len(fixed) - (1 if exchanges else 0)
        complete = rules.word_check == "referee" and len(placed) == found.count and exchanges <= 1
        # a node here: a placement the exact move generator produced (it has no budget: it always runs to its end)
        return LegalMoves(placed + fixed, None if rules.word_check == "challenge" else count, complete, True, found.count)

    def _apply(self, native: Any, action: dict[str, Any]) -> Any:
        return self.referee.apply(native, action)

    def _check_ai_options(self, ai: str, options: Mapping[str, Any]) -> None:
        check_ai_options(ai.partition(":")[0], options)

    def _ai_move(self, native: Any, ai: str, budget: Budget, seed: int, options: dict[str, Any]) -> AiMove:
        from kubasolve.budget import WorkBudget
        from kubasolve.games.crossword.ai import DEFAULT_ENDGAME_NODES, EndgameBudgeted, make_policy

        settings: dict[str, Any] = {}
        seconds = None if budget.movetime_ms is None else budget.movetime_ms / 1000
        base, _, arg = ai.partition(":")
        if base != "score":  # equity:bounded / equity:NODES set these too; options and the budget win
            if "endgame" in options or not arg:
                settings["endgame_mode"] = options.get("endgame", "exact")
            if budget.max_nodes is not None:  # the whole turn's (ai.EndgameBudgeted.max_nodes: the endgame's nodes too)
                settings["endgame_nodes"] = settings["max_nodes"] = budget.max_nodes
            elif not arg:
                settings["endgame_nodes"] = DEFAULT_ENDGAME_NODES
            if "threads" in options:
                settings["endgame_threads"] = options["threads"]
        if base in ("equity", "equity2"):
            settings["endgame_time"] = seconds
        if base in ("sim", "sim2"):
            settings["time_limit"] = seconds
        if base != "score" and budget.movetime_ms is not None:
            # a name's own time (sim2:400ms) would otherwise win over the budget: the budget caps it
            from kubasolve.games.crossword.ai_names import parse_ai_name

            named = parse_ai_name(ai)[1].get("movetime_ms")
            settings["movetime_ms"] = float(budget.movetime_ms) if named is None else min(float(named), float(budget.movetime_ms))
        if base in ("sim", "sim2"):
            settings.update({k: options[k] for k in ("iterations", "candidates", "plies", "objective") if k in options})
        policy = make_policy(ai, seed, **settings)
        meter = budget.meter(WorkBudget)
        if isinstance(policy, EndgameBudgeted):  # every AI but score: a stop request ends its searches, sims tell their best
            policy.halted = meter.stopped
            if meter.progress is not None:
                policy.on_best = lambda move, value: meter.report(
                    {"action": move.to_dict(), "text": self._action_text(native, move), "value": round(value, 2)})

                def searched(nodes: int) -> None:
                    meter.nodes = nodes
                    meter.report()

                policy.on_nodes = searched
        action = policy.turn(self.referee, native)
        solved = getattr(policy, "last_endgame", None)
        details: dict[str, Any] = {}
        nodes = int(getattr(policy, "nodes", 0))  # the score AI counts none
        if solved is not None:
            proven = bool(solved.proven)
            details["endgame"] = True
        else:  # before the endgame no AI proves its move best (leaves, simulation: estimates)
            proven = False
            details["searched"] = not (getattr(policy, "cut", False) or meter.stopped())
        return AiMove(action.to_dict(), self._action_text(native, action), proven, nodes, details)

    def _action_text(self, native: Any, action: Any) -> str:
        """``8H WO.D`` for a placement (played-through letters as dots), ``exchange KQ``, ``pass``, ``challenge``."""
        if action.type == "place":
            return _placement_text(self._placement(native, action))
        return f"exchange {action.letters}" if action.type == "exchange" else str(action.type)

    def _placement(self, native: Any, action: Any) -> Any:
        """The placement a ``place`` action makes in ``native`` (a :class:`KubasolveError` if it is not one)."""
        resolved = self.referee.resolve(native, action)
        return self.referee.judge_placement(native.board, native.rack(), resolved.tiles).placement

    def parse_command(self, state: State, text: str) -> dict[str, Any] | str | None:
        words = text.split()
        if not words:
            return None
        shared = self.pass_or_exchange(words, "letters")
        if shared is not None:
            return shared
        cmd = words[0].lower()
        if cmd == "c" and len(words) == 1:
            return {"type": "challenge"}
        if cmd == "g" and len(words) == 1:
            from kubasolve.games.crossword.notation import to_gcg

            return str(to_gcg(state.native, list(state.players)))
        if len(words) == 2 and any(ch.isdigit() for ch in words[0]):
            return {"type": "place", "move": text.strip()}
        return None

    def _command_text(self, state: State, action: dict[str, Any]) -> str | None:
        from kubasolve.games.crossword.game import action_from_dict

        kind = action.get("type")
        if kind in ("pass", "challenge"):
            return "p" if kind == "pass" else "c"
        if kind == "exchange":
            return f"x {action_field(action, 'letters', str, required=False) or ''}"
        try:
            placement = self._placement(state.native, action_from_dict(dict(action)))
        except KubasolveError:
            return None
        return _placement_text(placement, through="()")

    def _saved_native(self, data: dict[str, Any]) -> tuple[Any, Any, Sequence[str] | None] | None:
        """A ``CrosswordState.to_dict`` (the v2 engine's state) under the rules it holds."""
        from kubasolve.games.crossword.game import CrosswordState, default_referee

        if "board" not in data or "rules" not in data:
            return None
        rules = self.parse_rules(data["rules"])
        state = CrosswordState.from_dict(data, default_referee(rules, self.lexicon))
        return state.rules, state, None

    def _saved_text(self, text: str) -> SavedGame | None:
        """A GCG game, to continue from its end (its players' nicknames as the seat names), played with the lexicon
        its ``#lexicon`` names (a bundled one; another name is refused by name) unless this game was given one (a
        notice then says so when they differ). The state records the GCG text it started from, so it saves and
        resumes (:class:`~kubasolve.games.crossword.game.CrosswordState`'s ``origin``)."""
        from kubasolve.games.crossword.notation import file_lexicon, parse_gcg, state_from_gcg
        from kubasolve.lexicon.bundled import BUNDLED

        if not any(ln.lstrip().startswith((">", "#player")) for ln in text.splitlines()):
            return None
        layout = self.referee.layout
        game = parse_gcg(text, layout.rows, layout.cols, self.lexicon.alphabet.letters)
        given = self.lexicon_name if self.lexicon_given else None
        name, notice = file_lexicon(game.lexicon, given, sorted(BUNDLED))
        own = self
        if name is not None and name != self.lexicon_name:
            own = type(self)(self.rules, name)
        state = state_from_gcg(own.referee, text)  # read again under the lexicon played (its alphabet)
        return SavedGame(self.rules, state, [nick for nick, _ in game.players], None if own is self else name,
                         (notice,) if notice else ())

    def _from_json(self, data: dict[str, Any], players: tuple[str, ...]) -> Any:
        from kubasolve.games.crossword.game import CrosswordState

        state = CrosswordState.from_dict(data, self.referee)
        return self._loaded(state, state.rules, players)


def _placement_text(move: Any, through: str = ".") -> str:
    from kubasolve.games.crossword.notation import format_placement

    return format_placement(move.row, move.col, move.direction, move.word, move.tiles, through=through)
