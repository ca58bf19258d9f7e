"""Self-play of any game of the protocol (:mod:`kubasolve.games.protocol`): many seeded AI games, on local processes
or Ray, with one summary (wins with Wilson 95% intervals, mean score, mean turn time, games per second) and one
record format for every game.

Game ``k`` of a run with master seed ``S`` is dealt from :func:`game_seed` ``(game, S, k)`` and seats the AIs
rotated by ``k`` places (every AI plays every seat equally often); each AI move gets its own seed from the deal
seed, the seat and the move number. So the records are the same whatever the backend or the number of workers
(with a node budget or none; a time budget depends on the machine). A tie for first counts as a shared win (1/w).

A record (one JSON line per game) holds ``game`` (the kind), ``index`` (k), ``seed``, ``players`` (the seat names:
the AI labels ``greedy``, ``greedy#2``...), ``seats`` (the same labels, by seat), ``rules``, ``lexicon``,
``scores``, ``winners``, ``over``, ``turns``, ``actions`` (``[player, action]`` pairs: the actions ``Game.apply``
takes), ``mean_turn_ms`` (per seat) and ``wall_s``; :func:`replay_record` plays it again through the protocol.
No game is imported here until a run names it.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from kubasolve.budget import Budget, StopFlag
from kubasolve.errors import KubasolveError, RulesError, StateError
from kubasolve.games.limits import check_seed
from kubasolve.scale.runner import MAX_WORKERS, run_ordered
from kubasolve.stats import wilson_interval

__all__ = ["RECORD_TIMINGS", "SimulationResult", "SimulationSetting", "ai_seed", "game_seed", "labels", "replay_record", "simulate",
           "simulate_kubagram", "wilson_interval"]

RECORD_TIMINGS = ("mean_turn_ms", "wall_s")
"""Record keys that depend on the machine (leave them out to compare two runs)."""
MAX_GAMES = 10_000_000
"""Most games one run plays."""
MAX_ACTIONS = 2_000
"""Actions after which a game that is not over is given up (recorded with ``"over": false``; real games take a few
hundred at most; AIs held to a tiny node budget may find no move and pass for ever)."""


def labels(players: Sequence[str]) -> list[str]:
    """Unique seat labels for the players (``greedy``, ``greedy#2`` ... when a name repeats)."""
    from kubasolve.games.protocol import seat_labels

    return seat_labels(players)


def game_seed(game: str, master: int, k: int) -> int:
    """Deal seed of game ``k`` of a run of ``game`` with master seed ``master``."""
    return random.Random(f"{game}-sim:{master}:{k}").randrange(2**62)


def ai_seed(deal_seed: int, seat: int, move: int) -> int:
    """Seed of the AI's ``move``-th move of a game (for the AIs that draw at random)."""
    return random.Random(f"{deal_seed}:{seat}:{move}").randrange(2**62)


@dataclass(frozen=True)
class SimulationSetting:
    """What a worker needs to play games of a run (picklable): the game kind, its rules (JSON) and lexicon, the AIs,
    the budget of each AI move, the AIs' settings and the modules that register games outside the package."""

    game: str
    rules: dict[str, Any] | None
    lexicon: str | None
    players: tuple[str, ...]
    movetime_ms: float | None = None
    max_nodes: int | None = None
    ai_options: dict[str, Any] = field(default_factory=dict)
    game_modules: tuple[str, ...] = ()
    paired: bool = False
    """Every deal is played once per seat rotation (game ``k``: deal ``k // seats``, AIs rotated ``k`` seats)."""

    def key(self) -> str:
        """The game object's cache key in a worker."""
        return json.dumps([self.game, self.rules, self.lexicon, list(self.game_modules)], sort_keys=True)


_GAMES: dict[str, Any] = {}
_LEXICONS: dict[str, Any] = {}
"""Lexicon objects a run in this process was given (by name): its games use them instead of loading the name."""
_STOP: StopFlag | None = None
"""The stop flag of a run played in this process (an engine request's ``stop``); worker processes have none."""


def game_for(setting: SimulationSetting) -> Any:
    """The protocol game of ``setting``, one per process, warmed up (lexicon loaded, kernels loaded or compiled)."""
    key = setting.key()
    game = _GAMES.get(key)
    if game is None:
        from kubasolve.games.protocol import import_game_modules, load_game

        if setting.game_modules:
            import_game_modules(list(setting.game_modules))
        lexicon = _LEXICONS.get(setting.lexicon, setting.lexicon) if setting.lexicon is not None else None
        game = load_game(setting.game, setting.rules, lexicon)
        game.warm_up()
        _GAMES[key] = game
    return game


def play_one(task: tuple[SimulationSetting, int, int]) -> dict[str, Any]:
    """Worker: play game ``k`` of a run (the AIs rotated ``k`` seats) to its end; its record, with the per-seat thinking
    time (``turn_seconds``, ``turn_counts``) the summary adds up."""
    setting, master, k = task
    game = game_for(setting)
    players = list(setting.players)
    n = len(players)
    labs = labels(players)
    seats = [(i + k) % n for i in range(n)]  # seat s is played by AI seats[s]
    seat_labels = [labs[a] for a in seats]
    seed = game_seed(setting.game, master, k // n if setting.paired else k)
    budget = Budget(setting.movetime_ms, setting.max_nodes, stop=_STOP)
    state = game.new_game(seed, seat_labels)
    seconds = [0.0] * n
    counts = [0] * n
    actions: list[list[Any]] = []
    start = time.perf_counter()
    view = game.result(state)
    while not view.over and len(actions) < MAX_ACTIONS and not (_STOP is not None and _STOP.is_set()):
        p = view.current
        t0 = time.perf_counter()
        move = game.ai_move(state, players[seats[p]], budget, ai_seed(seed, p, len(actions)), setting.ai_options)
        seconds[p] += time.perf_counter() - t0
        counts[p] += 1
        state = game.apply(state, move.action)
        actions.append([p, move.action])
        view = game.result(state)
    return {"game": setting.game, "index": k, "seed": seed, "players": seat_labels, "seats": seat_labels,
            "rules": game.rules_to_dict(), "lexicon": game.lexicon_name, "scores": view.scores, "winners": view.winners,
            "over": view.over, "turns": len(actions), "actions": actions,
            "mean_turn_ms": [1e3 * s / c if c else 0.0 for s, c in zip(seconds, counts, strict=True)],
            "wall_s": time.perf_counter() - start, "turn_seconds": seconds, "turn_counts": counts}


def replay_record(record: Mapping[str, Any], lexicon: Any = None) -> Any:
    """(game, final state) of a simulate record played again through the protocol: its game dealt from its seed with
    its seats, then every ``[player, action]`` applied (the player must be the one to move); a record that does not
    replay, or whose scores differ from the replay's, is a :class:`StateError`. ``lexicon``: the lexicon object
    for the record's lexicon name (default: loaded by name)."""
    from kubasolve.games.protocol import load_game

    if not isinstance(record, Mapping):
        raise StateError(f"not a simulate record: a JSON object (mapping) is expected, got {type(record).__name__}")
    missing = [k for k in ("game", "seed", "players", "rules", "actions", "scores") if k not in record]
    if missing:
        raise StateError(f"not a simulate record: {missing[0]} missing")
    for key in ("players", "actions", "scores"):
        if not isinstance(record[key], (list, tuple)):
            raise StateError(f"not a simulate record: {key} must be a list, got {type(record[key]).__name__}")
    game = load_game(record["game"], record["rules"], lexicon if lexicon is not None else record.get("lexicon"))
    state = game.new_game(record["seed"], record["players"])
    for i, item in enumerate(record["actions"]):
        if not (isinstance(item, (list, tuple)) and len(item) == 2 and isinstance(item[0], int) and not isinstance(item[0], bool)):
            raise StateError(f"actions[{i}]: a [player, action] pair is expected")
        player, action = item
        current = game.result(state).current
        if player != current:
            raise StateError(f"actions[{i}]: recorded for player {player}, but player {current} is to move")
        try:
            state = game.apply(state, action)
        except KubasolveError as exc:
            raise StateError(f"actions[{i}] does not replay: {exc}") from None
    if game.result(state).scores != list(record["scores"]):
        raise StateError(f"the replay ends with scores {game.result(state).scores}, the record says {record['scores']}")
    return game, state


@dataclass
class SimulationResult:
    """Summary of a simulation run: per AI label the wins (ties shared), score and thinking-time totals."""

    players: list[str]
    games: int
    seed: int
    workers: int
    wins: dict[str, float] = field(default_factory=dict)
    score_sum: dict[str, float] = field(default_factory=dict)
    turn_seconds: dict[str, float] = field(default_factory=dict)
    turns: dict[str, int] = field(default_factory=dict)
    wall_s: float = 0.0
    game: str = ""
    unfinished: int = 0
    """Games given up after :data:`MAX_ACTIONS` actions (not counted as anybody's win)."""
    paired: bool = False
    """Every deal was played once per seat rotation."""
    workers_used: int | None = None
    """The workers that actually played (``workers`` is what was asked): never more than the games, fewer on a Ray
    cluster with fewer CPUs; None before the run starts."""

    @classmethod
    def empty(cls, players: Sequence[str], games: int, seed: int, workers: int, game: str = "") -> SimulationResult:
        """A result with zero totals for every AI label of ``players`` (fill it with :meth:`add_game`)."""
        labs = labels(players)
        return cls(list(players), games, seed, workers, dict.fromkeys(labs, 0.0), dict.fromkeys(labs, 0.0),
                   dict.fromkeys(labs, 0.0), dict.fromkeys(labs, 0), game=game)

    def add_game(self, rec: Mapping[str, Any]) -> None:
        """Add one game record (``seats`` labels, ``scores``, ``winners``, ``turn_seconds``, ``turn_counts``)."""
        seats = rec["seats"]
        for s, lab in enumerate(seats):
            self.score_sum[lab] += rec["scores"][s]
            self.turn_seconds[lab] += rec["turn_seconds"][s]
            self.turns[lab] += rec["turn_counts"][s]
        for w in rec["winners"]:
            self.wins[seats[w]] += 1 / len(rec["winners"])
        if not rec.get("over", True):
            self.unfinished += 1

    def win_rate(self, label: str) -> float:
        """Share of games won (ties shared)."""
        return self.wins[label] / self.games if self.games else 0.0

    def rows(self) -> list[dict[str, Any]]:
        """One summary row per AI."""
        out = []
        for lab in labels(self.players):
            lo, hi = wilson_interval(self.wins[lab], self.games)
            out.append({
                "ai": lab, "wins": self.wins[lab], "win_rate": self.win_rate(lab), "ci95_low": lo, "ci95_high": hi,
                "mean_score": self.score_sum[lab] / self.games if self.games else 0.0,
                "mean_turn_ms": 1e3 * self.turn_seconds[lab] / self.turns[lab] if self.turns[lab] else 0.0,
            })
        return out

    def to_dict(self) -> dict[str, Any]:
        """JSON summary."""
        return {"game": self.game, "games": self.games, "players": self.players, "seed": self.seed, "workers": self.workers,
                "workers_used": self.workers if self.workers_used is None else self.workers_used, "wall_s": self.wall_s, "games_per_s": self.games / self.wall_s if self.wall_s else None,
                "unfinished": self.unfinished, "paired": self.paired, "summary": self.rows()}


def simulate(game: str, players: Sequence[str], games: int = 100, seed: int = 0, workers: int = 1,
             backend: str = "local", address: str | None = None, *, rules: Any = None, lexicon: Any = None,
             budget: Budget | None = None, ai_options: Mapping[str, Any] | None = None,
             records: IO[str] | None = None, on_game: Callable[[int, int], None] | None = None,
             game_modules: Sequence[str] = (), stop: StopFlag | None = None, paired: bool = False) -> SimulationResult:
    """Play ``games`` games of ``game`` (a kind of :func:`kubasolve.games.game_names`) between the AIs ``players`` (one
    per seat, e.g. ``["greedy", "planner"]``; ``planner:3`` style settings as the game allows) and summarise.

    ``rules``: settings (a mapping, TOML text or path; default the game's); ``lexicon``: a bundled name, a word-list
    path or a loaded lexicon (that one: workers 1, backend local; default the game's); ``budget``: each AI move's ``movetime_ms``/``max_nodes`` (default: the AIs' own
    settings); ``ai_options``: game-specific AI settings (``Game.ai_options``). ``workers`` processes (``backend``
    ``"local"``) or Ray actors (``"ray"``, ``address``) play them; one JSON line per game goes to ``records``;
    ``on_game(done, total)`` after each game (the library never prints). ``game_modules``: modules that register
    games outside the package (imported in every worker too). ``stop`` (e.g. a ``threading.Event``): once set, the
    run ends after the current game (in this process, ``workers`` 1: at once, that game given up) and the summary
    counts the games played. ``paired``: every deal is played once per seat rotation (with two AIs: each deal both
    ways, so the luck of the draw cancels in the pair; ``games`` a multiple of the seat count). Errors:
    :class:`RulesError` for a bad count or AI name,
    the game's own errors for bad rules or an unknown lexicon (before any game starts)."""
    from kubasolve.games.protocol import import_game_modules, load_game

    for name, value, low, high in (("games", games, 1, MAX_GAMES), ("workers", workers, 1, MAX_WORKERS)):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise RulesError(f"{name} must be a whole number from {low} to {high:,}, got {str(value)[:40]}", key=name)
    check_seed(seed, "seed", RulesError)
    if budget is not None and not isinstance(budget, Budget):
        raise RulesError(f"budget must be a kubasolve.Budget (movetime_ms, max_nodes) or None, got {type(budget).__name__}",
                         key="budget")
    if records is not None and not callable(getattr(records, "write", None)):
        raise RulesError(f"records must be a text stream to write JSON lines to (e.g. open(path, 'w')) or None, got "
                         f"{type(records).__name__}", key="records")
    if on_game is not None and not callable(on_game):
        raise RulesError(f"on_game must be a function on_game(done, total) or None, got {type(on_game).__name__}", key="on_game")
    if game_modules:
        import_game_modules(list(game_modules))
    kind = load_game(game, rules, lexicon)  # unknown game, bad rules, an unknown lexicon: here, once
    if lexicon is not None and not isinstance(lexicon, str) and kind.lexicon_name is not None:
        if workers != 1 or backend != "local":
            raise RulesError("a lexicon object plays in this process only (workers 1, backend local): give its name or path",
                             key="lexicon")
        _LEXICONS[kind.lexicon_name] = lexicon
    players = [str(p).strip() for p in (players.split(",") if isinstance(players, str) else players)]
    check_ai_names(kind, players)
    kind.seat_names(labels(players))  # the seat count
    if paired and games % len(players):
        raise RulesError(f"paired games play every deal once per seat rotation: games must be a multiple of {len(players)}, "
                         f"got {games}", key="games")
    options = dict(ai_options or {})
    for name in dict.fromkeys(players):
        try:
            kind.check_ai_options(name, options)
        except KubasolveError as exc:
            raise RulesError(str(exc).replace("options.", "ai_options.", 1), key="ai_options") from None
    budget = budget or Budget()
    setting = SimulationSetting(kind.name, kind.rules_to_dict(), kind.lexicon_name, tuple(players), budget.movetime_ms,
                                budget.max_nodes, options, tuple(game_modules), paired)
    res = SimulationResult.empty(players, games, seed, workers, kind.name)
    res.paired = paired
    tasks = [(setting, seed, k) for k in range(games)]
    start = time.perf_counter()
    global _STOP
    _STOP = stop if workers == 1 and backend == "local" else None
    played = 0
    try:
        def used(n: int) -> None:
            res.workers_used = n

        for played, rec in enumerate(run_ordered(play_one, tasks, workers=workers, backend=backend, address=address,
                                                 init=_Warm(setting), on_workers=used), 1):
            res.add_game(rec)
            if records is not None:
                out = {k: v for k, v in rec.items() if k not in ("turn_seconds", "turn_counts")}
                records.write(json.dumps(out, ensure_ascii=False) + "\n")
            if on_game is not None:
                on_game(played, games)
            if stop is not None and stop.is_set():
                break
    finally:
        _STOP = None
    res.games = played
    res.wall_s = time.perf_counter() - start
    return res


def check_ai_names(game: Any, players: Sequence[str], also: Sequence[str] = ()) -> None:
    """Refuse a seat whose AI the game does not have (``also``: other names allowed, e.g. ``human``), naming the AIs:
    :class:`RulesError` with key ``players``."""
    for p in players:
        if p.partition(":")[0] not in game.ai_names and p not in also:
            choices = ", ".join([*also, *game.ai_names])
            raise RulesError(f"unknown {game.name} AI {p!r}; choose from {choices}", key="players")
        if p not in also:
            try:
                game.check_ai(p)
            except KubasolveError as exc:
                raise RulesError(str(exc).removeprefix("ai: "), key="players") from None


@dataclass(frozen=True)
class _Warm:
    """A worker's ``init``: build and warm up the run's game once per process."""

    setting: SimulationSetting

    def __call__(self) -> None:
        game_for(self.setting)


def simulate_kubagram(games: int, players: Sequence[str], seed: int = 0, workers: int = 1, records: IO[str] | None = None,
                      on_game: Callable[[int, int], None] | None = None, backend: str = "local", address: str | None = None,
                      rules: Mapping[str, Any] | None = None, game_rules: Mapping[str, Any] | None = None,
                      lexicon: str | None = None) -> SimulationResult:
    """Deprecated (use ``simulate("kubagram", players, games, ...)``): Kubagram self-play with the scoring ``rules`` and
    ``game_rules`` as two mappings."""
    flat = {**dict(rules or {}), **{k: v for k, v in dict(game_rules or {}).items() if k != "n_players"}}
    return simulate("kubagram", players, games, seed, workers, backend, address, rules=flat or None, lexicon=lexicon,
                    records=records, on_game=on_game)
