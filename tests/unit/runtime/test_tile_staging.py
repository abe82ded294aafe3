"""Staged operands (oxide/runtime/staging.py), on the GPU path against the fake driver: an sm_90a GEMM whose B
and C rows TMA cannot read (200 bytes) launches its TMA entry on padded copies: per launch, a buffer for each,
filled from the tensor, the kernel given the buffers' pointers and strides, the output copied back, the buffers
freed; with staging off, or for a tensor whose rows are not one pitch-linear region, the mma.sync sibling runs."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import oxide.tile
from oxide.runtime import staging, tile_marshal
from oxide.runtime.module import load
from oxide.runtime.stream import Stream

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "tile_sm90a" / "gemm_precisions.oxide.json"
ENTRY = "gemm_bf16_bf16_128_128_64"
M, N, K = 200, 100, 64  # rows of B and C: 100 bf16, 200 bytes; A's rows (128 bytes) TMA reads as they are


@pytest.fixture
def gemm(fake, monkeypatch):
    """The bf16 GEMM instance on the fake driver, its tensor maps encoded as their address (no driver)."""
    monkeypatch.setattr(tile_marshal.TensorMap, "descriptor", lambda m: m.address.to_bytes(8, "little") * 16)
    mod = load(FIXTURE, target="gpu")
    rng = np.random.default_rng(3)
    a, b, c = (mod.to_device(rng.integers(0, 2**16, shape, dtype=np.uint16)) for shape in ((M, K), (K, N), (M, N)))
    return mod, a, b, c


class _StridedView:
    """A strided uint16 GPU array as CuPy/PyTorch present one (strides in bytes)."""

    def __init__(self, ptr: int, shape: tuple[int, ...], strides: tuple[int, ...]):
        self.__cuda_array_interface__ = {"data": (ptr, False), "shape": shape, "typestr": "<u2",
                                         "strides": strides, "version": 3}


def _pointer_and_strides(launch: dict, first: int, rank: int = 2) -> tuple[int, list[int]]:
    params = launch["params"]
    return params[first], params[first + 1 + rank:first + 1 + 2 * rank]


def test_rows_tma_cannot_read_are_staged_into_padded_buffers(fake, gemm):
    mod, a, b, c = gemm
    getattr(mod, ENTRY)(oxide.tile.partition(c, (128, 128)), a, b)
    launch = fake.launches[-1]
    assert launch["entry"] == ENTRY  # the TMA entry, not its mma.sync sibling
    c_ptr, c_strides = _pointer_and_strides(launch, 0)
    a_ptr, a_strides = _pointer_and_strides(launch, 5)
    b_ptr, b_strides = _pointer_and_strides(launch, 10)
    assert (a_ptr, a_strides) == (a.ptr, [K, 1])
    assert c_ptr != c.ptr and b_ptr != b.ptr and c_strides == b_strides == [104, 1]  # 208-byte rows
    # B filled, then C copied back (every block stores its tile of C: no filling): 200 bytes a row between
    # pitches of 200 and 208 bytes.
    assert [copy[:-1] for copy in fake.copies] == [(b.ptr, b_ptr, 200, 208, 200, K), (c_ptr, c.ptr, 208, 200, 200, M)]
    assert c_ptr not in fake.memory and b_ptr not in fake.memory  # both buffers freed


def test_an_output_not_stored_whole_is_filled_first_and_comes_back_as_it_was(fake, gemm, monkeypatch):
    """Without the artifact's word that every block stores its tile, C's buffer is filled from C before the
    launch, so that the copy back returns what the kernel did not write (the fake kernel writes nothing)."""
    mod, a, b, c = gemm
    kernel = getattr(mod, ENTRY)
    monkeypatch.delitem(kernel.spec.tile, "stores_whole")
    before = c.get()
    kernel(oxide.tile.partition(c, (128, 128)), a, b)
    c_ptr = fake.launches[-1]["params"][0]
    assert [copy[:2] for copy in fake.copies] == [(b.ptr, fake.launches[-1]["params"][10]), (c.ptr, c_ptr),
                                                  (c_ptr, c.ptr)]
    np.testing.assert_array_equal(c.get(), before)


def test_each_stream_ordered_launch_stages_into_buffers_of_its_own(fake, gemm):
    mod, a, b, c = gemm
    stream = Stream(mod.device)
    for _ in range(3):
        getattr(mod, ENTRY)[(2, 1, 1), stream](oxide.tile.partition(c, (128, 128)), a, b)
    assert len(fake.launches) == 3 and all(launch["entry"] == ENTRY for launch in fake.launches)
    assert len(fake.copies) == 6 and all(copy[-1] == stream.handle for copy in fake.copies)
    stream.close()


def test_staging_off_takes_the_mma_sync_sibling(fake, gemm, monkeypatch):
    monkeypatch.setenv("OXIDE_STAGE_OPERANDS", "0")
    mod, a, b, c = gemm
    getattr(mod, ENTRY)(oxide.tile.partition(c, (128, 128)), a, b)
    assert fake.launches[-1]["entry"] == ENTRY + "$mma_sync" and fake.copies == []


def test_rows_that_are_not_one_region_are_not_staged(fake, gemm):
    """Every other column of a wider B: its innermost stride is 2, so no pitched copy makes its rows."""
    mod, a, _, c = gemm
    wide = mod.to_device(np.zeros((K, 2 * N), np.uint16))
    every_other = _StridedView(wide.ptr, (K, N), (4 * N, 4))
    getattr(mod, ENTRY)(oxide.tile.partition(c, (128, 128)), a, every_other)
    assert fake.launches[-1]["entry"] == ENTRY + "$mma_sync" and fake.copies == []


@pytest.mark.parametrize("shape, strides, staged", [
    ((4, 50), (50, 1), (4, 200, 200, 208, (52, 1))),
    ((3, 5, 7), (35, 7, 1), (15, 28, 28, 32, (40, 8, 1))),  # the outer dimensions collapse into rows
    ((5, 7), (9, 1), (5, 28, 36, 32, (8, 1))),  # a column slice: the rows keep their own pitch
    ((3, 5, 7), (70, 7, 1), None),  # batches apart: not one pitch-linear region
    ((5, 7), (1, 5), None),  # column-major
])
def test_plan(shape, strides, staged):
    plan = staging.plan(0, 4096, shape, strides, np.dtype(np.float32), False, False, False)
    if staged is None:
        assert plan is None
        return
    rows, row_bytes, pitch, padded, buffer_strides = staged
    assert (plan.rows, plan.row_bytes, plan.pitch, plan.padded, plan.buffer_strides()) == (
        rows, row_bytes, pitch, padded, buffer_strides)
