"""Engine commands of Rummikub (all named ``rummikub.*``; schemas in docs/engine_rummikub.md)."""

from __future__ import annotations

from typing import Any

from kubasolve.engine.registry import Session, command, lookup_game
from kubasolve.errors import PositionError


def _rules(params: dict[str, Any]):  # type: ignore[no-untyped-def]
    from kubasolve.games.rummikub import RummikubRules

    raw = params.get("rules", {})
    return RummikubRules.from_dict(raw if raw is not None else {})


def _game(params: dict[str, Any], session: Session):  # type: ignore[no-untyped-def]
    from kubasolve.games.rummikub.game import RummikubGame

    return lookup_game(params, session, RummikubGame, "Rummikub", "rummikub.new-game")


@command("rummikub.solve")
def solve_cmd(params: dict[str, Any], session: Session) -> dict[str, Any]:
    """Best play for ``table`` + ``rack`` (text or lists of tiles), or for the player to move in ``game``."""
    from kubasolve.games.rummikub import parse_table, parse_tiles, solve

    objective = params.get("objective", "tiles")
    if "game" in params:
        _, game = _game(params, session)
        return game.best_move(objective).to_dict()
    rules = _rules(params)
    if "rack" not in params:
        raise PositionError('rummikub.solve needs "rack" (and "table"), or "game"')
    table = parse_table(params.get("table", []), rules)
    rack = parse_tiles(params["rack"], rules)
    sol = solve(
        table,
        rack,
        rules,
        objective,
        first_meld=bool(params.get("first_meld", False)),
        minimise_changes=bool(params.get("fewest_changes", False)),
        method=str(params.get("method", "auto")),
    )
    return sol.to_dict()


@command("rummikub.new-game")
def new_game(params: dict[str, Any], session: Session) -> dict[str, Any]:
    """Deal a new game from ``seed`` for ``players`` (a count or a list of names)."""
    from kubasolve.games.rummikub.game import RummikubGame

    players = params.get("players", 2)
    names = players if isinstance(players, list) else None
    count = len(players) if isinstance(players, list) else players
    if not isinstance(count, int):
        raise PositionError('"players" must be a number or a list of names')
    game = RummikubGame.new(count, int(params.get("seed", 0)), _rules(params), names)
    gid = session.new_game_id()
    session.games[gid] = game
    return {"game": gid, "state": game.to_dict()}


@command("rummikub.state")
def state(params: dict[str, Any], session: Session) -> dict[str, Any]:
    """Full state of a running game (racks included unless ``hide_racks``)."""
    gid, game = _game(params, session)
    return {"game": gid, "state": game.to_dict(hide_racks=bool(params.get("hide_racks", False)))}


@command("rummikub.apply-move")
def apply_move(params: dict[str, Any], session: Session) -> dict[str, Any]:
    """Apply ``move`` for the player to move; an illegal move is an error with reasons, state unchanged."""
    gid, game = _game(params, session)
    move = params.get("move")
    if not isinstance(move, dict):
        raise PositionError('"move" must be an object like {"type": "draw"}')
    game.apply(move)
    return {"game": gid, "state": game.to_dict()}


@command("rummikub.ai-move")
def ai_move_cmd(params: dict[str, Any], session: Session) -> dict[str, Any]:
    """Let AI ``ai`` (greedy or holdback) choose the move for the player to move; ``apply`` (default true)."""
    from kubasolve.ai.rummikub import ai_move

    gid, game = _game(params, session)
    move = ai_move(game, str(params.get("ai", "greedy")))
    if params.get("apply", True):
        game.apply(move)
    return {"game": gid, "move": move, "state": game.to_dict()}


@command("rummikub.load-game")
def load_game(params: dict[str, Any], session: Session) -> dict[str, Any]:
    """Rebuild a game from a saved ``state`` (rules, seed, players, moves) by replaying its moves."""
    from kubasolve.games.rummikub.game import RummikubGame

    data = params.get("state")
    if not isinstance(data, dict):
        raise PositionError('"state" must be a saved game object (from rummikub.state)')
    game = RummikubGame.from_dict(data)
    gid = session.new_game_id()
    session.games[gid] = game
    return {"game": gid, "state": game.to_dict()}


@command("rummikub.simulate")
def simulate_cmd(params: dict[str, Any], session: Session) -> dict[str, Any]:
    """AI-vs-AI games: ``games``, ``players`` (list of AI names), ``seed``."""
    from kubasolve.ai.rummikub import simulate

    players = params.get("players", ["greedy", "holdback"])
    if not isinstance(players, list):
        raise PositionError('"players" must be a list such as ["greedy", "holdback"]')
    return simulate(int(params.get("games", 1)), players, int(params.get("seed", 0)), _rules(params)).to_dict()
