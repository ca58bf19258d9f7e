"""Engine commands of the Kubagram solver: best words, compound moves and best claim for a position.

The parameter schemas here (rules, position) are shared with the game commands in
``commands_kubagram_game.py``. Bounds are chosen so that no request can run away: the field holds at
most ``MAX_FIELD`` tiles (``MAX_CLAIM_FIELD`` for best-move), at most ``MAX_CHOICE`` of them jokers or
choice cubes, the table at most 63 words, and ``top`` is capped at ``MAX_TOP`` (``null`` = all, up to
that cap).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from kubasolve.engine.batch import declare_analysis
from kubasolve.engine.registry import (
    UNSET,
    Answer,
    LexiconName,
    Meta,
    MoveTimeMs,
    Params,
    Session,
    UnsetType,
    budget_proof,
    command,
    given,
    movetime_or_default,
)
from kubasolve.errors import LimitError, PositionError
from kubasolve.games.limits import KUBAGRAM_MAX_CHOICE as MAX_CHOICE
from kubasolve.games.limits import KUBAGRAM_MAX_FIELD as MAX_FIELD
from kubasolve.games.limits import KUBAGRAM_MAX_TABLE as MAX_TABLE
from kubasolve.games.limits import KUBAGRAM_MAX_TOP as MAX_TOP
from kubasolve.games.limits import KUBAGRAM_MAX_WORD as MAX_WORD
from kubasolve.games.limits import check_kubagram_request

# the request bounds are the library's (the CLI's too): kubasolve/games/limits.py
# The default time budget (registry.DEFAULT_MOVETIME_MS, 10 s): ``kubagram.best-move`` without a budget stops then
# (``proven_optimal`` false), since its exact search can take minutes on a common-letter field (measured: 16 letters +
# 2 jokers + 4 table words, 75 s; 20 letters + 2 jokers, 281 s).
MAX_NODES = 10**10
"""Largest ``max_nodes``: about 10 minutes of search at the slowest rate measured, like the ``movetime_ms`` cap."""

Letters = Annotated[str, Meta(min_length=1, max_length=26, description="the faces of a joker or a III cube")]
Word = Annotated[str, Meta(min_length=1, max_length=MAX_WORD)]
Small = Annotated[int, Meta(ge=0, le=16)]
Player = Annotated[int, Meta(ge=0, le=7, description="a player index")]
Top = Annotated[int, Meta(ge=1, le=MAX_TOP)] | None
Objective = Literal["gain", "swing"]


class KubagramRulesSpec(Params):
    """Kubagram scoring rules (``KubagramRules``); omitted settings keep their defaults (docs/kubagram.md)."""

    min_length: Annotated[int, Meta(ge=2, le=30)] | UnsetType = UNSET
    letter_values: Annotated[dict[Annotated[str, Meta(min_length=1, max_length=1)], Annotated[int, Meta(ge=0, le=1000)]],
                             Meta(max_length=64)] | UnsetType = UNSET
    jokers: Annotated[list[Letters], Meta(max_length=12)] | UnsetType = UNSET
    bonus_from: Annotated[int, Meta(ge=1, le=60)] | UnsetType = UNSET
    bonus_step: Annotated[int, Meta(ge=0, le=1000)] | UnsetType = UNSET
    joker_factor: Small | UnsetType = UNSET
    compound_factor: Small | UnsetType = UNSET
    last_cube_min_length: Annotated[int, Meta(ge=1, le=30)] | UnsetType = UNSET
    compound_with_field_words: bool | UnsetType = UNSET
    max_claim_words: Annotated[int, Meta(ge=1, le=3)] | UnsetType = UNSET
    alphabet: Annotated[str, Meta(min_length=1, max_length=64)] | UnsetType = UNSET


class TileSpec(Params):
    """A field tile: its letters (several = a choice), ``joker`` for a held joker."""

    letters: Letters
    joker: bool = False


class TableWordSpec(Params):
    """A claimed word on the table."""

    word: Word
    owner: Player = 0
    jokers: Small = 0
    level: Small = 0


class PositionSpec(Params):
    """A solver position: ``field`` letters plus ``jokers`` and ``choices``, or the tiles one by one in ``tiles``."""

    field: Annotated[str, Meta(max_length=2 * MAX_FIELD, description="fixed letters (spaces, commas, hyphens ignored)")] | UnsetType = UNSET
    jokers: Annotated[list[Letters], Meta(max_length=MAX_CHOICE)] | UnsetType = UNSET
    choices: Annotated[list[Letters], Meta(max_length=MAX_CHOICE)] | UnsetType = UNSET
    tiles: Annotated[list[Letters | TileSpec], Meta(max_length=MAX_FIELD)] | UnsetType = UNSET
    table: Annotated[list[Word | TableWordSpec], Meta(max_length=MAX_TABLE)] | UnsetType = UNSET
    last_cube: bool | UnsetType = UNSET
    mover: Player | UnsetType = UNSET


class SolverParams(Params):
    position: PositionSpec
    rules: KubagramRulesSpec | None = None
    lexicon: LexiconName = "nl"


class BudgetedParams(SolverParams):
    """A solver request with an optional work budget (docs/engine.md, Work budgets)."""

    movetime_ms: MoveTimeMs | None = None
    max_nodes: Annotated[int, Meta(ge=1, le=MAX_NODES, description="search nodes to enter (a letter appended to a word "
                                                                  "prefix, or a compound part tried)")] | None = None


class BestWordsParams(BudgetedParams):
    top: Top = 10


class CompoundsParams(BudgetedParams):
    top: Top = None
    objective: Objective = "gain"


class BestMoveParams(BudgetedParams):
    objective: Objective = "gain"
    max_words: Literal[1, 2, 3] | None = None


def kubagram_rules(spec: KubagramRulesSpec | None) -> Any:
    """``KubagramRules`` from the declared settings (the library checks the cross-field rules)."""
    from kubasolve.games.kubagram import KubagramRules

    return KubagramRules.from_dict(given(spec) if spec is not None else {})


_WARM: set[int] = set()


def _warm_up(solver: Any) -> None:
    """Once per process and lexicon, before a budget's clock starts: the solver's one-time work (the lexicon's arrays
    paged in, the kernels loaded from the numba cache: 0.1-2 s, more while they first compile) on a tiny position,
    so that a first request's budget is spent on its search."""
    lexicon = solver.lexicon
    if id(lexicon) in _WARM:
        return
    from kubasolve.games.kubagram import KubagramPosition

    letters = lexicon.alphabet.letters
    tiny = KubagramPosition.from_dict({"field": letters[:4], "jokers": [letters[:3], letters[:3]], "table": [letters[:2]]})
    solver.word_table(tiny)
    solver.best_move(tiny)
    solver.compound_moves(tiny)
    _WARM.add(id(lexicon))


def _setup(p: BudgetedParams, session: Session, claim: bool = False) -> tuple[Any, Any, Any]:
    """(solver, position, budget) of a solver request. The budget (the request's, or the engine's default time when it
    gives none) starts its clock once the lexicon is loaded and the kernels warm (one-time work of the process), so it
    covers the rest of the set-up, the search, the decoding and the ranking."""
    from kubasolve.engine.lexicons import resolve_lexicon
    from kubasolve.games.kubagram import KubagramPosition, solver_for

    solver = solver_for(resolve_lexicon(p.lexicon), kubagram_rules(p.rules))
    _warm_up(solver)
    budget = _budget(p, session, movetime_or_default(p.movetime_ms, p.max_nodes))
    spec = given(p.position)
    if "tiles" in spec and {"field", "jokers", "choices"} & set(spec):
        raise PositionError("give the field as tiles, or as field/jokers/choices, not both", key="params.position.tiles")
    position = KubagramPosition.from_dict(spec)
    try:
        check_kubagram_request(position, claim=claim)
    except LimitError as exc:
        raise LimitError(str(exc), key="params.position") from None
    return solver, position, budget


def _top(top: int | None) -> int:
    return MAX_TOP if top is None else top


def _budget(p: BudgetedParams, session: Session, movetime_ms: int | None = None) -> Any:
    """The request's :class:`SearchBudget` (``movetime_ms``/``max_nodes``), ended early by a ``stop`` request."""
    from kubasolve.budget import Budget
    from kubasolve.games.kubagram.movegen import SearchBudget

    return Budget(p.movetime_ms if movetime_ms is None else movetime_ms, p.max_nodes, stop=session.stop).meter(SearchBudget)


class BestWordsAnswer(Answer):
    words: list[dict[str, Any]]
    proven_optimal: bool
    nodes: int


class CompoundsAnswer(Answer):
    compounds: list[dict[str, Any]]
    proven_optimal: bool
    nodes: int


class BestMoveAnswer(Answer):
    claim: dict[str, Any]
    proven_optimal: bool
    nodes: int


@command("kubagram.best-words", BestWordsParams, BestWordsAnswer)
def best_words(p: BestWordsParams, session: Session) -> dict[str, Any]:
    """Words formable from the field, best first (``top`` best, ``null`` = all up to 10000); with a budget
    (``movetime_ms``, ``max_nodes``) the best found by then, ``proven_optimal`` false if it ran out."""
    solver, position, budget = _setup(p, session)
    words = solver.best_words(position, top=_top(p.top), budget=budget)
    return {"words": [w.to_dict() for w in words], **budget_proof(budget)}


@command("kubagram.compounds", CompoundsParams, CompoundsAnswer)
def compounds(p: CompoundsParams, session: Session) -> dict[str, Any]:
    """Compound moves from the table words (and one new field word where allowed), best first by ``objective``;
    with a budget the compounds found by then, ``proven_optimal`` false if it ran out."""
    solver, position, budget = _setup(p, session)
    found = solver.compound_moves(position, top=_top(p.top), objective=p.objective, budget=budget)
    return {"compounds": [c.to_dict() for c in found], **budget_proof(budget)}


@command("kubagram.best-move", BestMoveParams, BestMoveAnswer)
def best_move(p: BestMoveParams, session: Session) -> dict[str, Any]:
    """The best whole claim (up to ``max_words`` items, default from the rules); at most 32 field tiles. With a
    budget (default: 10 s) the best claim found by then (always legal), ``proven_optimal`` false if it ran out."""
    solver, position, budget = _setup(p, session, claim=True)
    claim = solver.best_move(position, objective=p.objective, max_words=p.max_words, budget=budget)
    return {"claim": claim.to_dict(), **budget_proof(budget)}


declare_analysis("kubagram", "kubagram.best-move")  # kubasolve analyse --game kubagram: a line is this command's params
