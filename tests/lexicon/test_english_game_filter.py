"""The English game list's filter (wordlists/en/README.md): SCOWL, through Debian's ``wamerican``, holds its lower-case
abbreviations and Roman numerals, which no English club player accepts as words (self-play played HR, MG, QT, AVG)."""

from __future__ import annotations

import pytest

from kubasolve import load_lexicon
from kubasolve.games.scruble.wordlists import (
    ENGLISH_ABBREVIATIONS,
    ROMAN_WORDS,
    VOWELLESS_WORDS,
    english_game_words,
    is_english_abbreviation,
)

ABBREVIATIONS = ["adj", "rm", "pd", "vs", "hr", "mg", "qt", "avg", "etc", "approx", "govt", "yrs", "hwy", "tsp", "mph"]
NUMERALS = ["ii", "iv", "ix", "vi", "xiv", "xx", "xxxviii", "clxvii"]
WORDS = ["nth", "brr", "psst", "sh", "mm", "hmm", "cwm", "crwth", "tsk", "shh", "mi", "mix", "xi", "gym", "rhythm", "by",
         "min", "max", "info", "ref", "civil", "vivid", "dim", "lid", "a", "i"]


def test_the_filter_drops_abbreviations_and_numerals_and_keeps_real_words():
    lines = [*ABBREVIATIONS, *NUMERALS, *WORDS, "Boston", "dog's"]
    kept = english_game_words(lines)
    assert sorted(kept) == sorted(WORDS)
    assert not any(is_english_abbreviation(w) for w in VOWELLESS_WORDS | ROMAN_WORDS)
    assert all(is_english_abbreviation(w) for w in ENGLISH_ABBREVIATIONS)


@pytest.fixture(scope="module")
def en():  # type: ignore[no-untyped-def]
    return load_lexicon("en")


def test_the_bundled_english_list_has_no_abbreviation_a_club_player_refuses(en):  # type: ignore[no-untyped-def]
    assert [w for w in ABBREVIATIONS + NUMERALS if w in en] == []
    assert [w for w in ("nth", "brr", "psst", "sh", "mm", "mi", "mix", "xi", "gym", "rhythm", "min", "info") if w not in en] == []
    assert not [w for w in en if len(w) >= 2 and is_english_abbreviation(w)]
    assert len(en) == 63_834  # wordlists/en/README.md's count
