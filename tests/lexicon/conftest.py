"""Shared fixtures of the lexicon tests: a private cache folder and the bundled Dutch lexicon."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

ROMANIAN = "aăâbcdefghiîjklmnopqrsștțuvwxyz"
SPANISH = "abcdefghijklmnñopqrstuvwxyz"


@pytest.fixture(scope="session")
def session_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache folder for the whole session (the nl lexicon is compiled into it once)."""
    return tmp_path_factory.mktemp("kubasolve-cache")


@pytest.fixture(autouse=True)
def cache_dir(monkeypatch: pytest.MonkeyPatch, session_cache: Path) -> Path:
    """Every test uses the session cache folder, never the user's cache."""
    monkeypatch.setenv("KUBASOLVE_CACHE_DIR", str(session_cache))
    return session_cache


@pytest.fixture
def fresh_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """An empty cache folder private to one test."""
    folder = tmp_path / "cache"
    monkeypatch.setenv("KUBASOLVE_CACHE_DIR", str(folder))
    return folder


@pytest.fixture(scope="session")
def nl(session_cache: Path) -> Iterator[object]:
    """The bundled Dutch lexicon, compiled into the session cache."""
    mp = pytest.MonkeyPatch()
    mp.setenv("KUBASOLVE_CACHE_DIR", str(session_cache))
    try:
        from kubasolve.lexicon import Lexicon
        from kubasolve.lexicon.bundled import bundled_path

        entry, path = bundled_path("nl")
        yield Lexicon.from_wordlist(path, entry.alphabet, name="nl")
    finally:
        mp.undo()
