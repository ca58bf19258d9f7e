"""Standard crossword notations, so positions and games travel between programs.

- **Coordinates** (GCG, Quackle, Macondo, wolges): an across move is named row first (``8D``: row 8,
  column D, 1-based), a down move column first (``D8``).
- **Placement text**: coordinate and word, e.g. ``8D WO(R)D`` or ``8D WO.D``: letters in parentheses
  or ``.`` are already on the board; a lower-case letter is a blank.
- **GCG** (Poslfit's game format): ``#player1 nick Name`` lines, then one ``>nick: RACK ...`` line a
  turn: ``8D WORD +30 30`` (placement, score, cumulative), ``-ABC +0 30`` (exchange), ``- +0 30``
  (pass), ``-- -30 0`` (a play withdrawn after a challenge), ``(challenge) +5 35`` (bonus for an
  unsuccessful challenge), ``(RACK) +12 42`` (going out: the opponents' rack values) and
  ``RACK (RACK) -12 30`` (own rack value lost at the end).
- **CGP** (Macondo's one-line position): board rows joined by ``/`` with runs of empty squares as
  numbers, the racks (the player to move first) joined by ``/``, the scores joined by ``/``, the
  number of scoreless turns in a row, then options ``name value;`` (e.g. ``lex nl;``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from kubasolve.errors import PositionError
from kubasolve.games.crossword.board import Board

__all__ = ["CgpPosition", "GcgEvent", "GcgGame", "format_coordinate", "format_placement", "parse_cgp", "parse_coordinate",
           "parse_gcg", "parse_placement", "to_cgp", "to_gcg"]

COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def format_coordinate(row: int, col: int, direction: str) -> str:
    """``8D`` for an across word starting at row 7, column 3 (0-based); ``D8`` for a down word."""
    return f"{row + 1}{COLUMNS[col]}" if direction == "across" else f"{COLUMNS[col]}{row + 1}"


def parse_coordinate(text: str) -> tuple[int, int, str]:
    """(row, col, direction), 0-based, from ``8D`` (across) or ``D8`` (down)."""
    m = re.fullmatch(r"(\d{1,2})([A-Za-z])|([A-Za-z])(\d{1,2})", text.strip())
    if not m:
        raise PositionError(f"bad coordinate {text!r}: write 8D (row first: across) or D8 (column first: down)")
    if m.group(1):
        return int(m.group(1)) - 1, COLUMNS.index(m.group(2).upper()), "across"
    return int(m.group(4)) - 1, COLUMNS.index(m.group(3).upper()), "down"


def format_placement(row: int, col: int, direction: str, word: str, tiles: Sequence[tuple[int, int, str]], through: str = ".") -> str:
    """``8D WO.D`` (``through="."``) or ``8D WO(R)D`` (``through="()"``): played-through letters marked."""
    new = {(r, c) for r, c, _ in tiles}
    dr, dc = (0, 1) if direction == "across" else (1, 0)
    out = []
    open_ = False
    for i, ch in enumerate(word):
        old = (row + i * dr, col + i * dc) not in new
        if through == ".":
            out.append("." if old else ch)
            continue
        if old and not open_:
            out.append("(")
            open_ = True
        if not old and open_:
            out.append(")")
            open_ = False
        out.append(ch)
    if open_:
        out.append(")")
    return f"{format_coordinate(row, col, direction)} {''.join(out)}"


def parse_placement(text: str, board: Board) -> tuple[tuple[int, int, str], ...]:
    """The new tiles of ``8D WO(R)D`` / ``8D WO.D`` / ``D8 word`` on ``board``: letters in parentheses
    or ``.`` must be on the board already; a letter on an occupied square must match it."""
    parts = text.split()
    if len(parts) != 2:
        raise PositionError(f"bad move {text!r}: write the coordinate and the word, e.g. 8H WORD or H8 WO(R)D")
    row, col, direction = parse_coordinate(parts[0])
    dr, dc = (0, 1) if direction == "across" else (1, 0)
    n_rows, n_cols = board.shape
    tiles = []
    inside = False
    i = 0
    for ch in parts[1]:
        if ch == "(":
            if inside:
                raise PositionError(f"bad move {text!r}: nested '('")
            inside = True
            continue
        if ch == ")":
            if not inside:
                raise PositionError(f"bad move {text!r}: ')' without '('")
            inside = False
            continue
        r, c = row + i * dr, col + i * dc
        i += 1
        if not (0 <= r < n_rows and 0 <= c < n_cols):
            raise PositionError(f"move {text!r} runs off the board")
        square = board.square(r, c)
        if ch == "." or inside:
            if square == ".":
                raise PositionError(f"move {text!r}: {format_coordinate(r, c, 'across')} is marked as played through but is empty")
            if ch != "." and ch.upper() != square.upper():
                raise PositionError(f"move {text!r}: the board has {square!r} at {format_coordinate(r, c, 'across')}, not {ch!r}")
            continue
        if not ch.isalpha() or len(ch.encode("ascii", "ignore")) != 1:
            raise PositionError(f"move {text!r}: {ch!r} is not a letter")
        if square != ".":
            if square.upper() != ch.upper():
                raise PositionError(f"move {text!r}: the board has {square!r} at {format_coordinate(r, c, 'across')}, not {ch!r}")
            continue
        tiles.append((r, c, ch))
    if inside:
        raise PositionError(f"bad move {text!r}: '(' without ')'")
    if not tiles:
        raise PositionError(f"move {text!r} places no new tile")
    return tuple(tiles)


# ------------------------------------------------------------------------------------------------ CGP
@dataclass(frozen=True)
class CgpPosition:
    """A position in Macondo's CGP: board rows, racks (player to move first), scores, scoreless turns, options."""

    rows: tuple[str, ...]
    racks: tuple[str, ...]
    scores: tuple[int, ...]
    scoreless: int = 0
    options: Mapping[str, str] = field(default_factory=dict)


def to_cgp(rows: Sequence[str], racks: Sequence[str], scores: Sequence[int], scoreless: int = 0,
           options: Mapping[str, str] | None = None) -> str:
    """One line: ``15/15/.../7WORD4/... AEINRST/ 0/0 0 lex nl;`` (racks and scores: player to move first)."""
    enc = []
    for row in rows:
        out, run = [], 0
        for ch in row:
            if ch == ".":
                run += 1
                continue
            if run:
                out.append(str(run))
                run = 0
            out.append(ch)
        if run:
            out.append(str(run))
        enc.append("".join(out))
    racks_txt = "/".join(racks) if len(racks) > 1 else (racks[0] + "/" if racks else "/")
    text = f"{'/'.join(enc)} {racks_txt} {'/'.join(str(s) for s in scores)} {scoreless}"
    for k, v in (options or {}).items():
        text += f" {k} {v};"
    return text


def parse_cgp(text: str, n_rows: int = 15, n_cols: int = 15) -> CgpPosition:
    """A CGP line (board, racks, scores, scoreless turns, options); clear errors naming the bad field."""
    if not isinstance(text, str) or len(text) > 10_000:
        raise PositionError("a CGP position is one line of text")
    fields_ = text.strip().split(None, 4)
    if len(fields_) < 4:
        raise PositionError("a CGP position has 4 fields and options: BOARD RACKS SCORES SCORELESS [opt value; ...]")
    board_txt, racks_txt, scores_txt, zero_txt = fields_[:4]
    rows = []
    for k, part in enumerate(board_txt.split("/")):
        row = re.sub(r"\d+", lambda m: "." * int(m.group(0)), part)
        if len(row) != n_cols or not re.fullmatch(r"[.A-Za-z]*", row):
            raise PositionError(f"CGP board row {k + 1} ({part!r}) does not describe {n_cols} squares of letters and numbers")
        rows.append(row)
    if len(rows) != n_rows:
        raise PositionError(f"the CGP board has {len(rows)} rows, expected {n_rows}")
    racks = tuple(racks_txt.split("/"))
    for r in racks:
        if not re.fullmatch(r"[A-Z?]*", r):
            raise PositionError(f"CGP rack {r!r}: upper-case letters and '?' for blanks")
    try:
        scores = tuple(int(s) for s in scores_txt.split("/"))
        scoreless = int(zero_txt)
    except ValueError:
        raise PositionError(f"CGP scores {scores_txt!r} and scoreless turns {zero_txt!r} must be whole numbers") from None
    if len(scores) != len(racks):
        raise PositionError(f"CGP: {len(racks)} racks but {len(scores)} scores")
    options: dict[str, str] = {}
    if len(fields_) == 5:
        for opt in fields_[4].split(";"):
            if opt.strip():
                name, _, value = opt.strip().partition(" ")
                options[name] = value.strip()
    return CgpPosition(tuple(rows), racks, scores, scoreless, options)


# ------------------------------------------------------------------------------------------------ GCG
@dataclass(frozen=True)
class GcgEvent:
    """One GCG line: who, their rack, what (``place``, ``exchange``, ``pass``, ``withdrawn``,
    ``challenge-bonus``, ``out-bonus``, ``rack-penalty``), the move, the score and the running total."""

    player: int
    rack: str
    kind: str
    score: int
    total: int
    move: str = ""
    """``8D WO.D`` for a placement, the letters for an exchange or a rack adjustment."""
    tiles: tuple[tuple[int, int, str], ...] = ()


@dataclass(frozen=True)
class GcgGame:
    """A whole game as in a GCG file: players (nick, name), events in order, the final board rows."""

    players: tuple[tuple[str, str], ...]
    events: tuple[GcgEvent, ...]
    rows: tuple[str, ...] = ()
    pragmas: tuple[str, ...] = ()

    def scores(self) -> list[int]:
        totals = [0] * len(self.players)
        for e in self.events:
            totals[e.player] = e.total
        return totals


def _events_of_state(state: Any) -> list[GcgEvent]:
    """GCG events of a :class:`~kubasolve.games.crossword.game.CrosswordState` (from its log)."""
    from kubasolve.games.crossword.game import sort_rack

    totals = [0] * state.n_players
    events: list[GcgEvent] = []
    for e in state.log:
        kind = e["type"]
        if kind == "end":
            for p, a in enumerate(e["adjust"]):
                if e["went_out"] == p:
                    totals[p] += a
                    others = sort_rack("".join(r for q, r in enumerate(e["racks"]) if q != p))
                    events.append(GcgEvent(p, "", "out-bonus", a, totals[p], others))
                elif e["racks"][p]:
                    totals[p] += a
                    events.append(GcgEvent(p, e["racks"][p], "rack-penalty", a, totals[p], e["racks"][p]))
            continue
        p = e["player"]
        if kind == "place":
            totals[p] += e["score"]
            tiles = tuple((r, c, ch) for r, c, ch in e["tiles"])
            events.append(GcgEvent(p, e["rack"], "place", e["score"], totals[p],
                                   format_placement(e["row"], e["col"], e["dir"], e["word"], tiles), tiles))
        elif kind == "exchange":
            events.append(GcgEvent(p, e["rack"], "exchange", 0, totals[p], e["letters"]))
        elif kind == "pass":
            events.append(GcgEvent(p, e["rack"], "pass", 0, totals[p]))
        elif kind == "challenge":
            q = e["challenged"]
            if e["result"] == "withdrawn":
                totals[q] += e["score"]
                prev = next(x for x in reversed(events) if x.player == q and x.kind == "place")
                events.append(GcgEvent(q, prev.rack, "withdrawn", e["score"], totals[q]))
            elif e["score"]:
                totals[q] += e["score"]
                prev = next(x for x in reversed(events) if x.player == q and x.kind == "place")
                events.append(GcgEvent(q, prev.rack, "challenge-bonus", e["score"], totals[q]))
            # an unsuccessful challenge without points leaves no GCG line (the lost turn shows as none)
    return events


def to_gcg(game: Any, names: Sequence[str] | None = None, lexicon: str | None = None) -> str:
    """GCG text of a :class:`CrosswordState` (its log) or of a :class:`GcgGame`."""
    if isinstance(game, GcgGame):
        players, events, pragmas = list(game.players), list(game.events), list(game.pragmas)
    else:
        n = game.n_players
        names = list(names or [f"Player {p + 1}" for p in range(n)])
        players = [(f"p{p + 1}", names[p]) for p in range(n)]
        events = _events_of_state(game)
        pragmas = ["#character-encoding UTF-8"] + ([f"#lexicon {lexicon}"] if lexicon else [])
    lines = list(pragmas)
    for k, (nick, name) in enumerate(players):
        lines.append(f"#player{k + 1} {nick} {name}")
    for e in events:
        nick = players[e.player][0]
        head = f">{nick}: {e.rack}" if e.kind != "out-bonus" else f">{nick}:"
        body = {
            "place": e.move,
            "exchange": f"-{e.move}",
            "pass": "-",
            "withdrawn": "--",
            "challenge-bonus": "(challenge)",
            "out-bonus": f"({e.move})",
            "rack-penalty": f"({e.move})",
        }[e.kind]
        lines.append(f"{head} {body} {e.score:+d} {e.total}")
    return "\n".join(lines) + "\n"


_LINE = re.compile(r"^>(?P<nick>[^:\s]+):\s*(?P<rest>.*)$")


def parse_gcg(text: str, n_rows: int = 15, n_cols: int = 15, alphabet: str = "abcdefghijklmnopqrstuvwxyz") -> GcgGame:
    """A GCG game: players, every event (placements resolved to tiles on the board as it grows; a
    withdrawn play takes its tiles off again), final board. Checks the running totals add up."""
    players: list[tuple[str, str]] = []
    pragmas: list[str] = []
    events: list[GcgEvent] = []
    board = Board.empty(n_rows, n_cols, alphabet)
    totals: dict[int, int] = {}
    last_tiles: dict[int, tuple[tuple[int, int, str], ...]] = {}
    for no, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            m = re.match(r"#player(\d+)\s+(\S+)\s*(.*)$", line)
            if m:
                players.append((m.group(2), m.group(3).strip() or m.group(2)))
            elif not line.startswith(("#note", "#rack")):
                pragmas.append(line)
            continue
        m = _LINE.match(line)
        if not m:
            raise PositionError(f"GCG line {no}: not a move line (>nick: RACK MOVE SCORE TOTAL): {line!r}")
        nicks = [n for n, _ in players]
        if m.group("nick") not in nicks:
            raise PositionError(f"GCG line {no}: unknown player {m.group('nick')!r} (declare it with #player1 nick Name)")
        p = nicks.index(m.group("nick"))
        parts = m.group("rest").split()
        try:
            score, total = int(parts[-2]), int(parts[-1])
        except (IndexError, ValueError):
            raise PositionError(f"GCG line {no}: it must end with the score (+30) and the running total") from None
        body = parts[:-2]
        if totals.get(p, 0) + score != total:
            raise PositionError(f"GCG line {no}: {totals.get(p, 0)} {score:+d} is not the total {total}")
        totals[p] = total
        if len(body) == 1 and body[0].startswith("(") and body[0].endswith(")"):
            events.append(GcgEvent(p, "", "out-bonus", score, total, body[0][1:-1]))
            continue
        if not body:
            raise PositionError(f"GCG line {no}: no rack and move")
        rack, what = body[0], body[1:]
        if what == ["--"]:
            tiles = last_tiles.pop(p, ())
            rows = [list(r) for r in board.to_rows()]
            for r, c, _ in tiles:
                rows[r][c] = "."
            board = Board.from_rows(["".join(r) for r in rows], board.alphabet)
            events.append(GcgEvent(p, rack, "withdrawn", score, total))
        elif what == ["-"]:
            events.append(GcgEvent(p, rack, "pass", score, total))
        elif what == ["(challenge)"]:
            events.append(GcgEvent(p, rack, "challenge-bonus", score, total))
        elif len(what) == 1 and what[0].startswith("-"):
            events.append(GcgEvent(p, rack, "exchange", score, total, what[0][1:]))
        elif len(what) == 1 and what[0].startswith("("):
            events.append(GcgEvent(p, rack, "rack-penalty", score, total, what[0].strip("()")))
        elif len(what) == 2:
            try:
                tiles = parse_placement(" ".join(what), board)
                board = board.with_tiles(tiles)
            except PositionError as exc:
                raise PositionError(f"GCG line {no}: {exc}") from None
            last_tiles[p] = tiles
            r, c, d = parse_coordinate(what[0])
            word = _full_word(board, r, c, d)
            events.append(GcgEvent(p, rack, "place", score, total, format_placement(r, c, d, word, tiles), tiles))
        else:
            raise PositionError(f"GCG line {no}: cannot read the move {' '.join(what)!r}")
    if not players:
        raise PositionError("a GCG game declares its players (#player1 nick Name)")
    return GcgGame(tuple(players), tuple(events), tuple(board.to_rows()), tuple(pragmas))


def _full_word(board: Board, row: int, col: int, direction: str) -> str:
    dr, dc = (0, 1) if direction == "across" else (1, 0)
    n_rows, n_cols = board.shape
    out = []
    r, c = row, col
    while 0 <= r < n_rows and 0 <= c < n_cols and board.square(r, c) != ".":
        out.append(board.square(r, c))
        r, c = r + dr, c + dc
    return "".join(out)


def state_to_cgp(state: Any, lexicon: str | None = None) -> str:
    """CGP of a game state, racks and scores rotated so the player to move comes first."""
    n, cur = state.n_players, state.current
    order = [(cur + k) % n for k in range(n)]
    opts = {"lex": lexicon} if lexicon else {}
    return to_cgp(state.board.to_rows(), [state.racks[p] for p in order], [state.scores[p] for p in order], state.scoreless, opts)


def position_dict(pos: CgpPosition) -> dict[str, Any]:
    return {"board": list(pos.rows), "racks": list(pos.racks), "scores": list(pos.scores), "scoreless": pos.scoreless,
            "options": dict(pos.options)}
