"""Engine commands of the crossword game (``crossword.*``); schemas and examples in ``docs/engine_crossword.md``."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from kubasolve.engine.registry import (
    DEFAULT_MOVETIME_MS,
    MAX_INT,
    UNSET,
    GameParams,
    LexiconName,
    Meta,
    MoveTimeMs,
    Name,
    Params,
    Session,
    UnsetType,
    command,
    game_answer,
    given,
    lookup_game,
    start_or_resume,
)
from kubasolve.errors import IllegalMoveError, KubasolveError

MAX_PLAYERS = 4
MAX_TOP = 100_000
Row = Annotated[str, Meta(min_length=1, max_length=15, pattern=r"^[.A-Za-z]+$")]
Rack = Annotated[str, Meta(max_length=15, pattern=r"^[A-Za-z?]*$", description="letters, '?' for a blank, e.g. EKNOW??")]
AiName = Literal["score", "equity", "sim", "equity2", "sim2"]
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
    scoreless_turns_end: Annotated[int, Meta(ge=0, le=100)] | UnsetType = UNSET
    word_check: Literal["referee", "challenge"] | UnsetType = UNSET
    failed_challenge: Literal["lose-turn", "points", "none"] | UnsetType = UNSET
    failed_challenge_points: Annotated[int, Meta(ge=0, le=1000)] | UnsetType = UNSET


class MovesParams(Params):
    board: Annotated[list[Row], Meta(min_length=15, max_length=15, description="15 rows of 15: '.', A-Z, a-z a blank")] | UnsetType = UNSET
    cgp: Annotated[str, Meta(min_length=1, max_length=2000, description="a CGP position instead of board (+ its rack)")] | UnsetType = UNSET
    rack: Rack | UnsetType = UNSET
    top: Annotated[int, Meta(ge=0, le=MAX_TOP)] = 50
    rules: CrosswordRulesSpec | UnsetType = UNSET
    lexicon: LexiconName = "nl"


def _rules(spec: CrosswordRulesSpec | UnsetType) -> Any:
    from kubasolve.games.crossword.rules import CrosswordRules

    return CrosswordRules.from_dict(given(spec)) if spec is not UNSET else CrosswordRules()


@command("crossword.moves", MovesParams)
def moves(p: MovesParams, session: Session) -> dict[str, Any]:
    """Every legal placement of ``rack`` on ``board`` (or a ``cgp`` position): the exact ``count`` and
    the ``top`` best (0 = all), best first: score, then row, column, across before down."""
    from kubasolve.games.crossword.board import Board
    from kubasolve.games.crossword.movegen import generate_moves
    from kubasolve.games.crossword.notation import parse_cgp
    from kubasolve.lexicon import load_lexicon

    if (p.board is UNSET) == (p.cgp is UNSET):
        raise KubasolveError("params: give exactly one of board and cgp", key="params.board")
    rules = _rules(p.rules)
    layout = rules.board_layout()
    if p.cgp is not UNSET:
        pos = parse_cgp(p.cgp, layout.rows, layout.cols)
        rows, rack = list(pos.rows), pos.racks[0]
    else:
        rows, rack = list(p.board), ""  # type: ignore[arg-type]
    if p.rack is not UNSET:
        rack = p.rack
    if not rack:
        raise KubasolveError("params.rack: give the rack (e.g. \"EKNOW??\")", key="params.rack")
    lexicon = load_lexicon(p.lexicon)
    board = Board.from_rows(rows, lexicon.alphabet)
    result = generate_moves(board, rack, lexicon, layout, rules.tile_set(), top=p.top or None, bingo_bonus=rules.bingo_bonus)
    return result.to_dict()


# ------------------------------------------------------------------------------------------------ games
@dataclass
class CrosswordSessionGame:
    """A running game in an engine session: the referee, the current state and the seat names."""

    referee: Any
    state: Any
    players: list[str]


class NewGameParams(Params):
    seed: Annotated[int, Meta(ge=0, le=MAX_INT)] | UnsetType = UNSET
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


class AiMoveParams(GameParams):
    ai: AiName = "equity"
    seed: Annotated[int, Meta(ge=0, le=MAX_INT)] = 0
    iterations: Annotated[int, Meta(ge=1, le=1000, description="sim: opponent racks sampled per candidate")] = 16
    candidates: Annotated[int, Meta(ge=1, le=50, description="sim: equity candidates simulated")] = 8
    plies: Annotated[int, Meta(ge=1, le=3, description="sim: 1 = reply + leave value, 2 = reply + own next play; sim2: 2 = reply + "
                                                       "both leaves, 3 = also own next play")] | UnsetType = UNSET
    movetime_ms: MoveTimeMs | UnsetType = UNSET
    max_nodes: Annotated[EndgameNodes, Meta(description="empty bag: node budget of the exact endgame solver (default 3000)")] | UnsetType = UNSET
    time_limit: Annotated[float, Meta(gt=0, le=60, description="alias of movetime_ms in seconds (sim)")] | UnsetType = UNSET
    endgame: Annotated[Literal["exact", "bounded"], Meta(description="empty bag: the exact solver within its budget, or the old bounded search")] = "exact"
    endgame_nodes: Annotated[EndgameNodes, Meta(description="alias of max_nodes")] | UnsetType = UNSET
    endgame_time: Annotated[float, Meta(gt=0, le=60, description="alias of movetime_ms in seconds (equity)")] | UnsetType = UNSET
    apply: Annotated[bool, Meta(description="apply the chosen move (false: only show it)")] = True
    state: WithState = True


def _budget(p: AiMoveParams) -> tuple[int, float]:
    """(endgame nodes, seconds for the move) from ``max_nodes``/``movetime_ms`` or their aliases ``endgame_nodes`` and
    ``time_limit``/``endgame_time`` (seconds); giving a key together with its alias is refused."""
    from kubasolve.ai.crossword import DEFAULT_ENDGAME_NODES

    if p.max_nodes is not UNSET and p.endgame_nodes is not UNSET:
        raise KubasolveError("params: give max_nodes or its alias endgame_nodes, not both", key="params.endgame_nodes")
    times = [name for name in ("movetime_ms", *TIME_ALIASES) if getattr(p, name) is not UNSET]
    if len(times) > 1:
        raise KubasolveError(f"params: give one time budget, not {' and '.join(times)} (time_limit and endgame_time are "
                             "aliases of movetime_ms in seconds)", key=f"params.{times[-1]}")
    nodes = p.max_nodes if p.max_nodes is not UNSET else p.endgame_nodes if p.endgame_nodes is not UNSET else DEFAULT_ENDGAME_NODES
    if p.movetime_ms is not UNSET:
        seconds = p.movetime_ms / 1000
    elif times:
        seconds = getattr(p, times[0])
    else:
        seconds = DEFAULT_MOVETIME_MS / 1000
    return nodes, seconds


def _game(p: GameParams, session: Session) -> CrosswordSessionGame:
    game: CrosswordSessionGame = lookup_game(p.game, session, CrosswordSessionGame, "crossword", "crossword.new-game")
    return game


def _referee(rules: Any, lexicon: str) -> Any:
    from kubasolve.games.crossword.simulate import referee_for

    return referee_for((rules.to_dict(), lexicon))


@command("crossword.new-game", NewGameParams)
def new_game(p: NewGameParams, session: Session) -> dict[str, Any]:
    """Start a game (``seed``, ``players``: a count or seat names, optional ``rules``), or resume a saved
    ``state`` (tile counts checked, then its history replayed from its seed)."""
    from kubasolve.games.crossword.game import CrosswordState
    from kubasolve.games.crossword.rules import CrosswordRules

    def resume(saved: dict[str, Any]) -> tuple[Any, Any]:
        rules = CrosswordRules.from_dict(saved["rules"]) if isinstance(saved.get("rules"), dict) else CrosswordRules()
        referee = _referee(rules, p.lexicon)
        return referee, CrosswordState.from_dict(saved, referee)

    return start_or_resume(p, session, resume, lambda: _referee(_rules(p.rules), p.lexicon), CrosswordSessionGame)


@command("crossword.state", GameParams)
def state_cmd(p: GameParams, session: Session) -> dict[str, Any]:
    """The full state of a running game (JSON snapshot, history and log included)."""
    return game_answer(p.game, _game(p, session))


@command("crossword.legal-moves", LegalMovesParams)
def legal_moves(p: LegalMovesParams, session: Session) -> dict[str, Any]:
    """The ``top`` best placements of the player to move (and the count of all); exchange is legal when
    the bag holds at least ``exchange_min_bag`` tiles, pass always."""
    from kubasolve.games.crossword.movegen import generate_moves

    game = _game(p, session)
    s, ref = game.state, game.referee
    if s.over:
        raise IllegalMoveError("the game is over")
    result = generate_moves(s.board, s.rack(), ref.lexicon, ref.layout, ref.tiles, top=p.top, bingo_bonus=ref.rules.bingo_bonus)
    return {"game": p.game, "player": s.current, "rack": s.rack(), "count": result.count, "moves": [m.to_dict() for m in result.moves],
            "exchange": len(s.bag) >= ref.rules.exchange_min_bag, "challenge": s.last_play is not None}


def _action_dict(spec: ActionSpec) -> dict[str, Any]:
    d: dict[str, Any] = {"type": spec.type}
    if spec.tiles is not UNSET:
        d["tiles"] = [list(t) for t in spec.tiles]
    if spec.move is not UNSET:
        d["move"] = spec.move
    if spec.letters is not UNSET:
        d["letters"] = spec.letters
    return d


@command("crossword.apply-move", ApplyMoveParams)
def apply_move(p: ApplyMoveParams, session: Session) -> dict[str, Any]:
    """Apply one move for the player to move; an illegal move is an error (the reason), state unchanged."""
    game = _game(p, session)
    game.state = game.referee.apply(game.state, _action_dict(p.move))
    return game_answer(p.game, game, p.state)


@command("crossword.ai-move", AiMoveParams)
def ai_move(p: AiMoveParams, session: Session) -> dict[str, Any]:
    """Let AI ``ai`` choose the move of the player to move (``sim`` within ``iterations`` x ``candidates``
    best replies); ``apply`` (default true) applies it. Budget: ``movetime_ms`` bounds ``sim`` and the endgame
    solver (default 10 s; aliases in seconds: ``time_limit``, ``endgame_time``), ``max_nodes`` the endgame solver
    (default 3000; alias ``endgame_nodes``). When the exact endgame solver chose the move the answer has
    ``proven_optimal`` (false: the budget ran out, the move is the best of its deepest completed iteration)."""
    from kubasolve.ai.crossword import make_policy

    game = _game(p, session)
    if game.state.over:
        raise IllegalMoveError("the game is over")
    nodes, seconds = _budget(p)
    options: dict[str, Any] = {}
    if p.ai != "score":
        options = {"endgame_mode": p.endgame, "endgame_nodes": nodes}
    if p.ai in ("equity", "equity2"):
        options["endgame_time"] = seconds
    if p.ai in ("sim", "sim2"):
        options.update(iterations=p.iterations, candidates=p.candidates, time_limit=seconds)
        if p.plies is not UNSET:
            if p.ai == "sim" and p.plies > 2:
                raise KubasolveError("params: plies is 1 or 2 for sim (3 for sim2)", key="params.plies")
            options["plies"] = p.plies
    policy = make_policy(p.ai, p.seed, **options)
    action = policy.turn(game.referee, game.state)
    solved = getattr(policy, "last_endgame", None)
    if p.apply:
        game.state = game.referee.apply(game.state, action)
    extra = {} if solved is None else {"proven_optimal": solved.proven}
    return game_answer(p.game, game, p.state, action=action.to_dict(), **extra)
