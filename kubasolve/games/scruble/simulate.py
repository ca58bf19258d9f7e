"""Self-play of Scruble AIs with Wilson confidence intervals (the shared machinery of
:mod:`kubasolve.scale.selfplay`: seeded games, seats rotated, ordered results on local processes or Ray)."""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import IO, Any

from kubasolve.errors import RulesError
from kubasolve.scale.selfplay import SimulationResult, labels, run_games

Setting = tuple[Mapping[str, Any] | None, str]


def game_seed(master: int, k: int) -> int:
    return random.Random(f"scruble-sim:{master}:{k}").randrange(2**62)


@cache
def _lexicon(name: str) -> Any:
    import kubasolve

    if name.endswith((".txt", ".xz", ".gz")):
        from kubasolve.lexicon import Lexicon

        return Lexicon.from_wordlist(name)
    return kubasolve.load_lexicon(name)


def _rules(setting: Setting) -> Any:
    from kubasolve.games.scruble.rules import ScrubleRules

    return ScrubleRules.from_dict(setting[0]) if setting[0] else ScrubleRules()


def _play_one(args: tuple[list[str], int, int, Setting]) -> dict[str, Any]:
    from kubasolve.games.scruble.ai import make_policy
    from kubasolve.games.scruble.game import play_game

    players, master, k, setting = args
    n = len(players)
    labs = labels(players)
    seats = [(i + k) % n for i in range(n)]
    seed = game_seed(master, k)
    policies = [make_policy(players[a], seed * 8 + s) for s, a in enumerate(seats)]
    times = [0.0] * n
    counts = [0] * n

    def timed(s: int) -> Callable[..., Any]:
        def run(game: Any, lex: Any) -> Any:
            t = time.perf_counter()
            out = policies[s](game, lex)
            times[s] += time.perf_counter() - t
            counts[s] += 1
            return out
        return run

    t0 = time.perf_counter()
    game = play_game([timed(s) for s in range(n)], seed, _lexicon(setting[1]), _rules(setting))
    return {"game": k, "seed": seed, "seats": [labs[a] for a in seats], "scores": list(game.scores),
            "winners": game.winners(), "turns": game.turn, "history": game.history,
            "wall_s": time.perf_counter() - t0, "turn_seconds": times, "turn_counts": counts}


def _init_worker(setting: Setting) -> None:
    _rules(setting)
    _lexicon(setting[1])


def simulate(games: int, players: Sequence[str], seed: int = 0, workers: int = 1,
             records: IO[str] | None = None, on_game: Callable[[int, int], None] | None = None,
             backend: str = "local", address: str | None = None, rules: Mapping[str, Any] | None = None,
             lexicon: str | None = None) -> SimulationResult:
    """Play ``games`` seeded AI games and summarise (wins with 95% Wilson intervals, mean scores)."""
    from kubasolve.games.scruble.ai import POLICIES

    if games < 1:
        raise RulesError(f"--games must be at least 1, got {games}")
    players = list(players)
    if not 1 <= len(players) <= 4:
        raise RulesError("Scruble takes 1 to 4 players, e.g. greedy,planner")
    for p in players:
        if p not in POLICIES:
            raise RulesError(f"unknown Scruble AI {p!r}; choose from {', '.join(POLICIES)}")
    setting: Setting = (dict(rules) if rules else None, lexicon or "en")
    _init_worker(setting)
    res = SimulationResult.empty(players, games, seed, workers)
    tasks = [(players, seed, k, setting) for k in range(games)]
    return run_games(res, _play_one, tasks, init=functools.partial(_init_worker, setting), backend=backend,
                     address=address, records=records, on_game=on_game)


__all__ = ["game_seed", "simulate"]
