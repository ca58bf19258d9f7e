"""A whole Rummikub game: deal from a seed, validate and apply moves, JSON state and replay, scores.

A move is a dict: ``{"type": "play", "table": [["r1", "r2", "r3"], ...]}`` (the full new table),
``{"type": "draw"}`` (no play: draw one tile), or ``{"type": "timeout"}`` (timer variant: the turn failed,
the table stays as it was and the player draws ``rules.timeout_draw`` tiles). Illegal moves raise
:class:`~kubasolve.errors.IllegalMoveError` with the reasons and leave the game unchanged.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kubasolve.errors import IllegalMoveError, PositionError, StateError
from kubasolve.games.limits import check_seed
from kubasolve.games.rummikub.rules import RummikubRules
from kubasolve.games.rummikub.sets import canonical_set, describe_set, set_value
from kubasolve.games.rummikub.solver import Objective, Solution, check_play, solve
from kubasolve.games.rummikub.tiles import (
    Tile,
    TileSet,
    format_tiles,
    full_box,
    parse_table,
    tile_name,
    tile_value,
)


@dataclass
class RummikubGame:
    """State of one game. Create with :meth:`new`; change only through :meth:`apply`."""

    rules: RummikubRules
    seed: int
    players: list[str]
    pool: list[Tile]
    racks: list[list[Tile]]
    table: list[TileSet] = field(default_factory=list)
    melded: list[bool] = field(default_factory=list)
    turn: int = 0
    """Index of the player to move."""
    moves: list[dict[str, Any]] = field(default_factory=list)
    """Every applied move, as given (replayable from the seed)."""
    passes: int = 0
    """Consecutive turns without a play while the pool is empty."""
    end_reason: str | None = None
    """Why the game ended: ``"out"`` (a rack emptied), ``"no-legal-move"`` or ``"round-of-passes"``."""
    over: bool = False
    winner: int | None = None
    scores: list[int] | None = None

    @classmethod
    def new(
        cls, n_players: int = 2, seed: int = 0, rules: RummikubRules | None = None, players: Sequence[str] | None = None
    ) -> RummikubGame:
        """Shuffle the box with ``random.Random(seed)`` and deal ``rules.tiles_dealt`` tiles to each player."""
        rules = rules or RummikubRules()
        check_seed(seed, "seed", PositionError)  # a whole number 0..2**63-1, as load_game(...).new_game
        if players is None:
            if type(n_players) is not int or not 2 <= n_players <= MAX_PLAYERS:
                raise PositionError(f"a game needs 2 to {MAX_PLAYERS} players, got {_short(n_players, 40)}")
            names = [f"player{i + 1}" for i in range(n_players)]
        else:
            if isinstance(players, str) or not 2 <= len(players) <= MAX_PLAYERS:
                raise PositionError(f"a game needs a list of 2 to {MAX_PLAYERS} player names, got {_short(players, 80)}")
            names = list(players)
            if not all(isinstance(n, str) and 0 < len(n) <= 64 for n in names):
                raise PositionError("player names must be non-empty strings of at most 64 characters")
        if len(names) * rules.tiles_dealt > rules.total_tiles:
            raise PositionError(
                f"{len(names)} players x {rules.tiles_dealt} tiles is more than the {rules.total_tiles} tiles in the box"
            )
        box = full_box(rules)
        random.Random(seed).shuffle(box)
        racks = [sorted(box[i * rules.tiles_dealt : (i + 1) * rules.tiles_dealt]) for i in range(len(names))]
        pool = box[len(names) * rules.tiles_dealt :]
        return cls(rules=rules, seed=seed, players=names, pool=pool, racks=racks, melded=[False] * len(names))

    # --- queries ---------------------------------------------------------------------------------
    @property
    def rack(self) -> list[Tile]:
        """Rack of the player to move."""
        return self.racks[self.turn]

    def best_move(self, objective: Objective | str = Objective.TILE_COUNT) -> Solution:
        """Exact best play for the player to move (first-meld rules until they have melded)."""
        return solve(self.table, self.rack, self.rules, objective, first_meld=not self.melded[self.turn])

    def rack_value(self, player: int) -> int:
        """Minus points the player's rack is worth (jokers count ``rules.joker_penalty``)."""
        return sum(tile_value(t, self.rules) for t in self.racks[player])

    # --- moves -----------------------------------------------------------------------------------
    def check_move(self, move: dict[str, Any]) -> list[TileSet] | None:
        """Validate ``move`` for the player to move; returns the parsed new table for a play.
        Raises IllegalMoveError (with every reason found) or PositionError (unreadable move)."""
        if self.over:
            raise IllegalMoveError("the game is over")
        if not isinstance(move, dict) or move.get("type") not in ("play", "draw", "timeout"):
            raise PositionError(
                'a move is {"type": "play", "table": [[...], ...]}, {"type": "draw"} or {"type": "timeout"}',
                key="action.type" if isinstance(move, dict) else "action",
            )
        unknown = sorted(str(k) for k in set(move) - ({"type", "table"} if move["type"] == "play" else {"type"}))
        if unknown:
            raise PositionError(f"unknown key(s) in a {move['type']} move: {', '.join(unknown)}", key=f"action.{unknown[0]}")
        if move["type"] == "draw" and self.must_play_if_able() and self.has_legal_play(self.turn):
            # "Should the pool run out of tiles, every player in turn 'plays the table' by placing at least one tile
            # from their racks onto the table until someone finishes" (Goliath): no passing while a play exists
            raise IllegalMoveError("the pool is empty: you must play at least one tile while you can (no drawing, no"
                                   " passing)")
        if move["type"] != "play":
            return None
        raw = move.get("table")
        if not isinstance(raw, (list, str)):
            raise PositionError(
                'a play needs "table": the whole new table, a list of sets of tiles like ["r1", "r2", "r3"]'
            )
        new_table = parse_table(raw, self.rules)
        rules = self.rules
        problems = check_play(self.table, self.rack, new_table, rules)
        added = Counter(t for s in new_table for t in s) - Counter(t for s in self.table for t in s)
        if not added:
            problems.append("a play must move at least one tile from the rack to the table")
        if not self.melded[self.turn] and not problems:
            before = Counter(canonical_set(s) for s in self.table)
            after = Counter(canonical_set(s) for s in new_table)
            if before - after:
                problems.append("before the first meld the table sets may not be changed (first meld: own tiles only)")
            else:
                new_sets = after - before
                points = sum(set_value(s, rules) * n for s, n in new_sets.items())
                if points < rules.min_first_meld:
                    problems.append(
                        f"the first meld is worth {points} points; it must reach {rules.min_first_meld} with your own tiles"
                    )
        if problems:
            raise IllegalMoveError("illegal move: " + "; ".join(problems))
        return new_table

    def apply(self, move: dict[str, Any]) -> None:
        """Apply a legal move for the player to move (see the module doc); the game is unchanged on error."""
        new_table = self.check_move(move)
        player = self.turn
        if move["type"] == "play":
            assert new_table is not None
            added = Counter(t for s in new_table for t in s) - Counter(t for s in self.table for t in s)
            rack = Counter(self.racks[player]) - added
            self.racks[player] = sorted(rack.elements())
            self.table = [tuple(s) for s in new_table]
            self.melded[player] = True
            self.passes = 0
        else:
            n = 1 if move["type"] == "draw" else self.rules.timeout_draw
            drawn = self.pool[:n]
            del self.pool[:n]
            self.racks[player] = sorted(self.racks[player] + drawn)
            self.passes = self.passes + 1 if not drawn else 0
        self.moves.append(_plain_move(move, self.rules))
        if not self.racks[player]:
            self._finish(player, "out")
        elif self.passes and self._blocked(stuck=player if move["type"] == "draw" else None):
            # the pool is empty and play cannot go on: the lowest rack wins
            self._finish(min(range(len(self.players)), key=lambda p: (self.rack_value(p), p)), self.rules.empty_pool_end)
        else:
            self.turn = (self.turn + 1) % len(self.players)

    def must_play_if_able(self) -> bool:
        """True when a draw is only a pass for a player who cannot play: the pool is empty under the rulebook's ending
        (``empty_pool_end = "no-legal-move"``: "every player in turn 'plays the table'"); under ``round-of-passes``
        passing stays free."""
        return not self.pool and self.rules.empty_pool_end == "no-legal-move"

    def _blocked(self, stuck: int | None = None) -> bool:
        """After a pass with an empty pool: does the game end (``rules.empty_pool_end``)? ``stuck``: a player already
        known to have no play (a draw from the empty pool: ``check_move`` refuses it to a player who has one)."""
        if self.rules.empty_pool_end == "round-of-passes":
            return self.passes >= len(self.players)
        return not any(self.has_legal_play(p) for p in range(len(self.players)) if p != stuck)

    def has_legal_play(self, player: int) -> bool:
        """True if ``player`` could play at least one tile now (first-meld rules until they have melded).

        Before the first meld this is: can the rack alone lay sets worth ``min_first_meld``? The most points the
        rack can lay with jokers counting 0 (a search without the meld's points in its state, far cheaper: 4.3 s
        down to milliseconds on a 55-tile rack against a 100-point meld) settles it when it reaches the minimum, or
        when even every joker at the highest number could not lift it there; only otherwise the exact first-meld
        search runs."""
        rack = self.racks[player]
        if not self.melded[player] and self.rules.min_first_meld > 0:
            points = solve([], rack, self.rules, Objective.TOTAL_VALUE).value
            if points >= self.rules.min_first_meld:
                return True
            if points + rack.count(self.rules.joker) * self.rules.numbers < self.rules.min_first_meld:
                return False
        return solve(self.table, rack, self.rules, Objective.TILE_COUNT, first_meld=not self.melded[player]).found

    def _finish(self, winner: int, reason: str) -> None:
        """Score the end. Out: each loser scores minus their rack, the winner the sum of the losers' racks. A blocked
        game (the pool ran out, no one went out; the winner holds the lowest rack) counts from the winner's rack, as
        the rulebook says: "Each loser adds up his/her total tile value and subtracts from it the winner's total.
        This result is scored as a minus amount. This total is scored to the winner as a plus amount." (Goliath)."""
        self.over = True
        self.end_reason = reason
        self.winner = winner
        values = [self.rack_value(p) for p in range(len(self.players))]
        base = 0 if reason == "out" else values[winner]
        self.scores = [base - v for v in values]
        self.scores[winner] = sum(v - base for p, v in enumerate(values) if p != winner)

    # --- JSON ------------------------------------------------------------------------------------
    def to_dict(self, hide_racks: bool = False) -> dict[str, Any]:
        """JSON-friendly state; the seed plus the move list replays the game exactly."""
        name = lambda t: tile_name(t, self.rules)  # noqa: E731
        return {
            "rules": self.rules.to_dict(),
            "seed": self.seed,
            "players": self.players,
            "turn": self.turn,
            "table": [[name(t) for t in s] for s in self.table],
            "racks": None if hide_racks else [[name(t) for t in r] for r in self.racks],
            "rack_sizes": [len(r) for r in self.racks],
            "pool_size": len(self.pool),
            "melded": self.melded,
            "over": self.over,
            "winner": self.winner,
            "scores": self.scores,
            "moves": self.moves,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RummikubGame:
        """Rebuild a game from :meth:`to_dict` output by replaying its moves from the seed (each move checked).

        Strict: ``seed`` must be an integer, ``players`` a list of 2-8 names, ``moves`` a list of at most
        ``MAX_MOVES`` moves (sizes are checked before anything is built); unknown keys are refused; every other
        key given (``turn``, ``table``, ``racks`` (``null``: hidden), ``rack_sizes``, ``pool_size``, ``melded``,
        ``over``, ``winner``, ``scores``) must equal the replay's, same JSON types included, or a
        :class:`~kubasolve.errors.StateError` names the key and what differs. A move that does not
        replay is an :class:`~kubasolve.errors.IllegalMoveError` naming its number."""
        if not isinstance(data, dict):
            raise PositionError("a Rummikub game state must be an object (the output of to_dict / rummikub.state)")
        unknown = sorted(set(data) - _STATE_KEYS, key=str)
        if unknown:
            raise PositionError(
                f"unknown key(s) in the Rummikub game state: {', '.join(map(str, unknown))};"
                f" known: {', '.join(sorted(_STATE_KEYS))}"
            )
        for key in ("seed", "players"):
            if key not in data:
                raise PositionError(f"the Rummikub game state needs {key!r}")
        seed = data["seed"]
        if type(seed) is not int or not -(2**63) <= seed < 2**63:
            raise PositionError(f"seed must be an integer (below 2**63 in size), got {_short(seed, 40)}")
        players = data["players"]
        if not isinstance(players, list) or not 2 <= len(players) <= MAX_PLAYERS:
            raise PositionError(f"players must be a list of 2 to {MAX_PLAYERS} names, got {_short(players, 80)}")
        moves = data.get("moves", [])
        if not isinstance(moves, list) or len(moves) > MAX_MOVES:
            raise PositionError(f"moves must be a list of at most {MAX_MOVES} moves")
        rules = RummikubRules.from_dict(data.get("rules", {}))
        game = cls.new(len(players), seed, rules, players).replay(moves)
        mismatch = game.disagreement(data)
        if mismatch:
            raise StateError(mismatch)
        return game

    def disagreement(self, data: dict[str, Any]) -> str | None:
        """Why the snapshot ``data`` does not describe this game (the first key that differs), or None."""
        mine = self.to_dict()
        if "rules" in data and RummikubRules.from_dict(data["rules"]) != self.rules:
            return "rules differ from the game's"
        for key in ("turn", "table", "racks", "rack_sizes", "pool_size", "melded", "over", "winner", "scores"):
            if key not in data or (key == "racks" and data[key] is None):
                continue
            if not _same_json(data[key], mine[key]):
                return (
                    f"{key} is {_short(data[key])} but replaying the moves from seed {self.seed} gives"
                    f" {_short(mine[key])}"
                )
        return None

    def replay(self, moves: Sequence[dict[str, Any]]) -> RummikubGame:
        """Apply ``moves`` in order (each checked); returns self."""
        for i, move in enumerate(moves):
            try:
                self.apply(move)
            except IllegalMoveError as exc:
                raise IllegalMoveError(f"move {i + 1} of the replay: {exc}") from None
        return self

    def describe(self) -> str:
        """Short human-readable view of the position."""
        lines = [f"turn: {self.players[self.turn]}   pool: {len(self.pool)}"]
        lines += [f"  {describe_set(s, self.rules)}" for s in self.table]
        for p, r in enumerate(self.racks):
            lines.append(f"{self.players[p]}: {format_tiles(r, self.rules)}")
        return "\n".join(lines)


MAX_PLAYERS = 8
MAX_MOVES = 20_000
"""Longest move list a saved game may replay (a real game has a few hundred)."""
_STATE_KEYS = frozenset(
    ("rules", "seed", "players", "turn", "table", "racks", "rack_sizes", "pool_size", "melded", "over", "winner",
     "scores", "moves")
)


def _same_json(a: Any, b: Any) -> bool:
    """Equal as JSON values, types included (``true`` is not ``1``, ``3.0`` is not ``3``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same_json(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same_json(a[k], b[k]) for k in a)
    return bool(a == b)


def _short(value: Any, limit: int = 120) -> str:
    """Bounded text of a JSON value for an error message (never the repr of a huge list or string)."""
    if isinstance(value, str) and len(value) > limit:
        value = value[:limit]
    if isinstance(value, int) and value.bit_length() > 64:
        return f"an integer of {value.bit_length()} bits"
    if isinstance(value, (list, dict)) and len(value) > 20:
        return f"a {type(value).__name__} of {len(value):,} items"
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _plain_move(move: dict[str, Any], rules: RummikubRules) -> dict[str, Any]:
    if move["type"] != "play":
        return {"type": move["type"]}
    table = parse_table(move["table"], rules)
    return {"type": "play", "table": [[tile_name(t, rules) for t in s] for s in table]}


def solution_move(solution: Solution) -> dict[str, Any]:
    """The game move that carries out a solver answer (a draw when there is no play)."""
    if not solution.found:
        return {"type": "draw"}
    return {"type": "play", "table": [[tile_name(t, solution.rules) for t in s] for s in solution.table]}
