"""Engine commands of the Kubagram solver: best words, compound moves and best claim for a position."""

from __future__ import annotations

from typing import Any

from kubasolve.engine.registry import Session, command
from kubasolve.errors import PositionError


def _setup(params: dict[str, Any]):
    from kubasolve.games.kubagram import KubagramPosition, KubagramRules, solver_for
    from kubasolve.lexicon import load_lexicon

    if "position" not in params:
        raise PositionError('missing "position" (e.g. {"field": "kroegentoch", "jokers": ["EYGR"]})')
    rules = KubagramRules.from_dict(params.get("rules", {}))
    lexicon_name = params.get("lexicon", "nl")
    if not isinstance(lexicon_name, str):
        raise PositionError('"lexicon" must be a bundled name such as "nl"')
    position = KubagramPosition.from_dict(params["position"])
    return solver_for(load_lexicon(lexicon_name), rules), position


def _top(params: dict[str, Any], default: int | None) -> int | None:
    top = params.get("top", default)
    if top is not None and (not isinstance(top, int) or isinstance(top, bool) or top < 1):
        raise PositionError('"top" must be a positive integer or null (all)')
    return top


def _objective(params: dict[str, Any]) -> str:
    objective = params.get("objective", "gain")
    if objective not in ("gain", "swing"):
        raise PositionError('"objective" must be "gain" or "swing"')
    return objective


@command("kubagram.best-words")
def best_words(params: dict[str, Any], session: Session) -> dict[str, Any]:
    """Words formable from the field, best first: ``{"position": ..., "rules": {...}, "top": 10}``."""
    solver, position = _setup(params)
    return {"words": [w.to_dict() for w in solver.best_words(position, top=_top(params, 10))]}


@command("kubagram.compounds")
def compounds(params: dict[str, Any], session: Session) -> dict[str, Any]:
    """Compound moves from the table words (and one new field word where allowed)."""
    solver, position = _setup(params)
    return {"compounds": [c.to_dict() for c in solver.compound_moves(position, top=_top(params, None), objective=_objective(params))]}


@command("kubagram.best-move")
def best_move(params: dict[str, Any], session: Session) -> dict[str, Any]:
    """The best whole claim (up to ``max_words`` items, default from the rules)."""
    solver, position = _setup(params)
    objective = _objective(params)
    max_words = params.get("max_words")
    if max_words is not None and (not isinstance(max_words, int) or isinstance(max_words, bool)):
        raise PositionError('"max_words" must be 1, 2 or 3')
    return {"claim": solver.best_move(position, objective=objective, max_words=max_words).to_dict()}
