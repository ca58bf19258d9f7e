"""The word-list build's whole-text steps give what the line-by-line ones gave (they are 4-5 times faster on a
large list, which a first run or ``pip install .`` builds): normalising every line at once, and sorting in one
piece through a byte codec instead of a key function per word. Each is checked against the line-by-line code it
replaced, kept here as the reference, on random lines full of what could tell them apart."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kubasolve.errors import LexiconError
from kubasolve.lexicon import Alphabet
from kubasolve.lexicon.alphabet import CEDILLA_TO_COMMA, normalize_text, word_alphabet
from kubasolve.lexicon.bundled import bundled_path
from kubasolve.lexicon.layout import MAX_WORD_LENGTH
from kubasolve.lexicon.wordlist import WordListReport, parse_words, read_text, wordlist_lines

from .conftest import ROMANIAN, SPANISH

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Letters and what could tell a whole-text step from a line-by-line one: combining marks (NFC composes and reorders
# them), the cedilla letters (translated), upper case and the Greek sigma (context-dependent lower-casing), white
# space of every kind (stripped; U+2000 has a singleton decomposition), separators str.splitlines would split at,
# case-ignorable characters (the final sigma looks through them), and line breaks inside a "line" (a Python list).
CHARS = ("abcz" "ăâîșțñ" "ĂÂÎȘȚÑ" "şţŞŢ" "\u0301\u0306\u0302\u0327\u0326\u0323" "ΣσςΑα" "'·.\u00ad\u200b"
         " \t\u00a0\u2000\u2001\u3000\x1c\x1f\x85\u2028\u2029\x0b\x0c" "\n")
LINES = st.lists(st.text(alphabet=st.sampled_from(CHARS), max_size=12), max_size=30)
ALPHABETS = st.sampled_from(["abcdefghijklmnopqrstuvwxyz", ROMANIAN, SPANISH, "ασςβ", "zyxcba", "ăa"])


def reference_parse_words(lines: list[str], alphabet: Alphabet, source: str, lowercase: bool = True) -> tuple[list[str], WordListReport]:
    """``parse_words`` as it was: each line normalised, checked and sorted by itself."""
    report = WordListReport(source=source)
    seen: set[str] = set()
    for raw in lines:
        report.lines += 1
        word = alphabet.normalize(raw) if lowercase else normalize_text(raw.strip())
        if not word:
            report.blank += 1
            continue
        if not (word and all(c in alphabet for c in word)):
            report.foreign += 1
            if len(report.examples) < 5:
                report.examples.append(raw.strip())
            continue
        if len(word) > MAX_WORD_LENGTH:
            report.too_long += 1
            continue
        if word in seen:
            report.duplicates += 1
            continue
        seen.add(word)
    report.accepted = len(seen)
    if not seen:
        raise LexiconError(f"word list {source!r} holds no usable word ({report.summary()})")
    return sorted(seen, key=alphabet.sort_key), report


def _both(lines: list[str], alphabet: Alphabet, lowercase: bool) -> tuple[object, object]:
    out: list[object] = []
    for parse in (parse_words, reference_parse_words):
        try:
            words, report = parse(lines, alphabet, "x", lowercase=lowercase)
            out.append((words, report.as_dict()))
        except LexiconError as exc:
            out.append(str(exc))
    return out[0], out[1]


@SETTINGS
@given(LINES, ALPHABETS, st.booleans())
def test_whole_text_parse_is_the_line_by_line_parse(lines: list[str], letters: str, lowercase: bool) -> None:
    fast, reference = _both(lines, word_alphabet(letters, lowercase=lowercase), lowercase)
    assert fast == reference


@SETTINGS
@given(st.lists(st.text(alphabet=st.sampled_from(ROMANIAN), max_size=8), max_size=40))
def test_sort_in_one_piece_is_the_key_sort(words: list[str]) -> None:
    alphabet = Alphabet(ROMANIAN)
    assert alphabet.sort(words) == sorted(words, key=alphabet.sort_key)


def test_sort_of_a_foreign_letter_still_says_which() -> None:
    with pytest.raises(KeyError):
        Alphabet(ROMANIAN).sort(["ab", "aé"])


def test_normalize_text_translates_only_when_needed() -> None:
    for text in ("ş", "aţb", "ŞŢ", "ș", "a\u0327", "s\u0327", "ăî", "abc"):
        assert normalize_text(text) == unicodedata.normalize("NFC", text).translate(CEDILLA_TO_COMMA)


def test_the_romanian_list_parses_as_before() -> None:
    """The largest bundled list (1.1 million words), the two ways: the same words in the same order, the same report."""
    entry, path = bundled_path("ro")
    lines = wordlist_lines(read_text(path))
    alphabet = word_alphabet(entry.alphabet)
    fast, reference = _both(lines, alphabet, True)
    assert fast == reference
