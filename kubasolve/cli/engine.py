"""``kubasolve engine``: run the JSON-lines engine on stdin/stdout."""

from __future__ import annotations

import argparse
import os
import sys

GAME_MODULES_VARIABLE = "KUBASOLVE_GAME_MODULES"
"""Comma-separated modules (or ``.py`` paths) that register more games, like ``--game-module``."""


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("engine", help="JSON-lines engine on stdin/stdout (see docs/engine.md)",
                       description="Run the JSON-lines engine on stdin/stdout (docs/engine.md). Requests name "
                                   "lexicons, never files: the engine serves the bundled lexicons and the word "
                                   "lists named here.")
    p.add_argument("--game-module", action="append", default=[], metavar="MODULE",
                   help="import MODULE (a dotted name or a .py path) that registers more games with "
                        f"kubasolve.games.register_game; repeatable; also ${GAME_MODULES_VARIABLE} (comma-separated)")
    add_lexicon_flags(p)
    p.set_defaults(func=run)


def add_lexicon_flags(p: argparse.ArgumentParser) -> None:
    """``--lexicon NAME=PATH`` and ``--lexicon-dir DIR``: the word lists the engine serves besides the bundled ones
    (``engine``, and ``analyse``, whose lines are answered as the engine answers them)."""
    p.add_argument("--lexicon", action="append", default=[], metavar="NAME=PATH", type=_named_list, dest="served_lexicons",
                   help="also serve the word-list file PATH as lexicon NAME (repeatable)")
    p.add_argument("--lexicon-dir", action="append", default=[], metavar="DIR", dest="served_lexicon_dirs",
                   help="also serve every DIR/NAME.txt (.txt.gz, .txt.xz) as lexicon NAME (repeatable)")


def lexicon_flags(args: argparse.Namespace) -> dict[str, str]:
    """The ``--lexicon NAME=PATH`` flags as a mapping, each checked (a name given twice, a bad name, a bundled name,
    a missing file or folder: a usage error); the lists are loaded on use."""
    from kubasolve.cli.common import UsageError
    from kubasolve.engine.lexicons import configure
    from kubasolve.errors import LexiconError

    names = [name for name, _ in args.served_lexicons]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise UsageError(f"--lexicon {twice[0]}=... given twice")
    try:
        configure(dict(args.served_lexicons), args.served_lexicon_dirs)
    except LexiconError as exc:
        raise UsageError(str(exc)) from None
    return dict(args.served_lexicons)


def _named_list(text: str) -> tuple[str, str]:
    name, sep, path = text.partition("=")
    if not sep or not name or not path:
        raise argparse.ArgumentTypeError(f"expected NAME=PATH, got {text!r}")
    return name, path


def run(args: argparse.Namespace) -> int:
    from kubasolve.engine.server import serve
    from kubasolve.errors import KubasolveError
    from kubasolve.games.protocol import import_game_modules

    lexicon_flags(args)
    modules = [m.strip() for m in os.environ.get(GAME_MODULES_VARIABLE, "").split(",") if m.strip()] + list(args.game_module)
    try:
        import_game_modules(modules)
    except KubasolveError as exc:
        print(f"kubasolve engine: {exc}", file=sys.stderr)
        return 2
    return serve()
