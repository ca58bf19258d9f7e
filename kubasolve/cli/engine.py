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
    p.add_argument("--lexicon", action="append", default=[], metavar="NAME=PATH", type=_named_list,
                   help="also serve the word-list file PATH as lexicon NAME (repeatable)")
    p.add_argument("--lexicon-dir", action="append", default=[], metavar="DIR",
                   help="also serve every DIR/NAME.txt (.txt.gz, .txt.xz) as lexicon NAME (repeatable)")
    p.set_defaults(func=run)


def _named_list(text: str) -> tuple[str, str]:
    name, sep, path = text.partition("=")
    if not sep or not name or not path:
        raise argparse.ArgumentTypeError(f"expected NAME=PATH, got {text!r}")
    return name, path


def run(args: argparse.Namespace) -> int:
    from kubasolve.cli.common import UsageError
    from kubasolve.engine.lexicons import configure
    from kubasolve.engine.server import serve
    from kubasolve.errors import KubasolveError, LexiconError
    from kubasolve.games.protocol import import_game_modules

    names = [name for name, _ in args.lexicon]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice:
        raise UsageError(f"--lexicon {twice[0]}=... given twice")
    try:
        configure(dict(args.lexicon), args.lexicon_dir)
    except LexiconError as exc:
        raise UsageError(str(exc)) from None
    modules = [m.strip() for m in os.environ.get(GAME_MODULES_VARIABLE, "").split(",") if m.strip()] + list(args.game_module)
    try:
        import_game_modules(modules)
    except KubasolveError as exc:
        print(f"kubasolve engine: {exc}", file=sys.stderr)
        return 2
    return serve()
