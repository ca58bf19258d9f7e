"""Small array helpers for the kernels.

Why a loop and not ``dst[:n] = src[:n]``: numba compiles an array-to-slice assignment together with the code that
formats its shape-mismatch error message (string building, ~1.6 s of compilation the first time a process needs
it), which every first run of a command paid once. These loops compile in a fraction of that.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True, inline="always")
def copy_prefix(dst, src, n):
    """``dst[:n] = src[:n]`` for 1-D arrays."""
    for i in range(n):
        dst[i] = src[i]


@njit(cache=True, inline="always")
def copy_prefix_rows(dst, src, n):
    """``dst[:n] = src[:n]`` for 2-D arrays with the same row length."""
    for i in range(n):
        for j in range(src.shape[1]):
            dst[i, j] = src[i, j]
