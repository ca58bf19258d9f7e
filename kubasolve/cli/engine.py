"""``kubasolve engine``: run the JSON-lines engine on stdin/stdout."""

from __future__ import annotations

import argparse
import os
import sys

GAME_MODULES_VARIABLE = "KUBASOLVE_GAME_MODULES"
"""Comma-separated modules (or ``.py`` paths) that register more games, like ``--game-module``."""


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("engine", help="JSON-lines engine on stdin/stdout (see docs/engine.md)")
    p.add_argument("--game-module", action="append", default=[], metavar="MODULE",
                   help="import MODULE (a dotted name or a .py path) that registers more games with "
                        f"kubasolve.games.register_game; repeatable; also ${GAME_MODULES_VARIABLE} (comma-separated)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from kubasolve.engine.server import serve
    from kubasolve.errors import KubasolveError
    from kubasolve.games.protocol import import_game_modules

    modules = [m.strip() for m in os.environ.get(GAME_MODULES_VARIABLE, "").split(",") if m.strip()] + list(args.game_module)
    try:
        import_game_modules(modules)
    except KubasolveError as exc:
        print(f"kubasolve engine: {exc}", file=sys.stderr)
        return 2
    return serve()
