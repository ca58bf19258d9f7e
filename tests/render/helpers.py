"""Helpers of the rendering tests: the saved mid-game states of every game (``data/*.json``, made by
``make_states.py`` with the project's AIs from fixed seeds), loaded through each game's ``from_dict``
(the history is replayed by the referee), and the text elements of an SVG picture."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent / "data"
SVG_NS = "{http://www.w3.org/2000/svg}"
STATES = ("crossword", "kubagram", "colonii", "rummikub", "scruble", "scruble_over")
"""Fixture names: the games' states (``scruble_over``: a finished Scruble game)."""


def state_data(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((DATA / f"{name}.json").read_text(encoding="utf-8"))
    return data


def load_state(name: str) -> Any:
    """The native game state of fixture ``name``, replayed from its saved history."""
    data = state_data(name)
    game = name.split("_")[0]
    if game == "crossword":
        from kubasolve.games.crossword.game import CrosswordState

        return CrosswordState.from_dict(data)
    if game == "kubagram":
        from kubasolve.games.kubagram.state import GameState

        return GameState.from_dict(data)
    if game == "colonii":
        from kubasolve.games.colonii.game import ColoniiState

        return ColoniiState.from_dict(data)
    if game == "rummikub":
        from kubasolve.games.rummikub.game import RummikubGame

        return RummikubGame.from_dict(data)
    from kubasolve.games.scruble.game import ScrubleGame
    from kubasolve.lexicon import load_lexicon

    return ScrubleGame.from_dict(data, load_lexicon("en"))


_CACHE: dict[str, Any] = {}


def state(name: str) -> Any:
    """The state of fixture ``name``, loaded once per test session."""
    if name not in _CACHE:
        _CACHE[name] = load_state(name)
    return _CACHE[name]


def svg_texts(svg: str) -> list[str]:
    """The contents of every ``<text>`` element of an SVG document, in document order."""
    root = ET.fromstring(svg)
    return [el.text or "" for el in root.iter(f"{SVG_NS}text")]
