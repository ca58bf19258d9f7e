"""Text and SVG pictures of a colonii game: the table's groups (words and colonies, numbered as moves name
them, with owner, stake, supercolony and protection marks), the hand of the player to build (every hand
once the game is over), the deck, the scores and the latest turn."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from kubasolve.games.colonii.game import ColoniiState, TurnAction
from kubasolve.games.colonii.table import Group
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

__all__ = ["group_text", "last_turn_text", "render_svg", "render_text"]

CARD_FILL, CARD_EDGE = "#fdf2d0", "#8a6d3b"


def group_text(group: Group, names: Sequence[str]) -> str:
    """``ZIAR -> RÂNJET  (ann, colony of 2 words, supercolony)``-style text of a table group."""
    if group.is_colony:
        kind = f"colony of {len(group.words)} words" + (", supercolony" if group.supercolony else "")
    else:
        kind = "word, protected" if group.protected else f"word, stake {group.stake}"
    return f"{' -> '.join(w.upper() for w in group.words)}  ({names[group.owner]}, {kind})"


def _action_text(action: TurnAction) -> str:
    if action.type == "turn":
        return ", ".join((f"{m.play} {m.word.upper()}" if m.word else m.play) + ("" if m.target is None else f" on [{m.target}]")
                         for m in action.moves)
    if action.type == "exchange":
        return f"exchanged {len(action.cards)} cards"
    return "passed"


def last_turn_text(state: ColoniiState, names: Sequence[str]) -> str:
    """The latest turn and what it caused, e.g. ``bob: chain TAPELE on [7]; conquers 'cal' from player 0``."""
    if not state.history:
        return ""
    player, action = state.history[-1]
    notes = [text for turn, text in state.log if turn == state.turn - 1]
    return f"{names[player]}: {_action_text(action)}" + "".join(f"; {n}" for n in notes)


def _hands_shown(state: ColoniiState) -> list[int]:
    return list(range(state.n_players)) if state.over else [state.current]


def _header(state: ColoniiState, names: Sequence[str]) -> str:
    return header_line("Colonii", state.turn, names, state.scores, state.current, state.over, state.winners() if state.over else ())


def _end_text(state: ColoniiState) -> str:
    rules = state.rules
    return f"first to {rules.target_score} points" if rules.end == "target" else "the game ends when the deck runs out"


def render_text(state: ColoniiState, players: Sequence[str] | None = None) -> str:
    """The header line, the numbered table groups, the deck, the hand(s) shown with card values, the latest turn."""
    names = player_names(players, state.n_players)
    values = state.rules.letter_values
    lines = [_header(state, names), f"table ({len(state.table)} groups):"]
    lines += [f"  [{i}] {group_text(g, names)}" for i, g in enumerate(state.table)]
    if not state.table:
        lines.append("  (empty)")
    lines.append(f"deck: {len(state.deck)} cards; {_end_text(state)}; hand sizes: "
                 + ", ".join(f"{n} {len(h)}" for n, h in zip(names, state.hands, strict=True)))
    for p in _hands_shown(state):
        lines.append(f"hand of {names[p]}: " + (" ".join(f"{c.upper()}{values[c]}" for c in state.hands[p]) or "(empty)"))
    last = last_turn_text(state, names)
    if last:
        lines.append(f"last turn: {last}")
    return "\n".join(lines)


def _cards(svg: Svg, x: float, y: float, word: str, values: Mapping[str, int], size: float = 22, edge: str = CARD_EDGE) -> float:
    """Letter cards for ``word`` (value in the corner) from (x, y); returns the x after the last card."""
    for ch in word:
        svg.rect(x + 1, y + 1, size - 2, size * 1.2 - 2, CARD_FILL, stroke=edge, rx=3)
        svg.text(x + size / 2, y + size * 0.72, ch.upper(), size * 0.55, anchor="middle", bold=True)
        svg.text(x + size - 3, y + size * 1.2 - 4, values.get(ch, ""), size * 0.3, anchor="end", fill="#7b241c")
        x += size
    return x


def _group_width(group: Group, size: float = 22) -> float:
    return sum(len(w) for w in group.words) * size + (len(group.words) - 1) * 22


def render_svg(state: ColoniiState, players: Sequence[str] | None = None) -> str:
    """The table's groups, one a row: number, owner (colour and name), the words as letter cards (a colony's
    words chained by arrows), and marks for stake, supercolony (a star) and protection; then the hand."""
    names = player_names(players, state.n_players)
    values = state.rules.letter_values
    pad, card = 10.0, 22.0
    label_w = max([text_width("\u2605 supercolony (99 words)", 11)] + [text_width(short_name(n, 18), 12) for n in names])
    longest = max((_group_width(g, card) for g in state.table), default=0)
    width = max(720.0, pad + 44 + longest + 12 + label_w + pad)
    last = last_turn_text(state, names)
    status = f"deck {len(state.deck)} cards \u00b7 {_end_text(state)}" + (f" \u00b7 last turn: {last}" if last else "")
    head = score_chips(width, f"Colonii \u00b7 turn {state.turn}", names, state.scores, state.current, state.over,
                       state.winners() if state.over else (), status)
    body = Svg(width, 0)
    body.text(pad, 16, f"table: {len(state.table)} groups", 13, bold=True)
    y = 26.0
    for i, g in enumerate(state.table):
        row_h = card * 1.2 + 10
        if g.supercolony:
            body.rect(pad - 2, y - 3, width - 2 * pad + 4, row_h - 2, "#fff3c4", rx=6)
        body.text(pad + 26, y + card * 0.8, f"[{i}]", 12, anchor="end", fill="#666")
        body.rect(pad + 32, y + 2, 6, card * 1.2 - 4, player_colour(g.owner), rx=2)
        x = pad + 44
        for k, w in enumerate(g.words):
            if k:
                body.line(x + 2, y + card * 0.6, x + 18, y + card * 0.6, "#c0392b", 2, arrow=True)
                x += 22
            x = _cards(body, x, y, w, values, card)
        if g.is_colony:
            mark = ("\u2605 supercolony" if g.supercolony else "colony") + f" ({len(g.words)} words)"
        else:
            mark = "protected (left by a decolonisation)" if g.protected else f"stake {g.stake}"
        body.text(x + 12, y + card * 0.55, short_name(names[g.owner], 18), 12, bold=True, fill=player_colour(g.owner))
        body.text(x + 12, y + card * 1.1, mark, 11, fill="#7d6608" if g.supercolony else "#444", bold=g.supercolony)
        y += row_h
    if not state.table:
        body.text(pad, y + 14, "(the table is empty)", 12, fill="#666")
        y += 22
    y += 8
    for p in _hands_shown(state):
        body.text(pad, y + 14, f"hand of {names[p]}: {len(state.hands[p])} cards", 13, bold=True)
        y += 22
        _cards(body, pad, y, state.hands[p], values, 26)
        y += 26 * 1.2 + 10
    legend = ("a colony's words chain (each starts with the previous word's last letter) \u00b7 "
              "\u2605 supercolony: bonus paid \u00b7 stake: what a conquest takes \u00b7 card values in the corners")
    body.height = body.paragraph(pad, y, legend, 11, width - 2 * pad) + 8
    return page(_header(state, names), head, body, arrows=True)
