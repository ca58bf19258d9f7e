"""Engine commands of the crossword game (``crossword.*``); schemas and examples in ``docs/engine_crossword.md``."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from kubasolve.engine.batch import declare_analysis
from kubasolve.engine.commands_session import (
    SessionGame,
    V2Answer,
    adopt_game,
    call,
    check_rule_files,
    declare_ai_options,
    declare_rules,
    declare_v2_state_and_apply,
    lexicon_for,
    new_session_game,
    v2_answer,
    v2_game,
)
from kubasolve.engine.registry import (
    DEFAULT_MOVETIME_MS,
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
from kubasolve.errors import IllegalMoveError, KubasolveError
from kubasolve.games.crossword.ai_names import AI_NAME_FORMS, AI_NAME_PATTERN
from kubasolve.games.crossword.layout import LAYOUTS, TILE_SETS
from kubasolve.games.limits import (
    CROSSWORD_MAX_ENDGAME_THREADS,
    CROSSWORD_MAX_LISTED,
    CROSSWORD_MAX_SIM_CANDIDATES,
    CROSSWORD_MAX_SIM_ITERATIONS,
)

MAX_PLAYERS = 4
MAX_TOP = CROSSWORD_MAX_LISTED
"""Most placements listed (``top``; 0 = all, up to this many; ``kubasolve.games.limits``, the CLI's bound too)."""
Row = Annotated[str, Meta(min_length=1, max_length=15, pattern=r"^[.A-Za-z]+$")]
Rack = Annotated[str, Meta(max_length=15, pattern=r"^[A-Za-z?]*$", description="letters, '?' for a blank, e.g. EKNOW??")]
AiName = Annotated[str, Meta(min_length=1, max_length=64, pattern=AI_NAME_PATTERN, description=AI_NAME_FORMS)]
"""A crossword AI name (kubasolve.games.crossword.ai_names: the pattern is its syntax, ``check_ai`` its ranges)."""
WithState = Annotated[bool, Meta(description="answer with the whole state (false: only current, turn, scores, over)")]
# The default time budget (registry.DEFAULT_MOVETIME_MS, 10 s): ``crossword.ai-move`` without a time budget
# (``movetime_ms`` or an alias) stops ``sim`` and the endgame solver after this long: the defaults take 0.2-1 s, but
# ``sim`` may be asked for 1000 iterations x 50 candidates and the endgame solver for 10^7 nodes (~36,000 nodes/s
# measured: minutes).
MAX_ENDGAME_NODES = 10_000_000
EndgameNodes = Annotated[int, Meta(ge=1, le=MAX_ENDGAME_NODES, description="empty bag: node budget of the exact endgame solver")]
TIME_ALIASES = {"time_limit": "sim", "endgame_time": "equity"}
"""Older per-AI time budgets in seconds, kept as aliases of ``movetime_ms`` (the whole move, in milliseconds)."""


class CrosswordRulesSpec(Params):
    """Optional rule settings (docs/crossword.md); unset ones keep the Dutch defaults."""

    tiles: Literal["nl", "en"] | UnsetType = UNSET
    min_players: Annotated[int, Meta(ge=1, le=4)] | UnsetType = UNSET
    max_players: Annotated[int, Meta(ge=1, le=4)] | UnsetType = UNSET
    rack_size: Annotated[int, Meta(ge=1, le=15)] | UnsetType = UNSET
    bingo_bonus: Annotated[int, Meta(ge=0, le=1000)] | UnsetType = UNSET
    exchange_min_bag: Annotated[int, Meta(ge=0, le=1000)] | UnsetType = UNSET
    scoreless_rounds_end: Annotated[int, Meta(ge=0, le=25)] | UnsetType = UNSET
    scoreless_turns_end: Annotated[int, Meta(ge=0, le=100)] | UnsetType = UNSET
    word_check: Literal["referee", "challenge"] | UnsetType = UNSET
    failed_challenge: Literal["lose-turn", "points", "none"] | UnsetType = UNSET
    failed_challenge_points: Annotated[int, Meta(ge=0, le=1000)] | UnsetType = UNSET


class MovesParams(Params):
    board: Annotated[list[Row], Meta(min_length=15, max_length=15, description="15 rows of 15: '.', A-Z, a-z a blank")] | UnsetType = UNSET
    cgp: Annotated[str, Meta(min_length=1, max_length=2000, description="a CGP position instead of board (+ its rack)")] | UnsetType = UNSET
    rack: Rack | UnsetType = UNSET
    top: Annotated[int, Meta(ge=0, le=MAX_TOP, description=f"placements to list (0 = all, up to {MAX_TOP:,})")] = 50
    rules: CrosswordRulesSpec | UnsetType = UNSET
    lexicon: Annotated[LexiconName, Meta(description="default nl, or the cgp's lex")] | UnsetType = UNSET


def _rules(spec: CrosswordRulesSpec | UnsetType) -> Any:
    from kubasolve.games.crossword.rules import CrosswordRules

    return CrosswordRules.from_dict(given(spec)) if spec is not UNSET else CrosswordRules()


class MovesAnswer(Answer):
    count: int
    max_score: int | None
    moves: list[dict[str, Any]]


@command("crossword.moves", MovesParams, MovesAnswer)
def moves(p: MovesParams, session: Session) -> dict[str, Any]:
    """Every legal placement of ``rack`` on ``board`` (or a ``cgp`` position, its ``bb``, ``lex``, ``ld``, ``etl``,
    ``mcnz``, ``cr`` operations honoured, the others named in ``notices``): the exact ``count`` and the ``top``
    best (0 = all, up to 10,000), best first: score, then row, column, across before down."""
    from kubasolve.engine.lexicons import resolve_lexicon, served_names
    from kubasolve.games.crossword.board import Board
    from kubasolve.games.crossword.movegen import generate_moves
    from kubasolve.games.crossword.notation import cgp_settings, parse_cgp

    if (p.board is UNSET) == (p.cgp is UNSET):
        raise KubasolveError("params: give exactly one of board and cgp", key="params.board")
    rules = _rules(p.rules)
    layout = rules.board_layout()
    lexicon_name = "nl" if p.lexicon is UNSET else p.lexicon
    notices: list[str] = []
    if p.cgp is not UNSET:
        pos = parse_cgp(p.cgp, layout.rows, layout.cols)
        settings = cgp_settings(pos, served_names(), given_lexicon=None if p.lexicon is UNSET else p.lexicon)
        changes = dict(settings.rules)
        if settings.tiles is not None and (p.rules is UNSET or p.rules.tiles is UNSET):
            changes["tiles"] = settings.tiles
        rules = rules.with_(**changes) if changes else rules
        lexicon_name = settings.lexicon or lexicon_name
        notices = [settings.notice()] if settings.notice() else []
        rows, rack = list(pos.rows), pos.racks[0]
    else:
        rows, rack = list(p.board), ""  # type: ignore[arg-type]
    if p.rack is not UNSET:
        rack = p.rack
    if not rack:
        raise KubasolveError("params.rack: give the rack (e.g. \"EKNOW??\")", key="params.rack")
    lexicon = resolve_lexicon(lexicon_name)  # a served name only (docs/engine.md, "Lexicons"), the cgp's lex too
    board = Board.from_rows(rows, lexicon.alphabet)
    result = generate_moves(board, rack, lexicon, layout, rules.tile_set(), top=p.top or MAX_TOP, bingo_bonus=rules.bingo_bonus)
    return {**result.to_dict(), **({"notices": notices} if notices else {})}


# ------------------------------------------------------------------------------------------------ games
# The v2 session commands: aliases over the protocol code in commands_session (docs/engine_crossword.md); v3's
# new-game/legal-moves/apply-move/ai-move are the ones to use.
declare_rules("crossword", CrosswordRulesSpec, files={"tiles": TILE_SETS, "layout": LAYOUTS})


class NewGameParams(Params):
    seed: SeedInt | UnsetType = UNSET
    players: Annotated[int, Meta(ge=2, le=MAX_PLAYERS)] | Annotated[list[Name], Meta(min_length=2, max_length=MAX_PLAYERS)] | UnsetType = UNSET
    rules: CrosswordRulesSpec | UnsetType = UNSET
    lexicon: LexiconName = "nl"
    state: Annotated[dict[str, Any], Meta(description="a saved state (crossword.state) to resume; excludes seed and rules")] | UnsetType = UNSET


class LegalMovesParams(GameParams):
    top: Annotated[int, Meta(ge=1, le=MAX_TOP)] = 50


Tile = Annotated[list[Annotated[int, Meta(ge=0, le=14)] | Annotated[str, Meta(min_length=1, max_length=1)]], Meta(min_length=3, max_length=3)]


class ActionSpec(Params):
    """One turn: ``place`` (``tiles`` or ``move`` text), ``exchange`` (``letters``), ``pass`` or ``challenge``."""

    type: Literal["place", "exchange", "pass", "challenge"]
    tiles: Annotated[list[Tile], Meta(min_length=1, max_length=15)] | UnsetType = UNSET
    move: Annotated[str, Meta(min_length=2, max_length=40, description='GCG style, e.g. "8H WO(R)D"')] | UnsetType = UNSET
    letters: Annotated[str, Meta(min_length=1, max_length=15, pattern=r"^[A-Za-z?]+$")] | UnsetType = UNSET


class ApplyMoveParams(GameParams):
    move: ActionSpec
    state: WithState = True


Iterations = Annotated[int, Meta(ge=1, le=CROSSWORD_MAX_SIM_ITERATIONS, description="sim: opponent racks sampled per candidate "
                                                                                 "(default 16); sim2: at most this many (default 400)")]
Candidates = Annotated[int, Meta(ge=1, le=CROSSWORD_MAX_SIM_CANDIDATES, description="sim/sim2: equity candidates simulated (default 8/10)")]
Objective = Annotated[Literal["win", "spread"], Meta(description="sim2: play the best mean win chance (default) or the best mean spread")]
Plies = Annotated[int, Meta(ge=1, le=3, description="sim: 1 = reply + leave value, 2 = reply + own next play (1 or 2); sim2: 2 = "
                                                    "reply + both leaves, 3 = also own next play (2 or 3)")]
EndgameMode = Annotated[Literal["exact", "bounded"], Meta(description="empty bag: the exact solver within its budget, or the old bounded search")]
Threads = Annotated[int, Meta(ge=1, le=CROSSWORD_MAX_ENDGAME_THREADS, description="empty bag: search threads of the exact endgame "
                                                                                  "solver, sharing its table (default 1)")]


class CrosswordAiOptions(Params):
    """The crossword AIs' settings (``ai-move``'s ``options``; the library's ``Crossword.ai_options``)."""

    iterations: Iterations | UnsetType = UNSET
    candidates: Candidates | UnsetType = UNSET
    objective: Objective | UnsetType = UNSET
    plies: Plies | UnsetType = UNSET
    endgame: EndgameMode | UnsetType = UNSET
    threads: Threads | UnsetType = UNSET


declare_ai_options("crossword", CrosswordAiOptions)


class AiMoveParams(GameParams):
    ai: AiName = "equity2"
    seed: SeedInt = 0
    iterations: Iterations | UnsetType = UNSET
    candidates: Candidates | UnsetType = UNSET
    objective: Objective | UnsetType = UNSET
    plies: Plies | UnsetType = UNSET
    movetime_ms: MoveTimeMs | UnsetType = UNSET
    max_nodes: Annotated[EndgameNodes, Meta(description="the whole turn's node budget: positions valued (a move generation each), "
                                                        "with an empty bag the exact endgame solver's nodes (its default 200000)")] | UnsetType = UNSET
    time_limit: Annotated[float, Meta(gt=0, le=60, description="alias of movetime_ms in seconds (sim)")] | UnsetType = UNSET
    endgame: EndgameMode | UnsetType = UNSET
    """Default: the AI name's (``equity:bounded``), else ``exact``."""
    endgame_nodes: Annotated[EndgameNodes, Meta(description="alias of max_nodes")] | UnsetType = UNSET
    endgame_time: Annotated[float, Meta(gt=0, le=60, description="alias of movetime_ms in seconds (equity)")] | UnsetType = UNSET
    threads: Threads | UnsetType = UNSET
    apply: Annotated[bool, Meta(description="apply the chosen move (false: only show it)")] = True
    state: WithState = True


def _budget(p: AiMoveParams) -> tuple[int | None, float | None]:
    """(endgame nodes, seconds for the move) from ``max_nodes``/``movetime_ms`` or their aliases ``endgame_nodes`` and
    ``time_limit``/``endgame_time`` (seconds); giving a key together with its alias is refused. Nodes None when neither
    is given: the AI name's (``equity:5000``), else the AIs' default (200,000)."""
    if p.max_nodes is not UNSET and p.endgame_nodes is not UNSET:
        raise KubasolveError("params: give max_nodes or its alias endgame_nodes, not both", key="params.endgame_nodes")
    times = [name for name in ("movetime_ms", *TIME_ALIASES) if getattr(p, name) is not UNSET]
    if len(times) > 1:
        raise KubasolveError(f"params: give one time budget, not {' and '.join(times)} (time_limit and endgame_time are "
                             "aliases of movetime_ms in seconds)", key=f"params.{times[-1]}")
    nodes = p.max_nodes if p.max_nodes is not UNSET else p.endgame_nodes if p.endgame_nodes is not UNSET else None
    seconds: float | None
    if p.movetime_ms is not UNSET:
        seconds = p.movetime_ms / 1000
    elif times:
        seconds = getattr(p, times[0])
    else:  # the engine's default time only when the request gives no budget at all: max_nodes alone is deterministic
        seconds = DEFAULT_MOVETIME_MS / 1000 if nodes is None else None
    return nodes, seconds


def _game(p: GameParams, session: Session) -> SessionGame:
    return v2_game(p.game, session, "crossword")


@command("crossword.new-game", NewGameParams, V2Answer)
def new_game(p: NewGameParams, session: Session) -> dict[str, Any]:
    """v2 (use new-game): start a game (``seed``, ``players``: a count or seat names, optional ``rules``), or resume a
    saved ``state`` (tile counts checked, then its history replayed from its seed)."""
    if p.state is UNSET:
        gid, sg = new_session_game(session, "crossword", seed=p.seed, players=p.players,
                                   rules=given(p.rules) if p.rules is not UNSET else UNSET, lexicon=p.lexicon)
        return v2_answer(gid, sg)
    from kubasolve.games.crossword.game import CrosswordState, default_referee
    from kubasolve.games.crossword.rules import CrosswordRules

    refuse_with_state(p)
    saved = p.state
    check_rule_files("crossword", saved.get("rules"))  # tiles and layout by their bundled names, never a file
    rules = CrosswordRules.from_dict(saved["rules"]) if isinstance(saved.get("rules"), dict) else CrosswordRules()
    native = CrosswordState.from_dict(saved, default_referee(rules, lexicon_for(p.lexicon)))
    gid, sg = adopt_game(session, "crossword", native.rules, p.lexicon, native, p.players)
    return v2_answer(gid, sg)


class LegalMovesAnswer(Answer):
    game: str
    player: int
    rack: str
    count: int
    moves: list[dict[str, Any]]
    exchange: bool
    challenge: bool


@command("crossword.legal-moves", LegalMovesParams, LegalMovesAnswer)
def legal_moves(p: LegalMovesParams, session: Session) -> dict[str, Any]:
    """v2 (use legal-moves): the ``top`` best placements of the player to move (and the count of all); exchange is
    legal when the bag holds at least ``exchange_min_bag`` tiles, pass always. After a play that went out (challenge
    mode) only a challenge or a pass is legal: no placements, count 0 (the referee refuses any other move)."""
    from kubasolve.games.crossword.movegen import generate_moves

    sg = _game(p, session)
    s, ref = sg.native, sg.game.referee
    if s.over:
        raise IllegalMoveError("the game is over")
    if s.last_play is not None and s.last_play.went_out:
        return {"game": p.game, "player": s.current, "rack": s.rack(), "count": 0, "moves": [], "exchange": False,
                "challenge": True}
    result = generate_moves(s.board, s.rack(), ref.lexicon, ref.layout, ref.tiles, top=p.top, bingo_bonus=ref.rules.bingo_bonus)
    return {"game": p.game, "player": s.current, "rack": s.rack(), "count": result.count, "moves": [m.to_dict() for m in result.moves],
            "exchange": len(s.bag) >= ref.rules.exchange_min_bag, "challenge": s.last_play is not None}


declare_v2_state_and_apply(
    "crossword", ApplyMoveParams, V2Answer,
    state_doc="v2 (use state): the full state of a running game (JSON snapshot, history and log included).",
    apply_doc="v2 (use apply-move): apply one move for the player to move; an illegal move is an error (the reason), "
              "state unchanged.")


class AiMoveAnswer(V2Answer, kw_only=True):
    action: dict[str, Any]
    proven_optimal: bool | UnsetType = UNSET


@command("crossword.ai-move", AiMoveParams, AiMoveAnswer)
def ai_move(p: AiMoveParams, session: Session) -> dict[str, Any]:
    """v2 (use ai-move): let AI ``ai`` choose the move of the player to move (``sim`` within ``iterations`` x
    ``candidates`` best replies); ``apply`` (default true) applies it. Budget: ``movetime_ms`` bounds ``sim`` and the
    endgame solver (default 10 s when ``max_nodes`` is not given either; aliases in seconds: ``time_limit``, ``endgame_time``), ``max_nodes`` the whole turn
    (positions valued; with an empty bag the endgame solver's nodes, default 200000; alias ``endgame_nodes``). When the exact endgame solver chose the move the answer has
    ``proven_optimal`` (false: the budget ran out, the move is the best of its deepest completed iteration)."""
    from kubasolve.budget import Budget

    sg = _game(p, session)
    call(sg.game.check_ai, p.ai)  # the grammar's ranges and which AI takes which option, by name (params.ai)
    base = p.ai.partition(":")[0]
    nodes, seconds = _budget(p)
    options: dict[str, Any] = {} if p.endgame is UNSET else {"endgame": p.endgame}
    if p.threads is not UNSET:
        options["threads"] = p.threads
    if p.objective is not UNSET:
        if base != "sim2":
            raise KubasolveError("params: objective is a sim2 option", key="params.objective")
        options["objective"] = p.objective
    if base in ("sim", "sim2"):
        options.update({k: v for k, v in (("iterations", p.iterations), ("candidates", p.candidates)) if v is not UNSET})
        if p.plies is not UNSET:
            options["plies"] = p.plies
    try:
        sg.game.check_ai_options(p.ai, options)  # the library's ranges (plies per AI), named as this command's own keys
    except KubasolveError as exc:
        raise type(exc)(str(exc).replace("options.", "params.", 1), key=f"params.{(exc.key or '').removeprefix('options.')}") from None
    budget = Budget(None if seconds is None else seconds * 1000, nodes, stop=session.stop)
    chosen = call(sg.game.ai_move, sg.state, p.ai, budget, p.seed, options)
    if p.apply:
        sg.state = call(sg.game.apply, sg.state, chosen.action)
    extra = {"proven_optimal": chosen.proven_optimal} if chosen.details.get("endgame") else {}
    return v2_answer(p.game, sg, p.state, action=chosen.action, **extra)


declare_analysis("crossword", "crossword.moves")  # kubasolve analyse --game crossword: a line is this command's params
