"""Kubagram solver benchmark scenarios (issue targets in ``target_ms``; baselines in the same run).

Fields are drawn from the default Dutch cube set with a fixed seed: each of n random normal cubes
shows a random face, and the jokers are the game's own.
"""

from __future__ import annotations

import random
import subprocess
import sys
from collections.abc import Callable

from kubasolve.bench.runner import Scenario, cycle

N_POSITIONS = 20


def random_positions(n_tiles: int, n_jokers: int, n_table: int = 0, seed: int = 1) -> list:
    """Seeded central fields of ``n_tiles`` cube letters plus ``n_jokers`` jokers (and table words)."""
    from kubasolve.games.kubagram.equipment import CubeSet
    from kubasolve.games.kubagram.position import KubagramPosition, TableWord
    from kubasolve.games.kubagram.rules import DEFAULT_JOKERS

    cubes = CubeSet.default_nl().normal
    rng = random.Random(seed)
    table_words = _table_words(rng, n_table * N_POSITIONS) if n_table else []
    out = []
    for i in range(N_POSITIONS):
        letters = "".join(rng.choice(c.top_letters) for c in rng.sample(cubes, n_tiles))
        table = [TableWord(w, owner=k % 4) for k, w in enumerate(table_words[i * n_table : (i + 1) * n_table])]
        out.append(KubagramPosition.from_letters(letters, jokers=DEFAULT_JOKERS[:n_jokers], table=table))
    return out


def _table_words(rng: random.Random, n: int) -> list[str]:
    """Words likely to compound: common Dutch parts and short words of the lexicon."""
    from kubasolve.lexicon import load_lexicon

    lex = load_lexicon("nl")
    parts = ["kroegen", "tocht", "en", "huis", "deur", "sleutel", "water", "fiets", "boek", "winkel", "school",
             "bord", "kast", "tafel", "stoel", "raam", "auto", "weg", "kaart", "spel", "kinder", "boot", "land"]
    pool = [w for w in parts if w in lex] + lex.words_with_prefix("ver", limit=200)[::10]
    return [rng.choice(pool) for _ in range(n)]


def _solver():
    from kubasolve.games.kubagram import KubagramRules, solver_for
    from kubasolve.lexicon import load_lexicon

    return solver_for(load_lexicon("nl"), KubagramRules())


def _best_word() -> Callable[[], object]:
    solver = _solver()
    return cycle(random_positions(16, 1), lambda p: solver.word_table(p, top=1))


def _best_word_python() -> Callable[[], object]:
    from kubasolve.bench.kubagram_baselines import PythonTrie, python_trie_best

    pt = PythonTrie(_solver())
    return cycle(random_positions(16, 1), lambda p: python_trie_best(pt, p))


def _scan(n_tiles: int, n_jokers: int) -> Callable[[], Callable[[], object]]:
    def setup() -> Callable[[], object]:
        from kubasolve.bench.kubagram_baselines import count_scan_words

        solver = _solver()
        return cycle(random_positions(n_tiles, n_jokers), lambda p: count_scan_words(solver, p))

    return setup


def _all_words() -> Callable[[], object]:
    solver = _solver()
    return cycle(random_positions(24, 3), solver.word_table)


def _compounds() -> Callable[[], object]:
    from kubasolve.games.kubagram.position import KubagramPosition

    solver = _solver()
    # table words only (no field): the compound search itself
    positions = [KubagramPosition(table=p.table) for p in random_positions(0, 0, n_table=20)]
    return cycle(positions, solver.compound_moves)


def _compounds_with_field() -> Callable[[], object]:
    solver = _solver()
    return cycle(random_positions(12, 1, n_table=20), solver.compound_moves)


def _compounds_with_field_round() -> Callable[[], object]:
    """All 20 positions in one timed round: the spread across rounds is the machine's noise, not the positions'
    workload (which varies 20-fold: 29 to 666 compounds, so the per-position IQR is mostly that)."""
    solver = _solver()
    positions = random_positions(12, 1, n_table=20)
    return lambda: [solver.compound_moves(p) for p in positions]


FIRST_QUERY = (
    "import time; t0 = time.perf_counter(); import kubasolve; "
    "from kubasolve.games.kubagram import KubagramPosition, best_words; "
    "lex = kubasolve.load_lexicon('nl'); best_words(KubagramPosition.from_letters('kroegentoch', jokers=['eygr']), lex, top=1); "
    "print(time.perf_counter() - t0)"
)


def first_query_seconds() -> float:
    """Seconds from a new interpreter's start of import to its first answer (warm numba cache)."""
    out = subprocess.run([sys.executable, "-c", FIRST_QUERY], check=True, capture_output=True, text=True)
    return float(out.stdout.strip().splitlines()[-1])


def _first_query() -> Callable[[], object]:
    return lambda: subprocess.run([sys.executable, "-c", FIRST_QUERY], check=True, capture_output=True)


def scenarios() -> list[Scenario]:
    return [
        Scenario("best word 16 tiles+1 joker: kubasolve", "kubagram-best", _best_word,
                 baseline=("best word: pure-Python trie DFS", "best word: numba count scan"), target_ms=0.15),
        Scenario("best word: pure-Python trie DFS", "kubagram-best", _best_word_python),
        Scenario("best word: numba count scan", "kubagram-best", _scan(16, 1)),
        Scenario("all words 24 tiles+3 jokers: kubasolve", "kubagram-all", _all_words,
                 baseline="all words: numba count scan", target_ms=2.0),
        Scenario("all words: numba count scan", "kubagram-all", _scan(24, 3)),
        Scenario("compounds, 20 table words", "kubagram-compounds", _compounds, target_ms=2.0),
        Scenario("compounds, 20 table words + 12-tile field", "kubagram-compounds", _compounds_with_field, target_ms=2.0),
        Scenario("compounds + field, the 20 positions per round", "kubagram-compounds", _compounds_with_field_round, target_ms=40.0),
        Scenario("first query in a new process (import included)", "kubagram-startup", _first_query, target_ms=1500.0),
    ]
