"""Engine commands of Scruble Cube (``scruble.*``); schemas and examples in ``docs/engine_scruble.md``."""

from __future__ import annotations

import functools
from typing import Annotated, Any, Literal

from kubasolve.engine.batch import declare_analysis
from kubasolve.engine.commands_session import (
    SessionGame,
    adopt_game,
    call,
    check_rule_files,
    declare_rules,
    declare_v2_state_and_apply,
    lexicon_for,
    new_session_game,
    session_budget,
    v2_answer,
    v2_game,
)
from kubasolve.engine.registry import (
    UNSET,
    Answer,
    GameId,
    LexiconName,
    Meta,
    MoveTimeMs,
    Params,
    SeedInt,
    Session,
    UnsetType,
    budget_proof,
    command,
    given,
)
from kubasolve.errors import IllegalMoveError, KubasolveError, StateError
from kubasolve.games.limits import SCRUBLE_MAX_TOP

State = Annotated[str, Meta(min_length=96, max_length=400, description="96-symbol cube state (docs/scruble.md)")]
TwistToken = Annotated[str, Meta(min_length=1, max_length=6)]
AiName = Literal["random", "greedy", "planner"]
WithState = Annotated[bool, Meta(description="answer with the whole state (false: only to_move, turn, scores, over)")]
# The default time budget (registry.DEFAULT_MOVETIME_MS, 10 s): ``scruble.best``, ``scruble.legal-moves`` and
# ``scruble.ai-move`` without a budget stop after this long (``proven_optimal`` false), so no request runs unbounded;
# the largest request measured (``best`` at depth 3 with top 4096) takes about a second, a planner turn 0.3-0.6 s.
MAX_STATES = 10**8
"""Largest ``max_nodes``: about 10 minutes of search at the fastest rate measured (150 states/ms), like the
``movetime_ms`` cap."""
States = Annotated[int, Meta(ge=1, le=MAX_STATES, description="twist states to expand in all (a state: a cube reached by "
                                                              "a twist sequence, its belts scanned); answers with the "
                                                              "best found")]


class ScrubleRulesSpec(Params):
    """Optional rule settings (docs/scruble.md); unset ones keep the defaults."""

    min_length: Annotated[int, Meta(ge=2, le=16)] | UnsetType = UNSET
    require_new_letter: bool | UnsetType = UNSET
    premium_mode: Literal["ends", "wild"] | UnsetType = UNSET
    three_face_bonus: Annotated[int, Meta(ge=0, le=1000)] | UnsetType = UNSET
    crossing: bool | UnsetType = UNSET
    directions: Literal["both", "forward"] | UnsetType = UNSET
    full_belt_words: bool | UnsetType = UNSET
    max_twists: Annotated[int, Meta(ge=1, le=6)] | UnsetType = UNSET
    target_score: Annotated[int, Meta(ge=1, le=100_000)] | UnsetType = UNSET
    rounds: Annotated[int, Meta(ge=1, le=1000)] | UnsetType = UNSET
    pegs: Literal["en", "es"] | UnsetType = UNSET


def _rules(spec: ScrubleRulesSpec | UnsetType) -> Any:
    from kubasolve.games.scruble.rules import ScrubleRules

    return ScrubleRules.from_dict(given(spec)) if spec is not UNSET else ScrubleRules()


class ScrambleParams(Params):
    seed: SeedInt = 0
    rules: ScrubleRulesSpec | UnsetType = UNSET


class BestParams(Params):
    state: State
    depth: Annotated[int, Meta(ge=0, le=3, description="twists allowed (depth 3: about a second; 0 only with "
                                                        "require_new_letter false)")] = 2
    top: Annotated[int, Meta(ge=1, le=SCRUBLE_MAX_TOP)] = 10
    rules: ScrubleRulesSpec | UnsetType = UNSET
    lexicon: LexiconName = "en"
    movetime_ms: MoveTimeMs | None = None
    max_nodes: States | None = None


def _budget(p: BestParams | BudgetedGameParams, session: Session) -> Any:
    """The request's :class:`StateBudget`: its ``movetime_ms``/``max_nodes`` (10 s when it gives neither), stopped by a
    ``stop`` request."""
    from kubasolve.games.scruble.solver import StateBudget

    return session_budget(session, p.movetime_ms, p.max_nodes).meter(StateBudget)


class ScrambleAnswer(Answer):
    seed: int
    state: str


@command("scruble.scramble", ScrambleParams, ScrambleAnswer)
def scramble(p: ScrambleParams, session: Session) -> dict[str, Any]:
    """A seeded scrambled cube state (the pegs placed at random)."""
    from kubasolve.games.scruble.position import Cube

    return {"seed": p.seed, "state": Cube.scrambled(_rules(p.rules).pegs, p.seed).notation()}


class BestAnswer(Answer):
    states: int
    moves: list[dict[str, Any]]
    proven_optimal: bool
    nodes: int


@command("scruble.best", BestParams, BestAnswer)
def best(p: BestParams, session: Session) -> dict[str, Any]:
    """The ``top`` best words reachable within ``depth`` twists, best first (score, then fewer twists). With a budget
    (``movetime_ms``, ``max_nodes``; default 10 s) the best words of the states expanded by then, ``proven_optimal``
    false if it ran out."""
    from kubasolve.engine.lexicons import resolve_lexicon
    from kubasolve.games.scruble.position import require_cube
    from kubasolve.games.scruble.solver import require_twist_for_new_letter, search, warm_up

    rules = _rules(p.rules)
    cube = require_cube(p.state, rules)
    require_twist_for_new_letter(p.depth, rules, key="params.depth")
    lexicon = resolve_lexicon(p.lexicon, alphabet=rules.pegs.alphabet)  # an operator's list in the pegs' letters
    warm_up(cube, lexicon, rules)  # one-time loading does not count against the budget
    budget = _budget(p, session)
    moves, stats = search(cube, lexicon, rules, p.depth, p.top, budget=budget)
    return {"states": stats.states, "moves": [m.as_dict() for m in moves], **budget_proof(budget)}


# ------------------------------------------------------------------------------------------------ games
# The v2 session commands: aliases over the protocol code in commands_session (docs/engine_scruble.md); v3's
# new-game/legal-moves/apply-move/ai-move are the ones to use.
declare_rules("scruble", ScrubleRulesSpec, shown=lambda rules: {"pegs": rules.pegs.name}, files={"pegs": ("en", "es")})  # (the library writes the whole peg table)


class NewGameParams(Params):
    seed: SeedInt = 0
    players: Annotated[int, Meta(ge=1, le=4)] = 2
    rules: ScrubleRulesSpec | UnsetType = UNSET
    lexicon: LexiconName = "en"
    state: Annotated[dict[str, Any], Meta(description="a saved state (scruble.state) to resume, checked by replay")] | UnsetType = UNSET


class GameParams(Params):
    game: GameId


class BudgetedGameParams(GameParams):
    movetime_ms: MoveTimeMs | None = None
    max_nodes: States | None = None


class LegalMovesParams(BudgetedGameParams):
    depth: Annotated[int, Meta(ge=1, le=3)] = 2
    top: Annotated[int, Meta(ge=1, le=SCRUBLE_MAX_TOP)] = 10


class TurnSpec(Params):
    twists: Annotated[list[TwistToken], Meta(min_length=1, max_length=12)]
    word: Annotated[str, Meta(min_length=1, max_length=16)] | UnsetType = UNSET
    cells: Annotated[list[Annotated[int, Meta(ge=0, le=95)]], Meta(min_length=1, max_length=16)] | UnsetType = UNSET


class ApplyMoveParams(GameParams):
    move: TurnSpec
    state: WithState = True


class AiMoveParams(BudgetedGameParams):
    ai: AiName = "planner"
    seed: SeedInt = 0
    apply: Annotated[bool, Meta(description="apply the chosen turn (false: only show it)")] = True
    state: WithState = True


def _game(p: GameParams, session: Session) -> SessionGame:
    return v2_game(p.game, session, "scruble")


_SUMMARY = ("to_move", "turn", "scores", "over")
_answer = functools.partial(v2_answer, summary=_SUMMARY, players=False)


class V2Answer(Answer):
    game: str
    state: dict[str, Any] | UnsetType = UNSET
    to_move: int | UnsetType = UNSET
    turn: int | UnsetType = UNSET
    scores: list[int] | UnsetType = UNSET
    over: bool | UnsetType = UNSET


def _saved_rules(state: dict[str, Any]) -> Any:
    """The rules a saved game ``state`` holds (the defaults when it holds none), read before its history is replayed:
    an operator's word list is read in their pegs' letters (as ``scruble.best`` and the session games read it)."""
    from kubasolve.games.scruble.rules import ScrubleRules

    check_rule_files("scruble", state.get("rules"))  # a peg set by its bundled name or as a table, never a file
    try:
        return ScrubleRules.from_dict(state.get("rules", {}))
    except KubasolveError as exc:
        raise StateError(f"params.state.rules: {exc}", key="params.state.rules") from None


@command("scruble.new-game", NewGameParams, V2Answer)
def new_game(p: NewGameParams, session: Session) -> dict[str, Any]:
    """v2 (use new-game): scramble a new game (``seed``, ``players`` 1-4, ``rules``), or resume a saved ``state``."""
    if p.state is UNSET:
        gid, sg = new_session_game(session, "scruble", seed=p.seed, players=p.players,
                                   rules=given(p.rules) if p.rules is not UNSET else UNSET, lexicon=p.lexicon)
        return _answer(gid, sg)
    from kubasolve.games.scruble.game import ScrubleGame
    from kubasolve.games.scruble.protocol import check_dealt_from_seed

    if p.rules is not UNSET:
        raise KubasolveError("params.rules: not allowed with state (the state holds it)", key="params.rules")
    native = ScrubleGame.from_dict(p.state, lexicon_for(p.lexicon, alphabet=_saved_rules(p.state).pegs.alphabet))
    check_dealt_from_seed(native, "params.state.seed")
    gid, sg = adopt_game(session, "scruble", native.rules, p.lexicon, native)
    return _answer(gid, sg)


class LegalMovesAnswer(Answer):
    game: str
    player: int
    moves: list[dict[str, Any]]
    proven_optimal: bool
    nodes: int


@command("scruble.legal-moves", LegalMovesParams, LegalMovesAnswer)
def legal_moves(p: LegalMovesParams, session: Session) -> dict[str, Any]:
    """v2 (use legal-moves): the ``top`` best words the player to move reaches within ``depth`` twists (at most the
    rules' max_twists). With a budget (``movetime_ms``, ``max_nodes``; default 10 s) the best words found by then,
    ``proven_optimal`` false if it ran out."""
    from kubasolve.games.scruble.solver import search

    sg = _game(p, session)
    game = sg.native
    if game.over:
        raise IllegalMoveError("the game is over")
    sg.game.warm_up()  # one-time loading does not count against the budget
    budget = _budget(p, session)
    depth = min(p.depth, game.rules.max_twists)
    moves, _ = search(game.cube, sg.game.lexicon, game.rules, depth, p.top, game.intact_words(), budget=budget,
                      spent=game.spent_premiums())
    return {"game": p.game, "player": game.to_move, "moves": [m.as_dict() for m in moves], **budget_proof(budget)}


class PlayedAnswer(V2Answer, kw_only=True):
    played: dict[str, Any] | UnsetType = UNSET
    move: dict[str, Any] | UnsetType = UNSET
    proven_optimal: bool | UnsetType = UNSET
    nodes: int | UnsetType = UNSET


declare_v2_state_and_apply(
    "scruble", ApplyMoveParams, V2Answer, apply_answer=PlayedAnswer, summary=_SUMMARY, players=False,
    extra=lambda sg: {"played": sg.native.history[-1]},
    state_doc="v2 (use state): the full JSON state of a running game (start cube and history: replayable).",
    apply_doc="v2 (use apply-move): apply a turn (twists, optional word and cells); an illegal turn is an error with the "
              "reason, state unchanged.")


@command("scruble.ai-move", AiMoveParams, PlayedAnswer)
def ai_move(p: AiMoveParams, session: Session) -> dict[str, Any]:
    """v2 (use ai-move): AI ``ai`` chooses the turn of the player to move; ``apply`` (default true) applies it. The
    budget (``movetime_ms``, ``max_nodes``; default 10 s) bounds the AI's searches in all: when it runs out the AI plays
    the best it evaluated by then (docs/engine_scruble.md), ``proven_optimal`` false."""
    sg = _game(p, session)
    chosen = call(sg.game.ai_move, sg.state, p.ai, session_budget(session, p.movetime_ms, p.max_nodes), p.seed)
    proof = {"proven_optimal": chosen.proven_optimal, "nodes": chosen.nodes}
    if p.apply:
        sg.state = call(sg.game.apply, sg.state, chosen.action)
        return _answer(p.game, sg, p.state, played=sg.native.history[-1], **proof)
    return _answer(p.game, sg, p.state, move={k: v for k, v in chosen.action.items() if k != "type"}, **proof)


declare_analysis("scruble", "scruble.best")  # kubasolve analyse --game scruble: a line is this command's params
