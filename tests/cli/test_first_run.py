"""Caches and the first run: numba's cache lives under the kubasolve cache folder (never in the
installed package), ``import kubasolve`` imports no numba, and the CLI says when it compiles."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path


def _python(code: str, env: dict[str, str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env,
                          cwd=cwd, timeout=300, check=False)


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "KUBASOLVE_CACHE_DIR")}
    return {**env, "KUBASOLVE_CACHE_DIR": str(tmp_path / "cache"), **extra}


def test_numba_cache_goes_under_the_kubasolve_cache(tmp_path: Path) -> None:
    proc = _python("""
        import os, sys
        import kubasolve
        assert "numba" not in sys.modules, "import kubasolve must not import numba"
        assert "NUMBA_CACHE_DIR" not in os.environ
        import kubasolve.kernels.count_scan  # any kernel module
        from numba.core import config
        print(os.environ["NUMBA_CACHE_DIR"], config.CACHE_DIR)
    """, _env(tmp_path))
    assert proc.returncode == 0, proc.stderr
    expected = str(tmp_path / "cache" / "numba")
    assert proc.stdout.split() == [expected, expected]


def test_numba_imported_first_still_uses_the_kubasolve_cache(tmp_path: Path) -> None:
    proc = _python("""
        import numba
        from numba.core import config
        assert config.CACHE_DIR == ""
        import kubasolve.kernels
        print(config.CACHE_DIR)
    """, _env(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(tmp_path / "cache" / "numba")


def test_a_users_numba_cache_dir_is_respected(tmp_path: Path) -> None:
    mine = str(tmp_path / "my-numba")
    proc = _python("""
        import kubasolve.kernels
        from numba.core import config
        print(config.CACHE_DIR, kubasolve.kernels.numba_cache_dir())
    """, _env(tmp_path, NUMBA_CACHE_DIR=mine))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == [mine, mine]


def test_compile_notice_on_the_first_run_only(tmp_path: Path) -> None:
    """A kernel compiled on a cold cache is announced on stderr (once) with its time; a warm run is silent."""
    module = tmp_path / "tiny_kernel.py"
    module.write_text("from numba import njit\n\n@njit(cache=True)\ndef add_one(x):\n    return x + 1\n")
    code = """
        import sys
        from kubasolve.cli.common import watch_compilation
        notice = watch_compilation(sys.stderr)
        assert "numba" not in sys.modules  # the watcher itself imports nothing heavy
        import kubasolve.kernels  # points numba at the kubasolve cache
        import tiny_kernel
        print(tiny_kernel.add_one(1) + tiny_kernel.add_one(2.5))
        notice.finish()
    """
    env = _env(tmp_path, PYTHONPATH=str(tmp_path) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    first = _python(code, env, cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert first.stdout.strip() == "5.5"
    lines = first.stderr.splitlines()
    assert len(lines) == 2, first.stderr
    assert lines[0].startswith("kubasolve: compiling kernels, once (cached in ")
    assert str(tmp_path / "cache" / "numba") in lines[0] and "kernels compiled in" in lines[1]
    assert any((tmp_path / "cache" / "numba").rglob("*.nbi"))
    second = _python(code, env, cwd=tmp_path)
    assert second.returncode == 0 and second.stdout.strip() == "5.5" and second.stderr == ""


def test_compile_notice_does_not_promise_a_cache_folder_that_is_not_usable(monkeypatch) -> None:
    """With an unusable cache folder (a file in its place) the notice said "compiling kernels, once (cached in
    <that folder>)" right after the warning that nothing would be cached there."""
    import io

    from kubasolve.cli import common

    monkeypatch.setattr(common, "_kernels_in_memory_only", lambda: True)
    out = io.StringIO()
    notice = common.CompileNotice(out, clock=iter([0.0, 1.5]).__next__)
    notice.on_compile()
    notice.on_compiled()
    notice.finish()
    first, last = out.getvalue().splitlines()
    assert first.startswith("kubasolve: compiling kernels, kept in memory for this run only (") and "cached in" not in first
    assert last == "kubasolve: kernels compiled in 1.5 s (1 compilation), kept in memory only (see the warning above)"


def test_the_engine_compiling_on_a_first_request_writes_answers_only_on_stdout(tmp_path: Path) -> None:
    """``kubasolve engine`` on a cache without a kernel it needs: the notice goes to stderr (once, and the compile
    time at the end), stdout holds the answers and nothing else, a frontend reading it line by line parses each."""
    import json
    import shutil

    import kubasolve.kernels

    cache = tmp_path / "cache"
    warm = kubasolve.kernels.numba_cache_dir()  # this run's kernels: only the one removed below is compiled
    if warm.is_dir():
        shutil.copytree(warm, cache / "numba")
    for f in (cache / "numba").rglob("rummikub_dp.upper_potential-*"):  # a kernel every Rummikub solve runs
        f.unlink()
    requests = [{"id": 1, "cmd": "rummikub.solve", "params": {"table": [["r1", "r2", "r3"]], "rack": ["r4", "J"]}},
                {"id": 2, "cmd": "rummikub.solve", "params": {"table": [], "rack": ["r4", "r5", "r6"]}}]
    proc = subprocess.run([sys.executable, "-m", "kubasolve", "engine"], input="".join(json.dumps(r) + "\n" for r in requests),
                          capture_output=True, text=True, env=_env(tmp_path), timeout=600, check=False)
    assert proc.returncode == 0, proc.stderr
    answers = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [a["id"] for a in answers] == [1, 2] and all(a["ok"] for a in answers), proc.stdout
    notices = proc.stderr.splitlines()
    assert len(notices) == 2, proc.stderr
    assert notices[0].startswith("kubasolve: compiling kernels, once (cached in ") and "kernels compiled in" in notices[1]
