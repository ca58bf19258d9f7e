"""Geometry of the 4x4x4 Scruble Cube: cells, layers, twists, belts and the move notation.

Everything is derived once from 3-D coordinates, so the tables are data, not hand-typed lists.

Cells. Axes: x from L to R, y from D to U, z from B to F; a cubie is ``(x, y, z)`` in ``0..3``.
The 96 cells are numbered face by face in the order **U R F D L B** (Kociemba's order), 16 cells
per face, row by row (``4 * row + col``) as the face is seen from outside with the usual net
orientation: U with B at its top edge, D with F at its top edge, F/R/B/L with U at the top.
So cell 0 is U's back-left corner, 16-31 are R, 32-47 F, 48-63 D, 64-79 L, 80-95 B.

Layers and twists. A layer is ``(axis, index)``: 3 axes x 4 slices = 12 layers; index 0 is at the
L / D / B side. A twist turns one layer by 1, 2 or 3 quarter turns clockwise as seen from the
+axis side (from R, U, F); 12 x 3 = 36 twists, numbered ``3 * layer + quarters - 1`` with layer
``4 * axis + index``.

Belts. Each layer crosses four faces in a closed ring of 16 cells: its *belt* (belt ``b`` is the
ring of layer ``b``). Every cell lies on exactly two belts (its row and its column). Belt cells are
ordered by angle around the axis, counter-clockwise seen from the +axis side, so a belt is a cyclic
string; the documented *forward* reading direction of a belt is this order: x belts run
U -> F -> D -> B (top to bottom on F), y belts F -> R -> B -> L (left to right on F), z belts
U -> L -> D -> R (right to left on U). Position 0 is the first cell of the first face named.

Notation (standard 4x4x4 single-layer moves): ``R L U D F B`` turn an outer layer clockwise as
seen from that face, ``2R`` the inner slice next to it, ``3R`` the inner slice next to the opposite
face turned like R; a suffix ``'`` means counter-clockwise and ``2`` a half turn. Wide moves (WCA):
``Rw`` = ``2Rw`` turns the two layers on the R side (``R 2R``: two twists), ``3Rw`` three (``R 2R 3R``:
three twists); ``4Rw`` would turn the whole cube and is refused. Lower case ``r`` is the inner slice
``2R`` here (as in older notation); most cubers today read ``r`` as ``Rw``: write ``Rw`` for that.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

import numpy as np

from kubasolve.errors import PositionError

FACES = "URFDLB"
N = 4
N_CELLS = 96
N_LAYERS = 12
N_TWISTS = 36
BELT_LEN = 16

# outward normal of each face (x, y, z)
_NORMAL = {"U": (0, 1, 0), "R": (1, 0, 0), "F": (0, 0, 1), "D": (0, -1, 0), "L": (-1, 0, 0), "B": (0, 0, -1)}
# the face whose outer layer is index 3 / index 0 on each axis
_HIGH_FACE = "RUF"
_LOW_FACE = "LDB"
_BELT_START = "UFU"


class NotationError(PositionError):
    """A twist or state string that does not parse."""


def _cell_cubie(face: str, row: int, col: int) -> tuple[int, int, int]:
    """Cubie coordinates of a face cell in the documented (Kociemba) orientation."""
    if face == "U":
        return col, 3, row
    if face == "D":
        return col, 0, 3 - row
    if face == "F":
        return col, 3 - row, 3
    if face == "B":
        return 3 - col, 3 - row, 0
    if face == "R":
        return 3, 3 - row, 3 - col
    return 0, 3 - row, col  # L


@dataclass(frozen=True)
class Geometry:
    """Precomputed tables (numpy, read-only) of the cube."""

    cell_face: np.ndarray  # int8[96] face index in FACES order
    cell_cubie: np.ndarray  # int8[96, 3]
    cell_normal: np.ndarray  # int8[96, 3]
    twist_perm: np.ndarray  # int16[36, 96]: after the twist, cell i holds what cell perm[i] held
    twist_changed: np.ndarray  # bool[36, 96]: cells whose content the twist replaces
    belt_cells: np.ndarray  # int16[12, 16]
    cell_belts: np.ndarray  # int16[96, 2]: the two belts through a cell (lower axis first)
    cell_belt_pos: np.ndarray  # int16[96, 2]: position of the cell on each of those belts
    twist_belts: np.ndarray  # bool[36, 12]: belts whose cells change under the twist


def _rotate(v: np.ndarray, axis: int, quarters: int) -> np.ndarray:
    """Rotate centred coordinates ``v`` clockwise seen from +axis by ``quarters`` quarter turns."""
    out = v.copy()
    for _ in range(quarters):
        a, b = [(1, 2), (2, 0), (0, 1)][axis]  # (y, z) for x, (z, x) for y, (x, y) for z
        # clockwise seen from +axis is a rotation by -90 degrees about +axis
        na, nb = out[..., b].copy(), -out[..., a].copy()
        out[..., a], out[..., b] = na, nb
    return out


@cache
def geometry() -> Geometry:
    """The cube's tables (computed once)."""
    cubie = np.zeros((N_CELLS, 3), np.int8)
    normal = np.zeros((N_CELLS, 3), np.int8)
    face = np.zeros(N_CELLS, np.int8)
    for f, name in enumerate(FACES):
        for r in range(N):
            for c in range(N):
                i = 16 * f + 4 * r + c
                cubie[i] = _cell_cubie(name, r, c)
                normal[i] = _NORMAL[name]
                face[i] = f
    # sticker centre in doubled coordinates centred on the cube centre: 2*cubie - 3 + normal
    centre = 2 * cubie.astype(np.int64) - 3 + normal.astype(np.int64)
    key = {(tuple(centre[i]), tuple(normal[i])): i for i in range(N_CELLS)}
    perm = np.zeros((N_TWISTS, N_CELLS), np.int16)
    for layer in range(N_LAYERS):
        axis, index = divmod(layer, N)
        for q in (1, 2, 3):
            t = 3 * layer + q - 1
            p = np.arange(N_CELLS, dtype=np.int16)
            for i in range(N_CELLS):
                if cubie[i, axis] != index:
                    continue
                nc = _rotate(centre[i], axis, q)
                nn = _rotate(normal[i].astype(np.int64), axis, q)
                j = key[(tuple(nc), tuple(nn))]
                p[j] = i  # the peg of cell i moves to cell j
            perm[t] = p
    changed = perm != np.arange(N_CELLS)
    belts = np.zeros((N_LAYERS, BELT_LEN), np.int16)
    for layer in range(N_LAYERS):
        axis, index = divmod(layer, N)
        ring = [i for i in range(N_CELLS) if cubie[i, axis] == index and normal[i, axis] == 0]
        a, b = [(1, 2), (2, 0), (0, 1)][axis]
        ring.sort(key=lambda i: np.arctan2(centre[i, b], centre[i, a]))
        first = FACES.index(_BELT_START[axis])  # start on a face edge: x and z belts on U, y belts on F
        k = next(k for k in range(BELT_LEN) if face[ring[k]] == first and face[ring[k - 1]] != first)
        ring = ring[k:] + ring[:k]
        belts[layer] = ring
    cell_belts = np.zeros((N_CELLS, 2), np.int16)
    cell_pos = np.zeros((N_CELLS, 2), np.int16)
    fill = np.zeros(N_CELLS, np.int64)
    for b in range(N_LAYERS):
        for pos, i in enumerate(belts[b]):
            cell_belts[i, fill[i]] = b
            cell_pos[i, fill[i]] = pos
            fill[i] += 1
    assert (fill == 2).all()
    twist_belts = np.zeros((N_TWISTS, N_LAYERS), bool)
    for t in range(N_TWISTS):
        for b in range(N_LAYERS):
            twist_belts[t, b] = bool(changed[t, belts[b]].any())
    g = Geometry(face, cubie, normal, perm, changed, belts, cell_belts, cell_pos, twist_belts)
    for arr in (face, cubie, normal, perm, changed, belts, cell_belts, cell_pos, twist_belts):
        arr.flags.writeable = False
    return g


@cache
def belt_links() -> np.ndarray:
    """``link[a, b]``: ``2 * belt + 1`` if cell ``b`` follows cell ``a`` on ``belt`` (forward order, cyclic),
    ``2 * belt + 2`` if it precedes it, else 0 (two cells are neighbours on at most one belt). Pegs whose start
    cells are linked by one code all along stood in a row, in that order, on one belt (int8, read-only)."""
    g = geometry()
    link = np.zeros((N_CELLS, N_CELLS), np.int8)
    for b in range(N_LAYERS):
        for p in range(BELT_LEN):
            a, c = int(g.belt_cells[b, p]), int(g.belt_cells[b, (p + 1) % BELT_LEN])
            link[a, c] = 2 * b + 1
            link[c, a] = 2 * b + 2
    link.flags.writeable = False
    return link


# ----------------------------------------------------------------- twist notation
@dataclass(frozen=True, order=True)
class Twist:
    """One layer turned ``quarters`` quarter turns clockwise seen from the +axis side."""

    layer: int
    quarters: int

    @property
    def index(self) -> int:
        """Twist number ``0..35`` (row of ``Geometry.twist_perm``)."""
        return 3 * self.layer + self.quarters - 1

    @classmethod
    def from_index(cls, t: int) -> Twist:
        return cls(t // 3, t % 3 + 1)

    @property
    def axis(self) -> int:
        return self.layer // N

    def notation(self) -> str:
        """Standard notation: ``R``, ``2R'``, ``L2``, ... (named from the nearer face)."""
        axis, index = divmod(self.layer, N)
        if index >= 2:
            name, q = _HIGH_FACE[axis], self.quarters
            prefix = "" if index == 3 else "2"
        else:
            name, q = _LOW_FACE[axis], (4 - self.quarters) % 4
            prefix = "" if index == 0 else "2"
        return prefix + name + {1: "", 2: "2", 3: "'"}[q]

    def __str__(self) -> str:
        return self.notation()


_TOKEN = re.compile(r"([0-9]?)([RLUDFBrludfb])(w?)(2'|'2|2|'|)")


def parse_twist(text: str) -> list[Twist]:
    """Parse one notation token into its layer twists (``Rw`` gives two, ``3Rw`` three); NotationError if bad."""
    m = _TOKEN.fullmatch(text.strip())
    if not m:
        raise NotationError(
            f"bad twist notation {text!r}: use R L U D F B, an inner slice 2R/3R (or r = 2R), wide Rw/3Rw, "
            "with ' (counter-clockwise) or 2 (half turn)"
        )
    prefix, letter, wide, suffix = m.groups()
    if letter.islower():
        if prefix or wide:
            raise NotationError(f"bad twist notation {text!r}: lower-case r already means the inner slice 2R "
                                "(for the two outer layers write Rw)")
        prefix, letter = "2", letter.upper()
    q = {"": 1, "'": 3, "2": 2, "2'": 2, "'2": 2}[suffix]
    if wide:  # WCA: nRw turns the n layers on the R side; Rw = 2Rw
        layers = int(prefix or "2")
        if layers == N:
            raise NotationError(f"bad twist notation {text!r}: {N} layers turn the whole cube (a rotation, which "
                                "changes no word); a wide move turns 2 or 3 layers (Rw = 2Rw, 3Rw)")
        if not 2 <= layers < N:
            raise NotationError(f"bad twist notation {text!r}: a wide move turns 2 or 3 layers (Rw = 2Rw, 3Rw)")
        depths = list(range(1, layers + 1))
    else:  # 1 outer, 2 next inner, 3 inner next to the opposite face
        if prefix not in ("", "2", "3"):
            raise NotationError(f"bad twist notation {text!r}: a single layer is R (outer), 2R or 3R (inner slices)")
        depths = [int(prefix or "1")]
    out = []
    for d in depths:
        if letter in _HIGH_FACE:
            axis = _HIGH_FACE.index(letter)
            index, quarters = 4 - d, q
        else:
            axis = _LOW_FACE.index(letter)
            index, quarters = d - 1, 4 - q  # clockwise from L is counter-clockwise from R
        out.append(Twist(4 * axis + index, quarters))
    return out


def parse_twists(text: str | list[str] | tuple[str, ...]) -> list[Twist]:
    """Parse a space-separated sequence (or a list of tokens) of twists."""
    if not isinstance(text, (str, list, tuple)):
        raise NotationError(f"bad twist notation {text!r}: twists are text such as \"R U'\" or a list of such tokens")
    tokens = text.split() if isinstance(text, str) else list(text)
    out: list[Twist] = []
    for tok in tokens:
        if not isinstance(tok, str):
            raise NotationError(f"bad twist notation {tok!r}: not a string")
        out.extend(parse_twist(tok))
    return out


def format_twists(twists: list[Twist] | tuple[Twist, ...]) -> list[str]:
    """Notation tokens of a twist sequence."""
    return [t.notation() for t in twists]


def belt_name(belt: int) -> str:
    """Human name of a belt: the layer it rings, e.g. ``R``, ``2R``, ``2L``, ``L`` for axis x."""
    return Twist(belt, 1).notation().rstrip("'2")


def cell_name(cell: int) -> str:
    """``F3,2``-style name: face, row, column (1-based)."""
    f, rest = divmod(cell, 16)
    r, c = divmod(rest, 4)
    return f"{FACES[f]}{r + 1},{c + 1}"


__all__ = [
    "BELT_LEN",
    "FACES",
    "Geometry",
    "N_CELLS",
    "N_LAYERS",
    "N_TWISTS",
    "NotationError",
    "Twist",
    "belt_links",
    "belt_name",
    "cell_name",
    "format_twists",
    "geometry",
    "parse_twist",
    "parse_twists",
]
