"""Suite-wide settings: under CI, hypothesis runs derandomised so main's result is reproducible.

Locally (no ``CI`` variable) hypothesis keeps drawing fresh examples on every run, which is how new
counterexamples are found; set ``HYPOTHESIS_PROFILE=ci`` to reproduce a CI run exactly.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("dev", print_blob=True)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
