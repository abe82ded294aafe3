"""Straight-line tile kernels (knob `guarded`, tile_to_simt/guarded.py): a kernel that reduces gets an entry whose
loads and stores are predicated vector accesses with no branch, and its default lowering as `<name>$general`
for tensors that are not vector-ready; both compute the same, at ragged edges too."""

from __future__ import annotations

import numpy as np
import pytest

from tests.unit.passes.conversion.tile_to_simt.harness import _compiled, _entry_for, lower, module_text, run_tile, \
    strided_view

RNG = np.random.default_rng(19)
ROWS, COLS = 16, 64


def _row_sums(knob: str = "") -> str:
    """z's tile (bx, by) = x's tile (bx, by) plus the sum of its row within the tile."""
    tile, row, col = f"tensor<{ROWS}x{COLS}xf32>", f"tensor<{ROWS}xf32>", f"tensor<{ROWS}x1xf32>"
    view, part = "!tile.view<f32, array<i64: -1, -1>>", f"!tile.partition<f32, array<i64: {ROWS}, {COLS}>>"
    own = f"!tile.view_mut<f32, array<i64: {ROWS}, {COLS}>>"
    return module_text(f"""    gpu.func @k(%z: {own}, %x: {view}) kernel attributes {{tile.warps = 4 : i32}} {{
      %bx = "tile.block_id"() {{axis = "x"}} : () -> i32
      %by = "tile.block_id"() {{axis = "y"}} : () -> i32
      %p = "tile.make_partition"(%x) : ({view}) -> {part}
      %a = "tile.load"(%p, %bx, %by) : ({part}, i32, i32) -> {tile}
      %s = "tile.reduce"(%a) {{dim = 1 : i64, kind = "sum", unsigned = false}} : ({tile}) -> {row}
      %c = "tile.reshape"(%s) : ({row}) -> {col}
      %b = "tile.broadcast"(%c) : ({col}) -> {tile}
      %r = arith.addf %a, %b : {tile}
      "tile.store_own"(%z, %r) : ({own}, {tile}) -> ()
      gpu.return
    }}""")


def _entry(text: str) -> str:
    """The lowered kernel `k` (up to the next gpu.func)."""
    start = text.index("gpu.func @k(")
    end = text.find("gpu.func", start + 1)
    return text[start:end if end > 0 else None]


# Straight-line kernels are opt-in (knob guarded; measured no faster on an H200): `auto` takes a reducing kernel.
AUTO = "convert-tile-to-simt{guarded=auto}"


def test_a_reducing_kernel_is_straight_line_beside_its_default_lowering():
    text = lower(_row_sums(), AUTO)
    straight, general = _entry(text), text[text.index('gpu.func @k$general('):]
    assert 'tile.variants = [{entry = "k", vector = true}, {entry = "k$general"}]' in straight
    assert straight.count('"simt.guarded_load"') == 2 and straight.count('"simt.guarded_store"') == 2
    assert "scf.if" not in straight and '"simt.masked_load"' not in straight
    assert '"simt.guarded_load"' not in general and "scf.if" in general


def test_the_default_keeps_the_default_lowering_only():
    text = lower(_row_sums())
    assert "$general" not in text and '"simt.guarded_load"' not in text


def _expected(data: np.ndarray) -> np.ndarray:
    m, n = data.shape
    out = np.empty_like(data)
    for j in range(0, n, COLS):
        block = data[:, j:j + COLS]
        out[:, j:j + COLS] = block + block.sum(1, keepdims=True)
    return out


@pytest.mark.parametrize("m,n,offset,straight", [(37, 100, 0, True), (16, 64, 0, True), (37, 101, 0, False),
                                                  (37, 100, 1, False)])
def test_ragged_tiles_read_zero_and_write_nothing_past_the_edge(m, n, offset, straight):
    # n = 100: rows of whole 16-byte runs (the straight-line entry); 101 or a base one element off: $general.
    pitch = n
    x = np.full(offset + m * pitch, np.nan, np.float32)
    z = np.full(offset + m * pitch + 8, 3.0, np.float32)
    data = RNG.standard_normal((m, n)).astype(np.float32)
    x[offset:offset + m * n] = data.reshape(-1)
    args = [*strided_view(z, (m, n), (pitch, 1), offset), *strided_view(x, (m, n), (pitch, 1), offset)]
    assert _entry_for(_compiled(_row_sums(), AUTO)[2]["k"], args) is straight
    run_tile(_row_sums(), "k", [-(-m // ROWS), -(-n // COLS)], args, pipeline=AUTO)
    np.testing.assert_allclose(z[offset:offset + m * n].reshape(m, n), _expected(data), rtol=1e-5, atol=1e-5)
    assert (z[:offset] == 3.0).all() and (z[offset + m * n:] == 3.0).all()
