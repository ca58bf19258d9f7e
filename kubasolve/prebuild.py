"""Build at install time what a first command would otherwise build: kernels and bundled lexicons (issue 23).

A new user's first command used to spend 7-21 s (minutes on a busy machine) compiling numba kernels
and the bundled lexicons. ``pip install .`` now does that work once, in the wheel's build hook
(``hatch_build.py``), on the machine the wheel is built for, and ships the result inside the wheel
(``kubasolve/_prebuilt``); :mod:`kubasolve.kernels.prebuilt` seeds the user's cache from it on the
first run, so the first command starts warm.

    python -m kubasolve.prebuild OUT          # run WORKLOAD twice in fresh processes, collect into OUT
    python -m kubasolve.prebuild --run        # run WORKLOAD once here (into the current cache)

The work is the games' real commands (:data:`WORKLOAD`: every game's first commands, a short
self-play, budgeted searches and an engine session), so the kernels are compiled for exactly the
argument types later runs use. It runs twice, each time in a new process: the first builds the
lexicons (and compiles), the second starts from the caches as every later run does and compiles
whatever that path needs in addition.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_STATE = "OLNAHESOHWSIBEKEOPUGRIOFRLG#UTECUYDINEREALOOAJAIMEEY3EDTFRASAZITSTEN??TVLDIRM2BOXAE+NNTNRADCPQII"
_EMPTY_BOARD = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 AEINRST/ 0/0 0"
_MID_BOARD = ("15/15/15/15/15/15/15/4KROEG6/15/15/15/15/15/15/15 EKNOW??/ 0/0 0")

WORKLOAD: dict[str, list[list[str]]] = {
    "kubagram": [
        ["kubagram", "best", "kroegentoch", "--joker", "EYGR", "--table", "kroegen:1", "tocht:2", "--claim"],
        ["kubagram", "best", "kroegentoch", "--top", "3"],
        ["kubagram", "simulate", "--games", "1", "--no-progress"],
        ["kubagram", "simulate", "--games", "1", "--players", "search:200,random", "--no-progress"],
    ],
    "rummikub": [
        ["rummikub", "solve", "r1 r2 r3 | b10 o10 k10", "--rack", "r4 J b11"],
        ["rummikub", "solve", "r1 r2 r3", "--rack", "r4 r5 b5 k5 o5", "--objective", "value"],
        ["rummikub", "simulate", "--games", "1", "--no-progress"],
    ],
    "crossword": [
        ["crossword", "moves", "--board", _EMPTY_BOARD, "--top", "5"],
        ["crossword", "moves", "--board", _MID_BOARD, "--top", "5"],
        ["crossword", "simulate", "--games", "1", "--no-progress"],
    ],
    "scruble": [
        ["scruble", "best", _STATE, "--depth", "2", "--top", "5"],
        ["scruble", "simulate", "--games", "1", "--no-progress"],
    ],
    "colonii": [
        ["colonii", "best", "oriferânjet", "--table", "cal:1", "ziar:1", "tac:0"],
        ["colonii", "best", "oriferânjet", "--table", "cal:1", "--movetime-ms", "2000"],
        ["colonii", "simulate", "--games", "1", "--no-progress"],
    ],
}
"""The commands run at install, by game (``kubasolve`` arguments): the first commands of README and
docs, a budgeted search, and one self-play game with the default AIs."""

ENGINE_SESSION: list[dict[str, object]] = [
    {"cmd": "scruble.scramble", "params": {"seed": 5}},
    {"cmd": "scruble.best", "params": {"state": _STATE, "depth": 2, "top": 5}},
    {"cmd": "scruble.best", "params": {"state": _STATE, "depth": 2, "top": 5, "movetime_ms": 2000}},
    {"cmd": "scruble.new-game", "params": {"seed": 1, "players": 2}},
    {"cmd": "scruble.ai-move", "params": {"game": "g1", "ai": "planner", "movetime_ms": 2000}},
    {"cmd": "kubagram.best-words", "params": {"position": {"field": "kroegentoch", "jokers": ["EYGR"]}, "top": 3}},
    {"cmd": "kubagram.best-move", "params": {"position": {"field": "kroegentoch", "jokers": ["EYGR"]}, "movetime_ms": 2000}},
    {"cmd": "kubagram.new-game", "params": {"seed": 1}},
    {"cmd": "kubagram.ai-move", "params": {"game": "g2", "ai": "planner"}},
    {"cmd": "rummikub.solve", "params": {"table": [["r1", "r2", "r3"]], "rack": ["r4", "J"], "movetime_ms": 2000}},
    {"cmd": "rummikub.new-game", "params": {"seed": 1}},
    {"cmd": "rummikub.ai-move", "params": {"game": "g3"}},
    {"cmd": "crossword.new-game", "params": {"seed": 1}},
    {"cmd": "crossword.legal-moves", "params": {"game": "g4"}},
    {"cmd": "crossword.ai-move", "params": {"game": "g4", "ai": "equity"}},
    {"cmd": "colonii.new-game", "params": {"seed": 1}},
    {"cmd": "colonii.legal-moves", "params": {"game": "g5"}},
    {"cmd": "colonii.ai-move", "params": {"game": "g5", "ai": "planner", "movetime_ms": 2000}},
]
"""Engine requests run at install (after the CLI commands): every game's searches through the engine,
budgeted as frontends send them; game ids are the session's g1, g2, ... in creation order."""

MANIFEST = "manifest.json"
FORMAT = 1


def run_workload(groups: list[str] | None = None, engine: bool = True) -> list[str]:
    """Run the commands of ``groups`` (default all) and the engine session here; returns what failed."""
    from kubasolve.cli.main import main

    failed = []
    for group, commands in WORKLOAD.items():
        if groups is not None and group not in groups:
            continue
        for argv in commands:
            start = time.perf_counter()
            try:
                with contextlib.redirect_stdout(io.StringIO()):
                    code = main(argv)
            except SystemExit as exc:  # a usage error (argparse exits)
                code = exc.code if isinstance(exc.code, int) else 2
            print(f"prebuild: kubasolve {' '.join(argv[:2])} ... ({time.perf_counter() - start:.1f} s)", file=sys.stderr)
            if code != 0:
                failed.append(f"kubasolve {' '.join(argv)}: exit {code}")
    if engine and groups is None:
        from kubasolve.engine.server import serve

        start = time.perf_counter()
        lines = "".join(json.dumps({"id": i, **r}) + "\n" for i, r in enumerate(ENGINE_SESSION, 1))
        out = io.StringIO()
        serve(io.StringIO(lines), out)
        for line in out.getvalue().splitlines():
            answer = json.loads(line)
            if not answer.get("ok"):
                failed.append(f"engine {ENGINE_SESSION[answer['id'] - 1]['cmd']}: {answer.get('error')}")
        print(f"prebuild: engine session ({time.perf_counter() - start:.1f} s)", file=sys.stderr)
    return failed


def _file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest()


def collect(cache: Path, out: Path) -> dict[str, object]:
    """Copy the kernel files and compiled lexicons of cache folder ``cache`` into ``out`` with a manifest.

    ``out/numba`` holds the files of the kernels' folder (numba names it after the source folder's
    absolute path, which differs once installed: :func:`kubasolve.kernels.prebuilt.seed` puts them
    where the installed kernels look); ``out/lexicons/<key>`` the compiled lexicons and their board
    graphs as the cache keeps them (keyed by content, so they are found wherever they go).
    """
    import numba

    import kubasolve

    kernels = sorted((cache / "numba").glob("kernels_*"))
    if len(kernels) > 1:
        raise RuntimeError(f"expected one kernel folder in {cache / 'numba'}, found {[k.name for k in kernels]}")
    (out / "numba").mkdir(parents=True, exist_ok=True)
    files: dict[str, str] = {}
    for src in sorted(kernels[0].iterdir()) if kernels else []:
        if src.suffix in (".nbi", ".nbc"):
            shutil.copyfile(src, out / "numba" / src.name)
            files[f"numba/{src.name}"] = _file_digest(src)
    for folder in sorted((cache / "lexicons").iterdir()) if (cache / "lexicons").is_dir() else []:
        if not (folder / "meta.json").is_file():
            continue
        for src in sorted(folder.rglob("*")):
            if src.is_file() and src.name != "verified.json":  # file states of this machine's copy
                rel = src.relative_to(cache)
                (out / rel).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(src, out / rel)
                files[rel.as_posix()] = _file_digest(src)
    build_id = hashlib.sha256(json.dumps(files, sort_keys=True).encode()).hexdigest()[:24]
    manifest = {"format": FORMAT, "kubasolve": kubasolve.__version__, "numba": numba.__version__,
                "python": f"{sys.version_info[0]}.{sys.version_info[1]}", "build_id": build_id,
                "files": sorted(files)}
    (out / MANIFEST).write_text(json.dumps(manifest, indent=1))
    return manifest


def build(out: Path, passes: int = 2) -> list[str]:
    """Run the workload ``passes`` times in new processes with an empty cache, then :func:`collect` it."""
    failed: list[str] = []
    with tempfile.TemporaryDirectory(prefix="kubasolve-prebuild-cache-") as tmp:
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
        env["KUBASOLVE_CACHE_DIR"] = tmp
        for k in range(passes):
            start = time.perf_counter()
            report = Path(tmp) / "failed.json"
            proc = subprocess.run([sys.executable, "-m", "kubasolve.prebuild", "--run", "--failures-to", str(report)], check=False, env=env)
            failures = json.loads(report.read_text()) if report.is_file() else []
            if proc.returncode != 0 and not failures:
                failures = [f"workload pass {k + 1} exited with {proc.returncode}"]
            failed.extend(f for f in failures if f not in failed)
            print(f"prebuild: pass {k + 1} of {passes} took {time.perf_counter() - start:.1f} s", file=sys.stderr)
        manifest = collect(Path(tmp), out)
    print(f"prebuild: {len(manifest['files'])} files in {out} (build {manifest['build_id']})", file=sys.stderr)  # type: ignore[arg-type]
    return failed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m kubasolve.prebuild", description=__doc__.split("\n\n")[0])
    parser.add_argument("out", nargs="?", type=Path, help="folder to write the prebuilt caches into")
    parser.add_argument("--run", action="store_true", help="only run the workload here, into the current cache")
    parser.add_argument("--only", nargs="+", choices=list(WORKLOAD), help="with --run: these games' commands only (no engine)")
    parser.add_argument("--failures-to", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.run:
        failed = run_workload(args.only)
        if args.failures_to:
            args.failures_to.write_text(json.dumps(failed))
    elif args.out is None:
        parser.error("give OUT or --run")
    else:
        failed = build(args.out)
    for line in failed:
        print(f"prebuild: failed: {line}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
