"""Engine commands of Word colonies (``colonii.*``); schemas and examples in ``docs/engine_colonii.md``."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

from kubasolve.engine.batch import declare_analysis
from kubasolve.engine.commands_session import (
    SessionGame,
    V2Answer,
    adopt_game,
    call,
    declare_rules,
    declare_v2_state_and_apply,
    new_session_game,
    session_budget,
    v2_answer,
    v2_game,
)
from kubasolve.engine.registry import (
    UNSET,
    Answer,
    GameParams,
    LexiconName,
    Meta,
    MoveTimeMs,
    Name,
    Params,
    SeedInt,
    Session,
    UnsetType,
    command,
    given,
    refuse_with_state,
)
from kubasolve.errors import IllegalMoveError

MAX_PLAYERS = 8
MAX_WORD = 60
MAX_GROUPS = 200
MAX_TOP = 5000
MAX_TURN_MOVES = 30
"""``kubasolve.games.colonii.rules.MAX_TURN_MOVES`` (not imported: the engine loads no game module up front; a test
checks they agree)."""
Letter = Annotated[str, Meta(min_length=1, max_length=1)]
Word = Annotated[str, Meta(min_length=1, max_length=MAX_WORD)]
AiName = Literal["random", "greedy", "planner"]
WithState = Annotated[bool, Meta(description="answer with the whole state (false: only current, turn, scores, over)")]
# The default time budget (registry.DEFAULT_MOVETIME_MS, 10 s): best-turn searches (colonii.best-turn, colonii.legal-
# moves, colonii.ai-move) without a budget stop after this long (proven_optimal false): most 30-card hands are proven
# within 0.02-2.4 s, but some take longer (measured 6.4 s for 3 moves from 30 cards on an empty table, and more when
# no turn uses almost every card).
MAX_TURN_NODES = 3 * 10**11
"""Largest ``max_nodes``: about 10 minutes of best-turn search at the fastest rate measured (550 million nodes/s), like
the ``movetime_ms`` cap."""
TurnNodes = Annotated[int, Meta(ge=1, le=MAX_TURN_NODES, description="best-turn search nodes in all (a node: one move tested "
                                                                      "against the cards left); answers with the best turn found")]


def _budget(p: BestTurnParams | LegalMovesParams, session: Session) -> Any:
    """The request's :class:`TurnBudget`: its ``movetime_ms``/``max_nodes`` (10 s when it gives neither), stopped by a
    ``stop`` request."""
    from kubasolve.games.colonii.movegen import TurnBudget

    return session_budget(session, p.movetime_ms, p.max_nodes).meter(TurnBudget)


class ColoniiRulesSpec(Params):
    """Optional rule settings (docs/colonii.md); unset ones keep the defaults, letter tables override per letter."""

    hand_size: Annotated[int, Meta(ge=1, le=30)] | UnsetType = UNSET
    min_word_length: Annotated[int, Meta(ge=2, le=30)] | UnsetType = UNSET
    supercolony_words: Annotated[int, Meta(ge=3, le=100)] | UnsetType = UNSET
    supercolony_bonus: Annotated[int, Meta(ge=0, le=1000)] | UnsetType = UNSET
    decolonisation_words: Annotated[int, Meta(ge=3, le=100)] | UnsetType = UNSET
    end: Literal["target", "deck"] | UnsetType = UNSET
    target_score: Annotated[int, Meta(ge=1, le=100_000)] | UnsetType = UNSET
    builders: Literal["round-robin"] | UnsetType = UNSET
    max_turn_moves: Annotated[int, Meta(ge=1, le=MAX_TURN_MOVES)] | UnsetType = UNSET
    letter_values: Annotated[dict[Letter, Annotated[int, Meta(ge=0, le=100)]], Meta(max_length=64)] | UnsetType = UNSET
    card_counts: Annotated[dict[Letter, Annotated[int, Meta(ge=0, le=100)]], Meta(max_length=64)] | UnsetType = UNSET


class GroupSpec(Params):
    """A table group: one word, or a colony (a chain of words)."""

    words: Annotated[list[Word], Meta(min_length=1, max_length=100)]
    owner: Annotated[int, Meta(ge=0, le=MAX_PLAYERS - 1)]
    stake: Annotated[int, Meta(ge=0, le=100_000)] = 0
    protected: bool = False
    supercolony: bool = False


class PositionParams(Params):
    hand: Annotated[str, Meta(max_length=30, description="the mover's cards as letters")]
    table: Annotated[list[GroupSpec], Meta(max_length=MAX_GROUPS)] = msgspec.field(default_factory=list)
    mover: Annotated[int, Meta(ge=0, le=MAX_PLAYERS - 1)] = 0
    players: Annotated[int, Meta(ge=1, le=MAX_PLAYERS)] = 2
    objective: Literal["gain", "swing"] = "gain"
    rules: ColoniiRulesSpec | UnsetType = UNSET
    lexicon: LexiconName = "ro"


class MovesParams(PositionParams):
    """``colonii.moves`` lists every legal move with no search: it takes no budget (refused by name, not ignored)."""

    top: Annotated[int, Meta(ge=1, le=MAX_TOP)] = 50


class BestTurnParams(PositionParams):
    movetime_ms: MoveTimeMs | None = None
    max_nodes: TurnNodes | None = None
    max_moves: Annotated[int, Meta(ge=1, le=MAX_TURN_MOVES, description="word moves in the turn (default the rules' "
                                   "max_turn_moves); the exact search covers 3")] | UnsetType = UNSET


def _rules(spec: ColoniiRulesSpec | UnsetType) -> Any:
    from kubasolve.games.colonii.rules import ColoniiRules

    return ColoniiRules.from_dict(given(spec)) if spec is not UNSET else ColoniiRules()


def _solver_and_position(p: PositionParams) -> tuple[Any, Any]:
    from kubasolve.engine.lexicons import resolve_lexicon
    from kubasolve.games.colonii.movegen import solver_for
    from kubasolve.games.colonii.table import ColoniiPosition, Group

    rules = _rules(p.rules)
    lexicon = resolve_lexicon(p.lexicon, alphabet=rules.alphabet)  # an operator's list in the game's letters
    table = tuple(Group(tuple(w.lower() for w in g.words), g.owner, g.stake, g.protected, g.supercolony) for g in p.table)
    position = ColoniiPosition(table, p.hand.lower(), p.mover, p.players)
    return solver_for(lexicon, rules), position


class MovesAnswer(Answer):
    count: int
    moves: list[dict[str, Any]]


@command("colonii.moves", MovesParams, MovesAnswer)
def moves(p: MovesParams, session: Session) -> dict[str, Any]:
    """Every legal move for ``hand`` on ``table`` (new words, extensions, conquests A/B, colony
    starts and additions, the owner's declarations and decolonisations), best first by ``objective``,
    each with every player's score change."""
    solver, position = _solver_and_position(p)
    found = solver.all_moves(position, p.objective, p.top)
    return {"count": solver.count_moves(position), "moves": [m.to_dict() for m in found]}


class BestTurnAnswer(Answer):
    moves: list[dict[str, Any]]
    cards: str
    gain: int
    taken: int
    proven_optimal: bool
    nodes: int


@command("colonii.best-turn", BestTurnParams, BestTurnAnswer)
def best_turn(p: BestTurnParams, session: Session) -> dict[str, Any]:
    """The best turn: a sequence of up to ``max_moves`` word moves (default the rules' ``max_turn_moves``; the
    exact search covers 3), each judged on the table the previous ones left, with the owner's declarations and
    decolonisations when they pay. Exact, or within the budget (``movetime_ms``, ``max_nodes``; default 10 s)
    the best turn found by then, ``proven_optimal`` false if it ran out (or if more than 3 word moves were
    allowed and possible); ``nodes``: the search nodes spent."""
    solver, position = _solver_and_position(p)
    solver.warm_up()  # one-time loading does not count against the budget
    budget = _budget(p, session)
    turn = solver.best_turn(position, p.objective, None if p.max_moves is UNSET else p.max_moves, budget)
    return {**turn.to_dict(), "nodes": budget.nodes}


# ------------------------------------------------------------------------------------------------ games
# The v2 session commands: aliases over the protocol code in commands_session (docs/engine_colonii.md); v3's
# new-game/legal-moves/apply-move/ai-move are the ones to use.
declare_rules("colonii", ColoniiRulesSpec)


class NewGameParams(Params):
    seed: SeedInt | UnsetType = UNSET
    players: Annotated[int, Meta(ge=1, le=MAX_PLAYERS)] | Annotated[list[Name], Meta(min_length=1, max_length=MAX_PLAYERS)] | UnsetType = UNSET
    rules: ColoniiRulesSpec | UnsetType = UNSET
    state: Annotated[dict[str, Any], Meta(description="a saved state (colonii.state) to resume; excludes seed and rules")] | UnsetType = UNSET


class LegalMovesParams(GameParams):
    top: Annotated[int, Meta(ge=1, le=MAX_TOP)] = 50
    objective: Literal["gain", "swing"] = "gain"
    movetime_ms: MoveTimeMs | None = None
    max_nodes: TurnNodes | None = None


class MoveOfTurn(Params):
    """One move of a turn: a word play (``new``, ``extend``, ``chain``: ``word``, and ``target`` but for a new word),
    or the owner's ``declare`` (a supercolony) or ``decolonise`` on colony ``target`` (no word)."""

    play: Literal["new", "extend", "chain", "declare", "decolonise"]
    word: Word | UnsetType = UNSET
    target: Annotated[int, Meta(ge=0, le=10_000)] | UnsetType = UNSET


class ActionSpec(Params):
    """One turn: ``turn`` with moves, ``exchange`` with cards, or ``pass``."""

    type: Literal["turn", "exchange", "pass"]
    moves: Annotated[list[MoveOfTurn], Meta(max_length=40)] | UnsetType = UNSET
    cards: Annotated[str, Meta(min_length=1, max_length=30)] | UnsetType = UNSET


class ApplyMoveParams(GameParams):
    move: ActionSpec
    state: WithState = True


class AiMoveParams(GameParams):
    ai: AiName = "planner"
    seed: SeedInt = 0
    apply: Annotated[bool, Meta(description="apply the chosen turn (false: only show it)")] = True
    state: WithState = True
    movetime_ms: MoveTimeMs | None = None
    max_nodes: TurnNodes | None = None


def _game(p: GameParams, session: Session) -> SessionGame:
    return v2_game(p.game, session, "colonii")


@command("colonii.new-game", NewGameParams, V2Answer)
def new_game(p: NewGameParams, session: Session) -> dict[str, Any]:
    """v2 (use new-game): deal a new game (``seed``, ``players``: a count or seat names, optional ``rules``), or resume
    a saved ``state`` (checked by replaying its history)."""
    if p.state is UNSET:
        gid, sg = new_session_game(session, "colonii", seed=p.seed, players=p.players,
                                   rules=given(p.rules) if p.rules is not UNSET else UNSET)
        return v2_answer(gid, sg)
    from kubasolve.games.colonii.game import ColoniiState

    refuse_with_state(p)
    native = ColoniiState.from_dict(p.state)
    gid, sg = adopt_game(session, "colonii", native.rules, None, native, p.players)
    return v2_answer(gid, sg)


class LegalMovesAnswer(Answer):
    game: str
    player: int
    hand: str
    moves: list[dict[str, Any]]
    best_turn: dict[str, Any]
    exchange: bool


@command("colonii.legal-moves", LegalMovesParams, LegalMovesAnswer)
def legal_moves(p: LegalMovesParams, session: Session) -> dict[str, Any]:
    """v2 (use legal-moves): the ``top`` best legal single moves of the player to build, the best combined turn
    (within the budget, like ``colonii.best-turn``) and whether an ``exchange`` is allowed (the deck is not empty)."""
    sg = _game(p, session)
    native = sg.native
    if native.over:
        raise IllegalMoveError("the game is over")
    pos = native.position()
    solver = sg.game.referee.solver
    solver.warm_up()  # one-time loading does not count against the budget
    found = solver.all_moves(pos, p.objective, p.top)
    return {"game": p.game, "player": native.current, "hand": pos.hand, "moves": [m.to_dict() for m in found],
            "best_turn": solver.best_turn(pos, p.objective, budget=_budget(p, session)).to_dict(),
            "exchange": bool(native.deck) and bool(pos.hand)}


declare_v2_state_and_apply(
    "colonii", ApplyMoveParams, V2Answer,
    state_doc="v2 (use state): the full state of a running game (JSON snapshot, history included).",
    apply_doc="v2 (use apply-move): apply one turn for the player to build; an illegal turn is an error (the reason), "
              "state unchanged.")


class AiMoveAnswer(V2Answer, kw_only=True):
    action: dict[str, Any]
    proven_optimal: bool


@command("colonii.ai-move", AiMoveParams, AiMoveAnswer)
def ai_move(p: AiMoveParams, session: Session) -> dict[str, Any]:
    """v2 (use ai-move): let AI ``ai`` choose the turn of the player to build; ``apply`` (default true) applies it. The
    budget (``movetime_ms``, ``max_nodes``; default 10 s) bounds the AI's best-turn searches in all: when it runs out
    the AI chooses among the best turns found by then, ``proven_optimal`` false."""
    sg = _game(p, session)
    chosen = call(sg.game.ai_move, sg.state, p.ai, session_budget(session, p.movetime_ms, p.max_nodes), p.seed)
    if p.apply:
        sg.state = call(sg.game.apply, sg.state, chosen.action)
    return v2_answer(p.game, sg, p.state, action=chosen.action, proven_optimal=chosen.proven_optimal)


declare_analysis("colonii", "colonii.best-turn")  # kubasolve analyse --game colonii: a line is this command's params
