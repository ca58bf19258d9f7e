"""User word lists and ``--alphabet`` values read the way every other input is: letters normalised (NFC, the
Romanian cedilla ş ţ as comma-below ș ț, lower case), bad values refused by name, never a traceback."""

from __future__ import annotations

import gzip
import json
import unicodedata
from pathlib import Path

import pytest

from kubasolve import Lexicon
from kubasolve.cli.main import main
from kubasolve.errors import LexiconError
from kubasolve.lexicon import Alphabet

from .conftest import ROMANIAN

Capsys = pytest.CaptureFixture[str]
CEDILLA_ALPHABET = ROMANIAN.replace("ș", "ş").replace("ț", "ţ")


def test_an_alphabet_typed_with_cedilla_letters_holds_the_comma_below_letters() -> None:
    """``--alphabet ...ş...ţ...`` kept the cedilla letters while every word was read with ș ț: each word with one
    was skipped as foreign, and ``check ştiinţă`` said "letters 'șț' are not in the alphabet"."""
    assert Alphabet(CEDILLA_ALPHABET).letters == ROMANIAN
    decomposed = unicodedata.normalize("NFD", ROMANIAN)
    assert Alphabet(decomposed).letters == ROMANIAN
    lex = Lexicon.from_words(["ştiinţă", "țară", "mare"], CEDILLA_ALPHABET)
    assert sorted(lex) == ["mare", "știință", "țară"] and lex.report["skipped_foreign"] == 0
    with pytest.raises(LexiconError, match="repeats"):
        Alphabet("şș")


def test_cli_alphabet_with_cedilla_letters(tmp_path: Path, capsys: Capsys) -> None:
    words = tmp_path / "ro.txt"
    words.write_text("\ufeffştiinţă\r\nŢară\r\nmare\r\n", encoding="utf-8")
    assert main(["lexicon", "check", "--lexicon", str(words), "--alphabet", CEDILLA_ALPHABET, "--json", "ştiinţă", "ȚARĂ"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert [r["word"] for r in data["results"]] == ["știință", "țară"] and data["all_words"] is True


def test_an_upper_case_alphabet_is_the_alphabet_of_lower_case_words(tmp_path: Path, capsys: Capsys) -> None:
    """Words are read in lower case, so ``--alphabet ABC...`` skipped every word ("holds no usable word")."""
    lex = Lexicon.from_words(["Kat", "hond"], "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    assert lex.alphabet.letters == "abcdefghijklmnopqrstuvwxyz" and sorted(lex) == ["hond", "kat"]
    words = tmp_path / "w.txt"
    words.write_text("kat\nhond\n", encoding="utf-8")
    assert main(["lexicon", "check", "--lexicon", str(words), "--alphabet", "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "KAT", "hond"]) == 0
    assert capsys.readouterr().out.splitlines() == ["kat: yes", "hond: yes"]


def test_an_empty_alphabet_is_refused_not_replaced_by_the_default(tmp_path: Path, capsys: Capsys) -> None:
    """``--alphabet ''`` silently meant a-z."""
    words = tmp_path / "w.txt"
    words.write_text("kat\n", encoding="utf-8")
    assert main(["lexicon", "check", "--lexicon", str(words), "--alphabet", "", "kat"]) == 1
    assert "the alphabet is empty" in capsys.readouterr().err
    with pytest.raises(LexiconError, match="empty"):
        from kubasolve.lexicon.lexicon import load_lexicon

        load_lexicon(str(words), alphabet="")


def test_case_kept_word_lists_normalise_cedilla_letters(tmp_path: Path) -> None:
    """``from_wordlist(..., lowercase=False)`` normalised to NFC only: ş ţ stayed cedilla letters."""
    words = tmp_path / "w.txt"
    words.write_text("Ştiinţă\n", encoding="utf-8")
    lex = Lexicon.from_wordlist(words, ROMANIAN + ROMANIAN.upper(), lowercase=False, use_cache=False)
    assert list(lex) == ["Știință"]


def test_a_truncated_gzip_word_list_is_one_error_line(tmp_path: Path, capsys: Capsys) -> None:
    """A .gz cut short raised EOFError: a traceback."""
    full = gzip.compress(("\n".join(f"w{'a' * (i % 40)}b{i % 7 * 'c'}" for i in range(3000)) + "\n").encode())
    cut = tmp_path / "cut.txt.gz"
    cut.write_bytes(full[: len(full) // 2])
    assert main(["lexicon", "info", str(cut)]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err and "cannot read word list" in err and "ended before" in err


@pytest.mark.parametrize("kind", ["prefix", "suffix"])
def test_prefix_or_suffix_with_letters_outside_the_alphabet_is_refused_by_name(tmp_path: Path, capsys: Capsys, kind: str) -> None:
    """``lexicon prefix '[a-z'`` answered "0 words" with exit 0, as if the query were fine."""
    words = tmp_path / "w.txt"
    words.write_text("kat\nkater\n", encoding="utf-8")
    assert main(["lexicon", kind, "--lexicon", str(words), "k[é"]) == 1
    err = capsys.readouterr().err
    assert "letters '[é' are not in the alphabet" in err
    assert main(["lexicon", kind, "--lexicon", str(words), "k1", "--json"]) == 1
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "bad-lexicon"
    assert main(["lexicon", kind, "--lexicon", str(words), "" if kind == "prefix" else "at"]) == 0


def test_a_word_list_is_split_at_line_ends_only(tmp_path: Path, capsys: Capsys) -> None:
    """``str.splitlines`` cut ``ho\\u2028nd`` into the words ``ho`` and ``nd`` (a form feed and U+0085 too), and
    counted 7 lines in a file of 4."""
    words = tmp_path / "w.txt"
    words.write_bytes("kat\r\nho\u2028nd\nvo\x0cgel\rvis\x85je\n".encode())
    lex = Lexicon.from_wordlist(words, use_cache=False)
    assert list(lex) == ["kat"]
    assert (lex.report["lines"], lex.report["skipped_foreign"]) == (4, 3)
    assert main(["lexicon", "check", "--lexicon", str(words), "ho", "nd", "kat"]) == 1
    assert capsys.readouterr().out.splitlines() == ["ho: no (not in w)", "nd: no (not in w)", "kat: yes"]


def test_library_arguments_of_the_wrong_kind_are_refused_by_name(capsys: Capsys) -> None:
    """``from_words("kat")`` built the lexicon {a, k, t}; a non-str word, a path that is a number and an empty name
    were AttributeError/TypeError tracebacks or "word list '.' is a directory"."""
    from kubasolve.lexicon.lexicon import load_lexicon

    with pytest.raises(LexiconError, match="not one str"):
        Lexicon.from_words("kat")
    with pytest.raises(LexiconError, match=r"words\[1\] must be a str, got int"):
        Lexicon.from_words(["kat", 5])  # type: ignore[list-item]
    with pytest.raises(LexiconError, match="a word list is a file path"):
        Lexicon.from_wordlist(5)  # type: ignore[arg-type]
    for name in ("", 5):
        with pytest.raises(LexiconError, match="a lexicon is a bundled name"):
            load_lexicon(name)  # type: ignore[arg-type]
    assert main(["lexicon", "info", ""]) == 1
    assert "no bundled lexicon ''" in capsys.readouterr().err


def test_a_cached_report_names_the_file_read_not_the_first_copy_built(tmp_path: Path) -> None:
    """The cache is keyed by content, so a copy of a list loads the first one's cache; its report said
    ``"source": <the first file>`` next to ``source: <this file>``."""
    first, copy = tmp_path / "first.txt", tmp_path / "copy.txt"
    for p in (first, copy):
        p.write_text("kat\nhond\n", encoding="utf-8")
    assert Lexicon.from_wordlist(first).report["source"] == str(first)
    again = Lexicon.from_wordlist(copy)
    assert again.from_cache and again.source == again.report["source"] == str(copy)
