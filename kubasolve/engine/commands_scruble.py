"""Engine commands of Scruble Cube (``scruble.*``); schemas and examples in ``docs/engine_scruble.md``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from kubasolve.engine.registry import (
    MAX_INT,
    UNSET,
    GameId,
    LexiconName,
    Meta,
    MoveTimeMs,
    Params,
    Session,
    UnsetType,
    budget_proof,
    command,
    given,
    lookup_game,
    movetime_or_default,
)
from kubasolve.errors import IllegalMoveError, KubasolveError

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
    seed: Annotated[int, Meta(ge=0, le=MAX_INT)] = 0
    rules: ScrubleRulesSpec | UnsetType = UNSET


class BestParams(Params):
    state: State
    depth: Annotated[int, Meta(ge=0, le=3, description="twists allowed (depth 3: about a second; 0 only with "
                                                        "require_new_letter false)")] = 2
    top: Annotated[int, Meta(ge=1, le=4096)] = 10
    rules: ScrubleRulesSpec | UnsetType = UNSET
    lexicon: LexiconName = "en"
    movetime_ms: MoveTimeMs | None = None
    max_nodes: States | None = None


def _budget(p: BestParams | BudgetedGameParams) -> Any:
    """The request's :class:`StateBudget`: its ``movetime_ms``/``max_nodes``, or 10 s when it gives neither."""
    from kubasolve.games.scruble.solver import StateBudget

    return StateBudget(p.max_nodes, movetime_or_default(p.movetime_ms, p.max_nodes))


@command("scruble.scramble", ScrambleParams)
def scramble(p: ScrambleParams, session: Session) -> dict[str, Any]:
    """A seeded scrambled cube state (the pegs placed at random)."""
    from kubasolve.games.scruble.position import Cube

    return {"seed": p.seed, "state": Cube.scrambled(_rules(p.rules).pegs, p.seed).notation()}


@command("scruble.best", BestParams)
def best(p: BestParams, session: Session) -> dict[str, Any]:
    """The ``top`` best words reachable within ``depth`` twists, best first (score, then fewer twists). With a budget
    (``movetime_ms``, ``max_nodes``; default 10 s) the best words of the states expanded by then, ``proven_optimal``
    false if it ran out."""
    from kubasolve.games.scruble.position import require_cube
    from kubasolve.games.scruble.solver import require_twist_for_new_letter, search, warm_up
    from kubasolve.lexicon import load_lexicon

    rules = _rules(p.rules)
    cube = require_cube(p.state, rules)
    require_twist_for_new_letter(p.depth, rules, key="params.depth")
    lexicon = load_lexicon(p.lexicon)
    warm_up(cube, lexicon, rules)  # one-time loading does not count against the budget
    budget = _budget(p)
    moves, stats = search(cube, lexicon, rules, p.depth, p.top, budget=budget)
    return {"states": stats.states, "moves": [m.as_dict() for m in moves], **budget_proof(budget)}


# ------------------------------------------------------------------------------------------------ games
@dataclass
class ScrubleSessionGame:
    game: Any
    lexicon: Any


class NewGameParams(Params):
    seed: Annotated[int, Meta(ge=0, le=MAX_INT)] = 0
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
    top: Annotated[int, Meta(ge=1, le=4096)] = 10


class TurnSpec(Params):
    twists: Annotated[list[TwistToken], Meta(min_length=1, max_length=12)]
    word: Annotated[str, Meta(min_length=1, max_length=16)] | UnsetType = UNSET
    cells: Annotated[list[Annotated[int, Meta(ge=0, le=95)]], Meta(min_length=1, max_length=16)] | UnsetType = UNSET


class ApplyMoveParams(GameParams):
    move: TurnSpec
    state: WithState = True


class AiMoveParams(BudgetedGameParams):
    ai: AiName = "planner"
    seed: Annotated[int, Meta(ge=0, le=MAX_INT)] = 0
    apply: Annotated[bool, Meta(description="apply the chosen turn (false: only show it)")] = True
    state: WithState = True


def _game(p: GameParams, session: Session) -> ScrubleSessionGame:
    game: ScrubleSessionGame = lookup_game(p.game, session, ScrubleSessionGame, "scruble", "scruble.new-game")
    return game


def _answer(gid: str, g: ScrubleSessionGame, with_state: bool = True, **extra: Any) -> dict[str, Any]:
    out: dict[str, Any] = {"game": gid, **extra}
    if with_state:
        out["state"] = g.game.to_dict()
    else:
        out.update(to_move=g.game.to_move, turn=g.game.turn, scores=list(g.game.scores), over=g.game.over)
    return out


@command("scruble.new-game", NewGameParams)
def new_game(p: NewGameParams, session: Session) -> dict[str, Any]:
    """Scramble a new game (``seed``, ``players`` 1-4, ``rules``), or resume a saved ``state``."""
    from kubasolve.games.scruble.game import ScrubleGame
    from kubasolve.lexicon import load_lexicon

    lexicon = load_lexicon(p.lexicon)
    if p.state is not UNSET:
        if p.rules is not UNSET:
            raise KubasolveError("params.rules: not allowed with state (the state holds it)", key="params.rules")
        game = ScrubleGame.from_dict(p.state, lexicon)
    else:
        game = ScrubleGame.new(p.players, p.seed, _rules(p.rules))
    g = ScrubleSessionGame(game, lexicon)
    return _answer(session.add_game(g), g)


@command("scruble.state", GameParams)
def state_cmd(p: GameParams, session: Session) -> dict[str, Any]:
    """The full JSON state of a running game (start cube and history: replayable)."""
    return _answer(p.game, _game(p, session))


@command("scruble.legal-moves", LegalMovesParams)
def legal_moves(p: LegalMovesParams, session: Session) -> dict[str, Any]:
    """The ``top`` best words the player to move reaches within ``depth`` twists (at most the rules' max_twists). With a
    budget (``movetime_ms``, ``max_nodes``; default 10 s) the best words found by then, ``proven_optimal`` false if it ran out."""
    from kubasolve.games.scruble.solver import search, warm_up

    g = _game(p, session)
    if g.game.over:
        raise IllegalMoveError("the game is over")
    warm_up(g.game.cube, g.lexicon, g.game.rules)  # one-time loading does not count against the budget
    budget = _budget(p)
    depth = min(p.depth, g.game.rules.max_twists)
    moves, _ = search(g.game.cube, g.lexicon, g.game.rules, depth, p.top, g.game.intact_words(), budget=budget,
                      spent=g.game.spent_premiums())
    return {"game": p.game, "player": g.game.to_move, "moves": [m.as_dict() for m in moves], **budget_proof(budget)}


@command("scruble.apply-move", ApplyMoveParams)
def apply_move(p: ApplyMoveParams, session: Session) -> dict[str, Any]:
    """Apply a turn (twists, optional word and cells); an illegal turn is an error with the reason, state unchanged."""
    from kubasolve.games.scruble.game import Turn

    g = _game(p, session)
    m = p.move
    turn = Turn(tuple(m.twists), None if m.word is UNSET else m.word, None if m.cells is UNSET else tuple(m.cells))
    rec = g.game.play(turn, g.lexicon)
    return _answer(p.game, g, p.state, played=rec)


@command("scruble.ai-move", AiMoveParams)
def ai_move(p: AiMoveParams, session: Session) -> dict[str, Any]:
    """AI ``ai`` chooses the turn of the player to move; ``apply`` (default true) applies it. The budget
    (``movetime_ms``, ``max_nodes``; default 10 s) bounds the AI's searches in all: when it runs out the AI plays
    the best it evaluated by then (docs/engine_scruble.md), ``proven_optimal`` false."""
    from kubasolve.ai.scruble import make_policy
    from kubasolve.games.scruble.solver import warm_up

    g = _game(p, session)
    if g.game.over:
        raise IllegalMoveError("the game is over")
    warm_up(g.game.cube, g.lexicon, g.game.rules)  # one-time loading does not count against the budget
    budget = _budget(p)
    turn = make_policy(p.ai, p.seed)(g.game, g.lexicon, budget)
    proof = budget_proof(budget)
    if p.apply:
        rec = g.game.play(turn, g.lexicon)
        return _answer(p.game, g, p.state, played=rec, **proof)
    return _answer(p.game, g, p.state, move=turn.to_dict(), **proof)
