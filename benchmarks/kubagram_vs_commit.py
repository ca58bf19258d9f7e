"""Kubagram word search now against an older commit, on the bench positions, alternating processes.

    git worktree add /tmp/old 03f7893        # the commit to compare with (03f7893: issue 14's start)
    python benchmarks/kubagram_vs_commit.py /tmp/old --rounds 3

Each round runs one process per tree (old first), each timing ``word_table`` on the 20 bench
positions of ``kubasolve bench kubagram`` (all words: 24 tiles + 3 jokers; best word: 16 tiles + 1
joker, top 1), 15 passes, thread CPU time, and prints its median per position and the ratio. Processes
alternate so that a noisy shared machine slows both alike; the old tree gets a cache folder of its
own (its compiled lexicon format may differ). Not imported by the package or the tests.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

MEASURE = """
import json, statistics, time
from kubasolve.bench.kubagram_scenarios import random_positions, _solver
solver = _solver()
out = {}
for name, n, j, top in (("all words", 24, 3, None), ("best word", 16, 1, 1)):
    pos = random_positions(n, j)
    for p in pos:
        solver.word_table(p, top=top)
    per = []
    for _ in range(15):
        for p in pos:
            t = time.thread_time()
            solver.word_table(p, top=top)
            per.append(time.thread_time() - t)
    out[name] = statistics.median(per) * 1e3
print(json.dumps(out))
"""


def measure(tree: str, cache: str) -> dict[str, float]:
    """Median ms per position of each search, in a new process importing kubasolve from ``tree``."""
    env = dict(os.environ, PYTHONPATH=tree, KUBASOLVE_CACHE_DIR=cache)
    proc = subprocess.run([sys.executable, "-c", MEASURE], env=env, capture_output=True, text=True, check=True, cwd=tree)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", help="a worktree of the older commit")
    parser.add_argument("--new", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        help="the tree to compare (default: this checkout)")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    old_cache = os.path.join(tempfile.gettempdir(), "kubasolve-cache-old")
    new_cache = os.environ.get("KUBASOLVE_CACHE_DIR") or os.path.join(tempfile.gettempdir(), "kubasolve-cache-new")
    for r in range(args.rounds):
        old, new = measure(args.old, old_cache), measure(args.new, new_cache)
        print(f"round {r + 1}: " + "; ".join(
            f"{k} {old[k]:.3f} -> {new[k]:.3f} ms ({old[k] / new[k]:.2f}x)" for k in old))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
