"""Text and SVG renderings of every game (issue 21: "a text and SVG rendering of the position"; "show --svg
for every game (crossword board with its premium squares, Kubagram field, Rummikub table, colonii table;
Scruble's net gains face labels and the reading order of words that wrap)")."""

from __future__ import annotations

import importlib
import re
import xml.etree.ElementTree as ET
from collections import Counter
from types import ModuleType
from typing import Any

import pytest

from kubasolve.errors import PositionError
from tests.render.helpers import SVG_NS, load_state, state, svg_texts

GAME_TITLES = {"crossword": "Crossword", "kubagram": "Kubagram", "colonii": "Colonii", "rummikub": "Rummikub",
               "scruble": "Scruble"}
HEADER = re.compile(r"^(Crossword|Kubagram|Colonii|Rummikub|Scruble) \| turn \d+ \| (.+ to move|game over: .+) \| scores: .+$")


def renderer(name: str) -> ModuleType:
    return importlib.import_module(f"kubasolve.games.{name.split('_')[0]}.render")


def names_of(game: Any) -> list[str]:
    """``seat0``, ``seat1``... one per player of ``game``."""
    if hasattr(game, "n_players"):
        n = game.n_players
    else:  # Rummikub holds its names, Scruble a count
        n = len(game.players) if isinstance(game.players, list) else game.players
    return [f"seat{i}" for i in range(n)]


# ------------------------------------------------------------------------------------------- every game
def test_svg_is_a_standalone_xml_document(named_state: tuple[str, Any]) -> None:
    name, game = named_state
    svg = renderer(name).render_svg(game)
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG_NS}svg"
    assert float(root.attrib["width"]) > 100 and float(root.attrib["height"]) > 100
    assert root.attrib["viewBox"] == f"0 0 {root.attrib['width']} {root.attrib['height']}"
    # nothing fetched from elsewhere: no images, links, stylesheets or web fonts; generic font families only
    assert not re.search(r"<image|href|@import|url\((?!#)|<style|<script", svg)
    families = {el.attrib["font-family"] for el in root.iter() if "font-family" in el.attrib}
    assert families <= {"sans-serif", "monospace", "serif"}
    assert root.find(f"{SVG_NS}title") is not None


def test_same_state_same_bytes(named_state: tuple[str, Any]) -> None:
    name, game = named_state
    r = renderer(name)
    again = load_state(name)  # the same position rebuilt from its JSON
    assert r.render_svg(game) == r.render_svg(game) == r.render_svg(again)
    assert r.render_text(game) == r.render_text(again)


def test_text_starts_with_the_common_header_line(named_state: tuple[str, Any]) -> None:
    name, game = named_state
    text = renderer(name).render_text(game, names_of(game))
    first = text.splitlines()[0]
    assert HEADER.match(first), first
    assert first.startswith(GAME_TITLES[name.split("_")[0]])
    for seat in names_of(game):
        assert seat in first
    scores = game.scores if game.scores is not None else None
    if scores is not None:
        assert "scores: " + ", ".join(f"seat{i} {s}" for i, s in enumerate(scores)) in first


def test_svg_shows_scores_and_the_player_to_move(named_state: tuple[str, Any]) -> None:
    name, game = named_state
    seats = names_of(game)
    texts = svg_texts(renderer(name).render_svg(game, seats))
    joined = "\n".join(texts)
    for seat in seats:
        assert seat in joined
    if game.scores is not None:  # each chip: the name (marked), then the score
        for i, score in enumerate(game.scores):
            k = next(k for k, t in enumerate(texts) if t.endswith(f"seat{i}"))
            assert texts[k + 1] == str(score), (i, score)
    over = bool(game.over)
    if over:
        assert any(t.startswith("\u2605 ") for t in texts)  # the winner's chip
    else:
        mover = {"rummikub": lambda g: g.turn, "scruble": lambda g: g.to_move}.get(name.split("_")[0], lambda g: g.current)(game)
        assert any(t.startswith(f"\u25b6 seat{mover}") for t in texts)


def test_player_names_are_escaped(named_state: tuple[str, Any]) -> None:
    name, game = named_state
    n = len(names_of(game))
    hostile = ['<&>"\' </svg>', "b\x00\x1bc", "]]><!--"] + [f"p{i}" for i in range(3, n)]
    svg = renderer(name).render_svg(game, hostile[:n])
    texts = "\n".join(svg_texts(svg))  # parses: nothing broke the XML
    assert '<&>"\' </svg>' in texts
    assert "b\ufffd\ufffdc" in texts  # characters XML forbids are replaced, not dropped silently
    assert ET.fromstring(svg).find(f"{SVG_NS}title").text.count("<&>") >= 1  # type: ignore[union-attr]
    text = renderer(name).render_text(game, hostile[:n])
    assert '<&>"\' </svg>' in text.splitlines()[0]


def test_wrong_number_of_names_is_refused(named_state: tuple[str, Any]) -> None:
    name, game = named_state
    n = len(names_of(game))
    r = renderer(name)
    with pytest.raises(PositionError, match="player name"):
        r.render_svg(game, ["solo"] * (n + 1))
    with pytest.raises(PositionError, match="not one string"):
        r.render_text(game, "ab" if n == 2 else "abc"[:n])


# ------------------------------------------------------------------------------------------- crossword
def test_crossword_board_tiles_values_blanks_and_premium_squares() -> None:
    from kubasolve.games.crossword.render import BLANK_INK, PREMIUM_FILL, premium_label, render_svg

    game = state("crossword")
    rows = game.board.to_rows()
    layout, tiles = game.rules.board_layout(), game.rules.tile_set()
    svg = render_svg(game)
    root = ET.fromstring(svg)
    texts = Counter(svg_texts(svg))
    board_letters = Counter(ch.upper() for row in rows for ch in row if ch != ".")
    rack = game.racks[game.current]
    assert any(ch.islower() for row in rows for ch in row)  # the fixture has a blank
    for letter, n in board_letters.items():
        assert texts[letter] >= n + rack.count(letter), letter
    # a blank is drawn in red, its letter without a value
    red = [el.text for el in root.iter(f"{SVG_NS}text") if el.attrib.get("fill") == BLANK_INK]
    assert sorted(red) == sorted(ch.upper() for row in rows for ch in row if ch.islower())
    # tile values: every non-blank tile on the board shows its value
    values = Counter(str(tiles.value(ch)) for row in rows for ch in row if ch != "." and not ch.islower())
    values.update(str(tiles.value(ch)) for ch in rack if ch != "?")
    for v, n in values.items():
        assert texts[v] >= n
    # premium squares still empty carry their label and colour, from the layout data
    empty = Counter(premium_label(layout, r, c) for r in range(layout.rows) for c in range(layout.cols) if rows[r][c] == ".")
    for label in ("2L", "3L", "2W", "3W"):
        assert empty[label] > 0 and texts[label] == empty[label], label
    fills = Counter(el.attrib["fill"] for el in root.iter(f"{SVG_NS}rect"))
    for label in ("2L", "3L", "3W"):
        assert fills[PREMIUM_FILL[label]] >= empty[label]
    assert texts["\u2605"] == (1 if rows[layout.centre[0]][layout.centre[1]] == "." else 0)
    for label in ("A", "O", "1", "15"):  # coordinates as in GCG
        assert texts[label] >= 1


def test_crossword_text_board_rack_bag_and_last_move() -> None:
    from kubasolve.games.crossword.render import PREMIUM_TEXT, premium_label, render_text

    game = state("crossword")
    layout = game.rules.board_layout()
    text = render_text(game, ["ann", "bob"])
    lines = text.splitlines()
    assert lines[1].split() == list("ABCDEFGHIJKLMNO")
    marks = Counter()
    for r, row in enumerate(game.board.to_rows()):
        cells = lines[2 + r].split()
        assert cells[0] == str(r + 1)
        expected = [ch if ch != "." else PREMIUM_TEXT.get(premium_label(layout, r, c), ".") for c, ch in enumerate(row)]
        assert cells[1:] == expected
        marks.update(expected)
    assert all(marks[m] > 0 for m in "-='\"")  # every kind of premium square shows
    assert f"bag: {len(game.bag)} tiles" in text
    who = ["ann", "bob"][game.current]
    assert f"rack of {who}: {' '.join(game.racks[game.current])}" in text
    other = ["ann", "bob"][1 - game.current]
    assert f"rack of {other}" not in text  # an opponent's rack stays hidden while the game runs
    last = game.log[-1]
    assert "last move: " in text and last["word"] in text and f"+{last['score']}" in text


# ------------------------------------------------------------------------------------------- kubagram
def test_kubagram_board_field_jokers_and_table_words() -> None:
    from kubasolve.games.kubagram.render import render_svg, render_text

    game = state("kubagram")
    seats = ["ann", "bob", "cy"]
    svg = render_svg(game, seats)
    texts = svg_texts(svg)
    counts = Counter(texts)
    assert any(game.held) and any(w.jokers for w in game.table) and any(w.level for w in game.table)
    letters = Counter(t.letter.upper() for t in game.field)
    letters.update(p.top.upper() for p in game.order[game.taken:])
    for w in game.table:
        letters.update(w.word.upper())
    for letter, n in letters.items():
        assert counts[letter] >= n, letter
    for i in range(len(game.field)):
        assert str(i) in texts  # field tiles numbered as claims use them
    labels = [t for t in texts if " pts" in t]
    assert len(labels) == len(game.table)
    for w, label in zip(game.table, labels, strict=True):
        assert label.startswith(f"{seats[w.owner]}  {w.value(game.rules)} pts")
        assert ("compound level" in label) == bool(w.level)
        assert label.count("\u2605") == w.jokers
    for p, held in enumerate(game.held):
        for j in held:
            assert any(t.startswith(f"{seats[p]}: ") and "\u2605" + j.letters.upper() in t for t in texts)
    text = render_text(game, seats)
    assert "field: " in text and "table:" in text and "held jokers: " in text
    for w in game.table:
        assert w.word.upper() in text
    assert f"{game.cubes_left} cubes left" in text and "last turn: " in text


# ------------------------------------------------------------------------------------------- rummikub
def test_rummikub_table_sets_jokers_and_rack() -> None:
    from kubasolve.games.rummikub.render import render_svg, render_text
    from kubasolve.games.rummikub.sets import arrange_set

    game = state("rummikub")
    rules = game.rules
    svg = render_svg(game)
    texts = svg_texts(svg)
    numbers = Counter(str(t % rules.numbers + 1) for s in game.table for t in s if t != rules.joker)
    numbers.update(str(t % rules.numbers + 1) for t in game.racks[game.turn] if t != rules.joker)
    counts = Counter(texts)
    for number, n in numbers.items():
        assert counts[number] == n, number
    jokers = sum(1 for s in game.table for t in s if t == rules.joker) + game.racks[game.turn].count(rules.joker)
    assert jokers and counts["\u263a"] == jokers
    # a joker in a run shows the tile it stands for ([r6 J r8]: J is r7)
    runs = [arrange_set(s, rules) for s in game.table if rules.joker in s]
    assert any(t.startswith("=") and t != "=?" for t in texts) and runs
    root = ET.fromstring(svg)
    inks = {el.attrib["fill"] for el in root.iter(f"{SVG_NS}text") if el.text and el.text.isdigit() and int(el.text) <= rules.numbers}
    assert {"#d62728", "#1f5fbf", "#e67e22", "#222222"} <= inks  # the four colours
    text = render_text(game)
    assert f"pool: {len(game.pool)} tiles" in text and f"rack of {game.players[game.turn]}:" in text
    assert "r6 J(=r7) r8" in text
    tiles = ", ".join(f"{n} {len(r)}" for n, r in zip(game.players, game.racks, strict=True))
    assert text.splitlines()[0].endswith(f"scores: at the end (tiles left: {tiles})")


# ------------------------------------------------------------------------------------------- colonii
def test_colonii_groups_owners_supercolonies() -> None:
    from kubasolve.games.colonii.render import render_svg, render_text

    game = state("colonii")
    seats = ["ana", "ion"]
    texts = svg_texts(render_svg(game, seats))
    counts = Counter(texts)
    letters = Counter(ch.upper() for g in game.table for w in g.words for ch in w)
    letters.update(ch.upper() for ch in game.hands[game.current])
    for letter, n in letters.items():
        assert counts[letter] >= n, letter
    for i in range(len(game.table)):
        assert f"[{i}]" in texts
    supers = sum(1 for g in game.table if g.supercolony)
    assert supers and sum(1 for t in texts if t.startswith("\u2605 supercolony")) == supers
    assert counts["ana"] + counts["ion"] >= len(game.table)
    text = render_text(game, seats)
    for i, g in enumerate(game.table):
        assert f"[{i}] " + " -> ".join(w.upper() for w in g.words) in text
    assert "supercolony" in text and f"deck: {len(game.deck)} cards" in text
    assert f"hand of {seats[game.current]}: " in text and f"hand of {seats[1 - game.current]}" not in text


# ------------------------------------------------------------------------------------------- scruble
def test_scruble_net_face_labels_and_reading_order_of_a_wrapping_word() -> None:
    from kubasolve.games.scruble.cube import cell_name
    from kubasolve.games.scruble.render import render_svg, render_text

    game = state("scruble")
    rec = game.history[-1]
    cells = rec["cells"]
    assert {c // 16 for c in cells} == {1, 4, 5}  # GENERA runs over L, B and R: it wraps round the back
    svg = render_svg(game)
    texts = svg_texts(svg)
    for face, label in (("U", "up"), ("L", "left"), ("F", "front"), ("R", "right"), ("B", "back"), ("D", "down")):
        assert f"{face} \u00b7 {label}" in texts
    for k in range(1, len(cells) + 1):
        assert str(k) in texts
    reading = " ".join(cell_name(c) for c in cells)
    assert any(reading in t for t in texts)
    # one arrow between cells side by side in the net, two (out of one face, into the other) over a cut edge
    arrows = len(re.findall(r'marker-end="url\(#arrow\)"', svg))
    assert arrows == len(cells) - 1 + 1
    text = render_text(game)
    for face in "ULFRBD":
        assert re.search(rf"\b{face} \(", text)
    assert f"reading order: {rec['word'].upper()}: {reading}" in text
    assert text.count("[") == len(cells)


def test_scruble_net_side_matches_the_net_where_faces_touch() -> None:
    """The side of a cell that leads to its belt neighbour on another face is the side the net shows when
    the two faces touch in the net, and points out of the net's face block when they do not."""
    from kubasolve.games.scruble.cube import geometry
    from kubasolve.games.scruble.position import Cube
    from kubasolve.games.scruble.render import _grid, _net_side

    g = geometry()
    where = {cell: xy for xy, cell in _grid(Cube(("A",) * 96)).items()}
    seen = 0
    for belt in g.belt_cells:
        for a, b in zip(belt, [*belt[1:], belt[0]], strict=True):
            a, b = int(a), int(b)
            if a // 16 == b // 16:
                continue
            for x, y in ((a, b), (b, a)):
                dx, dy = _net_side(x, y)
                (xx, xy), (yx, yy) = where[x], where[y]
                if abs(xx - yx) + abs(xy - yy) == 1:
                    assert (yx - xx, yy - xy) == (dx, dy)
                else:  # a cut edge of the net: the side leads off the net (no face drawn there)
                    assert (xx + dx, xy + dy) not in where.values()
                seen += 1
    assert seen == 12 * 4 * 2


def test_scruble_game_over_names_the_winner() -> None:
    from kubasolve.games.scruble.render import render_text

    game = state("scruble_over")
    first = render_text(game, ["ann", "bob"]).splitlines()[0]
    assert game.over and first.startswith(f"Scruble | turn {game.turn} | game over: ")
    assert " wins | " in first and "to move" not in first


def test_crossword_marks_a_play_that_may_be_challenged() -> None:
    from kubasolve.games.crossword.game import default_referee
    from kubasolve.games.crossword.render import render_svg, render_text
    from kubasolve.games.crossword.rules import CrosswordRules

    referee = default_referee(CrosswordRules(word_check="challenge"))
    game = referee.new_game(7, 2)
    rack = game.racks[game.current]
    game = referee.apply(game, {"type": "place", "tiles": [[7, 7, rack[0]], [7, 8, rack[1]]]})
    assert game.last_play is not None
    assert "(may be challenged)" in render_text(game).splitlines()[-1]
    assert any("(may be challenged)" in t for t in svg_texts(render_svg(game)))
    game = referee.apply(game, {"type": "pass"})
    assert "challenged" not in render_text(game)


def test_colonii_protected_word_and_a_finished_game_show_every_hand() -> None:
    from dataclasses import replace

    from kubasolve.games.colonii.render import render_svg, render_text
    from kubasolve.games.colonii.table import Group

    game = replace(state("colonii"), table=(Group(("ziar",), 1, 6, protected=True),), over=True, scores=(40, 75))
    text = render_text(game, ["ana", "ion"])
    assert text.splitlines()[0] == "Colonii | turn 13 | game over: ion wins | scores: ana 40, ion 75"
    assert "[0] ZIAR  (ion, word, protected)" in text
    assert "hand of ana: " in text and "hand of ion: " in text
    texts = svg_texts(render_svg(game, ["ana", "ion"]))
    assert "protected (left by a decolonisation)" in texts
    assert "\u2605 ion" in texts and sum(t.startswith("hand of ") for t in texts) == 2
