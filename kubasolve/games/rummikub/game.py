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

from kubasolve.errors import IllegalMoveError, PositionError
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
    over: bool = False
    winner: int | None = None
    scores: list[int] | None = None

    @classmethod
    def new(
        cls, n_players: int = 2, seed: int = 0, rules: RummikubRules | None = None, players: Sequence[str] | None = None
    ) -> RummikubGame:
        """Shuffle the box with ``random.Random(seed)`` and deal ``rules.tiles_dealt`` tiles to each player."""
        rules = rules or RummikubRules()
        names = list(players) if players else [f"player{i + 1}" for i in range(n_players)]
        if not 2 <= len(names) <= 8:
            raise PositionError(f"a game needs 2 to 8 players, got {len(names)}")
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
                'a move is {"type": "play", "table": [[...], ...]}, {"type": "draw"} or {"type": "timeout"}'
            )
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
            self._finish(player)
        elif self.passes >= len(self.players):
            # the pool is empty and nobody could play for a whole round: lowest rack wins
            self._finish(min(range(len(self.players)), key=lambda p: (self.rack_value(p), p)))
        else:
            self.turn = (self.turn + 1) % len(self.players)

    def _finish(self, winner: int) -> None:
        self.over = True
        self.winner = winner
        values = [self.rack_value(p) for p in range(len(self.players))]
        self.scores = [-v for v in values]
        self.scores[winner] = sum(v for p, v in enumerate(values) if p != winner)

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
        """Rebuild a game from :meth:`to_dict` output by replaying its moves from the seed (checks them all)."""
        try:
            rules = RummikubRules.from_dict(data.get("rules", {}))
            game = cls.new(len(data["players"]), int(data["seed"]), rules, data["players"])
            moves = data.get("moves", [])
        except (KeyError, TypeError, ValueError) as exc:
            raise PositionError(f"bad Rummikub game state: {exc}") from None
        return game.replay(moves)

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
