"""The alphabet of a lexicon: which letters exist and their integer codes (order = code order)."""

from __future__ import annotations

import codecs
import functools
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from kubasolve.errors import LexiconError
from kubasolve.lexicon.layout import MAX_ALPHABET

LATIN = "abcdefghijklmnopqrstuvwxyz"

CEDILLA_TO_COMMA = str.maketrans({"ş": "ș", "ţ": "ț", "Ş": "Ș", "Ţ": "Ț"})
"""Legacy cedilla letters (ş ţ, U+015F/U+0163) to the correct Romanian comma-below letters (ș ț, U+0219/U+021B)."""
_CEDILLAS = "şţŞŢ"


def normalize_text(text: str) -> str:
    """Letters typed or read by a user in the one canonical form every game compares: Unicode NFC (so a
    decomposed ``s`` + combining comma is ``ș``), and the Romanian cedilla ``ş ţ Ş Ţ`` as comma-below
    ``ș ț Ș Ț`` (old keyboards and files still write them). Case and spacing are kept."""
    if text.isascii():
        return text
    text = unicodedata.normalize("NFC", text)
    # translate only when there is something to translate: it costs a dict lookup per character (1 s of the
    # 12 MB Romanian list, whose words are read in one piece), the search for the four letters almost nothing
    return text.translate(CEDILLA_TO_COMMA) if any(c in text for c in _CEDILLAS) else text


def normalize_word(text: str) -> str:
    """:func:`normalize_text` in lower case: the form of a word, a rack or a hand that games look up."""
    return normalize_text(text).lower()


@dataclass(frozen=True)
class Alphabet:
    """An ordered set of single-character letters; letter ``letters[i]`` has code ``i``.

    Letters are stored as :func:`normalize_text` gives them (Unicode NFC, the cedilla ``ş ţ`` as the comma-below
    ``ș ț``), the form every word is read in, so Romanian ``ă`` or Spanish ``ñ`` are letters of their own, distinct
    from ``a`` and ``n``, and an alphabet typed with ``ş`` holds the ``ș`` of the words.
    """

    letters: str = LATIN
    _index: dict[str, int] = field(init=False, repr=False, compare=False, hash=False)
    _unicode_ordered: bool = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if not isinstance(self.letters, str):
            raise LexiconError(f"the alphabet must be a string of letters, got {type(self.letters).__name__}")
        letters = normalize_text(self.letters)  # NFC, and the Romanian cedilla letters as the comma-below ones words get
        object.__setattr__(self, "letters", letters)
        if not letters:
            raise LexiconError("the alphabet is empty")
        if len(set(letters)) != len(letters):
            dup = sorted({c for c in letters if letters.count(c) > 1})
            raise LexiconError(f"the alphabet repeats letter(s) {''.join(dup)!r}")
        if len(letters) > MAX_ALPHABET:
            raise LexiconError(f"an alphabet has at most {MAX_ALPHABET} letters, got {len(letters)}")
        bad = [c for c in letters if c.isspace() or not c.isprintable()]
        if bad:
            raise LexiconError(f"the alphabet contains non-letter character(s) {bad!r}")
        object.__setattr__(self, "_index", {c: i for i, c in enumerate(letters)})
        # code order equals code-point order (a-z, ...): Python's own string order is alphabet order
        object.__setattr__(self, "_unicode_ordered", list(letters) == sorted(letters))

    def __len__(self) -> int:
        return len(self.letters)

    def __contains__(self, letter: object) -> bool:
        return letter in self._index

    def code(self, letter: str) -> int:
        """Code of one letter; raises :class:`LexiconError` if it is not in the alphabet."""
        try:
            return self._index[letter]
        except KeyError:
            raise LexiconError(f"letter {letter!r} is not in the alphabet {self.letters!r}") from None

    def is_word(self, text: str) -> bool:
        """True when every character of ``text`` is a letter of this alphabet (and it is non-empty)."""
        return self.word_pattern().fullmatch(text) is not None

    def encode(self, word: str) -> np.ndarray:
        """Letter codes of ``word`` as a uint8 array; raises :class:`LexiconError` on a foreign letter."""
        return np.fromiter((self.code(c) for c in word), dtype=np.uint8, count=len(word))

    def decode(self, codes: np.ndarray | list[int]) -> str:
        """Inverse of :meth:`encode`."""
        return "".join(self.letters[int(c)] for c in codes)

    def sort_key(self, word: str) -> bytes:
        """Key that sorts words by letter-code sequence (a prefix sorts before its extensions)."""
        index = self._index
        return bytes(index[c] for c in word)

    def word_pattern(self) -> re.Pattern[str]:
        """A regular expression whose ``fullmatch`` is :meth:`is_word` (one C-speed call per word)."""
        return _word_pattern(self.letters)

    def sort(self, words: Iterable[str]) -> list[str]:
        """Words (of this alphabet's letters) sorted in alphabet order; plain (C-speed) string order when it is the
        same thing, else by each word with its letters translated to the characters of their codes (the order of
        :meth:`sort_key`, 4 times faster: one ``str.translate`` per word instead of a Python loop over its letters)."""
        if self._unicode_ordered:
            return sorted(words)
        words = list(words)
        joined = "\n".join(words)
        if words and joined.count("\n") == len(words) - 1:
            # in one piece: each letter becomes the byte 11 + its code (a line break stays 10, below every letter), so
            # byte order is code order and the sort compares bytes, 5 times faster than a key function per word
            decoding, encoding = _code_bytes(self.letters)
            try:
                keys = codecs.charmap_encode(joined, "strict", encoding)[0].split(b"\n")
            except UnicodeEncodeError:
                pass  # a letter outside the alphabet: sort_key says which
            else:
                keys.sort()
                return codecs.charmap_decode(b"\n".join(keys), "strict", decoding)[0].split("\n")
        return sorted(words, key=self.sort_key)

    def normalize(self, text: str) -> str:
        """Canonical form of user input: :func:`normalize_text` (NFC, cedilla to comma-below), lower case,
        surrounding white space removed."""
        return normalize_text(text.strip()).lower()


@functools.cache
def _word_pattern(letters: str) -> re.Pattern[str]:
    return re.compile("[" + "".join(re.escape(c) for c in letters) + "]+")


_FIRST_CODE_BYTE = 11
"""Letter code 0 as a byte in :meth:`Alphabet.sort` (above the line break, 10)."""


@functools.cache
def _code_bytes(letters: str) -> tuple[str, Any]:
    """The charmap codec tables of :meth:`Alphabet.sort`: byte ``11 + code`` is the letter of that code, 10 a line
    break, every other byte undefined (decoding table, encoding map)."""
    table = ["\ufffe"] * 256  # U+FFFE: no character (charmap's undefined entry)
    table[10] = "\n"
    for code, letter in enumerate(letters):
        table[_FIRST_CODE_BYTE + code] = letter
    decoding = "".join(table)
    return decoding, codecs.charmap_build(decoding)


def word_alphabet(alphabet: Alphabet | str, lowercase: bool = True) -> Alphabet:
    """The alphabet a lexicon of ``alphabet`` uses when its words are read in lower case (``lowercase``, the default
    everywhere): its letters in lower case too, so ``ABC...`` is the alphabet of ``abc...`` words rather than one no
    lower-case word can be spelt in."""
    alpha = alphabet if isinstance(alphabet, Alphabet) else Alphabet(alphabet)
    if lowercase and alpha.letters != alpha.letters.lower():
        return Alphabet(alpha.letters.lower())
    return alpha
