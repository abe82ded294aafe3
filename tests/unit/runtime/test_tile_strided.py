"""Strided tensors in the tile runtime (docs/tile-runtime.md): the emulator takes numpy arrays with any
non-negative strides (a transposed B, a column slice, a strided output) and computes what numpy does."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import oxide
from oxide.runtime.errors import KernelArgumentError
from oxide.runtime.module import Module
from oxide.runtime.tile import partition

EXAMPLES = Path(__file__).parents[3] / "examples" / "tile"
RNG = np.random.default_rng(1820)


@pytest.fixture(scope="module")
def gemm() -> Module:
    source = (EXAMPLES / "gemm.rs").read_text()
    compiled = oxide.compile(source, "gemm.rs", chip="sm_90a", instances={"gemm": [["64", "64", "64"]]})
    return Module(compiled.artifact(), "cpu")


def _bf16(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    patterns = (x.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    return patterns, (patterns.astype(np.uint32) << 16).view(np.float32)


def test_transposed_b_column_sliced_a_and_a_strided_output(gemm):
    a, a_values = _bf16(RNG.standard_normal((70, 90)))
    bt, bt_values = _bf16(RNG.standard_normal((66, 72)))  # B = bt.T: K innermost, strides (1, 72)
    backing = np.full((70, 2 * 66), np.nan, dtype=np.float32)
    c = backing[:, ::2]  # every other column: strides (132, 2) in elements
    gemm.gemm(partition(c, (64, 64)), a[:, 5:77], bt.T)
    np.testing.assert_allclose(c, a_values[:, 5:77].astype(np.float64) @ bt_values.T.astype(np.float64),
                               rtol=1e-4, atol=1e-4 * np.sqrt(72))
    assert np.isnan(backing[:, 1::2]).all()  # the other columns are untouched


def test_an_output_whose_elements_overlap_is_refused(gemm):
    a, _ = _bf16(RNG.standard_normal((64, 64)))
    c = np.lib.stride_tricks.as_strided(np.zeros(64, np.float32), (64, 64), (4, 4))  # rows overlap
    with pytest.raises(KernelArgumentError, match="make elements overlap"):
        gemm.gemm(partition(c, (64, 64)), a, a)
