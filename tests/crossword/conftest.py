"""Shared fixtures of the crossword tests: the nl lexicon, the standard layout, the Dutch tiles and
the golden positions (``data/golden-public.jsonl.xz``, provenance in ``data/PROVENANCE.md``)."""

from __future__ import annotations

import json
import lzma
from pathlib import Path
from typing import Any

import pytest

GOLDEN = Path(__file__).parent / "data" / "golden-public.jsonl.xz"


@pytest.fixture(scope="session")
def nl_lexicon():
    from kubasolve import load_lexicon

    return load_lexicon("nl")


@pytest.fixture(scope="session")
def standard_layout():
    from kubasolve.games.crossword.layout import load_layout

    return load_layout("standard15")


@pytest.fixture(scope="session")
def nl_tiles():
    from kubasolve.games.crossword.layout import load_tiles

    return load_tiles("nl")


@pytest.fixture(scope="session")
def golden_records() -> list[dict[str, Any]]:
    with lzma.open(GOLDEN, "rt", encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]
