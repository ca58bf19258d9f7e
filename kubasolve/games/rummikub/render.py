"""Text and SVG pictures of a Rummikub game: the table's sets (runs in order, jokers where they stand),
the rack of the player to move (every rack once the game is over), the pool, rack sizes and scores."""

from __future__ import annotations

from collections.abc import Sequence

from kubasolve.games.rendering import Svg, header_line, page, player_names, score_chips
from kubasolve.games.rummikub.game import RummikubGame
from kubasolve.games.rummikub.rules import RummikubRules
from kubasolve.games.rummikub.sets import arrange_set, joker_readings
from kubasolve.games.rummikub.tiles import Tile, TileSet, format_tiles, tile_name

__all__ = ["last_move_text", "render_svg", "render_text"]

COLOUR_INK = {"r": "#d62728", "b": "#1f5fbf", "o": "#e67e22", "k": "#222222", "g": "#2ca02c", "m": "#c2187a",
              "w": "#7f8c8d", "c": "#0fa3b1"}
COLOUR_NAME = {"r": "red", "b": "blue", "o": "orange", "k": "black", "g": "green", "m": "magenta", "w": "white", "c": "cyan"}
"""Ink of each colour letter (``rules.colour_letters``); white tiles are drawn grey to show on the cream tile."""
JOKER_INK = "#c0392b"


def _arranged(table: Sequence[TileSet], rules: RummikubRules) -> list[TileSet]:
    """Every set in display order (runs ascending with jokers in their gaps, groups by colour)."""
    return [arrange_set(s, rules) for s in table]


def _joker_stands_for(tiles: TileSet, rules: RummikubRules) -> list[str]:
    """What each joker of an arranged set stands for, in order, when that is certain; ``?`` otherwise."""
    readings = joker_readings(tiles, rules)
    jokers = sum(1 for t in tiles if t == rules.joker)
    if len(readings) != 1:
        return ["?"] * jokers
    return [tile_name(t, rules) for t in readings[0]]


def _last_mover(game: RummikubGame) -> int:
    """Who made the latest move (the turn passes on after every move except the one that ends the game)."""
    return game.turn if game.over else (game.turn - 1) % len(game.players)


def last_move_text(game: RummikubGame, names: Sequence[str] | None = None) -> str:
    """The latest move, e.g. ``bob played 3 tiles`` or ``cy drew a tile``; ``""`` before the first move."""
    if not game.moves:
        return ""
    who = (names or game.players)[_last_mover(game)]
    move = game.moves[-1]
    if move["type"] == "draw":
        return f"{who} drew a tile"
    if move["type"] == "timeout":
        return f"{who} ran out of time and drew {game.rules.timeout_draw} tiles"
    before: list[list[str]] = next((m["table"] for m in reversed(game.moves[:-1]) if m["type"] == "play"), [])
    played = sum(map(len, move["table"])) - sum(map(len, before))
    return f"{who} played {played} tile{'s' if played != 1 else ''}"


def _racks_shown(game: RummikubGame) -> list[int]:
    return list(range(len(game.players))) if game.over else [game.turn]


def _scores(game: RummikubGame) -> list[int] | None:
    return list(game.scores) if game.scores is not None else None


def _turn(game: RummikubGame) -> int:
    """The turn being played (1 before the first move), or the last one once the game is over."""
    return len(game.moves) + (0 if game.over else 1)


def _header(game: RummikubGame, names: Sequence[str]) -> str:
    """The common header line; before the end, in place of scores: how many tiles each player still holds."""
    winners = [game.winner] if game.winner is not None else []
    tiles = ", ".join(f"{n} {len(r)}" for n, r in zip(names, game.racks, strict=True))
    return header_line("Rummikub", _turn(game), names, _scores(game), game.turn, game.over, winners,
                       scores_note=f"at the end (tiles left: {tiles})")


def render_text(game: RummikubGame, players: Sequence[str] | None = None) -> str:
    """The header line, the table sets (in display order; a joker as ``J(=r7)``, the tile it stands for, ``?``
    when that is not certain), the pool, rack sizes, racks shown and the last move."""
    names = player_names(players, len(game.players), game.players)
    rules = game.rules
    lines = [_header(game, names)]
    lines.append(f"table ({len(game.table)} sets):")
    for s in _arranged(game.table, rules):
        notes = iter(_joker_stands_for(s, rules))
        lines.append("  " + " ".join(f"J(={next(notes)})" if t == rules.joker else tile_name(t, rules) for t in s))
    if not game.table:
        lines.append("  (empty)")
    lines.append(f"pool: {len(game.pool)} tiles; rack sizes: " + ", ".join(f"{n} {len(r)}" for n, r in zip(names, game.racks, strict=True)))
    lines.append("first meld made: " + ", ".join(f"{n} {'yes' if m else 'no'}" for n, m in zip(names, game.melded, strict=True)))
    for p in _racks_shown(game):
        lines.append(f"rack of {names[p]}: {format_tiles(game.racks[p], rules) or '(empty)'}")
    last = last_move_text(game, names)
    if last:
        lines.append(f"last move: {last}")
    if game.over:
        lines.append(f"game over ({game.end_reason})")
    return "\n".join(lines)


def _tile(svg: Svg, x: float, y: float, tile: Tile, rules: RummikubRules, note: str = "", w: float = 30, h: float = 40) -> None:
    """A tile: its number in its colour, or a joker (red smiley, ``J``) with what it stands for under it."""
    svg.rect(x + 1, y + 1, w - 2, h - 2, "#fffdf5", stroke="#9c8f6a", rx=4)
    if tile == rules.joker:
        svg.text(x + w / 2, y + h * 0.55, "\u263a", w * 0.62, anchor="middle", fill=JOKER_INK, bold=True)
        svg.text(x + w / 2, y + h - 5, "J", 9, anchor="middle", fill=JOKER_INK, bold=True)
    else:
        colour = rules.colour_letters[tile // rules.numbers]
        svg.text(x + w / 2, y + h * 0.6, tile % rules.numbers + 1, w * 0.55, anchor="middle", fill=COLOUR_INK.get(colour, "#222"),
                 bold=True)
        svg.text(x + w / 2, y + h - 4, colour, 8, anchor="middle", fill="#999")
    if note:
        svg.text(x + w / 2, y + h + 10, f"={note}", 9, anchor="middle", fill=JOKER_INK)


def render_svg(game: RummikubGame, players: Sequence[str] | None = None) -> str:
    """The table's sets as rows of coloured tiles (jokers marked, with the tile they stand for when certain),
    the rack of the player to move (every rack once over), pool, rack sizes and scores."""
    names = player_names(players, len(game.players), game.players)
    rules = game.rules
    width, pad, tw, th, gap = 860.0, 10.0, 30.0, 40.0, 22.0
    last = last_move_text(game, names)
    status = (f"pool {len(game.pool)} tiles" + ("" if game.scores is not None else " \u00b7 scores at the end; the chips show the tiles left")
              + (f" \u00b7 last move: {last}" if last else ""))
    winners = [game.winner] if game.winner is not None else []
    chips: list[int | str] = list(game.scores) if game.scores is not None else [f"{len(r)} tiles" for r in game.racks]
    head = score_chips(width, f"Rummikub \u00b7 turn {_turn(game)}", names, chips, game.turn, game.over, winners, status)
    body = Svg(width, 0)
    body.text(pad, 16, f"table: {len(game.table)} sets", 13, bold=True)
    x, y = pad, 24.0
    for s in _arranged(game.table, rules):
        w = len(s) * tw
        if x + w > width - pad and x > pad:
            x, y = pad, y + th + 18
        notes = iter(_joker_stands_for(s, rules))
        body.rect(x - 3, y - 3, w + 6, th + 6, "#e8f0e0", rx=6)
        for k, t in enumerate(s):
            _tile(body, x + k * tw, y, t, rules, next(notes) if t == rules.joker else "", tw, th)
        x += w + gap
    if not game.table:
        body.text(pad, y + 20, "(the table is empty)", 12, fill="#666")
    y += th + 26
    for p in _racks_shown(game):
        melded = "" if game.melded[p] else " (first meld not made)"
        body.text(pad, y + 14, f"rack of {names[p]}{melded}: {len(game.racks[p])} tiles", 13, bold=True)
        y += 22
        x = pad
        for t in game.racks[p]:
            if x + tw > width - pad:
                x, y = pad, y + th + 6
            _tile(body, x, y, t, rules, "", tw, th)
            x += tw + 2
        y += th + 12
    legend = "\u263a J: joker (=r7: the tile it stands for) \u00b7 " + \
        " ".join(f"{c}: {COLOUR_NAME.get(c, 'colour ' + str(i + 1))}" for i, c in enumerate(rules.colour_letters))
    body.height = body.paragraph(pad, y, legend, 11, width - 2 * pad) + 8
    return page(_header(game, names), head, body)

