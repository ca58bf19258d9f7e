"""``kubasolve analyse FILE.jsonl --game KIND``: best moves of every position of a JSON-lines file.

Each line holds one position: a saved state of the game (any game, a sixth one registered by ``--game-module``
too), or the ``params`` of the game's engine analysis command (see docs/scale.md); each answer is one JSON line on
stdout (or ``-o FILE``), in input order; a bad line gets an error line. A line names a lexicon as an engine request
does: a bundled one or one the operator served with ``--lexicon NAME=PATH``/``--lexicon-dir DIR``, never a file. The summary goes to stderr; the exit code
is 1 when any line failed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from kubasolve.cli.common import EXIT_DOMAIN, backend_options, count, open_output, progress
from kubasolve.cli.engine import add_lexicon_flags, lexicon_flags
from kubasolve.scale.runner import BACKENDS


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "analyse",
        help="best moves of every position in a JSON-lines file (one answer line each)",
        description="Analyse a corpus of positions: one JSON position per line in, one JSON answer per line out. A line "
                    "names a lexicon as an engine request does: a bundled one, or one served here with --lexicon "
                    "NAME=PATH or --lexicon-dir DIR; never a file.",
    )
    p.add_argument("file", help="JSON-lines file of positions ('-' = stdin)")
    p.add_argument("--game", required=True, metavar="KIND", help="the game kind of the positions (kubagram, crossword, ...)")
    p.add_argument("--game-module", action="append", default=[], metavar="MODULE",
                   help="import a module that registers more games (a dotted name or a .py path; repeatable)")
    add_lexicon_flags(p)  # a line names a lexicon as an engine request does: by name, never a file
    p.add_argument("--workers", type=count(1, 256), default=1, help="local processes or Ray actors (default 1)")
    p.add_argument("--backend", choices=BACKENDS, default="local", help="where to run (default local)")
    p.add_argument("--address", help="Ray cluster address (auto, HOST:PORT, ray://HOST:PORT); with --backend ray")
    p.add_argument("-o", "--output", help="write the answers to this file instead of stdout ('-' = stdout)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr (there is one only on a terminal)")
    p.add_argument("--json", action="store_true", help="errors as JSON (the answers are JSON lines anyway)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from kubasolve.cli.games import kind_of
    from kubasolve.engine.batch import analyse_lines
    from kubasolve.errors import KubasolveError
    from kubasolve.scale.analyse import split_lines

    where = backend_options(args)  # --address without --backend ray is a usage error
    kind_of(args)  # an unknown game kind is a usage error naming the known ones
    named = lexicon_flags(args)  # a bad --lexicon/--lexicon-dir is a usage error, as in kubasolve engine
    if args.file == "-":
        data = sys.stdin.buffer.read()
    else:
        path = Path(args.file)
        if path.is_dir():
            raise KubasolveError(f"{args.file} is a folder, not a JSON-lines file")
        if not path.is_file():
            raise KubasolveError(f"no such file: {args.file}")
        data = path.read_bytes()
    lines = split_lines(data)
    ok = failed = 0
    start = time.perf_counter()
    total = sum(1 for line in lines if line.strip())  # blank lines get no answer
    with (open_output("-" if args.output is None else args.output, "the answers") as out,  # "-": stdout; a folder is refused
          progress(args, total, unit="position") as on_answer):
        assert out is not None
        for answer in analyse_lines(lines, args.game, lexicons=named, lexicon_dirs=args.served_lexicon_dirs,
                                    workers=args.workers, game_modules=args.game_module, **where):
            out.write(json.dumps(answer, ensure_ascii=False) + "\n")
            if answer.get("ok"):
                ok += 1
            else:
                failed += 1
            on_answer(ok + failed, total)
    wall = time.perf_counter() - start
    rate = (ok + failed) / wall if wall > 0 else 0.0
    sys.stderr.write(f"analysed {ok + failed} positions ({ok} ok, {failed} errors) in {wall:.1f} s, {rate:.1f}/s\n")
    if failed:
        sys.stderr.write(f"kubasolve: {failed} of {ok + failed} lines failed (their answers have \"ok\": false); exit code 1\n")
        return EXIT_DOMAIN
    return 0
