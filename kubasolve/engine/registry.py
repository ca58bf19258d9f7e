"""Registry of engine commands: each ``commands_<game>.py`` module declares its commands here.

A command is a handler plus the schema of its parameters, declared once as a :class:`Params`
subclass (a ``msgspec.Struct`` that forbids unknown fields). The server decodes the request's
``params`` straight into that struct - strict types (``"false"`` is not a bool, ``3.9`` not an int),
declared ranges and lengths checked before any handler code runs - so a handler receives a valid,
typed value and never sees a raw dict. ``hello``/``schema`` publish the same declarations as JSON
Schema. The handler returns a JSON-serialisable dict, or raises a
:class:`~kubasolve.errors.KubasolveError` subclass (its ``code`` becomes the answer's error code).

Example (see "Declaring a command" in ``docs/engine.md``)::

    class EchoParams(Params):
        text: Annotated[str, Meta(max_length=100)]
        times: Annotated[int, Meta(ge=1, le=10)] = 1

    @command("demo.echo", EchoParams)
    def echo(p: EchoParams, session: Session) -> dict[str, Any]:
        \"\"\"Repeat ``text``.\"\"\"
        return {"text": p.text * p.times}
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import UnionType
from typing import (
    Annotated,
    Any,
    ClassVar,
    Literal,
    TypeVar,
    Union,
    get_args,
    get_origin,
    get_type_hints,
)

import msgspec
from msgspec import UNSET, Meta, UnsetType

from kubasolve.errors import KubasolveError, LimitError
from kubasolve.games.limits import MAX_SEED

__all__ = [
    "Answer",
    "COMMANDS",
    "HANDLERS",
    "LIMITS",
    "MAX_INT",
    "UNSET",
    "ApplyMove",
    "Command",
    "GameId",
    "GameParams",
    "LexiconName",
    "MaxNodes",
    "Meta",
    "DEFAULT_MOVETIME_MS",
    "MoveTimeMs",
    "movetime_or_default",
    "budget_proof",
    "Name",
    "NoParams",
    "Params",
    "Seed",
    "SeedInt",
    "Session",
    "UnsetType",
    "WithState",
    "command",
    "decode_params",
    "given",
    "refuse_with_state",
    "validation_error",
]


class _ParamsMeta(msgspec.StructMeta):
    """Makes every ``Params`` subclass keyword-only, so required fields may follow inherited optional ones."""

    def __new__(mcls, name: str, bases: tuple[type, ...], namespace: dict[str, Any], **kwargs: Any) -> Any:
        kwargs.setdefault("kw_only", True)
        return super().__new__(mcls, name, bases, namespace, **kwargs)


class Params(msgspec.Struct, metaclass=_ParamsMeta, forbid_unknown_fields=True):
    """Base class of every command's parameters: unknown keys are refused by name (subclasses inherit that;
    fields are keyword-only, so a subclass may add required fields after inherited optional ones). A subclass's
    ``retired`` (a ``ClassVar``: key -> what replaced it) names the keys it no longer takes, for their refusal."""

    retired: ClassVar[dict[str, str]] = {}


class NoParams(Params):
    """A command without parameters (``params`` may be omitted or ``{}``)."""


class Answer(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Base class of every command's declared result (its JSON Schema is published by ``schema`` beside the
    parameters'): the keys an answer's ``result`` holds, each typed; optional keys default to ``UNSET``."""


MAX_INT = 2**53 - 1
"""Largest integer a request may hold anywhere (exact in every JSON implementation, JavaScript included), seeds
excepted (:data:`SeedInt`)."""

GameId = Annotated[str, Meta(min_length=1, max_length=32, description='a running game\'s id, e.g. "g1"')]
SeedInt = Annotated[int, Meta(ge=0, le=MAX_SEED, description="a seed, a whole number from 0 to 2**63 - 1")]
"""Every ``seed`` parameter: the one bound of the library, the CLI and the engine (:data:`MAX_SEED`), the exception to
:data:`MAX_INT` (self-play records carry seeds below 2**62 that a request must be able to give back)."""
Seed = SeedInt | Annotated[str, Meta(max_length=200)]
"""The seed of ``kubagram.new-game`` (v2), which also takes a short string."""
LexiconName = Annotated[str, Meta(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9_.-]+$",
                                  description='a lexicon the engine serves (hello lists them), e.g. "nl"; never a file')]
Name = Annotated[str, Meta(min_length=1, max_length=64, description="a player or AI name")]

MoveTimeMs = Annotated[int, Meta(ge=1, le=600_000, description="time budget in milliseconds (answers with the best found so far)")]
MaxNodes = Annotated[int, Meta(ge=1, le=10**12, description="search node budget (answers with the best found so far)")]
DEFAULT_MOVETIME_MS = 10_000
"""The time budget of a move or search request that gives neither ``movetime_ms`` nor ``max_nodes`` (no request runs
unbounded; each game's docs give what its searches take)."""


def movetime_or_default(movetime_ms: int | None, max_nodes: int | None) -> int | None:
    """A request's time budget: its ``movetime_ms``, or :data:`DEFAULT_MOVETIME_MS` when it gives no budget at all."""
    return DEFAULT_MOVETIME_MS if movetime_ms is None and max_nodes is None else movetime_ms


def budget_proof(budget: Any) -> dict[str, Any]:
    """A budgeted answer's ``proven_optimal`` (no search was cut by the budget: the answer is the exact one) and
    ``nodes`` (what the searches spent), from a :class:`kubasolve.budget.WorkBudget`."""
    return {"proven_optimal": not budget.exhausted, "nodes": budget.nodes}


WithState = Annotated[bool, Meta(description="answer with the whole state (false: a short summary instead)")]
ApplyMove = Annotated[bool, Meta(description="apply the chosen move (false: only show it)")]


class GameParams(Params):
    """Base of the parameters of a command on a running game (``game`` names it)."""

    game: GameId


P = TypeVar("P", bound=Params)
Handler = Callable[[Any, "Session"], dict[str, Any]]


@dataclass(frozen=True)
class Command:
    """One engine command: its name, handler, parameter schema and result schema."""

    name: str
    handler: Handler
    params: type[Params]
    summary: str
    result: type[Answer] | None = None

    def decode(self, raw: bytes) -> Params:
        """The request's ``params`` JSON decoded into the declared struct; a named error otherwise."""
        return decode_params(raw, self.params)

    def schema(self) -> dict[str, Any]:
        """``{"summary", "params": <JSON Schema of the parameters>, "result": <JSON Schema of the answer's result>}``."""
        out: dict[str, Any] = {"summary": self.summary, "params": msgspec.json.schema(self.params)}
        if self.result is not None:
            out["result"] = msgspec.json.schema(self.result)
        return out


COMMANDS: dict[str, Command] = {}
HANDLERS = COMMANDS
"""Older name of :data:`COMMANDS` (membership tests such as ``cmd in HANDLERS`` keep working)."""

LIMITS: dict[str, int] = {
    "line_bytes": 1 << 20,
    "games_per_session": 1000,
    "max_int": MAX_INT,
}
"""Engine-wide bounds (published by ``hello``); per-command bounds live in the command schemas."""


def command(name: str, params: type[Params] = NoParams, result: type[Answer] | None = None) -> Callable[[Handler], Handler]:
    """Decorator: register ``fn(p: params, session) -> dict`` as the handler of engine command ``name``; ``result``
    declares the answer's keys (an :class:`Answer` subclass, published by ``schema``; the tests hold every answer
    to it)."""
    if not (isinstance(params, type) and issubclass(params, Params)):
        raise TypeError(f"engine command {name!r}: params must be a Params subclass")
    if result is not None and not (isinstance(result, type) and issubclass(result, Answer)):
        raise TypeError(f"engine command {name!r}: result must be an Answer subclass")

    def register(fn: Handler) -> Handler:
        if name in COMMANDS:
            raise RuntimeError(f"engine command {name!r} registered twice")
        summary = (fn.__doc__ or "").strip().split("\n\n")[0]
        COMMANDS[name] = Command(name, fn, params, _plain(" ".join(summary.split())), result)
        return fn

    return register


def _plain(text: str) -> str:
    """A docstring summary as plain text: reStructuredText literals (````x````) and roles (``:class:`x```) unwrapped."""
    text = re.sub(r":[a-z]+:`~?([^`]*)`", r"\1", text)
    return re.sub(r"``([^`]*)``", r"\1", text)


def given(struct: msgspec.Struct) -> dict[str, Any]:
    """The fields of ``struct`` that the request set (``UNSET`` ones dropped), nested structs as dicts.

    Handy to hand a declared sub-object (rules, a position) to a library ``from_dict``.
    """
    out: dict[str, Any] = {}
    for name in struct.__struct_fields__:
        value = getattr(struct, name)
        if value is UNSET:
            continue
        out[name] = msgspec.to_builtins(value)
    return out


def decode_params(raw: bytes, kind: type[P]) -> P:
    """Decode JSON ``raw`` into ``kind`` (used by the server; a named bad-request error otherwise)."""
    try:
        return msgspec.json.decode(raw, type=kind)
    except msgspec.ValidationError as exc:
        raise validation_error(exc, kind) from None


_AT = re.compile(r" - at `\$(?P<path>[^`]*)`$")
_TYPE_WORDS = {"int": "an integer", "str": "a string", "bool": "true or false", "float": "a number",
               "array": "an array", "object": "an object", "null": "null"}
_FIELD = re.compile(r"(?P<what>unknown|required) field `(?P<name>[^`]*)`")


def validation_error(exc: msgspec.ValidationError, kind: type | None = None, root: str = "params") -> KubasolveError:
    """A msgspec validation error as a bad-request error naming the key, e.g. ``params.top``."""
    text = str(exc)
    path = ""
    at = _AT.search(text)
    if at:
        path = at["path"]
        text = text[: at.start()]
    key = root + path
    hint = ""
    found = _FIELD.search(text)
    if found:
        key = f"{key}.{found['name']}"
        if found["what"] == "unknown":
            text = "unknown parameter" if not path else "unknown key"
            retired = getattr(kind, "retired", {}) if not path else {}
            if found["name"] in retired:  # a key a command took before under another meaning: say what replaced it
                text = f"no longer taken: {retired[found['name']]}"
            elif not path and kind is not None and hasattr(kind, "__struct_fields__"):
                hint = f" (known: {', '.join(kind.__struct_fields__) or 'none'})"
        else:
            text = "required parameter missing" if not path else "required key missing"
    text = re.sub(r"`([^`]*)`", lambda m: " or ".join(_TYPE_WORDS.get(t.strip(), t.strip()) for t in m[1].split("|")), text)
    if text.startswith("Invalid enum value") and kind is not None:
        choices = _literal_choices(kind, path)
        if choices:
            hint = f" (one of {', '.join(repr(c) for c in choices)})"
    if text.startswith("Expected a string matching regex") and kind is not None:
        described = _pattern_description(kind, path)
        if described:
            hint = f" ({described})"
    message = text.replace("`", "")
    message = message[:1].lower() + message[1:]
    return KubasolveError(f"{key}: {message}{hint}", key=key)


def _literal_choices(kind: Any, path: str) -> tuple[Any, ...]:
    """The allowed values of the Literal field at ``path`` (``.move.type``) of struct ``kind``; () if unknown."""
    hint: Any = kind
    for name in re.findall(r"\.(\w+)", path):
        struct = next((t for t in _flat(hint) if isinstance(t, type) and issubclass(t, msgspec.Struct)), None)
        if struct is None:
            return ()
        hint = get_type_hints(struct, include_extras=True).get(name)
    return tuple(v for t in _flat(hint) if get_origin(t) is Literal for v in get_args(t))


def _pattern_description(kind: Any, path: str) -> str:
    """The description of the string pattern at ``path`` (``.ai``, ``.players[1]``) of struct ``kind``: what a value
    failing it should look like; "" if unknown."""
    hint: Any = kind
    for name, _ in re.findall(r"\.(\w+)|\[(\d+)\]", path):
        if name:
            struct = next((t for t in _flat(hint) if isinstance(t, type) and issubclass(t, msgspec.Struct)), None)
            hint = None if struct is None else get_type_hints(struct, include_extras=True).get(name)
        else:
            hint = next((get_args(t)[0] for t in _flat(hint) if get_origin(t) is list and get_args(t)), None)
        if hint is None:
            return ""
    return next((str(m.description) for m in _metas(hint) if m.pattern and m.description), "")


def _metas(hint: Any) -> list[msgspec.Meta]:
    """The ``Meta`` constraints of a type hint, its union's alternatives and nested Annotated included."""
    origin = get_origin(hint)
    if origin is Annotated:
        inner, *extras = get_args(hint)
        return [m for m in extras if isinstance(m, msgspec.Meta)] + _metas(inner)
    if origin in (Union, UnionType):
        return [m for arg in get_args(hint) for m in _metas(arg)]
    return []


def _flat(hint: Any) -> list[Any]:
    """The alternatives of a type hint, Annotated and unions unwrapped."""
    origin = get_origin(hint)
    if origin is Annotated:
        return _flat(get_args(hint)[0])
    if origin in (Union, UnionType):
        return [t for arg in get_args(hint) for t in _flat(arg)]
    return [hint]


@dataclass
class Session:
    """State that lives as long as one engine process: running games; and, while a request runs, its id, the
    flag a ``stop`` request sets (``stop``) and the writer of ``info`` lines (set by the server loop)."""

    games: dict[str, Any] = field(default_factory=dict)
    next_game_id: int = 1
    request_id: Any = None
    stop: Any = None
    """The current request's stop flag (a ``threading.Event``), None outside the server loop."""
    stopped_search: bool = False
    """For a ``stop`` request: whether it found a request to stop."""
    writer: Callable[[dict[str, Any]], None] | None = None

    def emit_info(self, info: dict[str, Any]) -> None:
        """Write an ``{"id", "info"}`` line for the current request (progress), when the loop can."""
        if self.writer is not None:
            self.writer({"id": self.request_id, "info": info})

    def new_game_id(self) -> str:
        gid = f"g{self.next_game_id}"
        self.next_game_id += 1
        return gid

    def add_game(self, game: Any) -> str:
        """Keep ``game`` under a new id; refused when the session holds too many games."""
        if len(self.games) >= LIMITS["games_per_session"]:
            raise LimitError(f"this session already holds {len(self.games)} games (the limit); close some with close-game")
        gid = self.new_game_id()
        self.games[gid] = game
        return gid


def refuse_with_state(p: Params, keys: Sequence[str] = ("seed", "rules")) -> None:
    """A new-game request resuming a saved ``state`` may not also set ``keys`` (the state holds them)."""
    clash = [k for k in keys if getattr(p, k) is not UNSET]
    if clash:
        raise KubasolveError(f"params.{clash[0]}: not allowed with state (the state holds it)", key=f"params.{clash[0]}")
