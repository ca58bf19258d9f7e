"""Draw a Scruble Cube as an unfolded net: text (cells of a word in brackets) and SVG.

Net: U above F; L, F, R, B in a row; D below F (each face as seen from outside, as in the state
notation).
"""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from kubasolve.games.scruble.cube import FACES
from kubasolve.games.scruble.position import Cube

# face -> (block column, block row) in the net
NET = {"U": (1, 0), "L": (0, 1), "F": (1, 1), "R": (2, 1), "B": (3, 1), "D": (1, 2)}


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
    """The net as text; highlighted cells are shown as ``[X]``."""
    marked = set(highlight)
    grid = _grid(cube)
    lines = []
    for y in range(12):
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


def net_svg(cube: Cube, highlight: Iterable[int] = (), values: dict[str, int] | None = None, size: int = 28) -> str:
    """The net as an SVG picture (premium and wildcard pegs tinted, highlighted cells in yellow)."""
    marked = set(highlight)
    grid = _grid(cube)
    w, h = 16 * size + 5 * 4, 12 * size + 4 * 4
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif">']
    tint = {"?": "#d9d9d9", "2": "#a6d8f0", "3": "#3d8fd1", "+": "#f4b6b6", "#": "#d9534f"}
    for (x, y), cell in grid.items():
        px, py = x * size + 4 * (x // 4 + 1), y * size + 4 * (y // 4 + 1)
        s = cube.symbols[cell]
        fill = "#ffe066" if cell in marked else tint.get(s, "#fdf6e3")
        label = {"2": "2L", "3": "3L", "+": "2W", "#": "3W"}.get(s, s)
        parts.append(f'<rect x="{px}" y="{py}" width="{size - 2}" height="{size - 2}" rx="3" fill="{fill}" stroke="#555"/>')
        parts.append(f'<text x="{px + size / 2 - 1}" y="{py + size * 0.62}" font-size="{size * 0.45:.0f}" '
                     f'text-anchor="middle">{escape(label)}</text>')
        if values and s.lower() in values:
            parts.append(f'<text x="{px + size - 5}" y="{py + size - 5}" font-size="{size * 0.25:.0f}" '
                         f'text-anchor="end">{values[s.lower()]}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


__all__ = ["net_svg", "net_text"]
