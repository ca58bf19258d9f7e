"""Draw a Scruble Cube as an unfolded net: text (cells of a word in brackets) and SVG, and whole games.

Net: U above F; L, F, R, B in a row; D below F (each face as seen from outside, as in the state
notation). Every face carries its label (U L F R B D). A highlighted word's cells are numbered in
reading order, with arrows between neighbouring cells, so a word that wraps over a face edge (or
around the back of the net, from B to L) reads unambiguously.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import pairwise
from typing import Any

from kubasolve.games.rendering import Svg, header_line, page, player_names, score_chips
from kubasolve.games.scruble.cube import FACES, cell_name, geometry
from kubasolve.games.scruble.game import ScrubleGame
from kubasolve.games.scruble.position import Cube

__all__ = ["FACE_NAMES", "NET", "last_turn_text", "net_svg", "net_text", "reading_order_text", "render_svg", "render_text"]

# face -> (block column, block row) in the net
NET = {"U": (1, 0), "L": (0, 1), "F": (1, 1), "R": (2, 1), "B": (3, 1), "D": (1, 2)}
FACE_NAMES = {"U": "up", "L": "left", "F": "front", "R": "right", "B": "back", "D": "down"}
PREMIUM_LABEL = {"2": "2L", "3": "3L", "+": "2W", "#": "3W"}
TINT = {"?": "#d9d9d9", "2": "#a6d8f0", "3": "#3d8fd1", "+": "#f4b6b6", "#": "#d9534f"}
LABEL_H, FACE_GAP, NET_MARGIN = 16, 6, 12


def _grid(cube: Cube) -> dict[tuple[int, int], int]:
    """(x, y) position in the net -> cell."""
    out = {}
    for f, name in enumerate(FACES):
        bx, by = NET[name]
        for r in range(4):
            for c in range(4):
                out[(4 * bx + c, 4 * by + r)] = 16 * f + 4 * r + c
    return out


def net_text(cube: Cube, highlight: Iterable[int] = ()) -> str:
    """The net as text, each face under its label; highlighted cells are shown as ``[X]``."""
    marked = set(highlight)
    grid = _grid(cube)
    lines = []
    for y in range(12):
        if y % 4 == 0:
            labels = [name for name, (bx, by) in sorted(NET.items(), key=lambda kv: kv[1]) if by == y // 4]
            row_label = ["             "] * 4
            for name in labels:
                row_label[NET[name][0]] = f" {name} ({FACE_NAMES[name]})".ljust(13)
            lines.append("".join(row_label).rstrip())
        row = []
        for x in range(16):
            cell = grid.get((x, y))
            if cell is None:
                row.append("   ")
            else:
                s = cube.symbols[cell]
                row.append(f"[{s}]" if cell in marked else f" {s} ")
            if x % 4 == 3:
                row.append(" ")
        lines.append("".join(row).rstrip())
    return "\n".join(lines)


def reading_order_text(word: str, cells: Sequence[int]) -> str:
    """``FANCIEST: F1,1 L1,4 ...``: a word's cells in reading order (faces as in the net)."""
    return f"{word.upper()}: " + " ".join(cell_name(c) for c in cells)


def _net(cube: Cube, highlight: Sequence[int], values: Mapping[str, int] | None, size: float) -> Svg:
    """The net with face labels; ``highlight`` cells in yellow, numbered in the given (reading) order."""
    order = {c: k + 1 for k, c in enumerate(dict.fromkeys(highlight))}
    grid = _grid(cube)
    block = 4 * size + LABEL_H + FACE_GAP

    def corner(x: int, y: int) -> tuple[float, float]:
        return (NET_MARGIN + x * size + (x // 4) * FACE_GAP + FACE_GAP,
                NET_MARGIN + y * size + (y // 4 + 1) * (LABEL_H + FACE_GAP) - FACE_GAP)

    svg = Svg(16 * size + 5 * FACE_GAP + 2 * NET_MARGIN, 3 * block + FACE_GAP + 2 * NET_MARGIN)
    for name, (bx, by) in NET.items():
        px, py = corner(4 * bx, 4 * by)
        svg.rect(px - 2, py - 2, 4 * size + 2, 4 * size + 2, "#f0ede4", rx=4)
        svg.text(px, py - 4, f"{name} \u00b7 {FACE_NAMES[name]}", 12, bold=True, fill="#333")
    where = {cell: (x, y) for (x, y), cell in grid.items()}
    for (x, y), cell in sorted(grid.items()):
        px, py = corner(x, y)
        s = cube.symbols[cell]
        fill = "#ffe066" if cell in order else TINT.get(s, "#fdf6e3")
        svg.rect(px, py, size - 2, size - 2, fill, stroke="#555", rx=3)
        dark = s in ("3", "#") and cell not in order
        svg.text(px + size / 2 - 1, py + size * 0.62, PREMIUM_LABEL.get(s, s), size * 0.42, anchor="middle",
                 fill="#ffffff" if dark else "#222", bold=cell in order)
        if values and s.lower() in values:
            svg.text(px + size - 5, py + size - 5, values[s.lower()], size * 0.25, anchor="end")
        if cell in order:
            svg.circle(px + 6, py + 6, 5.5, "#c0392b")
            svg.text(px + 6, py + 9, order[cell], 7.5, anchor="middle", fill="#ffffff", bold=True)
    path = list(order)
    c = size / 2 - 1
    for a, b in pairwise(path):
        (xa, ya), (xb, yb) = where[a], where[b]
        (ax, ay), (bx2, by2) = corner(xa, ya), corner(xb, yb)
        if abs(xa - xb) + abs(ya - yb) == 1:
            svg.line(ax + c + (bx2 - ax) * 0.3, ay + c + (by2 - ay) * 0.3, ax + c + (bx2 - ax) * 0.72, ay + c + (by2 - ay) * 0.72,
                     "#c0392b", 2, arrow=True)
            continue
        # the word goes over a face edge that the net cuts: an arrow leaves ``a`` through that edge and
        # another enters ``b`` through its side of it (the numbers give the order too)
        (dxa, dya), (dxb, dyb) = _net_side(a, b), _net_side(b, a)
        svg.line(ax + c + dxa * size * 0.3, ay + c + dya * size * 0.3, ax + c + dxa * size * 0.8, ay + c + dya * size * 0.8,
                 "#c0392b", 2, arrow=True)
        svg.line(bx2 + c + dxb * size * 0.85, by2 + c + dyb * size * 0.85, bx2 + c + dxb * size * 0.3, by2 + c + dyb * size * 0.3,
                 "#c0392b", 2, arrow=True)
    return svg


def _net_side(a: int, b: int) -> tuple[int, int]:
    """The side of cell ``a`` in the net, (dx, dy) with one of them +-1, through which the cube's surface
    leads to its neighbour ``b`` (on another face, across a cube edge)."""
    g = geometry()
    centre = 2 * g.cell_cubie.astype(int) - 3 + g.cell_normal.astype(int)
    face = 16 * (a // 16)
    col_dir, row_dir = g.cell_cubie[face + 1] - g.cell_cubie[face], g.cell_cubie[face + 4] - g.cell_cubie[face]
    d = centre[b] - centre[a]
    dx, dy = int(d @ col_dir), int(d @ row_dir)
    return (1 if dx > 0 else -1, 0) if abs(dx) >= abs(dy) else (0, 1 if dy > 0 else -1)


def net_svg(cube: Cube, highlight: Iterable[int] = (), values: dict[str, int] | None = None, size: int = 28) -> str:
    """The net as an SVG picture with face labels (premium and wildcard pegs tinted; highlighted cells in
    yellow, numbered in the order given: a word's reading order)."""
    net = _net(cube, list(highlight), values, size)
    return net.document("Scruble Cube net", arrows=True)


def last_turn_text(game: ScrubleGame, names: Sequence[str]) -> str:
    """The latest turn, e.g. ``ann: 2D B2 = FANNIES +37``."""
    if not game.history:
        return ""
    rec = game.history[-1]
    word = f" = {str(rec['word']).upper()} +{rec.get('score', 0)}" if rec.get("word") else " (no word)"
    return f"{names[rec['player']]}: {' '.join(rec.get('twists', []))}{word}"


def _last_word(game: ScrubleGame) -> tuple[str, list[int]] | None:
    """The word the latest turn scored and its cells in reading order, if that turn scored one."""
    if not game.history:
        return None
    rec: Mapping[str, Any] = game.history[-1]
    if not rec.get("word") or not rec.get("cells"):
        return None
    return str(rec["word"]), [int(c) for c in rec["cells"]]


def _turn(game: ScrubleGame) -> int:
    return game.turn if game.over else game.turn + 1


def _header(game: ScrubleGame, names: Sequence[str]) -> str:
    return header_line("Scruble", _turn(game), names, game.scores, game.to_move, game.over, game.winners() if game.over else ())


def render_text(game: ScrubleGame, players: Sequence[str] | None = None) -> str:
    """The header line, the net (the latest word's cells in brackets, then listed in reading order), the
    round and the latest turn."""
    names = player_names(players, game.players)
    last = _last_word(game)
    lines = [_header(game, names), net_text(game.cube, last[1] if last else ())]
    rounds = game.rules.rounds
    lines.append(f"round {min(game.round + 1, rounds)}/{rounds}; target {game.rules.target_score} points")
    turn = last_turn_text(game, names)
    if turn:
        lines.append(f"last turn: {turn}")
    if last:
        lines.append("reading order: " + reading_order_text(*last))
    return "\n".join(lines)


def render_svg(game: ScrubleGame, players: Sequence[str] | None = None) -> str:
    """The net with face labels and peg values, the latest word's cells numbered in reading order (arrows
    between neighbouring cells), scores, the player to move, the round and the latest turn."""
    names = player_names(players, game.players)
    values = dict(game.rules.pegs.values)
    last = _last_word(game)
    net = _net(game.cube, last[1] if last else [], values, 30)
    width = net.width
    rounds = game.rules.rounds
    status = f"round {min(game.round + 1, rounds)}/{rounds} \u00b7 target {game.rules.target_score}"
    turn_text = last_turn_text(game, names)
    if turn_text:
        status += f" \u00b7 last turn: {turn_text}"
    head = score_chips(width, f"Scruble Cube \u00b7 turn {_turn(game)}", names, game.scores, game.to_move, game.over,
                       game.winners() if game.over else (), status)
    foot = Svg(width, 0)
    y = 0.0
    notes = []
    if last:
        notes.append("reading order: " + reading_order_text(*last) + " (numbers 1, 2, ... on the net)")
    notes.append("2L/3L: letter premium \u00b7 2W/3W: word premium \u00b7 ?: wildcard \u00b7 faces seen from outside")
    for note in notes:
        y = foot.paragraph(10, y + 2, note, 11, width - 20, "#444")
    foot.height = y + 10
    return page(_header(game, names), head, net, foot, arrows=True)
