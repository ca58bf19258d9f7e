"""Reading word lists: bad input gives clear errors or counted skips; alphabets; the OpenTaal game filter."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest

from kubasolve.errors import LexiconError
from kubasolve.lexicon import Alphabet, Lexicon
from kubasolve.lexicon.layout import MAX_ALPHABET
from kubasolve.lexicon.wordlist import fold_accents, opentaal_game_words, read_text, write_wordlist

from .conftest import ROMANIAN, SPANISH


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(LexiconError, match="does not exist"):
        Lexicon.from_wordlist(tmp_path / "nope.txt")


def test_directory(tmp_path: Path) -> None:
    with pytest.raises(LexiconError, match="is a directory"):
        Lexicon.from_wordlist(tmp_path)


@pytest.mark.parametrize("suffix", [".txt", ".txt.xz", ".txt.gz"])
def test_non_utf8_names_the_line(tmp_path: Path, suffix: str) -> None:
    raw = b"kat\nhond\n" + "café\n".encode("latin-1") + b"vis\n"
    p = tmp_path / f"latin1{suffix}"
    if suffix == ".txt.xz":
        import lzma

        raw = lzma.compress(raw)
    elif suffix == ".txt.gz":
        import gzip

        raw = gzip.compress(raw)
    p.write_bytes(raw)
    with pytest.raises(LexiconError, match=r"not UTF-8: byte 0xe9 on line 3"):
        Lexicon.from_wordlist(p)


def test_corrupt_compressed_file(tmp_path: Path) -> None:
    p = tmp_path / "broken.txt.xz"
    p.write_bytes(b"this is not xz data")
    with pytest.raises(LexiconError, match="cannot read"):
        Lexicon.from_wordlist(p)


@pytest.mark.parametrize("content", ["", "\n\n  \n", "Ünïcode\n1234\n-\n", "\ufeff\n"])
def test_empty_list_is_an_error(tmp_path: Path, content: str) -> None:
    p = tmp_path / "empty.txt"
    p.write_text(content, encoding="utf-8")
    with pytest.raises(LexiconError, match="no usable word"):
        Lexicon.from_wordlist(p)


def test_foreign_lines_are_counted_with_examples(tmp_path: Path) -> None:
    p = tmp_path / "mixed.txt"
    lines = ["kat", "Hond", "  vis  ", "", "zoë", "e-mail", "a1", "zo'n", "New York", "kat", "x" * 256, "Ångström"]
    p.write_text("\n".join(lines) + "\n", encoding="utf-8")
    lex = Lexicon.from_wordlist(p)
    assert list(lex) == ["hond", "kat", "vis"]
    r = lex.report
    assert (r["lines"], r["accepted"], r["blank"], r["duplicates"], r["skipped_foreign"], r["skipped_too_long"]) == (12, 3, 1, 1, 6, 1)
    assert r["examples"] == ["zoë", "e-mail", "a1", "zo'n", "New York"]


def test_bom_and_crlf_are_handled(tmp_path: Path) -> None:
    p = tmp_path / "windows.txt"
    p.write_bytes("\ufeffkat\r\nhond\r\n".encode())
    assert list(Lexicon.from_wordlist(p)) == ["hond", "kat"]


def test_alphabet_is_part_of_the_lexicon(tmp_path: Path) -> None:
    p = tmp_path / "ro.txt"
    decomposed = unicodedata.normalize("NFD", "știință")
    p.write_text(f"{decomposed}\nțară\nmare\n", encoding="utf-8")
    ro = Lexicon.from_wordlist(p, alphabet=ROMANIAN)
    assert list(ro) == ["mare", "știință", "țară"] and ro.report["skipped_foreign"] == 0
    latin = Lexicon.from_wordlist(p)
    assert list(latin) == ["mare"] and latin.report["skipped_foreign"] == 2
    es = Lexicon.from_words(["año", "ano", "ñu"], SPANISH)
    assert "año" in es and "ano" in es and es.alphabet.code("ñ") == 14


@pytest.mark.parametrize(
    "letters,match",
    [("", "empty"), ("abca", "repeats"), ("ab c", "non-letter"), ("".join(chr(0x400 + i) for i in range(MAX_ALPHABET + 1)), "at most")],
)
def test_bad_alphabet(letters: str, match: str) -> None:
    with pytest.raises(LexiconError, match=match):
        Alphabet(letters)


def test_alphabet_encode_rejects_foreign_letters() -> None:
    a = Alphabet(ROMANIAN)
    assert a.decode(a.encode("știință")) == "știință"
    with pytest.raises(LexiconError, match="not in the alphabet"):
        a.encode("naïve")


def test_fold_accents() -> None:
    assert fold_accents("ideeën") == "ideeen"
    assert fold_accents("café") == "cafe"
    assert fold_accents("één") == "een"
    assert fold_accents("kroeg") == "kroeg"


def test_opentaal_game_filter_on_the_issue_examples() -> None:
    source = [
        "ideeën", "café", "cafe", "financiën", "kroegentocht", "  tocht  ", "",
        "Amsterdam", "Jan", "AOW", "btw-nummer", "pc's", "zo'n", "'s avonds", "e-mail",
        "New York", "ad hoc", "3D", "06-nummer", "a.u.b.", "m²",
    ]
    assert opentaal_game_words(source) == ["cafe", "financien", "ideeen", "kroegentocht", "tocht"]


def test_write_and_read_round_trip_is_deterministic(tmp_path: Path) -> None:
    words = ["aap", "noot", "mies", "ideeën"]
    a = write_wordlist(words, tmp_path / "a.txt.xz")
    b = write_wordlist(words, tmp_path / "sub" / "b.txt.xz")
    assert a.read_bytes() == b.read_bytes()
    assert read_text(a).splitlines() == words
