"""Self-play of Scruble AIs with Wilson confidence intervals (the shared machinery of
:mod:`kubasolve.scale.selfplay`: seeded games, seats rotated, ordered results on local processes or Ray).

``python -m kubasolve.games.scruble.simulate RECORDS.jsonl ...`` reports, for ``scruble simulate --records``
files, the word turns that re-scored a slid word and the premium pegs counted twice for one word (issue 22;
:func:`slid_word_report`), and the game length.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
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
    from kubasolve.ai.scruble import make_policy
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
    from kubasolve.ai.scruble import POLICIES

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


def slid_word_report(records: Iterable[Mapping[str, Any]]) -> dict[str, Any]:
    """Replay the twists of simulation records (any version's: only the cube's geometry is used) and count the
    word turns whose pegs stood in a row on a belt at the start of the turn (a slid or unmoved word, which
    places no new letter), their points, and premium pegs that counted again for a word they counted for."""
    import numpy as np

    from kubasolve.games.scruble.cube import N_CELLS, parse_twists
    from kubasolve.games.scruble.position import apply_twists, placed_new_letter

    out: dict[str, Any] = {"games": 0, "turns": 0, "word_turns": 0, "points": 0, "slid_turns": 0, "slid_points": 0,
                           "premiums_again": 0, "min_turns": None, "max_turns": None}
    for rec in records:
        pegs = np.arange(N_CELLS)  # peg id (start cell) per cell
        used: set[tuple[int, str]] = set()
        for turn in rec["history"]:
            after = pegs[apply_twists(np.arange(N_CELLS), parse_twists(turn["twists"]))]
            if "word" in turn:
                cell_of = np.empty(N_CELLS, np.int64)
                cell_of[pegs] = np.arange(N_CELLS)  # where each peg stood at the start of the turn
                out["word_turns"] += 1
                out["points"] += turn["score"]
                if not placed_new_letter(cell_of[after], turn["cells"]):
                    out["slid_turns"] += 1
                    out["slid_points"] += turn["score"]
                for cell in turn["breakdown"]["premium_cells"]:
                    key = (int(after[cell]), turn["word"])
                    out["premiums_again"] += key in used
                    used.add(key)
            pegs = after
        n = len(rec["history"])
        out["games"] += 1
        out["turns"] += n
        out["min_turns"] = n if out["min_turns"] is None else min(out["min_turns"], n)
        out["max_turns"] = n if out["max_turns"] is None else max(out["max_turns"], n)
    return out


def main(argv: Sequence[str] | None = None) -> None:
    """Print :func:`slid_word_report` of each records file named on the command line."""
    import json
    import sys

    for path in (sys.argv[1:] if argv is None else argv):
        with open(path, encoding="utf-8") as f:
            r = slid_word_report(json.loads(line) for line in f if line.strip())
        share = 100 * r["slid_turns"] / max(1, r["word_turns"])
        print(f"{path}: {r['games']} games, {r['turns'] / max(1, r['games']):.1f} turns a game ({r['min_turns']}-"
              f"{r['max_turns']}); {r['slid_turns']} of {r['word_turns']} word turns ({share:.1f}%) re-scored a slid word, "
              f"{r['slid_points']:,} of {r['points']:,} points; premium pegs counted again for a word: {r['premiums_again']}")


if __name__ == "__main__":
    main()


__all__ = ["game_seed", "simulate", "slid_word_report"]
