"""Engine commands of Rummikub (all named ``rummikub.*``; schemas in docs/engine_rummikub.md).

Bounds: a rack holds at most ``MAX_RACK`` tiles, a table at most ``MAX_SETS`` sets of at most
``MAX_SET`` tiles (text forms at most ``MAX_TEXT`` characters), so nothing is parsed beyond them;
``rummikub.simulate`` plays at most ``MAX_SIM_GAMES`` games per request.
"""

from __future__ import annotations

import functools
from typing import Annotated, Any, ClassVar, Literal

import msgspec

from kubasolve.engine.batch import declare_analysis
from kubasolve.engine.commands_session import (
    SessionGame,
    adopt_game,
    call,
    declare_rules,
    new_session_game,
    session_budget,
    v2_answer,
    v2_game,
)
from kubasolve.engine.registry import (
    DEFAULT_MOVETIME_MS,
    UNSET,
    Answer,
    ApplyMove,
    GameId,
    GameParams,
    Meta,
    MoveTimeMs,
    Name,
    Params,
    SeedInt,
    Session,
    UnsetType,
    WithState,
    command,
    given,
)
from kubasolve.errors import IllegalMoveError, KubasolveError, LimitError, StateError

MAX_RACK = 120
MAX_SET = 32
MAX_SETS = 120
MAX_TEXT = 4000
MAX_SIM_GAMES = 100
MAX_PLAYERS = 8

TileText = Annotated[str, Meta(min_length=1, max_length=4, description='a tile such as "r7" or "J"')]
SetList = Annotated[list[TileText], Meta(max_length=MAX_SET)]
TableSpec = (Annotated[str, Meta(max_length=MAX_TEXT, description='sets separated by "|", e.g. "r1 r2 r3 | b10 o10 k10"')]
             | Annotated[list[SetList | Annotated[str, Meta(max_length=200)]], Meta(max_length=MAX_SETS)])
RackSpec = Annotated[str, Meta(max_length=MAX_TEXT, description='tiles separated by spaces, e.g. "r4 J b11"')] | Annotated[list[TileText], Meta(max_length=MAX_RACK)]
ObjectiveName = Literal["tiles", "value", "keep-jokers", "penalty"]
AiName = Annotated[str, Meta(min_length=1, max_length=32, pattern=r"^[a-z0-9:_-]+$", description="greedy or holdback")]
MAX_NODES = 10**9
# The default time budget (registry.DEFAULT_MOVETIME_MS, 10 s): ``rummikub.solve`` and ``rummikub.ai-move`` without a
# budget stop after this long (``proven_optimal`` false): rulebook positions take milliseconds (a 106-tile rack 1.5
# s), but a rule variant can make one solve slow (measured 11-20 s for a move of 8 colours, 3 jokers, 40 tiles dealt).
DEFAULT_SIM_NODES = 10**6
"""``rummikub.simulate``: each solve of the AIs stops after this many nodes unless ``max_nodes`` says otherwise
(deterministic; rulebook games never reach it: 30 games gave the same records with 10^5)."""
SolverNodes = Annotated[int, Meta(ge=1, le=MAX_NODES, description="DP states (or ILP branch-and-bound nodes) to explore per solve")]


class RummikubRulesSpec(Params):
    """Rummikub rule settings (``RummikubRules``); omitted ones keep the rulebook defaults (docs/rummikub.md)."""

    numbers: Annotated[int, Meta(ge=1, le=26)] | UnsetType = UNSET
    colours: Annotated[int, Meta(ge=1, le=8)] | UnsetType = UNSET
    copies: Annotated[int, Meta(ge=1, le=4)] | UnsetType = UNSET
    jokers: Annotated[int, Meta(ge=0, le=4)] | UnsetType = UNSET
    min_set_size: Annotated[int, Meta(ge=2, le=6)] | UnsetType = UNSET
    min_first_meld: Annotated[int, Meta(ge=0, le=10_000)] | UnsetType = UNSET
    tiles_dealt: Annotated[int, Meta(ge=1, le=MAX_RACK)] | UnsetType = UNSET
    joker_penalty: Annotated[int, Meta(ge=0, le=10_000)] | UnsetType = UNSET
    timeout_draw: Annotated[int, Meta(ge=0, le=MAX_RACK)] | UnsetType = UNSET
    colour_letters: Annotated[str, Meta(min_length=1, max_length=8)] | UnsetType = UNSET
    joker_retrieval: Annotated[str, Meta(max_length=16, description='"strict" (rulebook) or "free"')] | UnsetType = UNSET
    empty_pool_end: Annotated[str, Meta(max_length=32, description='"no-legal-move" (rulebook) or "round-of-passes"')] | UnsetType = UNSET


def _rules(spec: RummikubRulesSpec | UnsetType | None) -> Any:
    from kubasolve.games.rummikub import RummikubRules

    rules = RummikubRules.from_dict(given(spec) if isinstance(spec, RummikubRulesSpec) else {})
    _check_size(rules)
    return rules


def _check_size(rules: Any) -> None:
    """The library's bound on a variant's catalogue of sets (the CLI applies it too), keyed ``params.rules``."""
    from kubasolve.games.rummikub.sets import check_variant_size

    try:
        check_variant_size(rules)
    except LimitError as exc:
        raise LimitError(str(exc), key="params.rules") from None


declare_rules("rummikub", RummikubRulesSpec, _check_size)
# The v2 session commands below are aliases over the protocol code in commands_session (docs/engine_rummikub.md);
# v3's new-game/legal-moves/apply-move/ai-move are the ones to use.


def _game(gid: str, session: Session) -> SessionGame:
    return v2_game(gid, session, "rummikub")


_answer = functools.partial(v2_answer, summary=("turn", "over", "winner", "scores"), players=False)


class V2Answer(Answer):
    game: str
    state: dict[str, Any] | UnsetType = UNSET
    turn: int | UnsetType = UNSET
    over: bool | UnsetType = UNSET
    winner: int | UnsetType | None = UNSET
    scores: list[int] | UnsetType | None = UNSET


class SolveParams(Params):
    table: TableSpec | UnsetType = UNSET
    rack: RackSpec | UnsetType = UNSET
    game: GameId | UnsetType = UNSET
    objective: ObjectiveName = "tiles"
    first_meld: Annotated[bool, Meta(description="the player has not melded yet (default false; with game: from the game)")] | UnsetType = UNSET
    fewest_changes: bool = False
    method: Literal["auto", "dp", "ilp"] = "auto"
    rules: RummikubRulesSpec | UnsetType = UNSET
    movetime_ms: MoveTimeMs | None = None
    max_nodes: SolverNodes | None = None


class SolveAnswer(Answer):
    found: bool
    played: list[str]
    table: list[list[str]]
    value: int
    objective: str
    first_meld: bool
    kept_sets: int
    changed_sets: int
    jokers_played: int
    proven_optimal: bool
    nodes: int


@command("rummikub.solve", SolveParams, SolveAnswer)
def solve_cmd(p: SolveParams, session: Session) -> dict[str, Any]:
    """Best play for ``table`` + ``rack`` (text or lists of tiles), or for the player to move in ``game``; with a budget
    (``movetime_ms``, ``max_nodes``) the best play found by then, ``proven_optimal`` false if it ran out."""
    from kubasolve.games.rummikub import parse_table, parse_tiles, solve

    if p.game is not UNSET:
        clash = [k for k in ("table", "rack", "rules", "first_meld") if getattr(p, k) is not UNSET]
        if clash:
            raise KubasolveError(f"params.{clash[0]}: not allowed with game (the game holds it)", key=f"params.{clash[0]}")
        game = _game(p.game, session).native
        # as game.best_move, with the request's method and budget
        first_meld = not game.melded[game.turn]
        return solve(game.table, game.rack, game.rules, p.objective, first_meld=first_meld, fewest_changes=p.fewest_changes,
                     method=p.method, budget=session_budget(session, p.movetime_ms, p.max_nodes)).to_dict()
    if p.rack is UNSET:
        raise KubasolveError('params.rack: required (with "table"), or give "game"', key="params.rack")
    rules = _rules(p.rules)
    table = parse_table(p.table if p.table is not UNSET else [], rules)
    rack = parse_tiles(p.rack, rules)
    sol = solve(table, rack, rules, p.objective, first_meld=p.first_meld is True, fewest_changes=p.fewest_changes, method=p.method,
                budget=session_budget(session, p.movetime_ms, p.max_nodes))  # the clock starts after the solver's set-up
    return sol.to_dict()


class NewGameParams(Params):
    players: Annotated[int, Meta(ge=2, le=MAX_PLAYERS)] | Annotated[list[Name], Meta(min_length=2, max_length=MAX_PLAYERS)] = 2
    seed: SeedInt = 0
    rules: RummikubRulesSpec | UnsetType = UNSET


@command("rummikub.new-game", NewGameParams, V2Answer)
def new_game(p: NewGameParams, session: Session) -> dict[str, Any]:
    """v2 (use new-game): deal a new game from ``seed`` for ``players`` (a count or a list of names)."""
    names = p.players if isinstance(p.players, list) else [f"player{i + 1}" for i in range(p.players)]
    gid, sg = new_session_game(session, "rummikub", seed=p.seed, players=names,
                               rules=given(p.rules) if p.rules is not UNSET else UNSET)
    return _answer(gid, sg)


class StateParams(GameParams):
    hide_racks: bool = False


@command("rummikub.state", StateParams, V2Answer)
def state(p: StateParams, session: Session) -> dict[str, Any]:
    """v2 (use state): full state of a running game (racks included unless ``hide_racks``)."""
    return {"game": p.game, "state": _game(p.game, session).native.to_dict(hide_racks=p.hide_racks)}


class MoveSpec(Params):
    """``{"type": "play", "table": <the whole new table>}``, ``{"type": "draw"}`` or ``{"type": "timeout"}``."""

    type: Literal["play", "draw", "timeout"]
    table: TableSpec | UnsetType = UNSET


class ApplyMoveParams(GameParams):
    move: MoveSpec
    state: WithState = True


@command("rummikub.apply-move", ApplyMoveParams, V2Answer)
def apply_move(p: ApplyMoveParams, session: Session) -> dict[str, Any]:
    """v2 (use apply-move): apply ``move`` for the player to move; an illegal move is an error with reasons, state
    unchanged."""
    sg = _game(p.game, session)
    if p.move.type != "play" and p.move.table is not UNSET:
        raise KubasolveError(f"params.move.table: a {p.move.type} takes no table (only a play does)", key="params.move.table")
    sg.state = call(sg.game.apply, sg.state, given(p.move))
    return _answer(p.game, sg, p.state)


class AiMoveParams(GameParams):
    ai: AiName = "greedy"
    apply: ApplyMove = True
    state: WithState = True
    movetime_ms: MoveTimeMs | None = None
    max_nodes: SolverNodes | None = None


class AiMoveAnswer(V2Answer, kw_only=True):
    move: dict[str, Any]
    proven_optimal: bool


@command("rummikub.ai-move", AiMoveParams, AiMoveAnswer)
def ai_move_cmd(p: AiMoveParams, session: Session) -> dict[str, Any]:
    """v2 (use ai-move): let AI ``ai`` (greedy or holdback) choose the move for the player to move; ``apply`` (default
    true). With a budget (``movetime_ms`` for the move, default 10 s; ``max_nodes`` per solve) the best move found by
    then, ``proven_optimal`` false if a solve ran out."""
    sg = _game(p.game, session)
    chosen = call(sg.game.ai_move, sg.state, p.ai, session_budget(session, p.movetime_ms, p.max_nodes), 0)
    if p.apply:
        sg.state = call(sg.game.apply, sg.state, chosen.action)
    return _answer(p.game, sg, p.state, move=chosen.action, proven_optimal=chosen.proven_optimal)


MAX_MOVES = 5000
Count = Annotated[int, Meta(ge=0, le=1000)]


class SavedState(Params):
    """A saved game (``rummikub.state``): ``seed``, ``players`` and ``moves`` replay it; the other keys, when
    present, must agree with the replay (``racks`` may be ``null``: hidden)."""

    seed: SeedInt
    players: Annotated[list[Name], Meta(min_length=2, max_length=MAX_PLAYERS)]
    moves: Annotated[list[MoveSpec], Meta(max_length=MAX_MOVES)] = msgspec.field(default_factory=list)
    rules: RummikubRulesSpec | UnsetType = UNSET
    turn: Annotated[int, Meta(ge=0, le=MAX_PLAYERS - 1)] | UnsetType = UNSET
    table: Annotated[list[SetList], Meta(max_length=MAX_SETS)] | UnsetType = UNSET
    racks: Annotated[list[Annotated[list[TileText], Meta(max_length=1000)]], Meta(max_length=MAX_PLAYERS)] | UnsetType | None = UNSET
    rack_sizes: Annotated[list[Count], Meta(max_length=MAX_PLAYERS)] | UnsetType = UNSET
    pool_size: Count | UnsetType = UNSET
    melded: Annotated[list[bool], Meta(max_length=MAX_PLAYERS)] | UnsetType = UNSET
    over: bool | UnsetType = UNSET
    winner: Annotated[int, Meta(ge=0, le=MAX_PLAYERS - 1)] | UnsetType | None = UNSET
    scores: Annotated[list[Annotated[int, Meta(ge=-100000, le=100000)]], Meta(max_length=MAX_PLAYERS)] | UnsetType | None = UNSET


class LoadGameParams(Params):
    state: SavedState


@command("rummikub.load-game", LoadGameParams, V2Answer)
def load_game(p: LoadGameParams, session: Session) -> dict[str, Any]:
    """Rebuild a game from a saved ``state`` by replaying its moves from the seed (each move checked); every
    other key given must agree with the replay (``RummikubGame.from_dict`` checks it)."""
    from kubasolve.games.rummikub.game import RummikubGame

    data = given(p.state)
    try:
        _rules(p.state.rules)
    except KubasolveError as exc:
        raise type(exc)(f"params.state.rules: {exc}", key="params.state.rules") from None
    try:
        game = RummikubGame.from_dict(data)  # replays the moves and checks every other key against the replay
    except IllegalMoveError as exc:
        raise StateError(f"params.state.moves: {exc}", key="params.state.moves") from None
    except KubasolveError as exc:
        first = str(exc).split(" ", 1)[0]
        key = f"params.state.{first}" if first in SavedState.__struct_fields__ else "params.state"
        raise StateError(f"{key}: {exc}", key=key) from None
    gid, sg = adopt_game(session, "rummikub", game.rules, None, game, game.players)
    return _answer(gid, sg)


class SimulateParams(Params):
    games: Annotated[int, Meta(ge=1, le=MAX_SIM_GAMES)] = 1
    players: Annotated[list[AiName], Meta(min_length=2, max_length=MAX_PLAYERS)] = msgspec.field(
        default_factory=lambda: ["greedy", "holdback"])
    seed: SeedInt = 0
    rules: RummikubRulesSpec | UnsetType = UNSET
    max_nodes: Annotated[SolverNodes, Meta(description="DP states (or ILP nodes) per solve of the AIs (default 10^6)")] = DEFAULT_SIM_NODES
    request_ms: Annotated[MoveTimeMs, Meta(description="time for the whole request (default 10 s): no move starts after "
                                                        "it; the games it cuts are counted in unfinished and out_of_time")] | None = None
    retired: ClassVar[dict[str, str]] = {
        "movetime_ms": "rummikub.simulate names the whole request's time request_ms, as simulate does (there movetime_ms "
                       "is each AI move's budget); give request_ms"}


class SimulateAnswer(Answer):
    games: int
    players: list[str]
    wins: dict[str, int]
    mean_score: dict[str, float]
    unfinished: int
    out_of_time: int


@command("rummikub.simulate", SimulateParams, SimulateAnswer)
def simulate_cmd(p: SimulateParams, session: Session) -> dict[str, Any]:
    """v2 (use simulate): AI-vs-AI games: ``games`` (at most 100 per request), ``players`` (list of AI names), ``seed``;
    within ``request_ms`` (default 10 s) for the whole request, as ``simulate`` names it: the games it cuts short or
    never starts count as ``unfinished`` and ``out_of_time``. The key's old name here, ``movetime_ms`` (which
    ``simulate`` takes per AI move), is refused by name, pointing at ``request_ms``."""
    from kubasolve.engine.commands_session import run_simulation
    from kubasolve.games.rummikub.ai import AIS

    for i, name in enumerate(p.players):
        if name not in AIS:
            raise KubasolveError(f"params.players[{i}]: unknown Rummikub AI {name!r}; choose one of {', '.join(AIS)}",
                                 key=f"params.players[{i}]")
    movetime = DEFAULT_MOVETIME_MS if p.request_ms is None else p.request_ms
    run = run_simulation(session, "rummikub", p.players, p.games, p.seed, given(p.rules) if p.rules is not UNSET else UNSET, UNSET, None,
                         p.max_nodes, time_limit_ms=movetime)
    rows = run["summary"]
    unfinished = run["unfinished"] + p.games - run["games"]
    return {"games": p.games, "players": run["players"], "wins": {r["ai"]: round(r["wins"]) for r in rows},
            "mean_score": {r["ai"]: r["mean_score"] for r in rows}, "unfinished": unfinished, "out_of_time": run["out_of_time"]}


declare_analysis("rummikub", "rummikub.solve")  # kubasolve analyse --game rummikub: a line is this command's params
