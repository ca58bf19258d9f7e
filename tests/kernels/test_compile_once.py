"""Each kernel compiles once: no constant reaches a non-inlined kernel function as a literal (issue 23).

numba types a constant argument of a call between jitted functions as a literal and compiles the
callee for it apart: ``f(x, 0)`` and ``f(x, n)`` are two compilations (``f(x, np.int64(0))`` is one),
and so is a counter that starts as ``n = 0`` while type inference still sees the literal. Such copies
cost 1-7 s each on a first run (scan_state three times: 21 s of 144 s for every game's first
commands). This reads the kernels' source: every argument of a call to a non-inlined ``@njit``
function of ``kubasolve/kernels`` must not be a constant, a module constant, or a local name ever
bound to a constant (typed values such as ``np.int64(0)`` are fine).
"""

from __future__ import annotations

import ast
from collections.abc import Collection
from pathlib import Path

import kubasolve.kernels

KERNELS = Path(kubasolve.kernels.__file__).parent

WANTED = {("word_search.py", "_search", "fast"), ("crossword_endgame.py", "_collect", "copy")}
"""Literals compiled in on purpose: (file, callee, parameter). ``_search``'s ``fast`` flag makes the
all-words walk a specialisation of its own (9-11% faster, docs in word_search.py). The endgame's
``_collect`` is compiled for ``copy`` True and False as measured by its branch (two copies: the horizon's
count-only collection and the copying one); not re-measured as one runtime flag."""


def _is_constant(node: ast.expr, constants: Collection[str] = ()) -> bool:
    """A literal number or bool, or (with ``constants``) a name of one such as a module constant (``PASS = -1``)."""
    if isinstance(node, ast.Name):
        return node.id in constants
    if isinstance(node, ast.Constant):
        return isinstance(node.value, (bool, int, float))
    if isinstance(node, ast.UnaryOp):
        return _is_constant(node.operand, constants)
    if isinstance(node, ast.BinOp):
        return _is_constant(node.left, constants) and _is_constant(node.right, constants)
    return False


def _jitted(tree: ast.Module) -> dict[str, tuple[bool, list[str]]]:
    """``{name: (inlined, parameter names)}`` of the module's ``@njit`` functions."""
    out = {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            for deco in node.decorator_list:
                if isinstance(deco, ast.Call) and getattr(deco.func, "id", None) == "njit":
                    inline = any(k.arg == "inline" and getattr(k.value, "value", None) == "always" for k in deco.keywords)
                    out[node.name] = (inline, [a.arg for a in node.args.args])
    return out


def _bound_to_constants(scope: ast.AST, constants: Collection[str] = ()) -> set[str]:
    """Names ``scope`` binds to a constant, or to a name of ``constants`` (``best = PASS`` with ``PASS = -1``: numba
    types ``best`` as the literal -1 where no other value reaches it)."""
    names: set[str] = set()
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign):
            pairs: list[tuple[ast.expr, ast.expr]] = []
            for target in node.targets:
                if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple):
                    pairs.extend(zip(target.elts, node.value.elts))
                else:
                    pairs.append((target, node.value))
            names.update(t.id for t, v in pairs if isinstance(t, ast.Name) and _is_constant(v, constants))
    return names


def literal_arguments() -> list[str]:
    """Every call of a non-inlined kernel function with a literal argument, as ``file:line callee(param=...)``."""
    trees = {path.name: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(KERNELS.glob("*.py"))}
    jitted = {name: _jitted(tree) for name, tree in trees.items()}
    found = []
    for file, tree in trees.items():
        callees = dict(jitted[file])
        for node in tree.body:  # kernels imported from sibling modules
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("kubasolve.kernels."):
                sibling = jitted.get(node.module.rsplit(".", 1)[1] + ".py", {})
                callees.update({alias.asname or alias.name: sibling[alias.name] for alias in node.names if alias.name in sibling})
        module_constants = _bound_to_constants(ast.Module(body=[n for n in tree.body if isinstance(n, ast.Assign)], type_ignores=[]))
        for func in tree.body:
            if not (isinstance(func, ast.FunctionDef) and func.name in jitted[file]):
                continue
            local_constants = _bound_to_constants(func, module_constants) | module_constants
            for call in ast.walk(func):
                if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Name) and call.func.id in callees):
                    continue
                inline, params = callees[call.func.id]
                if inline:
                    continue
                given = [(params[i] if i < len(params) else str(i), a) for i, a in enumerate(call.args)]
                given += [(k.arg or "**", k.value) for k in call.keywords]
                for param, arg in given:
                    literal = _is_constant(arg) or (isinstance(arg, ast.Name) and arg.id in local_constants)
                    if literal and (file, call.func.id, param) not in WANTED:
                        found.append(f"{file}:{call.lineno} {call.func.id}({param}={ast.unparse(arg)})")
    return found


def test_no_literal_reaches_a_kernel_function() -> None:
    assert literal_arguments() == []


def test_the_check_sees_literals() -> None:
    """The checker itself: a constant, a module constant and a counter bound to a constant are found."""
    source = (
        "LIMIT = 1 << 62\n"
        "@njit(cache=True)\ndef helper(a, b, c):\n    return a\n"
        "@njit(cache=True, inline='always')\ndef tiny(a):\n    return a\n"
        "@njit(cache=True)\ndef caller(x):\n    n = 0\n    n += x\n    m = np.int64(0)\n    k = LIMIT\n"
        "    return helper(x, 0, n) + helper(x, LIMIT, m) + helper(k, m, m) + tiny(0)\n"
    )
    tree = ast.parse(source)
    jitted = _jitted(tree)
    assert jitted["tiny"][0] and not jitted["helper"][0]
    assert _bound_to_constants(tree.body[-1]) == {"n"}
    assert _bound_to_constants(tree.body[-1], {"LIMIT"}) == {"n", "k"}  # k = LIMIT: a literal where nothing else reaches k
    assert {"LIMIT"} <= _bound_to_constants(ast.Module(body=[tree.body[0]], type_ignores=[]))
