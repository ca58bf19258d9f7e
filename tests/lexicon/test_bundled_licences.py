"""Issue 22: every bundled word list ships its licence text, and the package metadata covers what it ships."""

from __future__ import annotations

import fnmatch
import tomllib
from pathlib import Path

from packaging.licenses import canonicalize_license_expression

from kubasolve.lexicon.bundled import BUNDLED, wordlist_dir

ROOT = Path(__file__).resolve().parents[2]
SPDX_OF_LIST = {"nl": "(BSD-3-Clause OR CC-BY-3.0)", "ro": "MPL-1.1", "en": "LicenseRef-SCOWL", "es": "LicenseRef-Public-Domain"}


def project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_every_bundled_list_has_its_licence_in_the_metadata() -> None:
    meta = project()
    expression = canonicalize_license_expression(meta["license"])
    assert expression.startswith("MIT AND ")
    assert set(BUNDLED) == set(SPDX_OF_LIST)
    for name, spdx in SPDX_OF_LIST.items():
        assert spdx in expression, name
        copyright_file = f"wordlists/{name}/COPYRIGHT"
        assert (ROOT / copyright_file).is_file()
        assert any(fnmatch.fnmatch(copyright_file, pattern) for pattern in meta["license-files"]), copyright_file


def test_romanian_list_ships_the_full_mpl_text() -> None:
    text = (wordlist_dir() / "ro" / "MPL-1.1.txt").read_text(encoding="utf-8")
    assert "MOZILLA PUBLIC LICENSE" in text and "Version 1.1" in text
    for section in ("1. Definitions.", "3. Distribution Obligations.", "EXHIBIT A -Mozilla Public License."):
        assert section in text
    assert "wordlists/ro/MPL-1.1.txt" in project()["license-files"]
    assert "MPL-1.1.txt" in BUNDLED["ro"].licence
