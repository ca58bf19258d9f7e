"""Self-play of colonii AIs: many seeded games, optionally in parallel, with Wilson confidence intervals.

The machinery is shared (:mod:`kubasolve.scale.selfplay`: seating, result rows, Wilson intervals,
labels, progress) and :func:`kubasolve.scale.run_ordered` (ordered results on local processes or Ray):
game ``k`` of a run with master seed ``S`` is dealt from a seed derived from ``(S, k)`` and seats the
AIs rotated by ``k`` places, so the records do not depend on the number of workers.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from typing import IO, Any

from kubasolve.errors import RulesError
from kubasolve.scale.selfplay import RECORD_TIMINGS, SimulationResult, play_seated, run_games, wilson_interval

__all__ = ["SimulationResult", "game_seed", "simulate", "wilson_interval"]


def game_seed(master: int, k: int) -> int:
    """Deal seed of game ``k`` of a run with master seed ``master``."""
    return random.Random(f"colonii-sim:{master}:{k}").randrange(2**62)


Setting = tuple[dict[str, Any] | None, str | None]
"""What a worker needs to build its referee: the rules (a dict) and the lexicon name or path."""


@functools.cache
def _lexicon(name: str) -> Any:
    """One lexicon object per name in a process (the referee cache is keyed by the lexicon object)."""
    from kubasolve.games.colonii.wordlist import ROMANIAN_ALPHABET
    from kubasolve.lexicon import load_lexicon
    from kubasolve.lexicon.bundled import BUNDLED

    return load_lexicon(name) if name in BUNDLED else load_lexicon(name, alphabet=ROMANIAN_ALPHABET)


def _referee(setting: Setting) -> Any:
    from kubasolve.games.colonii.game import default_referee
    from kubasolve.games.colonii.rules import ColoniiRules

    rules, lexicon = setting
    return default_referee(ColoniiRules.from_dict(rules) if rules else None, _lexicon(lexicon) if lexicon else None)


def _play_one(args: tuple[list[str], int, int, Setting]) -> dict[str, Any]:
    """Worker: play game ``k``; its record with the AI label of each seat."""
    from kubasolve.games.colonii.ai import make_policy
    from kubasolve.games.colonii.game import play_game

    players, master, k, setting = args
    seed = game_seed(master, k)
    return play_seated(players, k, seed, make_policy, lambda policies: play_game(policies, seed, _referee(setting)))


def simulate(games: int, players: Sequence[str], seed: int = 0, workers: int = 1, records: IO[str] | None = None,
             rules: dict[str, Any] | None = None, on_game: Callable[[int, int], None] | None = None,
             lexicon: str | None = None, backend: str = "local", address: str | None = None) -> SimulationResult:
    """Play ``games`` AI games (``players``: AI names, one per seat) and summarise; JSON lines to
    ``records`` (without timings, so they are identical whatever the worker count). ``on_game(done,
    total)`` is called after each game (the CLI draws its progress bar with it; the library never prints).
    ``rules``: settings as a dict (default the documented ones); ``lexicon``: a bundled name or a
    word-list path (default the bundled Romanian list)."""
    from kubasolve.games.colonii.ai import policy_names

    if not isinstance(games, int) or games < 1:
        raise RulesError(f"--games must be at least 1, got {games}")
    if not isinstance(workers, int) or workers < 1:
        raise RulesError(f"--workers must be at least 1, got {workers}")
    players = policy_names(players)
    if not 1 <= len(players) <= 8:
        raise RulesError("give 1 to 8 players, e.g. greedy,planner")
    res = SimulationResult.empty(players, games, seed, workers)
    setting: Setting = (dict(rules) if rules else None, lexicon)
    _referee(setting)  # bad rules or an unknown lexicon fail here, once, before any worker starts
    tasks = [(list(players), seed, k, setting) for k in range(games)]
    return run_games(res, _play_one, tasks, init=functools.partial(_init_worker, setting), backend=backend, address=address,
                     records=records, on_game=on_game, omit=(*RECORD_TIMINGS, "wall_s", "mean_turn_ms"),
                     ensure_ascii=False)


def _init_worker(setting: Setting) -> None:
    """Load the lexicon and compile the kernels once per worker process."""
    _referee(setting)
