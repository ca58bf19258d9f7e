"""Tile codes and their text form: ``r7`` is red 7, ``b13`` blue 13, ``J`` a joker.

Internally a tile is an ``int`` code: ``colour * numbers + (number - 1)`` for numbered tiles and
``rules.joker`` (``colours * numbers``) for the joker, so tile counts fit a flat numpy array.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import numpy as np

from kubasolve.errors import PositionError
from kubasolve.games.rummikub.rules import RummikubRules

Tile = int
TileSet = tuple[int, ...]

_TOKEN = re.compile(r"^([a-z])([0-9]{1,3})$")  # ASCII only: no other script's digits, no 5000-digit numbers
_JOKER_WORDS = {"j", "joker", "*"}


def make_tile(colour: int, number: int, rules: RummikubRules) -> Tile:
    """Code of the numbered tile of colour index ``colour`` and face value ``number``."""
    return colour * rules.numbers + (number - 1)


def tile_colour(tile: Tile, rules: RummikubRules) -> int:
    """Colour index of a numbered tile."""
    return tile // rules.numbers


def tile_number(tile: Tile, rules: RummikubRules) -> int:
    """Face value (1..numbers) of a numbered tile."""
    return tile % rules.numbers + 1


def tile_name(tile: Tile, rules: RummikubRules) -> str:
    """Text form of a tile code (``r7``, ``J``)."""
    if tile == rules.joker:
        return "J"
    return f"{rules.colour_letters[tile // rules.numbers]}{tile % rules.numbers + 1}"


def parse_tile(token: str, rules: RummikubRules) -> Tile:
    """Parse one tile such as ``r7``, ``K13`` or ``J``; raises PositionError with the reason."""
    if not isinstance(token, str):
        raise PositionError(f"bad tile {token!r}: a tile is text such as r7, or J for a joker")
    t = token.strip()
    # lower-case ASCII only: the Kelvin sign K or a dotless/dotted I must not turn into a colour letter
    t = t.lower() if t.isascii() else t
    if t in _JOKER_WORDS:
        return rules.joker
    m = _TOKEN.match(t)
    if not m:
        raise PositionError(
            f"bad tile {token!r}: write a colour letter ({rules.colour_letters}) and a number, e.g. r7, or J for a joker"
        )
    letter, number = m.group(1), int(m.group(2))
    if letter not in rules.colour_letters:
        raise PositionError(
            f"bad tile {token!r}: unknown colour {letter!r} (colours are {', '.join(rules.colour_letters)})"
        )
    if not 1 <= number <= rules.numbers:
        raise PositionError(f"bad tile {token!r}: numbers go from 1 to {rules.numbers}")
    return make_tile(rules.colour_letters.index(letter), number, rules)


def parse_tiles(text: str | Sequence[str], rules: RummikubRules) -> list[Tile]:
    """Parse tiles separated by spaces or commas (``"r1 r2 r3 b10 J"``) or a list of tokens."""
    if isinstance(text, str):
        tokens = re.split(r"[\s,]+", text.strip())
    elif isinstance(text, (list, tuple)):
        tokens = [str(t) for t in text]
    else:
        raise PositionError(f"tiles must be text such as \"r1 r2 J\" or a list of tiles, got {text!r}")
    return [parse_tile(t, rules) for t in tokens if t]


def parse_table(text: str | Sequence[str] | Sequence[Sequence[str]], rules: RummikubRules) -> list[TileSet]:
    """Parse table sets: ``"r1 r2 r3 | b10 o10 k10"`` (``|`` or ``;`` between sets), or a list of sets."""
    if isinstance(text, str):
        chunks = [c for c in re.split(r"[|;]", text) if c.strip()]
        return [tuple(parse_tiles(c, rules)) for c in chunks]
    if not isinstance(text, (list, tuple)):
        raise PositionError(f"a table must be text such as \"r1 r2 r3 | b10 o10 k10\" or a list of sets, got {text!r}")
    out: list[TileSet] = []
    for item in text:
        if isinstance(item, str):
            out.extend(parse_table(item, rules))
        else:
            out.append(tuple(parse_tiles(list(item), rules)))
    return out


def format_tiles(tiles: Iterable[Tile], rules: RummikubRules) -> str:
    """Space-separated text form of tiles."""
    return " ".join(tile_name(t, rules) for t in tiles)


def format_table(sets: Iterable[Iterable[Tile]], rules: RummikubRules) -> str:
    """Text form of a table: sets separated by `` | ``."""
    return " | ".join(format_tiles(s, rules) for s in sets)


def tile_counts(tiles: Iterable[Tile], rules: RummikubRules) -> np.ndarray:
    """Count vector (length ``rules.kinds``) of a multiset of tiles."""
    return np.bincount(np.fromiter(tiles, dtype=np.int64), minlength=rules.kinds).astype(np.int64)


def full_box(rules: RummikubRules) -> list[Tile]:
    """Every tile of the game (numbered tiles ``copies`` times each, plus the jokers), in code order."""
    box = [t for t in range(rules.joker) for _ in range(rules.copies)]
    return box + [rules.joker] * rules.jokers


def check_tile_supply(tiles: Iterable[Tile], rules: RummikubRules, what: str = "table and rack") -> None:
    """Raise PositionError if ``tiles`` use a tile more often than the box holds."""
    counts = tile_counts(tiles, rules)
    limits = np.full(rules.kinds, rules.copies)
    limits[rules.joker] = rules.jokers
    for t in np.flatnonzero(counts > limits):
        limit = limits[t]
        raise PositionError(f"{what} hold {counts[t]} x {tile_name(int(t), rules)} but the game has only {limit}")


def tile_value(tile: Tile, rules: RummikubRules) -> int:
    """Penalty value of a tile left on a rack: its number, or the joker penalty."""
    return rules.joker_penalty if tile == rules.joker else tile % rules.numbers + 1
