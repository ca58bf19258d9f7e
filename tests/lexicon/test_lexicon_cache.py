"""The on-disk cache: round trip, memory mapping, and rebuild of corrupt, stale or unwritable caches."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from kubasolve.lexicon import Lexicon, cache
from kubasolve.lexicon.compiled import ARRAY_NAMES
from kubasolve.lexicon.layout import FORMAT_VERSION

from .conftest import ROMANIAN

WORDS = ["știință", "științe", "țară", "țări", "casă", "case", "cas", "a", "ăla", "îmi", "zi", "zile"]
QUERIES = ["știință", "stiinta", "țar", "case", "zilei", "ăla", "", "x"]


@pytest.fixture
def wordlist(tmp_path: Path) -> Path:
    p = tmp_path / "ro.txt"
    p.write_text("\n".join(WORDS + ["Casă", "q-u", "naïve"]) + "\n", encoding="utf-8")
    return p


def answers(lex: Lexicon) -> tuple[object, ...]:
    """Everything a user can ask of a lexicon, to compare two loads."""
    return (
        len(lex),
        list(lex),
        [q in lex for q in QUERIES],
        [lex.word_id(q) for q in QUERIES],
        [lex.words_with_prefix(p) for p in ["", "ț", "ca", "zi"]],
        [lex.words_with_suffix(s) for s in ["", "e", "ă", "le"]],
        {n: np.asarray(a).tolist() for n, a in lex.compiled.arrays().items()},
        lex.report,
        lex.alphabet,
    )


def test_round_trip_is_memory_mapped_and_identical(fresh_cache: Path, wordlist: Path) -> None:
    first = Lexicon.from_wordlist(wordlist, alphabet=ROMANIAN)
    assert not first.from_cache
    # a fresh build hands out the cached read-only maps too, so kernels see one array type on every run
    assert all(isinstance(a, np.memmap) and not a.flags.writeable for a in first.compiled.arrays().values())
    assert first.cache_dir is not None and first.cache_dir.is_relative_to(fresh_cache)
    assert {p.name for p in first.cache_dir.iterdir()} == {"meta.json", "verified.json", "words.marisa", "rwords.marisa",
                                                           *(f"{n}.npy" for n in ARRAY_NAMES)}
    second = Lexicon.from_wordlist(wordlist, alphabet=ROMANIAN)
    assert second.from_cache and second.cache_dir == first.cache_dir
    assert all(isinstance(a, np.memmap) for a in second.compiled.arrays().values())
    assert answers(second) == answers(first)
    assert second.report["skipped_foreign"] == 2 and second.report["duplicates"] == 1


def test_key_depends_on_alphabet_and_content(fresh_cache: Path, wordlist: Path) -> None:
    ro = Lexicon.from_wordlist(wordlist, alphabet=ROMANIAN)
    latin = Lexicon.from_wordlist(wordlist)
    assert not latin.from_cache and latin.cache_dir != ro.cache_dir
    assert "știință" in ro and "știință" not in latin and "zi" in latin
    wordlist.write_text("\n".join(WORDS[:3]) + "\n", encoding="utf-8")
    changed = Lexicon.from_wordlist(wordlist, alphabet=ROMANIAN)
    assert not changed.from_cache and len(changed) == 3


def _truncate(p: Path) -> None:
    p.write_bytes(p.read_bytes()[: p.stat().st_size // 2])


def _garbage(p: Path) -> None:
    p.write_bytes(b"\x00garbage" * (p.stat().st_size // 8 + 1))


DAMAGE = {
    "truncated edges.npy": lambda d: _truncate(d / "edges.npy"),
    "truncated word_counts.npy": lambda d: _truncate(d / "word_counts.npy"),
    "garbage node_word.npy": lambda d: _garbage(d / "node_word.npy"),
    "missing first_edge.npy": lambda d: (d / "first_edge.npy").unlink(),
    "garbage meta.json": lambda d: (d / "meta.json").write_text("{not json"),
    "meta.json without sizes": lambda d: (d / "meta.json").write_text(json.dumps({"format": FORMAT_VERSION, "key": json.loads((d / "meta.json").read_text())["key"]})),
    "deleted words.marisa": lambda d: (d / "words.marisa").unlink(),
    "deleted rwords.marisa": lambda d: (d / "rwords.marisa").unlink(),
    "garbage words.marisa": lambda d: _garbage(d / "words.marisa"),
    "truncated rwords.marisa": lambda d: _truncate(d / "rwords.marisa"),
}


@pytest.mark.parametrize("damage", list(DAMAGE), ids=list(DAMAGE))
def test_corrupt_cache_is_rebuilt(fresh_cache: Path, wordlist: Path, damage: str) -> None:
    good = Lexicon.from_wordlist(wordlist, alphabet=ROMANIAN)
    expected = answers(good)
    assert good.cache_dir is not None
    DAMAGE[damage](good.cache_dir)
    rebuilt = Lexicon.from_wordlist(wordlist, alphabet=ROMANIAN)
    assert not rebuilt.from_cache
    assert answers(rebuilt) == expected
    again = Lexicon.from_wordlist(wordlist, alphabet=ROMANIAN)
    assert again.from_cache  # the rebuild repaired the cache
    assert answers(again) == expected


def _flip_bytes(p: Path) -> None:
    """Same-size damage: invert a few bytes spread over the file (its size and name stay the same)."""
    data = bytearray(p.read_bytes())
    for pos in {len(data) // 3, len(data) // 2, len(data) - 2}:
        data[pos] ^= 0xFF
    p.write_bytes(bytes(data))


@pytest.mark.parametrize("name", cache.cache_files())
def test_same_size_damage_of_each_file_is_detected_and_rebuilt(fresh_cache: Path, wordlist: Path, name: str) -> None:
    """Issue 8: same-size damage gave silently wrong answers or crashes; now every file is checksummed."""
    good = Lexicon.from_wordlist(wordlist, alphabet=ROMANIAN)
    expected = answers(good)
    assert good.cache_dir is not None
    size = (good.cache_dir / name).stat().st_size
    _flip_bytes(good.cache_dir / name)
    assert (good.cache_dir / name).stat().st_size == size
    rebuilt = Lexicon.from_wordlist(wordlist, alphabet=ROMANIAN)
    assert not rebuilt.from_cache and answers(rebuilt) == expected
    again = Lexicon.from_wordlist(wordlist, alphabet=ROMANIAN)
    assert again.from_cache and answers(again) == expected


def test_warm_load_reads_no_file_to_verify(fresh_cache: Path, wordlist: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Checksums are verified once per file state: an unchanged cache is trusted without hashing."""
    Lexicon.from_wordlist(wordlist, alphabet=ROMANIAN)

    def no_hashing(path: Path) -> str:
        raise AssertionError(f"{path} hashed again")

    monkeypatch.setattr(cache, "file_checksum", no_hashing)
    assert Lexicon.from_wordlist(wordlist, alphabet=ROMANIAN).from_cache


def test_lost_stamp_means_one_check(fresh_cache: Path, wordlist: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    first = Lexicon.from_wordlist(wordlist, alphabet=ROMANIAN)
    assert first.cache_dir is not None
    (first.cache_dir / cache.STAMP).unlink()
    hashed: list[str] = []
    real = cache.file_checksum
    monkeypatch.setattr(cache, "file_checksum", lambda p: hashed.append(p.name) or real(p))
    assert Lexicon.from_wordlist(wordlist, alphabet=ROMANIAN).from_cache
    assert sorted(hashed) == sorted(cache.cache_files())
    hashed.clear()
    assert Lexicon.from_wordlist(wordlist, alphabet=ROMANIAN).from_cache and hashed == []


def test_verify_files_helper(tmp_path: Path) -> None:
    """The reusable helper other caches (the board graph) may use."""
    (tmp_path / "a.bin").write_bytes(b"abc" * 1000)
    (tmp_path / "b.bin").write_bytes(b"")
    sums = cache.file_checksums(tmp_path, ["a.bin", "b.bin"])
    assert cache.verify_files(tmp_path, sums) and (tmp_path / cache.STAMP).exists()
    assert cache.verify_files(tmp_path, sums)
    _flip_bytes(tmp_path / "a.bin")
    assert not cache.verify_files(tmp_path, sums)
    assert not cache.verify_files(tmp_path, {**sums, "missing.bin": "00000000"})


@pytest.mark.parametrize("field,value", [("format", FORMAT_VERSION - 1), ("format", FORMAT_VERSION + 1), ("key", "0" * 64)])
def test_stale_cache_is_rebuilt(fresh_cache: Path, wordlist: Path, field: str, value: object) -> None:
    good = Lexicon.from_wordlist(wordlist, alphabet=ROMANIAN)
    assert good.cache_dir is not None
    meta_path = good.cache_dir / "meta.json"
    meta = json.loads(meta_path.read_text())
    original = dict(meta)
    meta[field] = value
    meta_path.write_text(json.dumps(meta))
    rebuilt = Lexicon.from_wordlist(wordlist, alphabet=ROMANIAN)
    assert not rebuilt.from_cache
    assert answers(rebuilt) == answers(good)
    rewritten = json.loads(meta_path.read_text())
    assert (rewritten["format"], rewritten["key"]) == (original["format"], original["key"])
    assert Lexicon.from_wordlist(wordlist, alphabet=ROMANIAN).from_cache


def test_new_format_version_means_new_key(fresh_cache: Path, wordlist: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    old = Lexicon.from_wordlist(wordlist, alphabet=ROMANIAN)
    monkeypatch.setattr(cache, "FORMAT_VERSION", FORMAT_VERSION + 1)
    new = Lexicon.from_wordlist(wordlist, alphabet=ROMANIAN)
    assert not new.from_cache and new.cache_dir != old.cache_dir
    assert answers(new) == answers(old)


def test_unwritable_cache_is_not_fatal(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, wordlist: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("KUBASOLVE_CACHE_DIR", str(blocker))
    lex = Lexicon.from_wordlist(wordlist, alphabet=ROMANIAN)
    assert lex.cache_dir is None and not lex.from_cache
    assert "țară" in lex and lex.words_with_suffix("le") == ["zile"]


def test_use_cache_false_writes_nothing(fresh_cache: Path, wordlist: Path) -> None:
    lex = Lexicon.from_wordlist(wordlist, alphabet=ROMANIAN, use_cache=False)
    assert lex.cache_dir is None and "casă" in lex
    assert not fresh_cache.exists() or not any(fresh_cache.rglob("meta.json"))


def test_compressed_lists_are_read(fresh_cache: Path, tmp_path: Path) -> None:
    from kubasolve.lexicon.wordlist import write_wordlist

    for suffix in (".txt.xz", ".txt.gz", ".txt"):
        p = write_wordlist(["ñu", "año", "niño"], tmp_path / f"es{suffix}")
        lex = Lexicon.from_wordlist(p, alphabet="abcdefghijklmnñopqrstuvwxyz")
        assert list(lex) == ["año", "niño", "ñu"], suffix
        assert Lexicon.from_wordlist(p, alphabet="abcdefghijklmnñopqrstuvwxyz").from_cache


def test_first_build_hands_out_the_array_types_later_runs_load(wordlist: Path, fresh_cache: Path) -> None:
    """numba compiles a read-only and a writable array apart: the board graph built on a first run was
    writable and the one loaded later read-only, so every move generator kernel compiled again on the
    second run (issue 23). Built, loaded and in-memory arrays now all have the same numba types."""
    from numba import typeof

    from kubasolve.lexicon import board_graph

    built = Lexicon.from_wordlist(wordlist, ROMANIAN)
    graph_built = board_graph.load_board_graph(built, 8)
    assert not graph_built.from_cache
    board_graph._MEMO.clear()
    loaded = Lexicon.from_wordlist(wordlist, ROMANIAN)
    graph_loaded = board_graph.load_board_graph(loaded, 8)
    assert loaded.from_cache and graph_loaded.from_cache
    in_memory = Lexicon.from_words(WORDS, ROMANIAN)
    for name in board_graph.ARRAYS:
        assert typeof(getattr(graph_built, name)) == typeof(getattr(graph_loaded, name)), name
        assert not getattr(graph_built, name).flags.writeable
    for name in ARRAY_NAMES:
        types = {typeof(np.asarray(getattr(lex.compiled, name)).view(np.ndarray)) for lex in (built, loaded, in_memory)}
        assert len(types) == 1, (name, types)
