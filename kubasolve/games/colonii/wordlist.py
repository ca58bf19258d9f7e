"""The Romanian game word list: hunspell-ro expanded by ``unmunch``, filtered for word play.

The filter (documented with its counts in ``wordlists/ro/README.md``) keeps lower-case entries made
only of the 31 Romanian game letters after normalising the cedilla letters ş ţ to comma-below ș ț.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

ROMANIAN_ALPHABET = "aăâbcdefghiîjklmnopqrsștțuvwxyz"
"""The 31 letters of Romanian in dictionary order (q, w, y, k occur in loan words)."""

CEDILLA_TO_COMMA = str.maketrans({"ş": "ș", "ţ": "ț", "Ş": "Ș", "Ţ": "Ț"})
"""Legacy cedilla letters (ş ţ, U+015F/U+0163) to the correct comma-below letters (ș ț, U+0219/U+021B)."""


@dataclass
class RomanianFilterReport:
    """How many source lines each filter step removed (the counts in ``wordlists/ro/README.md``)."""

    lines: int = 0
    blank: int = 0
    cedilla_normalised: int = 0
    not_lower_case: int = 0
    foreign: int = 0
    duplicates: int = 0
    words: int = 0
    foreign_examples: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        return dict(self.__dict__)


def normalise_romanian(entry: str) -> str:
    """NFC, surrounding white space removed, cedilla ş ţ replaced by comma-below ș ț."""
    return unicodedata.normalize("NFC", entry.strip()).translate(CEDILLA_TO_COMMA)


def romanian_game_words(lines: Iterable[str]) -> tuple[list[str], RomanianFilterReport]:
    """The colonii game filter over unmunched hunspell-ro; returns sorted unique words and counts.

    1. NFC and cedilla -> comma-below; skip blank lines;
    2. keep only entries entirely in lower case (drops acronyms ``ADN`` and proper nouns ``București``);
    3. keep only words made of the 31 Romanian letters (drops hyphenated clitic forms ``ADN-ul``,
       ``antedatarea-i``, apostrophes, digits and foreign accents ``ö é``);
    4. remove duplicates; sort in Romanian alphabet order.
    """
    letters = set(ROMANIAN_ALPHABET)
    report = RomanianFilterReport()
    keep: set[str] = set()
    for raw in lines:
        report.lines += 1
        stripped = unicodedata.normalize("NFC", raw.strip())
        if not stripped:
            report.blank += 1
            continue
        entry = stripped.translate(CEDILLA_TO_COMMA)
        if entry != stripped:
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
    words, report = romanian_game_words(lines)
    out = args[1] if len(args) == 2 else wordlist_dir() / "ro" / BUNDLED_FILE
    write_wordlist(words, out)
    sys.stdout.write(json.dumps({"out": str(out), **report.as_dict()}, ensure_ascii=False, indent=2) + "\n")
    return 0


BUNDLED_FILE = "hunspell-ro-7.5.0-game.txt.xz"


__all__ = ["CEDILLA_TO_COMMA", "ROMANIAN_ALPHABET", "RomanianFilterReport", "normalise_romanian", "romanian_game_words"]


if __name__ == "__main__":
    raise SystemExit(main())
