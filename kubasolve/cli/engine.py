"""``kubasolve engine``: run the JSON-lines engine on stdin/stdout."""

from __future__ import annotations

import argparse


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("engine", help="JSON-lines engine on stdin/stdout (see docs/engine.md)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from kubasolve.engine.server import serve

    return serve()
