"""The compiled-kernel cache heals (issue 23): damaged files of any kernel (truncated, same-size garbage,
a flipped bit) are recompiled with one warning instead of failing or aborting every later run; an
unusable cache folder or a full disk means compiling into memory, with one warning, never writing
into the package's ``kernels/__pycache__``.

Each fault runs in a subprocess over a private ``KUBASOLVE_CACHE_DIR`` that starts as a copy of a
cache warmed once for this module (the small trie-building and trie-walking kernels)."""

from __future__ import annotations

import importlib
import os
import pkgutil
import random
import shutil
import subprocess
import sys
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest

import kubasolve.kernels
from kubasolve.kernels import disk_cache

KERNELS_DIR = Path(kubasolve.kernels.__file__).parent
# Builds a lexicon from a word list file (trie kernels, lexicon cache) and walks it (trie_walk).
SCRIPT = textwrap.dedent("""
    import sys
    from kubasolve.lexicon import Lexicon
    lex = Lexicon.from_wordlist(sys.argv[1], name="words")
    print(len(lex), list(lex)[:3], lex.words_with_prefix("ab", limit=2))
""")


def _words() -> list[str]:
    rng = random.Random(5)
    words: set[str] = set()
    while len(words) < 3000:
        words.add("".join(rng.choice("abcdefghij") for _ in range(rng.randint(2, 9))))
    return sorted(words)


WORDS = _words()
EXPECTED_OUT = f"3000 {WORDS[:3]} {[w for w in WORDS if w.startswith('ab')][:2]}"


def _run(cache: Path, wordlist: Path, *, limit_file_bytes: int | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "KUBASOLVE_CACHE_DIR")}
    env["KUBASOLVE_CACHE_DIR"] = str(cache)
    preexec: Callable[[], None] | None = None
    if limit_file_bytes is not None:
        def preexec() -> None:  # a full disk, as far as this process can tell: writes past the limit fail (EFBIG)
            import resource
            import signal

            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_file_bytes, limit_file_bytes))
    return subprocess.run([sys.executable, "-c", SCRIPT, str(wordlist)], capture_output=True, text=True, env=env,
                          timeout=600, check=False, preexec_fn=preexec)


def _seed(target: Path) -> None:
    """Copy the trie kernels' files from this test run's own kernel cache, when it has them (the suite's
    earlier tests compiled them), so that the warm-up compiles nothing; the copies are never damaged."""
    source = kubasolve.kernels.numba_cache_dir()
    for folder in source.glob("kernels_*") if source.is_dir() else []:
        for f in folder.iterdir():
            if f.name.startswith(("trie_build.", "trie_walk.", "arrays.")) and f.suffix in (".nbi", ".nbc"):
                (target / folder.name).mkdir(parents=True, exist_ok=True)
                shutil.copy2(f, target / folder.name / f.name)


@pytest.fixture(scope="module")
def warm(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(a warm cache folder, the word list): the kernels compiled, and the lexicon cached, once."""
    root = tmp_path_factory.mktemp("kernel-cache")
    wordlist = root / "words.txt"
    wordlist.write_text("\n".join(WORDS) + "\n")
    cache = root / "warm"
    _seed(cache / "numba")
    proc = _run(cache, wordlist)
    assert proc.returncode == 0 and proc.stdout.strip() == EXPECTED_OUT, proc.stderr
    return cache, wordlist


def _copy(warm: tuple[Path, Path], tmp_path: Path) -> tuple[Path, list[Path]]:
    """The warm kernels without the cached lexicon (so the trie-building kernels run again too)."""
    cache = tmp_path / "cache"
    shutil.copytree(warm[0] / "numba", cache / "numba")
    files = sorted((cache / "numba").rglob("*.nb[ci]"))
    assert len(files) >= 10, files  # trie_build, trie_walk: index and data of every kernel
    return cache, files


def _truncate(data: bytes, rng: random.Random) -> bytes:
    return data[: rng.randrange(len(data))]


def _garbage(data: bytes, rng: random.Random) -> bytes:
    return rng.randbytes(len(data))


def _flip_bit(data: bytes, rng: random.Random) -> bytes:
    b = bytearray(data)
    b[rng.randrange(len(b))] ^= 1 << rng.randrange(8)
    return bytes(b)


def _flip_bit_in_code(data: bytes, rng: random.Random) -> bytes:
    """A bit of the payload's second half (where the machine code is), the damage that made LLVM abort."""
    b = bytearray(data)
    b[rng.randrange(len(b) // 2, len(b))] ^= 1 << rng.randrange(8)
    return bytes(b)


DAMAGES = (_truncate, _garbage, _flip_bit, _flip_bit_in_code)


def test_damaged_kernel_files_are_recompiled_with_one_warning(warm: tuple[Path, Path], tmp_path: Path) -> None:
    """Every file of every kernel (index and data) damaged, each kind of damage on a quarter of them."""
    cache, files = _copy(warm, tmp_path)
    rng = random.Random(23)
    for i, f in enumerate(files):
        f.write_bytes(DAMAGES[i % len(DAMAGES)](f.read_bytes(), rng))
    first = _run(cache, warm[1])
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip() == EXPECTED_OUT
    assert "Traceback" not in first.stderr
    assert first.stderr.count("does not load") == 1, first.stderr
    second = _run(cache, warm[1])  # healed: the files were rewritten, nothing to say
    assert second.returncode == 0 and second.stdout.strip() == EXPECTED_OUT
    assert second.stderr == "", second.stderr


def test_an_unusable_cache_folder_compiles_into_memory(warm: tuple[Path, Path], tmp_path: Path) -> None:
    """The folder cannot be created (a file is in the way; chmod would not stop root): one warning, the
    answer, and nothing written into the installed package."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    before = sorted((KERNELS_DIR / "__pycache__").glob("*.nb[ci]")) if (KERNELS_DIR / "__pycache__").is_dir() else []
    proc = _run(blocker / "cache", warm[1])
    assert proc.returncode == 0 and proc.stdout.strip() == EXPECTED_OUT, proc.stderr
    assert proc.stderr.count("compiled-kernel cache folder") == 1, proc.stderr
    assert "kernels are compiled into memory" in proc.stderr and "Traceback" not in proc.stderr
    after = sorted((KERNELS_DIR / "__pycache__").glob("*.nb[ci]")) if (KERNELS_DIR / "__pycache__").is_dir() else []
    assert after == before


def test_a_full_disk_keeps_kernels_and_lexicon_in_memory(warm: tuple[Path, Path], tmp_path: Path) -> None:
    """Every write past 4 kB fails: marisa's RuntimeError used to escape the lexicon cache, and every
    kernel compile failed on its save."""
    cache = tmp_path / "cache"
    proc = _run(cache, warm[1], limit_file_bytes=4096)
    assert proc.returncode == 0 and proc.stdout.strip() == EXPECTED_OUT, proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stderr.count("cannot write compiled kernels") == 1, proc.stderr
    assert proc.stderr.count("cannot write lexicon cache") == 1, proc.stderr


def test_every_kernel_uses_the_checked_cache() -> None:
    """The healing is not per kernel: every ``@njit(cache=True)`` function of every kernel module gets it."""
    from numba.core.registry import CPUDispatcher

    found = 0
    for info in pkgutil.iter_modules([str(KERNELS_DIR)]):
        module = importlib.import_module(f"kubasolve.kernels.{info.name}")
        for value in vars(module).values():
            if isinstance(value, CPUDispatcher) and value.py_func.__module__ == module.__name__:
                assert isinstance(getattr(value, "_cache", None), disk_cache.CheckedFunctionCache), f"{info.name}.{value.py_func.__name__}"
                found += 1
    assert found >= 50


def test_sealed_files_reject_any_change() -> None:
    payload = bytes(range(256)) * 4
    sealed = disk_cache.seal(payload)
    assert disk_cache.unseal(sealed) == payload
    for at in (0, len(disk_cache.MAGIC), len(disk_cache.MAGIC) + 40, len(sealed) - 1):
        bad = bytearray(sealed)
        bad[at] ^= 0x10
        with pytest.raises(ValueError):
            disk_cache.unseal(bytes(bad))
    with pytest.raises(ValueError):
        disk_cache.unseal(sealed[:-1])


TWO_SIGNATURES = textwrap.dedent("""
    import sys
    from kubasolve.kernels import disk_cache
    disk_cache.is_kubasolve_kernel = lambda py_func: True  # this script's kernel gets the checked cache too
    sys.path.insert(0, sys.argv[1])
    from twice import double
    print(repr(double(3)), repr(double(1.5)))
""")


def test_machine_code_cached_for_another_signature_is_not_used(tmp_path: Path) -> None:
    """Two processes compiling two signatures of one kernel into a cold cache at once (the install-time build's
    parallel first pass, the test warm-up) can leave the index naming one signature's data file for the other.
    That file passes its checksum, so only its signature tells: it is compiled again, never run for the wrong types
    (numba alone would run the float code for an int: ``double(3)`` would answer ``6.0``)."""
    module = tmp_path / "src"
    module.mkdir()
    (module / "twice.py").write_text("from numba import njit\n\n@njit(cache=True)\ndef double(x):\n    return x * 2\n")
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "KUBASOLVE_CACHE_DIR")}
    env["KUBASOLVE_CACHE_DIR"] = str(tmp_path / "cache")

    def run() -> str:
        proc = subprocess.run([sys.executable, "-c", TWO_SIGNATURES, str(module)], capture_output=True, text=True, env=env,
                              timeout=600, check=False)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout.strip()

    assert run() == "6 3.0"
    data = sorted((tmp_path / "cache" / "numba").rglob("twice.double-*.nbc"))
    assert len(data) == 2, data
    swapped = [f.read_bytes() for f in data]
    data[0].write_bytes(swapped[1])
    data[1].write_bytes(swapped[0])
    assert run() == "6 3.0"  # recompiled, and the files rewritten under the right names
    assert run() == "6 3.0"
