"""What the Kubagram solver sees: the tiles in the central field and the words on the table.

A :class:`Tile` shows one fixed letter, or offers several: a cube just taken from a III square
(the taker picks one of its 3 letters, once) or a held joker (any of its letters, doubling the
word). A :class:`TableWord` is a claimed word with its owner, its joker count and its compound
level, from which its current value follows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from dataclasses import field as dc_field
from numbers import Integral
from typing import Any

from kubasolve.errors import PositionError
from kubasolve.games.kubagram.rules import KubagramRules
from kubasolve.lexicon.alphabet import normalize_word

MAX_FIELD_TILES = 200
MAX_CHOICE_TILES = 12  # tiles offering a choice (III cubes, jokers): bitset search limit
MAX_TABLE_LEVEL = 16  # a table word's compound level and joker count: the engine's bound (beyond, values overflow)
MAX_TABLE_JOKERS = 16
MAX_OWNER = 7  # a table word's owner in the CLI form: a player index, as --mover


@dataclass(frozen=True)
class Tile:
    """A tile of the central field: one fixed letter, or a choice among ``letters``."""

    letters: str
    joker: bool = False

    def __post_init__(self) -> None:
        if isinstance(self.letters, str):
            object.__setattr__(self, "letters", normalize_word(self.letters))

    @property
    def fixed(self) -> bool:
        return len(set(self.letters)) == 1 and not self.joker

    @property
    def options(self) -> str:
        """Distinct letters the tile can show, in face order."""
        return "".join(dict.fromkeys(self.letters))

    def label(self) -> str:
        if self.joker:
            return f"*{self.letters.upper()}"
        return self.letters if self.fixed else f"({self.letters})"

    def to_dict(self) -> dict[str, Any]:
        return {"letters": self.letters, "joker": self.joker}


@dataclass(frozen=True)
class TableWord:
    """A word lying on the table: owner (player index), jokers used, compound level (0 = plain)."""

    word: str
    owner: int = 0
    jokers: int = 0
    level: int = 0
    fresh: bool = dc_field(default=False, compare=False)
    """Claimed in the turn being played: not a compound part before the next turn (the referee clears it when the
    turn passes). Not compared: a word is the same word whether claimed this turn or before."""

    def __post_init__(self) -> None:
        if isinstance(self.word, str):
            object.__setattr__(self, "word", normalize_word(self.word))

    def value(self, rules: KubagramRules) -> int:
        """Current score of this word for its owner."""
        if self.level == 0:
            return rules.word_score(self.word, self.jokers)
        return rules.compound_score(self.word, self.level, self.jokers)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"word": self.word, "owner": self.owner, "jokers": self.jokers, "level": self.level}
        if self.fresh:
            out["fresh"] = True
        return out


@dataclass(frozen=True)
class KubagramPosition:
    """A position for move generation: field tiles, table words, and whether the mover took the last cube."""

    tiles: tuple[Tile, ...] = ()
    table: tuple[TableWord, ...] = ()
    last_cube: bool = False
    mover: int = 0

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiles", tuple(self.tiles))
        object.__setattr__(self, "table", tuple(self.table))
        if self.last_cube not in (True, False):
            raise PositionError(f"last_cube must be true or false, got {self.last_cube!r}")
        if not isinstance(self.mover, Integral) or isinstance(self.mover, bool) or self.mover < 0:
            raise PositionError(f"mover must be a player index >= 0, got {self.mover!r}")

    # ------------------------------------------------------------- construction
    @classmethod
    def from_letters(
        cls,
        letters: str = "",
        jokers: Iterable[str] = (),
        choices: Iterable[str] = (),
        table: Iterable[TableWord | str | Mapping[str, Any]] = (),
        last_cube: bool = False,
        mover: int = 0,
    ) -> KubagramPosition:
        """Field of fixed ``letters`` plus joker tiles (``"EYGR"``) and III-choice tiles (``"abc"``).

        Letters are normalised (NFC, lower case); spaces, commas and hyphens in ``letters`` are ignored.
        """
        if not isinstance(letters, str):
            raise PositionError(f"letters must be a string of the field's letters, e.g. 'kroegentoch', got {type(letters).__name__}")
        for name, items in (("jokers", jokers), ("choices", choices)):
            if isinstance(items, str):
                raise PositionError(f"{name} must be a list of strings, one per cube, e.g. [{items!r}], got the string {items!r}")
            items = list(items)
            for i, x in enumerate(items):
                if not isinstance(x, str):
                    raise PositionError(f"{name}[{i}] must be a string of the cube's letters, got {type(x).__name__}")
            if name == "jokers":
                jokers = items
            else:
                choices = items
        if isinstance(table, (str, TableWord, Mapping)):
            raise PositionError(f"table must be a list of table words, e.g. [{table!r}], got one {type(table).__name__}")
        fixed = [c for c in normalize_word(letters) if c not in " ,-_"]
        tiles = [Tile(c) for c in fixed]
        tiles += [Tile(j.lower(), joker=True) for j in jokers]
        tiles += [Tile(c.lower()) for c in choices]
        return cls(tuple(tiles), tuple(_table_word(t) for t in table), last_cube, mover)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> KubagramPosition:
        """Position from JSON: ``{"field": "abc", "jokers": ["EYGR"], "choices": ["xyz"], "table": [...],
        "last_cube": false, "mover": 0}``; ``tiles`` (list of ``{"letters", "joker"}``) may replace
        field/jokers/choices."""
        if not isinstance(data, Mapping):
            raise PositionError("a position must be an object")
        known = {"field", "jokers", "choices", "table", "last_cube", "mover", "tiles"}
        unknown = set(data) - known
        if unknown:
            raise PositionError(f"unknown position key(s) {', '.join(sorted(unknown))}; known: {', '.join(sorted(known))}")
        table = data.get("table", [])
        if not isinstance(table, list):
            raise PositionError('"table" must be a list of words or {"word", "owner", "jokers", "level", "fresh"} objects')
        last_cube = data.get("last_cube", False)
        mover = data.get("mover", 0)
        if not isinstance(last_cube, bool):
            raise PositionError('"last_cube" must be true or false')
        if not isinstance(mover, int) or isinstance(mover, bool) or mover < 0:
            raise PositionError('"mover" must be a player index >= 0')
        if "tiles" in data:
            raw = data["tiles"]
            if not isinstance(raw, list):
                raise PositionError('"tiles" must be a list')
            tiles = []
            for t in raw:
                if isinstance(t, str):
                    tiles.append(Tile(t.lower()))
                elif isinstance(t, Mapping) and isinstance(t.get("letters"), str):
                    extra = set(t) - {"letters", "joker"}
                    if extra:
                        raise PositionError(f"tile has unknown key(s) {', '.join(sorted(extra))}; known: joker, letters")
                    if not isinstance(t.get("joker", False), bool):
                        raise PositionError(f'tile {t["letters"]!r}: "joker" must be true or false, got {t["joker"]!r}')
                    tiles.append(Tile(t["letters"].lower(), t.get("joker", False)))
                else:
                    raise PositionError(f'bad tile {t!r}: use "a", "abc" or {{"letters": "eygr", "joker": true}}')
            return cls(tuple(tiles), tuple(_table_word(t) for t in table), last_cube, mover)
        field_letters = data.get("field", "")
        jokers = data.get("jokers", [])
        choices = data.get("choices", [])
        if not isinstance(field_letters, str):
            raise PositionError('"field" must be a string of letters')
        for name, val in (("jokers", jokers), ("choices", choices)):
            if not isinstance(val, list) or not all(isinstance(x, str) for x in val):
                raise PositionError(f'"{name}" must be a list of strings')
        return cls.from_letters(field_letters, jokers, choices, table, last_cube, mover)

    def to_dict(self) -> dict[str, Any]:
        return {
            "tiles": [t.to_dict() for t in self.tiles],
            "table": [w.to_dict() for w in self.table],
            "last_cube": self.last_cube,
            "mover": self.mover,
        }

    # ------------------------------------------------------------- validation
    def validate(self, rules: KubagramRules) -> None:
        """Raise :class:`PositionError` naming the first problem (unknown letter, too many tiles...)."""
        alphabet = rules.alphabet
        if len(self.tiles) > MAX_FIELD_TILES:
            raise PositionError(f"at most {MAX_FIELD_TILES} tiles in the field, got {len(self.tiles)}")
        n_choice = 0
        for i, t in enumerate(self.tiles):
            if not isinstance(t, Tile) or not isinstance(t.letters, str):
                raise PositionError(f"tile {i} must be a Tile of a string of letters, got {t!r}")
            if not t.letters:
                raise PositionError(f"tile {i} has no letter")
            bad = sorted({c for c in t.letters if c not in alphabet})
            if bad:
                raise PositionError(f"tile {i} ({t.letters!r}) has letter(s) {''.join(bad)!r} outside the alphabet {alphabet!r}")
            if not t.fixed:
                n_choice += 1
        if n_choice > MAX_CHOICE_TILES:
            raise PositionError(f"at most {MAX_CHOICE_TILES} jokers and choice cubes together, got {n_choice}")
        for i, w in enumerate(self.table):
            if not isinstance(w, TableWord):
                raise PositionError(f"table[{i}] must be a TableWord, got {type(w).__name__}")
            if not isinstance(w.word, str) or not w.word:
                raise PositionError(f"table[{i}]: the word must be a non-empty string, got {w.word!r}")
            bad = sorted({c for c in w.word if c not in alphabet})
            if bad:
                raise PositionError(f"table word {w.word!r} has letter(s) {''.join(bad)!r} outside the alphabet {alphabet!r}")
            for name, v in (("owner", w.owner), ("jokers", w.jokers), ("level", w.level)):
                if not isinstance(v, Integral) or isinstance(v, bool) or v < 0:
                    raise PositionError(f"table word {w.word!r}: {name} must be a whole number >= 0, got {v!r}")
            if w.fresh not in (True, False):
                raise PositionError(f"table word {w.word!r}: fresh must be true or false, got {w.fresh!r}")
            if w.jokers > MAX_TABLE_JOKERS or w.level > MAX_TABLE_LEVEL:
                raise PositionError(f"table word {w.word!r}: jokers and level must be at most {MAX_TABLE_LEVEL}, "
                                    f"got jokers {w.jokers}, level {w.level}")

    def fixed_letters(self) -> str:
        return "".join(t.letters[0] for t in self.tiles if t.fixed)


def _table_word(item: TableWord | str | Mapping[str, Any]) -> TableWord:
    if isinstance(item, TableWord):
        return item
    if isinstance(item, str):
        return TableWord(item.lower())
    if isinstance(item, Mapping) and isinstance(item.get("word"), str):
        extra = set(item) - {"word", "owner", "jokers", "level", "fresh"}
        if extra:
            raise PositionError(f"table word has unknown key(s) {', '.join(sorted(extra))}")
        vals = {k: item.get(k, 0) for k in ("owner", "jokers", "level")}
        for k, v in vals.items():
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise PositionError(f"table word {item['word']!r}: {k} must be an integer >= 0")
        fresh = item.get("fresh", False)
        if not isinstance(fresh, bool):
            raise PositionError(f"table word {item['word']!r}: fresh must be true or false")
        return TableWord(item["word"].lower(), **vals, fresh=fresh)
    raise PositionError(f"bad table word {item!r}: use \"word\" or {{\"word\": ..., \"owner\": 1}}")


def parse_table_spec(spec: Sequence[str]) -> tuple[TableWord, ...]:
    """CLI form of table words: ``word`` or ``word:owner`` or ``word:owner:jokers:level``."""
    out = []
    for item in spec:
        parts = normalize_word(item).split(":")
        try:
            nums = [int(p) for p in parts[1:]]
        except ValueError:
            raise PositionError(f"bad table word {item!r}: use word[:owner[:jokers[:level]]], owner a player index (0-7), jokers "
                                "how many of its letters are jokers, level its compound level (numbers)") from None
        if len(nums) > 3 or any(n < 0 for n in nums):
            raise PositionError(f"bad table word {item!r}: use word[:owner[:jokers[:level]]]")
        if nums and nums[0] > MAX_OWNER:
            raise PositionError(f"table word {item!r}: owner is a player index from 0 to {MAX_OWNER}, got {nums[0]}")
        owner, jokers, level = (*nums, 0, 0, 0)[:3]
        out.append(TableWord(parts[0], owner, jokers, level))
    return tuple(out)
