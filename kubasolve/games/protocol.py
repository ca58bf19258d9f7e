"""The one game protocol every game implements, and the registry of games.

A :class:`Game` is bound to its rules and lexicon (like a referee); a :class:`State` is a value (``apply`` returns
a new one). Every game answers the same questions in the same shapes: the common :class:`Result` view,
:class:`LegalMoves` whose entries carry the ``action`` that :meth:`Game.apply` accepts verbatim, an :class:`AiMove`,
a JSON form of its states (tagged with ``format``, ``version`` and ``game``), and a text and SVG rendering. The
engine (``kubasolve engine``: ``new-game``, ``legal-moves``, ``apply-move``, ``ai-move`` ...) is one generic layer
over it, so one client plays every game::

    from kubasolve.games import load_game
    from kubasolve.budget import Budget

    game = load_game("crossword", rules={"tiles": "en"}, lexicon="en")
    state = game.new_game(seed=1, players=["ann", "bob"])
    while not game.result(state).over:
        state = game.apply(state, game.ai_move(state, budget=Budget(movetime_ms=500)).action)

Each game's implementation is ``kubasolve/games/<game>/protocol.py`` (found by :func:`game_names` without being
imported); another package registers a game with :func:`register_game`. Importing this module is cheap: no word
list is read and no kernel loaded until a game needs them.
"""

from __future__ import annotations

import importlib
import json
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, NamedTuple, TypeVar
from xml.sax.saxutils import escape

from kubasolve.budget import Budget
from kubasolve.errors import IllegalMoveError, KubasolveError, PositionError, RulesError, StateError
from kubasolve.games.limits import check_seed

__all__ = [
    "STATE_FORMAT",
    "STATE_VERSION",
    "AiMove",
    "AiNumber",
    "Game",
    "LegalMove",
    "LegalMoves",
    "Result",
    "SavedGame",
    "State",
    "action_field",
    "exchange_count",
    "game_class",
    "game_names",
    "import_game_modules",
    "load_game",
    "register_game",
    "seat_labels",
    "state_from_json",
    "text_svg",
]

STATE_FORMAT = "kubasolve-state"
"""The ``format`` tag of every saved protocol state."""
STATE_VERSION = 1
"""The ``version`` of the saved state layout (the game's own part has its own format tag)."""
STATE_KEYS = ("format", "version", "game", "players", "rules", "lexicon", "native")


class SavedGame(NamedTuple):
    """What :meth:`Game._saved_text` and :meth:`Game._saved_native` read from a game's own saved form."""

    rules: Any
    native: Any
    names: Sequence[str] | None
    """The seat names the file gives (None: the default ones)."""
    lexicon: str | None = None
    """The lexicon the file says to play (None: the game's own); the native state was read under it."""
    notices: tuple[str, ...] = ()
    """What the caller should be told (e.g. the file names another lexicon than the one asked for)."""
MAX_NAME = 64
"""Longest seat name."""


@dataclass(frozen=True)
class State:
    """A position of a protocol game: its ``game`` kind, the seat ``players`` and the game's own state
    (``native``: e.g. a ``CrosswordState``). A value: :meth:`Game.apply` returns a new one."""

    game: str
    players: tuple[str, ...]
    native: Any = field(compare=False)


@dataclass(frozen=True)
class Result:
    """The common view of a state: who is to move (``current``, None once over), the ``turn`` number (1 = the
    first turn; once over, one more than the turns played), every seat's score, whether the game is ``over``
    and its ``winners`` (empty until it is; several on a tie), and the seat names."""

    current: int | None
    turn: int
    scores: list[int]
    over: bool
    winners: list[int]
    players: list[str]

    def to_dict(self) -> dict[str, Any]:
        """JSON form (the engine's session answers carry these keys)."""
        return {"players": list(self.players), "current": self.current, "turn": self.turn, "scores": list(self.scores),
                "over": self.over, "winners": list(self.winners)}


@dataclass(frozen=True)
class LegalMove:
    """One legal action: ``action`` (a JSON object :meth:`Game.apply` accepts as it is), a short human ``text``,
    its ``score`` where the game scores moves (None otherwise) and game-specific ``details``."""

    action: dict[str, Any]
    text: str
    score: int | None = None
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"action": self.action, "text": self.text, "score": self.score, "details": self.details}


@dataclass(frozen=True)
class LegalMoves:
    """Legal actions of the player to move: ``moves`` (best first where the game scores them; ``top`` caps the
    scored ones, the few others - pass, draw, end of turn, one exchange... - are always listed), ``count`` (every
    legal action, None when the game cannot count them), ``complete`` (every legal action is listed),
    ``proven_optimal`` (the first scored move is the best of all, not cut by the budget) and ``nodes`` (search
    nodes spent; 0 where the game does not count them)."""

    moves: list[LegalMove]
    count: int | None
    complete: bool
    proven_optimal: bool
    nodes: int

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"moves": [m.to_dict() for m in self.moves], "count": self.count, "complete": self.complete,
                "proven_optimal": self.proven_optimal, "nodes": self.nodes}


@dataclass(frozen=True)
class AiMove:
    """An AI's choice for the player to move: ``action`` (for :meth:`Game.apply`), ``text``, ``proven_optimal``
    (the move is proven best by an exact search that ran to its end, not cut by the budget or a stop; never where the
    AI decides by rule of thumb or sampling), ``nodes`` and game-specific ``details``."""

    action: dict[str, Any]
    text: str
    proven_optimal: bool
    nodes: int
    details: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"action": self.action, "text": self.text, "proven_optimal": self.proven_optimal, "nodes": self.nodes,
                "details": self.details}


class AiNumber(NamedTuple):
    """A number an AI takes after ``:`` in its name (Kubagram's ``planner:3``): :attr:`Game.ai_numbers`."""

    placeholder: str
    """How the forms write it, e.g. ``DEPTH`` (``planner:DEPTH``)."""
    what: str
    """What it sets, e.g. ``the planner's depth``."""
    low: int
    high: int


R = TypeVar("R")


def _check_action(action: Any) -> None:
    """An action is a JSON object whose ``type``, if given, is a text (:meth:`Game.apply`, :meth:`Game.command_text`)."""
    if not isinstance(action, Mapping):
        raise IllegalMoveError(f"an action must be a JSON object such as {{\"type\": ...}}, got {type(action).__name__}",
                               key="action")
    if "type" in action and not isinstance(action["type"], str):  # (a list or object there reached the games' lookups)
        raise IllegalMoveError(f"an action's type is a text such as \"pass\", got {type(action['type']).__name__}",
                               key="action.type")


_KIND_NAMES = {str: "a text", int: "a whole number", list: "a list", dict: "a JSON object", bool: "true or false"}
_ITEM_NAMES = {str: "texts", int: "whole numbers", dict: "JSON objects"}


def action_field(action: Mapping[str, Any], name: str, kind: type, *, required: bool = True, items: type | None = None,
                 where: str = "action") -> Any:
    """``action[name]`` when it is a ``kind`` (a list: of ``items``, when given); None when it is absent (or null) and not
    ``required``; else an :class:`~kubasolve.errors.IllegalMoveError` naming ``where.name`` and what it must be."""
    key = f"{where}.{name}"
    value = action.get(name)
    if value is None:
        if required:
            raise IllegalMoveError(f"{key} is missing: it is {_KIND_NAMES.get(kind, kind.__name__)}", key=key)
        return None
    wanted = _KIND_NAMES.get(kind, kind.__name__) + (f" of {_ITEM_NAMES.get(items, items.__name__)}" if items else "")
    ok = isinstance(value, kind) and (kind is bool or not isinstance(value, bool))
    if ok and items is not None:
        ok = all(isinstance(x, items) and (items is bool or not isinstance(x, bool)) for x in value)
    if not ok:
        raise IllegalMoveError(f"{key} must be {wanted}, got {json.dumps(value, default=str)[:40]}", key=key)
    return value


def _check_budget(budget: Any) -> None:
    """Refuse a budget that is not a :class:`~kubasolve.budget.Budget` (or None) by name, before any search reads it."""
    if budget is not None and not isinstance(budget, Budget):
        raise KubasolveError(f"budget must be a kubasolve.Budget (movetime_ms, max_nodes) or None, got {type(budget).__name__}",
                             key="budget")


class Game(ABC):
    """One game kind bound to its ``rules`` (a frozen dataclass) and lexicon. Subclasses implement the
    ``_native`` hooks over the game's own referee, solver and AIs; this class checks what is common (seats,
    states of the right kind, actions that are JSON objects, a game that is over, AI names) and keeps the budget's
    clock out of one-time set-up (:meth:`warm_up` runs before a budgeted search makes its meter)."""

    name: ClassVar[str]
    """The game kind, e.g. ``"crossword"``."""
    ai_names: ClassVar[tuple[str, ...]]
    """The AIs, weakest first."""
    default_ai: ClassVar[str]
    lexicons: ClassVar[tuple[str, ...]] = ()
    """Bundled lexicons the game plays with (empty: no lexicon)."""
    rules_type: ClassVar[type]
    """The frozen rules dataclass (``from_dict``, ``to_dict``; ``from_toml`` where the game reads TOML)."""
    ai_numbers: ClassVar[Mapping[str, AiNumber]] = {}
    """The AIs that take a number after ``:`` in their name (``planner:3``), with its range; every other AI takes no
    option in its name. :meth:`check_ai` refuses the rest (a game with a richer grammar, the crossword, overrides it)."""
    ai_options: ClassVar[tuple[str, ...]] = ()
    """Names of the game-specific AI settings :meth:`ai_move` takes in ``options`` (e.g. a simulation's iterations)."""
    seat_prefix: ClassVar[str] = "player"
    """Seat names of a game given a count: ``player0``, ``player1`` ..."""
    deal_options: ClassVar[tuple[str, ...]] = ()
    """Names of the game-specific settings of a deal :meth:`new_game` takes in ``options`` (e.g. Kubagram's board
    ``rotation``)."""
    render_module: ClassVar[str] = ""
    """The module whose ``render_text(native, players)`` and ``render_svg(native, players)`` draw the position
    (imported on first use); empty: the state's JSON as text."""
    play_help: ClassVar[str] = ""
    """The game's own typed commands in a terminal game (``kubasolve GAME play``; :meth:`parse_command`)."""

    def __init__(self, rules: Any = None, lexicon: Any = None) -> None:
        self.rules: Any = self.parse_rules(rules)
        self._lexicon: Any = None
        self.lexicon_given: bool = lexicon is not None and lexicon != ""
        """Was the lexicon asked for (a saved file's own lexicon gives way to it), not the game's default?"""
        if not self.lexicons:
            if lexicon is not None:
                raise KubasolveError(f"{self.name} uses no lexicon", key="lexicon")
            self.lexicon_name: str | None = None
        elif lexicon is None or isinstance(lexicon, str):
            self.lexicon_name = lexicon or self.default_lexicon()
        else:
            self._lexicon = lexicon
            self.lexicon_name = str(getattr(lexicon, "name", "custom"))
        self._warm = False

    # ---------------------------------------------------------------- set-up
    @classmethod
    def parse_rules(cls, rules: Any) -> Any:
        """The rules from a mapping of settings, TOML text or a path, an instance, or None (the defaults)."""
        kind = cls.rules_type
        if rules is None:
            return kind()
        if isinstance(rules, kind):
            return rules
        if isinstance(rules, Mapping):
            return kind.from_dict(dict(rules))  # type: ignore[attr-defined]
        if isinstance(rules, (str, Path)):
            if hasattr(kind, "from_toml"):
                return kind.from_toml(rules)
            from kubasolve.games.settings import read_toml_table

            return kind.from_dict(read_toml_table(rules, cls.name))  # type: ignore[attr-defined]
        raise RulesError(f"{cls.name} rules must be a mapping of settings, TOML text or a path, got {type(rules).__name__}")

    def rules_to_dict(self) -> dict[str, Any]:
        """The rules as JSON (what :meth:`parse_rules` reads back)."""
        data: dict[str, Any] = self.rules.to_dict()
        return data

    @classmethod
    def rules_schema(cls) -> dict[str, Any]:
        """JSON Schema of the rule settings (from the rules dataclass)."""
        import msgspec

        schema: dict[str, Any] = msgspec.json.schema(cls.rules_type)
        return schema

    def default_lexicon(self) -> str:
        """The lexicon used when none is given (may depend on the rules, e.g. the tile set)."""
        return self.lexicons[0]

    @property
    def lexicon(self) -> Any:
        """The game's :class:`~kubasolve.lexicon.Lexicon` (loaded on first use), None for a game without one."""
        if self._lexicon is None and self.lexicon_name is not None:
            from kubasolve.lexicon import load_lexicon
            from kubasolve.lexicon.bundled import BUNDLED

            alphabet = None if self.lexicon_name in BUNDLED else self.wordlist_alphabet()
            self._lexicon = load_lexicon(self.lexicon_name, alphabet=alphabet)
        return self._lexicon

    def wordlist_alphabet(self) -> Any:
        """The alphabet a word-list file given as the lexicon is read with (None: the Latin letters a-z)."""
        return None

    @property
    def min_players(self) -> int:
        """Fewest seats."""
        return self.player_range()[0]

    @property
    def max_players(self) -> int:
        """Most seats."""
        return self.player_range()[1]

    @abstractmethod
    def player_range(self) -> tuple[int, int]:
        """(fewest, most) seats under these rules."""

    def warm_up(self) -> None:
        """The one-time set-up (lexicon load, solver tables, the kernels' load or compilation), once per game object;
        budgeted searches call it before their clock starts."""
        if not self._warm:
            self._warm_up()
            self._warm = True

    def _warm_up(self) -> None:
        """Game hook of :meth:`warm_up` (default: load the lexicon)."""
        _ = self.lexicon

    # ---------------------------------------------------------------- the protocol
    def new_game(self, seed: int = 0, players: int | Sequence[str] = 2, options: Mapping[str, Any] | None = None) -> State:
        """Deal a game from ``seed`` for ``players`` (a count: seats ``player0``...; or the seat names); ``options``:
        game-specific settings of the deal (:attr:`deal_options`)."""
        check_seed(seed)
        names = self.seat_names(players)
        settings = dict(options or {})
        for key in settings:
            if key not in self.deal_options:
                raise KubasolveError(f"options.{key}: unknown {self.name} deal setting (known: {', '.join(self.deal_options) or 'none'})",
                                     key=f"options.{key}")
        return State(self.name, names, self._new_with(seed, names, settings) if settings else self._new(seed, names))

    def seat_names(self, players: int | Sequence[str]) -> tuple[str, ...]:
        """Seat names from a count or a list of names, checked against the rules' player range."""
        lo, hi = self.player_range()
        if hi < lo:  # e.g. a Rummikub box too small to deal two racks: the rules, not the seat count, are wrong
            raise RulesError(f"these {self.name} rules seat no game: at most {hi} player(s) can be dealt, "
                             f"the game needs at least {lo}", key="rules")
        if isinstance(players, int) and not isinstance(players, bool):
            names = tuple(f"{self.seat_prefix}{i}" for i in range(players))
        elif isinstance(players, Sequence) and not isinstance(players, str):
            names = tuple(players)
            if not all(isinstance(n, str) and 0 < len(n) <= MAX_NAME for n in names):
                raise KubasolveError(f"seat names must be strings of 1 to {MAX_NAME} characters", key="players")
        else:
            raise KubasolveError(f"players must be a count or a list of seat names, got {players!r}", key="players")
        if not lo <= len(names) <= hi:
            raise KubasolveError(f"{self.name} is played by {lo} to {hi} players, got {len(names)}", key="players")
        return names

    def state_of(self, native: Any, players: int | Sequence[str] | None = None) -> State:
        """Adopt a native state of this game (dealt or loaded by the game's own API) with its seat names (default:
        ``player0`` ...); the seat count must be the state's."""
        n = len(self._result(native)[2])
        names = self.seat_names(n if players is None else players)
        if len(names) != n:
            raise KubasolveError(f"players: the state has {n} players, got {len(names)} names", key="players")
        return State(self.name, names, native)

    def result(self, state: State) -> Result:
        """The common view of ``state``."""
        native = self._own(state)
        current, turn, scores, over, winners = self._result(native)
        return Result(None if over else current, turn, list(scores), over, list(winners) if over else [], list(state.players))

    def legal_moves(self, state: State, top: int = 20, budget: Budget | None = None) -> LegalMoves:
        """Legal actions of the player to move (see :class:`LegalMoves`); a game over has none. ``top`` (>= 1) caps
        the scored moves; ``budget`` bounds the searches that find them (best found so far when it runs out)."""
        native = self._own(state)
        if isinstance(top, bool) or not isinstance(top, int) or top < 1:
            raise KubasolveError(f"top must be a positive integer, got {top!r}", key="top")
        _check_budget(budget)
        if self._result(native)[3]:
            return LegalMoves([], 0, True, True, 0)
        self.warm_up()
        return self._legal_moves(native, top, budget or Budget())

    def apply(self, state: State, action: Mapping[str, Any]) -> State:
        """The state after ``action`` (a JSON object, e.g. a legal-moves entry's ``action``) by the player to move;
        :class:`~kubasolve.errors.IllegalMoveError` with the reason (``state`` unchanged) if it is not legal."""
        native = self._own(state)
        _check_action(action)
        if self._result(native)[3]:
            raise IllegalMoveError("the game is over")
        try:
            applied = self._apply(native, dict(action))
        except PositionError as exc:  # a game's referee may call an unreadable action a bad position: it is an illegal action
            if isinstance(exc, StateError):
                raise
            raise IllegalMoveError(str(exc), key=exc.key) from None
        return State(self.name, state.players, applied)

    @classmethod
    def ai_name_forms(cls) -> str:
        """The game's AI names and the options they take after ``:``, for refusals (e.g. ``kubagram AIs: random, greedy,
        planner, search; planner:DEPTH (the planner's depth, 1 to 30), search:NODES (...)``)."""
        names = f"{cls.name} AIs: {', '.join(cls.ai_names)}"
        if not cls.ai_numbers:
            return f"{names}; they take no option after ':'"
        numbers = ", ".join(f"{ai}:{n.placeholder} ({n.what}, {n.low} to {n.high})" for ai, n in cls.ai_numbers.items())
        return f"{names}; {numbers}; the others take no option after ':'"

    def check_ai(self, name: Any) -> None:
        """Refuse an AI this game does not have: an unknown name, or a ``NAME:OPTION`` its AI does not take (not in
        :attr:`ai_numbers`, or out of its range): :class:`~kubasolve.errors.KubasolveError` (a bad request) with key
        ``ai``, naming it and listing :meth:`ai_name_forms`."""
        forms = self.ai_name_forms()
        if not isinstance(name, str) or name.partition(":")[0] not in self.ai_names:
            raise KubasolveError(f"unknown {self.name} AI {name!r}; {forms}", key="ai")
        base, colon, arg = name.partition(":")
        if colon:
            number = self.ai_numbers.get(base)
            if number is None:
                raise KubasolveError(f"{name!r}: the {base} AI takes no option; {forms}", key="ai")
            if not (arg.isascii() and arg.isdigit() and len(arg) <= 12 and number.low <= int(arg) <= number.high):
                raise KubasolveError(f"{name!r}: {base}:{number.placeholder} takes {number.what} from {number.low} to "
                                     f"{number.high}; {forms}", key="ai")
        self._check_ai_settings(name)

    def _check_ai_settings(self, name: str) -> None:
        """Hook: raise :class:`~kubasolve.errors.KubasolveError` (key ``ai``) for a name :meth:`check_ai`'s grammar
        passes that the game still does not take (default: none)."""
        return None

    def ai_move(self, state: State, ai: str | None = None, budget: Budget | None = None, seed: int = 0,
                options: Mapping[str, Any] | None = None) -> AiMove:
        """AI ``ai`` (default :attr:`default_ai`)'s action for the player to move, within ``budget`` (none: the AI's
        own defaults; the clock starts after :meth:`warm_up`); ``seed`` for the AIs that draw at random; ``options``:
        game-specific AI settings (:attr:`ai_options`)."""
        native = self._own(state)
        name = self.default_ai if ai is None else ai
        self.check_ai(name)
        check_seed(seed)
        _check_budget(budget)
        settings = dict(options or {})
        self.check_ai_options(name, settings)
        if self._result(native)[3]:
            raise IllegalMoveError("the game is over")
        self.warm_up()
        return self._ai_move(native, name, budget or Budget(), seed, settings)

    def check_ai_options(self, ai: str, options: Mapping[str, Any]) -> None:
        """Refuse (by name, ``options.<key>``) an AI setting this game does not know or a value out of its range, for
        AI ``ai`` (its settings; a setting ``ai`` does not use is allowed: self-play gives one set to every seat)."""
        for key in options:
            if key not in self.ai_options:
                raise KubasolveError(f"options.{key}: unknown {self.name} AI setting (known: {', '.join(self.ai_options) or 'none'})",
                                     key=f"options.{key}")
        self._check_ai_options(ai, options)

    def _check_ai_options(self, ai: str, options: Mapping[str, Any]) -> None:
        """The values of :meth:`check_ai_options` (a game with :attr:`ai_options` checks them here)."""
        return None  # (no settings to check here; a game with :attr:`ai_options` overrides it)

    def state_to_json(self, state: State) -> dict[str, Any]:
        """The state as JSON: ``format``, ``version``, ``game``, ``players``, ``rules``, ``lexicon`` and ``native``
        (the game's own state); :func:`state_from_json` reads it back."""
        native = self._own(state)
        return {"format": STATE_FORMAT, "version": STATE_VERSION, "game": self.name, "players": list(state.players),
                "rules": self.rules_to_dict(), "lexicon": self.lexicon_name, "native": self._to_json(native)}

    def state_from_json(self, data: Any) -> State:
        """A state of this game (its rules and lexicon) from :meth:`state_to_json` output, validated: a bad key is
        a :class:`~kubasolve.errors.StateError` whose ``key`` names it (``state.players``, ``state.native`` ...)."""
        check_state_envelope(data)
        if data["game"] != self.name:
            raise StateError(f"state.game: a {data['game']} state, not {self.name}", key="state.game")
        try:
            rules = self.parse_rules(data["rules"])
        except KubasolveError as exc:
            raise StateError(f"state.rules: {exc}", key="state.rules") from None
        if rules != self.rules:
            raise StateError("state.rules: the state was played under other rules than this game's", key="state.rules")
        if data["lexicon"] != self.lexicon_name:
            raise StateError(f"state.lexicon: the state was played with lexicon {data['lexicon']!r}, this game uses "
                             f"{self.lexicon_name!r}", key="state.lexicon")
        players = data["players"]
        try:
            names = self.seat_names(players if isinstance(players, list) else "bad")
        except KubasolveError as exc:
            raise StateError(f"state.players: {exc}", key="state.players") from None
        native = data["native"]
        if not isinstance(native, Mapping):
            raise StateError("state.native: the game's own state must be an object", key="state.native")
        try:
            loaded = self._from_json(dict(native), names)
        except KubasolveError as exc:
            key = exc.key if exc.key and exc.key.startswith("state.") else "state.native"
            message = str(exc) if str(exc).startswith(key) else f"{key}: {exc}"
            raise StateError(message, key=key) from None
        return State(self.name, names, loaded)

    # ---------------------------------------------------------------- terminal play and saved games
    def parse_command(self, state: State, text: str) -> dict[str, Any] | str | None:
        """A command typed in a terminal game (``kubasolve GAME play``): the action it stands for, a text to show for a
        command that is no action (e.g. the game so far in a notation), or None when it is none of the game's
        commands (:attr:`play_help` lists them). An action is checked by :meth:`apply`, not here."""
        return None

    def command_text(self, state: State, action: Mapping[str, Any]) -> str | None:
        """What to type in a terminal game for ``action`` (None: the game has no typed form for it); an action that is
        no JSON object, or whose fields have the wrong types (a list where a word goes, a missing word), is an
        :class:`~kubasolve.errors.IllegalMoveError` naming the field, as in :meth:`apply`."""
        self._own(state)
        _check_action(action)
        return self._command_text(state, dict(action))

    def _command_text(self, state: State, action: dict[str, Any]) -> str | None:
        """What to type for ``action`` (a JSON object whose ``type``, if any, is a text); :func:`action_field` reads a
        field of the right type or raises. Default: no typed form."""
        return None

    @staticmethod
    def pass_or_exchange(words: Sequence[str], exchanged: str) -> dict[str, Any] | None:
        """The terminal commands the tile and card games share: ``p`` (pass) and ``x LETTERS`` (an exchange, the
        letters under the key ``exchanged``); None for anything else."""
        cmd = words[0].lower() if words else ""
        if cmd == "p" and len(words) == 1:
            return {"type": "pass"}
        if cmd == "x":
            return {"type": "exchange", exchanged: "".join(words[1:])}
        return None

    def load_saved(self, text: str, notices: list[str] | None = None) -> tuple[Game, State]:
        """A saved game from the text of a file: a protocol state (:meth:`state_to_json`, any rules), or one of the
        game's own saved forms (its native state's JSON, a notation such as GCG). The game returned is bound to the
        rules the file holds and this game's lexicon (for a protocol state: the state's own lexicon, unless this game
        was given a lexicon object; for a game's own form: the lexicon the file names, unless this game was given
        one). A :class:`StateError` says why a text is none of them; what the caller should be told (e.g. a lexicon
        given that the file contradicts) is added to ``notices``."""
        try:
            data: Any = json.loads(text)
        except RecursionError:  # json decodes nested arrays and objects recursively
            raise StateError(f"not a saved {self.name} game: JSON nested too deeply") from None
        except ValueError as exc:
            found = self._saved_text(text)
            if found is None:
                raise StateError(f"not a saved {self.name} game: not valid JSON ({exc})") from None
        else:
            if isinstance(data, Mapping) and data.get("format") == STATE_FORMAT:
                if data.get("game") != self.name:
                    raise StateError(f"state.game: a {str(data.get('game'))[:40]} state, not {self.name}", key="state.game")
                return state_from_json(data, self._lexicon if self._lexicon is not None and
                                       getattr(self._lexicon, "name", None) == data.get("lexicon") else None)
            if not isinstance(data, Mapping):
                raise StateError(f"not a saved {self.name} game: a JSON object is expected")
            found = self._saved_native(dict(data))
            if found is None:
                raise StateError(f"not a saved {self.name} game (a state saved by state_to_json, 'play --save' or the engine)")
        saved = SavedGame(*found)
        if notices is not None:
            notices.extend(saved.notices)
        lexicon = saved.lexicon if saved.lexicon is not None else (self.lexicon if self.lexicons else None)
        game = type(self)(saved.rules, lexicon)
        game.lexicon_given = self.lexicon_given
        return game, game.state_of(saved.native, saved.names)

    def _saved_native(self, data: dict[str, Any]) -> SavedGame | tuple[Any, Any, Sequence[str] | None] | None:
        """Hook of :meth:`load_saved`: a :class:`SavedGame` (or (rules, native state, seat names or None)) of the game's
        own saved JSON, checked (a :class:`KubasolveError` when it is one but does not hold), or None when the game
        has no such form."""
        return None

    def _saved_text(self, text: str) -> SavedGame | tuple[Any, Any, Sequence[str] | None] | None:
        """Hook of :meth:`load_saved` for a saved form that is not JSON (e.g. a GCG file), or None."""
        return None

    def render_text(self, state: State) -> str:
        """The position as text (board, racks or hands, scores)."""
        return self._render_text(self._own(state), state.players)

    def render_svg(self, state: State) -> str:
        """The position as an SVG document."""
        return self._render_svg(self._own(state), state.players)

    # ---------------------------------------------------------------- game hooks
    def _own(self, state: State) -> Any:
        if not isinstance(state, State) or state.game != self.name:
            raise StateError(f"not a {self.name} state: {type(state).__name__}", key="state")
        return state.native

    @abstractmethod
    def _new(self, seed: int, players: tuple[str, ...]) -> Any:
        """The native first state of a game dealt from ``seed``."""

    def _new_with(self, seed: int, players: tuple[str, ...], options: dict[str, Any]) -> Any:
        """The native first state of a deal with ``options`` (only :attr:`deal_options` names; default: none taken)."""
        raise KubasolveError(f"{self.name} takes no deal settings", key="options")

    @abstractmethod
    def _result(self, native: Any) -> tuple[int | None, int, Sequence[int], bool, Sequence[int]]:
        """(current, turn, scores, over, winners) of a native state."""

    @abstractmethod
    def _legal_moves(self, native: Any, top: int, budget: Budget) -> LegalMoves:
        """Legal actions of a native state that is not over (the game is warm)."""

    @abstractmethod
    def _apply(self, native: Any, action: dict[str, Any]) -> Any:
        """The native state after ``action`` (a new object; ``native`` unchanged, also on error)."""

    @abstractmethod
    def _ai_move(self, native: Any, ai: str, budget: Budget, seed: int, options: dict[str, Any]) -> AiMove:
        """AI ``ai``'s action (the game is warm and not over; ``options`` holds only :attr:`ai_options` names)."""

    def _to_json(self, native: Any) -> dict[str, Any]:
        """The native state as JSON (default: its ``to_dict()``)."""
        data: dict[str, Any] = native.to_dict()
        return data

    def _loaded(self, native: Any, rules: Any, players: tuple[str, ...]) -> Any:
        """A native state read from JSON (``rules``: the rules it holds), checked against this game's rules and the
        seat count of the envelope."""
        if rules != self.rules:
            raise StateError("state.native.rules: other rules than the state's", key="state.native.rules")
        n = len(self._result(native)[2])
        if n != len(players):
            raise StateError(f"state.players: {len(players)} names for a game of {n}", key="state.players")
        return native

    @abstractmethod
    def _from_json(self, data: dict[str, Any], players: tuple[str, ...]) -> Any:
        """A native state from :meth:`_to_json` output, validated (a :class:`KubasolveError` otherwise)."""

    def _render_text(self, native: Any, players: Sequence[str]) -> str:
        if self.render_module:
            return str(importlib.import_module(self.render_module).render_text(native, players))
        return json.dumps(self._to_json(native), ensure_ascii=False, indent=1)

    def _render_svg(self, native: Any, players: Sequence[str]) -> str:
        if self.render_module:
            return str(importlib.import_module(self.render_module).render_svg(native, players))
        return text_svg(self._render_text(native, players))


def text_svg(text: str, title: str = "") -> str:
    """A plain SVG document showing ``text`` in a monospaced font, line by line (a fallback rendering)."""
    lines = text.splitlines() or [""]
    width = 10 + 8 * max(len(line) for line in lines)
    height = 10 + 16 * len(lines)
    rows = "".join(f'<text x="5" y="{18 + 16 * i}" xml:space="preserve">{escape(line)}</text>' for i, line in enumerate(lines))
    label = f"<title>{escape(title)}</title>" if title else ""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="monospace" '
            f'font-size="13">{label}<rect width="100%" height="100%" fill="white"/>{rows}</svg>')


def seat_labels(players: Sequence[str]) -> list[str]:
    """Unique seat names for a list of AI names (``greedy``, ``greedy#2`` ... when a name repeats): how simulate and
    terminal games name their seats."""
    out: list[str] = []
    for p in players:
        label, k = p, 2
        while label in out:
            label, k = f"{p}#{k}", k + 1
        out.append(label)
    return out


def exchange_count(letters: str, most: int) -> int:
    """Distinct exchanges of the tiles or cards ``letters``: sub-multisets of 1 to ``most`` of them."""
    ways = [1] + [0] * max(0, most)  # ways[k]: sub-multisets of k letters
    for c in Counter(letters).values():
        ways = [sum(ways[k - j] for j in range(min(c, k) + 1)) for k in range(len(ways))]
    return sum(ways[1:])


def check_state_envelope(data: Any) -> None:
    """Refuse what is not a protocol state (a :class:`StateError` naming the key)."""
    if not isinstance(data, Mapping):
        raise StateError("a state must be a JSON object (the output of state_to_json / the engine's state)", key="state")
    unknown = [str(k)[:40] for k in data if k not in STATE_KEYS]
    if unknown:
        raise StateError(f"state.{unknown[0]}: unknown key (a state holds {', '.join(STATE_KEYS)})", key=f"state.{unknown[0]}")
    for key in STATE_KEYS:
        if key not in data:
            raise StateError(f"state.{key}: required key missing", key=f"state.{key}")
    if data["format"] != STATE_FORMAT:
        raise StateError(f"state.format: must be {STATE_FORMAT!r}", key="state.format")
    if data["version"] != STATE_VERSION or isinstance(data["version"], bool):
        raise StateError(f"state.version: this kubasolve reads version {STATE_VERSION}", key="state.version")
    if not isinstance(data["game"], str) or data["game"] not in game_names():
        raise StateError(f"state.game: unknown game {str(data['game'])[:40]!r}; known: {', '.join(game_names())}", key="state.game")
    if data["lexicon"] is not None and not isinstance(data["lexicon"], str):
        raise StateError("state.lexicon: a lexicon name or null", key="state.lexicon")


# -------------------------------------------------------------------- registry
_REGISTERED: dict[str, type[Game]] = {}
_GAMES_PACKAGE = Path(__file__).resolve().parent


def register_game(cls: type[R]) -> type[R]:
    """Class decorator: make a :class:`Game` subclass known by its ``name`` (the built-in games are found
    without it; a package outside ``kubasolve.games`` registers its games when imported)."""
    if not (isinstance(cls, type) and issubclass(cls, Game)):
        raise TypeError("register_game takes a Game subclass")
    name = cls.name
    known = _REGISTERED.get(name)
    if known is not None and known is not cls:
        raise KubasolveError(f"a game named {name!r} is already registered")
    if known is None and name in _builtin_names():
        module = f"kubasolve.games.{name}.protocol"
        if cls.__module__ != module:
            raise KubasolveError(f"{name!r} is a built-in game")
    _REGISTERED[name] = cls
    return cls


def import_game_modules(modules: Sequence[str]) -> list[str]:
    """Import modules that register games (:func:`register_game`): dotted module names, or paths of ``.py`` files;
    returns the game names known afterwards. A module that cannot be imported is a :class:`KubasolveError` naming
    it (``kubasolve engine --game-module``, or the ``KUBASOLVE_GAME_MODULES`` variable, comma-separated)."""
    import importlib.util
    import sys

    for module in modules:
        try:
            if module.endswith(".py") or "/" in module:
                path = Path(module).resolve()
                name = f"kubasolve_game_module_{path.stem}"
                if getattr(sys.modules.get(name), "__file__", None) == str(path):
                    continue  # imported already
                spec = importlib.util.spec_from_file_location(name, path)
                if spec is None or spec.loader is None or not path.is_file():
                    raise FileNotFoundError(f"no such file: {module}")
                loaded = importlib.util.module_from_spec(spec)
                sys.modules[name] = loaded
                spec.loader.exec_module(loaded)
            else:
                importlib.import_module(module)
        except KubasolveError:
            raise
        except Exception as exc:  # noqa: BLE001 - any failure of a user's module is reported as such
            raise KubasolveError(f"game module {module!r} cannot be imported: {type(exc).__name__}: {exc}", key="game_module") from None
    return game_names()


def _builtin_names() -> list[str]:
    """Packages of ``kubasolve.games`` that hold a ``protocol.py`` (not imported)."""
    return sorted(p.parent.name for p in _GAMES_PACKAGE.glob("*/protocol.py"))


def game_names() -> list[str]:
    """Every game kind: the built-in ones and those registered, sorted."""
    return sorted(set(_builtin_names()) | set(_REGISTERED))


def game_class(name: str) -> type[Game]:
    """The :class:`Game` subclass of game kind ``name`` (importing its module on first use)."""
    cls = _REGISTERED.get(name)
    if cls is None and isinstance(name, str) and name in _builtin_names():
        importlib.import_module(f"kubasolve.games.{name}.protocol")
        cls = _REGISTERED.get(name)
    if cls is None:
        raise KubasolveError(f"unknown game {str(name)[:40]!r}; known: {', '.join(game_names())}", key="game")
    return cls


def load_game(name: str, rules: Any = None, lexicon: Any = None) -> Game:
    """The game ``name`` under ``rules`` (a mapping of settings, TOML text or path, the rules object, or None for
    the defaults) with ``lexicon`` (a bundled name, a :class:`~kubasolve.lexicon.Lexicon`, or None for the
    game's default)."""
    return game_class(name)(rules, lexicon)


def state_from_json(data: Any, lexicon: Any = None) -> tuple[Game, State]:
    """The game (rules and lexicon from the data; ``lexicon`` may give the lexicon object for its name) and the
    state saved by :meth:`Game.state_to_json`, validated (:class:`StateError` naming the key)."""
    check_state_envelope(data)
    cls = game_class(data["game"])
    try:
        rules = cls.parse_rules(data["rules"])
    except KubasolveError as exc:
        raise StateError(f"state.rules: {exc}", key="state.rules") from None
    if lexicon is not None and getattr(lexicon, "name", None) != data["lexicon"]:
        raise StateError(f"state.lexicon: the state was played with lexicon {data['lexicon']!r}", key="state.lexicon")
    try:
        game = cls(rules, lexicon if lexicon is not None else data["lexicon"])
    except KubasolveError as exc:
        raise StateError(f"state.lexicon: {exc}", key="state.lexicon") from None
    return game, game.state_from_json(data)

