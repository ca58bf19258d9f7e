"""Engine commands for whole Kubagram games (``kubagram.*``); schemas in ``docs/engine_kubagram_game.md``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from kubasolve.engine.commands_kubagram import (
    KubagramRulesSpec,
    kubagram_rules,
)
from kubasolve.engine.registry import (
    MAX_INT,
    UNSET,
    ApplyMove,
    GameParams,
    Meta,
    MoveTimeMs,
    Name,
    Params,
    Seed,
    Session,
    UnsetType,
    WithState,
    command,
    given,
    lookup_game,
)
from kubasolve.errors import IllegalMoveError, KubasolveError, LimitError, RulesError
from kubasolve.games.limits import KUBAGRAM_MAX_CLAIM_FIELD as MAX_CLAIM_FIELD
from kubasolve.games.limits import KUBAGRAM_MAX_PLANNER_DEPTH as MAX_PLANNER_DEPTH
from kubasolve.games.limits import KUBAGRAM_MAX_SEARCH_NODES as MAX_SEARCH_NODES
from kubasolve.games.limits import KUBAGRAM_MAX_WORD as MAX_WORD

MAX_PLAYERS = 8
AiName = Annotated[str, Meta(pattern=r"^[a-z][a-z0-9_-]{0,31}(:[1-9][0-9]{0,5})?$",
                             description=f"an AI: random, greedy, planner, planner:DEPTH (1-{MAX_PLANNER_DEPTH}), search, "
                                         f"search:NODES (1-{MAX_SEARCH_NODES})")]
Rotation = Literal[0, 90, 180, 270] | Annotated[str, Meta(max_length=20, description="a corner name such as top-right")]


@dataclass
class KubagramSessionGame:
    """A running game in an engine session: the referee, the current state and the seat names."""

    referee: Any
    state: Any
    players: list[str]


class GameRulesSpec(Params):
    """Kubagram game settings beyond scoring (``KubagramGameRules``; the player count comes from ``players``)."""

    vowel_rule_consonants: Annotated[int, Meta(ge=0, le=200)] | UnsetType = UNSET
    vowels: Annotated[str, Meta(min_length=1, max_length=26)] | UnsetType = UNSET
    nonword_penalty: Annotated[int, Meta(ge=0, le=1000)] | UnsetType = UNSET
    skips_per_game: Annotated[int, Meta(ge=0, le=100)] | UnsetType = UNSET
    missed_claims: bool | UnsetType = UNSET


class NewGameParams(Params):
    seed: Seed | UnsetType = UNSET
    players: Annotated[int, Meta(ge=1, le=MAX_PLAYERS)] | Annotated[list[Name], Meta(min_length=1, max_length=MAX_PLAYERS)] | UnsetType = UNSET
    rules: KubagramRulesSpec | UnsetType = UNSET
    game_rules: GameRulesSpec | UnsetType = UNSET
    rotation: Rotation | UnsetType = UNSET
    state: Annotated[dict[str, Any], Meta(description="a saved state (kubagram.state) to resume; excludes seed, rules, game_rules, rotation")] | UnsetType = UNSET


class LegalMovesParams(GameParams):
    claims: Annotated[int, Meta(ge=1, le=100, description="how many best word claims and best compounds to list")] = 10


class MoveSpec(Params):
    """One action (see docs/engine_kubagram_game.md)."""

    type: Literal["take", "place-zero", "claim", "skip", "end"]
    letter: Annotated[str, Meta(min_length=1, max_length=1)] | UnsetType = UNSET
    keep: bool | UnsetType = UNSET
    word: Annotated[str, Meta(min_length=1, max_length=MAX_WORD)] | UnsetType = UNSET
    tiles: Annotated[list[Annotated[int, Meta(ge=0, le=200)]], Meta(max_length=MAX_WORD)] | UnsetType | None = UNSET
    parts: Annotated[list[Annotated[int, Meta(ge=0, le=200)] | None], Meta(max_length=16)] | UnsetType = UNSET


class ApplyMoveParams(GameParams):
    move: MoveSpec
    state: WithState = True


class AiMoveParams(GameParams):
    ai: AiName = "planner"
    seed: Annotated[int, Meta(ge=0, le=MAX_INT)] = 0
    apply: ApplyMove = True
    state: WithState = True
    movetime_ms: MoveTimeMs | None = None
    max_nodes: Annotated[int, Meta(ge=1, le=MAX_SEARCH_NODES, description="simulated turns for the planner and the search AI")] | None = None


def _game(p: GameParams, session: Session) -> KubagramSessionGame:
    game: KubagramSessionGame = lookup_game(p.game, session, KubagramSessionGame, "Kubagram", "kubagram.new-game")
    return game


def _answer(gid: str, game: KubagramSessionGame, with_state: bool = True, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"game": gid, "players": game.players, **extra}
    if with_state:
        out["state"] = game.state.to_dict()
    else:
        s = game.state
        out.update(current=s.current, phase=s.phase, turn=s.turn, taken=s.taken, scores=list(s.scores))
    return out


@command("kubagram.new-game", NewGameParams)
def new_game(p: NewGameParams, session: Session) -> dict[str, Any]:
    """Deal a new game: ``seed``, ``players`` (a count or a list of names such as ["human", "greedy"]),
    optional ``rules`` and ``game_rules`` objects, optional ``rotation``; or ``state`` to resume a saved game."""
    from kubasolve.games.kubagram.game import default_referee
    from kubasolve.games.kubagram.game_rules import KubagramGameRules
    from kubasolve.games.kubagram.state import GameState

    if p.state is not UNSET:
        clash = [k for k in ("seed", "rules", "game_rules", "rotation") if getattr(p, k) is not UNSET]
        if clash:
            raise KubasolveError(f"params.{clash[0]}: not allowed with state (the state holds it)", key=f"params.{clash[0]}")
        state = GameState.from_dict(p.state)
        referee = default_referee(state.rules, state.game_rules)
        if isinstance(p.players, list):
            if len(p.players) != state.n_players:
                raise KubasolveError(f"params.players: the state has {state.n_players} players, got {len(p.players)} names",
                                     key="params.players")
            names = list(p.players)
        elif isinstance(p.players, int) and p.players != state.n_players:
            raise KubasolveError(f"params.players: the state has {state.n_players} players", key="params.players")
        else:
            names = [f"player{i}" for i in range(state.n_players)]
        game = KubagramSessionGame(referee, state, names)
    else:
        players = 2 if p.players is UNSET else p.players
        names = [f"player{i}" for i in range(players)] if isinstance(players, int) else list(players)
        rules = kubagram_rules(p.rules if p.rules is not UNSET else None)
        settings = given(p.game_rules) if p.game_rules is not UNSET else {}
        game_rules = KubagramGameRules.from_dict({**settings, "n_players": len(names)})
        referee = default_referee(rules, game_rules)
        state = referee.new_game(0 if p.seed is UNSET else p.seed, rotation=None if p.rotation is UNSET else p.rotation)
        game = KubagramSessionGame(referee, state, names)
    gid = session.add_game(game)
    return _answer(gid, game)


@command("kubagram.state", GameParams)
def state_cmd(p: GameParams, session: Session) -> dict[str, Any]:
    """The full state of a running game (JSON snapshot, history included)."""
    return _answer(p.game, _game(p, session))


def _claim_value(referee: Any, state: Any, action: Any) -> dict[str, int]:
    """What a claim is worth to the player to move: ``score`` (their gain) and ``taken`` (what the others lose)."""
    after = referee.apply(state, action)
    me = state.current
    gain = after.scores[me] - state.scores[me]
    taken = sum(max(0, before - now) for p, (before, now) in enumerate(zip(state.scores, after.scores)) if p != me)
    return {"score": gain, "taken": taken}


@command("kubagram.legal-moves", LegalMovesParams)
def legal_moves(p: LegalMovesParams, session: Session) -> dict[str, Any]:
    """Legal actions for the player to move: every take/skip/place choice, the ``claims`` best word claims and
    best compounds (each with its ``score`` and ``taken``), and ending the turn."""
    from kubasolve.games.kubagram.actions import Claim

    game = _game(p, session)
    moves = []
    for m in game.referee.legal_actions(game.state, p.claims):
        entry = {**m.to_dict(), "text": m.describe()}
        if isinstance(m, Claim):
            entry.update(_claim_value(game.referee, game.state, m))
        moves.append(entry)
    return {"game": p.game, "player": game.state.current, "phase": game.state.phase, "moves": moves}


@command("kubagram.apply-move", ApplyMoveParams)
def apply_move(p: ApplyMoveParams, session: Session) -> dict[str, Any]:
    """Apply ``move`` (an action object) for the player to move; an illegal move is an error, state unchanged."""
    game = _game(p, session)
    game.state = game.referee.apply(game.state, given(p.move))
    return _answer(p.game, game, p.state)


def _policy(p: AiMoveParams) -> Any:
    """The AI named by ``p.ai`` with the request's budget: the planner and the search AI stop their rollouts and
    search at ``max_nodes``/``movetime_ms``; greedy (one exact solve per take option) and random take no budget and
    answer at once."""
    from dataclasses import replace

    from kubasolve.ai.kubagram import PlannerPolicy, SearchPolicy, make_policy

    arg = p.ai.partition(":")[2]
    try:
        policy = make_policy(p.ai, p.seed)  # checks planner:N and search:N against the library's bounds
    except RulesError as exc:
        raise KubasolveError(f"params.ai: {exc}", key="params.ai") from None
    if (p.max_nodes is None and p.movetime_ms is None) or not isinstance(policy, (PlannerPolicy, SearchPolicy)):
        return policy
    # max_nodes overrides search:NODES; with movetime_ms alone the time bounds the move (plain "search")
    nodes = p.max_nodes if p.max_nodes is not None else (policy.max_nodes if arg else None)
    return replace(policy, max_nodes=nodes, movetime_ms=p.movetime_ms)


@command("kubagram.ai-move", AiMoveParams)
def ai_move(p: AiMoveParams, session: Session) -> dict[str, Any]:
    """Let AI ``ai`` play the rest of the current turn; ``apply`` (default true) applies the actions. A budget,
    ``movetime_ms`` and/or ``max_nodes``, bounds the planner and the search AI (they answer with the best turn
    searched by then); greedy and random need none."""

    game = _game(p, session)
    if game.state.over:
        raise IllegalMoveError("the game is over")
    tiles = len(game.state.tile_sources())
    if tiles > MAX_CLAIM_FIELD:
        raise LimitError(f"the AIs search fields of at most {MAX_CLAIM_FIELD} tiles, this one holds {tiles} "
                         "(claim words to shrink it, or choose from kubagram.legal-moves)", key="params.game")
    policy = _policy(p)
    actions = policy.turn(game.referee, game.state)
    if p.apply:
        for a in actions:
            game.state = game.referee.apply(game.state, a)
    return _answer(p.game, game, p.state, actions=[{**a.to_dict(), "text": a.describe()} for a in actions])

