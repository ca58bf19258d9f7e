"""The Romanian game word list: hunspell-ro expanded by ``unmunch``, filtered for word play.

The filter (documented with its counts in ``wordlists/ro/README.md``) keeps lower-case entries made
only of the 31 Romanian game letters after normalising the cedilla letters ş ţ to comma-below ș ț,
then drops what a Romanian player would not accept at the table: abbreviations without a vowel,
Roman numerals, names of software and brands (``wordlists/ro/excluded.txt``), and two classes of
forms that the ``.aff`` rules over-generate (vocatives in ``-eo`` of nouns in ``-e``, doubled
``re-re-``/``ne-ne-`` prefixes).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from kubasolve.lexicon.alphabet import CEDILLA_TO_COMMA, normalize_text

ROMANIAN_ALPHABET = "aăâbcdefghiîjklmnopqrsștțuvwxyz"
"""The 31 letters of Romanian in dictionary order (q, w, y, k occur in loan words)."""

VOWELS = frozenset("aăâeiîouy")
"""Letters that make a syllable; a word of two or more letters without one is an abbreviation (nr, km, http)."""

ROMAN_NUMERAL = re.compile(r"m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})")
"""A well-formed Roman numeral (1 to 3999) in lower case."""

ROMAN_NUMERALS_THAT_ARE_WORDS = frozenset({"ci", "di", "dii", "ii", "li", "mi", "mii", "vi", "vii", "xi"})
"""Strings that read as Roman numerals but are Romanian words (ci "but", mi/vi pronouns, mii "thousands",
vii "alive", ii "blouses", xi the Greek letter, ...): kept."""

OVERGENERATED_PREFIXES = ("re", "ne")
"""Prefixes that the ``.aff`` adds automatically (``PFX O/K/B/E/H/G/I 0 re``, ``PFX D/S/q/Q/e 0 ne``) to stems
that already carry them, giving ``rerepetare``, ``nenecunoscut``."""

EXCLUDED_FILE = "excluded.txt"
"""Hand-made list of software, commands, file formats and brands in hunspell-ro (``wordlists/ro/``)."""


@dataclass
class RomanianFilterReport:
    """How many source lines each filter step removed (the counts in ``wordlists/ro/README.md``)."""

    lines: int = 0
    blank: int = 0
    cedilla_normalised: int = 0
    not_lower_case: int = 0
    foreign: int = 0
    duplicates: int = 0
    no_vowel: int = 0
    roman_numeral: int = 0
    excluded: int = 0
    vocative_eo: int = 0
    doubled_prefix: int = 0
    words: int = 0
    foreign_examples: list[str] = field(default_factory=list)
    dropped_examples: dict[str, list[str]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, object]:
        return dict(self.__dict__)


def normalise_romanian(entry: str) -> str:
    """NFC, surrounding white space removed, cedilla ş ţ replaced by comma-below ș ț."""
    return normalize_text(entry.strip())


def read_excluded(path: str | Path | None = None) -> frozenset[str]:
    """The words of ``excluded.txt`` (``#`` starts a comment), normalised."""
    if path is None:
        from kubasolve.lexicon.bundled import wordlist_dir

        path = wordlist_dir() / "ro" / EXCLUDED_FILE
    words: set[str] = set()
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        words.update(normalise_romanian(w) for w in line.partition("#")[0].split())
    return frozenset(words)


def is_abbreviation(word: str) -> bool:
    """Two or more letters and no vowel: ``nr``, ``km``, ``http``, ``ctrl`` (a one-letter word is a letter's name)."""
    return len(word) >= 2 and not VOWELS.intersection(word)


def is_roman_numeral(word: str) -> bool:
    """``xiv``, ``xviii``: a well-formed numeral of two or more letters that is not also a Romanian word."""
    return len(word) >= 2 and word not in ROMAN_NUMERALS_THAT_ARE_WORDS and ROMAN_NUMERAL.fullmatch(word) is not None


def is_vocative_eo(word: str, words: set[str] | frozenset[str]) -> bool:
    """The feminine vocative ``-o`` that the ``.aff`` adds to every noun in ``-e`` (``SFX F e eo ire``, ``SFX A``):
    ``rânjireo``, ``ineluctabilitateo``. Recognised as X+``eo`` where X+``e`` and its articulated X+``ea`` are
    words; ``stereo``, ``video``, ``rodeo`` have no such base and stay."""
    return word.endswith("eo") and word[:-1] in words and word[:-1] + "a" in words


def is_doubled_prefix(word: str, words: set[str] | frozenset[str]) -> bool:
    """``rerepetare``, ``nenecunoscut``: the automatic ``re-``/``ne-`` prefix put on a stem that already has it
    (both the once-prefixed form and the bare stem of three or more letters are words)."""
    return any(word.startswith(p + p) and len(word) >= 7 and word[2:] in words and word[4:] in words
               for p in OVERGENERATED_PREFIXES)


def _drop(report: RomanianFilterReport, step: str, word: str) -> None:
    setattr(report, step, getattr(report, step) + 1)
    examples = report.dropped_examples.setdefault(step, [])
    if len(examples) < 12:
        examples.append(word)


def romanian_game_words(lines: Iterable[str], excluded: Iterable[str] = ()) -> tuple[list[str], RomanianFilterReport]:
    """The colonii game filter over unmunched hunspell-ro; returns sorted unique words and counts.

    1. NFC and cedilla -> comma-below; skip blank lines;
    2. keep only entries entirely in lower case (drops acronyms ``ADN`` and proper nouns ``București``);
    3. keep only words made of the 31 Romanian letters (drops hyphenated clitic forms ``ADN-ul``,
       ``antedatarea-i``, apostrophes, digits and foreign accents ``ö é``);
    4. remove duplicates;
    5. drop abbreviations without a vowel (``nr``, ``km``, ``http``), Roman numerals (``xiv``), the
       ``excluded`` words (software and brands: ``google``, ``firefox``);
    6. drop over-generated forms: vocatives in ``-eo`` of nouns in ``-e`` (``rânjireo``) and doubled
       prefixes (``rerepetare``, ``nenecunoscut``), judged against the words left after step 5;
    7. sort in Romanian alphabet order.
    """
    letters = set(ROMANIAN_ALPHABET)
    excluded_words = frozenset(normalise_romanian(w) for w in excluded)
    report = RomanianFilterReport()
    keep: set[str] = set()
    for raw in lines:
        report.lines += 1
        stripped = raw.strip()
        if not stripped:
            report.blank += 1
            continue
        entry = normalise_romanian(stripped)
        if entry != unicodedata.normalize("NFC", stripped):
            report.cedilla_normalised += 1
        if entry != entry.lower():
            report.not_lower_case += 1
            continue
        if not all(c in letters for c in entry):
            report.foreign += 1
            if len(report.foreign_examples) < 8:
                report.foreign_examples.append(entry)
            continue
        if entry in keep:
            report.duplicates += 1
            continue
        keep.add(entry)
    for word in sorted(keep):
        if is_abbreviation(word):
            _drop(report, "no_vowel", word)
        elif is_roman_numeral(word):
            _drop(report, "roman_numeral", word)
        elif word in excluded_words:
            _drop(report, "excluded", word)
        else:
            continue
        keep.discard(word)
    generated = set()
    for word in sorted(keep):
        if is_vocative_eo(word, keep):
            _drop(report, "vocative_eo", word)
        elif is_doubled_prefix(word, keep):
            _drop(report, "doubled_prefix", word)
        else:
            continue
        generated.add(word)
    keep -= generated
    order = {c: i for i, c in enumerate(ROMANIAN_ALPHABET)}
    words = sorted(keep, key=lambda w: bytes(order[c] for c in w))
    report.words = len(words)
    return words, report


def main(argv: list[str] | None = None) -> int:
    """``python -m kubasolve.games.colonii.wordlist UNMUNCHED [OUT]``: rebuild the bundled list, print counts."""
    import json
    import sys

    from kubasolve.lexicon.bundled import wordlist_dir
    from kubasolve.lexicon.wordlist import read_text, write_wordlist

    args = sys.argv[1:] if argv is None else argv
    if not 1 <= len(args) <= 2:
        sys.stderr.write("usage: python -m kubasolve.games.colonii.wordlist UNMUNCHED.txt [OUT.txt.xz]\n")
        return 2
    text = read_text(args[0])
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    words, report = romanian_game_words(lines, read_excluded())
    out = args[1] if len(args) == 2 else wordlist_dir() / "ro" / BUNDLED_FILE
    write_wordlist(words, out)
    sys.stdout.write(json.dumps({"out": str(out), **report.as_dict()}, ensure_ascii=False, indent=2) + "\n")
    return 0


BUNDLED_FILE = "hunspell-ro-7.5.0-game.txt.xz"


__all__ = ["CEDILLA_TO_COMMA", "ROMANIAN_ALPHABET", "RomanianFilterReport", "is_abbreviation", "is_doubled_prefix",
           "is_roman_numeral", "is_vocative_eo", "normalise_romanian", "read_excluded", "romanian_game_words"]


if __name__ == "__main__":
    raise SystemExit(main())
