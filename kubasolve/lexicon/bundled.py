"""Word lists that ship with kubasolve (``wordlists/`` in the repository, ``kubasolve/_wordlists`` in a wheel)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from kubasolve.errors import LexiconError


@dataclass(frozen=True)
class BundledList:
    """A shipped word list: file under the word-list folder, its alphabet and its licence."""

    name: str
    file: str
    alphabet: str
    description: str
    licence: str


def _discover() -> dict[str, BundledList]:
    """One entry per ``<folder>/bundled.toml`` under the word-list folder (a language adds a folder)."""
    try:
        root = wordlist_dir()
    except LexiconError:
        return {}
    entries: dict[str, BundledList] = {}
    for meta in sorted(root.glob("*/bundled.toml")):
        data = tomllib.loads(meta.read_text(encoding="utf-8"))
        entry = BundledList(
            name=data["name"],
            file=f"{meta.parent.name}/{data['file']}",
            alphabet=data["alphabet"],
            description=data["description"],
            licence=data["licence"],
        )
        entries[entry.name] = entry
    return entries


def wordlist_dir() -> Path:
    """Folder holding the bundled word lists."""
    here = Path(__file__).resolve().parent.parent
    for candidate in (here / "_wordlists", here.parent / "wordlists"):
        if candidate.is_dir():
            return candidate
    raise LexiconError("the bundled word lists are missing from this installation (reinstall kubasolve)")


def bundled_path(name: str) -> tuple[BundledList, Path]:
    """Entry and file path of bundled list ``name``; clear error for an unknown name."""
    entry = BUNDLED.get(name)
    if entry is None:
        raise LexiconError(f"no bundled lexicon {name!r}; bundled: {', '.join(sorted(BUNDLED))} (or give a file path)")
    return entry, wordlist_dir() / entry.file


BUNDLED: dict[str, BundledList] = _discover()
