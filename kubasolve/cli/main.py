"""Entry point of the ``kubasolve`` command: builds the argparse tree and maps user errors to exit code 2.

Each subcommand lives in its own module exposing ``add_parser(subparsers)``; the handler it sets
(``func``) returns an exit code. A :class:`~kubasolve.errors.KubasolveError` raised by a handler is
printed as one clear line (or a JSON error object with ``--json``), never as a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from kubasolve import __version__
from kubasolve.errors import KubasolveError


def build_parser() -> argparse.ArgumentParser:
    """Return the full ``kubasolve`` argument parser."""
    from kubasolve.cli import bench, engine, kubagram, lexicon, rummikub

    parser = argparse.ArgumentParser(
        prog="kubasolve",
        description="Move generator and solver for letter-cube and tile word games.",
    )
    parser.add_argument("--version", action="version", version=f"kubasolve {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for module in (lexicon, kubagram, rummikub, bench, engine):
        module.add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the process exit code (0 ok, 1 failure, 2 user error)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except KubasolveError as exc:
        if getattr(args, "json", False):
            sys.stdout.write(json.dumps({"ok": False, "error": str(exc), "kind": type(exc).__name__}) + "\n")
        else:
            sys.stderr.write(f"kubasolve: error: {exc}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("kubasolve: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
