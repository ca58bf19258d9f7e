"""Standard crossword notations, so positions and games travel between programs.

- **Coordinates** (GCG, Quackle, Macondo, wolges): an across move is named row first (``8D``: row 8,
  column D, 1-based), a down move column first (``D8``).
- **Placement text**: coordinate and word, e.g. ``8D WO(R)D`` or ``8D WO.D``: letters in parentheses
  or ``.`` are already on the board; a lower-case letter is a blank.
- **GCG** (Poslfit's game format, as Quackle, Macondo and Woogles write it): ``#player1 nick Name``
  lines, then one ``>nick: RACK ...`` line a turn: ``8D WORD +30 30`` (placement, score, cumulative),
  ``-ABC +0 30`` (exchange; ``-3`` when only the count is known), ``- +0 30`` (pass), ``-- -30 0`` (a
  play withdrawn after a challenge), ``(challenge) +5 35`` (bonus for an unsuccessful challenge),
  ``(RACK) +12 42`` (going out: the opponents' rack values), ``RACK (RACK) -12 30`` (own rack value
  lost at the end) and ``(time) -10 20`` (a time penalty). Text after the running total is kept as a
  note, as Quackle does. ``#note`` lines (and the lines after them up to the next ``>`` or ``#`` line,
  as Macondo writes long notes) belong to the event before them; ``#rack1``/``#rack2`` give the racks
  at the end of the file (the position to continue or analyse), ``#lexicon`` the word list. Two
  players may share a nick (Quackle writes ``NoName`` for both when nobody is named): a move line
  then belongs to the one whose running total it continues, or on a tie to the one whose turn it is.
  A file's bytes are read by :func:`decode_gcg`: the encoding of a first line
  ``#character-encoding UTF-8``, else UTF-8, else ISO-8859-1 (the format's default).
- **CGP** (Macondo's one-line position): board rows joined by ``/`` with runs of empty squares as
  numbers, the racks (the player to move first) joined by ``/``, the scores joined by ``/``, the
  number of scoreless turns in a row, then operations ``opcode value;`` (e.g. ``lex nl;``):
  :func:`cgp_settings` honours those that change play (``bb``, ``lex``, ``ld``, ``etl``, ``mcnz``,
  ``cr``) and lists the others as not used.

Every count read from a notation (a run of empty squares, a score, a rack, a number of lines) is
bounded before anything is allocated, and every error names the field or line.
"""

from __future__ import annotations

import codecs
import contextlib
import random
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from kubasolve.errors import PositionError
from kubasolve.games.crossword.board import Board
from kubasolve.games.limits import check_seed
from kubasolve.lexicon.alphabet import normalize_text

__all__ = ["CgpPosition", "CgpSettings", "GcgEvent", "GcgGame", "cgp_settings", "file_lexicon", "format_coordinate", "format_placement",
           "parse_cgp", "parse_coordinate", "decode_gcg", "parse_gcg", "parse_placement", "state_from_gcg", "to_cgp", "to_gcg"]

COLUMNS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_CGP_LENGTH = 10_000
MAX_GCG_LENGTH = 1_000_000
"""A GCG file of a long four-player game is some 10 kB; Macondo refuses more than 100 kB."""
MAX_GCG_EVENTS = 2_000
MAX_NUMBER_DIGITS = 7
"""Scores, totals and counts in a notation: at most 7 digits (a game's score never nears 10^7)."""
MAX_RACKS = 4


def format_coordinate(row: int, col: int, direction: str) -> str:
    """``8D`` for an across word starting at row 7, column 3 (0-based); ``D8`` for a down word."""
    return f"{row + 1}{COLUMNS[col]}" if direction == "across" else f"{COLUMNS[col]}{row + 1}"


def parse_coordinate(text: str) -> tuple[int, int, str]:
    """(row, col, direction), 0-based, from ``8D`` (across) or ``D8`` (down)."""
    m = re.fullmatch(r"([0-9]{1,2})([A-Za-z])|([A-Za-z])([0-9]{1,2})", text.strip())
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
    parts = normalize_text(text).split()
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


def _cgp_row(part: str, k: int, n_cols: int) -> str:
    """One CGP board row: letters and runs of empty squares, each run checked against the width before
    it is expanded (``2999999999`` is refused, not allocated)."""
    out: list[str] = []
    width = 0
    for m in re.finditer(r"([0-9]+)|([A-Za-z])|(.)", part):
        digits, letter, other = m.groups()
        if other is not None:
            raise PositionError(f"CGP board row {k + 1} ({part[:40]!r}): {other!r} is not a letter or a number of empty squares")
        run = 1 if letter else (int(digits) if len(digits) <= 3 else n_cols + 1)
        if letter is None and run == 0:
            raise PositionError(f"CGP board row {k + 1} ({part[:40]!r}): a run of 0 empty squares")
        width += run
        if width > n_cols:
            raise PositionError(f"CGP board row {k + 1} ({part[:40]!r}) describes more than the board's {n_cols} squares")
        out.append(letter or "." * run)
    row = "".join(out)
    if len(row) != n_cols:
        raise PositionError(f"CGP board row {k + 1} ({part[:40]!r}) describes {len(row)} squares, not {n_cols}")
    return row


def _whole_number(text: str, what: str, signed: bool = False) -> int:
    """A bounded whole number of a notation (at most :data:`MAX_NUMBER_DIGITS` digits), else PositionError naming ``what``."""
    pattern = rf"[+-]?[0-9]{{1,{MAX_NUMBER_DIGITS}}}" if signed else rf"[0-9]{{1,{MAX_NUMBER_DIGITS}}}"
    if not re.fullmatch(pattern, text):
        kind = "a whole number" if signed else "a whole number >= 0"
        raise PositionError(f"{what} {text[:20]!r} must be {kind} of at most {MAX_NUMBER_DIGITS} digits")
    return int(text)


def parse_cgp(text: str, n_rows: int = 15, n_cols: int = 15) -> CgpPosition:
    """A CGP line (board, racks, scores, scoreless turns, operations); clear errors naming the bad field."""
    if not isinstance(text, str) or len(text) > MAX_CGP_LENGTH or "\n" in text.strip():
        raise PositionError(f"a CGP position is one line of text (at most {MAX_CGP_LENGTH:,} characters)")
    fields_ = normalize_text(text).strip().split(None, 4)
    if len(fields_) < 4:
        raise PositionError("a CGP position has 4 fields and options: BOARD RACKS SCORES SCORELESS [opt value; ...]")
    board_txt, racks_txt, scores_txt, zero_txt = fields_[:4]
    parts = board_txt.split("/")
    if len(parts) != n_rows:
        raise PositionError(f"the CGP board has {len(parts)} rows, expected {n_rows}")
    rows = [_cgp_row(part, k, n_cols) for k, part in enumerate(parts)]
    racks = tuple(racks_txt.split("/"))
    if len(racks) > MAX_RACKS:
        raise PositionError(f"CGP: {len(racks)} racks, at most {MAX_RACKS} players")
    for r in racks:
        if not re.fullmatch(r"[A-Z?]{0,15}", r):
            raise PositionError(f"CGP rack {r[:20]!r}: at most 15 upper-case letters and '?' for blanks")
    scores = tuple(_whole_number(s, "CGP score", signed=True) for s in scores_txt.split("/"))
    scoreless = _whole_number(zero_txt, "CGP scoreless turns")
    if len(scores) != len(racks):
        raise PositionError(f"CGP: {len(racks)} racks but {len(scores)} scores")
    options: dict[str, str] = {}
    if len(fields_) == 5:
        for opt in fields_[4].split(";"):
            if opt.strip():
                name, _, value = opt.strip().partition(" ")
                options[name] = value.strip()
    return CgpPosition(tuple(rows), racks, scores, scoreless, options)


LETTER_DISTRIBUTIONS = {"nl": "nl", "dutch": "nl", "en": "en", "english": "en"}
"""CGP ``ld`` names (Macondo's and kubasolve's) of the bundled tile sets."""
CHALLENGE_RULES: dict[str, dict[str, Any]] = {
    "void": {"word_check": "referee"},
    "single": {"word_check": "challenge", "failed_challenge": "none"},
    "double": {"word_check": "challenge", "failed_challenge": "lose-turn"},
    "5pt": {"word_check": "challenge", "failed_challenge": "points", "failed_challenge_points": 5},
    "10pt": {"word_check": "challenge", "failed_challenge": "points", "failed_challenge_points": 10},
}
"""CGP ``cr`` challenge rules as rule settings (``triple``, losing the game, has no setting and is refused)."""
USED_OPCODES = ("bb", "lex", "ld", "etl", "mcnz", "cr")


@dataclass(frozen=True)
class CgpSettings:
    """What a CGP's operations change: the lexicon and tile set by name, rule settings, and the opcodes not used."""

    lexicon: str | None = None
    tiles: str | None = None
    rules: Mapping[str, Any] = field(default_factory=dict)
    unused: tuple[str, ...] = ()
    replaced_lexicon: str | None = None
    """The CGP's ``lex`` when the caller named another lexicon, which is played instead."""

    def notice(self) -> str:
        """One line for stderr naming the operations kubasolve did not use ("" when all were used)."""
        notes = []
        if self.unused:
            notes.append(f"CGP operation(s) not used by kubasolve: {', '.join(self.unused)}")
        if self.replaced_lexicon is not None:
            notes.append(f"CGP lex {self.replaced_lexicon!r} replaced by the lexicon asked for, {self.lexicon!r}")
        return "; ".join(notes)


def cgp_settings(pos: CgpPosition, lexicons: Sequence[str] = (), given_lexicon: str | None = None) -> CgpSettings:
    """The operations of ``pos`` that change play: ``bb`` (bingo bonus), ``lex`` (one of ``lexicons``, the
    bundled names; any other is refused by name), ``ld`` (``nl``/``dutch``, ``en``/``english``), ``etl``
    (exchange limit), ``mcnz`` (scoreless turns that end the game), ``cr`` (challenge rule). The other
    operations (``gid``, ``lm``, ``tmr``, ``bdn``, ...) are listed in ``unused``."""
    opts = dict(pos.options)
    rules: dict[str, Any] = {}
    lexicon = tiles = None
    if "bb" in opts:
        rules["bingo_bonus"] = _whole_number(opts["bb"], "CGP bb (bingo bonus)")
    if "etl" in opts:
        rules["exchange_min_bag"] = _whole_number(opts["etl"], "CGP etl (exchange tile limit)")
    if "mcnz" in opts:
        rules["scoreless_turns_end"] = _whole_number(opts["mcnz"], "CGP mcnz (consecutive zero-point turns)")
    if "cr" in opts:
        rule = CHALLENGE_RULES.get(opts["cr"].lower())
        if rule is None:
            raise PositionError(f"CGP cr {opts['cr'][:20]!r}: kubasolve plays the challenge rules {', '.join(CHALLENGE_RULES)}")
        rules.update(rule)
    if "ld" in opts:
        tiles = LETTER_DISTRIBUTIONS.get(opts["ld"].lower())
        if tiles is None:
            raise PositionError(f"CGP ld {opts['ld'][:30]!r}: kubasolve has no such tile set (it has: {', '.join(LETTER_DISTRIBUTIONS)})")
    replaced = None
    if given_lexicon is not None:
        lexicon = given_lexicon
        if "lex" in opts and opts["lex"].lower() != given_lexicon.lower():
            replaced = opts["lex"]
    elif "lex" in opts:
        name = opts["lex"]
        lexicon = next((n for n in lexicons if n.lower() == name.lower()), None)
        if lexicon is None:
            raise PositionError(f"CGP lex {name[:30]!r}: kubasolve has no such lexicon (bundled: {', '.join(lexicons) or 'none'}); "
                                "name another with --lexicon (CLI) or \"lexicon\" (engine) to play this position against it")
    unused = tuple(k for k in opts if k not in USED_OPCODES)
    return CgpSettings(lexicon, tiles, rules, unused, replaced)


# ------------------------------------------------------------------------------------------------ GCG
@dataclass(frozen=True)
class GcgEvent:
    """One GCG line: who, their rack, what (``place``, ``exchange``, ``pass``, ``withdrawn``,
    ``challenge-bonus``, ``out-bonus``, ``rack-penalty``, ``time-penalty``), the move, the score, the
    running total, and the note after it (``#note`` lines, or text after the total)."""

    player: int
    rack: str
    kind: str
    score: int
    total: int
    move: str = ""
    """``8D WO.D`` for a placement, the letters (or their count) for an exchange or a rack adjustment."""
    tiles: tuple[tuple[int, int, str], ...] = ()
    note: str = ""


@dataclass(frozen=True)
class GcgGame:
    """A whole game as in a GCG file: players (nick, name), events in order, the final board rows, the
    other pragmas (``#lexicon``, ``#title``, ``#id``, ... in file order), the racks of ``#rack1``/``#rack2``
    (one per player, ``""`` when not given) and a note before the first event."""

    players: tuple[tuple[str, str], ...]
    events: tuple[GcgEvent, ...]
    rows: tuple[str, ...] = ()
    pragmas: tuple[str, ...] = ()
    racks: tuple[str, ...] = ()
    note: str = ""

    def scores(self) -> list[int]:
        totals = [0] * len(self.players)
        for e in self.events:
            totals[e.player] = e.total
        return totals

    @property
    def lexicon(self) -> str | None:
        """The ``#lexicon`` pragma's value, if any."""
        for line in self.pragmas:
            name, _, value = line.partition(" ")
            if name == "#lexicon" and value.strip():
                return value.strip()
        return None

    @property
    def over(self) -> bool:
        """Did the file record the end of the game (rack adjustments or a time penalty)?"""
        return any(e.kind in ("out-bonus", "rack-penalty", "time-penalty") for e in self.events)

    def to_move(self) -> int:
        """The player whose turn comes after the last event (challenge bonuses and the end change no turn)."""
        turns = [e.player for e in self.events if e.kind in ("place", "exchange", "pass", "withdrawn")]
        return (turns[-1] + 1) % len(self.players) if turns else 0


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
            elif state.rules.failed_challenge == "lose-turn":
                # the challenger's lost turn, a pass line as Macondo writes it (double challenge): without it the
                # file would give the turn to the challenger and miss a scoreless turn
                events.append(GcgEvent(p, e["rack"], "pass", 0, totals[p]))
            # (failed_challenge "none": the challenger then plays; no line)
    return events


def _note_lines(note: str) -> list[str]:
    """``#note first line`` and the further lines as they are (Macondo's multi-line notes)."""
    first, *rest = note.split("\n")
    return [f"#note {first}".rstrip(), *rest]


def to_gcg(game: Any, names: Sequence[str] | None = None, lexicon: str | None = None, racks: bool = False) -> str:
    """GCG text of a :class:`CrosswordState` (its log; with ``racks`` the racks of an unfinished game as
    ``#rack1``..., to analyse it elsewhere: not for a player's eyes) or of a :class:`GcgGame` (notes,
    racks and pragmas kept)."""
    if isinstance(game, GcgGame):
        players, events, pragmas = list(game.players), list(game.events), list(game.pragmas)
        rack_lines, note = list(game.racks), game.note
    else:
        n = game.n_players
        names = list(names or [f"Player {p + 1}" for p in range(n)])
        players = [(f"p{p + 1}", names[p]) for p in range(n)]
        events = _events_of_state(game)
        pragmas = ["#character-encoding UTF-8"] + ([f"#lexicon {lexicon}"] if lexicon else [])
        rack_lines, note = ([] if game.over or not racks else list(game.racks)), ""
    lines = list(pragmas)
    for k, (nick, name) in enumerate(players):
        lines.append(f"#player{k + 1} {nick} {name}")
    if note:
        lines += _note_lines(note)
    for e in events:
        nick = players[e.player][0]
        head = f">{nick}: {e.rack}" if e.kind not in ("out-bonus", "time-penalty") or e.rack else f">{nick}:"
        body = {
            "place": e.move,
            "exchange": f"-{e.move}",
            "pass": "-",
            "withdrawn": "--",
            "challenge-bonus": "(challenge)",
            "out-bonus": f"({e.move})",
            "rack-penalty": f"({e.move})",
            "time-penalty": "(time)",
        }[e.kind]
        lines.append(f"{head} {body} {e.score:+d} {e.total}")
        if e.note:
            lines += _note_lines(e.note)
    for k, rack in enumerate(rack_lines):
        if rack:
            lines.append(f"#rack{k + 1} {rack}")
    return "\n".join(lines) + "\n"


_LINE = re.compile(r"^>(?P<nick>[^:\s]+):\s*(?P<rest>.*)$")
_SCORE = re.compile(rf"[+-][0-9]{{1,{MAX_NUMBER_DIGITS}}}")
_TOTAL = re.compile(rf"-?[0-9]{{1,{MAX_NUMBER_DIGITS}}}")
_RACK = re.compile(r"[A-Za-z?]{0,15}")


def _split_event(rest: str, no: int) -> tuple[list[str], int, int, str]:
    """(rack and move tokens, score, running total, text after the total) of the part after ``>nick:``."""
    tokens = rest.split()
    for i in range(1, len(tokens) - 1):
        if _SCORE.fullmatch(tokens[i]) and _TOTAL.fullmatch(tokens[i + 1]):
            return tokens[:i], int(tokens[i]), int(tokens[i + 1]), " ".join(tokens[i + 2:])
    raise PositionError(f"GCG line {no}: it must end with the score (+30) and the running total, "
                        f"each of at most {MAX_NUMBER_DIGITS} digits") from None


def decode_gcg(data: bytes) -> str:
    """The text of a GCG file's bytes: in the encoding its first line names (``#character-encoding
    UTF-8``) when that decodes them, else UTF-8 (a byte-order mark dropped), else ISO-8859-1, the
    format's default (Macondo's test file ``name_iso8859-1.gcg`` has no encoding line)."""
    first = data.lstrip(b"\xef\xbb\xbf").split(b"\n", 1)[0].decode("ascii", "replace")
    m = re.match(r"#character-encoding\s+(\S+)", first.strip())
    encodings = ["utf-8-sig", "iso-8859-1"]
    if m:
        with contextlib.suppress(LookupError):  # an encoding Python does not know: UTF-8, else ISO-8859-1
            encodings.insert(0, codecs.lookup(m.group(1)).name)
    for encoding in encodings:
        try:
            return data.decode(encoding)
        except UnicodeDecodeError:
            continue
    raise AssertionError("ISO-8859-1 decodes every byte")  # pragma: no cover


def _player_of_line(nicks: list[str], nick: str, totals: dict[int, int], score: int, total: int, last: int | None,
                    follows: bool) -> int:
    """The player a move line names: the only one with ``nick``; among several with it, the one whose
    running total the line continues, on a tie the one after the ``last`` line's player (the ``last``
    line's player itself when the line ``follows`` their play: a challenge bonus, a withdrawal)."""
    same = [k for k, n in enumerate(nicks) if n == nick]
    fits = [k for k in same if totals.get(k, 0) + score == total] or same
    turn = 0 if last is None else last if follows else (last + 1) % len(nicks)
    return turn if turn in fits else fits[0]


def parse_gcg(text: str, n_rows: int = 15, n_cols: int = 15, alphabet: str = "abcdefghijklmnopqrstuvwxyz") -> GcgGame:
    """A GCG game: players, every event (placements resolved to tiles on the board as it grows; a
    withdrawn play takes its tiles off again), notes, racks and pragmas, final board. Checks the
    running totals add up. Players may share a nick (see :func:`_player_of_line`)."""
    if not isinstance(text, str) or len(text) > MAX_GCG_LENGTH:
        raise PositionError(f"a GCG game is a text of at most {MAX_GCG_LENGTH:,} characters")
    players: list[tuple[str, str]] = []
    pragmas: list[str] = []
    events: list[GcgEvent] = []
    notes: dict[int, list[str]] = {}  # event index (-1: before the first event) -> note lines
    racks: dict[int, str] = {}
    board = Board.empty(n_rows, n_cols, alphabet)
    totals: dict[int, int] = {}
    last_tiles: dict[int, tuple[tuple[int, int, str], ...]] = {}
    in_note = False
    last: int | None = None
    withdrawable: dict[int, int] = {}  # player -> score of their last placement
    for no, raw in enumerate(normalize_text(text).split("\n"), 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            in_note = False
            m = re.match(r"#player([0-9]+)\s+(\S+)\s*(.*)$", line)
            if m:
                if events:
                    raise PositionError(f"GCG line {no}: players are declared before the first move")
                if int(m.group(1)) != len(players) + 1 or len(players) >= MAX_RACKS:
                    raise PositionError(f"GCG line {no}: players are #player1 to #player{MAX_RACKS}, in order")
                nick = m.group(2)
                players.append((nick, m.group(3).strip() or nick))
            elif re.match(r"#note(\s|$)", line):
                notes.setdefault(len(events) - 1, []).append(line[5:].strip())
                in_note = True
            elif re.match(r"#rack[0-9]+(\s|$)", line):
                m = re.match(r"#rack([0-9]+)\s+(\S*)\s*$", line)
                if not m or not _RACK.fullmatch(m.group(2)) or not 1 <= int(m.group(1)) <= MAX_RACKS:
                    raise PositionError(f"GCG line {no}: write #rack1 RACK (letters, '?' a blank) for players 1 to {MAX_RACKS}")
                racks[int(m.group(1)) - 1] = m.group(2).upper()
            else:
                pragmas.append(line)
            continue
        m = _LINE.match(line)
        if not m:
            if in_note:  # Macondo writes a long note on the lines after '#note'
                notes[len(events) - 1].append(line)
                continue
            raise PositionError(f"GCG line {no}: not a move line (>nick: RACK MOVE SCORE TOTAL): {line[:80]!r}")
        in_note = False
        if len(events) >= MAX_GCG_EVENTS:
            raise PositionError(f"GCG line {no}: more than {MAX_GCG_EVENTS:,} events")
        nicks = [n for n, _ in players]
        if m.group("nick") not in nicks:
            raise PositionError(f"GCG line {no}: unknown player {m.group('nick')!r} (declare it with #player1 nick Name)")
        body, score, total, trailing = _split_event(m.group("rest"), no)
        p = last = _player_of_line(nicks, m.group("nick"), totals, score, total, last, body[-1:] in (["--"], ["(challenge)"]))
        if trailing:
            notes.setdefault(len(events), []).append(trailing)
        if body[-1:] == ["--"] and score == 0 and p in withdrawable and totals.get(p, 0) - withdrawable[p] == total:
            score = -withdrawable[p]  # Quackle's capp.gcg (WSC 2001) writes a withdrawn play '-- +0 59' with the new total
        if totals.get(p, 0) + score != total:
            raise PositionError(f"GCG line {no}: {totals.get(p, 0)} {score:+d} is not the total {total}")
        totals[p] = total
        if body in (["(time)"], ["(challenge)"]) or (len(body) == 1 and body[0].startswith("(") and body[0].endswith(")")):
            body = ["", *body]  # no rack written (Macondo and Woogles leave it out on these lines)
        if not body:
            raise PositionError(f"GCG line {no}: no rack and move")
        rack, what = body[0], body[1:]
        if not _RACK.fullmatch(rack):
            raise PositionError(f"GCG line {no}: rack {rack[:20]!r} is not letters A-Z and '?' (the alphabets of the Dutch and English "
                                "tile sets; a game in another language cannot be read)")
        if what == ["--"]:
            withdrawable.pop(p, None)
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
        elif what == ["(time)"]:
            if score > 0:
                raise PositionError(f"GCG line {no}: a time penalty takes points off (-10), got {score:+d}")
            events.append(GcgEvent(p, rack, "time-penalty", score, total))
        elif len(what) == 1 and what[0].startswith("-"):
            exchanged = what[0][1:]
            if not (_RACK.fullmatch(exchanged) or re.fullmatch(r"[1-9][0-9]?", exchanged)) or not exchanged:
                raise PositionError(f"GCG line {no}: exchange {what[0][:20]!r}: the letters (-ABC) or their count (-3)")
            events.append(GcgEvent(p, rack, "exchange", score, total, exchanged))
        elif len(what) == 1 and what[0].startswith("(") and what[0].endswith(")"):
            kind = "rack-penalty" if rack else "out-bonus"
            events.append(GcgEvent(p, rack, kind, score, total, what[0][1:-1]))
        elif len(what) == 2:
            try:
                tiles = parse_placement(" ".join(what), board)
                board = board.with_tiles(tiles)
            except PositionError as exc:
                raise PositionError(f"GCG line {no}: {exc}") from None
            last_tiles[p] = tiles
            withdrawable[p] = score
            r, c, d = parse_coordinate(what[0])
            word = _full_word(board, r, c, d)
            events.append(GcgEvent(p, rack, "place", score, total, format_placement(r, c, d, word, tiles), tiles))
        else:
            raise PositionError(f"GCG line {no}: cannot read the move {' '.join(what)[:80]!r}")
    if not players:
        raise PositionError("a GCG game declares its players (#player1 nick Name)")
    if any(k >= len(players) for k in racks):
        raise PositionError(f"GCG: a #rack line names a player beyond the {len(players)} declared")
    noted = [replace(e, note="\n".join(notes[k])) if k in notes else e for k, e in enumerate(events)]
    return GcgGame(tuple(players), tuple(noted), tuple(board.to_rows()), tuple(pragmas),
                   tuple(racks.get(k, "") for k in range(len(players))) if racks else (), "\n".join(notes.get(-1, [])))


def file_lexicon(named: str | None, given: str | None, bundled: Sequence[str], what: str = "GCG game") -> tuple[str | None, str | None]:
    """(the lexicon to play, a notice or None) of a file that names lexicon ``named`` (a GCG's ``#lexicon``), the
    caller having asked for ``given`` (``--lexicon``, the engine's ``lexicon``; None: not asked). The name asked for
    wins, with a notice when the file names another; else the file's name when it is one of ``bundled`` (any case;
    never a file path), any other refused by name (:class:`PositionError`); None when neither names one (the
    caller's default)."""
    if given is not None:
        if named is not None and named.lower() != given.lower():
            return given, f"the {what} names lexicon {named!r}; playing {given!r} as asked"
        return given, None
    if named is None:
        return None, None
    match = next((n for n in bundled if n.lower() == named.lower()), None)
    if match is None:
        raise PositionError(f"the {what} names lexicon {named[:40]!r}, which kubasolve does not have (bundled: {', '.join(sorted(bundled))}); "
                            "name one with --lexicon (CLI) or \"lexicon\" (engine) to play the position against it")
    return match, None


def state_from_gcg(referee: Any, game: GcgGame | str, seed: int = 0) -> Any:
    """A :class:`~kubasolve.games.crossword.game.CrosswordState` at the end of a GCG game, to continue or
    analyse it: the board, the scores, the player to move, the scoreless turns in a row at the end,
    the racks of ``#rack1``/``#rack2``... (a player without one draws from the unseen tiles), the rest
    in the bag, shuffled with ``seed``. The state has no history (it did not start from a deal): its ``origin``
    records the GCG text (``to_gcg`` of a :class:`GcgGame`), so that the turns played on from it
    (:meth:`Referee.apply`) replay when it is saved and resumed. Refused (PositionError) when the tiles do not fit
    the rules' tile set, and ``seed`` unless a whole number from 0 to 2**63 - 1 (key ``seed``, as every game's seed)."""
    from kubasolve.games.crossword.game import CrosswordState, sort_rack
    from kubasolve.games.crossword.layout import BLANK

    check_seed(seed, "seed", PositionError)
    layout, tiles, rules = referee.layout, referee.tiles, referee.rules
    if isinstance(game, str):
        origin = game
        game = parse_gcg(game, layout.rows, layout.cols, referee.lexicon.alphabet.letters)
    else:
        origin = to_gcg(game)
    n = len(game.players)
    if not rules.min_players <= n <= rules.max_players:
        raise PositionError(f"the GCG game has {n} players; the rules allow {rules.min_players} to {rules.max_players}")
    board = Board.from_rows(list(game.rows), referee.lexicon.alphabet)
    on_board = Counter(BLANK if ch.islower() else ch for row in game.rows for ch in row if ch != ".")
    known = [sort_rack(r.upper()) for r in (game.racks or ("",) * n)]
    unseen = Counter(tiles.counts) - on_board
    for p, r in enumerate(known):
        short = Counter(r) - unseen
        if short:
            raise PositionError(f"GCG #rack{p + 1} {r!r}: the tile set {tiles.name!r} has no more {sort_rack(''.join(short.elements()))} "
                                "beside the board and the other racks")
        if len(r) > rules.rack_size:
            raise PositionError(f"GCG #rack{p + 1} {r!r} holds more than a rack of {rules.rack_size}")
        unseen -= Counter(r)
    extra = on_board - Counter(tiles.counts)
    if extra:
        raise PositionError(f"the GCG board holds more tiles than the {tiles.name!r} set: {sort_rack(''.join(extra.elements()))}")
    pool = sorted(unseen.elements())
    random.Random(f"crossword-gcg:{seed}").shuffle(pool)
    racks = []
    for r in known:
        need = rules.rack_size - len(r) if not game.over else 0
        racks.append(sort_rack(r + "".join(pool[:need])))
        pool = pool[need:]
    scoreless = 0
    withdrawn = False
    for e in reversed(game.events):
        if e.kind == "place" and withdrawn:  # the play taken back: its withdrawal was the scoreless turn
            withdrawn = False
        elif e.kind in ("pass", "withdrawn") or (e.kind == "exchange" and rules.exchange_is_scoreless):
            scoreless += 1
            withdrawn = e.kind == "withdrawn"
        elif e.kind in ("place", "exchange"):
            break
    state = CrosswordState(rules, seed, n, board, "".join(pool), tuple(racks), tuple(game.scores()), game.to_move(),
                           turn=1 + sum(e.kind in ("place", "exchange", "pass", "withdrawn") for e in game.events), scoreless=scoreless,
                           origin=origin)
    if game.over:
        state = replace(state, over=True)
    return state


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
