"""First-command times of every game on a fresh install: the README's numbers (issue 23).

    python benchmarks/startup.py --venv /path/to/venv [--venv /other/venv] [--rounds 3] [--only kubagram engine]
    python benchmarks/startup.py --install . --install /tmp/old-checkout --rounds 3

Each ``--venv`` is an environment where kubasolve is installed (``pip install .``); ``--install SRC``
first makes such a venv in a temporary folder (``python -m venv`` then ``pip install SRC``, timed).
For every command below, each round gives the command a new empty home folder (``HOME``; no
``KUBASOLVE_CACHE_DIR``, ``XDG_CACHE_HOME`` or ``NUMBA_CACHE_DIR``: the default cache
``~/.cache/kubasolve`` of a new user) and runs it twice: ``cold`` is the first run as
a new user types it, ``warm`` the second. ``compile`` is what the command's own notice on stderr says
the kernel compilation took. Environments alternate within a round so that a busy shared machine
slows them alike; the load average is printed with the table. Not imported by the package or tests.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

#: The first command a new user types for each game (README, docs/<game>.md), then the engine's first
#: three Scruble requests in one process.
SCRUBLE_STATE = "OLNAHESOHWSIBEKEOPUGRIOFRLG#UTECUYDINEREALOOAJAIMEEY3EDTFRASAZITSTEN??TVLDIRM2BOXAE+NNTNRADCPQII"
EMPTY_BOARD = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0"
COMMANDS: dict[str, list[str]] = {
    "kubagram": ["kubagram", "best", "kroegentoch", "--joker", "EYGR", "--table", "kroegen:1", "tocht:2", "--claim"],
    "rummikub": ["rummikub", "solve", "r1 r2 r3 | b10 o10 k10", "--rack", "r4 J b11"],
    "colonii": ["colonii", "best", "oriferânjet", "--table", "cal:1", "ziar:1", "tac:0"],
    "scruble": ["scruble", "best", SCRUBLE_STATE, "--depth", "2", "--top", "5"],
    "crossword": ["crossword", "moves", "--board", EMPTY_BOARD, "--top", "5"],
    "engine": ["engine"],
}
ENGINE_INPUT = "\n".join(json.dumps(r) for r in (
    {"id": 1, "cmd": "scruble.scramble", "params": {"seed": 5}},
    {"id": 2, "cmd": "scruble.best", "params": {"state": SCRUBLE_STATE, "depth": 2, "top": 5}},
    {"id": 3, "cmd": "scruble.new-game", "params": {"seed": 1, "players": 2}},
)) + "\n"
COMPILED = re.compile(r"kernels compiled and cached in ([0-9.]+) s")


def run(kubasolve: Path, game: str, home: Path) -> tuple[float, float, float, str]:
    """(wall s, CPU s, compile s from the notice, stderr's last line) of one command run by a user whose
    home folder is ``home`` (the default cache, no NUMBA_CACHE_DIR, PYTHONPATH or PYTHONDONTWRITEBYTECODE)."""
    env = {k: v for k, v in os.environ.items() if k not in (
        "NUMBA_CACHE_DIR", "KUBASOLVE_CACHE_DIR", "XDG_CACHE_HOME", "PYTHONPATH", "PYTHONDONTWRITEBYTECODE")}
    home.mkdir(parents=True, exist_ok=True)
    env["HOME"] = str(home)
    stdin = ENGINE_INPUT if game == "engine" else None
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([str(kubasolve), *COMMANDS[game]], input=stdin, capture_output=True, text=True, env=env,
                          cwd=home)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if proc.returncode != 0 or (game == "engine" and proc.stdout.count('"ok": true') + proc.stdout.count('"ok":true') < 3):
        raise SystemExit(f"{kubasolve} {game} failed ({proc.returncode}):\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    found = COMPILED.search(proc.stderr)
    return wall, cpu, float(found.group(1)) if found else 0.0, proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""


def install(src: str, root: Path) -> tuple[Path, float]:
    """A new venv under ``root`` with ``pip install src``; (its folder, install seconds)."""
    venv = root / f"venv-{len(list(root.iterdir()))}"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    start = time.perf_counter()
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", src], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return venv, time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--venv", action="append", default=[], help="a venv with kubasolve installed (repeat to compare)")
    parser.add_argument("--install", action="append", default=[], metavar="SRC",
                        help="make a fresh venv and `pip install SRC` first (timed; repeat to compare)")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--only", nargs="*", choices=list(COMMANDS), default=list(COMMANDS))
    parser.add_argument("--json", action="store_true", help="print the raw times as JSON too")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="kubasolve-startup-") as tmp:
        root = Path(tmp)
        (root / "venvs").mkdir()
        venvs = [Path(v) for v in args.venv]
        labels = list(args.venv)
        for src in args.install:
            venv, seconds = install(src, root / "venvs")
            print(f"pip install {src}: {seconds:.1f} s (load {os.getloadavg()[0]:.1f})", file=sys.stderr)
            venvs.append(venv)
            labels.append(src)
        if not venvs:
            parser.error("give --venv or --install")
        times: dict[str, dict[str, dict[str, list[float]]]] = {
            label: {game: {"cold": [], "cold_cpu": [], "compile": [], "warm": [], "warm_cpu": []} for game in args.only} for label in labels}
        loads = [os.getloadavg()[0]]
        for r in range(args.rounds):
            for game in args.only:
                for venv, label in zip(venvs, labels):
                    cache = root / f"home-{r}-{game}-{len(loads)}"
                    cold, cold_cpu, compiled, tail = run(venv / "bin" / "kubasolve", game, cache)
                    warm, warm_cpu, _, _ = run(venv / "bin" / "kubasolve", game, cache)
                    shutil.rmtree(cache, ignore_errors=True)
                    loads.append(os.getloadavg()[0])
                    t = times[label][game]
                    for key, value in (("cold", cold), ("cold_cpu", cold_cpu), ("compile", compiled), ("warm", warm), ("warm_cpu", warm_cpu)):
                        t[key].append(value)
                    print(f"round {r + 1} {label} {game}: cold {cold:.1f} s (CPU {cold_cpu:.1f} s, compile {compiled:.1f} s), "
                          f"warm {warm:.2f} s (CPU {warm_cpu:.2f} s)"
                          f"  load {loads[-1]:.1f}  [{tail[:90]}]", file=sys.stderr)
        print(f"load average (1 min) during the run: {min(loads):.1f}-{max(loads):.1f}; medians of {args.rounds} round(s)")
        print("wall s (CPU s): first run on an empty cache, its compile notice, second run")
        print(f"{'command':<12}" + "".join(f" | {label[-44:]:>44}" for label in labels))
        for game in args.only:
            cells = []
            for label in labels:
                t = {key: statistics.median(values) for key, values in times[label][game].items()}
                cells.append(f"{t['cold']:5.1f} ({t['cold_cpu']:4.1f}) compile {t['compile']:5.1f} | {t['warm']:4.1f} ({t['warm_cpu']:3.1f})")
            print(f"{game:<12}" + "".join(f" | {c:>44}" for c in cells))
        if args.json:
            print(json.dumps({"loads": loads, "times": times}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
