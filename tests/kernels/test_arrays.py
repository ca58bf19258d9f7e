"""The kernels' array-copy helpers against numpy slicing."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from kubasolve.kernels.arrays import copy_prefix, copy_prefix_rows


@settings(max_examples=50, deadline=None)
@given(values=st.lists(st.integers(-(2**31), 2**31 - 1), max_size=40), data=st.data())
def test_copy_prefix_equals_slice_assignment(values, data):
    src = np.array(values, np.int64)
    n = data.draw(st.integers(0, len(values)))
    dst = np.full(len(values) + 3, 7, np.int64)
    expected = dst.copy()
    expected[:n] = src[:n]
    copy_prefix(dst, src, n)
    assert dst.tolist() == expected.tolist()


@settings(max_examples=50, deadline=None)
@given(rows=st.integers(0, 8), cols=st.integers(1, 5), data=st.data())
def test_copy_prefix_rows_equals_slice_assignment(rows, cols, data):
    src = np.arange(rows * cols, dtype=np.uint8).reshape(rows, cols)
    n = data.draw(st.integers(0, rows))
    dst = np.full((rows + 2, cols), 255, np.uint8)
    expected = dst.copy()
    expected[:n] = src[:n]
    copy_prefix_rows(dst, src, n)
    assert dst.tolist() == expected.tolist()
