"""Issue 21: "a user script using the README's API tour type-checks under mypy --strict" (the top-level names are
exported statically, ``kubasolve.games.scruble`` exports what the docs import)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import kubasolve

ROOT = Path(__file__).resolve().parents[2]


def test_the_top_level_exports_are_listed_literally() -> None:
    assert set(kubasolve.__all__) == {"__version__", *kubasolve._EXPORTS}
    for name in kubasolve._EXPORTS:
        assert getattr(kubasolve, name) is not None


def test_scruble_exports_what_the_docs_import() -> None:
    from kubasolve.games import scruble

    assert {"best_words", "Cube", "ScrubleRules", "search", "StateBudget"} <= set(scruble.__all__)
    assert scruble.best_words is scruble.solver.best_words


def test_the_readme_api_tour_type_checks_strictly(tmp_path: Path) -> None:
    tour = "\n\n".join(re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.DOTALL))
    assert "load_game" in tour and "load_lexicon" in tour
    script = tmp_path / "tour.py"
    script.write_text(tour, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-error-summary", "--cache-dir", str(tmp_path / "cache"),
                           str(script)], capture_output=True, text=True, timeout=600, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
