"""Kubagram setup from a seed: place and orient the cubes, pick the start player, turn the board, fix the draw order.

Rules modelled (Kubagram rulebook, as given in issue 4):

- "random placement and orientation": every cube goes on one square, uniformly at random, with a uniformly
  random one of its distinct letters on top;
- "start player by the drawn letter closest to A (ties draw again)": every player draws a different cube
  from the set and turns up a random letter; the letter earliest in the alphabet starts; players tied on the
  lowest letter draw again (only they), until one is left;
- "the last player turns the board, choosing the start cube": the last player (the one who plays right
  before the start player) turns the board by 0, 90, 180 or 270 degrees clockwise, which brings the chosen
  corner cube to the bottom-left, where drawing starts. A quarter turn of a non-square board swaps its
  rows and columns (9 x 12 becomes 12 x 9). Markings are printed on the board and turn with it;
- "draw order: bottom-left first, left to right along the row, then the row above".

All randomness comes from one ``random.Random(seed)``, used in this fixed order: placement (one shuffle),
orientation (one choice per square, row-major over the unturned board), start-player draws (per round, one
``sample`` of cubes then one letter choice per drawing player), and last the board turn when it is not given.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from kubasolve.errors import RulesError
from kubasolve.games.arguments import is_int
from kubasolve.games.kubagram.equipment import (
    ROTATIONS,
    BoardLayout,
    Cube,
    CubeSet,
    Square,
    rotate_position,
    rotated_shape,
)
from kubasolve.games.limits import check_seed

__all__ = [
    "CORNER_ROTATION",
    "SETUP_FORMAT",
    "PlacedCube",
    "Setup",
    "StartDraw",
    "deal",
    "draw_order",
    "placed_letters",
]

SETUP_FORMAT = "kubasolve.kubagram.setup/1"
MAX_START_ROUNDS = 10_000  # ties end with probability 1; this only guards against an endless loop

# The clockwise turn that brings a corner of the unturned board to the bottom-left (the start cube).
CORNER_ROTATION: dict[str, int] = {"bottom-left": 0, "bottom-right": 90, "top-right": 180, "top-left": 270}

Seed = int | str


class _Shape(Protocol):
    """Anything with a board shape (a BoardLayout or a Setup)."""

    @property
    def rows(self) -> int: ...

    @property
    def cols(self) -> int: ...


def draw_order(layout: _Shape) -> list[tuple[int, int]]:
    """Squares in draw order: bottom-left first, left to right along the row, then the row above (row 0 = top)."""
    return [(r, c) for r in range(layout.rows - 1, -1, -1) for c in range(layout.cols)]


@dataclass(frozen=True, slots=True)
class PlacedCube:
    """A cube lying on a square: where, which cube of the set, the letter on top and the square's marking."""

    row: int
    col: int
    cube_index: int
    cube: Cube
    top: str
    marking: Square

    def to_dict(self) -> dict[str, Any]:
        """JSON-able form (see :meth:`Setup.to_dict`)."""
        return {
            "row": self.row,
            "col": self.col,
            "cube": self.cube_index,
            "letters": self.cube.letters,
            "joker": self.cube.is_joker,
            "top": self.top,
            "marking": self.marking.value,
        }


@dataclass(frozen=True, slots=True)
class StartDraw:
    """One draw for the start player: in ``round``, ``player`` drew cube ``cube_index`` showing ``letter``."""

    round: int
    player: int
    cube_index: int
    letter: str


@dataclass(frozen=True)
class Setup:
    """A dealt game: the turned board (row-major ``squares``), draw order, start player and how it was decided."""

    seed: Seed
    n_players: int
    rows: int
    cols: int
    rotation: int
    squares: tuple[PlacedCube, ...]
    draw_order: tuple[tuple[int, int], ...]
    start_player: int
    start_draws: tuple[StartDraw, ...]

    @property
    def turning_player(self) -> int:
        """The last player in turn order (the one before the start player), who turns the board."""
        return (self.start_player - 1) % self.n_players

    @property
    def layout(self) -> BoardLayout:
        """The markings of the board as it lies after turning."""
        return BoardLayout(self.rows, self.cols, tuple(p.marking for p in self.squares))

    def at(self, row: int, col: int) -> PlacedCube:
        """The cube on square (row, col) of the turned board."""
        if not (0 <= row < self.rows and 0 <= col < self.cols):
            raise RulesError(f"square ({row}, {col}) is off a {self.rows} x {self.cols} board")
        return self.squares[row * self.cols + col]

    def in_draw_order(self) -> tuple[PlacedCube, ...]:
        """The placed cubes in the order they are drawn."""
        return tuple(self.at(r, c) for r, c in self.draw_order)

    @property
    def start_cube(self) -> PlacedCube:
        """The first cube drawn (bottom-left of the turned board)."""
        r, c = self.draw_order[0]
        return self.at(r, c)

    # -- serialisation

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict (only str, int, bool, list, dict) that :meth:`from_dict` turns back into an equal Setup."""
        return {
            "format": SETUP_FORMAT,
            "seed": self.seed,
            "n_players": self.n_players,
            "rows": self.rows,
            "cols": self.cols,
            "rotation": self.rotation,
            "start_player": self.start_player,
            "start_draws": [[d.round, d.player, d.cube_index, d.letter] for d in self.start_draws],
            "draw_order": [[r, c] for r, c in self.draw_order],
            "squares": [p.to_dict() for p in self.squares],
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Setup:
        """Rebuild a Setup from :meth:`to_dict` output (also after a JSON round trip); checks consistency."""
        if not isinstance(data, Mapping):
            raise RulesError(f"a setup must be a JSON object, got {type(data).__name__}")
        if data.get("format") != SETUP_FORMAT:
            raise RulesError(f"not a kubagram setup: format is {data.get('format')!r}, expected {SETUP_FORMAT!r}")
        expected = {"format", "seed", "n_players", "rows", "cols", "rotation", "start_player", "start_draws",
                    "draw_order", "squares"}
        missing, extra = sorted(expected - set(data)), sorted(set(data) - expected)
        if missing or extra:
            raise RulesError(f"setup keys wrong: missing {missing}, unknown {extra}")
        seed = data["seed"]
        if not isinstance(seed, (int, str)) or isinstance(seed, bool):
            raise RulesError(f"setup seed must be an int or a string, got {seed!r}")
        n_players, rows, cols = (_int(data, k, 1) for k in ("n_players", "rows", "cols"))
        rotation = _int(data, "rotation", 0)
        if rotation not in ROTATIONS:
            raise RulesError(f"setup rotation must be one of {ROTATIONS}, got {rotation}")
        start_player = _int(data, "start_player", 0)
        if start_player >= n_players:
            raise RulesError(f"setup start_player {start_player} is not one of the {n_players} players")

        squares: list[PlacedCube] = []
        raw_squares = data["squares"]
        if not isinstance(raw_squares, list) or len(raw_squares) != rows * cols:
            raise RulesError(f"setup needs a list of {rows * cols} squares for a {rows} x {cols} board")
        for k, sq in enumerate(raw_squares):
            squares.append(_placed_from_dict(sq, k, rows, cols))
        indices = [p.cube_index for p in squares]
        if sorted(indices) != list(range(rows * cols)):
            raise RulesError("setup squares must hold every cube index 0..n-1 exactly once")

        order_raw = data["draw_order"]
        if not isinstance(order_raw, list) or not all(
            isinstance(x, (list, tuple)) and len(x) == 2 and all(is_int(v) for v in x) for x in order_raw
        ):
            raise RulesError("setup draw_order must be a list of [row, col] pairs")
        order = tuple((int(r), int(c)) for r, c in order_raw)
        if list(order) != draw_order(_Dims(rows, cols)):
            raise RulesError("setup draw_order breaks the rule: bottom-left first, left to right, then the row above")

        draws_raw = data["start_draws"]
        if not isinstance(draws_raw, list):
            raise RulesError("setup start_draws must be a list of [round, player, cube, letter]")
        draws: list[StartDraw] = []
        for d in draws_raw:
            if not (isinstance(d, (list, tuple)) and len(d) == 4 and all(is_int(v) for v in d[:3])
                    and isinstance(d[3], str)):
                raise RulesError(f"setup start draw {d!r} is not [round, player, cube, letter]")
            draws.append(StartDraw(int(d[0]), int(d[1]), int(d[2]), d[3]))
        return cls(seed, n_players, rows, cols, rotation, tuple(squares), order, start_player, tuple(draws))


@dataclass(frozen=True, slots=True)
class _Dims:
    """A bare board shape."""

    rows: int
    cols: int


def _int(data: Mapping[str, Any], key: str, minimum: int) -> int:
    """An int field of a setup dict, at least ``minimum``."""
    value = data[key]
    if not is_int(value) or value < minimum:
        raise RulesError(f"setup {key} must be an integer >= {minimum}, got {value!r}")
    return int(value)


def _placed_from_dict(sq: object, k: int, rows: int, cols: int) -> PlacedCube:
    """One square of a setup dict; squares are row-major, so square k sits at (k // cols, k % cols)."""
    keys = {"row", "col", "cube", "letters", "joker", "top", "marking"}
    if not isinstance(sq, Mapping) or set(sq) != keys:
        raise RulesError(f"setup square {k} must be an object with keys {sorted(keys)}")
    if (sq["row"], sq["col"]) != divmod(k, cols):
        raise RulesError(f"setup square {k} must be at ({k // cols}, {k % cols}) (row-major), got "
                         f"({sq['row']!r}, {sq['col']!r})")
    if not is_int(sq["cube"]) or not 0 <= sq["cube"] < rows * cols:
        raise RulesError(f"setup square {k}: cube index {sq['cube']!r} out of range")
    if not isinstance(sq["joker"], bool):
        raise RulesError(f"setup square {k}: joker must be true or false")
    cube = Cube(sq["letters"], sq["joker"])
    if sq["top"] not in cube.top_letters:
        raise RulesError(f"setup square {k}: top letter {sq['top']!r} is not on cube {cube.letters!r}")
    return PlacedCube(sq["row"], sq["col"], sq["cube"], cube, sq["top"], Square.parse(sq["marking"]))


# ------------------------------------------------------------------------------------------------------------ deal

RotationChoice = int | str | Callable[[Setup], int | str] | None


def _resolve_rotation(choice: int | str, what: str) -> int:
    """Degrees for a turn given as degrees or as the corner (of the unturned board) that becomes the start cube."""
    if isinstance(choice, str):
        if choice not in CORNER_ROTATION:
            raise RulesError(f"{what}: unknown corner {choice!r}; use one of {', '.join(CORNER_ROTATION)}")
        return CORNER_ROTATION[choice]
    if not is_int(choice) or choice not in ROTATIONS:
        raise RulesError(f"{what}: a board turn must be one of {ROTATIONS} degrees clockwise, got {choice!r}")
    return int(choice)


def _start_player(rng: random.Random, cube_set: CubeSet, n_players: int) -> tuple[int, tuple[StartDraw, ...]]:
    """Each contender draws a different cube and a random top letter; lowest letter wins, ties draw again."""
    contenders = list(range(n_players))
    draws: list[StartDraw] = []
    for rnd in range(MAX_START_ROUNDS):
        picked = rng.sample(range(len(cube_set)), len(contenders))
        ranks: dict[int, int] = {}
        for player, idx in zip(contenders, picked):
            letter = rng.choice(cube_set[idx].top_letters)
            draws.append(StartDraw(rnd, player, idx, letter))
            ranks[player] = cube_set.letter_rank(letter)
        best = min(ranks.values())
        contenders = [p for p in contenders if ranks[p] == best]
        if len(contenders) == 1:
            return contenders[0], tuple(draws)
    raise RuntimeError(f"start player still tied after {MAX_START_ROUNDS} rounds")  # pragma: no cover


def deal(
    seed: Seed | None,
    cube_set: CubeSet | None = None,
    layout: BoardLayout | None = None,
    n_players: int = 2,
    *,
    rotation: RotationChoice = None,
) -> Setup:
    """Deal a game deterministically from ``seed`` (default set and board when omitted).

    ``rotation`` is the last player's board turn: degrees clockwise (0/90/180/270), a corner name of the
    unturned board from :data:`CORNER_ROTATION` (``"top-right"`` ...) that becomes the start cube, a callback
    that receives the unturned Setup (rotation 0, start player known) and returns either, or ``None`` for a
    seeded random choice. ``seed=None`` draws a fresh seed from the OS and records it, so the deal can be replayed.
    An int seed is a whole number from 0 to 2**63 - 1, as in every game (else :class:`RulesError` with ``key``
    ``seed``); a string seed is kept for the v2 engine's ``kubagram.new-game``.
    """
    if seed is None:
        seed = random.SystemRandom().randrange(2**63)
    if not isinstance(seed, str):
        check_seed(seed, "seed", RulesError)
    cube_set = CubeSet.default_nl() if cube_set is None else cube_set
    layout = BoardLayout.default() if layout is None else layout
    if not isinstance(cube_set, CubeSet):
        raise RulesError(f"cube_set must be a CubeSet, got {type(cube_set).__name__}")
    if not isinstance(layout, BoardLayout):
        raise RulesError(f"layout must be a BoardLayout, got {type(layout).__name__}")
    n = len(cube_set)
    if layout.n_squares != n:
        raise RulesError(
            f"the cube set has {n} cubes but the board has {layout.n_squares} squares "
            f"({layout.rows} x {layout.cols}); rows x cols must equal the number of cubes"
        )
    if not is_int(n_players) or not 1 <= n_players <= n:
        raise RulesError(f"n_players must be an integer from 1 to {n} (one cube each to draw), got {n_players!r}")
    if rotation is not None and not callable(rotation):
        _resolve_rotation(rotation, "rotation")  # fail before dealing

    rng = random.Random(seed)
    perm = list(range(n))
    rng.shuffle(perm)  # square k (row-major, unturned) gets cube perm[k]
    tops = [rng.choice(cube_set[perm[k]].top_letters) for k in range(n)]
    start, draws = _start_player(rng, cube_set, n_players)

    def build(degrees: int) -> Setup:
        rows, cols = rotated_shape(layout.rows, layout.cols, degrees)
        grid: list[PlacedCube | None] = [None] * n
        for k in range(n):
            r, c = divmod(k, layout.cols)
            nr, nc = rotate_position(r, c, layout.rows, layout.cols, degrees)
            grid[nr * cols + nc] = PlacedCube(nr, nc, perm[k], cube_set[perm[k]], tops[k], layout.markings[k])
        squares = tuple(p for p in grid if p is not None)
        order = tuple(draw_order(_Dims(rows, cols)))
        return Setup(seed, n_players, rows, cols, degrees, squares, order, start, draws)

    if rotation is None:
        degrees = rng.choice(ROTATIONS)
    elif callable(rotation):
        degrees = _resolve_rotation(rotation(build(0)), "rotation callback")
    else:
        degrees = _resolve_rotation(rotation, "rotation")
    return build(degrees)


def placed_letters(setup: Setup) -> list[str]:
    """The top letters in draw order, handy for display and tests."""
    return [p.top for p in setup.in_draw_order()]
