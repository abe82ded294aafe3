"""A 2-D TMA box copy on the GPU (kernel: tests/gpu/kernels/tma_copy.rs): the tensor maps travel as 128-byte
grid-constant parameters, the box loaded into shared memory is written out by every thread, and a TMA store
writes it back into a second tensor at the same coordinates. Both are checked with numpy, including a box
that hangs over the tensor's edge (zero fill on load, clipped on store). Without a GPU these tests skip."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

SOURCE = Path(__file__).resolve().parent / "kernels" / "tma_copy.rs"
ROWS, COLS = 16, 32


@pytest.fixture(scope="module")
def module(cuda):
    import oxide

    return oxide.load(SOURCE, target="gpu", chips=["sm_90a"])


@pytest.mark.parametrize("row0, col0", [(0, 0), (16, 32), (56, 48)])
def test_box_copy_round_trip(module, row0, col0):
    from oxide.runtime import TensorMap, to_device

    host = np.arange(64 * 80, dtype=np.float32).reshape(64, 80)
    src, dst = to_device(host), to_device(np.zeros_like(host))
    out = np.zeros(ROWS * COLS, np.float32)
    module.tma_box.unchecked[1, ROWS * COLS](TensorMap(src, (ROWS, COLS)), TensorMap(dst, (ROWS, COLS)), out,
                                             col0, row0)
    box = np.zeros((ROWS, COLS), np.float32)
    inside = host[row0:row0 + ROWS, col0:col0 + COLS]
    box[:inside.shape[0], :inside.shape[1]] = inside
    np.testing.assert_array_equal(out.reshape(ROWS, COLS), box)
    expected = np.zeros_like(host)
    expected[row0:row0 + ROWS, col0:col0 + COLS] = inside
    np.testing.assert_array_equal(dst.get(), expected)
