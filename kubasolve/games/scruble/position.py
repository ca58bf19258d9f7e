"""A Scruble Cube position: the 96 pegs in their cells, the 96-character state notation, twists,
and the scoring of one word (the Python statement of every scoring rule, used by the referee, the
slow reference and to give the solver's results their breakdown).

State notation: 96 symbols, cells in the order of :mod:`kubasolve.games.scruble.cube` (faces
U R F D L B, each row by row as seen from outside). A letter peg is its upper-case letter; ``?`` a
wildcard, ``2`` / ``3`` a 2x / 3x letter premium and ``+`` / ``#`` a 2x / 3x word premium peg. On
input, white space and ``/`` are ignored and letters may be lower case.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

import numpy as np

from kubasolve.errors import PositionError
from kubasolve.games.limits import check_seed
from kubasolve.games.scruble.cube import (
    BELT_LEN,
    FACES,
    N_CELLS,
    NotationError,
    Twist,
    geometry,
    parse_twists,
)
from kubasolve.games.scruble.pegs import (
    DOUBLE_LETTER,
    DOUBLE_WORD,
    LETTER,
    PREMIUM_FACTOR,
    SYMBOL_KIND,
    TRIPLE_LETTER,
    TRIPLE_WORD,
    WILDCARD,
    PegSet,
)
from kubasolve.games.scruble.rules import ScrubleRules
from kubasolve.lexicon.alphabet import normalize_text


def symbol_kind(symbol: str) -> int:
    """Peg kind of a state symbol (LETTER for letters)."""
    return SYMBOL_KIND.get(symbol, LETTER)


@dataclass(frozen=True)
class Cube:
    """The 96 peg symbols of a cube, by cell (immutable)."""

    symbols: tuple[str, ...]

    def __post_init__(self) -> None:
        if len(self.symbols) != N_CELLS:
            raise NotationError(f"a cube state has {N_CELLS} cells, got {len(self.symbols)}")

    @classmethod
    def from_notation(cls, text: str, pegs: PegSet | None = None) -> Cube:
        """Parse the 96-character notation; letters must be in ``pegs``' alphabet when given."""
        if not isinstance(text, str):
            raise NotationError("a cube state must be a string of 96 symbols")
        chars = [c for c in normalize_text(text) if not c.isspace() and c != "/"]
        if len(chars) != N_CELLS:
            raise NotationError(
                f"a cube state has {N_CELLS} symbols (faces {' '.join(FACES)}, 16 each), got {len(chars)}"
            )
        out = []
        for i, c in enumerate(chars):
            if c in SYMBOL_KIND:
                out.append(c)
                continue
            if not c.isalpha():
                raise NotationError(f"symbol {c!r} at cell {i} is neither a letter nor one of ? 2 3 + #")
            if pegs is not None and c.lower() not in pegs.alphabet:
                raise NotationError(f"letter {c!r} at cell {i} is not in the peg set's alphabet {pegs.alphabet!r}")
            if len(c.upper()) != 1:  # ß would become the two-letter symbol SS
                raise NotationError(f"letter {c!r} at cell {i} has no one-letter capital form")
            out.append(c.upper())
        return cls(tuple(out))

    def notation(self, faces_separated: bool = False) -> str:
        """The 96-character state (``/`` between faces when asked)."""
        if faces_separated:
            return "/".join("".join(self.symbols[16 * f:16 * f + 16]) for f in range(6))
        return "".join(self.symbols)

    def __str__(self) -> str:
        return self.notation()

    def twisted(self, twists: str | Sequence[Twist] | Sequence[str]) -> Cube:
        """The cube after a twist sequence (notation string, tokens or :class:`Twist` values)."""
        if isinstance(twists, str):
            seq = parse_twists(twists)
        elif not isinstance(twists, (list, tuple)):
            raise NotationError(f"twists must be notation text such as \"R U'\" or a list of twists, got {twists!r}")
        else:
            seq = [tw for t in twists for tw in ([t] if isinstance(t, Twist) else parse_twists(t))]
        origin = apply_twists(np.arange(N_CELLS), seq)
        return Cube(tuple(self.symbols[o] for o in origin))

    @classmethod
    def scrambled(cls, pegs: PegSet, seed: int) -> Cube:
        """The pegs placed at random (seeded): how players load a physical cube."""
        check_seed(int(seed) if isinstance(seed, np.integer) else seed, "seed", PositionError)
        rng = np.random.default_rng(seed)
        syms = pegs.symbols()
        order = rng.permutation(len(syms))
        return cls(tuple(syms[i] for i in order))


def apply_twists(origin: np.ndarray, twists: Sequence[Twist]) -> np.ndarray:
    """Compose twists onto an ``origin`` permutation (cell -> start cell of its peg)."""
    g = geometry()
    out = np.asarray(origin).copy()
    for t in twists:
        out = out[g.twist_perm[t.index]]
    return out


@dataclass(frozen=True)
class Run:
    """Letter cells of a word on one belt: start position, direction (+1 / -1) and letter count."""

    belt: int
    start: int
    direction: int
    length: int

    def positions(self) -> list[int]:
        return [(self.start + self.direction * j) % BELT_LEN for j in range(self.length)]

    def cells(self) -> list[int]:
        g = geometry()
        return [int(g.belt_cells[self.belt, p]) for p in self.positions()]

    def neighbours(self) -> tuple[int | None, int | None]:
        """Cells before and after the letters (the after cell only for 15 letters; none for 16)."""
        g = geometry()
        before = int(g.belt_cells[self.belt, (self.start - self.direction) % BELT_LEN]) if self.length <= 14 else None
        after = (int(g.belt_cells[self.belt, (self.start + self.direction * self.length) % BELT_LEN])
                 if self.length <= 15 else None)
        return before, after


@dataclass(frozen=True)
class EarlierWord:
    """A word scored in an earlier turn: its letter cells, belt and crossing points (no premiums)."""

    word: str
    cells: tuple[int, ...]
    belt: int
    points: int
    pegs: tuple[int, ...] = ()  # game peg ids in those cells when it was scored


@dataclass(frozen=True)
class SpentPremium:
    """Something that already counted in an earlier turn, named in the search's frame (pegs by the cell they
    stand in at the start of the turn, like ``origin``).

    A premium peg (``premium`` >= 0) that counted for ``word``: "Las clavijas premium … no se aplican en turnos
    posteriores para esa palabra". That peg never multiplies ``word`` again, wherever and from whichever pegs
    the word is made, nor a word whose pegs hold the word's ``pegs`` (its pegs when it scored, in reading order)
    in a row, either way: RAJA's 3x word peg does not count again for RAJAS made by adding an S to RAJA.

    A scored word (``premium`` = :data:`SCORED_WORD`): ``word`` scored on ``pegs`` in ``cells``; made again of the
    same pegs, in that order or reversed, or in the same cells, it places no new letter ("Se debe colocar al
    menos una nueva letra"): a word broken by a twist and rebuilt by twisting back (an I peg swapped for another
    I on the way or not) does not score again."""

    premium: int
    word: str
    pegs: tuple[int, ...] = ()
    cells: tuple[int, ...] = ()


SCORED_WORD = -1
"""``SpentPremium.premium`` of an entry that names a scored word's pegs rather than a premium peg."""


def contains_pegs(run: Sequence[int], pegs: Sequence[int]) -> bool:
    """Whether ``pegs`` stand in a row inside ``run`` (both by peg), in that order or reversed."""
    n, m = len(run), len(pegs)
    if m == 0 or m > n:
        return False
    a, r = list(pegs), list(pegs)[::-1]
    return any(list(run[i:i + m]) in (a, r) for i in range(n - m + 1))


def reformed(start_pegs: Sequence[int], word: str, spent: Sequence[SpentPremium], cells: Sequence[int] = ()) -> bool:
    """Whether ``word`` on the pegs ``start_pegs`` (reading order, by start cell) in ``cells`` is a scored word made
    again of its own pegs or in its own cells (in order or reversed): :data:`SCORED_WORD` entries of ``spent``."""
    return any(sp.premium == SCORED_WORD and sp.word == word and len(sp.pegs) == len(start_pegs)
               and (contains_pegs(start_pegs, sp.pegs) or (len(sp.cells) == len(cells) and contains_pegs(cells, sp.cells)))
               for sp in spent)


def shows_same_letters(symbols: Sequence[str], origin: np.ndarray | Sequence[int], cells: Sequence[int], word: str,
                       rules: ScrubleRules) -> bool:
    """Whether every cell of ``cells`` shows the letter of ``word`` it showed at the start of the turn (``symbols``:
    now; ``origin[cell]``: where the peg now in ``cell`` stood): the same symbol, or a wildcard (in option 2 a
    premium peg too) read as the letter peg it replaced. A word read there stood there already: a twist that
    swaps one of its E pegs for another E, or a letter for a wildcard read as that letter, places no new letter
    (and a premium peg brought beside it does not count: "no se aplican a una palabra existente")."""
    inverse = np.empty(N_CELLS, np.int64)
    inverse[np.asarray(origin, np.int64)] = np.arange(N_CELLS)
    for c, ch in zip(cells, word):
        now, then = symbols[c], symbols[int(inverse[c])]
        if now == then:
            continue
        k = symbol_kind(now)
        if not (symbol_kind(then) == LETTER and then.lower() == ch
                and (k == WILDCARD or (rules.premium_mode == "wild" and k != LETTER))):
            return False
    return True


@dataclass(frozen=True)
class Breakdown:
    """How a word scores: letters, premiums, bonuses and crossings."""

    letter_points: int
    word_multiplier: int
    word_points: int
    length_bonus: int
    face_bonus: int
    crossing_points: int
    premium_cells: tuple[int, ...]
    crossed: tuple[str, ...] = field(default=())

    @property
    def score(self) -> int:
        return self.word_points + self.length_bonus + self.face_bonus + self.crossing_points

    def as_dict(self) -> dict[str, object]:
        return {
            "letter_points": self.letter_points, "word_multiplier": self.word_multiplier,
            "word_points": self.word_points, "length_bonus": self.length_bonus, "face_bonus": self.face_bonus,
            "crossing_points": self.crossing_points, "premium_cells": list(self.premium_cells),
            "crossed": list(self.crossed),
        }


def word_fits(symbols: Sequence[str], cells: Sequence[int], word: str, rules: ScrubleRules) -> bool:
    """Whether the pegs in ``cells`` can spell ``word`` (letters match, wildcards free)."""
    if len(word) != len(cells):
        return False
    for c, ch in zip(cells, word):
        k = symbol_kind(symbols[c])
        if k == LETTER:
            if symbols[c].lower() != ch:
                return False
        elif k == WILDCARD or rules.premium_mode == "wild":
            continue
        else:
            return False
    return True


def placed_new_letter(origin: np.ndarray | Sequence[int], cells: Sequence[int]) -> bool:
    """Whether a word on ``cells`` places a new letter: "Se debe colocar al menos una nueva letra". Read by
    pegs, as a club player reads it: the word places no new letter when its pegs (``origin[cell]``: where each
    stood at the start of the turn) already stood in a row, in this order (or reversed), on one belt: an
    unmoved word, and a word a layer turn slid along its belt (or turned end over end), are old. Pegs, not
    letters: a row with two equal letters swapped is new (the rare case of two identical-looking words)."""
    start = [int(origin[c]) for c in cells]
    for ring, p in _belts_through()[start[0]]:  # a row holding the first peg lies on one of its two belts
        for d in (1, -1):
            if [ring[(p + d * i) % BELT_LEN] for i in range(len(start))] == start:
                return False
    return True


@cache
def _belts_through() -> list[list[tuple[tuple[int, ...], int]]]:
    """For each cell, its two belts (the ring of cells) and its position on each."""
    g = geometry()
    rings = [tuple(int(c) for c in g.belt_cells[b]) for b in range(len(g.belt_cells))]
    return [[(rings[int(b)], int(p)) for b, p in zip(g.cell_belts[c], g.cell_belt_pos[c])] for c in range(N_CELLS)]


def score_run(
    symbols: Sequence[str],
    origin: np.ndarray | Sequence[int],
    run: Run,
    word: str,
    rules: ScrubleRules,
    earlier: Sequence[EarlierWord] = (),
    spent: Sequence[SpentPremium] = (),
) -> Breakdown | None:
    """Score ``word`` read on ``run`` of the cube ``symbols``; None if the run cannot spell it or it places no
    new letter while the rules ask for one: its pegs stood in a row (:func:`placed_new_letter`), its cells show
    the letters they showed (:func:`shows_same_letters`), or it is a scored word made again of its own pegs
    (:func:`reformed`). A premium peg listed in ``spent`` for this word (or for a word whose pegs it holds) does
    not count again. Does not check the lexicon.
    """
    cells = run.cells()
    if not word_fits(symbols, cells, word, rules) or len(word) < rules.min_length or len(word) > rules.max_length:
        return None
    start_pegs = [int(origin[c]) for c in cells]  # the word's pegs by the cell each stood in at the start of the turn
    if rules.require_new_letter and (not placed_new_letter(origin, cells)
                                     or shows_same_letters(symbols, origin, cells, word, rules)
                                     or reformed(start_pegs, word, spent, cells)):
        return None
    pegs = rules.pegs
    vals = [pegs.symbol_value(symbols[c]) if symbol_kind(symbols[c]) == LETTER else 0 for c in cells]
    kinds = [symbol_kind(symbols[c]) for c in cells]

    def counts(cell: int) -> bool:
        return not any(sp.premium == int(origin[cell]) and (sp.word == word or contains_pegs(start_pegs, sp.pegs))
                       for sp in spent)

    mult = [1] * len(cells)
    wm = 1
    premium_cells: list[int] = []
    n = len(cells)
    if rules.premium_mode == "ends":
        before, after = run.neighbours()
        for cell, idx in ((before, 0), (after, n - 1)):
            if cell is None or not counts(cell):
                continue
            k = symbol_kind(symbols[cell])
            if k in (DOUBLE_LETTER, TRIPLE_LETTER):
                mult[idx] *= PREMIUM_FACTOR[k]
                premium_cells.append(cell)
            elif k in (DOUBLE_WORD, TRIPLE_WORD):
                wm *= PREMIUM_FACTOR[k]
                premium_cells.append(cell)
        letter_points = sum(v * m for v, m in zip(vals, mult))
    else:
        # each letter premium multiplies its higher-valued neighbour; on a tie the player picks: every pick tried
        picks: list[tuple[int, list[int]]] = []
        for i, k in enumerate(kinds):
            if k in (LETTER, WILDCARD) or not counts(cells[i]):
                continue
            premium_cells.append(cells[i])
            if k in (DOUBLE_WORD, TRIPLE_WORD):
                wm *= PREMIUM_FACTOR[k]
                continue
            beside = [j for j in (i - 1, i + 1) if 0 <= j < n]
            if beside:
                top = max(vals[j] for j in beside)
                picks.append((PREMIUM_FACTOR[k], [j for j in beside if vals[j] == top]))
        letter_points = 0
        for choice in itertools.product(*(targets for _, targets in picks)):
            mult = [1] * n
            for (factor, _), j in zip(picks, choice):
                mult[j] *= factor
            letter_points = max(letter_points, sum(v * m for v, m in zip(vals, mult)))
    g = geometry()
    faces = {int(g.cell_face[c]) for c in cells}
    crossing = 0
    crossed: list[str] = []
    if rules.crossing:
        cellset = set(cells)
        intact = [w for w in earlier if all(int(origin[c]) == c for c in w.cells)]
        for w in crossable(intact):
            if w.belt == run.belt or not cellset.intersection(w.cells):
                continue
            crossing += w.points
            crossed.append(w.word)
    return Breakdown(
        letter_points=letter_points,
        word_multiplier=wm,
        word_points=letter_points * wm,
        length_bonus=rules.bonus_for_length(n),
        face_bonus=rules.three_face_bonus if len(faces) >= 3 else 0,
        crossing_points=crossing,
        premium_cells=tuple(premium_cells),
        crossed=tuple(crossed),
    )


def crossable(earlier: Sequence[EarlierWord]) -> list[EarlierWord]:
    """The earlier words a crossing can score: each standing word once. A word whose cells all lie in another
    earlier word's cells on the same belt is part of that word now (RAJA made RAJAS, or CETACEANS scored twice
    on the same cells), so a word crossing it scores the longer word once, not both (the last one listed of
    equal words)."""
    out = []
    for i, w in enumerate(earlier):
        cells = set(w.cells)
        if any(j != i and o.belt == w.belt and cells <= set(o.cells) and (len(o.cells) > len(cells) or j > i)
               for j, o in enumerate(earlier)):
            continue
        out.append(w)
    return out


def plain_points(symbols: Sequence[str], cells: Sequence[int], rules: ScrubleRules) -> int:
    """Letter values of a word without premiums or bonuses (what a crossed earlier word scores again)."""
    return sum(rules.pegs.symbol_value(symbols[c]) if symbol_kind(symbols[c]) == LETTER else 0 for c in cells)


def require_cube(text: str, rules: ScrubleRules) -> Cube:
    """Parse a state or raise :class:`PositionError` with the reason."""
    try:
        return Cube.from_notation(text, rules.pegs)
    except NotationError as exc:
        raise PositionError(str(exc)) from None


__all__ = ["SCORED_WORD", "Breakdown", "Cube", "EarlierWord", "Run", "SpentPremium", "apply_twists", "contains_pegs",
           "crossable", "placed_new_letter", "plain_points", "reformed", "score_run", "shows_same_letters", "symbol_kind",
           "word_fits"]
