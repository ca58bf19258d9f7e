"""The state of a Kubagram game: an immutable snapshot, serialisable to JSON.

The board (cubes not yet taken, in draw order) comes from the :class:`~kubasolve.games.kubagram.setup.Setup`;
the central field holds the placed cubes (each with its fixed letter); table words carry their owner, jokers and
compound level; held jokers are set aside by a player. :mod:`kubasolve.games.kubagram.referee` moves from one state
to the next.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any

from kubasolve.errors import KubasolveError, StateError
from kubasolve.games.kubagram.actions import Action, action_from_dict
from kubasolve.games.kubagram.game_rules import KubagramGameRules
from kubasolve.games.kubagram.position import KubagramPosition, TableWord, Tile
from kubasolve.games.kubagram.rules import KubagramRules
from kubasolve.games.kubagram.setup import PlacedCube, Setup

__all__ = ["STATE_FORMAT", "FieldTile", "GameState", "HeldJoker", "KubagramGameState", "Phase"]

STATE_FORMAT = "kubasolve.kubagram.state/1"

Phase = str
"""``start`` (claim missed words, then take or skip), ``zero`` (place the cube passed on from a 0 square),
``after`` (claims after taking, then end the turn), ``over``."""
PHASES = ("start", "zero", "after", "over")


@dataclass(frozen=True, slots=True)
class FieldTile:
    """A cube lying in the central field: its fixed letter, the cube's index in the set, whether it is a joker."""

    letter: str
    cube: int
    joker: bool = False

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"letter": self.letter, "cube": self.cube, "joker": self.joker}


@dataclass(frozen=True, slots=True)
class HeldJoker:
    """A joker set aside by a player: the cube's index in the set and its faces."""

    cube: int
    letters: str

    def to_dict(self) -> dict[str, Any]:
        """JSON form."""
        return {"cube": self.cube, "letters": self.letters}


@dataclass(frozen=True)
class GameState:
    """Everything about a game in progress; built by :func:`~kubasolve.games.kubagram.referee.new_game`."""

    setup: Setup
    rules: KubagramRules
    game_rules: KubagramGameRules
    taken: int = 0
    """Cubes taken from the board so far (the next cube is ``order[taken]``)."""
    current: int = 0
    phase: Phase = "start"
    field: tuple[FieldTile, ...] = ()
    held: tuple[tuple[HeldJoker, ...], ...] = ()
    table: tuple[TableWord, ...] = ()
    scores: tuple[int, ...] = ()
    skips: tuple[int, ...] = ()
    turn: int = 1
    """The turn being played (1 first); once the game is over, the turns played + 1, as in every game."""
    history: tuple[tuple[int, Action], ...] = ()
    adjustments: tuple[tuple[int, int, str], ...] = ()
    """(player, points, reason) for every score change that is not a word: penalties and end of game."""
    last_player: int | None = None
    order: tuple[PlacedCube, ...] = dc_field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        if not self.order:
            object.__setattr__(self, "order", self.setup.in_draw_order())

    # ------------------------------------------------------------------ views
    @property
    def n_players(self) -> int:
        """Number of players."""
        return self.setup.n_players

    @property
    def n_cubes(self) -> int:
        """Number of cubes in the game."""
        return len(self.order)

    @property
    def cubes_left(self) -> int:
        """Cubes still on the board."""
        return len(self.order) - self.taken

    @property
    def next_cube(self) -> PlacedCube | None:
        """The next cube in draw order (None when the board is empty)."""
        return self.order[self.taken] if self.taken < len(self.order) else None

    @property
    def passed_cube(self) -> PlacedCube | None:
        """The cube passed on from a 0 square, waiting to be placed (phase ``zero``)."""
        return self.order[self.taken - 1] if self.phase == "zero" else None

    @property
    def over(self) -> bool:
        """True when the game has ended."""
        return self.phase == "over"

    @property
    def last_cube_turn(self) -> bool:
        """True in the turn of the player who placed the last cube (2-letter words, held jokers free)."""
        return self.phase == "after" and self.taken == len(self.order)

    def skips_left(self, player: int) -> int:
        """How many skips ``player`` still has."""
        return self.game_rules.skips_per_game - self.skips[player]

    def vowel_rule_active(self) -> bool:
        """"Only consonants lie on the table": the field holds no vowel and at least the threshold of consonants."""
        vowels = self.game_rules.vowels
        if any(t.letter in vowels for t in self.field):
            return False
        return len(self.field) >= self.game_rules.vowel_rule_consonants

    def tile_sources(self, player: int | None = None, include_held: bool = True) -> list[tuple[str, int, int]]:
        """Where each tile of :meth:`position` comes from: ``("field", i, -1)`` or ``("held", holder, k)``.

        Field tiles come first, then ``player``'s held jokers; in the last-cube turn every held joker is
        available to the last player ("the last player may take and use it")."""
        player = self.current if player is None else player
        out: list[tuple[str, int, int]] = [("field", i, -1) for i in range(len(self.field))]
        if include_held:
            holders = range(self.n_players) if self.last_cube_turn and player == self.current else (player,)
            for h in holders:
                out += [("held", h, k) for k in range(len(self.held[h]))]
        return out

    def position(self, player: int | None = None, include_held: bool = True) -> KubagramPosition:
        """The solver's view for ``player`` (default: the player to move); tile order as in :meth:`tile_sources`."""
        player = self.current if player is None else player
        tiles: list[Tile] = []
        for kind, a, b in self.tile_sources(player, include_held):
            if kind == "field":
                t = self.field[a]
                tiles.append(Tile(t.letter, joker=t.joker))
            else:
                tiles.append(Tile(self.held[a][b].letters, joker=True))
        last = self.last_cube_turn and player == self.current
        return KubagramPosition(tuple(tiles), self.table, last, player)

    def winners(self) -> list[int]:
        """Players with the highest score (more than one on a tie)."""
        best = max(self.scores)
        return [p for p, s in enumerate(self.scores) if s == best]

    def actions(self) -> list[Action]:
        """The actions played so far, in order."""
        return [a for _, a in self.history]

    # ------------------------------------------------------------------ JSON
    def to_dict(self, history: bool = True) -> dict[str, Any]:
        """A JSON-able snapshot; :meth:`from_dict` turns it back into an equal state."""
        nxt = self.next_cube
        return {
            "format": STATE_FORMAT,
            "setup": self.setup.to_dict(),
            "rules": self.rules.to_dict(),
            "game_rules": self.game_rules.to_dict(),
            "taken": self.taken,
            "cubes_left": self.cubes_left,
            "next_cube": None if nxt is None else nxt.to_dict(),
            "current": self.current,
            "phase": self.phase,
            "turn": self.turn,
            "field": [t.to_dict() for t in self.field],
            "held": [[j.to_dict() for j in h] for h in self.held],
            "table": [w.to_dict() for w in self.table],
            "scores": list(self.scores),
            "skips": list(self.skips),
            "adjustments": [[p, v, r] for p, v, r in self.adjustments],
            "last_player": self.last_player,
            "vowel_rule": self.vowel_rule_active(),
            "history": [[p, a.to_dict()] for p, a in self.history] if history else None,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, lexicon: Any = None, cube_set: Any = None,
                  layout: Any = None) -> GameState:
        """Rebuild a state from :meth:`to_dict` output (with history), verified before it is accepted.

        The setup must be the deal of its own seed (default cube set and board unless ``cube_set``/``layout``
        are given); the history is replayed from it by the referee (over ``lexicon``, default the bundled
        Dutch one), every action checked and played by the player who had the move; every other key of the
        snapshot (field, jokers, cubes taken, player to move, phase, table, scores, ...) must equal the
        replay. Anything else raises :class:`StateError` naming the first disagreement. The result is the
        replayed state, so nothing forged can reach a later move.
        """
        if not isinstance(data, Mapping) or data.get("format") != STATE_FORMAT:
            raise StateError(f"not a kubagram game state (format must be {STATE_FORMAT!r})")
        unknown = sorted(str(k)[:40] for k in data if k not in STATE_KEYS)
        if unknown:
            raise StateError(f"state has unknown key(s) {', '.join(unknown)}")
        missing = [k for k in ("setup", "rules", "game_rules", "history") if data.get(k) is None]
        if missing:
            raise StateError(f"state lacks {', '.join(missing)}" + (" (save it with history)" if "history" in missing else ""))
        parts: dict[str, Any] = {}
        for key, load in (("setup", Setup.from_dict), ("rules", KubagramRules.from_dict),
                          ("game_rules", KubagramGameRules.from_dict)):
            try:
                parts[key] = load(data[key])
            except _UNTRUSTED_ERRORS as exc:
                raise StateError(f"state.{key}: {exc}") from None
        setup: Setup = parts["setup"]
        if setup.n_players != parts["game_rules"].n_players:
            raise StateError(f"state.setup deals for {setup.n_players} players, state.game_rules says {parts['game_rules'].n_players}")
        from kubasolve.games.kubagram.game import default_referee

        referee = default_referee(parts["rules"], parts["game_rules"], lexicon)
        state = referee.new_game(setup.seed, setup.n_players, cube_set, layout, rotation=setup.rotation)
        if state.setup != setup:
            raise StateError("state.setup is not the deal of its seed (board, cubes, draw order or start player differ)")
        history = data["history"]
        if not isinstance(history, list) or len(history) > MAX_HISTORY:
            raise StateError(f"state.history must be a list of at most {MAX_HISTORY} [player, action] pairs")
        for i, entry in enumerate(history):
            if not (isinstance(entry, (list, tuple)) and len(entry) == 2 and type(entry[0]) is int):
                raise StateError(f"state.history[{i}] must be a [player, action] pair")
            player, raw_action = entry
            if player != state.current:
                raise StateError(f"state.history[{i}]: player {player} plays, but player {state.current} has the move")
            try:
                action = action_from_dict(raw_action)
            except _UNTRUSTED_ERRORS as exc:
                raise StateError(f"state.history[{i}]: bad action: {exc}") from None
            try:
                state = referee.apply(state, action)
            except KubasolveError as exc:
                raise StateError(f"state.history[{i}] does not replay: {exc}") from None
        replayed = state.to_dict()
        if state.over and data.get("turn") == state.turn - 1 and type(data.get("turn")) is int:
            # saved before the turn of a finished game counted on past the last one (as in every game)
            replayed["turn"] = data["turn"]
        saved_table = data.get("table")
        if isinstance(saved_table, list) and len(saved_table) == len(replayed["table"]) and not any(
                isinstance(w, Mapping) and "fresh" in w for w in saved_table):
            # saved before words claimed in the turn being played carried "fresh" (the replay knows which they are)
            replayed["table"] = [{k: v for k, v in w.items() if k != "fresh"} if isinstance(w, Mapping) else w
                                 for w in replayed["table"]]
        for key, value in data.items():
            if key != "history" and not _same(value, replayed[key]):
                raise StateError(f"state.{key}{_first_difference(value, replayed[key])} disagrees with the replay of its history")
        return state


STATE_KEYS = frozenset(("format", "setup", "rules", "game_rules", "taken", "cubes_left", "next_cube", "current", "phase",
                        "turn", "field", "held", "table", "scores", "skips", "adjustments", "last_player", "vowel_rule",
                        "history"))
"""Keys of a saved state (:meth:`GameState.to_dict`)."""
MAX_HISTORY = 5000
"""Longest history a saved state may hold (a game has a few hundred actions)."""
_UNTRUSTED_ERRORS = (KubasolveError, TypeError, ValueError, KeyError, IndexError, AttributeError)
"""What a loader may raise on malformed JSON it was not written to expect: all mean "bad state"."""


def _same(a: Any, b: Any) -> bool:
    """JSON equality with types (``true`` is not ``1``, ``1.0`` is not ``1``)."""
    if type(a) is not type(b) and not (isinstance(a, (list, tuple)) and isinstance(b, (list, tuple))):
        return False
    if isinstance(a, Mapping):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return bool(a == b)


def _first_difference(a: Any, b: Any, path: str = "") -> str:
    """Where ``a`` (the snapshot) first differs from ``b`` (the replay), e.g. ``field[3].joker (true, replay false)``."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        for k in list(b) + [k for k in a if k not in b]:
            if k not in a or k not in b or not _same(a[k], b[k]):
                return _first_difference(a.get(k), b.get(k), f"{path}.{str(k)[:40]}")
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        if len(a) != len(b):
            return f"{path} (length {len(a)}, replay {len(b)})"
        for i, (x, y) in enumerate(zip(a, b)):
            if not _same(x, y):
                return _first_difference(x, y, f"{path}[{i}]")
    return f"{path} ({_shown(a)}, replay {_shown(b)})"


def _shown(value: Any) -> str:
    """A short JSON rendering of a value for an error message."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):  # an integer too long to print, a non-JSON value
        text = "a huge number" if isinstance(value, int) else type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


KubagramGameState = GameState
"""Alias exported from :mod:`kubasolve`."""
