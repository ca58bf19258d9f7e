"""Lexicon benchmark scenarios (warm load, membership, prefix/suffix enumeration) and one-off measurements.

:func:`scenarios` feeds ``kubasolve bench lexicon`` and ``benchmarks/test_bench_lexicon.py``.
:func:`measure_cold_and_memory` runs fresh subprocesses with empty caches to measure what a timing
loop cannot: the cold build (with and without numba's own cache) and the resident memory.
"""

from __future__ import annotations

import bisect
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from typing import Any

from kubasolve.bench.runner import Scenario

TARGETS: dict[str, float] = {"warm_load_ms": 100.0, "cold_build_s": 30.0, "rss_mb": 150.0}
"""The issue's targets for the Dutch lexicon."""

N_QUERIES = 1000
N_AFFIXES = 100
PREFIX_LEN = 5
SUFFIX_LEN = 4
_TOP = "\U0010ffff"


def _nl() -> Any:
    from kubasolve.lexicon import load_lexicon

    return load_lexicon("nl")


def _sample_words(n: int, seed: int = 0) -> list[str]:
    """``n`` distinct words of "nl", chosen reproducibly."""
    import numpy as np

    lex = _nl()
    ids = np.random.default_rng(seed).choice(len(lex), size=n, replace=False)
    return [lex.word(int(i)) for i in ids]


def _queries() -> list[str]:
    """Half words, half near-misses (last letter changed), interleaved."""
    words = _sample_words(N_QUERIES // 2)
    misses = [w[:-1] + ("q" if w[-1] != "q" else "x") for w in words]
    return [w for pair in zip(words, misses) for w in pair]


def _setup_warm_load() -> Callable[[], object]:
    from kubasolve.lexicon import Lexicon
    from kubasolve.lexicon.bundled import bundled_path

    entry, path = bundled_path("nl")
    Lexicon.from_wordlist(path, entry.alphabet, name="nl")  # make sure the cache is warm

    def run() -> object:
        lex = Lexicon.from_wordlist(path, entry.alphabet, name="nl")
        assert lex.from_cache
        return lex

    return run


def _setup_member_set() -> Callable[[], object]:
    words = set(_nl().trie.keys())
    queries = _queries()
    return lambda: sum(q in words for q in queries)


def _setup_member_lexicon() -> Callable[[], object]:
    lex = _nl()
    queries = _queries()
    return lambda: sum(q in lex for q in queries)


def _affixes(suffix: bool) -> list[str]:
    """Prefixes (or suffixes) of random words that are longer than the affix."""
    n = SUFFIX_LEN if suffix else PREFIX_LEN
    words = [w for w in _sample_words(4 * N_AFFIXES, seed=1 if suffix else 2) if len(w) > n][:N_AFFIXES]
    return [w[-n:] if suffix else w[:n] for w in words]


def _setup_prefix_bisect() -> Callable[[], object]:
    sorted_words = sorted(_nl().trie.keys())  # code-point order == alphabet order for a-z
    prefixes = _affixes(suffix=False)

    def run() -> int:
        total = 0
        for p in prefixes:
            lo = bisect.bisect_left(sorted_words, p)
            hi = bisect.bisect_left(sorted_words, p + _TOP, lo)
            total += len(sorted_words[lo:hi])
        return total

    return run


def _setup_prefix_lexicon() -> Callable[[], object]:
    lex = _nl()
    prefixes = _affixes(suffix=False)
    return lambda: sum(len(lex.words_with_prefix(p)) for p in prefixes)


def _setup_prefix_compiled() -> Callable[[], object]:
    from kubasolve.kernels.trie_walk import terminal_ids_below, walk

    lex = _nl()
    c = lex.compiled
    restore = lex.trie.restore_key
    encoded = [lex.encode(p) for p in _affixes(suffix=False)]

    def run() -> int:
        total = 0
        for codes in encoded:
            node = walk(c.first_edge, c.edges, codes)
            if node >= 0:
                total += len([restore(int(i)) for i in terminal_ids_below(c.first_edge, c.edges, c.node_word, node)])
        return total

    return run


def _setup_suffix_bisect() -> Callable[[], object]:
    lex = _nl()
    reversed_words = sorted(w[::-1] for w in lex.trie)
    suffixes = _affixes(suffix=True)
    key = lex.alphabet.sort_key

    def run() -> int:
        total = 0
        for s in suffixes:
            r = s[::-1]
            lo = bisect.bisect_left(reversed_words, r)
            hi = bisect.bisect_left(reversed_words, r + _TOP, lo)
            total += len(sorted((w[::-1] for w in reversed_words[lo:hi]), key=key))
        return total

    return run


def _setup_suffix_lexicon() -> Callable[[], object]:
    lex = _nl()
    suffixes = _affixes(suffix=True)
    return lambda: sum(len(lex.words_with_suffix(s)) for s in suffixes)


def scenarios() -> list[Scenario]:
    """The lexicon suite."""
    return [
        Scenario(
            "warm load nl (from_wordlist, cache warm, no memo)",
            "lexicon-load",
            _setup_warm_load,
            target_ms=TARGETS["warm_load_ms"],
            description="hash the bundled list, find the cache, mmap 2 marisa-tries + 6 arrays",
        ),
        Scenario(f"python set: {N_QUERIES} lookups", "lexicon-membership", _setup_member_set, description="baseline"),
        Scenario(
            f"marisa (word in lexicon): {N_QUERIES} lookups",
            "lexicon-membership",
            _setup_member_lexicon,
            baseline=f"python set: {N_QUERIES} lookups",
            description="half words, half near-misses",
        ),
        Scenario(f"python sorted list + bisect: {N_AFFIXES} prefixes", "lexicon-prefix", _setup_prefix_bisect, description="baseline"),
        Scenario(
            f"marisa words_with_prefix: {N_AFFIXES} prefixes",
            "lexicon-prefix",
            _setup_prefix_lexicon,
            baseline=f"python sorted list + bisect: {N_AFFIXES} prefixes",
            description=f"{PREFIX_LEN}-letter prefixes of random words, result sorted in alphabet order",
        ),
        Scenario(
            f"compiled trie walk + listing: {N_AFFIXES} prefixes",
            "lexicon-prefix",
            _setup_prefix_compiled,
            baseline=f"python sorted list + bisect: {N_AFFIXES} prefixes",
            description="numba walk + terminal_ids_below, ids restored to strings",
        ),
        Scenario(f"python reversed sorted list + bisect: {N_AFFIXES} suffixes", "lexicon-suffix", _setup_suffix_bisect, description="baseline"),
        Scenario(
            f"marisa words_with_suffix: {N_AFFIXES} suffixes",
            "lexicon-suffix",
            _setup_suffix_lexicon,
            baseline=f"python reversed sorted list + bisect: {N_AFFIXES} suffixes",
            description=f"{SUFFIX_LEN}-letter suffixes of random words, reversed-word trie",
        ),
    ]


# --------------------------------------------------------------------------- one-off measurements
_COLD = r"""
import json, sys, time
t0 = time.perf_counter()
from kubasolve.lexicon import Lexicon
from kubasolve.lexicon.bundled import bundled_path
entry, path = bundled_path("nl")
lex = Lexicon.from_wordlist(path, entry.alphabet, name="nl")
seconds = time.perf_counter() - t0
assert not lex.from_cache and lex.cache_dir is not None, "expected a cold build into the cache"
print(json.dumps({"seconds": seconds, "words": len(lex)}))
"""

_WARM = r"""
import json, os, sys, time
import numpy as np, marisa_trie
from kubasolve.lexicon import Lexicon
from kubasolve.lexicon.bundled import bundled_path

def rss_mb():
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 1e6
    except OSError:
        import resource
        r = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return r / 1e6 if sys.platform == "darwin" else r / 1e3

entry, path = bundled_path("nl")
before = rss_mb()
t0 = time.perf_counter()
lex = Lexicon.from_wordlist(path, entry.alphabet, name="nl")
ms = (time.perf_counter() - t0) * 1e3
assert lex.from_cache, "expected a warm cache"
ok = "kroegentocht" in lex and lex.words_with_prefix("kroegent") and lex.words_with_suffix("tocht")
after = rss_mb()
checksum = sum(int(np.asarray(a).reshape(-1).view(np.uint8).sum(dtype=np.uint64)) for a in lex.compiled.arrays().values())  # reads every page, no copy
n = sum(1 for _ in lex.trie.iterkeys()) + sum(1 for _ in lex.rtrie.iterkeys())
touched = rss_mb()
print(json.dumps({"warm_load_ms": ms, "rss_before_mb": before, "rss_after_load_mb": after, "rss_after_touch_mb": touched,
                  "keys_walked": n, "numba_imported": "numba" in sys.modules, "ok": bool(ok)}))
"""


def _child(code: str, env: dict[str, str], timeout: float = 300.0) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=timeout, check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"measurement subprocess failed:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def measure_cold_and_memory() -> dict[str, Any]:
    """Cold build seconds (numba cache empty, then warm), warm load ms and RSS, each in a fresh process."""
    with tempfile.TemporaryDirectory(prefix="kubasolve-measure-") as tmp:
        base = {k: v for k, v in os.environ.items() if k not in ("KUBASOLVE_CACHE_DIR", "NUMBA_CACHE_DIR", "NUMBA_DISABLE_JIT")}
        numba_dir = os.path.join(tmp, "numba")
        env1 = {**base, "KUBASOLVE_CACHE_DIR": os.path.join(tmp, "c1"), "NUMBA_CACHE_DIR": numba_dir}
        env2 = {**base, "KUBASOLVE_CACHE_DIR": os.path.join(tmp, "c2"), "NUMBA_CACHE_DIR": numba_dir}
        cold1 = _child(_COLD, env1)  # empty lexicon cache and empty numba cache: includes JIT compilation
        cold2 = _child(_COLD, env2)  # empty lexicon cache, numba cache warm from the run above
        warm = _child(_WARM, env2)
    return {
        "words": cold1["words"],
        "cold_build_s_numba_cold": cold1["seconds"],
        "cold_build_s_numba_warm": cold2["seconds"],
        "warm_load_ms": warm["warm_load_ms"],
        "lexicon_rss_mb": warm["rss_after_load_mb"] - warm["rss_before_mb"],
        "lexicon_rss_mb_touched": warm["rss_after_touch_mb"] - warm["rss_before_mb"],
        "process_rss_mb_before": warm["rss_before_mb"],
        "process_rss_mb_touched": warm["rss_after_touch_mb"],
        "warm_load_imports_numba": warm["numba_imported"],
    }
