"""Game filters that build the bundled English and Spanish word lists (documented in wordlists/en|es/README.md).

Rebuild: ``python -m kubasolve.games.scruble.wordlists en /usr/share/dict/american-english`` (or
``es /usr/share/dict/spanish``); writes ``wordlists/<lang>/<file>`` byte-for-byte reproducibly.
"""

from __future__ import annotations

import sys
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from kubasolve.lexicon.wordlist import opentaal_game_words, write_wordlist

SPANISH_LETTERS = "abcdefghijklmnñopqrstuvwxyz"


def english_game_words(lines: Iterable[str]) -> list[str]:
    """Lower-case entries only, accents folded, a-z only (drops possessives ``'s``, proper nouns)."""
    return opentaal_game_words(lines)


def spanish_game_words(lines: Iterable[str]) -> list[str]:
    """Lower-case entries only; accents and diaeresis folded (á -> a, ü -> u) but ñ kept; a-z and ñ only."""
    keep: set[str] = set()
    for line in lines:
        entry = unicodedata.normalize("NFC", line.strip())
        if not entry or entry != entry.lower():
            continue
        folded = "".join(
            "ñ" if ch == "ñ" else "".join(c for c in unicodedata.normalize("NFD", ch) if not unicodedata.combining(c))
            for ch in entry
        )
        if all(c in SPANISH_LETTERS for c in folded):
            keep.add(folded)
    order = {c: i for i, c in enumerate(SPANISH_LETTERS)}
    return sorted(keep, key=lambda w: [order[c] for c in w])


TARGETS = {
    "en": ("scowl-2020.12.07-wamerican-game.txt.xz", english_game_words),
    "es": ("wspanish-1.0.30-game.txt.xz", spanish_game_words),
}


def main(argv: list[str]) -> int:
    """``LANG SOURCE [OUT]``: filter SOURCE and write the bundled list (or OUT)."""
    if len(argv) not in (2, 3) or argv[0] not in TARGETS:
        sys.stderr.write("usage: python -m kubasolve.games.scruble.wordlists en|es SOURCE [OUT]\n")
        return 2
    name, make = TARGETS[argv[0]]
    words = make(Path(argv[1]).read_text(encoding="utf-8").splitlines())
    out = Path(argv[2]) if len(argv) == 3 else Path(__file__).resolve().parents[3] / "wordlists" / argv[0] / name
    write_wordlist(words, out)
    sys.stderr.write(f"{len(words)} words -> {out}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
