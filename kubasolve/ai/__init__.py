"""Deprecated home of the AIs: each game's AIs now live in its own package (``kubasolve.games.<game>.ai``; the
crossword endgame solver in ``kubasolve.games.crossword.endgame``), so no game imports up the layers.

``import kubasolve.ai.<game>`` keeps working for one release: it gives the new module, with a
:class:`DeprecationWarning`.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings
from types import ModuleType
from typing import Any

MOVED = {
    "kubagram": "kubasolve.games.kubagram.ai",
    "crossword": "kubasolve.games.crossword.ai",
    "crossword_endgame": "kubasolve.games.crossword.endgame",
    "crossword_leaves": "kubasolve.games.crossword.leaves",
    "crossword_sim": "kubasolve.games.crossword.sim",
    "crossword_learn": "kubasolve.games.crossword.learn",
    "crossword_ladder": "kubasolve.games.crossword.ladder",
    "colonii": "kubasolve.games.colonii.ai",
    "rummikub": "kubasolve.games.rummikub.ai",
    "scruble": "kubasolve.games.scruble.ai",
}
"""Old module name -> where it lives now."""


class _MovedModules(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Finds ``kubasolve.ai.<old>`` and hands out the module it became."""

    def find_spec(self, name: str, path: Any = None, target: Any = None) -> Any:
        prefix, _, short = name.rpartition(".")
        if prefix == __name__ and short in MOVED:
            moved = importlib.util.find_spec(MOVED[short])  # its file, for python -m's argv[0]
            return importlib.util.spec_from_loader(name, self, origin=moved.origin if moved else None)
        return None

    def create_module(self, spec: Any) -> ModuleType:
        new = MOVED[spec.name.rpartition(".")[2]]
        warnings.warn(f"{spec.name} moved to {new}; the old name goes away in the next release", DeprecationWarning, stacklevel=2)
        return importlib.import_module(new)

    def exec_module(self, module: ModuleType) -> None:
        """The module is the new one, already executed."""

    def get_code(self, fullname: str) -> Any:
        """``python -m kubasolve.ai.<old>`` runs the new module's code (runpy asks the loader for it)."""
        new = MOVED[fullname.rpartition(".")[2]]
        warnings.warn(f"{fullname} moved to {new}; the old name goes away in the next release", DeprecationWarning, stacklevel=2)
        spec = importlib.util.find_spec(new)
        assert spec is not None and spec.loader is not None
        return spec.loader.get_code(new)  # type: ignore[attr-defined]

    def is_package(self, fullname: str) -> bool:
        return False


if not any(isinstance(finder, _MovedModules) for finder in sys.meta_path):
    sys.meta_path.append(_MovedModules())
