"""The bundled Dutch game lexicon and its reproducibility from the OpenTaal source."""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from kubasolve.errors import LexiconError
from kubasolve.lexicon import LATIN, Lexicon, load_lexicon
from kubasolve.lexicon.bundled import BUNDLED, bundled_path, wordlist_dir

SHIPPED_SHA256 = "49f318a7330d0754e5f98cba312f6a2a44ef0ead013ff5f9d2532179576cf2ae"
OPENTAAL_SOURCES = [Path("/usr/share/dict/dutch"), Path("/tmp/wdutch/usr/share/dict/dutch")]


def test_nl_word_count_and_words(nl: Lexicon) -> None:
    assert len(nl) == 348_507
    for w in ("kroegen", "tocht", "kroegentocht", "ideeen", "cafe", "financien"):
        assert w in nl, w
    for w in ("amsterdam", "aow", "ideeën", "café", "e-mail", "zo'n", "Kroegentocht", ""):
        assert w not in nl, w
    assert nl.words_with_prefix("kroegent") == ["kroegentocht", "kroegentochten", "kroegentochtje"]
    assert "kroegentocht" in nl.words_with_suffix("tocht")
    assert nl.alphabet.letters == LATIN
    assert nl.report["lines"] == 348_507 and nl.report["skipped_foreign"] == 0


def test_nl_is_pure_a_to_z(nl: Lexicon) -> None:
    assert all(w.isascii() and w.isalpha() and w.islower() for w in nl.trie.iterkeys())


def test_shipped_file_is_the_documented_one() -> None:
    entry, path = bundled_path("nl")
    assert hashlib.sha256(path.read_bytes()).hexdigest() == SHIPPED_SHA256
    assert (wordlist_dir() / "nl" / "COPYRIGHT").is_file()
    assert (wordlist_dir() / "nl" / "README.md").is_file()
    assert "nl" in BUNDLED and entry.alphabet == LATIN  # other languages are bundled too (wordlists/<lang>/)


def test_load_lexicon_memoizes_and_rejects_unknown_names(nl: Lexicon) -> None:
    lex = load_lexicon("nl")
    assert lex is load_lexicon("nl") and len(lex) == len(nl)
    with pytest.raises(LexiconError, match="no bundled lexicon 'xx'"):
        load_lexicon("xx")


@pytest.mark.slow
@pytest.mark.skipif(not any(p.is_file() for p in OPENTAAL_SOURCES), reason="OpenTaal source (wdutch) not installed")
def test_make_nl_reproduces_the_shipped_file_byte_for_byte(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from kubasolve.cli.main import main

    source = next(p for p in OPENTAAL_SOURCES if p.is_file())
    out = tmp_path / "nl.txt.xz"
    assert main(["lexicon", "make-nl", str(source), "-o", str(out)]) == 0
    text = capsys.readouterr().out
    assert "413,288 lines" in text and "348,507 game words" in text
    assert out.read_bytes() == bundled_path("nl")[1].read_bytes()
