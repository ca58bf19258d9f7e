"""``import kubasolve`` stays cheap: no numba, no word list, no compilation."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


def _run(code: str, env: dict[str, str] | None = None) -> dict[str, object]:
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_import_kubasolve_imports_no_numba() -> None:
    out = _run(
        "import json, sys, kubasolve; kubasolve.__version__; kubasolve.LexiconError; "
        "print(json.dumps({'numba': 'numba' in sys.modules, 'lexicon': 'kubasolve.lexicon' in sys.modules, "
        "'kernels': any(m.startswith('kubasolve.kernels') for m in sys.modules)}))"
    )
    assert out == {"numba": False, "lexicon": False, "kernels": False}


def test_warm_load_imports_no_numba(nl: object, session_cache: Path) -> None:
    """Loading a cached lexicon only memory-maps files: numba is not even imported."""
    env = {**os.environ, "KUBASOLVE_CACHE_DIR": str(session_cache)}
    out = _run(
        "import json, sys, kubasolve; lex = kubasolve.load_lexicon('nl'); "
        "print(json.dumps({'numba': 'numba' in sys.modules, 'from_cache': lex.from_cache, 'ok': 'kroegentocht' in lex}))",
        env=env,
    )
    assert out == {"numba": False, "from_cache": True, "ok": True}


@pytest.mark.parametrize("module", ["kubasolve.lexicon", "kubasolve.cli.main"])
def test_other_light_imports(module: str) -> None:
    out = _run(f"import json, sys, {module}; print(json.dumps('numba' in sys.modules))")
    assert out is False
