"""The colonii kernels compile for one type signature each on the install's commands (kubasolve.prebuild.WORKLOAD):
``pack_cards`` was compiled twice, for int16 card counts (word-search lengths) and int64 ones (a hand, an
extension), a second compilation every first run paid."""

from __future__ import annotations

import contextlib
import io

from numba.core.registry import CPUDispatcher

from kubasolve.cli.main import main
from kubasolve.kernels import colonii_search
from kubasolve.prebuild import WORKLOAD


def test_each_colonii_kernel_has_one_signature() -> None:
    for argv in WORKLOAD["colonii"]:
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(argv) == 0
    kernels = {name: value for name, value in vars(colonii_search).items() if isinstance(value, CPUDispatcher)}
    used = {name: [str(s) for s in k.signatures] for name, k in kernels.items() if k.signatures}
    assert "pack_cards" in used and "best_turn" in used
    assert {name: sigs for name, sigs in used.items() if len(sigs) > 1} == {}
