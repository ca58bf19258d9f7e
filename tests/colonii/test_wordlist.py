"""The bundled Romanian list: the documented filter, its counts, and the rulebook's word forms."""

from __future__ import annotations

import hashlib

from kubasolve.games.colonii.wordlist import ROMANIAN_ALPHABET, romanian_game_words
from kubasolve.lexicon import Lexicon
from kubasolve.lexicon.bundled import BUNDLED, bundled_path, wordlist_dir

SHIPPED_SHA256 = "23f50a22f3223a6bcffc23681598631e73e48554a6ca384243c0e57e7fc6d192"


def test_filter_normalises_cedilla_and_drops_caps_hyphens_foreign_and_duplicates() -> None:
    lines = ["ştiinţă", "știință", "ADN", "ADN-ul", "a-și", "calul", "calul", " căluț ", "", "müller", "cai2"]
    words, report = romanian_game_words(lines)
    assert words == ["calul", "căluț", "știință"]
    assert report.cedilla_normalised == 1 and report.duplicates == 2  # ştiinţă == știință, calul twice
    assert report.not_lower_case == 2 and report.foreign == 3 and report.blank == 1  # ADN, ADN-ul; a-și, müller, cai2
    assert report.words == 3 and report.lines == len(lines)


def test_filter_sorts_in_romanian_alphabet_order() -> None:
    words, _ = romanian_game_words(["ță", "ta", "și", "sa", "îi", "ii", "ăla", "al", "zar"])
    assert words == ["al", "ăla", "ii", "îi", "sa", "și", "ta", "ță", "zar"]


def test_shipped_file_is_the_documented_one() -> None:
    entry, path = bundled_path("ro")
    assert hashlib.sha256(path.read_bytes()).hexdigest() == SHIPPED_SHA256
    assert entry.alphabet == ROMANIAN_ALPHABET and "ro" in BUNDLED
    for name in ("COPYRIGHT", "README.md", "bundled.toml"):
        assert (wordlist_dir() / "ro" / name).is_file()
    assert "License: GPL-2 or LGPL-2.1 or MPL-1.1" in (wordlist_dir() / "ro" / "COPYRIGHT").read_text(encoding="utf-8")


def test_real_list_counts_and_rulebook_forms(ro: Lexicon) -> None:
    """Rulebook: plurals and articulated forms are allowed: CAL, CALUL, CĂLUȚ, CAI, CAII."""
    assert len(ro) == 1_537_988
    for w in ("cal", "calul", "căluț", "cai", "caii", "ziar", "ziarist", "calorifer", "taxi", "idee", "rânjet", "raft", "știință"):
        assert w in ro, w
    for w in ("ADN", "adn-ul", "ştiinţă", "a-și", ""):
        assert w not in ro, w
    assert ro.alphabet.letters == ROMANIAN_ALPHABET
    assert "calorifer" in ro.words_with_prefix("cal")
