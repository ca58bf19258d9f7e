"""Reading word lists (UTF-8, one word a line, optionally .xz/.gz compressed) with a clear report.

Nothing is dropped silently: every skipped line is counted in a :class:`WordListReport`, and input
that cannot be read at all (missing file, non-UTF-8 bytes, no usable word) raises
:class:`~kubasolve.errors.LexiconError`.
"""

from __future__ import annotations

import gzip
import lzma
import re
import unicodedata
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from kubasolve.errors import LexiconError
from kubasolve.lexicon.alphabet import LATIN, Alphabet, normalize_text
from kubasolve.lexicon.layout import MAX_WORD_LENGTH


@dataclass
class WordListReport:
    """What happened to each line of a word list."""

    source: str
    lines: int = 0
    accepted: int = 0
    blank: int = 0
    duplicates: int = 0
    foreign: int = 0
    """Lines with characters outside the alphabet (skipped)."""
    too_long: int = 0
    examples: list[str] = field(default_factory=list)
    """A few skipped lines, to show the user what was dropped."""

    @property
    def skipped(self) -> int:
        return self.foreign + self.too_long

    def summary(self) -> str:
        text = f"{self.accepted} words from {self.lines} lines of {self.source}"
        parts = []
        if self.foreign:
            parts.append(f"{self.foreign} with letters outside the alphabet")
        if self.too_long:
            parts.append(f"{self.too_long} longer than {MAX_WORD_LENGTH} letters")
        if self.duplicates:
            parts.append(f"{self.duplicates} duplicates")
        if self.blank:
            parts.append(f"{self.blank} blank")
        if parts:
            text += "; skipped " + ", ".join(parts)
        if self.examples:
            text += " (e.g. " + ", ".join(repr(e) for e in self.examples) + ")"
        return text

    def as_dict(self) -> dict[str, object]:
        return {
            "source": self.source,
            "lines": self.lines,
            "accepted": self.accepted,
            "blank": self.blank,
            "duplicates": self.duplicates,
            "skipped_foreign": self.foreign,
            "skipped_too_long": self.too_long,
            "examples": list(self.examples),
        }


def read_text(path: str | Path) -> str:
    """Whole text of a UTF-8 file (``.xz`` and ``.gz`` are decompressed); clear errors otherwise."""
    p = Path(path)
    if not p.exists():
        raise LexiconError(f"word list {str(p)!r} does not exist")
    if p.is_dir():
        raise LexiconError(f"word list {str(p)!r} is a directory, not a file")
    try:
        if p.suffix == ".xz":
            data = lzma.decompress(p.read_bytes())
        elif p.suffix == ".gz":
            data = gzip.decompress(p.read_bytes())
        else:
            data = p.read_bytes()
    except (OSError, EOFError, lzma.LZMAError, zlib.error) as exc:  # a truncated .gz is an EOFError, bad deflate data zlib.error
        raise LexiconError(f"cannot read word list {str(p)!r}: {exc}") from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise LexiconError(
            f"word list {str(p)!r} is not UTF-8: byte 0x{data[exc.start]:02x} on line {line} "
            "(convert it, e.g. `iconv -f latin1 -t utf-8`)"
        ) from None


_LINE_END = re.compile("\r\n|\r|\n")


def wordlist_lines(text: str) -> list[str]:
    """The lines of a word list, at the line ends of text files (``\n``, ``\r\n``, or ``\r`` alone), as Python's
    universal newlines read them. ``str.splitlines`` also splits at U+2028, U+0085, form feeds and other
    separators, so ``ho\u2028nd`` became the two words ``ho`` and ``nd``; now such a line is one line, skipped as
    foreign (and counted), and line numbers match the UTF-8 error's."""
    lines = _LINE_END.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def _normalized_lines(lines: list[str], lowercase: bool) -> list[str]:
    """Each line as ``Alphabet.normalize`` gives it (``lowercase``; else :func:`normalize_text` of the stripped line).

    Done on the whole text at once, which is the same thing line by line and 4-5 times faster on a large list (the
    1.1 million lines of the Romanian list): a line break is a stable character of Unicode normalisation (NFC never
    composes it with a neighbour, nor reorders marks across it), no white space changes under NFC or lower-casing,
    and Python's context-dependent lower-casing (the Greek final sigma) treats a line break as it treats the end
    of the text. Lines that hold a line break themselves (a word list given as a Python list) go one by one."""
    joined = "\n".join(lines)
    if joined.count("\n") != len(lines) - 1:
        return [normalize_text(raw.strip()).lower() if lowercase else normalize_text(raw.strip()) for raw in lines]
    text = normalize_text(joined)
    if lowercase:
        text = text.lower()
    return [line.strip() for line in text.split("\n")] if lines else []


def parse_words(lines: Iterable[str], alphabet: Alphabet, source: str, lowercase: bool = True) -> tuple[list[str], WordListReport]:
    """Validate lines against ``alphabet``; returns the sorted unique words and the report."""
    report = WordListReport(source=source)
    raws = list(lines)
    seen: set[str] = set()
    is_word = alphabet.word_pattern().fullmatch
    for raw, word in zip(raws, _normalized_lines(raws, lowercase), strict=True):
        if not word:
            report.blank += 1
        elif not is_word(word):
            report.foreign += 1
            if len(report.examples) < 5:
                report.examples.append(raw.strip())
        elif len(word) > MAX_WORD_LENGTH:
            report.too_long += 1
        elif word in seen:
            report.duplicates += 1
        else:
            seen.add(word)
    report.lines = len(raws)
    report.accepted = len(seen)
    if not seen:
        raise LexiconError(f"word list {source!r} holds no usable word ({report.summary()})")
    return alphabet.sort(seen), report


def fold_accents(word: str) -> str:
    """Remove diacritics: ``ideeën`` -> ``ideeen``, ``café`` -> ``cafe``."""
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


def opentaal_game_words(lines: Iterable[str]) -> list[str]:
    """The Kubagram/Scrabble game filter over the OpenTaal list (documented in wordlists/nl/README.md).

    Keep entries that are entirely lower case (drops proper nouns and capitalised abbreviations), fold accents
    to the base letter, keep only words made of a-z after folding (drops hyphenated, spaced,
    apostrophe and digit entries). Returns sorted unique words.
    """
    keep: set[str] = set()
    for line in lines:
        entry = unicodedata.normalize("NFC", line.strip())
        if not entry or entry != entry.lower():
            continue
        word = fold_accents(entry)
        if all("a" <= c <= "z" for c in word):
            keep.add(word)
    return sorted(keep)


def write_wordlist(words: Iterable[str], out: str | Path) -> Path:
    """Write words one a line, UTF-8; ``.xz`` / ``.gz`` suffixes compress (xz: deterministic bytes)."""
    p = Path(out)
    data = ("\n".join(words) + "\n").encode("utf-8")
    if p.suffix == ".xz":
        data = lzma.compress(data, preset=9 | lzma.PRESET_EXTREME)
    elif p.suffix == ".gz":
        data = gzip.compress(data, mtime=0)
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(data)
    return p


__all__ = [
    "LATIN",
    "WordListReport",
    "fold_accents",
    "opentaal_game_words",
    "parse_words",
    "read_text",
    "wordlist_lines",
    "write_wordlist",
]
