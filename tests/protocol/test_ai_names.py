"""AI names on every game's surfaces (the generic ``ai-move`` and ``simulate``, the library's ``check_ai``, the CLI's
``--players``): each game's valid names pass; an unknown AI or an option its AI does not take is a ``bad-request``
keyed by the parameter (``params.ai``, ``params.players[i]``) whose message names it and lists the game's AIs."""

from __future__ import annotations

import pytest

from kubasolve.errors import KubasolveError
from kubasolve.games.protocol import load_game

from .helpers import BUILT_IN, Engine

VALID: dict[str, tuple[str, ...]] = {
    "colonii": ("random", "greedy", "planner"),
    "crossword": ("score", "equity", "sim", "equity2", "sim2", "equity:bounded", "equity:5000", "sim2:spread:400ms"),
    "kubagram": ("random", "greedy", "planner", "planner:1", "planner:30", "search", "search:1", "search:100000"),
    "rummikub": ("greedy", "holdback"),
    "scruble": ("random", "greedy", "planner"),
}
"""What docs/cli.md, docs/crossword.md and docs/kubagram_game.md say each game's AIs are called."""
BAD: dict[str, tuple[str, ...]] = {
    "colonii": ("nosuch", "planner:5", "greedy:5", "random:1"),
    "crossword": ("nosuch", "planner:5", "score:5", "equity:spread"),
    "kubagram": ("nosuch", "greedy:5", "random:1", "planner:0", "planner:31", "planner:abc", "search:100001", "search:0"),
    "rummikub": ("nosuch", "greedy:5", "holdback:1", "planner:5"),
    "scruble": ("nosuch", "planner:5", "greedy:5", "random:1"),
}
"""Unknown AIs, and options the AI does not take (or out of its range)."""
OPTIONS: dict[str, tuple[str, ...]] = {"crossword": ("bounded", "NODES", "MSms"), "kubagram": ("planner:DEPTH", "search:NODES")}
"""The options a game's refusals list (a game without: none)."""


def _listed(game: str, message: str) -> None:
    for ai in VALID[game]:
        if ":" not in ai:
            assert ai in message, (game, ai, message)
    for form in OPTIONS.get(game, ()):
        assert form in message, (game, form, message)


@pytest.fixture(scope="module")
def engine() -> Engine:
    return Engine()


@pytest.mark.parametrize("game", BUILT_IN)
def test_ai_move_refuses_a_bad_name_by_key(engine: Engine, game: str) -> None:
    gid = engine("new-game", game=game, seed=3)["game_id"]
    for ai in BAD[game]:
        error = engine.raw("ai-move", game_id=gid, ai=ai, apply=False, max_nodes=1)["error"]
        assert (error["code"], error.get("key")) == ("bad-request", "params.ai"), (game, ai, error)
        assert error["message"].startswith("params.ai: ") and ai in error["message"], (game, ai, error)
        _listed(game, error["message"])
    assert engine("state", game_id=gid)["turn"] == 1


@pytest.mark.parametrize("game", BUILT_IN)
def test_simulate_refuses_a_bad_seat_by_key(engine: Engine, game: str) -> None:
    for ai in BAD[game]:
        error = engine.raw("simulate", game=game, players=[VALID[game][0], ai], games=1)["error"]
        assert (error["code"], error.get("key")) == ("bad-request", "params.players[1]"), (game, ai, error)
        assert error["message"].startswith("params.players[1]: "), error
        assert ai.partition(":")[0] in error["message"], (game, ai, error)
        _listed(game, error["message"])


@pytest.mark.parametrize("game", BUILT_IN)
def test_valid_names_pass_and_bad_ones_are_refused_in_the_library(game: str) -> None:
    from kubasolve.cli.common import UsageError
    from kubasolve.cli.games import seats_of

    kind = load_game(game)
    assert set(kind.ai_names) <= set(VALID[game]) and kind.default_ai in VALID[game]
    for ai in VALID[game]:
        kind.check_ai(ai)
    assert seats_of(kind, list(VALID[game]), []) == list(VALID[game])
    for ai in BAD[game]:
        with pytest.raises(KubasolveError) as refused:
            kind.check_ai(ai)
        assert type(refused.value) is KubasolveError and refused.value.key == "ai", (game, ai, refused.value)
        _listed(game, str(refused.value))
        with pytest.raises(UsageError, match="--players: "):
            seats_of(kind, [ai], [])


def test_the_v2_ai_moves_key_a_bad_option(engine: Engine) -> None:
    """``rummikub.ai-move`` and ``kubagram.ai-move`` go through the same check."""
    rummikub = engine("rummikub.new-game", seed=1)["game"]
    error = engine.raw("rummikub.ai-move", game=rummikub, ai="greedy:5")["error"]
    assert (error["code"], error.get("key")) == ("bad-request", "params.ai"), error
    kubagram = engine("kubagram.new-game", seed=1)["game"]
    error = engine.raw("kubagram.ai-move", game=kubagram, ai="greedy:5")["error"]
    assert (error["code"], error.get("key")) == ("bad-request", "params.ai"), error
    _listed("kubagram", error["message"])
