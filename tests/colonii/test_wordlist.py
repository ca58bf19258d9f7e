"""The bundled Romanian list: the documented filter, its counts, and the rulebook's word forms."""

from __future__ import annotations

import hashlib
import lzma

from kubasolve.games.colonii.wordlist import (
    ROMANIAN_ALPHABET,
    is_abbreviation,
    is_doubled_prefix,
    is_roman_numeral,
    is_vocative_eo,
    read_excluded,
    romanian_game_words,
)
from kubasolve.lexicon import Lexicon
from kubasolve.lexicon.bundled import BUNDLED, bundled_path, wordlist_dir

SHIPPED_SHA256 = "7ebdbda3062052711df2b5cb88fe466caeca35b5a6d9c0bcabed283821fc9949"


def test_filter_normalises_cedilla_and_drops_caps_hyphens_foreign_and_duplicates() -> None:
    lines = ["ştiinţă", "știință", "ADN", "ADN-ul", "a-și", "calul", "calul", " căluț ", "", "müller", "cai2"]
    words, report = romanian_game_words(lines)
    assert words == ["calul", "căluț", "știință"]
    assert report.cedilla_normalised == 1 and report.duplicates == 2  # ştiinţă == știință, calul twice
    assert report.not_lower_case == 2 and report.foreign == 3 and report.blank == 1  # ADN, ADN-ul; a-și, müller, cai2
    assert report.words == 3 and report.lines == len(lines)


def test_filter_drops_abbreviations_numerals_excluded_and_overgenerated_forms() -> None:
    """Abbreviations (no vowel), Roman numerals, listed software/brands and the two over-generated classes go;
    the words they resemble stay (ci, mii, vii; stereo, video; nene, nenea; repetare)."""
    base = ["cal", "nr", "km", "http", "ctrl", "xml", "xiv", "xviii", "ci", "mii", "vii", "google", "firefox", "opera",
            "rânjire", "rânjirea", "rânjireo", "stereo", "video", "vide", "stere",
            "repetare", "rerepetare", "petare", "cunoscut", "necunoscut", "nenecunoscut", "nene", "nenea", "nea"]
    words, report = romanian_game_words(base, excluded=["google", "firefox"])
    assert set(words) == {"cal", "ci", "mii", "vii", "opera", "rânjire", "rânjirea", "stereo", "video", "vide", "stere",
                          "repetare", "petare", "cunoscut", "necunoscut", "nene", "nenea", "nea"}
    assert (report.no_vowel, report.roman_numeral, report.excluded, report.vocative_eo, report.doubled_prefix) == (5, 2, 2, 1, 2)
    assert report.dropped_examples["no_vowel"] == ["ctrl", "http", "km", "nr", "xml"]


def test_filter_rules_one_by_one() -> None:
    assert is_abbreviation("dl") and is_abbreviation("tcp") and not is_abbreviation("c") and not is_abbreviation("hm" + "a")
    assert is_roman_numeral("xiv") and is_roman_numeral("mcmxc") and not is_roman_numeral("ci") and not is_roman_numeral("mic")
    assert not is_roman_numeral("i") and not is_roman_numeral("iiii")
    words = {"iubire", "iubirea", "rodea", "rode"}
    assert is_vocative_eo("iubireo", words) and not is_vocative_eo("rodeo", {"rod"}) and not is_vocative_eo("video", words)
    assert is_doubled_prefix("rereface", {"reface", "face"}) and not is_doubled_prefix("rerânjire", {"rânjire", "njire"})
    assert not is_doubled_prefix("nenea", {"nea", "a"})


def test_excluded_list_is_software_and_brands_only() -> None:
    excluded = read_excluded()
    assert {"google", "firefox", "linux", "gentoo"} <= excluded
    assert not excluded & {"opera", "samba", "xerox", "email", "internet", "blog", "cal"}


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
    assert len(ro) == 1_507_148
    for w in ("cal", "calul", "căluț", "cai", "caii", "ziar", "ziarist", "calorifer", "taxi", "idee", "rânjet", "raft", "știință",
              "copiii", "stereo", "video", "nene", "nenea", "nenecesar", "iubito", "repetare", "ci", "mii", "vii"):
        assert w in ro, w
    for w in ("ADN", "adn-ul", "ştiinţă", "a-și", "", "nr", "dl", "km", "kg", "cc", "http", "xml", "tcp", "ctrl", "xiv", "xviii",
              "google", "firefox", "rerânjireo", "rânjireo", "rereunit", "nenecinstitul", "nenecunoscut"):
        assert w not in ro, w
    with lzma.open(bundled_path("ro")[1], "rt", encoding="utf-8") as f:
        shipped = f.read().split()
    assert len(shipped) == len(ro) and not [w for w in shipped if is_abbreviation(w) or is_roman_numeral(w)]
    assert ro.alphabet.letters == ROMANIAN_ALPHABET
    assert "calorifer" in ro.words_with_prefix("cal")
