"""Wheel build hook: compile the kernels and the bundled lexicons once, at install (issue 23).

``pip install .`` builds a wheel on the machine it installs on; this hook runs ``python -m
kubasolve.prebuild`` (every game's first commands, twice, in fresh processes with an empty cache) and
ships the resulting kernel files and compiled lexicons in the wheel as ``kubasolve/_prebuilt``. The
first run seeds the user's cache from them (``kubasolve/kernels/prebuilt.py``), so a new user's first
command starts warm instead of compiling for 7-21 s. The wheel then carries machine code, so it is
tagged for this Python and platform, not ``py3-none-any``.

Skipped for editable installs (the sources change under them) and when ``KUBASOLVE_PREBUILD=0``
(e.g. a wheel built for other machines). If the prebuild fails, the wheel is built without it (or
with what it built) and the rest is built on first use, as before; the reason is printed.
"""

from __future__ import annotations

import inspect
import os
import shutil
import subprocess
import sys
import tempfile
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


def _skipped() -> bool:
    """No prebuild: asked so (``KUBASOLVE_PREBUILD=0``), or the frontend is preparing an editable install
    (hatchling's ``get_requires_for_build_editable`` is asking for build requirements)."""
    if os.environ.get("KUBASOLVE_PREBUILD", "1") == "0":
        return True
    return any(frame.function == "get_requires_for_build_editable" for frame in inspect.stack(0))


class PrebuildHook(BuildHookInterface):  # type: ignore[misc]
    PLUGIN_NAME = "custom"

    def dependencies(self) -> list[str]:
        """The prebuild runs kubasolve, so a wheel's build environment needs its runtime dependencies; an
        editable install's does not (no prebuild there), which keeps ``pip install -e .`` as light as before."""
        return [] if _skipped() else list(self.metadata.core.dependencies)

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        self._staging: str | None = None
        if self.target_name != "wheel" or version == "editable" or _skipped():
            return
        staging = tempfile.mkdtemp(prefix="kubasolve-prebuilt-")
        out = os.path.join(staging, "_prebuilt")
        env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "KUBASOLVE_CACHE_DIR")}
        env["PYTHONPATH"] = os.pathsep.join(p for p in (self.root, os.environ.get("PYTHONPATH", "")) if p)
        print("kubasolve: compiling the kernels and bundled lexicons for this machine, once (1-3 min) ...", file=sys.stderr)
        proc = subprocess.run([sys.executable, "-m", "kubasolve.prebuild", out], check=False, cwd=self.root, env=env)
        if not os.path.isfile(os.path.join(out, "manifest.json")):
            print("kubasolve: the prebuild failed (see above); the wheel is built without it and the first runs "
                  "compile instead", file=sys.stderr)
            shutil.rmtree(staging, ignore_errors=True)
            return
        if proc.returncode != 0:
            print("kubasolve: some prebuild commands failed (listed above); what they did not compile is compiled "
                  "on first use", file=sys.stderr)
        self._staging = staging
        build_data["force_include"][out] = "kubasolve/_prebuilt"
        build_data["pure_python"] = False
        build_data["infer_tag"] = True

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        if getattr(self, "_staging", None):
            shutil.rmtree(self._staging, ignore_errors=True)
