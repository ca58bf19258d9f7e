"""Caches built at install (``kubasolve.prebuild``) and the first run's seeding (``kubasolve.kernels.prebuilt``).

The wheel ships kernel files compiled where the wheel was built (another source path) and compiled
lexicons; seeding must put them where the installed package finds them, once, and never break a run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from kubasolve.kernels.prebuilt import MANIFEST, kernel_subfolder, seed
from kubasolve.prebuild import ENGINE_SESSION, WORKLOAD, collect

KERNEL = "from numba import njit\n\n\n@njit(cache=True)\ndef twice(x):\n    return 2 * x\n"

COUNT_COMPILES = """
    import sys
    from numba.core import event
    compiled = []
    class Count(event.Listener):
        def on_start(self, ev): compiled.append(ev)
        def on_end(self, ev): pass
    event.register("numba:compile", Count())
    sys.path.insert(0, sys.argv[1])
    import kernels.tiny
    print(kernels.tiny.twice(21), len(compiled))
"""


def _run(code: str, *args: str, numba_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "KUBASOLVE_CACHE_DIR"}
    env["NUMBA_CACHE_DIR"] = str(numba_dir)
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code), *args], capture_output=True, text=True, env=env,
                          timeout=300, check=False)


def test_kernel_subfolder_is_numbas_layout() -> None:
    from numba.core.caching import _CacheLocator

    import kubasolve.kernels.prebuilt as prebuilt

    source = os.path.join(prebuilt.KERNELS_DIR, "word_search.py")
    assert kernel_subfolder() == _CacheLocator.get_suitable_cache_subpath(source)
    assert kernel_subfolder("/elsewhere/kernels") == _CacheLocator.get_suitable_cache_subpath("/elsewhere/kernels/x.py")


def test_kernels_compiled_at_another_path_are_found_after_seeding(tmp_path: Path) -> None:
    """Built in one tree, installed in another: the seeded run compiles nothing and answers right."""
    build_tree, installed = tmp_path / "build", tmp_path / "site-packages"
    for tree in (build_tree, installed):
        (tree / "kernels").mkdir(parents=True)
        (tree / "kernels" / "__init__.py").write_text("")
        (tree / "kernels" / "tiny.py").write_text(KERNEL)
    build_cache = tmp_path / "build-cache"
    built = _run(COUNT_COMPILES, str(build_tree), numba_dir=build_cache / "numba")
    assert built.returncode == 0, built.stderr
    assert built.stdout.split() == ["42", "1"]

    shipped = tmp_path / "_prebuilt"
    manifest = collect(build_cache, shipped)
    assert any(name.startswith("numba/tiny.twice-") for name in manifest["files"])  # type: ignore[union-attr]

    user_cache = tmp_path / "user-cache"
    assert seed(user_cache, user_cache / "numba", prebuilt=shipped, kernels_dir=str(installed / "kernels"))
    first = _run(COUNT_COMPILES, str(installed), numba_dir=user_cache / "numba")
    assert first.returncode == 0, first.stderr
    assert first.stdout.split() == ["42", "0"]  # loaded, not compiled

    # without seeding the same run compiles
    cold = _run(COUNT_COMPILES, str(installed), numba_dir=tmp_path / "empty" / "numba")
    assert cold.stdout.split() == ["42", "1"]


def _tiny_wordlist(tmp_path: Path) -> Path:
    words = tmp_path / "tiny.txt"
    words.write_text("kroeg\nkroegen\ntocht\nkroegentocht\n", encoding="utf-8")
    return words


def test_seeded_lexicon_loads_from_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from kubasolve.lexicon import Lexicon

    words = _tiny_wordlist(tmp_path)
    build_cache, user_cache, shipped = tmp_path / "build-cache", tmp_path / "user-cache", tmp_path / "_prebuilt"
    monkeypatch.setenv("KUBASOLVE_CACHE_DIR", str(build_cache))
    built = Lexicon.from_wordlist(words)
    assert not built.from_cache
    manifest = collect(build_cache, shipped)
    assert not any(name.endswith("verified.json") for name in manifest["files"])  # type: ignore[union-attr]

    assert seed(user_cache, user_cache / "numba", prebuilt=shipped)
    monkeypatch.setenv("KUBASOLVE_CACHE_DIR", str(user_cache))
    loaded = Lexicon.from_wordlist(words)
    assert loaded.from_cache
    assert sorted(loaded) == sorted(built) == ["kroeg", "kroegen", "kroegentocht", "tocht"]


def test_seeding_happens_once_and_skips_kernels_of_another_numba(tmp_path: Path) -> None:
    shipped = tmp_path / "_prebuilt"
    (shipped / "numba").mkdir(parents=True)
    (shipped / "numba" / "tiny.twice-4.py311.nbi").write_bytes(b"index")
    (shipped / "lexicons" / "abc" / "sub").mkdir(parents=True)
    (shipped / "lexicons" / "abc" / "meta.json").write_text("{}")
    (shipped / "lexicons" / "abc" / "sub" / "a.npy").write_bytes(b"a")
    files = ["numba/tiny.twice-4.py311.nbi", "lexicons/abc/meta.json", "lexicons/abc/sub/a.npy", "../escape", "lexicons/../x"]
    (shipped / MANIFEST).write_text(json.dumps({"format": 1, "numba": "0.0.0", "build_id": "b1", "files": files}))
    cache = tmp_path / "cache"
    assert seed(cache, cache / "numba", prebuilt=shipped)
    assert not (cache / "numba").exists()  # compiled by another numba: numba would ignore them
    assert (cache / "lexicons" / "abc" / "sub" / "a.npy").read_bytes() == b"a"
    assert not (tmp_path / "escape").exists() and not (cache / "x").exists()
    assert (cache / "prebuilt" / "b1.done").is_file()
    (cache / "lexicons" / "abc" / "sub" / "a.npy").write_bytes(b"mine")
    assert not seed(cache, cache / "numba", prebuilt=shipped)  # once per build
    assert (cache / "lexicons" / "abc" / "sub" / "a.npy").read_bytes() == b"mine"


def test_seeding_never_breaks_a_run(tmp_path: Path) -> None:
    assert not seed(tmp_path / "cache", tmp_path / "numba", prebuilt=tmp_path / "nothing-shipped")
    shipped = tmp_path / "_prebuilt"
    shipped.mkdir()
    (shipped / MANIFEST).write_text("not json")
    assert not seed(tmp_path / "cache", tmp_path / "numba", prebuilt=shipped)
    (shipped / MANIFEST).write_text(json.dumps({"format": 1, "numba": "0", "build_id": "b", "files": ["lexicons/k/meta.json"]}))
    (shipped / "lexicons" / "k").mkdir(parents=True)
    (shipped / "lexicons" / "k" / "meta.json").write_text("{}")
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    assert not seed(blocked, blocked / "numba", prebuilt=shipped)  # the cache folder cannot be made


def test_the_install_workload_is_valid() -> None:
    """Every command the prebuild runs parses, and every engine request names a command."""
    from kubasolve.cli.main import build_parser
    from kubasolve.engine.registry import COMMANDS
    from kubasolve.engine.server import load_handlers

    parser = build_parser()
    for commands in WORKLOAD.values():
        for argv in commands:
            parser.parse_args(argv)
    load_handlers()
    for request in ENGINE_SESSION:
        assert request["cmd"] in COMMANDS
