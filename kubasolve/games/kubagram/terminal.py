"""Kubagram's typed commands in a terminal game (``kubasolve kubagram play``): what a player types for each action,
both ways (:func:`parse_command`, :func:`command_text`); the protocol's ``parse_command``/``command_text`` use them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from kubasolve.errors import IllegalMoveError

__all__ = ["PLAY_HELP", "command_text", "parse_command"]

PLAY_HELP = """Kubagram commands:
  t [LETTER]      take the next cube (LETTER: on III, a joker, or under the vowel rule)
  k               take the joker and keep it aside
  p LETTER        place the cube passed on to you from a 0 square
  s               skip this turn (once per game)
  c WORD [TILES]  claim WORD from the field (TILES: tile numbers like 0,3,5,1,2; default: best choice)
  cc WORD PARTS   claim a compound: PARTS are table word numbers and 'new' for a field word, e.g. 3+new
  e               end the turn"""


def _numbers(text: str, what: str) -> list[int]:
    """Comma-separated tile numbers (ASCII digits only), e.g. ``0,3,5``."""
    items = [x.strip() for x in text.split(",")]
    if not all(x.isascii() and x.isdigit() for x in items):
        raise IllegalMoveError(f"{what} look like 0,3,5 (digits 0-9), got {text!r}")
    return [int(x) for x in items]


def parse_command(text: str) -> dict[str, Any] | None:
    """The action (JSON form) of a typed command, None when ``text`` is no Kubagram command; a command with a bad
    argument is an :class:`IllegalMoveError` saying how to type it."""
    parts = text.split()
    if not parts:
        return None
    cmd, rest = parts[0].lower(), parts[1:]
    if cmd == "t":
        return {"type": "take", "letter": rest[0].lower()} if rest else {"type": "take"}
    if cmd == "k":
        return {"type": "take", "keep": True}
    if cmd == "p":
        if not rest:
            raise IllegalMoveError("say which letter the passed cube shows: p LETTER")
        return {"type": "place-zero", "letter": rest[0].lower()}
    if cmd == "s":
        return {"type": "skip"}
    if cmd == "e":
        return {"type": "end"}
    if cmd == "c":
        if not rest:
            raise IllegalMoveError("say which word: c WORD")
        claim: dict[str, Any] = {"type": "claim", "word": rest[0]}
        if len(rest) > 1:
            claim["tiles"] = _numbers(rest[1], "tile numbers")
        return claim
    if cmd == "cc":
        if len(rest) < 2:
            raise IllegalMoveError("a compound needs the word and its parts: cc WORD 3+new")
        pieces: list[int | None] = []
        for x in rest[1].split("+"):
            if x.lower() == "new":
                pieces.append(None)
            elif x.isascii() and x.isdigit():
                pieces.append(int(x))
            else:
                raise IllegalMoveError(f"a part is a table word number or 'new', got {x!r}")
        compound: dict[str, Any] = {"type": "claim", "word": rest[0], "parts": pieces}
        if len(rest) > 2:
            compound["tiles"] = _numbers(rest[2], "tile numbers")
        return compound
    return None


def command_text(action: Mapping[str, Any]) -> str | None:
    """What to type for ``action`` (the inverse of :func:`parse_command`); None for a whole-turn action. A field of the
    wrong type, or a missing word or letter, is an :class:`IllegalMoveError` naming it."""
    from kubasolve.games.protocol import action_field

    kind = action.get("type")
    if kind == "take":
        letter = action_field(action, "letter", str, required=False)
        return "k" if action.get("keep") else f"t {letter}" if letter else "t"
    if kind == "place-zero":
        return f"p {action_field(action, 'letter', str)}"
    if kind == "skip":
        return "s"
    if kind == "end":
        return "e"
    if kind == "claim":
        word = action_field(action, "word", str)
        numbers = action_field(action, "tiles", list, required=False, items=int)
        tiles = "" if numbers is None else " " + ",".join(map(str, numbers))
        if action.get("parts"):
            parts = "+".join("new" if x is None else str(x) for x in action_field(action, "parts", list))
            return f"cc {word} {parts}{tiles}"
        return f"c {word}{tiles}"
    return None
