"""Pictures of a Kubagram game: plain text for the terminal (board, central field, table words, scores) and
SVG (the same, with cubes, jokers and the owners' colours)."""

from __future__ import annotations

from collections.abc import Sequence

from kubasolve.games.kubagram.state import GameState
from kubasolve.games.rendering import (
    Svg,
    header_line,
    page,
    player_colour,
    player_names,
    score_chips,
    short_name,
    text_width,
)

__all__ = ["last_turn_text", "render_board", "render_field", "render_state", "render_svg", "render_table", "render_text"]

_MARK = {"I": " ", "III": "+", "0": "0"}


def render_board(state: GameState) -> str:
    """The board: cubes left show their top letter and marking (``+`` III, ``0`` zero; ``*`` joker); the next cube is
    bracketed; taken squares are dots."""
    left = {(p.row, p.col) for p in state.order[state.taken:]}
    nxt = state.next_cube
    lines = []
    for r in range(state.setup.rows):
        cells = []
        for c in range(state.setup.cols):
            p = state.setup.at(r, c)
            if (r, c) not in left:
                cells.append("  .  ")
                continue
            body = ("*" if p.cube.is_joker else "") + p.top.upper() + _MARK[p.marking.value]
            cells.append(f"{'[' + body + ']' if nxt is not None and (r, c) == (nxt.row, nxt.col) else body:^5}")
        lines.append("".join(cells))
    lines.append("(draw order: bottom-left first, left to right, then the row above; + = III, 0 = zero, * = joker)")
    return "\n".join(lines)


def render_field(state: GameState, player: int | None = None) -> str:
    """The central field with tile numbers (as claims use them) and the held jokers."""
    pos = state.position(player)
    parts = [f"{i}:{t.letters.upper() if not t.joker else '*' + t.letters.upper()}" for i, t in enumerate(pos.tiles)]
    line = "field: " + (" ".join(parts) if parts else "(empty)")
    held = [f"player {p}: {', '.join('*' + j.letters.upper() for j in h)}" for p, h in enumerate(state.held) if h]
    if held:
        line += "\nheld jokers: " + "; ".join(held)
    return line


def render_table(state: GameState, names: Sequence[str] | None = None) -> str:
    """Words on the table, numbered (for compounds), with owner and value."""
    if not state.table:
        return "table: (no words yet)"
    rows = []
    for i, w in enumerate(state.table):
        owner = names[w.owner] if names else f"player {w.owner}"
        extra = (f" jokers={w.jokers}" if w.jokers else "") + (f" compound level {w.level}" if w.level else "")
        rows.append(f"  {i:>2}: {w.word.upper():<16} {owner:<10} {w.value(state.rules):>5}{extra}")
    return "table:\n" + "\n".join(rows)


def render_state(state: GameState, names: Sequence[str] | None = None, board: bool = True) -> str:
    """Board, field, table and scores."""
    names = list(names) if names else [f"player {i}" for i in range(state.n_players)]
    out = []
    if board:
        out.append(render_board(state))
    out.append(render_field(state))
    out.append(render_table(state, names))
    scores = "  ".join(f"{n}: {s}" + (" (skip used)" if state.skips_left(p) <= 0 else "")
                       for p, (n, s) in enumerate(zip(names, state.scores)))
    out.append(f"scores: {scores}")
    if state.over:
        for p, v, why in state.adjustments:
            out.append(f"  {names[p]}: {v:+d} ({why})")
        out.append("winner(s): " + ", ".join(names[p] for p in state.winners()))
    else:
        out.append(f"turn {state.turn}: {names[state.current]} to move ({state.phase}); {_status(state)}")
    return "\n".join(out)


def _status(state: GameState) -> str:
    """Cubes left, the next cube and the vowel rule, e.g. ``40 cubes left; next cube ABCDEF top A on III``."""
    nxt = state.next_cube
    cube = "" if nxt is None else f"; next cube {nxt.cube.letters.upper()} top {nxt.top.upper()} on {nxt.marking.value}"
    vowel = "; VOWEL RULE: the cube must show a vowel" if state.vowel_rule_active() else ""
    return f"{state.cubes_left} cubes left{cube}{vowel}"


def last_turn_text(state: GameState, names: Sequence[str]) -> str:
    """The actions of the latest turn played (or being played), e.g. ``ann: take A; claim BLOEM; end turn``."""
    if not state.history:
        return ""
    player = state.history[-1][0]
    actions = []
    for p, action in reversed(state.history):
        if p != player:
            break
        actions.append(action.describe())
    return f"{names[player]}: " + "; ".join(reversed(actions))


def _header(state: GameState, names: Sequence[str]) -> str:
    # once over: the last turn played (as Rummikub's and Scruble's headers), one less than ``state.turn``
    turn = state.turn - 1 if state.over else state.turn
    return header_line("Kubagram", turn, names, state.scores, state.current, state.over, state.winners() if state.over else ())


def render_text(state: GameState, players: Sequence[str] | None = None) -> str:
    """The header line (turn, player to move, scores), board, field (tile numbers as claims use them), table
    words with owners and values, held jokers, skips, and the latest turn."""
    names = player_names(players, state.n_players)
    out = [_header(state, names), render_board(state), render_field(state), render_table(state, names)]
    if state.over:
        out += [f"  {names[p]}: {v:+d} ({why})" for p, v, why in state.adjustments]
    else:
        skips = ", ".join(f"{n} {state.skips_left(p)}" for p, n in enumerate(names))
        out.append(f"phase: {state.phase}; {_status(state)}; skips left: {skips}")
    last = last_turn_text(state, names)
    if last:
        out.append(f"last turn: {last}")
    return "\n".join(out)


JOKER_FILL, CUBE_FILL, NEXT_EDGE, STAR = "#d7bde2", "#fdf2d0", "#e67e22", "\u2605"


def _cube(svg: Svg, x: float, y: float, size: float, letter: str, joker: bool, note: str = "", edge: str = "#8a6d3b",
          edge_width: float = 1) -> None:
    """A cube seen from above: its letter, jokers in purple with a star, ``note`` (the marking) in the corner."""
    svg.rect(x + 1, y + 1, size - 2, size - 2, JOKER_FILL if joker else CUBE_FILL, stroke=edge, rx=4, stroke_width=edge_width)
    svg.text(x + size / 2, y + size * 0.66, letter.upper(), size * 0.5, anchor="middle", bold=True)
    if joker:
        svg.text(x + 4, y + size * 0.3, "\u2605", size * 0.26, fill="#6c3483")
    if note:
        svg.text(x + size - 3, y + size - 4, note, size * 0.24, anchor="end", fill="#7b241c")


def _board_svg(state: GameState) -> Svg:
    """The cubes still on the board (top letter, square marking), the next one outlined, taken squares empty."""
    sq, top = 34.0, 24.0
    setup = state.setup
    svg = Svg(setup.cols * sq + 8, top + setup.rows * sq + 34)
    svg.text(0, 16, f"board: {state.cubes_left} cubes left", 13, bold=True)
    left = {(p.row, p.col) for p in state.order[state.taken:]}
    nxt = state.next_cube
    for r in range(setup.rows):
        for c in range(setup.cols):
            x, y = c * sq, top + r * sq
            if (r, c) not in left:
                svg.rect(x + 1, y + 1, sq - 2, sq - 2, "#eeeeee", rx=4)
                continue
            p = setup.at(r, c)
            is_next = nxt is not None and (r, c) == (nxt.row, nxt.col)
            _cube(svg, x, y, sq, p.top, p.cube.is_joker, "" if p.marking.value == "I" else p.marking.value,
                  NEXT_EDGE if is_next else "#8a6d3b", 3 if is_next else 1)
    legend = ("orange edge: the next cube \u00b7 III / 0: the square's marking \u00b7 \u2605 joker \u00b7 "
              "cubes are drawn from the bottom-left, left to right, row by row upwards")
    svg.height = svg.paragraph(0, top + setup.rows * sq + 6, legend, 11, svg.width) + 8
    return svg


def _panel_svg(state: GameState, names: Sequence[str], width: float) -> Svg:
    """The central field (numbered tiles), held jokers and the table words with owner, jokers, level and value."""
    svg = Svg(width, 0)
    t = 34.0
    y = 16.0
    title = "central field" + (" \u2014 VOWEL RULE: the cube must show a vowel" if state.vowel_rule_active() else "")
    svg.text(0, y, title, 13, bold=True, fill="#7b241c" if state.vowel_rule_active() else "#222")
    per_row = max(1, int(width // t))
    y += 8
    for i, tile in enumerate(state.field):
        x, ty = (i % per_row) * t, y + (i // per_row) * (t + 12)
        _cube(svg, x, ty, t, tile.letter, tile.joker)
        svg.text(x + t / 2, ty + t + 10, i, 9, anchor="middle", fill="#666")
    rows = (len(state.field) + per_row - 1) // per_row
    if not state.field:
        svg.text(0, y + 18, "(empty)", 12, fill="#666")
        rows = 1
    y += rows * (t + 12) + 8
    passed = state.passed_cube
    if passed is not None:
        svg.text(0, y + 14, f"cube passed on from a 0 square, to place: {passed.cube.letters.upper()}", 12)
        y += 22
    if any(state.held):
        svg.text(0, y + 14, "held jokers", 13, bold=True)
        y += 20
        for p, jokers in enumerate(state.held):
            if not jokers:
                continue
            svg.rect(0, y + 2, 12, 12, player_colour(p), rx=2)
            svg.text(18, y + 13, f"{short_name(names[p])}: " + ", ".join("\u2605" + j.letters.upper() for j in jokers), 12)
            y += 18
        y += 4
    svg.text(0, y + 16, f"table words ({len(state.table)})", 13, bold=True)
    y += 22
    if not state.table:
        svg.text(0, y + 14, "(no words yet)", 12, fill="#666")
        y += 20
    cell = 20.0
    for i, w in enumerate(state.table):
        svg.text(18, y + 15, i, 11, anchor="end", fill="#666")
        for k, ch in enumerate(w.word):
            svg.rect(24 + k * cell, y + 1, cell - 2, cell - 2, CUBE_FILL, stroke="#1e8449" if w.level else "#8a6d3b", rx=3,
                     stroke_width=2 if w.level else 1)
            svg.text(24 + k * cell + (cell - 2) / 2, y + 14, ch.upper(), 11, anchor="middle", bold=True)
        x = 30 + len(w.word) * cell
        svg.rect(x, y + 4, 12, 12, player_colour(w.owner), rx=2)
        stars = STAR * w.jokers
        extra = (f"  {stars} {w.jokers} joker{'s' if w.jokers > 1 else ''}" if w.jokers else "") + \
            (f"  compound level {w.level}" if w.level else "")
        label = f"{short_name(names[w.owner], 16)}  {w.value(state.rules)} pts{extra}"
        svg.text(x + 16, y + 14, label, 11)
        y += cell + 2
    last = last_turn_text(state, names)
    if last:
        svg.text(0, y + 18, f"last turn: {last}", 11, fill="#444")
        y += 22
    svg.height = y + 8
    return svg


def render_svg(state: GameState, players: Sequence[str] | None = None) -> str:
    """Board, central field (tile numbers as claims use them), held jokers, table words (owner colour,
    jokers as stars, compound level, value), scores and the player to move."""
    names = player_names(players, state.n_players)
    board = _board_svg(state)
    panel_w = max(420.0, max((30 + len(w.word) * 20 + 16 + text_width(f"{names[w.owner][:16]}  999 pts compound level 9", 11)
                              for w in state.table), default=0))
    panel = _panel_svg(state, names, panel_w)
    width = 10 + board.width + 24 + panel_w + 10
    status = f"phase: {state.phase} \u00b7 {_status(state)}"
    head = score_chips(width, f"Kubagram \u00b7 turn {state.turn - 1 if state.over else state.turn}", names, state.scores, state.current, state.over,
                       state.winners() if state.over else (), status)
    body = Svg(width, max(board.height, panel.height) + 8)
    body.place(board, 10, 0)
    body.place(panel, 10 + board.width + 24, 0)
    return page(_header(state, names), head, body)
