"""What every game's text and SVG rendering shares: player names, the one header line (game, turn,
player to move, scores), player colours and a small SVG builder.

The SVG builder writes standalone documents by string building only: text is XML-escaped (characters
XML 1.0 forbids become U+FFFD), numbers have one fixed format and fonts are generic families, so the
same state always gives the same bytes and any viewer draws it without fetching anything.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from kubasolve.errors import PositionError

__all__ = ["PLAYER_COLOURS", "Svg", "format_table", "header_line", "player_colour", "player_names", "score_chips", "short_name",
           "page", "text_width", "wrap_lines", "xml_text"]

PLAYER_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2")
"""One colour per seat (owner marks, score chips), distinct for up to 8 players."""

_XML_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
MAX_NAME = 24
"""Names longer than this are shortened (with an ellipsis) in pictures."""


def player_names(players: Sequence[str] | None, n_players: int, own: Sequence[str] | None = None) -> list[str]:
    """The seat names to show: ``players`` when given (one per seat, else :class:`PositionError`), else the
    state's own names, else ``player 0``, ``player 1``..."""
    if players is not None:
        if isinstance(players, str):
            raise PositionError("player names must be a list of names, not one string")
        names = [str(p) for p in players]
        if len(names) != n_players:
            raise PositionError(f"{len(names)} player name{'s' if len(names) != 1 else ''} for a game of {n_players} players")
        return names
    if own is not None and len(own) == n_players:
        return [str(p) for p in own]
    return [f"player {i}" for i in range(n_players)]


def player_colour(player: int) -> str:
    """The colour of seat ``player``."""
    return PLAYER_COLOURS[player % len(PLAYER_COLOURS)]


def header_line(game: str, turn: int, names: Sequence[str], scores: Sequence[int] | None, current: int | None,
                over: bool, winners: Sequence[int] = (), scores_note: str = "") -> str:
    """The first line of every text rendering: ``Crossword | turn 7 | ann to move | scores: ann 45, bob 30``.

    When the game is over the middle part names the winners; ``scores=None`` (a game that scores only at
    its end) prints ``scores_note`` instead."""
    if over:
        won = " and ".join(names[w] for w in winners)
        who = f"game over: {won} {'win' if len(winners) > 1 else 'wins'}" if winners else "game over"
    else:
        who = f"{names[current]} to move" if current is not None else "nobody to move"
    shown = ", ".join(f"{n} {s}" for n, s in zip(names, scores, strict=True)) if scores is not None else scores_note
    return f"{game} | turn {turn} | {who} | scores: {shown}"


def xml_text(value: object) -> str:
    """``value`` as XML character data or attribute text: ``& < > " '`` escaped, forbidden characters replaced."""
    text = _XML_ILLEGAL.sub("\ufffd", str(value))
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;").replace("'", "&#39;"))


def short_name(name: str, limit: int = MAX_NAME) -> str:
    """``name`` cut to ``limit`` characters (an ellipsis marks the cut)."""
    return name if len(name) <= limit else name[: limit - 1] + "\u2026"


def text_width(text: str, size: float) -> float:
    """A generous estimate of the drawn width of ``text`` in a sans-serif font of ``size`` px."""
    return len(text) * size * 0.62


def wrap_lines(text: str, width: float, size: float) -> list[str]:
    """``text`` broken at spaces into lines that fit ``width`` px (a word longer than a line is cut)."""
    per_line = max(8, int(width / (size * 0.62)))
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        word = word if len(word) <= per_line else word[: per_line - 1] + "\u2026"
        if line and len(line) + 1 + len(word) > per_line:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line] if line or not lines else lines


def _num(v: float) -> str:
    """One fixed number format: integers bare, else one decimal."""
    r = round(float(v), 1)
    return str(int(r)) if r == int(r) else f"{r:.1f}"


@dataclass
class Svg:
    """An SVG picture built element by element; :meth:`document` returns the standalone text."""

    width: float
    height: float
    items: list[str] = field(default_factory=list)

    def rect(self, x: float, y: float, w: float, h: float, fill: str, stroke: str | None = None, rx: float = 0,
             stroke_width: float = 1, dash: str | None = None) -> None:
        extra = (f' stroke="{stroke}" stroke-width="{_num(stroke_width)}"' if stroke else "") + (f' rx="{_num(rx)}"' if rx else "")
        extra += f' stroke-dasharray="{dash}"' if dash else ""
        self.items.append(f'<rect x="{_num(x)}" y="{_num(y)}" width="{_num(w)}" height="{_num(h)}" fill="{fill}"{extra}/>')

    def circle(self, cx: float, cy: float, r: float, fill: str, stroke: str | None = None, stroke_width: float = 1) -> None:
        extra = f' stroke="{stroke}" stroke-width="{_num(stroke_width)}"' if stroke else ""
        self.items.append(f'<circle cx="{_num(cx)}" cy="{_num(cy)}" r="{_num(r)}" fill="{fill}"{extra}/>')

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str, width: float = 1, arrow: bool = False) -> None:
        extra = ' marker-end="url(#arrow)"' if arrow else ""
        self.items.append(f'<line x1="{_num(x1)}" y1="{_num(y1)}" x2="{_num(x2)}" y2="{_num(y2)}" stroke="{stroke}" '
                          f'stroke-width="{_num(width)}"{extra}/>')

    def text(self, x: float, y: float, value: object, size: float, anchor: str = "start", fill: str = "#222",
             bold: bool = False, italic: bool = False, mono: bool = False, css_class: str | None = None) -> None:
        """Text whose baseline starts (``anchor`` start/middle/end) at (x, y); ``value`` is escaped."""
        extra = (' font-weight="bold"' if bold else "") + (' font-style="italic"' if italic else "")
        extra += ' font-family="monospace"' if mono else ""
        extra += f' class="{css_class}"' if css_class else ""
        anchor_attr = f' text-anchor="{anchor}"' if anchor != "start" else ""
        self.items.append(f'<text x="{_num(x)}" y="{_num(y)}" font-size="{_num(size)}"{anchor_attr} fill="{fill}"{extra}>'
                          f"{xml_text(value)}</text>")

    def paragraph(self, x: float, y: float, text: str, size: float, width: float, fill: str = "#555") -> float:
        """``text`` broken into lines that fit ``width`` px, the first line's top at ``y``; returns the y below it."""
        step = size * 1.35
        for line in wrap_lines(text, width, size):
            self.text(x, y + size, line, size, fill=fill)
            y += step
        return y

    def place(self, other: Svg, dx: float, dy: float) -> None:
        """Draw ``other`` here, shifted by (dx, dy)."""
        self.items.append(f'<g transform="translate({_num(dx)},{_num(dy)})">')
        self.items.extend(other.items)
        self.items.append("</g>")

    def document(self, title: str, arrows: bool = False) -> str:
        """The standalone SVG text (``title`` is the picture's accessible name)."""
        defs = ('<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" '
                'orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#c0392b"/></marker></defs>\n') if arrows else ""
        w, h = _num(self.width), _num(self.height)
        return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
                f'font-family="sans-serif">\n<title>{xml_text(title)}</title>\n{defs}'
                f'<rect x="0" y="0" width="{w}" height="{h}" fill="#ffffff"/>\n' + "\n".join(self.items) + "\n</svg>\n")


def page(title: str, *parts: Svg, arrows: bool = False) -> str:
    """The standalone SVG of ``parts`` stacked top to bottom (as wide as the widest); ``title`` names it."""
    doc = Svg(max(p.width for p in parts), sum(p.height for p in parts))
    y = 0.0
    for part in parts:
        doc.place(part, 0, y)
        y += part.height
    return doc.document(title, arrows=arrows)


def score_chips(width: float, title: str, names: Sequence[str], scores: Sequence[int | str] | None, current: int | None,
                over: bool, winners: Sequence[int] = (), status: str = "") -> Svg:
    """The header band of every picture: ``title`` (game and turn), one chip per player with their colour
    and score (the player to move outlined and marked, the winners crowned when over) and a status text.
    Chips and the status wrap onto more rows when they do not fit ``width``."""
    pad, chip_h, size = 10.0, 26.0, 13.0
    band = Svg(width, 0)
    band.text(pad, 22, title, 17, bold=True)
    x, y = pad, 34.0
    for p, name in enumerate(names):
        mark = "\u25b6 " if (p == current and not over) else ("\u2605 " if over and p in winners else "")
        label = f"{mark}{short_name(name)}"
        score = "" if scores is None else str(scores[p])
        w_label = text_width(label, size)
        w = w_label + (text_width(score, size) + 12 if score else 0) + 30
        if x + w > width - pad and x > pad:
            x, y = pad, y + chip_h + 6
        to_move = p == current and not over
        band.rect(x, y, w, chip_h, "#fff8dc" if to_move else "#f4f4f4", stroke="#222" if to_move else "#bbb", rx=5,
                  stroke_width=2.5 if to_move else 1)
        band.rect(x + 6, y + 7, 12, 12, player_colour(p), rx=2)
        band.text(x + 22, y + 18, label, size, bold=to_move or (over and p in winners))
        if score:  # the score apart, right-aligned and bold: "player 0" and 0 do not run together
            band.text(x + w - 8, y + 18, score, size, anchor="end", bold=True, fill=player_colour(p))
        x += w + 8
    y = band.paragraph(pad, y + chip_h + 6, status, 12, width - 2 * pad, "#444") if status else y + chip_h
    band.height = y + 10
    return band


# -------------------------------------------------------------------- plain-text tables
def format_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> str:
    """Render a plain-text table with right-aligned numbers and left-aligned text."""
    cells = [[str(h) for h in headers]] + [[_fmt(v) for v in row] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(headers))]
    numeric = [all(_is_number(row[i]) for row in rows) if rows else False for i in range(len(headers))]
    lines = []
    for k, row in enumerate(cells):
        parts = [c.rjust(w) if numeric[i] else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(parts).rstrip())
        if k == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def _is_number(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def _fmt(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.3g}" if abs(v) < 1e-2 and v != 0 else f"{v:.3f}".rstrip("0").rstrip(".")
    return str(v)
