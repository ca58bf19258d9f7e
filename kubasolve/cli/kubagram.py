"""``kubasolve kubagram``: placeholder until the subcommand lands."""

from __future__ import annotations

import argparse


def add_parser(sub: argparse._SubParsersAction) -> None:
    sub.add_parser("kubagram", help="(not yet available)")
