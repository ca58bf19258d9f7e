"""Whole crossword games: bag and racks, the state (JSON), the referee (illegal moves refused with the
reason, the state unchanged), play with AI policies, and exact replay from seed + actions.

Actions (one per turn, JSON forms):

- ``{"type": "place", "tiles": [[7, 7, "W"], [7, 8, "o"], ...]}``: tiles ``(row, col, letter)``,
  0-based, a lower-case letter is a blank standing for that letter; or ``{"type": "place", "move":
  "8H WO(R)D"}`` in GCG coordinates (see :mod:`kubasolve.games.crossword.notation`);
- ``{"type": "exchange", "letters": "KQ?"}``: tiles back to the bag (``?`` a blank), as many drawn;
- ``{"type": "pass"}``;
- ``{"type": "challenge"}`` (challenge mode only): the player to move challenges the previous play.

The bag is a sequence: racks are refilled from its front, exchanged tiles go back and the bag is
reshuffled with a generator seeded by (game seed, turn), so a game is a pure function of its seed
and its actions. Rule choices are documented in ``docs/crossword.md``.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from kubasolve.errors import IllegalMoveError, PositionError, StateError
from kubasolve.games.crossword.board import Board
from kubasolve.games.crossword.layout import BLANK, BoardLayout, TileSet, tile_upper
from kubasolve.games.crossword.movegen import Placement
from kubasolve.games.crossword.rules import CrosswordRules
from kubasolve.games.crossword.scoring import score_placement, tile_run
from kubasolve.games.limits import check_seed
from kubasolve.games.turn_play import GameRecord, cached_referee, play_turns, replay_actions
from kubasolve.lexicon import Lexicon
from kubasolve.lexicon.alphabet import normalize_text

__all__ = ["STATE_FORMAT", "CrosswordAction", "CrosswordState", "GameRecord", "JudgedPlacement", "Referee",
           "action_from_dict", "default_referee", "draw_start_player", "play_game", "rack_value", "replay",
           "sort_rack"]

STATE_FORMAT = "kubasolve.crossword.state/1"
MAX_TURNS = 1000
"""A guard for games that never end (with ``scoreless_rounds_end = 0`` and players who only pass)."""
ACTION_TYPES = ("place", "exchange", "pass", "challenge")


def sort_rack(tiles: str) -> str:
    """Rack letters in A..Z order, blanks (``?``) last, e.g. ``"EKNOW??"``."""
    return "".join(sorted(tiles, key=lambda ch: (ch == BLANK, ch)))


def rack_value(rack: str, tiles: TileSet) -> int:
    """Sum of the tile values on a rack (blanks 0)."""
    return sum(tiles.value(ch) for ch in rack)


def draw_start_player(seed: int, n_players: int, tiles: TileSet) -> tuple[int, tuple[tuple[str, ...], ...]]:
    """Who starts: each player draws a tile, the one closest to A starts, a blank beats every letter;
    players who tie draw again. Returns (start player, the draws of each round: one tile per player,
    ``""`` for a player out of the running). Seeded: the same seed gives the same draws."""
    rng = random.Random(f"crossword-start:{seed}")
    pool = [ch for ch in sorted(tiles.counts) for _ in range(tiles.counts[ch])]
    contenders = list(range(n_players))
    rounds: list[tuple[str, ...]] = []
    while True:
        drawn = rng.sample(pool, len(contenders))
        row = [""] * n_players
        for p, t in zip(contenders, drawn, strict=True):
            row[p] = t
        rounds.append(tuple(row))
        rank = {p: (-1 if t == BLANK else ord(t)) for p, t in zip(contenders, drawn, strict=True)}
        low = min(rank.values())
        contenders = [p for p in contenders if rank[p] == low]
        if len(contenders) == 1:
            return contenders[0], tuple(rounds)


@dataclass(frozen=True)
class CrosswordAction:
    """One turn: ``place`` (tiles, or ``move`` text), ``exchange`` (letters), ``pass`` or ``challenge``."""

    type: str
    tiles: tuple[tuple[int, int, str], ...] = ()
    letters: str = ""
    move: str = ""

    def to_dict(self) -> dict[str, Any]:
        if self.type == "place":
            return {"type": "place", "move": self.move} if self.move and not self.tiles else \
                {"type": "place", "tiles": [[r, c, ch] for r, c, ch in self.tiles]}
        if self.type == "exchange":
            return {"type": "exchange", "letters": self.letters}
        return {"type": self.type}

    @classmethod
    def place(cls, placement: Placement) -> CrosswordAction:
        return cls("place", tuple(placement.tiles))


def action_from_dict(data: CrosswordAction | Mapping[str, Any]) -> CrosswordAction:
    """An action from its JSON form; every key and type checked, clear errors."""
    if isinstance(data, CrosswordAction):
        return data
    if not isinstance(data, Mapping):
        raise IllegalMoveError('an action must be an object such as {"type": "pass"}')
    kind = data.get("type")
    allowed = {"place": {"type", "tiles", "move"}, "exchange": {"type", "letters"}, "pass": {"type"}, "challenge": {"type"}}
    if kind not in allowed:
        raise IllegalMoveError(f"unknown action type {kind!r}; types: {', '.join(ACTION_TYPES)}", key="action.type")
    unknown = set(data) - allowed[kind]
    if unknown:
        raise IllegalMoveError(f"unknown key(s) in a {kind} action: {', '.join(sorted(unknown))}", key=f"action.{min(unknown)}")
    if kind in ("pass", "challenge"):
        return CrosswordAction(kind)
    if kind == "exchange":
        letters = data.get("letters")
        if not isinstance(letters, str) or not letters.strip():
            raise IllegalMoveError('an exchange needs "letters": the tiles to give back, e.g. "KQ?"')
        text = normalize_text(letters.strip())
        odd = sorted({ch for ch in text if tile_upper(ch) is None})
        if odd:  # 'ß' is not two S tiles, nor the dotless 'ı' an I
            raise IllegalMoveError(f"exchange letters {letters!r} hold {''.join(odd)!r}: not tiles (letters, '?' for a blank)")
        return CrosswordAction("exchange", letters=sort_rack(text.upper()))
    if ("tiles" in data) == ("move" in data):
        raise IllegalMoveError('a place action needs exactly one of "tiles" ([[row, col, letter], ...]) or "move" ("8H WORD")')
    if "move" in data:
        move = data["move"]
        if not isinstance(move, str) or not move.strip() or len(move) > 100:
            raise IllegalMoveError('"move" must be a text such as "8H WORD" or "H8 WO(R)D"')
        return CrosswordAction("place", move=normalize_text(move.strip()))
    raw = data["tiles"]
    if not isinstance(raw, list) or not raw:
        raise IllegalMoveError('"tiles" must be a non-empty list of [row, col, letter]')
    if len(raw) > 30:
        raise IllegalMoveError("too many tiles in one move")
    tiles = []
    for k, t in enumerate(raw):
        if isinstance(t, (list, tuple)) and len(t) == 3 and isinstance(t[2], str):
            t = [t[0], t[1], normalize_text(t[2])]
        if (not isinstance(t, (list, tuple)) or len(t) != 3 or not all(isinstance(v, int) and not isinstance(v, bool) for v in t[:2])
                or not isinstance(t[2], str) or len(t[2]) != 1 or not t[2].isalpha()):
            raise IllegalMoveError(f"tile {k} must be [row, col, letter] (0-based; a lower-case letter is a blank), got {t!r}")
        tiles.append((int(t[0]), int(t[1]), str(t[2])))
    return CrosswordAction("place", tuple(tiles))


@dataclass(frozen=True)
class JudgedPlacement:
    """A placement checked for geometry and rack: the scored move and the words it forms."""

    placement: Placement
    words: tuple[str, ...]
    """Every word formed (main word first), upper case."""
    invalid: tuple[str, ...]
    """The words not in the lexicon (empty for a valid move)."""


@dataclass(frozen=True)
class LastPlay:
    """The previous placement, while it may still be challenged (challenge mode)."""

    player: int
    tiles: tuple[tuple[int, int, str], ...]
    score: int
    drawn: str
    words: tuple[str, ...]
    scoreless_before: int
    went_out: bool

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player, "tiles": [list(t) for t in self.tiles], "score": self.score, "drawn": self.drawn,
                "words": list(self.words), "scoreless_before": self.scoreless_before, "went_out": self.went_out}


@dataclass(frozen=True)
class CrosswordState:
    """Everything about a game in progress; immutable (the referee returns new states)."""

    rules: CrosswordRules
    seed: int
    n_players: int
    board: Board
    bag: str
    racks: tuple[str, ...]
    scores: tuple[int, ...]
    current: int
    start_draws: tuple[tuple[str, ...], ...] = ()
    turn: int = 1
    scoreless: int = 0
    """Scoreless turns in a row (passes, withdrawn plays, lost challenges; exchanges where
    ``rules.exchange_is_scoreless``)."""
    over: bool = False
    went_out: int | None = None
    scores_before_end: tuple[int, ...] | None = None
    """The scores before the end-of-game rack adjustments (the tie-break)."""
    last_play: LastPlay | None = None
    history: tuple[tuple[int, CrosswordAction], ...] = ()
    log: tuple[dict[str, Any], ...] = field(default=())
    """One entry per action: what happened (for GCG export and display), see :meth:`Referee.apply`."""
    origin: str | None = None
    """The GCG text of the position the game started from (a game continued from a GCG file: ``history`` replays
    from :func:`~kubasolve.games.crossword.notation.state_from_gcg` of it with ``seed``); None: dealt from ``seed``."""

    def rack(self, player: int | None = None) -> str:
        return self.racks[self.current if player is None else player]

    def unseen(self, player: int | None = None) -> str:
        """Tiles ``player`` cannot see: the bag and the other racks (what an opponent may hold)."""
        p = self.current if player is None else player
        return sort_rack(self.bag + "".join(r for q, r in enumerate(self.racks) if q != p))

    def winners(self) -> list[int]:
        """Highest final score; ties broken by the higher score before the end adjustments."""
        best = max(self.scores)
        top = [p for p, s in enumerate(self.scores) if s == best]
        if len(top) > 1 and self.scores_before_end is not None:
            pre = max(self.scores_before_end[p] for p in top)
            top = [p for p in top if self.scores_before_end[p] == pre]
        return top

    def to_dict(self) -> dict[str, Any]:
        """The state as JSON; ``origin`` only for a game continued from a GCG file (older states have no such key)."""
        return {
            "format": STATE_FORMAT, "rules": self.rules.to_dict(), "seed": self.seed, "n_players": self.n_players,
            **({} if self.origin is None else {"origin": self.origin}),
            "start_draws": [list(r) for r in self.start_draws], "board": self.board.to_rows(), "bag": self.bag,
            "racks": list(self.racks), "scores": list(self.scores), "current": self.current, "turn": self.turn,
            "scoreless": self.scoreless, "over": self.over, "went_out": self.went_out,
            "scores_before_end": None if self.scores_before_end is None else list(self.scores_before_end),
            "last_play": None if self.last_play is None else self.last_play.to_dict(),
            "history": [[p, a.to_dict()] for p, a in self.history], "log": [dict(e) for e in self.log],
        }

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], referee: Referee | None = None) -> CrosswordState:
        """A state from JSON, validated: the tiles add up to the tile set, then the history replayed from
        the seed (or from ``origin``, the GCG game it continued, with the seed) must give exactly this state (else
        :class:`StateError` naming the first difference)."""
        if not isinstance(data, Mapping) or data.get("format") != STATE_FORMAT:
            raise StateError(f"not a crossword state (format {STATE_FORMAT!r} expected)")
        try:
            rules = CrosswordRules.from_dict(data["rules"])
            seed, n = data["seed"], data["n_players"]
            history = [(p, action_from_dict(a)) for p, a in data["history"]]
            board_rows, bag, racks = data["board"], data["bag"], data["racks"]
            origin = data.get("origin")
        except (KeyError, TypeError, ValueError) as exc:
            raise StateError(f"incomplete crossword state: missing or bad {exc}") from None
        if origin is not None and not isinstance(origin, str):
            raise StateError("origin: the GCG text the game started from (or no such key)", key="state.native.origin")
        if not isinstance(seed, int) or not isinstance(n, int) or not all(isinstance(p, int) for p, _ in history):
            raise StateError("seed, n_players and the history's players must be integers")
        if not isinstance(bag, str) or not isinstance(racks, list) or not all(isinstance(r, str) for r in racks) \
                or not isinstance(board_rows, list) or not all(isinstance(r, str) for r in board_rows):
            raise StateError("board (list of row strings), bag (string) and racks (list of strings) are required")
        tiles = rules.tile_set()
        on_board = Counter(BLANK if ch.islower() else ch for row in board_rows for ch in row if ch != ".")
        held = on_board + Counter(bag) + Counter("".join(racks))
        if held != Counter(tiles.counts):
            diff = {k: held.get(k, 0) - tiles.counts.get(k, 0) for k in set(held) | set(tiles.counts) if held.get(k, 0) != tiles.counts.get(k, 0)}
            raise StateError("the tiles on the board, in the bag and on the racks do not add up to the tile set "
                             f"{tiles.name!r}: " + ", ".join(f"{k} {v:+d}" for k, v in sorted(diff.items())))
        ref = referee if referee is not None and referee.rules == rules else default_referee(rules, referee.lexicon if referee else None)
        try:
            state = replay(seed, history, n, ref, origin=origin)
        except IllegalMoveError as exc:
            raise StateError(f"the state's history is not legal: {exc}") from None
        except PositionError as exc:  # (only from origin: the GCG game the state started from)
            raise StateError(f"origin: the GCG game the state started from does not load: {exc}", key="state.native.origin") from None
        mine = state.to_dict()
        for key in mine:
            if key not in data:
                raise StateError(f"the state lacks {key!r}")
            if mine[key] != data[key]:
                raise StateError(f"the state contradicts its own history at {key!r} (replaying the seed and actions gives {mine[key]!r})")
        extra = set(data) - set(mine)
        if extra:
            raise StateError(f"unknown key(s) in the state: {', '.join(sorted(extra))}")
        return state

    @classmethod
    def from_json(cls, text: str, referee: Referee | None = None) -> CrosswordState:
        try:
            data = json.loads(text)
        except RecursionError:  # json decodes nested arrays and objects recursively
            raise StateError("the state is not valid JSON: nested too deeply") from None
        except json.JSONDecodeError as exc:
            raise StateError(f"the state is not valid JSON: {exc}") from None
        return cls.from_dict(data, referee)


def take_from_rack(rack: str, tiles: str) -> str:
    """``rack`` without ``tiles`` (``?`` or a lower-case letter takes a blank); IllegalMoveError names the missing ones."""
    need = Counter(BLANK if ch.islower() or ch == BLANK else ch for ch in tiles)
    short = need - Counter(rack)
    if short:
        raise IllegalMoveError(f"tiles not on the rack {rack!r}: {sort_rack(''.join(short.elements()))}")
    return sort_rack("".join((Counter(rack) - need).elements()))


class Referee:
    """Applies actions to states under one lexicon and rule set."""

    def __init__(self, lexicon: Lexicon, rules: CrosswordRules | None = None) -> None:
        self.lexicon = lexicon
        self.rules = rules or CrosswordRules()
        self.tiles: TileSet = self.rules.tile_set()
        self.layout: BoardLayout = self.rules.board_layout()
        missing = [ch for ch in self.tiles.letters if ch.lower() not in lexicon.alphabet]
        if missing:
            raise IllegalMoveError(f"tile letters {''.join(missing)!r} are not in the lexicon's alphabet {lexicon.alphabet.letters!r}")

    # ---------------------------------------------------------------- setup
    def new_game(self, seed: int, n_players: int = 2) -> CrosswordState:
        """Draw for the start player, shuffle the bag with ``seed`` and fill every rack."""
        if not isinstance(n_players, int) or isinstance(n_players, bool) or not self.rules.min_players <= n_players <= self.rules.max_players:
            raise IllegalMoveError(f"{self.rules.min_players} to {self.rules.max_players} players, got {n_players!r}")
        check_seed(seed)  # a whole number 0..2**63-1 (KubasolveError, key "seed"), as load_game(...).new_game
        start, draws = draw_start_player(seed, n_players, self.tiles)
        bag = [ch for ch in sorted(self.tiles.counts) for _ in range(self.tiles.counts[ch])]
        random.Random(f"crossword:{seed}").shuffle(bag)
        racks = []
        size = self.rules.rack_size
        for _ in range(n_players):
            racks.append(sort_rack("".join(bag[:size])))
            bag = bag[size:]
        board = Board.empty(self.layout.rows, self.layout.cols, self.lexicon.alphabet)
        return CrosswordState(self.rules, seed, n_players, board, "".join(bag), tuple(racks), (0,) * n_players, start, draws)

    # ---------------------------------------------------------------- judging
    def judge_placement(self, board: Board, rack: str, tiles: Sequence[tuple[int, int, str]]) -> JudgedPlacement:
        """Check a placement's tiles against the rack and the board geometry (the rules quoted in
        docs/crossword.md) and score it; IllegalMoveError with the reason otherwise. Words outside the
        lexicon are reported in ``invalid``, not refused here (the word check is the caller's)."""
        n_rows, n_cols = board.shape
        if not tiles:
            raise IllegalMoveError("a placement needs at least one tile")
        seen = set()
        for r, c, ch in tiles:
            if not (0 <= r < n_rows and 0 <= c < n_cols):
                raise IllegalMoveError(f"tile {ch!r} at row {r}, column {c} is off the {n_rows}x{n_cols} board")
            if (r, c) in seen:
                raise IllegalMoveError(f"two tiles on the same square (row {r}, column {c})")
            seen.add((r, c))
            if board.square(r, c) != ".":
                raise IllegalMoveError(f"square row {r}, column {c} is already occupied by {board.square(r, c)!r}")
            if ch.upper() not in self.tiles.values or ch.lower() not in self.lexicon.alphabet:
                raise IllegalMoveError(f"{ch!r} is not a letter of the {self.tiles.name!r} tiles")
        take_from_rack(rack, "".join(ch for _, _, ch in tiles))
        rows = {r for r, _, _ in tiles}
        cols = {c for _, c, _ in tiles}
        if len(rows) > 1 and len(cols) > 1:
            raise IllegalMoveError("the tiles are not in one row or one column")
        cells = [list(row) for row in board.to_rows()]
        for r, c, ch in tiles:
            cells[r][c] = ch
        if len(rows) == 1 and len(tiles) > 1:
            d = 0
        elif len(cols) == 1 and len(tiles) > 1:
            d = 1
        else:  # one tile: the across word if it forms one, else the down word
            r, c, _ = tiles[0]
            d = 0 if tile_run(cells, r, c, 0, 1)[2] >= 2 else 1
        dr, dc = (0, 1) if d == 0 else (1, 0)
        ordered = sorted(tiles, key=lambda t: (t[0], t[1]))
        r0, c0, n = tile_run(cells, ordered[0][0], ordered[0][1], dr, dc)
        last = ordered[-1]
        if (last[0] - r0) * dr + (last[1] - c0) * dc >= n:
            raise IllegalMoveError("the tiles leave a gap: a word must be one unbroken line of tiles")
        if board.is_empty():
            if not any((r, c) == self.layout.centre for r, c, _ in tiles):
                cr, cc = self.layout.centre
                raise IllegalMoveError(f"the first word must cover the centre square (row {cr}, column {cc})")
            if len(tiles) < 2:
                raise IllegalMoveError("the first word needs at least 2 letters")
        else:
            touches = any(0 <= r + a < n_rows and 0 <= c + b < n_cols and board.square(r + a, c + b) != "."
                          for r, c, _ in tiles for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1)))
            if not touches:
                raise IllegalMoveError("the tiles do not touch any tile on the board")
        words = []
        if n >= 2:
            words.append("".join(cells[r0 + i * dr][c0 + i * dc] for i in range(n)))
        for r, c, _ in ordered:
            cr, cc, cn = tile_run(cells, r, c, dc, dr)
            if cn >= 2:
                words.append("".join(cells[cr + i * dc][cc + i * dr] for i in range(cn)))
        if not words:
            raise IllegalMoveError("the tiles form no word of 2 or more letters")
        placement = self._score(board, rack, ordered, d)
        invalid = tuple(dict.fromkeys(w.upper() for w in words if w.lower() not in self.lexicon))
        return JudgedPlacement(placement, tuple(w.upper() for w in words), invalid)

    def _score(self, board: Board, rack: str, tiles: Sequence[tuple[int, int, str]], d: int) -> Placement:
        """The placement scored by the package's one scorer, whatever its words (challenge mode scores an
        invalid word too); the geometry was checked by the caller."""
        move = score_placement(board.to_rows(), tuple(tiles), d, self.layout, self.tiles, rack_tiles=len(rack),
                               rack_size=self.rules.rack_size, bingo_bonus=self.rules.bingo_bonus)
        if move is None:  # the geometry was checked above; this would be a bug
            raise IllegalMoveError("the placement could not be scored")
        return move

    def resolve(self, state: CrosswordState, action: CrosswordAction) -> CrosswordAction:
        """A place action given as ``move`` text turned into tiles on the current board."""
        if action.type != "place" or action.tiles:
            return action
        from kubasolve.games.crossword.notation import parse_placement

        try:
            return CrosswordAction("place", parse_placement(action.move, state.board))
        except PositionError as exc:
            raise IllegalMoveError(str(exc)) from None

    # ---------------------------------------------------------------- applying
    def apply(self, state: CrosswordState, action: CrosswordAction | Mapping[str, Any]) -> CrosswordState:
        """The state after ``action`` by the player to move; IllegalMoveError (state unchanged) otherwise.

        Log entries: ``{"player", "type", "rack"}`` plus ``tiles, row, col, dir, word, score, words`` for a
        placement, ``letters`` for an exchange, ``result`` (``withdrawn``/``valid``) and ``score`` for a
        challenge, and a final ``{"type": "end", "adjust": [...], "went_out"}``.
        """
        if state.over:
            raise IllegalMoveError("the game is over")
        act = self.resolve(state, action_from_dict(action))
        if act.type == "challenge":
            return self._challenge(state, act)
        if state.last_play is not None and state.last_play.went_out and act.type != "pass":
            raise IllegalMoveError("the previous player went out: challenge their play or pass (accept it) to end the game")
        p = state.current
        rack = state.racks[p]
        bag = state.bag
        scores = list(state.scores)
        entry: dict[str, Any] = {"player": p, "type": act.type, "rack": rack}
        last_play = None
        board = state.board
        if act.type == "place":
            judged = self.judge_placement(board, rack, act.tiles)
            if judged.invalid and self.rules.word_check == "referee":
                raise IllegalMoveError(f"not in the lexicon: {', '.join(judged.invalid)}")
            move = judged.placement
            board = board.with_tiles(move.tiles)
            rest = take_from_rack(rack, "".join(ch for _, _, ch in move.tiles))
            drawn, bag = bag[: self.rules.rack_size - len(rest)], bag[self.rules.rack_size - len(rest):]
            rack = sort_rack(rest + drawn)
            scores[p] += move.score
            scoreless = 0
            entry.update(tiles=[list(t) for t in move.tiles], row=move.row, col=move.col, dir=move.direction, word=move.word,
                         score=move.score, words=list(judged.words))
            went_out = not rack and not bag
            if self.rules.word_check == "challenge":
                last_play = LastPlay(p, move.tiles, move.score, drawn, judged.words, state.scoreless, went_out)
        elif act.type == "exchange":
            if len(bag) < self.rules.exchange_min_bag:
                raise IllegalMoveError(f"no exchange with fewer than {self.rules.exchange_min_bag} tiles in the bag (it holds {len(bag)})")
            if len(act.letters) > len(bag):
                raise IllegalMoveError(f"cannot exchange {len(act.letters)} tiles: the bag holds {len(bag)}")
            rest = take_from_rack(rack, act.letters)
            drawn, rest_bag = bag[: len(act.letters)], list(bag[len(act.letters):]) + list(act.letters)
            random.Random(f"crossword:{state.seed}:exchange:{state.turn}").shuffle(rest_bag)
            bag = "".join(rest_bag)
            rack = sort_rack(rest + drawn)
            scoreless = state.scoreless + 1 if self.rules.exchange_is_scoreless else 0
            went_out = False
            entry.update(letters=act.letters, score=0)
        else:  # pass (also: accepting a going-out play in challenge mode)
            scoreless = state.scoreless + 1
            went_out = False
            entry.update(score=0)
            if state.last_play is not None and state.last_play.went_out:
                new = replace(state, history=state.history + ((p, act),), log=state.log + (entry,), last_play=None, turn=state.turn + 1)
                return self._finish(new, state.last_play.player)
        racks = list(state.racks)
        racks[p] = rack
        new = replace(state, board=board, bag=bag, racks=tuple(racks), scores=tuple(scores), current=(p + 1) % state.n_players,
                      turn=state.turn + 1, scoreless=scoreless, last_play=last_play, history=state.history + ((p, act),),
                      log=state.log + (entry,))
        if went_out and last_play is None:
            return self._finish(new, p)
        return self._maybe_stalled(new)

    def _challenge(self, state: CrosswordState, act: CrosswordAction) -> CrosswordState:
        if self.rules.word_check != "challenge":
            raise IllegalMoveError("challenges are off: the referee checks every word (rule setting word_check)")
        last = state.last_play
        if last is None:
            raise IllegalMoveError("there is no play to challenge (only the previous placement can be challenged, once)")
        q = state.current
        invalid = [w for w in last.words if w.lower() not in self.lexicon]
        entry: dict[str, Any] = {"player": q, "type": "challenge", "rack": state.racks[q], "challenged": last.player}
        scores = list(state.scores)
        history = state.history + ((q, act),)
        if invalid:  # withdrawn: tiles back to the rack, drawn tiles back to the bag front, points off
            p = last.player
            board_rows = [list(row) for row in state.board.to_rows()]
            for r, c, _ in last.tiles:
                board_rows[r][c] = "."
            board = Board.from_rows(["".join(row) for row in board_rows], state.board.alphabet)
            rest = take_from_rack(state.racks[p], last.drawn)
            racks = list(state.racks)
            racks[p] = sort_rack(rest + "".join(BLANK if ch.islower() else ch for _, _, ch in last.tiles))
            scores[p] -= last.score
            entry.update(result="withdrawn", score=-last.score, invalid=invalid)
            new = replace(state, board=board, bag=last.drawn + state.bag, racks=tuple(racks), scores=tuple(scores),
                          turn=state.turn + 1, scoreless=last.scoreless_before + 1, last_play=None, history=history,
                          log=state.log + (entry,))
            return self._maybe_stalled(new)
        entry.update(result="valid", score=0)
        current, scoreless = q, state.scoreless
        if self.rules.failed_challenge == "lose-turn":
            current, scoreless = (q + 1) % state.n_players, state.scoreless + 1
        elif self.rules.failed_challenge == "points":
            scores[last.player] += self.rules.failed_challenge_points
            entry.update(score=self.rules.failed_challenge_points)
        new = replace(state, scores=tuple(scores), current=current, turn=state.turn + 1, scoreless=scoreless, last_play=None,
                      history=history, log=state.log + (entry,))
        if last.went_out:
            return self._finish(new, last.player)
        return self._maybe_stalled(new)

    def _maybe_stalled(self, state: CrosswordState) -> CrosswordState:
        limit = self.rules.scoreless_limit(state.n_players)
        if (limit and state.scoreless >= limit and state.last_play is None) or state.turn > MAX_TURNS:
            return self._finish(state, None)
        return state

    def _finish(self, state: CrosswordState, went_out: int | None) -> CrosswordState:
        """End of the game: each player loses their rack value; a player who went out gains the others'."""
        values = [rack_value(r, self.tiles) for r in state.racks]
        adjust = [-v for v in values]
        if went_out is not None:
            adjust[went_out] = sum(values)
        scores = tuple(s + a for s, a in zip(state.scores, adjust, strict=True))
        entry = {"type": "end", "adjust": adjust, "went_out": went_out, "racks": list(state.racks)}
        return replace(state, over=True, went_out=went_out, scores_before_end=state.scores, scores=scores,
                       last_play=None, log=state.log + (entry,))


_REFEREES: dict[tuple[int, Any], Referee] = {}


def default_referee(rules: CrosswordRules | None = None, lexicon: Lexicon | None = None) -> Referee:
    """A cached referee over the bundled Dutch lexicon (or ``lexicon``)."""
    return cached_referee(_REFEREES, Referee, rules or CrosswordRules(), lexicon, "nl")


class Policy(Protocol):
    name: str

    def turn(self, referee: Referee, state: CrosswordState) -> CrosswordAction: ...


def play_game(policies: Sequence[Policy], seed: int, referee: Referee | None = None) -> GameRecord:
    """Play a whole game, policy ``i`` seated as player ``i``; deterministic for a seed."""
    return play_turns(policies, seed, referee or default_referee())


def replay(seed: int, actions: Sequence[Any], n_players: int = 2, referee: Referee | None = None,
           origin: str | None = None) -> CrosswordState:
    """The state reached by applying ``actions`` (objects, JSON forms or (player, action) pairs) to the
    game dealt from ``seed`` (with ``origin``: to the end of that GCG game, the racks it does not give drawn with
    ``seed``; a :class:`PositionError` when it does not load); a recorded player who is not the one to move is an
    error."""
    ref = referee or default_referee()
    start = None
    if origin is not None:
        from kubasolve.games.crossword.notation import state_from_gcg

        start = state_from_gcg(ref, origin, seed)
        if start.n_players != n_players:
            raise PositionError(f"the GCG game has {start.n_players} players, the state {n_players}")
    state: CrosswordState = replay_actions(ref, seed, actions, n_players, to_move="is to move", start=start)
    return state
