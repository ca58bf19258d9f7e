"""The state of a Kubagram game: an immutable snapshot, serialisable to JSON.

The board (cubes not yet taken, in draw order) comes from the :class:`~kubasolve.games.kubagram.setup.Setup`;
the central field holds the placed cubes (each with its fixed letter); table words carry their owner, jokers and
compound level; held jokers are set aside by a player. :mod:`kubasolve.games.kubagram.referee` moves from one state
to the next.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from dataclasses import field as dc_field
from typing import Any

from kubasolve.errors import PositionError
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
    def from_dict(cls, data: Mapping[str, Any]) -> GameState:
        """Rebuild a state from :meth:`to_dict` output (with history)."""
        if not isinstance(data, Mapping) or data.get("format") != STATE_FORMAT:
            raise PositionError(f"not a kubagram game state (format must be {STATE_FORMAT!r})")
        try:
            setup = Setup.from_dict(data["setup"])
            rules = KubagramRules.from_dict(data["rules"])
            game_rules = KubagramGameRules.from_dict(data["game_rules"])
            if data.get("history") is None:
                raise PositionError("the state has no history; save it with history")
            phase = data["phase"]
            if phase not in PHASES:
                raise PositionError(f"unknown phase {phase!r}")
            return cls(
                setup=setup, rules=rules, game_rules=game_rules, taken=int(data["taken"]), current=int(data["current"]),
                phase=phase,
                field=tuple(FieldTile(t["letter"], int(t["cube"]), bool(t["joker"])) for t in data["field"]),
                held=tuple(tuple(HeldJoker(int(j["cube"]), j["letters"]) for j in h) for h in data["held"]),
                table=tuple(TableWord(w["word"], int(w["owner"]), int(w["jokers"]), int(w["level"])) for w in data["table"]),
                scores=tuple(int(s) for s in data["scores"]), skips=tuple(int(s) for s in data["skips"]),
                turn=int(data["turn"]),
                history=tuple((int(p), action_from_dict(a)) for p, a in data["history"]),
                adjustments=tuple((int(p), int(v), str(r)) for p, v, r in data["adjustments"]),
                last_player=data["last_player"],
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise PositionError(f"malformed kubagram game state: {type(exc).__name__}: {exc}") from None


KubagramGameState = GameState
"""Alias exported from :mod:`kubasolve`."""
