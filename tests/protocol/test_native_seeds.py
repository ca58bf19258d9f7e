"""Every game's own (native) entry that deals from a seed takes the one seed rule of ``load_game(...).new_game``
(``kubasolve.games.limits.check_seed``): a whole number from 0 to 2**63 - 1, else a KubasolveError with key ``seed``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from kubasolve.errors import KubasolveError
from kubasolve.games.limits import MAX_SEED
from kubasolve.games.protocol import load_game


def _native(name: str) -> Any:
    """The game's own referee, under the shared API's game object."""
    game: Any = load_game(name)
    return game.referee


def _referee(name: str) -> Callable[[Any], Any]:
    return lambda seed: _native(name).new_game(seed, 2)


def _rummikub(seed: Any) -> Any:
    from kubasolve.games.rummikub.game import RummikubGame

    return RummikubGame.new(2, seed)


def _scruble(seed: Any) -> Any:
    from kubasolve.games.scruble.game import ScrubleGame

    return ScrubleGame.new(2, seed)


def _kubagram_deal(seed: Any) -> Any:
    from kubasolve.games.kubagram.setup import deal

    return deal(seed)


def _crossword_gcg(seed: Any) -> Any:
    from pathlib import Path

    from kubasolve.games.crossword.notation import state_from_gcg

    gcg = Path(__file__).parents[1] / "crossword" / "data" / "gcg" / "woogles_unfinished.gcg"
    return state_from_gcg(_native("crossword"), gcg.read_text(encoding="utf-8"), seed)


ENTRIES = {"colonii": _referee("colonii"), "crossword": _referee("crossword"), "crossword-gcg": _crossword_gcg,
           "kubagram": _referee("kubagram"),
           "kubagram-deal": _kubagram_deal, "rummikub": _rummikub, "scruble": _scruble}


@pytest.mark.parametrize("entry", sorted(ENTRIES))
@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, 10**30, 1.5, True])
def test_native_new_game_refuses_a_bad_seed_by_name(entry: str, seed: Any) -> None:
    with pytest.raises(KubasolveError, match="seed must be a whole number from 0 to") as info:
        ENTRIES[entry](seed)
    assert info.value.key == "seed"


@pytest.mark.parametrize("entry", sorted(ENTRIES))
def test_native_new_game_takes_the_whole_range(entry: str) -> None:
    for seed in (0, MAX_SEED):
        assert ENTRIES[entry](seed) is not None


@pytest.mark.parametrize("entry", ["colonii", "crossword"])
def test_a_string_seed_is_refused_by_name(entry: str) -> None:
    """colonii's and the crossword's referees refused it as an IllegalMoveError with no key."""
    with pytest.raises(KubasolveError) as info:
        ENTRIES[entry]("abc")
    assert info.value.key == "seed"


def test_kubagram_keeps_string_seeds() -> None:
    """The one documented exception (the v2 engine's kubagram.new-game): a string seed deals."""
    assert ENTRIES["kubagram"]("abc").setup.seed == "abc"
