"""Tile loads and stores at a tensor's edge: one masked access per run of a thread's contiguous elements
(simt.masked_load / masked_store), a vector access for the runs wholly inside, and nothing read or written
past the edge, for contiguous, misaligned and strided views."""

from __future__ import annotations

import numpy as np
import pytest

from oxide.dialects import simt
from tests.unit.passes.conversion.tile_to_simt.harness import lower, module_text, run_tile, strided_view

RNG = np.random.default_rng(18)


def _copy(elem: str = "f32", shape: tuple[int, int] = (16, 64)) -> str:
    """z's tile (bx, by) = x's tile (bx, by) doubled."""
    tile, view = f"tensor<{shape[0]}x{shape[1]}x{elem}>", f"!tile.view<{elem}, array<i64: -1, -1>>"
    part, own = (f"!tile.partition<{elem}, array<i64: {shape[0]}, {shape[1]}>>",
                 f"!tile.view_mut<{elem}, array<i64: {shape[0]}, {shape[1]}>>")
    return module_text(f"""    gpu.func @k(%z: {own}, %x: {view}) kernel attributes {{tile.warps = 4 : i32}} {{
      %bx = "tile.block_id"() {{axis = "x"}} : () -> i32
      %by = "tile.block_id"() {{axis = "y"}} : () -> i32
      %p = "tile.make_partition"(%x) : ({view}) -> {part}
      %a = "tile.load"(%p, %bx, %by) : ({part}, i32, i32) -> {tile}
      %r = arith.addf %a, %a : {tile}
      "tile.store_own"(%z, %r) : ({own}, {tile}) -> ()
      gpu.return
    }}""")


@pytest.mark.parametrize("m,n,inner,offset", [(37, 101, 1, 0), (37, 101, 1, 1), (20, 61, 3, 2), (16, 64, 1, 0)])
def test_a_ragged_tile_reads_zero_and_writes_nothing_past_the_edge(m, n, inner, offset):
    # inner > 1: a strided innermost dimension (no vector access anywhere; every run is masked at the edge).
    pitch = (n + 5) * inner
    x = np.full(offset + m * pitch, np.nan, np.float32)
    z = np.full(offset + m * pitch, 3.0, np.float32)
    data = RNG.standard_normal((m, n)).astype(np.float32)
    for i in range(m):
        x[offset + i * pitch: offset + i * pitch + n * inner: inner] = data[i]
    grid = [-(-m // 16), -(-n // 64)]
    run_tile(_copy(), "k", grid, [*strided_view(z, (m, n), (pitch, inner), offset),
                                  *strided_view(x, (m, n), (pitch, inner), offset)])
    written = np.zeros_like(z, bool)
    for i in range(m):
        got = z[offset + i * pitch: offset + i * pitch + n * inner: inner]
        np.testing.assert_array_equal(got, 2 * data[i])
        written[offset + i * pitch: offset + i * pitch + n * inner: inner] = True
    assert (z[~written] == 3.0).all()


def test_16_bit_runs_of_eight_are_masked_at_the_edge():
    m, n = 9, 75
    data = RNG.standard_normal((m, n)).astype(np.float16)
    z = np.full((m, n), 1.0, np.float16)
    run_tile(_copy("f16"), "k", [1, 2], [*strided_view(z.reshape(-1), (m, n), (n, 1)),
                                        *strided_view(data.reshape(-1), (m, n), (n, 1))])
    np.testing.assert_array_equal(z, data + data)


def test_the_edge_path_has_one_branch_per_run_not_per_element():
    text = lower(_copy())
    runs = 16 * 64 // 128 // 4  # elements per thread / 4-element runs
    assert text.count(f'"{simt.MaskedLoadOp.OPERATION_NAME}"') == runs
    assert text.count(f'"{simt.MaskedStoreOp.OPERATION_NAME}"') == runs
    # per tile access: the whole-tile test; per run at the edge: the vector-or-masked choice
    assert text.count("scf.if") == 2 * (1 + runs)
