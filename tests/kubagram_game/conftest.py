"""Fixtures of the Kubagram game tests: the Dutch lexicon, a referee, and hand-built states on tiny boards."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from kubasolve.games.kubagram.equipment import Cube, Square
from kubasolve.games.kubagram.game_rules import KubagramGameRules
from kubasolve.games.kubagram.position import TableWord
from kubasolve.games.kubagram.referee import Referee
from kubasolve.games.kubagram.rules import KubagramRules
from kubasolve.games.kubagram.setup import PlacedCube, Setup
from kubasolve.games.kubagram.state import FieldTile, GameState


@pytest.fixture(scope="session")
def lexicon():  # type: ignore[no-untyped-def]
    """The bundled Dutch lexicon."""
    from kubasolve import load_lexicon

    return load_lexicon("nl")


@pytest.fixture(scope="session")
def referee(lexicon) -> Referee:  # type: ignore[no-untyped-def]
    """A referee with the default rules."""
    return Referee(lexicon, KubagramRules(), KubagramGameRules())


def make_setup(cubes: Sequence[tuple[str, str, str] | tuple[str, str, str, bool]], n_players: int = 2,
               start: int = 0) -> Setup:
    """A one-row board whose cubes, left to right, are drawn in the given order: (letters, top, marking[, joker])."""
    squares = []
    for i, spec in enumerate(cubes):
        letters, top, marking = spec[:3]
        joker = bool(spec[3]) if len(spec) > 3 else False
        squares.append(PlacedCube(0, i, i, Cube(letters, joker), top, Square.parse(marking)))
    order = tuple((0, c) for c in range(len(cubes)))
    return Setup("test", n_players, 1, len(cubes), 0, tuple(squares), order, start, ())


def make_state(cubes: Sequence[tuple], field: str = "", table: Sequence[TableWord] = (), n_players: int = 2,
               current: int = 0, phase: str = "start", held: Sequence[Sequence[str]] | None = None,
               game_rules: KubagramGameRules | None = None, taken: int = 0) -> GameState:
    """A state on a :func:`make_setup` board with ``field`` letters already placed (cube numbers 100+)."""
    setup = make_setup(cubes, n_players)
    from kubasolve.games.kubagram.state import HeldJoker

    held_t = tuple(tuple(HeldJoker(200 + 10 * p + k, j) for k, j in enumerate(h)) for p, h in enumerate(held)) \
        if held else ((),) * n_players
    return GameState(
        setup, KubagramRules(), game_rules or KubagramGameRules(n_players=n_players), taken=taken, current=current,
        phase=phase, field=tuple(FieldTile(c, 100 + i) for i, c in enumerate(field)), held=held_t,
        table=tuple(table), scores=(0,) * n_players, skips=(0,) * n_players,
    )
