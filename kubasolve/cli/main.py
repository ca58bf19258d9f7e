"""Entry point of the ``kubasolve`` command: builds the argparse tree and maps errors to exit codes.

Each subcommand lives in its own module of ``kubasolve.cli`` exposing ``add_parser(subparsers)`` (found
automatically); the handler it sets (``func``) returns an exit code. A
:class:`~kubasolve.errors.KubasolveError` (or an ``OSError``) raised by a handler is printed as one
clear line on stderr (or, with ``--json``, a JSON error object on stdout), never as a traceback. Exit
codes (``kubasolve.cli.common``): 0 success, 1 domain error, 2 usage error. See ``docs/cli.md``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import pkgutil
import sys
from collections.abc import Sequence
from types import ModuleType

from kubasolve import __version__
from kubasolve.cli.common import error_payload, exit_code, undecodable_argument, watch_compilation
from kubasolve.errors import KubasolveError


def build_parser() -> argparse.ArgumentParser:
    """Return the full ``kubasolve`` argument parser."""
    parser = argparse.ArgumentParser(
        prog="kubasolve",
        description="Move generator and solver for letter-cube and tile word games.",
    )
    parser.add_argument("--version", action="version", version=f"kubasolve {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for module in command_modules():
        module.add_parser(sub)
    return parser


# Commands listed first, in this order (``games`` adds one command per game kind, then play, simulate and show); every
# other module of ``kubasolve.cli`` that defines ``add_parser`` follows in name order. A game's own module
# (``kubasolve/cli/crossword.py``) defines ``add_commands`` instead: ``games`` calls it.
_FIRST = ("lexicon", "games")
_LAST = ("bench", "engine")


def command_modules() -> list[ModuleType]:
    """The ``kubasolve.cli`` modules that add a subcommand (those defining ``add_parser``)."""
    import kubasolve.cli as package

    names = sorted(info.name for info in pkgutil.iter_modules(package.__path__) if not info.name.startswith("_"))
    ordered = [n for n in _FIRST if n in names] + [n for n in names if n not in _FIRST + _LAST] + [n for n in _LAST if n in names]
    modules = [importlib.import_module(f"kubasolve.cli.{name}") for name in ordered]
    return [m for m in modules if hasattr(m, "add_parser")]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the process exit code (0 ok, 1 domain error, 2 usage error)."""
    parser = build_parser()
    bad = undecodable_argument(sys.argv[1:] if argv is None else argv)
    if bad:
        parser.error(bad)  # exit 2
    args = parser.parse_args(argv)  # usage errors exit 2 here
    notice = watch_compilation()
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:
        _silence_stdout()
        return 0
    except (KubasolveError, OSError) as exc:
        if getattr(args, "json", False):
            sys.stdout.write(json.dumps(error_payload(exc), ensure_ascii=False) + "\n")
        else:
            sys.stderr.write(f"kubasolve: error: {exc}\n")
        return exit_code(exc)
    except KeyboardInterrupt:
        sys.stderr.write("kubasolve: interrupted\n")
        return 130
    finally:
        notice.finish()


def _silence_stdout() -> None:
    """After the reader of stdout went away (``kubasolve ... | head``): no second error at exit."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
