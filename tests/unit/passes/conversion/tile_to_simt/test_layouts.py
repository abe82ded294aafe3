"""The bit layouts' Python model: blocked layouts follow their formula and cover every element exactly once
through owners; register-local remaps are found exactly when every thread already holds what it needs."""

from __future__ import annotations

import itertools

import pytest

from oxide.passes.conversion.tile_to_simt.layouts import WARP_SIZE, Bit, Layout, blocked, vector_width
from oxide.passes.conversion.tile_to_simt.reduce import drop_dim
from oxide.passes.conversion.tile_to_simt.remap import identity, local_sources

SHAPES = [(), (1,), (16,), (128,), (1024,), (4, 4), (16, 64), (64, 8), (2, 1024), (4, 8, 16), (2, 2, 2, 64)]


def _flat(coords, shape):
    index = 0
    for c, d in zip(coords, shape):
        index = index * d + c
    return index


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("warps", [1, 4, 8])
def test_blocked_owners_cover_every_element_once(shape, warps):
    layout = blocked(shape, warps)
    seen = []
    for tid in range(WARP_SIZE * warps):
        for j in range(layout.per_thread):
            coords, owner = layout.element(tid, j)
            assert all(0 <= c < d for c, d in zip(coords, shape))
            if owner:
                seen.append(_flat(coords, shape))
    total = 1
    for d in shape:
        total *= d
    assert sorted(seen) == list(range(total))


@pytest.mark.parametrize("shape", [(1024,), (16, 64), (2, 1024), (4, 8, 16)])
def test_blocked_follows_its_formula(shape):
    warps, threads = 4, 128
    layout = blocked(shape, warps)
    v = vector_width(layout)
    for tid in (0, 1, 31, 32, 127):
        for j in range(layout.per_thread):
            expected = (j // v) * threads * v + tid * v + j % v
            assert _flat(layout.element(tid, j)[0], shape) == expected


def test_a_layout_must_reach_each_bit_once():
    with pytest.raises(ValueError):
        Layout((4,), (Bit(0, 0),), (Bit(0, 0), None, None, None, None), ())
    with pytest.raises(ValueError):
        Layout((4,), (Bit(0, 0),), (None,) * 5, ())


@pytest.mark.parametrize("shape,dim", [((16, 64), 1), ((16, 64), 0), ((4, 8, 16), 1), ((1024,), 0)])
def test_reduction_result_is_the_source_without_the_dimension(shape, dim):
    # Register j of the result stands for the line through source register keep[j] of the same thread.
    source = blocked(shape, 4)
    result, keep = drop_dim(source, dim)
    for tid, j in itertools.product(range(128), range(result.per_thread)):
        coords, _ = source.element(tid, keep[j])
        assert result.element(tid, j)[0] == coords[:dim] + coords[dim + 1:]
        assert source.register_coords(keep[j])[dim] == 0


def test_local_sources_is_exact():
    a = blocked((16, 64), 4)
    assert local_sources(a, a, identity) == list(range(a.per_thread))
    # The same elements with lane 0 and register 0 swapped: every thread needs a neighbour's element.
    swapped = Layout(a.shape, (a.lanes[0],) + a.registers[1:], (a.registers[0],) + a.lanes[1:], a.warps)
    assert local_sources(a, swapped, identity) is None
    # Register order alone differs: a gather in registers.
    reordered = Layout(a.shape, (a.registers[1], a.registers[0], a.registers[2]), a.lanes, a.warps)
    assert local_sources(a, reordered, identity) == [0, 2, 1, 3, 4, 6, 5, 7]


# Shapes with at least one row per warp at 4 and 8 warps, and row vectors, for the warps-outer form.
OUTER_SHAPES = [(8, 1024), (16, 64), (8, 1), (32, 32), (4, 8, 16), (1024,), (1, 512), (16,), (1, 4)]


@pytest.mark.parametrize("shape", OUTER_SHAPES)
@pytest.mark.parametrize("warps", [4, 8])
def test_warps_outer_layouts_cover_every_element_once_and_give_warps_whole_rows(shape, warps):
    layout = blocked(shape, warps, warps_outer=True)
    rows = 1
    for d in shape[:-1]:
        rows *= d
    seen = []
    for tid in range(WARP_SIZE * warps):
        for j in range(layout.per_thread):
            coords, owner = layout.element(tid, j)
            if owner:
                seen.append(_flat(coords, shape))
            if rows > 1:
                # Every element of a thread's row lives in the thread's warp.
                assert _flat(coords[:-1], shape[:-1]) * warps // rows == tid // WARP_SIZE
    total = 1
    for d in shape:
        total *= d
    assert sorted(seen) == list(range(total))
    if rows == 1:
        assert all(bit is None for bit in layout.warps)  # a row vector is held whole by every warp


def test_a_row_reduction_in_the_warps_outer_layout_needs_no_warp():
    layout = blocked((4, 1024), 4, warps_outer=True)
    assert all(bit is not None and bit.dim == 0 for bit in layout.warps)
    assert all(bit is None or bit.dim == 1 for bit in layout.lanes)
    assert vector_width(layout) == 4
