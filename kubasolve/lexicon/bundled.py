"""Word lists that ship with kubasolve (``wordlists/`` in the repository, ``kubasolve/_wordlists`` in a wheel)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from kubasolve.errors import LexiconError
from kubasolve.lexicon.alphabet import LATIN


@dataclass(frozen=True)
class BundledList:
    """A shipped word list: file under the word-list folder, its alphabet and its licence."""

    name: str
    file: str
    alphabet: str
    description: str
    licence: str


BUNDLED: dict[str, BundledList] = {
    "nl": BundledList(
        name="nl",
        file="nl/opentaal-2.20.19-game.txt.xz",
        alphabet=LATIN,
        description="Dutch: OpenTaal word list 2.20.19 (Debian wdutch), game filter (lower case, accents folded, a-z only)",
        licence="BSD / CC-BY 3.0, (c) OpenTaal; see wordlists/nl/COPYRIGHT",
    ),
}


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
