"""The bundled Romanian list: the documented filter, its counts, and the rulebook's word forms."""

from __future__ import annotations

import hashlib
import lzma

from kubasolve.games.colonii.wordlist import (
    ROMANIAN_ALPHABET,
    expand_entry,
    family_root,
    fold_diacritics,
    is_abbreviation,
    is_doubled_prefix,
    is_roman_numeral,
    is_vocative_eo,
    re_prefix_families,
    read_affixes,
    read_attested,
    read_dic,
    read_excluded,
    romanian_game_words,
    unattested_re_forms,
)
from kubasolve.lexicon import Lexicon
from kubasolve.lexicon.bundled import BUNDLED, bundled_path, wordlist_dir

SHIPPED_SHA256 = "9df5e59f25682c84dfb1ae5a33b542800d1e7c3bd08ecfbcbd3b0d2bea0a1f2e"


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


def test_excluded_list_is_software_brands_and_abbreviations_only() -> None:
    excluded = read_excluded()
    assert {"google", "firefox", "linux", "gentoo", "bash", "etc", "apr", "șamd", "ian"} <= excluded
    assert not excluded & {"opera", "samba", "xerox", "email", "internet", "blog", "cal", "sept", "ex", "prof", "perla"}


# A made-up affix file in hunspell-ro's shape: verbs in -esc with the automatic prefix re (flag V, like the
# .aff's I), nouns in -ire (flag F), full forms of an irregular verb with the prefix only (flag O), and a class of
# verbs in -ez (flag B) whose endings a, ăm also cut the roots of full forms.
AFF = """SET UTF-8
PFX V Y 1
PFX V 0 re .
SFX V Y 3
SFX V esc i esc
SFX V esc ește esc
SFX V esc it esc
SFX F Y 2
SFX F e ea ire
SFX F e i [^t]ire
PFX O Y 1
PFX O 0 re .
SFX B Y 2
SFX B ez a ez
SFX B ez ăm ez
"""
DIC = "9\ncitesc/V\ncitire/F\nrecitire/F\nrânjesc/V\nrânjire/F\nrerânjire/F\nregină\nlua/O\nluăm/O\n"


def test_expand_entry_applies_suffixes_prefixes_and_their_cross_product() -> None:
    table = read_affixes(AFF)
    assert sorted(expand_entry("citesc", "V", table)) == sorted([
        ("citesc", ""), ("citi", ""), ("citește", ""), ("citit", ""),
        ("recitesc", "re"), ("reciti", "re"), ("recitește", "re"), ("recitit", "re")])
    assert sorted(f for f, _ in expand_entry("citire", "F", table)) == ["citire", "citirea"]  # [^t]ire: no -i
    assert sorted(f for f, _ in expand_entry("ieșire", "F", table)) == ["ieșire", "ieșirea", "ieșiri"]
    assert [f for f, _ in expand_entry("ieșire", "G", table)] == ["ieșire"]  # unknown flag: the stem alone
    assert read_dic(DIC)[:2] == [("citesc", "V"), ("citire", "F")] and ("regină", "") in read_dic(DIC)


def test_re_families_group_a_verb_and_drop_the_unattested_ones() -> None:
    """recitire/F copies citire/F: its forms join the prefixed verb forms of citesc under the root cit; the same for
    rânj. With recitit attested, every re- form of cit stays and every one of rânj goes; regină stays (no copy)."""
    families, plain = re_prefix_families(read_dic(DIC), read_affixes(AFF))
    assert families["cit"] == {"recitesc", "reciti", "recitește", "recitit", "recitire", "recitirea"}
    assert "rânj" in families and "lu" in families and families["lu"] == {"relua", "reluăm"}
    assert {"citesc", "citire", "rânjire", "regină", "lua", "luăm"} <= plain and not plain & families["cit"]
    dropped, found = unattested_re_forms(families, plain, read_attested("recitit\nRELUA|12\n"))
    assert found == 2  # cit by recitit, lu by relua (case and the thesaurus index's |offset ignored)
    assert dropped == {"rerânjesc", "rerânji", "rerânjește", "rerânjit", "rerânjire", "rerânjirea", "rerânjiri"}
    words, report = romanian_game_words(["citire", "recitire", "rânjire", "rerânjire", "rerânjiri", "regină"], (), dropped)
    assert words == ["citire", "rânjire", "recitire", "regină"] and report.re_unattested == 2


def test_family_roots_and_folded_evidence() -> None:
    endings = {"ire", "it", "esc", "ăm", "a"}
    assert {family_root(w, endings) for w in ("citire", "citit", "citesc")} == {"cit"}
    assert family_root("luăm", endings) == "luăm" and family_root("luăm", endings, 2) == "lu"
    assert family_root("ire", endings) == "ire"  # never shorter than the minimum
    assert fold_diacritics("reîncărcare") == "reincarcare" and fold_diacritics("știință") == "stiinta"
    families = {"încărc": {"reîncărcare", "reîncărca"}}
    assert unattested_re_forms(families, set(), read_attested("reincarca\n")) == (set(), 1)
    assert unattested_re_forms(families, {"reîncărca"}, set()) == ({"reîncărcare"}, 0)


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
    assert len(ro) == 1_146_713
    for w in ("cal", "calul", "căluț", "cai", "caii", "ziar", "ziarist", "calorifer", "taxi", "idee", "rânjet", "raft", "știință",
              "copiii", "stereo", "video", "nene", "nenea", "nenecesar", "iubito", "repetare", "ci", "mii", "vii",
              "revenire", "reluare", "reluăm", "recitire", "reface", "refacere", "reorientare", "regină", "real", "sept"):
        assert w in ro, w
    for w in ("ADN", "adn-ul", "ştiinţă", "a-și", "", "nr", "dl", "km", "kg", "cc", "http", "xml", "tcp", "ctrl", "xiv", "xviii",
              "google", "firefox", "rerânjireo", "rânjireo", "rereunit", "nenecinstitul", "nenecunoscut",
              "reotânjire", "rerânjire", "rejertfi", "rebombănire", "reavortare", "etc", "apr", "șamd", "bash"):
        assert w not in ro, w
    with lzma.open(bundled_path("ro")[1], "rt", encoding="utf-8") as f:
        shipped = f.read().split()
    assert len(shipped) == len(ro) and not [w for w in shipped if is_abbreviation(w) or is_roman_numeral(w)]
    assert ro.alphabet.letters == ROMANIAN_ALPHABET
    assert "calorifer" in ro.words_with_prefix("cal")
