"""The Romanian game word list: hunspell-ro expanded by ``unmunch``, filtered for word play.

The filter (documented with its counts in ``wordlists/ro/README.md``) keeps lower-case entries made
only of the 31 Romanian game letters after normalising the cedilla letters ş ţ to comma-below ș ț,
then drops what a Romanian player would not accept at the table: abbreviations without a vowel,
Roman numerals, names of software and brands (``wordlists/ro/excluded.txt``), and two classes of
forms that the ``.aff`` rules over-generate (vocatives in ``-eo`` of nouns in ``-e``, doubled
``re-re-``/``ne-ne-`` prefixes).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from kubasolve.lexicon.alphabet import CEDILLA_TO_COMMA, normalize_text

ROMANIAN_ALPHABET = "aăâbcdefghiîjklmnopqrsștțuvwxyz"
"""The 31 letters of Romanian in dictionary order (q, w, y, k occur in loan words)."""

VOWELS = frozenset("aăâeiîouy")
"""Letters that make a syllable; a word of two or more letters without one is an abbreviation (nr, km, http)."""

ROMAN_NUMERAL = re.compile(r"m{0,3}(?:cm|cd|d?c{0,3})(?:xc|xl|l?x{0,3})(?:ix|iv|v?i{0,3})")
"""A well-formed Roman numeral (1 to 3999) in lower case."""

ROMAN_NUMERALS_THAT_ARE_WORDS = frozenset({"ci", "di", "dii", "ii", "li", "mi", "mii", "vi", "vii", "xi"})
"""Strings that read as Roman numerals but are Romanian words (ci "but", mi/vi pronouns, mii "thousands",
vii "alive", ii "blouses", xi the Greek letter, ...): kept."""

OVERGENERATED_PREFIXES = ("re", "ne")
"""Prefixes that the ``.aff`` adds automatically (``PFX O/K/B/E/H/G/I 0 re``, ``PFX D/S/q/Q/e 0 ne``) to stems
that already carry them, giving ``rerepetare``, ``nenecunoscut``."""

RE_PREFIX = "re"
"""The prefix that hunspell-ro adds to every verb (``PFX O/K/B/E/H/G/I 0 re .``, "automatic prefix re") and to
the nouns, participles and gerunds its ``.dic`` copies with ``re`` in front (``reotânjire/F`` beside
``otânjire/F``)."""

FAMILY_ENDINGS = frozenset({"ire", "are", "ere", "âre", "it", "ită", "at", "ată", "ut", "ută", "ât", "âtă",
                            "esc", "ăsc", "ez", "indu", "ându", "ind", "ând"})
"""Endings of the ``.dic``'s verbal entries (noun in -re, participle, gerund, 1st person) cut to find a verb's
root, together with the vowel-initial endings the ``.aff`` suffix rules add (``aseră``, ``ează``): ``citire``,
``citit``, ``citesc``, ``citindu`` all have the root ``cit``."""

EXCLUDED_FILE = "excluded.txt"
"""Hand-made list of software, commands, file formats and brands in hunspell-ro (``wordlists/ro/``)."""


@dataclass
class RomanianFilterReport:
    """How many source lines each filter step removed (the counts in ``wordlists/ro/README.md``)."""

    lines: int = 0
    blank: int = 0
    cedilla_normalised: int = 0
    not_lower_case: int = 0
    foreign: int = 0
    duplicates: int = 0
    no_vowel: int = 0
    roman_numeral: int = 0
    excluded: int = 0
    vocative_eo: int = 0
    doubled_prefix: int = 0
    re_unattested: int = 0
    re_families: int = 0
    re_families_attested: int = 0
    words: int = 0
    foreign_examples: list[str] = field(default_factory=list)
    dropped_examples: dict[str, list[str]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, object]:
        return dict(self.__dict__)


def normalise_romanian(entry: str) -> str:
    """NFC, surrounding white space removed, cedilla ş ţ replaced by comma-below ș ț."""
    return normalize_text(entry.strip())


def read_excluded(path: str | Path | None = None) -> frozenset[str]:
    """The words of ``excluded.txt`` (``#`` starts a comment), normalised."""
    if path is None:
        from kubasolve.lexicon.bundled import wordlist_dir

        path = wordlist_dir() / "ro" / EXCLUDED_FILE
    words: set[str] = set()
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        words.update(normalise_romanian(w) for w in line.partition("#")[0].split())
    return frozenset(words)


def is_abbreviation(word: str) -> bool:
    """Two or more letters and no vowel: ``nr``, ``km``, ``http``, ``ctrl`` (a one-letter word is a letter's name)."""
    return len(word) >= 2 and not VOWELS.intersection(word)


def is_roman_numeral(word: str) -> bool:
    """``xiv``, ``xviii``: a well-formed numeral of two or more letters that is not also a Romanian word."""
    return len(word) >= 2 and word not in ROMAN_NUMERALS_THAT_ARE_WORDS and ROMAN_NUMERAL.fullmatch(word) is not None


def is_vocative_eo(word: str, words: set[str] | frozenset[str]) -> bool:
    """The feminine vocative ``-o`` that the ``.aff`` adds to every noun in ``-e`` (``SFX F e eo ire``, ``SFX A``):
    ``rânjireo``, ``ineluctabilitateo``. Recognised as X+``eo`` where X+``e`` and its articulated X+``ea`` are
    words; ``stereo``, ``video``, ``rodeo`` have no such base and stay."""
    return word.endswith("eo") and word[:-1] in words and word[:-1] + "a" in words


def is_doubled_prefix(word: str, words: set[str] | frozenset[str]) -> bool:
    """``rerepetare``, ``nenecunoscut``: the automatic ``re-``/``ne-`` prefix put on a stem that already has it
    (both the once-prefixed form and the bare stem of three or more letters are words)."""
    return any(word.startswith(p + p) and len(word) >= 7 and word[2:] in words and word[4:] in words
               for p in OVERGENERATED_PREFIXES)


@dataclass(frozen=True)
class Affix:
    """One hunspell affix rule: remove ``strip``, add ``add``, if the stem matches ``condition``."""

    strip: str
    add: str
    condition: re.Pattern[str]


AffixTable = dict[tuple[str, str], tuple[bool, list[Affix]]]
"""``(SFX|PFX, flag)`` -> (combines with the other kind, rules)."""


def read_affixes(text: str) -> AffixTable:
    """The ``SFX``/``PFX`` classes of a hunspell ``.aff`` (hunspell-ro uses no continuation classes)."""
    table: AffixTable = {}
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        head = lines[i].split()
        if len(head) >= 4 and head[0] in ("SFX", "PFX") and head[2] in ("Y", "N") and head[3].isdigit():
            kind, count, rules = head[0], int(head[3]), []
            for line in lines[i + 1:i + 1 + count]:
                part = line.split()
                cond = part[4] if len(part) > 4 else "."
                rules.append(Affix("" if part[2] == "0" else part[2], "" if part[3] == "0" else part[3],
                                   re.compile("^" + cond if kind == "PFX" else cond + "$")))
            table[(kind, head[1])] = (head[2] == "Y", rules)
            i += count + 1
        else:
            i += 1
    return table


def read_dic(text: str) -> list[tuple[str, str]]:
    """``(stem, flags)`` of a hunspell ``.dic`` (the first line, the count, is skipped)."""
    entries = []
    for line in text.split("\n")[1:]:
        word, _, flags = line.strip().partition("/")
        if word:
            entries.append((word, flags))
    return entries


def expand_entry(word: str, flags: str, table: AffixTable) -> list[tuple[str, str]]:
    """Every form ``unmunch`` makes of one ``.dic`` entry, with the prefix that made it (``""`` for none)."""
    def prefixed(stem: str, cross_only: bool) -> list[tuple[str, str]]:
        out = []
        for flag in flags:
            cross, rules = table.get(("PFX", flag), (False, []))
            if cross or not cross_only:
                out += [(a.add + stem[len(a.strip):], a.add) for a in rules
                        if stem.startswith(a.strip) and a.condition.search(stem)]
        return out

    suffixed = []
    for flag in flags:
        cross, rules = table.get(("SFX", flag), (False, []))
        suffixed += [(word[:len(word) - len(a.strip)] + a.add, cross) for a in rules
                     if word.endswith(a.strip) and a.condition.search(word)]
    forms = [(word, "")] + [(form, "") for form, _ in suffixed] + prefixed(word, False)
    for form, cross in suffixed:
        if cross:
            forms += prefixed(form, True)
    return forms


def family_root(base: str, endings: Iterable[str] = FAMILY_ENDINGS, shortest: int = 3) -> str:
    """``base`` without its longest ending of ``endings`` that leaves ``shortest`` letters or more."""
    best = base
    for ending in endings:
        if base.endswith(ending) and len(base) - len(ending) >= shortest and len(base) - len(ending) < len(best):
            best = base[:len(base) - len(ending)]
    return best


def re_prefix_families(entries: list[tuple[str, str]], table: AffixTable) -> tuple[dict[str, set[str]], set[str]]:
    """The forms hunspell-ro makes by putting ``re-`` before another entry, grouped by the root of that entry
    (one group a verb: ``recitesc``, ``recitire``, ``recitit`` -> ``cit``), and the forms it makes otherwise.
    The ``.dic`` lists the irregular verbs form by form with the prefix-only flag ``O`` (``lua/O``, ``luăm/O``,
    ``luaseră/O``): the root of such a full form may be two letters (``lu``), so that its forms stay one group.

    A form is ``re``-made when the automatic prefix made it, or when it is a form of an entry ``re``+X whose
    X is an entry with the same flags (``reotânjire/F`` beside ``otânjire/F``)."""
    endings = set(FAMILY_ENDINGS)
    for (kind, _), (_, rules) in table.items():
        if kind == "SFX":
            endings.update(a.add for a in rules if a.add[:1] in VOWELS and a.add.isalpha())
    flags_of: dict[str, set[str]] = {}
    for word, flags in entries:
        flags_of.setdefault(word, set()).add(flags)
    families: dict[str, set[str]] = {}
    plain: set[str] = set()
    roots: dict[str, str] = {}
    for word, flags in entries:
        base = word[len(RE_PREFIX):]
        copied = word.startswith(RE_PREFIX) and flags in flags_of.get(base, ())
        full_form = not any(("SFX", flag) in table for flag in flags)
        for form, prefix in expand_entry(word, flags, table):
            form = normalise_romanian(form)
            if copied or prefix == RE_PREFIX:
                stem = base if copied else word
                if stem not in roots:
                    roots[stem] = family_root(stem, endings, 2 if full_form else 3)
                root = roots[stem]
                families.setdefault(root, set()).add(form)
            else:
                plain.add(form)
    return families, plain


def fold_diacritics(word: str) -> str:
    """``reîncărcare`` -> ``reincarcare``: how Romanian is often typed on the web."""
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


def read_attested(text: str) -> set[str]:
    """Words of an evidence list (one a line; a thesaurus index ``word|offset`` gives its word), lower case,
    cedilla letters normalised, diacritics folded."""
    words = set()
    for line in text.split("\n"):
        word = normalise_romanian(line.partition("|")[0]).lower()
        if word and word.isalpha():
            words.add(fold_diacritics(word))
    return words


def unattested_re_forms(families: dict[str, set[str]], plain: set[str], attested: set[str]) -> tuple[set[str], int]:
    """The ``re``-made forms of the families none of whose forms is ``attested`` (compared with diacritics
    folded), less the forms hunspell-ro also makes otherwise; and how many families were attested."""
    unattested: set[str] = set()
    found = 0
    for forms in families.values():
        if any(fold_diacritics(form) in attested for form in forms):
            found += 1
        else:
            unattested |= forms
    return unattested - plain, found


def _drop(report: RomanianFilterReport, step: str, word: str) -> None:
    setattr(report, step, getattr(report, step) + 1)
    examples = report.dropped_examples.setdefault(step, [])
    if len(examples) < 12:
        examples.append(word)


def romanian_game_words(lines: Iterable[str], excluded: Iterable[str] = (),
                        re_unattested: Iterable[str] = ()) -> tuple[list[str], RomanianFilterReport]:
    """The colonii game filter over unmunched hunspell-ro; returns sorted unique words and counts.

    1. NFC and cedilla -> comma-below; skip blank lines;
    2. keep only entries entirely in lower case (drops acronyms ``ADN`` and proper nouns ``București``);
    3. keep only words made of the 31 Romanian letters (drops hyphenated clitic forms ``ADN-ul``,
       ``antedatarea-i``, apostrophes, digits and foreign accents ``ö é``);
    4. remove duplicates;
    5. drop abbreviations without a vowel (``nr``, ``km``, ``http``), Roman numerals (``xiv``), the
       ``excluded`` words (software and brands: ``google``, ``firefox``);
    6. drop over-generated forms: vocatives in ``-eo`` of nouns in ``-e`` (``rânjireo``) and doubled
       prefixes (``rerepetare``, ``nenecunoscut``), judged against the words left after step 5;
    7. drop the ``re_unattested`` forms (``unattested_re_forms``: ``reotânjire``, ``rerânjire``);
    8. sort in Romanian alphabet order.
    """
    letters = set(ROMANIAN_ALPHABET)
    excluded_words = frozenset(normalise_romanian(w) for w in excluded)
    report = RomanianFilterReport()
    keep: set[str] = set()
    for raw in lines:
        report.lines += 1
        stripped = raw.strip()
        if not stripped:
            report.blank += 1
            continue
        entry = normalise_romanian(stripped)
        if entry != unicodedata.normalize("NFC", stripped):
            report.cedilla_normalised += 1
        if entry != entry.lower():
            report.not_lower_case += 1
            continue
        if not all(c in letters for c in entry):
            report.foreign += 1
            if len(report.foreign_examples) < 8:
                report.foreign_examples.append(entry)
            continue
        if entry in keep:
            report.duplicates += 1
            continue
        keep.add(entry)
    for word in sorted(keep):
        if is_abbreviation(word):
            _drop(report, "no_vowel", word)
        elif is_roman_numeral(word):
            _drop(report, "roman_numeral", word)
        elif word in excluded_words:
            _drop(report, "excluded", word)
        else:
            continue
        keep.discard(word)
    generated = set()
    for word in sorted(keep):
        if is_vocative_eo(word, keep):
            _drop(report, "vocative_eo", word)
        elif is_doubled_prefix(word, keep):
            _drop(report, "doubled_prefix", word)
        else:
            continue
        generated.add(word)
    keep -= generated
    for word in sorted(keep.intersection(normalise_romanian(w) for w in re_unattested)):
        _drop(report, "re_unattested", word)
        keep.discard(word)
    order = {c: i for i, c in enumerate(ROMANIAN_ALPHABET)}
    words = sorted(keep, key=lambda w: bytes(order[c] for c in w))
    report.words = len(words)
    return words, report


def main(argv: list[str] | None = None) -> int:
    """``python -m kubasolve.games.colonii.wordlist UNMUNCHED DIC AFF EVIDENCE... [--out OUT]``: rebuild the
    bundled list (or write OUT), print the counts. EVIDENCE: word lists that attest ``re-`` words."""
    import argparse
    import json
    import sys

    from kubasolve.lexicon.bundled import wordlist_dir
    from kubasolve.lexicon.wordlist import read_text, write_wordlist

    parser = argparse.ArgumentParser(prog="python -m kubasolve.games.colonii.wordlist")
    parser.add_argument("unmunched", help="unmunch ro_RO.dic ro_RO.aff output")
    parser.add_argument("dic", help="ro_RO.dic")
    parser.add_argument("aff", help="ro_RO.aff")
    parser.add_argument("evidence", nargs="+", help="word lists attesting re- words (one word a line, or word|...)")
    parser.add_argument("--out", help="write here instead of the bundled file")
    args = parser.parse_args(sys.argv[1:] if argv is None else argv)
    lines = read_text(args.unmunched).split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    families, plain = re_prefix_families(read_dic(read_text(args.dic)), read_affixes(read_text(args.aff)))
    attested: set[str] = set()
    for path in args.evidence:
        attested |= read_attested(read_text(path))
    unattested, found = unattested_re_forms(families, plain, attested)
    words, report = romanian_game_words(lines, read_excluded(), unattested)
    report.re_families, report.re_families_attested = len(families), found
    out = args.out or wordlist_dir() / "ro" / BUNDLED_FILE
    write_wordlist(words, out)
    sys.stdout.write(json.dumps({"out": str(out), **report.as_dict()}, ensure_ascii=False, indent=2) + "\n")
    return 0


BUNDLED_FILE = "hunspell-ro-7.5.0-game.txt.xz"


__all__ = ["CEDILLA_TO_COMMA", "ROMANIAN_ALPHABET", "Affix", "RomanianFilterReport", "expand_entry", "family_root",
           "fold_diacritics", "is_abbreviation", "is_doubled_prefix", "is_roman_numeral", "is_vocative_eo",
           "normalise_romanian", "re_prefix_families", "read_affixes", "read_attested", "read_dic", "read_excluded",
           "romanian_game_words", "unattested_re_forms"]


if __name__ == "__main__":
    raise SystemExit(main())
