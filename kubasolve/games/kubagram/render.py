"""Plain-text drawing of a Kubagram game for the terminal: board, central field, table words, scores."""

from __future__ import annotations

from collections.abc import Sequence

from kubasolve.games.kubagram.state import GameState

__all__ = ["render_board", "render_field", "render_state", "render_table"]

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
        nxt = state.next_cube
        cube = "" if nxt is None else f"; next cube {nxt.cube.letters.upper()} top {nxt.top.upper()} on {nxt.marking.value}"
        vowel = "; VOWEL RULE: the cube must show a vowel" if state.vowel_rule_active() else ""
        out.append(f"turn {state.turn}: {names[state.current]} to move ({state.phase}); "
                   f"{state.cubes_left} cubes left{cube}{vowel}")
    return "\n".join(out)
