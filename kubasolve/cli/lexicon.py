"""``kubasolve lexicon``: placeholder until the subcommand lands."""

from __future__ import annotations

import argparse


def add_parser(sub: argparse._SubParsersAction) -> None:
    sub.add_parser("lexicon", help="(not yet available)")
