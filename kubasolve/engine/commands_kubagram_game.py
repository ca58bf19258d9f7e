"""Engine commands for whole Kubagram games (``kubagram.*``); schemas in ``docs/engine_kubagram_game.md``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kubasolve.engine.registry import Session, command, lookup_game
from kubasolve.errors import PositionError


@dataclass
class KubagramSessionGame:
    """A running game in an engine session: the referee, the current state and the seat names."""

    referee: Any
    state: Any
    players: list[str]


def _game(params: dict[str, Any], session: Session) -> tuple[str, KubagramSessionGame]:
    return lookup_game(params, session, KubagramSessionGame, "Kubagram", "kubagram.new-game")


def _answer(gid: str, game: KubagramSessionGame, **extra: Any) -> dict[str, Any]:
    return {"game": gid, "players": game.players, "state": game.state.to_dict(), **extra}


@command("kubagram.new-game")
def new_game(params: dict[str, Any], session: Session) -> dict[str, Any]:
    """Deal a new game: ``seed``, ``players`` (a count or a list of names such as ["human", "greedy"]),
    optional ``rules`` and ``game_rules`` objects, optional ``rotation``; or ``state`` to resume a saved game."""
    from kubasolve.games.kubagram.game import default_referee
    from kubasolve.games.kubagram.game_rules import KubagramGameRules
    from kubasolve.games.kubagram.rules import KubagramRules
    from kubasolve.games.kubagram.state import GameState

    if "state" in params:
        state = GameState.from_dict(params["state"])
        referee = default_referee(state.rules, state.game_rules)
        players = params.get("players") or [f"player{i}" for i in range(state.n_players)]
        game = KubagramSessionGame(referee, state, list(players))
    else:
        players = params.get("players", 2)
        if isinstance(players, int) and not isinstance(players, bool):
            names = [f"player{i}" for i in range(players)]
        elif isinstance(players, list) and all(isinstance(p, str) for p in players):
            names = list(players)
        else:
            raise PositionError('"players" must be a number or a list of names')
        seed = params.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, (int, str)):
            raise PositionError('"seed" must be an integer or a string')
        rules = KubagramRules.from_dict(params.get("rules") or {})
        game_rules = KubagramGameRules.from_dict({**(params.get("game_rules") or {}), "n_players": len(names)})
        referee = default_referee(rules, game_rules)
        state = referee.new_game(seed, rotation=params.get("rotation"))
        game = KubagramSessionGame(referee, state, names)
    gid = session.new_game_id()
    session.games[gid] = game
    return _answer(gid, game)


@command("kubagram.state")
def state_cmd(params: dict[str, Any], session: Session) -> dict[str, Any]:
    """The full state of a running game (JSON snapshot, history included)."""
    gid, game = _game(params, session)
    return _answer(gid, game)


@command("kubagram.legal-moves")
def legal_moves(params: dict[str, Any], session: Session) -> dict[str, Any]:
    """Legal actions for the player to move: every take/skip/place choice, the ``claims`` (default 10) best word
    claims and compounds, and ending the turn."""
    gid, game = _game(params, session)
    claims = params.get("claims", 10)
    if not isinstance(claims, int) or isinstance(claims, bool) or claims < 1:
        raise PositionError('"claims" must be a positive integer')
    moves = game.referee.legal_actions(game.state, claims)
    return {"game": gid, "player": game.state.current, "phase": game.state.phase,
            "moves": [{**m.to_dict(), "text": m.describe()} for m in moves]}


@command("kubagram.apply-move")
def apply_move(params: dict[str, Any], session: Session) -> dict[str, Any]:
    """Apply ``move`` (an action object) for the player to move; an illegal move is an error, state unchanged."""
    gid, game = _game(params, session)
    move = params.get("move")
    if not isinstance(move, dict):
        raise PositionError('"move" must be an object like {"type": "take", "letter": "a"}')
    game.state = game.referee.apply(game.state, move)
    return _answer(gid, game)


@command("kubagram.ai-move")
def ai_move(params: dict[str, Any], session: Session) -> dict[str, Any]:
    """Let AI ``ai`` (random, greedy, planner; default planner) play the rest of the current turn; ``apply``
    (default true) applies the actions."""
    from kubasolve.ai.kubagram import make_policy

    gid, game = _game(params, session)
    if game.state.over:
        raise PositionError("the game is over")
    policy = make_policy(str(params.get("ai", "planner")), int(params.get("seed", 0)))
    actions = policy.turn(game.referee, game.state)
    if params.get("apply", True):
        for a in actions:
            game.state = game.referee.apply(game.state, a)
    return _answer(gid, game, actions=[{**a.to_dict(), "text": a.describe()} for a in actions])
