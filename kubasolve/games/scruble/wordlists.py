"""Game filters that build the bundled English and Spanish word lists (documented in wordlists/en|es/README.md).

Rebuild: ``python -m kubasolve.games.scruble.wordlists en /usr/share/dict/american-english`` (or
``es /usr/share/dict/spanish``); writes ``wordlists/<lang>/<file>`` byte-for-byte reproducibly.
"""

from __future__ import annotations

import re
import sys
import unicodedata
from collections.abc import Iterable
from pathlib import Path

from kubasolve.lexicon.wordlist import opentaal_game_words, write_wordlist

SPANISH_LETTERS = "abcdefghijklmnñopqrstuvwxyz"


VOWELLESS_WORDS = frozenset({"brr", "crwth", "crwths", "cwm", "cwms", "grr", "hm", "hmm", "mm", "nth", "pfft", "pht", "psst",
                             "pst", "sh", "shh", "tsk", "tsks", "tsktsk", "zzz"})
"""Real English words without a vowel (``a e i o u y``): the only such entries the English game list keeps."""
ROMAN_WORDS = frozenset({"mi", "mix", "mm", "xi"})
"""Real words spelled like a Roman numeral (a music note, a verb, an interjection, a Greek letter): kept."""
ENGLISH_ABBREVIATIONS = frozenset({
    "abbr", "abbrev", "acct", "adj", "adv", "amt", "approx", "assoc", "asst", "avg", "ca", "cu", "dept", "doz", "dpi",
    "esp", "etc", "govt", "hwy", "ibid", "misc", "natl", "obj", "oz", "ques", "recd", "rte", "subj", "treas", "ttys",
    "viz", "wkly", "xor", "yd", "yr", "yrs"})
"""Abbreviations of SCOWL's ``english-abbreviations`` lists that have a vowel (or ``y``), so the vowel rule misses
them, and that no English word list for play accepts; written out by hand (wordlists/en/README.md)."""
_ROMAN = re.compile(r"m{0,3}(cm|cd|d?c{0,3})(xc|xl|l?x{0,3})(ix|iv|v?i{0,3})")
_VOWELS = frozenset("aeiouy")


def is_english_abbreviation(word: str) -> bool:
    """Whether a lower-case a-z entry of 2+ letters is an abbreviation or a Roman numeral rather than a word:
    no vowel (``a e i o u y``) and not in :data:`VOWELLESS_WORDS` (``vs``, ``rm``, ``pd``, ``hr``, ``mg``, ``qt``),
    a Roman numeral not in :data:`ROMAN_WORDS` (``ii``, ``xiv``), or one of :data:`ENGLISH_ABBREVIATIONS` (``adj``)."""
    if len(word) < 2:
        return False
    if not _VOWELS.intersection(word):
        return word not in VOWELLESS_WORDS
    if _ROMAN.fullmatch(word):
        return word not in ROMAN_WORDS
    return word in ENGLISH_ABBREVIATIONS


def english_game_words(lines: Iterable[str]) -> list[str]:
    """Lower-case entries only, accents folded, a-z only (drops possessives ``'s``, proper nouns), then without the
    lower-case abbreviations and Roman numerals SCOWL lists (:func:`is_english_abbreviation`: ``vs``, ``adj``, ``xiv``)."""
    return [w for w in opentaal_game_words(lines) if not is_english_abbreviation(w)]


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
