"""Engine commands for whole Kubagram games (``kubagram.*``); schemas in ``docs/engine_kubagram_game.md``."""

from __future__ import annotations

import functools
from typing import Annotated, Any, Literal

from kubasolve.engine.commands_kubagram import (
    KubagramRulesSpec,
    kubagram_rules,
)
from kubasolve.engine.commands_session import (
    SessionGame,
    adopt_game,
    call,
    declare_rules,
    declare_v2_state_and_apply,
    lexicon_for,
    rekeyed,
    v2_answer,
    v2_game,
)
from kubasolve.engine.registry import (
    UNSET,
    Answer,
    ApplyMove,
    GameParams,
    Meta,
    MoveTimeMs,
    Name,
    Params,
    Seed,
    SeedInt,
    Session,
    UnsetType,
    WithState,
    command,
    given,
    refuse_with_state,
)
from kubasolve.errors import KubasolveError, LimitError
from kubasolve.games.limits import KUBAGRAM_MAX_PLANNER_DEPTH as MAX_PLANNER_DEPTH
from kubasolve.games.limits import KUBAGRAM_MAX_SEARCH_NODES as MAX_SEARCH_NODES
from kubasolve.games.limits import KUBAGRAM_MAX_WORD as MAX_WORD

MAX_PLAYERS = 8
AiName = Annotated[str, Meta(pattern=r"^[a-z][a-z0-9_-]{0,31}(:[1-9][0-9]{0,5})?$",
                             description=f"an AI: random, greedy, planner, planner:DEPTH (1-{MAX_PLANNER_DEPTH}), search, "
                                         f"search:NODES (1-{MAX_SEARCH_NODES})")]
Rotation = Literal[0, 90, 180, 270] | Annotated[str, Meta(max_length=20, description="a corner name such as top-right")]


class GameRulesSpec(Params):
    """Kubagram game settings beyond scoring (``KubagramGameRules``; the player count comes from ``players``)."""

    vowel_rule_consonants: Annotated[int, Meta(ge=0, le=200)] | UnsetType = UNSET
    vowels: Annotated[str, Meta(min_length=1, max_length=26)] | UnsetType = UNSET
    nonword_penalty: Annotated[int, Meta(ge=0, le=1000)] | UnsetType = UNSET
    skips_per_game: Annotated[int, Meta(ge=0, le=100)] | UnsetType = UNSET
    missed_claims: bool | UnsetType = UNSET


class KubagramAllRulesSpec(KubagramRulesSpec):
    """Kubagram rules in the v3 new-game: the scoring settings and the game settings in one object (the player count
    comes from ``players``)."""

    vowel_rule_consonants: Annotated[int, Meta(ge=0, le=200)] | UnsetType = UNSET
    vowels: Annotated[str, Meta(min_length=1, max_length=26)] | UnsetType = UNSET
    nonword_penalty: Annotated[int, Meta(ge=0, le=1000)] | UnsetType = UNSET
    skips_per_game: Annotated[int, Meta(ge=0, le=100)] | UnsetType = UNSET
    missed_claims: bool | UnsetType = UNSET


declare_rules("kubagram", KubagramAllRulesSpec)


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
    seed: SeedInt = 0
    apply: ApplyMove = True
    state: WithState = True
    movetime_ms: MoveTimeMs | None = None
    max_nodes: Annotated[int, Meta(ge=1, le=MAX_SEARCH_NODES, description="simulated turns for the planner and the search AI")] | None = None


def _game(p: GameParams, session: Session) -> SessionGame:
    return v2_game(p.game, session, "kubagram")


_SUMMARY = ("current", "phase", "turn", "taken", "scores")
_answer = functools.partial(v2_answer, summary=_SUMMARY)


class V2Answer(Answer):
    game: str
    players: list[str]
    state: dict[str, Any] | UnsetType = UNSET
    current: int | UnsetType = UNSET
    phase: str | UnsetType = UNSET
    turn: int | UnsetType = UNSET
    taken: int | UnsetType = UNSET
    scores: list[int] | UnsetType = UNSET


@command("kubagram.new-game", NewGameParams, V2Answer)
def new_game(p: NewGameParams, session: Session) -> dict[str, Any]:
    """v2 (use new-game): deal a new game: ``seed``, ``players`` (a count or a list of names such as ["human", "greedy"]),
    optional ``rules`` and ``game_rules`` objects, optional ``rotation``; or ``state`` to resume a saved game."""
    from kubasolve.games.kubagram.game import default_referee
    from kubasolve.games.kubagram.game_rules import KubagramGameRules
    from kubasolve.games.kubagram.protocol import KubagramPlayRules
    from kubasolve.games.kubagram.state import GameState

    if p.state is not UNSET:
        refuse_with_state(p, ("seed", "rules", "game_rules", "rotation"))
        native = GameState.from_dict(p.state, lexicon=lexicon_for("nl"))
        players: Any = p.players
    else:
        players = 2 if p.players is UNSET else p.players
        count = players if isinstance(players, int) else len(players)
        settings = given(p.game_rules) if p.game_rules is not UNSET else {}
        game_rules = KubagramGameRules.from_dict({**settings, "n_players": count})
        referee = default_referee(kubagram_rules(p.rules if p.rules is not UNSET else None), game_rules, lexicon_for("nl"))
        native = referee.new_game(0 if p.seed is UNSET else p.seed, rotation=None if p.rotation is UNSET else p.rotation)
    gid, sg = adopt_game(session, "kubagram", KubagramPlayRules(native.rules, native.game_rules), "nl", native, players)
    return _answer(gid, sg)


def _claim_value(referee: Any, state: Any, action: Any) -> dict[str, int]:
    """What a claim is worth to the player to move: ``score`` (their gain) and ``taken`` (what the others lose)."""
    after = referee.apply(state, action)
    me = state.current
    gain = after.scores[me] - state.scores[me]
    taken = sum(max(0, before - now) for p, (before, now) in enumerate(zip(state.scores, after.scores)) if p != me)
    return {"score": gain, "taken": taken}


class LegalMovesAnswer(Answer):
    game: str
    player: int
    phase: str
    moves: list[dict[str, Any]]


@command("kubagram.legal-moves", LegalMovesParams, LegalMovesAnswer)
def legal_moves(p: LegalMovesParams, session: Session) -> dict[str, Any]:
    """v2 (use legal-moves): legal actions for the player to move: every take/skip/place choice, the ``claims`` best
    word claims and best compounds (each with its ``score`` and ``taken``), and ending the turn."""
    from kubasolve.games.kubagram.actions import Claim

    sg = _game(p, session)
    referee, native = sg.game.referee, sg.native
    moves = []
    for m in referee.legal_actions(native, p.claims):
        entry = {**m.to_dict(), "text": m.describe()}
        if isinstance(m, Claim):
            entry.update(_claim_value(referee, native, m))
        moves.append(entry)
    return {"game": p.game, "player": native.current, "phase": native.phase, "moves": moves}


declare_v2_state_and_apply(
    "kubagram", ApplyMoveParams, V2Answer, summary=_SUMMARY,
    state_doc="v2 (use state): the full state of a running game (JSON snapshot, history included).",
    apply_doc="v2 (use apply-move): apply ``move`` (an action object) for the player to move; an illegal move is an "
              "error, state unchanged.")


class AiMoveAnswer(V2Answer, kw_only=True):
    actions: list[dict[str, Any]]


@command("kubagram.ai-move", AiMoveParams, AiMoveAnswer)
def ai_move(p: AiMoveParams, session: Session) -> dict[str, Any]:
    """v2 (use ai-move): let AI ``ai`` play the rest of the current turn; ``apply`` (default true) applies the actions.
    A budget, ``movetime_ms`` and/or ``max_nodes``, bounds the planner and the search AI (they answer with the best turn
    searched by then); greedy and random need none."""
    from kubasolve.budget import Budget
    from kubasolve.games.kubagram.actions import action_from_dict

    sg = _game(p, session)
    try:
        chosen = sg.game.ai_move(sg.state, p.ai, Budget(p.movetime_ms, p.max_nodes, stop=session.stop), p.seed)
    except LimitError as exc:
        raise LimitError(str(exc), key="params.game") from None
    except KubasolveError as exc:
        raise rekeyed(exc) from None
    if p.apply:
        sg.state = call(sg.game.apply, sg.state, chosen.action)
    steps = chosen.action["actions"]
    return _answer(p.game, sg, p.state, actions=[{**a, "text": action_from_dict(a).describe()} for a in steps])
