"""Scruble Cube game for 1-4 players: seeded scramble, referee, JSON state with exact replay.

A turn is 1..``max_twists`` twists, then optionally one word read on the twisted cube. The referee
refuses an illegal turn with the reason and leaves the state unchanged: bad twist notation, too
many twists, a word not in the lexicon, a word not on the cube, a word that places no new letter
(its pegs already stood in a row on a belt: a slid word does not score again). A premium peg that
counted for a word never counts for that word again (the game keeps which: ``spent``). The game
ends after a turn in which a player exceeds ("supera") ``target_score``, or when ``rounds`` rounds are
played (solo: best total in ``rounds`` rounds).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kubasolve.errors import IllegalMoveError, StateError
from kubasolve.games.limits import check_seed
from kubasolve.games.scruble.cube import N_CELLS, NotationError, Twist, format_twists, geometry, parse_twists
from kubasolve.games.scruble.position import (
    SCORED_WORD,
    Breakdown,
    Cube,
    EarlierWord,
    Run,
    SpentPremium,
    apply_twists,
    plain_points,
    score_run,
    word_fits,
)
from kubasolve.games.scruble.reference import all_runs
from kubasolve.games.scruble.rules import ScrubleRules
from kubasolve.lexicon import Lexicon
from kubasolve.lexicon.alphabet import normalize_word


@dataclass(frozen=True)
class Turn:
    """What a player does: twists (notation tokens) and an optional word (with its start cell)."""

    twists: tuple[str, ...]
    word: str | None = None
    cells: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if isinstance(self.twists, str):  # "R U'" is two twists, not one per character
            object.__setattr__(self, "twists", tuple(self.twists.split()))

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"twists": list(self.twists)}
        if self.word is not None:
            d["word"] = self.word
        if self.cells is not None:
            d["cells"] = list(self.cells)
        return d

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Turn:
        unknown = sorted(set(d) - {"twists", "word", "cells"})
        if unknown:
            raise IllegalMoveError(f"unknown turn key(s) {', '.join(unknown)} (twists, word, cells)", key=f"action.{unknown[0]}")
        tw = d.get("twists", [])
        if isinstance(tw, str):
            tw = tw.split()
        if not isinstance(tw, list) or not all(isinstance(t, str) for t in tw):
            raise IllegalMoveError("twists must be a list of notation strings")
        word = d.get("word")
        if word is not None and not isinstance(word, str):
            raise IllegalMoveError("word must be a string")
        cells = d.get("cells")
        if cells is not None and (not isinstance(cells, list) or not all(isinstance(c, int) and not isinstance(c, bool) for c in cells)):
            raise IllegalMoveError("cells must be a list of cell numbers")
        return cls(tuple(tw), word, tuple(cells) if cells is not None else None)


SpentIds = tuple[int, str, tuple[int, ...], tuple[int, ...]]
"""What counted for a scored word: (a premium peg's id, the word, the word's peg ids in reading order, its cells),
and for each scored word one entry (``SCORED_WORD``, the word, its peg ids, its cells): the word made again of
those pegs, or in those cells, places no new letter."""


def spent_in_cells(spent: Sequence[SpentIds], pegs: np.ndarray) -> list[SpentPremium]:
    """``spent`` with each peg named by the cell it stands in (``pegs``: peg id per cell): the search's frame."""
    cell_of = np.empty(N_CELLS, np.int64)
    cell_of[pegs] = np.arange(N_CELLS)
    return [SpentPremium(SCORED_WORD if q == SCORED_WORD else int(cell_of[q]), word, tuple(int(cell_of[i]) for i in ids),
                         cells) for q, word, ids, cells in spent]


def spent_by(breakdown: Breakdown, word: str, cells: Sequence[int], pegs: np.ndarray) -> list[SpentIds]:
    """What a word scored on ``cells`` spent, by peg id (``pegs``: peg id per cell after the turn): the premium
    pegs it used and the word on its pegs."""
    ids, where = tuple(int(pegs[c]) for c in cells), tuple(int(c) for c in cells)
    return [(int(pegs[c]), word, ids, where) for c in breakdown.premium_cells] + [(SCORED_WORD, word, ids, where)]


@dataclass
class ScrubleGame:
    """A game in progress: cube, peg ids, scores, scored words, spent premiums and history (replayable)."""

    rules: ScrubleRules
    players: int
    seed: int
    cube: Cube
    pegs: np.ndarray  # peg id per cell (the peg's cell in the scramble)
    scores: list[int]
    turn: int = 0
    history: list[dict[str, Any]] = field(default_factory=list)
    words: list[tuple[EarlierWord, tuple[int, ...]]] = field(default_factory=list)
    over: bool = False
    spent: list[SpentIds] = field(default_factory=list)

    @classmethod
    def new(cls, players: int = 2, seed: int = 0, rules: ScrubleRules | None = None, cube: Cube | None = None) -> ScrubleGame:
        rules = rules or ScrubleRules()
        if not isinstance(players, int) or isinstance(players, bool) or not 1 <= players <= 4:
            raise StateError("Scruble is played by 1 to 4 players")
        check_seed(seed, "seed", StateError)
        start = cube if cube is not None else Cube.scrambled(rules.pegs, seed)
        return cls(rules, players, seed, start, np.arange(N_CELLS), [0] * players)

    @property
    def to_move(self) -> int:
        return self.turn % self.players

    @property
    def round(self) -> int:
        return self.turn // self.players

    def intact_words(self) -> list[EarlierWord]:
        """Scored words whose pegs are all still in their cells."""
        return [w for w, ids in self.words if all(int(self.pegs[c]) == i for c, i in zip(w.cells, ids))]

    def spent_premiums(self) -> list[SpentPremium]:
        """Premium pegs that already counted for a word, and the scored words' pegs, named by the cells they
        stand in now (the frame of a search from this position)."""
        return spent_in_cells(self.spent, self.pegs)

    # ---------------------------------------------------------------- referee
    def check(self, turn: Turn, lexicon: Lexicon) -> tuple[list[Twist], Cube, np.ndarray, tuple[str, Run, Breakdown] | None]:
        """Validate a turn; returns twists, cube after, origin and the scored word (or raises)."""
        if self.over:
            raise IllegalMoveError("the game is over")
        if not isinstance(turn, Turn):
            raise IllegalMoveError(f"a turn is a Turn (Turn.from_dict reads JSON), got {turn!r}")
        if not isinstance(turn.twists, (tuple, list)):
            raise IllegalMoveError(f"twists must be a list of notation strings, got {turn.twists!r}")
        if turn.word is not None and not isinstance(turn.word, str):
            raise IllegalMoveError(f"word must be a string, got {turn.word!r}")
        if turn.cells is not None and (not isinstance(turn.cells, (tuple, list)) or not all(
                isinstance(c, int) and not isinstance(c, bool) for c in turn.cells)):
            raise IllegalMoveError(f"cells must be a list of cell numbers, got {turn.cells!r}")
        try:
            twists = parse_twists(list(turn.twists))
        except NotationError as exc:
            raise IllegalMoveError(str(exc)) from None
        if not twists:
            raise IllegalMoveError("a turn needs at least one twist")
        if len(twists) > self.rules.max_twists:
            raise IllegalMoveError(f"at most {self.rules.max_twists} twists a turn, got {len(twists)}")
        origin = apply_twists(np.arange(N_CELLS), twists)
        after = Cube(tuple(self.cube.symbols[o] for o in origin))
        if turn.word is None:
            return twists, after, origin, None
        word = normalize_word(turn.word)
        if word not in lexicon:
            raise IllegalMoveError(f"{turn.word!r} is not a word in the {lexicon.name} lexicon")
        if not self.rules.min_length <= len(word) <= self.rules.max_length:
            raise IllegalMoveError(f"{turn.word!r} has {len(word)} letters: a word has {self.rules.min_length} to "
                                   f"{self.rules.max_length} letters under these rules")
        best: tuple[str, Run, Breakdown] | None = None
        fits_somewhere = False
        intact, spent = self.intact_words(), self.spent_premiums()
        for run in all_runs(self.rules):
            if run.length != len(word) or (turn.cells is not None and tuple(run.cells()) != turn.cells):
                continue
            if not word_fits(after.symbols, run.cells(), word, self.rules):
                continue
            fits_somewhere = True
            b = score_run(after.symbols, origin, run, word, self.rules, intact, spent)
            if b is not None and (best is None or b.score > best[2].score):
                best = (word, run, b)
        if best is None:
            if not fits_somewhere:
                where = "on those cells" if turn.cells is not None else "on any belt of the cube"
                raise IllegalMoveError(f"{turn.word!r} cannot be read {where} after {' '.join(format_twists(twists))}")
            raise IllegalMoveError(
                f"{turn.word!r} has no new letter: its pegs already stood in a row on a belt at the start of the turn "
                "(a word slid by a layer turn does not score again), its cells show the letters they showed then, or it "
                "is a word scored before made again of the same pegs; at least one letter must be placed")
        return twists, after, origin, best

    def play(self, turn: Turn, lexicon: Lexicon) -> dict[str, Any]:
        """Apply a legal turn (state unchanged and IllegalMoveError if not); returns the turn record."""
        twists, after, origin, scored = self.check(turn, lexicon)
        player = self.to_move
        new_pegs = self.pegs[origin]
        rec: dict[str, Any] = {"player": player, "twists": format_twists(twists), "score": 0}
        if scored is not None:
            word, run, b = scored
            cells = tuple(run.cells())
            self.words.append((EarlierWord(word, cells, run.belt, plain_points(after.symbols, cells, self.rules)),
                               tuple(int(new_pegs[c]) for c in cells)))
            self.spent.extend(spent_by(b, word, cells, new_pegs))
            self.scores[player] += b.score
            rec.update(word=word, cells=list(cells), score=b.score, breakdown=b.as_dict())
        self.cube = after
        self.pegs = new_pegs
        self.turn += 1
        self.history.append(rec)
        if max(self.scores) > self.rules.target_score and self.players > 1:  # "supera": exceeds, not reaches
            self.over = True
        if self.turn >= self.rules.rounds * self.players:
            self.over = True
        return rec

    def winners(self) -> list[int]:
        top = max(self.scores)
        return [i for i, s in enumerate(self.scores) if s == top]

    # ---------------------------------------------------------------- JSON
    def to_dict(self) -> dict[str, Any]:
        return {
            "game": "scruble", "players": self.players, "seed": self.seed, "rules": self.rules.to_dict(),
            "start": self.start_cube.notation(), "cube": self.cube.notation(), "scores": list(self.scores),
            "turn": self.turn, "to_move": self.to_move, "over": self.over,
            "spent_premiums": [[q, word] for q, word, _, _ in self.spent if q != SCORED_WORD],
            "history": [dict(h) for h in self.history],
        }

    @property
    def start_cube(self) -> Cube:
        inv = np.empty(N_CELLS, np.int64)
        inv[self.pegs] = np.arange(N_CELLS)
        return Cube(tuple(self.cube.symbols[inv[c]] for c in range(N_CELLS)))

    @classmethod
    def from_dict(cls, d: Mapping[str, Any], lexicon: Lexicon) -> ScrubleGame:
        """Rebuild by replaying the history from the start cube; any disagreeing key is refused."""
        try:
            rules = ScrubleRules.from_dict(d.get("rules", {}))
            start = Cube.from_notation(d["start"], rules.pegs)
            game = cls.new(int(d["players"]), int(d.get("seed", 0)), rules, start)
            for i, h in enumerate(d.get("history", [])):
                turn = Turn(tuple(h["twists"]), h.get("word"), tuple(h["cells"]) if h.get("cells") else None)
                rec = game.play(turn, lexicon)
                if rec.get("score") != h.get("score", rec.get("score")):
                    raise StateError(f"history turn {i}: score {h.get('score')} but replay gives {rec['score']}")
        except (KeyError, TypeError, ValueError, IllegalMoveError, NotationError) as exc:
            raise StateError(f"bad Scruble state: {exc}") from None
        for key in ("cube", "scores", "turn", "over", "spent_premiums"):
            if key in d and d[key] != game.to_dict()[key]:
                raise StateError(f"bad Scruble state: {key!r} disagrees with the replayed history")
        return game


def replay_check(game: ScrubleGame, lexicon: Lexicon) -> bool:
    """True if the game's JSON replays to the same state."""
    return ScrubleGame.from_dict(game.to_dict(), lexicon).to_dict() == game.to_dict()


def play_game(policies: Sequence[Any], seed: int, lexicon: Lexicon, rules: ScrubleRules | None = None) -> ScrubleGame:
    """Play one game with one policy per seat (``policy(game, lexicon) -> Turn``)."""
    game = ScrubleGame.new(len(policies), seed, rules)
    while not game.over:
        game.play(policies[game.to_move](game, lexicon), lexicon)
    return game


_ = geometry  # tables are built on first use

__all__ = ["ScrubleGame", "Turn", "play_game", "replay_check"]
