"""Text and SVG pictures of a crossword game: the board with its premium squares (from the rules' board
layout), tiles with their values (blanks marked), the last play, the rack of the player to move (every
rack once the game is over), the bag and the scores."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from kubasolve.games.crossword.game import CrosswordState
from kubasolve.games.crossword.layout import BoardLayout, TileSet
from kubasolve.games.crossword.notation import COLUMNS, format_placement
from kubasolve.games.rendering import Svg, header_line, page, player_names, score_chips, short_name, text_width

__all__ = ["describe_entry", "premium_label", "render_svg", "render_text"]

PREMIUM_TEXT = {"2L": "-", "3L": "=", "2W": "'", "3W": '"', "*": "*"}
"""Text marks of empty premium squares (Quackle's)."""
PREMIUM_FILL = {"2L": "#bfe3f5", "3L": "#3d8fd1", "2W": "#f7c6c7", "3W": "#d9534f", "*": "#f7c6c7", "": "#dfe8d8"}
TILE_FILL, TILE_EDGE, BLANK_INK, NEW_EDGE = "#f6e3b4", "#a67c2e", "#c0392b", "#e67e22"


def premium_label(layout: BoardLayout, row: int, col: int) -> str:
    """``2L``, ``3L``, ``2W``, ``3W``, ``*`` (the centre) or ``""`` for a plain square."""
    if (row, col) == layout.centre:
        return "*"
    word, letter = layout.word_mult[row][col], layout.letter_mult[row][col]
    if word > 1:
        return f"{word}W"
    return f"{letter}L" if letter > 1 else ""


def describe_entry(entry: Mapping[str, Any], names: Sequence[str]) -> str:
    """One line for a log entry of :meth:`Referee.apply`, e.g. ``ann: 8H WO(R)D +30``."""
    kind = entry.get("type")
    if kind == "end":
        adjust = entry.get("adjust", [])
        return "end of the game: rack adjustments " + ", ".join(f"{names[p]} {a:+d}" for p, a in enumerate(adjust))
    who = names[entry["player"]]
    if kind == "place":
        tiles = [(int(r), int(c), str(ch)) for r, c, ch in entry["tiles"]]
        text = format_placement(entry["row"], entry["col"], entry["dir"], entry["word"], tiles, through="()")
        return f"{who}: {text} +{entry['score']}"
    if kind == "exchange":
        return f"{who}: exchanged {len(entry['letters'])} tiles"
    if kind == "challenge":
        lost = entry.get("invalid")
        return f"{who}: challenged, play {entry['result']}" + (f" ({', '.join(lost)})" if lost else "")
    return f"{who}: {kind}"


def _last_play(state: CrosswordState) -> set[tuple[int, int]]:
    """Squares of the most recent placement still on the board (nothing after a pass or exchange)."""
    for entry in reversed(state.log):
        if entry["type"] == "end":
            continue
        if entry["type"] != "place":
            return set()
        squares = {(int(r), int(c)) for r, c, _ in entry["tiles"]}
        return squares if all(state.board.square(r, c) != "." for r, c in squares) else set()
    return set()


def _challengeable(state: CrosswordState) -> str:
    """`` (may be challenged)`` while the previous play can still be challenged (challenge mode)."""
    return " (may be challenged)" if state.last_play is not None else ""


def _racks_shown(state: CrosswordState) -> list[int]:
    """Whose racks a picture shows: the player to move's, or everyone's when the game is over."""
    return list(range(state.n_players)) if state.over else [state.current]


def _header(state: CrosswordState, names: Sequence[str]) -> str:
    return header_line("Crossword", state.turn, names, state.scores, state.current, state.over, state.winners())


def render_text(state: CrosswordState, players: Sequence[str] | None = None) -> str:
    """The board (coordinates as in GCG; empty premium squares marked), racks, bag and last move."""
    names = player_names(players, state.n_players)
    layout = state.rules.board_layout()
    rows = state.board.to_rows()
    lines = [_header(state, names), "    " + " ".join(COLUMNS[: layout.cols])]
    for r, row in enumerate(rows):
        cells = [ch if ch != "." else PREMIUM_TEXT.get(premium_label(layout, r, c), ".") for c, ch in enumerate(row)]
        lines.append(f"{r + 1:>3} " + " ".join(cells))
    lines.append("squares: - 2L  = 3L  ' 2W  \" 3W  * centre; a lower-case letter is a blank")
    lines.append(f"bag: {len(state.bag)} tiles; rack sizes: " + ", ".join(f"{n} {len(r)}" for n, r in zip(names, state.racks, strict=True)))
    for p in _racks_shown(state):
        lines.append(f"rack of {names[p]}: {' '.join(state.racks[p]) or '(empty)'}")
    moves = [e for e in state.log if e["type"] != "end"]
    if moves:
        lines.append("last move: " + describe_entry(moves[-1], names) + _challengeable(state))
    if state.over:
        lines.append(describe_entry(state.log[-1], names))
    return "\n".join(lines)


def _tile(svg: Svg, x: float, y: float, size: float, letter: str, tiles: TileSet, edge: str = TILE_EDGE, edge_width: float = 1) -> None:
    """A letter tile: the letter, its value in the corner; a blank (lower case or ``?``) in red with no value."""
    blank = letter == "?" or letter.islower()
    svg.rect(x + 1, y + 1, size - 2, size - 2, TILE_FILL, stroke=edge, rx=3, stroke_width=edge_width)
    svg.text(x + size * 0.45, y + size * 0.7, "?" if letter == "?" else letter.upper(), size * 0.55, anchor="middle",
             fill=BLANK_INK if blank else "#222", bold=True)
    if blank:
        svg.circle(x + size - 7, y + 7, 3, BLANK_INK)
    else:
        svg.text(x + size - 3, y + size - 4, tiles.value(letter), size * 0.28, anchor="end")


def render_svg(state: CrosswordState, players: Sequence[str] | None = None) -> str:
    """The board with premium squares, tiles with values (blanks in red, the last play outlined), scores,
    the player to move and their rack (every rack once the game is over)."""
    names = player_names(players, state.n_players)
    layout, tiles = state.rules.board_layout(), state.rules.tile_set()
    sq, margin = 34.0, 24.0
    width = max(2 * margin + layout.cols * sq, 420)
    moves = [e for e in state.log if e["type"] != "end"]
    status = f"bag {len(state.bag)} tiles" + (f" \u00b7 last move: {describe_entry(moves[-1], names)}{_challengeable(state)}" if moves else "")
    head = score_chips(width, f"Crossword \u00b7 turn {state.turn}", names, state.scores, state.current, state.over,
                       state.winners(), status)
    board = Svg(width, margin + layout.rows * sq + 8)
    rows = state.board.to_rows()
    new = _last_play(state)
    for c in range(layout.cols):
        board.text(margin + c * sq + sq / 2, margin - 8, COLUMNS[c], 11, anchor="middle", fill="#555")
    for r in range(layout.rows):
        board.text(margin - 5, margin + r * sq + sq * 0.62, r + 1, 11, anchor="end", fill="#555")
        for c in range(layout.cols):
            x, y = margin + c * sq, margin + r * sq
            label = premium_label(layout, r, c)
            board.rect(x, y, sq, sq, PREMIUM_FILL[label], stroke="#ffffff", stroke_width=1.5)
            ch = rows[r][c]
            if ch != ".":
                fresh = (r, c) in new
                _tile(board, x, y, sq, ch, tiles, NEW_EDGE if fresh else TILE_EDGE, 2.5 if fresh else 1)
            elif label:
                dark = label in ("3L", "3W")
                board.text(x + sq / 2, y + sq * 0.62, "\u2605" if label == "*" else label, sq * (0.45 if label == "*" else 0.33),
                           anchor="middle", fill="#ffffff" if dark else "#333", bold=True)
    foot = Svg(width, 0)
    y = 4.0
    for p in _racks_shown(state):
        label = f"rack of {short_name(names[p], 20)}:"
        foot.text(margin, y + 22, label, 13, bold=True)
        x0 = margin + text_width(label, 13) + 8
        for k, ch in enumerate(state.racks[p]):
            _tile(foot, x0 + k * 32, y + 4, 30, ch, tiles)
        if not state.racks[p]:
            foot.text(x0, y + 22, "(empty)", 13, fill="#666")
        y += 38
    legend = ("2L/3L: letter \u00d72/\u00d73 \u00b7 2W/3W: word \u00d72/\u00d73 \u00b7 \u2605 centre \u00b7 "
              "red letter with a dot: blank (0 points) \u00b7 orange edge: the last play")
    foot.height = foot.paragraph(margin, y + 6, legend, 11, width - 2 * margin) + 10
    return page(_header(state, names), head, board, foot)
