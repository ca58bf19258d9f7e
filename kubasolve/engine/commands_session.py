"""Engine protocol v3: the generic game-session commands over the game protocol (:mod:`kubasolve.games.protocol`).

``games``, ``new-game``, ``state``, ``legal-moves``, ``apply-move``, ``ai-move``, ``render``, ``close-game``,
``ready`` and ``stop`` work the same for every game: the game kind is a parameter (``game``), a running game is
named by ``game_id``, and every session answer holds the same keys (``game_id``, ``game``, ``players``,
``current``, ``turn``, ``scores``, ``over``, ``winners``, ``state`` when asked). The per-game v2 session commands
(``crossword.apply-move`` ...) are aliases that call the helpers here. See docs/engine.md.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

import msgspec

from kubasolve.engine.registry import (
    DEFAULT_MOVETIME_MS,
    UNSET,
    Answer,
    GameParams,
    LexiconName,
    MaxNodes,
    Meta,
    MoveTimeMs,
    Name,
    NoParams,
    Params,
    SeedInt,
    Session,
    UnsetType,
    command,
    given,
    validation_error,
)
from kubasolve.errors import KubasolveError, StateError, UnknownGameError

__all__ = ["SessionGame", "V2Answer", "adopt_game", "check_rule_files", "lexicon_for", "saved_game", "call", "declare_ai_options", "declare_rules", "find_game", "new_session_game", "session_answer", "session_budget",
           "v2_answer", "v2_game"]

GameKind = Annotated[str, Meta(min_length=1, max_length=32, pattern=r"^[a-z][a-z0-9_-]*$",
                               description='a game kind, e.g. "crossword" (the games command lists them)')]
GameId = Annotated[str, Meta(min_length=1, max_length=32, description='a running game\'s id, e.g. "g1"')]
MAX_SEATS = 8
MAX_TOP = 1000
Players = (Annotated[int, Meta(ge=1, le=MAX_SEATS, description="a count of seats (player0, player1 ...)")]
           | Annotated[list[Name], Meta(min_length=1, max_length=MAX_SEATS, description="the seat names")])
AI_SPEC_PATTERN = r"^[a-z][a-z0-9_-]*(:[a-z0-9]{1,12})*$"
"""The syntax every game's AI names keep (an AI, then options after ``:``: ``planner:3``, ``equity:bounded``,
``sim2:spread:400ms``); the game says which exist (``Game.check_ai``: crossword's grammar is
:mod:`kubasolve.games.crossword.ai_names`), refusing the others by name with their forms."""
AiSpec = Annotated[str, Meta(min_length=1, max_length=64, pattern=AI_SPEC_PATTERN,
                             description="an AI of the game (games lists them), with the game's options after ':', e.g. "
                                         "planner, planner:3, equity:bounded, sim2:spread:400ms")]
WithState = Annotated[bool, Meta(description="also answer with the whole saved state (state)")]
Progress = Annotated[bool, Meta(description='send {"id", "info": {"nodes", "ms", "best"?}} lines while the search runs')]


# -------------------------------------------------------------------- per-game engine declarations
@dataclass(frozen=True)
class RulesDeclaration:
    """How the engine checks a game kind's ``rules`` parameter: a ``Params`` struct (bounded, unknown keys refused by
    name) and an optional check of the rules object (e.g. a variant too large to search)."""

    spec: type[Params]
    check: Callable[[Any], None] | None = None
    shown: Callable[[Any], dict[str, Any]] | None = None
    """The settings of a rules object whose form in the library's ``to_dict`` is not the one ``spec`` takes (e.g. a
    table the request names by its bundled name); ``games`` publishes the defaults through it."""
    files: Mapping[str, Collection[str]] = field(default_factory=dict)
    """The settings the library reads as a bundled name *or a file's path* (crossword ``tiles``, ``layout``; Scruble
    ``pegs``), with their bundled names: a saved state's string there must be one of them (a table is data)."""


RULES: dict[str, RulesDeclaration] = {}


def declare_rules(game: str, spec: type[Params], check: Callable[[Any], None] | None = None,
                  shown: Callable[[Any], dict[str, Any]] | None = None,
                  files: Mapping[str, Collection[str]] | None = None) -> None:
    """Declare the engine's schema of game ``game``'s rules (its command module does, at import); ``shown`` gives the
    settings whose library form differs from the one ``spec`` takes, ``files`` the settings the library would read
    as a file's path, with their bundled names (see :class:`RulesDeclaration`)."""
    RULES[game] = RulesDeclaration(spec, check, shown, dict(files or {}))


def declared_defaults(game: Any, declared: RulesDeclaration) -> dict[str, Any]:
    """The default rule settings of ``game`` as ``new-game``'s ``rules`` takes them: every setting the declared schema
    names, none other (the library's ``to_dict`` may hold settings a request cannot set, e.g. a layout file, or leave
    one out at its default), so a frontend can send them back as they are."""
    full = game.rules_to_dict()
    out: dict[str, Any] = {}
    for name in declared.spec.__struct_fields__:
        if name in full:
            out[name] = full[name]
        elif hasattr(game.rules, name):
            out[name] = msgspec.to_builtins(getattr(game.rules, name))
    if declared.shown is not None:
        out.update(declared.shown(game.rules))
    return given(msgspec.convert(out, declared.spec))  # (a default its own schema refuses is a bug: it raises)


AI_OPTIONS: dict[str, type[Params]] = {}
"""Per game kind, the schema of ``ai-move``'s ``options`` (its AI settings); a kind without one takes none."""


class NoAiOptions(Params):
    """The AI settings of a game whose AIs take none (``options`` may be omitted or ``{}``)."""


def declare_ai_options(game: str, spec: type[Params]) -> None:
    """Declare the engine's schema of game ``game``'s AI settings (``ai-move``'s ``options``; its command module does, at
    import)."""
    AI_OPTIONS[game] = spec


def lexicon_for(name: str, key: str = "params.lexicon", alphabet: Any = None) -> Any:
    """The one place the session commands (and the v2 game commands) load a lexicon by name: a name the engine
    serves (``kubasolve.engine.lexicons.resolve_lexicon``, docs/engine.md "Lexicons"), never a file; an operator's
    list read with ``alphabet`` (the game's :meth:`~kubasolve.games.protocol.Game.wordlist_alphabet`)."""
    from kubasolve.engine.lexicons import resolve_lexicon

    return resolve_lexicon(name, key=key, alphabet=alphabet)


def rekeyed(exc: KubasolveError, root: str = "params") -> KubasolveError:
    """A library error whose ``key`` names a function argument (``ai``, ``players``, ``state.native``) as the same
    error keyed by the request (``params.ai`` ...)."""
    if not exc.key or exc.key.startswith(root):
        return exc
    key = f"{root}.{exc.key}"
    message = str(exc)
    message = key + message[len(exc.key):] if message.startswith(exc.key + ":") else f"{key}: {message}"
    out = type(exc)(message, key=key)
    return out


# -------------------------------------------------------------------- session games
@dataclass
class SessionGame:
    """A running game of an engine session: the protocol game (rules, lexicon) and its current state."""

    game: Any
    state: Any

    @property
    def players(self) -> list[str]:
        """Seat names."""
        return list(self.state.players)

    @property
    def native(self) -> Any:
        """The game's own state object."""
        return self.state.native

    @property
    def kind(self) -> str:
        """The game kind."""
        return str(self.game.name)


def find_game(gid: str, session: Session, kind: str | None = None, key: str = "params.game_id",
              hint: str = "new-game") -> SessionGame:
    """The running game ``gid`` (of game kind ``kind`` when given); ``unknown-game`` otherwise."""
    found = session.games.get(gid)
    if not isinstance(found, SessionGame) or (kind is not None and found.kind != kind):
        what = f"{kind} game" if kind else "game"
        raise UnknownGameError(f"no {what} {gid!r} is running; start one with {hint}", key=key)
    return found


def _game_object(kind: str, rules: Any, lexicon: str | None, root: str = "params") -> Any:
    """The protocol game of kind ``kind`` with the request's ``rules`` (checked against the declared spec) and
    ``lexicon`` (a name; None: the game's default); errors keyed under ``root`` (``params.rules`` ...)."""
    from kubasolve.games.protocol import game_class

    try:
        cls = game_class(kind)
    except KubasolveError as exc:
        raise rekeyed(exc) from None
    declared = RULES.get(kind)
    if isinstance(rules, dict) and declared is not None:
        try:
            rules = given(msgspec.convert(rules, declared.spec))
        except msgspec.ValidationError as exc:
            raise validation_error(exc, declared.spec, root=f"{root}.rules") from None
    try:
        parsed = cls.parse_rules(rules)
    except KubasolveError as exc:
        raise type(exc)(f"{root}.rules: {exc}", key=f"{root}.rules") from None
    if declared is not None and declared.check is not None:
        declared.check(parsed)
    if not cls.lexicons:
        if lexicon is not None:
            raise KubasolveError(f"{root}.lexicon: {kind} uses no lexicon", key=f"{root}.lexicon")
        return cls(parsed)
    probe = cls(parsed)
    name = lexicon if lexicon is not None else probe.default_lexicon()
    return cls(parsed, lexicon_for(name, f"{root}.lexicon", probe.wordlist_alphabet()))


def check_rule_files(kind: str, rules: Any, root: str = "params.state") -> None:
    """Refuse a saved state's rule setting that names a file (``{"tiles": "/srv/x.toml"}``): each setting the library
    reads as a bundled name or a file's path (:attr:`RulesDeclaration.files`) must give a bundled name (or a table)."""
    declared = RULES.get(kind)
    if declared is None or not isinstance(rules, Mapping):
        return
    for name, bundled in declared.files.items():
        value = rules.get(name)
        if isinstance(value, str) and value not in bundled:
            raise StateError(f"{root}.rules.{name}: {value[:64]!r} is not one of {', '.join(sorted(bundled))} (the "
                             "engine opens no file a request names)", key=f"{root}.rules.{name}")


def saved_game(kind: str, saved: Any, root: str = "params.state") -> Any:
    """The protocol game of a saved state ``saved`` of kind ``kind`` (its ``rules`` and ``lexicon``) as the engine
    takes it: the rules a JSON object of settings, never the path of a rules file (nor TOML text) for the engine to
    read, checked by the library (a saved state may hold settings the request schema does not); the lexicon a name
    the engine serves. Errors are keyed under ``root`` (``params.state.rules`` ...)."""
    from kubasolve.games.protocol import game_class

    cls = game_class(kind)
    rules = saved.get("rules")
    if rules is not None and not isinstance(rules, dict):
        raise StateError(f"{root}.rules: a JSON object of rule settings (the engine opens no rules file a request "
                         "names)", key=f"{root}.rules")
    check_rule_files(kind, rules, root)
    try:
        parsed = cls.parse_rules(rules)
    except KubasolveError as exc:
        raise StateError(f"{root}.rules: {exc}", key=f"{root}.rules") from None
    return _game_object(kind, parsed, saved.get("lexicon") if cls.lexicons else None, root=root)


def _saved_json(text: str) -> dict[str, Any] | None:
    """The JSON object of a saved-game text (a protocol state, a game's own saved JSON), else None (not JSON: a
    notation such as GCG, which the game's loader reads)."""
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        return None
    return data if isinstance(data, dict) else None


def new_session_game(session: Session, kind: str, *, seed: Any = UNSET, players: Any = UNSET, rules: Any = UNSET,
                     lexicon: Any = UNSET, saved: Any = UNSET, root: str = "params.state") -> tuple[str, SessionGame]:
    """Start (or, with ``saved``, resume) a game of kind ``kind`` in the session: (its id, the session game); errors in
    ``saved`` are keyed under ``root``."""
    from kubasolve.games.protocol import check_state_envelope

    if saved is not UNSET:
        given_too = [k for k, v in (("seed", seed), ("players", players), ("rules", rules), ("lexicon", lexicon)) if v is not UNSET]
        if given_too:
            raise KubasolveError(f"params.{given_too[0]}: not allowed with state (the state holds it)", key=f"params.{given_too[0]}")
        try:
            check_state_envelope(saved)
            if saved["game"] != kind:
                raise StateError(f"state.game: a {saved['game']} state, not {kind}", key="state.game")
        except KubasolveError as exc:
            raise rekeyed(exc, root.removesuffix(".state")) from None
        game = saved_game(kind, saved, root=root)
        state = call(game.state_from_json, saved)
    else:
        game = _game_object(kind, None if rules is UNSET else rules, None if lexicon is UNSET else lexicon)
        try:
            state = game.new_game(0 if seed is UNSET else seed, 2 if players is UNSET else players)
        except KubasolveError as exc:
            raise rekeyed(exc) from None
    sg = SessionGame(game, state)
    return session.add_game(sg), sg


def adopt_game(session: Session, kind: str, rules: Any, lexicon: str | None, native: Any, players: Any = UNSET) -> tuple[str, SessionGame]:
    """Keep a native state of game ``kind`` (dealt or loaded by the game's own API: the v2 commands' options and
    saved states) as a session game under ``rules`` (the rules object) and ``lexicon``: (its id, the session game)."""
    game = _game_object(kind, rules, lexicon)
    state = call(game.state_of, native, None if players is UNSET else players)
    sg = SessionGame(game, state)
    return session.add_game(sg), sg


class V2Answer(Answer):
    """The keys of a v2 session answer (``<game>.new-game`` ...): the id, the seats, and the whole state or a short
    summary."""

    game: str
    players: list[str]
    state: dict[str, Any] | UnsetType = UNSET
    current: int | UnsetType = UNSET
    turn: int | UnsetType = UNSET
    scores: list[int] | UnsetType = UNSET
    over: bool | UnsetType = UNSET


V2_SUMMARY = ("current", "turn", "scores", "over")
"""The short summary of a v2 answer (``"state": false``); each game's v2 dialect names its own."""


def v2_answer(gid: str, sg: SessionGame, with_state: bool = True, *, summary: tuple[str, ...] = V2_SUMMARY,
              players: bool = True, **extra: Any) -> dict[str, Any]:
    """The answer of a v2 session command (``<game>.new-game`` ...): ``game`` (the id), ``players`` (unless the game's
    v2 answers had none), ``extra`` and the game's own state, or (``"state": false``) the short ``summary``: those
    attributes of the game's own state (by default ``current``, ``turn``, ``scores``, ``over``)."""
    out: dict[str, Any] = {"game": gid, **({"players": sg.players} if players else {}), **extra}
    native = sg.native
    if with_state:
        out["state"] = native.to_dict()
    else:
        for key in summary:
            value = getattr(native, key)
            out[key] = list(value) if isinstance(value, (list, tuple)) else value
    return out


def v2_game(gid: str, session: Session, kind: str) -> SessionGame:
    """The running game ``gid`` of kind ``kind`` for a v2 command (whose parameter is ``game``)."""
    return find_game(gid, session, kind, key="params.game", hint=f"{kind}.new-game")


def declare_v2_state_and_apply(kind: str, apply_params: type[Params], answer: type[Answer], *, state_doc: str | None,
                               apply_doc: str, apply_answer: type[Answer] | None = None, summary: tuple[str, ...] = V2_SUMMARY,
                               players: bool = True, extra: Callable[[SessionGame], dict[str, Any]] | None = None) -> None:
    """Register the v2 aliases ``<kind>.state`` (the whole state; not when ``state_doc`` is None) and
    ``<kind>.apply-move`` (apply ``params.move``, answer with the state or its summary and ``extra``): one code for
    every game, each answering in its v2 dialect (``answer``, ``summary``, ``players``)."""

    def state_cmd(p: GameParams, session: Session) -> dict[str, Any]:
        return v2_answer(p.game, v2_game(p.game, session, kind), summary=summary, players=players)

    def apply_move(p: Any, session: Session) -> dict[str, Any]:
        sg = v2_game(p.game, session, kind)
        sg.state = call(sg.game.apply, sg.state, given(p.move))
        return v2_answer(p.game, sg, p.state, summary=summary, players=players, **(extra(sg) if extra else {}))

    if state_doc is not None:
        state_cmd.__doc__ = state_doc
        command(f"{kind}.state", GameParams, answer)(state_cmd)
    apply_move.__doc__ = apply_doc
    command(f"{kind}.apply-move", apply_params, apply_answer or answer)(apply_move)


def session_answer(gid: str, sg: SessionGame, with_state: bool = False, **extra: Any) -> dict[str, Any]:
    """The v3 answer of a session command: ``game_id``, ``game``, the common result view, ``extra`` and, when asked,
    the saved ``state``."""
    out: dict[str, Any] = {"game_id": gid, "game": sg.kind, **sg.game.result(sg.state).to_dict(), **extra}
    if with_state:
        out["state"] = sg.game.state_to_json(sg.state)
    return out


def session_budget(session: Session, movetime_ms: int | None, max_nodes: int | None, progress: bool = False) -> Any:
    """The request's budget: its ``movetime_ms``/``max_nodes`` (the engine's default time when it gives neither),
    the session's stop flag, and the ``info`` writer when ``progress`` is asked."""
    from kubasolve.budget import Budget

    if movetime_ms is None and max_nodes is None:
        movetime_ms = DEFAULT_MOVETIME_MS
    return Budget(movetime_ms, max_nodes, stop=session.stop, progress=session.emit_info if progress else None)


def call(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``fn(*args)`` with library errors keyed by the request (``params.ai`` ...)."""
    try:
        return fn(*args, **kwargs)
    except KubasolveError as exc:
        raise rekeyed(exc) from None


# -------------------------------------------------------------------- results
class SessionAnswer(Answer):
    """The keys of every v3 session answer."""

    game_id: str
    game: str
    players: list[str]
    current: int | None
    turn: int
    scores: list[int]
    over: bool
    winners: list[int]
    state: dict[str, Any] | UnsetType = UNSET
    notices: Annotated[list[str], Meta(description="new-game with saved_text: what the file and the request disagree on "
                                                   "(e.g. the lexicon asked for is played, not the one the file names)")] \
        | UnsetType = UNSET


class MoveEntry(Answer):
    """One legal action: the object apply-move takes as ``action``, a short text, its score (null where the game
    does not score it) and game-specific details."""

    action: dict[str, Any]
    text: str
    score: int | None
    details: dict[str, Any]


class LegalMovesAnswer(SessionAnswer, kw_only=True):
    moves: list[MoveEntry]
    count: int | None
    complete: bool
    proven_optimal: bool
    nodes: int


class AiMoveAnswer(SessionAnswer, kw_only=True):
    action: dict[str, Any]
    text: str
    proven_optimal: bool
    nodes: int
    details: dict[str, Any]
    applied: bool


class RenderAnswer(Answer):
    game_id: str
    game: str
    format: Literal["text", "svg"]
    rendering: str


class GameInfo(Answer):
    game: str
    min_players: int
    max_players: int
    ais: list[str]
    default_ai: str
    lexicons: list[str]
    default_lexicon: str | None
    rules: dict[str, Any]
    """``{"schema": <JSON Schema of the rule settings>, "defaults": {...}}``."""
    ai_options: dict[str, Any]
    """``{"schema": <JSON Schema of ai-move's options: the game's AI settings>}``."""


class GamesAnswer(Answer):
    games: list[GameInfo]


class ReadyAnswer(Answer):
    ready: bool
    warmed: list[str]
    seconds: float
    per_game: dict[str, float]


class StopAnswer(Answer):
    stopped: bool


# -------------------------------------------------------------------- commands
@command("games", NoParams, GamesAnswer)
def games(p: NoParams, session: Session) -> dict[str, Any]:
    """Every game kind: players range, AIs (the default), lexicons, and the rule settings (schema and defaults)."""
    from kubasolve.games.protocol import game_class, game_names

    out = []
    for name in game_names():
        cls = game_class(name)
        game = cls()
        declared = RULES.get(name)
        schema = msgspec.json.schema(declared.spec) if declared is not None else cls.rules_schema()
        defaults = declared_defaults(game, declared) if declared is not None else game.rules_to_dict()
        out.append({"game": name, "min_players": game.min_players, "max_players": game.max_players, "ais": list(cls.ai_names),
                    "default_ai": cls.default_ai, "lexicons": list(cls.lexicons), "default_lexicon": game.lexicon_name,
                    "rules": {"schema": schema, "defaults": defaults},
                    "ai_options": {"schema": msgspec.json.schema(AI_OPTIONS.get(name, NoAiOptions))}})
    return {"games": out}


class NewGameParams(Params):
    game: GameKind
    seed: SeedInt | UnsetType = UNSET
    players: Players | UnsetType = UNSET
    rules: Annotated[dict[str, Any], Meta(description="rule settings (games lists them); unset ones keep the defaults")] | UnsetType = UNSET
    lexicon: LexiconName | UnsetType = UNSET
    state: Annotated[dict[str, Any], Meta(description="a saved state (state answers carry it) to resume; excludes seed, "
                                                      "players, rules and lexicon")] | UnsetType = UNSET
    saved_text: Annotated[str, Meta(min_length=1, description="the text of a saved game file to continue: the game's own "
                                    "notation (crossword: a GCG file from Macondo, Quackle, Woogles...) or a state's JSON; "
                                    "under `rules`/`lexicon` where the file does not hold them; excludes seed, players, state")] \
        | UnsetType = UNSET


@command("new-game", NewGameParams, SessionAnswer)
def new_game(p: NewGameParams, session: Session) -> dict[str, Any]:
    """Start a game of kind ``game`` (``seed``, ``players``: a count or seat names, ``rules``, ``lexicon``), or resume
    a saved ``state``, or continue a saved game file's text (``saved_text``, e.g. a GCG); the answer's ``game_id``
    names it in later commands."""
    if p.saved_text is not UNSET:
        given_too = [k for k, v in (("seed", p.seed), ("players", p.players), ("state", p.state)) if v is not UNSET]
        if given_too:
            raise KubasolveError(f"params.{given_too[0]}: not allowed with saved_text (the file holds it)", key=f"params.{given_too[0]}")
        from kubasolve.games.protocol import STATE_FORMAT
        from kubasolve.lexicon.alphabet import normalize_text

        held = _saved_json(p.saved_text)
        if held is not None and held.get("format") == STATE_FORMAT:  # its rules and lexicon name no file either:
            gid, sg = new_session_game(session, p.game, saved=held, root="params.saved_text.state")  # read as `state`
            return session_answer(gid, sg)
        if held is not None:  # the game's own saved JSON (a v2 state): its rules name no file
            check_rule_files(p.game, held.get("rules"), root="params.saved_text")
        game = _game_object(p.game, None if p.rules is UNSET else p.rules, None if p.lexicon is UNSET else p.lexicon)
        game.lexicon_given = p.lexicon is not UNSET  # (the default lexicon gives way to the one the file names)
        notices: list[str] = []
        try:
            loaded, state = game.load_saved(normalize_text(p.saved_text), notices)
        except KubasolveError as exc:
            raise type(exc)(f"params.saved_text: {exc}", key="params.saved_text") from None
        sg = SessionGame(loaded, state)
        extra: dict[str, Any] = {"notices": notices} if notices else {}
        return session_answer(session.add_game(sg), sg, **extra)
    gid, sg = new_session_game(session, p.game, seed=p.seed, players=p.players, rules=p.rules, lexicon=p.lexicon, saved=p.state)
    return session_answer(gid, sg)


class GameIdParams(Params):
    game_id: GameId


@command("state", GameIdParams, SessionAnswer)
def state_cmd(p: GameIdParams, session: Session) -> dict[str, Any]:
    """The common view of a running game and its whole saved ``state`` (new-game resumes it)."""
    return session_answer(p.game_id, find_game(p.game_id, session), True)


class LegalMovesParams(Params):
    game_id: GameId
    top: Annotated[int, Meta(ge=1, le=MAX_TOP, description="scored moves to list, best first")] = 20
    movetime_ms: MoveTimeMs | None = None
    max_nodes: MaxNodes | None = None
    progress: Progress = False


@command("legal-moves", LegalMovesParams, LegalMovesAnswer)
def legal_moves(p: LegalMovesParams, session: Session) -> dict[str, Any]:
    """Legal actions of the player to move, each with the ``action`` apply-move takes as it is: the ``top`` best
    scored moves and the few other actions (pass, draw, end of turn, one exchange...); ``count`` and ``complete``
    say how many there are in all. The budget (default 10 s) bounds the searches."""
    sg = find_game(p.game_id, session)
    found = call(sg.game.legal_moves, sg.state, p.top, session_budget(session, p.movetime_ms, p.max_nodes, p.progress))
    return session_answer(p.game_id, sg, **found.to_dict())


class ApplyMoveParams(Params):
    game_id: GameId
    action: Annotated[dict[str, Any], Meta(description="an action: a legal-moves entry's action, an ai-move's action")]
    state: WithState = False


@command("apply-move", ApplyMoveParams, SessionAnswer)
def apply_move(p: ApplyMoveParams, session: Session) -> dict[str, Any]:
    """Apply ``action`` for the player to move; an illegal action is ``illegal-move`` with the reason, the game
    unchanged."""
    sg = find_game(p.game_id, session)
    sg.state = call(sg.game.apply, sg.state, p.action)
    return session_answer(p.game_id, sg, p.state)


class AiMoveParams(Params):
    game_id: GameId
    ai: AiSpec | UnsetType = UNSET
    seed: SeedInt = 0
    apply: Annotated[bool, Meta(description="apply the chosen action (false: only show it)")] = True
    state: WithState = False
    movetime_ms: MoveTimeMs | None = None
    max_nodes: MaxNodes | None = None
    progress: Progress = False
    options: Annotated[dict[str, Any], Meta(description="the game's AI settings (games lists them as ai_options); a setting the "
                                                        "AI does not use is ignored")] | UnsetType = UNSET


@command("ai-move", AiMoveParams, AiMoveAnswer)
def ai_move(p: AiMoveParams, session: Session) -> dict[str, Any]:
    """AI ``ai`` (default: the game's) chooses the action of the player to move within the budget (default 10 s; a
    stop request ends it early with the best found), with the game's AI settings ``options`` (``games`` gives their
    schema); ``apply`` (default true) applies it."""
    sg = find_game(p.game_id, session)
    options = None
    if p.options is not UNSET:
        spec = AI_OPTIONS.get(sg.kind, NoAiOptions)
        try:
            options = given(msgspec.convert(p.options, spec))
        except msgspec.ValidationError as exc:
            raise validation_error(exc, spec, root="params.options") from None
    budget = session_budget(session, p.movetime_ms, p.max_nodes, p.progress)
    chosen = call(sg.game.ai_move, sg.state, None if p.ai is UNSET else p.ai, budget, p.seed, options)
    if p.apply:
        sg.state = call(sg.game.apply, sg.state, chosen.action)
    return session_answer(p.game_id, sg, p.state, **chosen.to_dict(), applied=p.apply)


class RenderParams(Params):
    game_id: GameId
    format: Literal["text", "svg"] = "text"


@command("render", RenderParams, RenderAnswer)
def render(p: RenderParams, session: Session) -> dict[str, Any]:
    """The position drawn as text (board, racks or hands, scores) or as an SVG document."""
    sg = find_game(p.game_id, session)
    drawn = sg.game.render_text(sg.state) if p.format == "text" else sg.game.render_svg(sg.state)
    return {"game_id": p.game_id, "game": sg.kind, "format": p.format, "rendering": drawn}


class ReadyParams(Params):
    games: Annotated[list[GameKind], Meta(max_length=32, description="the game kinds to warm up (default: all)")] | UnsetType = UNSET


@command("ready", ReadyParams, ReadyAnswer)
def ready(p: ReadyParams, session: Session) -> dict[str, Any]:
    """Do the one-time warm-up (lexicon load, the kernels' load from the numba cache or their compilation) of the
    named games (default: all), like UCI's isready; later requests then answer without it."""
    from kubasolve.games.protocol import game_names

    names = game_names() if p.games is UNSET else list(dict.fromkeys(p.games))
    start = time.perf_counter()
    per_game = {}
    for name in names:
        t0 = time.perf_counter()
        _game_object(name, None, None).warm_up()
        per_game[name] = round(time.perf_counter() - t0, 3)
    return {"ready": True, "warmed": names, "seconds": round(time.perf_counter() - start, 3), "per_game": per_game}


@command("stop", NoParams, StopAnswer)
def stop(p: NoParams, session: Session) -> dict[str, Any]:
    """End the searches of the requests sent before this one that have not answered yet (UCI's stop): each answers
    at once with its best so far. ``stopped``: there was one. Its own answer follows theirs."""
    return {"stopped": session.stopped_search}


MAX_SIM_GAMES = 100
"""Games one ``simulate`` request plays at most (the engine plays them in its own process)."""


class SimulateParams(Params):
    game: GameKind
    players: Annotated[list[AiSpec], Meta(min_length=1, max_length=MAX_SEATS, description="the AIs, one per seat")] | UnsetType = UNSET
    games: Annotated[int, Meta(ge=1, le=MAX_SIM_GAMES)] = 1
    seed: SeedInt = 0
    rules: Annotated[dict[str, Any], Meta(description="rule settings (games lists them)")] | UnsetType = UNSET
    lexicon: LexiconName | UnsetType = UNSET
    movetime_ms: Annotated[MoveTimeMs, Meta(description="each AI move's time budget (default: the AIs' own settings)")] | None = None
    max_nodes: Annotated[MaxNodes, Meta(description="each AI move's node budget (deterministic)")] | None = None
    records: Annotated[bool, Meta(description="also answer with every game's record (as simulate --records writes them)")] = False
    paired: Annotated[bool, Meta(description="every deal played once per seat rotation (games a multiple of the seat count)")] = False
    request_ms: Annotated[MoveTimeMs, Meta(description="the whole request's time (default 10,000): no game move starts "
                                           "after it; the games it cuts or never starts count in out_of_time")] | None = None


class SimulationRow(Answer):
    ai: str
    wins: float
    win_rate: float
    ci95_low: float
    ci95_high: float
    mean_score: float
    mean_turn_ms: float


class SimulateAnswer(Answer):
    game: str
    games: int
    players: list[str]
    seed: int
    workers: int
    workers_used: int
    wall_s: float
    games_per_s: float | None
    unfinished: int
    summary: list[SimulationRow]
    paired: bool = False
    out_of_time: int = 0
    records: list[dict[str, Any]] | UnsetType = UNSET


class _RequestStop:
    """The stop flag of a run with a whole-request time limit: set by a ``stop`` request or once the deadline passes."""

    def __init__(self, stop: Any, time_limit_ms: float | None) -> None:
        import time

        self.stop = stop
        self.deadline = None if time_limit_ms is None else time.perf_counter() + time_limit_ms / 1e3

    def out_of_time(self) -> bool:
        import time

        return self.deadline is not None and time.perf_counter() >= self.deadline

    def is_set(self) -> bool:
        return bool(self.stop is not None and self.stop.is_set()) or self.out_of_time()


def run_simulation(session: Session, kind: str, players: Any, games: int, seed: int, rules: Any, lexicon: Any,
                   movetime_ms: float | None, max_nodes: int | None, records: bool = False,
                   time_limit_ms: float | None = None, paired: bool = False) -> dict[str, Any]:
    """A ``simulate`` request's run in this process (the games' summary, and their records when asked); a ``stop``
    request, or ``time_limit_ms`` for the whole run (``movetime_ms``/``max_nodes`` bound each AI move), ends it with
    the games played so far; ``out_of_time`` then counts the requested games the time limit cut or never started."""
    import io

    from kubasolve.budget import Budget
    from kubasolve.games.protocol import game_class
    from kubasolve.scale.selfplay import simulate

    game = _game_object(kind, None if rules is UNSET else rules, None if lexicon is UNSET else lexicon)
    seats = list(players) if players is not UNSET else [game.default_ai] * max(2, game.min_players)
    for i, ai in enumerate(seats):  # by the seat's key, as the game's ai-move refuses it (the library names "players")
        try:
            game.check_ai(ai)
        except KubasolveError as exc:
            raise KubasolveError(f"params.players[{i}]: {str(exc).removeprefix('ai: ')}", key=f"params.players[{i}]") from None
    out = io.StringIO() if records else None
    call(game.warm_up)  # one-time set-up, outside the request's clock (docs/engine.md, "Budgets hold")
    stop = _RequestStop(session.stop, time_limit_ms)
    result = call(simulate, kind, seats, games, seed, 1, rules=game.rules, lexicon=game.lexicon if game_class(kind).lexicons
                  else None, budget=Budget(movetime_ms, max_nodes), records=out, stop=stop, paired=paired)
    answer = result.to_dict()
    answer["out_of_time"] = games - result.games + result.unfinished if stop.out_of_time() else 0
    if out is not None:
        answer["records"] = [json.loads(line) for line in out.getvalue().splitlines()]
    return answer


@command("simulate", SimulateParams, SimulateAnswer)
def simulate_cmd(p: SimulateParams, session: Session) -> dict[str, Any]:
    """AI self-play of game kind ``game``: ``games`` games (at most 100 per request) between the AIs ``players`` (one
    per seat; default the game's AI twice), dealt from ``seed``; the summary of ``kubasolve simulate`` (wins, win
    rate with its Wilson 95% interval, mean score and turn time per AI) and, with ``records``, every game's record. A
    stop request ends it with the games played so far (``games`` says how many)."""
    return run_simulation(session, p.game, p.players, p.games, p.seed, p.rules, p.lexicon, p.movetime_ms, p.max_nodes, p.records,
                          time_limit_ms=DEFAULT_MOVETIME_MS if p.request_ms is None else p.request_ms, paired=p.paired)
