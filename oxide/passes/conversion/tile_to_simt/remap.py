"""Moving tile elements between layouts: register-local gathers when every thread already holds what it needs,
otherwise a round trip through the shared scratch memory (write at the source position, barrier, read).

Shape ops that only relabel coordinate bits (permute, reshape, broadcast) are remaps with a bit map; a plain
layout conversion is the identity map.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

from mlir import ir
from mlir.dialects import arith, scf

from oxide.passes.conversion.tile_to_simt.context import TileLowering
from oxide.passes.conversion.tile_to_simt.layouts import Bit, Layout, TileValue

BitMap = Callable[[Bit], "Bit | None"]


def identity(bit: Bit) -> Bit | None:
    """The bit map of a plain layout conversion."""
    return bit


def local_sources(src: Layout, dst: Layout, bitmap: BitMap) -> list[int] | None:
    """For each register of `dst`, the register of `src` holding the element it needs (the source element at
    `bitmap` of its coordinates), when that is in the same thread for every thread; else None."""
    for s, d in zip(src.thread_bits, dst.thread_bits):
        if (bitmap(d) if d is not None else None) != s:
            return None
    position = {b: k for k, b in enumerate(src.registers)}
    sources: list[int | None] = []
    for d in dst.registers:
        mapped = bitmap(d)
        if mapped is not None and mapped not in position:
            return None
        sources.append(None if mapped is None else position[mapped])
    return [sum(1 << k for bit, k in enumerate(sources) if k is not None and (j >> bit) & 1)
            for j in range(dst.per_thread)]


def flat_index(ctx: TileLowering, coords: Sequence[ir.Value], shape: Sequence[int]) -> ir.Value:
    """The row-major flat index of coordinates (i32) in a power-of-two shape."""
    index: ir.Value | None = None
    stride = 1
    for coord, extent in reversed(list(zip(coords, shape))):
        if extent > 1:
            term = coord if stride == 1 else arith.shli(coord, ctx.i32(stride.bit_length() - 1))
            index = term if index is None else arith.addi(index, term)
        stride *= extent
    return index if index is not None else ctx.i32(0)


@contextmanager
def only_if(cond: ir.Value | None) -> Iterator[None]:
    """Emit the body under `scf.if cond` (no branch when cond is None)."""
    if cond is None:
        yield
        return
    branch = scf.IfOp(cond)
    with ir.InsertionPoint(branch.then_block):
        yield
        scf.YieldOp([])


def write_to_scratch(ctx: TileLowering, tile: TileValue) -> ir.Value:
    """Store every element of `tile` at its row-major position in the scratch memory (after a barrier
    protecting earlier readers, owners only); returns the scratch base. The caller barriers before reading."""
    elem = tile.values[0].type
    count = 1
    for extent in tile.layout.shape:
        count *= extent
    base = ctx.scratch(elem, count)
    ctx.scratch_begin()
    for element, value in zip(tile.layout.coords(ctx, ctx.tid), tile.values):
        with only_if(element.owner):
            ctx.scratch_store(base, flat_index(ctx, element.coords, tile.layout.shape), value)
    return base


def remap(ctx: TileLowering, tile: TileValue, dst: Layout, bitmap: BitMap,
          source_index: Callable[[list[ir.Value]], ir.Value]) -> TileValue:
    """`tile` moved into layout `dst`, where the element at dst coordinates c is the source element at
    `bitmap(c)`; `source_index(c)` gives that element's flat source index (i32) for the shared-memory path."""
    if tile.is_splat:
        return ctx.splat(tile.values[0], dst)
    sources = local_sources(tile.layout, dst, bitmap)
    if sources is not None:
        return TileValue(dst, [tile.values[j] for j in sources])
    elem = tile.values[0].type
    base = write_to_scratch(ctx, tile)
    ctx.barrier()
    values = [ctx.scratch_load(base, source_index(element.coords), elem) for element in dst.coords(ctx, ctx.tid)]
    return TileValue(dst, values)


def convert_layout(ctx: TileLowering, tile: TileValue, dst: Layout) -> TileValue:
    """The same tile in layout `dst` (free for an equal layout, else through shared memory)."""
    if tile.layout == dst:
        return tile
    if tuple(tile.layout.shape) != tuple(dst.shape):
        raise ValueError(f"internal error: converting a {tile.layout.shape} tile to a {dst.shape} layout")
    return remap(ctx, tile, dst, identity, lambda coords: flat_index(ctx, coords, dst.shape))
