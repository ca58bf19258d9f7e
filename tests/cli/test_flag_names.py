"""Same flags for the same job across games and commands (docs/cli.md): the visible flags of every subcommand,
compared by job."""

from __future__ import annotations

import argparse
from collections.abc import Iterator

from kubasolve.cli.main import build_parser


def _flags(parser: argparse.ArgumentParser, path: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], argparse.Action]]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                yield from _flags(sub, (*path, name))
        elif action.option_strings and action.help != argparse.SUPPRESS:
            yield path, action


def test_the_file_a_command_writes_is_named_with_o_or_output() -> None:
    """``crossword learn-leaves --out FILE`` named its table where ``analyse`` and ``lexicon make-nl`` write theirs
    with ``-o``/``--output``; ``--out`` is now the hidden older spelling of ``-o``/``--output``."""
    flags = list(_flags(build_parser()))
    assert not [path for path, action in flags if "--out" in action.option_strings]
    writers = {" ".join(path) for path, action in flags if "--output" in action.option_strings}
    assert {"analyse", "lexicon make-nl", "crossword learn-leaves"} <= writers
    assert all("-o" in action.option_strings for _, action in flags if "--output" in action.option_strings)


def test_a_budget_is_spelled_the_same_everywhere() -> None:
    """One budget everywhere: a command that takes a time or node budget spells it ``--movetime-ms``/``--max-nodes``
    (older spellings only hidden)."""
    flags = list(_flags(build_parser()))
    budget_words = ("time", "nodes")
    odd = [(" ".join(path), s) for path, action in flags for s in action.option_strings
           if any(w in s for w in budget_words) and s not in ("--movetime-ms", "--max-nodes", "--min-time")]
    assert odd == []


def test_a_lexicon_by_name_or_file_is_l_everywhere() -> None:
    """``kubasolve lexicon prefix -l en`` worked but ``kubasolve crossword moves -l en`` did not: the game commands
    spelled the same flag (a bundled lexicon or a word-list file) without ``-l``. Every such flag now takes it (the
    engine's and analyse's ``--lexicon NAME=PATH``, another job, do not)."""
    flags = list(_flags(build_parser()))
    by_name_or_file = [(path, action) for path, action in flags if action.metavar == "NAME|PATH"]
    assert len(by_name_or_file) > 20
    assert [" ".join(path) for path, action in by_name_or_file if "-l" not in action.option_strings] == []
    assert all("-l" not in action.option_strings for _, action in flags if action.metavar == "NAME=PATH")
    args = build_parser().parse_args(["crossword", "moves", "-l", "en", "--board", "x"])
    assert args.lexicon == "en"


def test_top_0_means_all_wherever_top_is_taken() -> None:
    """``--top 0`` is "all" (up to the command's bound) in every command that lists the best moves."""
    flags = list(_flags(build_parser()))
    tops = [" ".join(path) for path, action in flags if "--top" in action.option_strings]
    assert set(tops) >= {"kubagram best", "colonii best", "crossword moves", "scruble best"}
    for path, action in flags:
        if "--top" in action.option_strings:
            assert callable(action.type) and action.type("0") == 0, path
            assert "0 = all" in (action.help or ""), path
