"""No import runs up the layers (docs/protocol.md, "Layers"): every ``import`` in the package, at module level or
inside a function, is read from the source (ast) and checked against the layer of the module that holds it.

kernels < lexicon < games (each game's rules, solvers, AIs and protocol) < scale < cli, engine, bench.
``errors``, ``budget``, ``stats`` and ``files`` sit below everything but the kernels, which import nothing of the package.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "kubasolve"

LAYERS: dict[str, int] = {
    "kernels": 0,
    "errors": 1,
    "budget": 1,
    "stats": 1,
    "files": 1,  # reading a file a user named: errors only
    "lexicon": 2,
    "games": 3,
    "ai": 3,  # the deprecated aliases of the moved AIs (kubasolve.ai.<game> -> kubasolve.games.<game>.ai)
    "scale": 4,
    "bench": 5,
    "cli": 5,
    "engine": 5,
    "__init__": 6,
    "__main__": 6,
    "prebuild": 6,  # the install-time build: runs CLI and engine commands
}
"""Top-level part of ``kubasolve`` -> its layer; a module imports only from its own layer or those below."""


KNOWN_UPWARD: set[tuple[str, str]] = set()
"""Upward imports not yet removed, each named (none left)."""


def layer_of(module: str) -> int:
    """The layer of ``kubasolve.<part>...``."""
    part = module.split(".")[1] if "." in module else "__init__"
    return LAYERS[part]


def imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import of a ``kubasolve`` module in the file."""
    module = "kubasolve." + ".".join(path.relative_to(PACKAGE).with_suffix("").parts)
    return imports_in(path.read_text(encoding="utf-8"), module.removesuffix(".__init__"), path.name == "__init__.py")


def imports_in(source: str, module: str, is_package: bool = False) -> list[tuple[int, str]]:
    """(line, module) of every import of a ``kubasolve`` module in ``source`` (the module ``module``), relative
    imports resolved; ``from kubasolve import __version__`` (metadata) is no import of a layer."""
    package = module if is_package else module.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name.startswith("kubasolve")]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parent + ([base] if base else []))
            if base == "kubasolve":  # from kubasolve import x: the submodule x, or a name of the facade
                out += [(node.lineno, f"kubasolve.{a.name}" if a.name in LAYERS else "kubasolve") for a in node.names
                        if a.name != "__version__"]
            elif base.startswith("kubasolve."):
                out.append((node.lineno, base))
    return out


def test_every_part_of_the_package_has_a_layer() -> None:
    parts = {p.stem if p.is_file() else p.name for p in PACKAGE.iterdir() if (p.suffix == ".py" or (p / "__init__.py").exists())}
    assert parts <= set(LAYERS), f"give these a layer: {sorted(parts - set(LAYERS))}"


def test_no_import_runs_up_the_layers() -> None:
    upward = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE.parent)
        module = ".".join(rel.with_suffix("").parts)
        mine = layer_of(module)
        for line, target in imports(path):
            theirs = layer_of(target)
            if theirs > mine and (str(rel), target) not in KNOWN_UPWARD:
                upward.append(f"{rel}:{line} imports {target}")
    assert not upward, "imports up the layers:\n" + "\n".join(upward)


def test_kernels_import_nothing_of_the_package_but_kernels() -> None:
    for path in sorted((PACKAGE / "kernels").rglob("*.py")):
        outside = [t for _, t in imports(path) if not t.startswith("kubasolve.kernels")]
        assert not outside, f"{path.name} imports {outside}"


def test_a_game_never_imports_another_game() -> None:
    """Each game is one package over the shared core: ``games/<a>`` does not reach into ``games/<b>``."""
    games = PACKAGE / "games"
    for path in sorted(games.rglob("*.py")):
        own = path.relative_to(games).parts
        if len(own) < 2:
            continue  # the protocol and shared helpers of kubasolve.games
        for line, target in imports(path):
            parts = target.split(".")
            if len(parts) > 2 and parts[1] == "games" and (games / parts[2]).is_dir() and parts[2] != own[0]:
                raise AssertionError(f"{path.relative_to(PACKAGE)}:{line} imports {target}")


def test_the_checker_sees_function_level_and_relative_imports() -> None:
    source = ("from .game import x\nfrom kubasolve import __version__\n\ndef f():\n"
              "    from kubasolve.engine.server import handle_request\n    import kubasolve.cli.main\n")
    found = sorted(m for _, m in imports_in(source, "kubasolve.games.nim.protocol"))
    assert found == ["kubasolve.cli.main", "kubasolve.engine.server", "kubasolve.games.nim.game"]
    assert [layer_of(m) > layer_of("kubasolve.games.nim.protocol") for m in found] == [True, True, False]


def test_old_ai_module_names_import_and_run_for_one_release() -> None:
    """The AIs moved into their games' packages; ``import kubasolve.ai.<old>`` gives the new module with a
    DeprecationWarning, and ``python -m kubasolve.ai.<old>`` runs the new module (it failed with a traceback)."""
    import importlib
    import subprocess
    import sys
    import warnings

    from kubasolve.ai import MOVED

    for old, new in MOVED.items():
        fresh = f"kubasolve.ai.{old}" not in sys.modules
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            module = importlib.import_module(f"kubasolve.ai.{old}")
        assert module is importlib.import_module(new)
        assert not fresh or any(issubclass(w.category, DeprecationWarning) and new in str(w.message) for w in caught)
    run = subprocess.run([sys.executable, "-m", "kubasolve.ai.crossword_ladder", "--help"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0 and "records" in run.stdout, run.stderr[-1500:]
