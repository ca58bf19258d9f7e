"""Numba kernels: pure functions over flat typed arrays; they import nothing else from kubasolve.

Modules here are imported lazily by the API layers, so ``import kubasolve`` never triggers JIT
compilation. Every kernel is ``@njit(cache=True)``.
"""
