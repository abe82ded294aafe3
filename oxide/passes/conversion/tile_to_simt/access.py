"""A thread's accesses to one tile of a tensor view: its runs of elements, their addresses and edge masks,
with the index arithmetic built once per tile.

In a bit layout, register j of thread tid sits at the thread's base coordinates plus constant register
coordinates (layouts.py). So every address is `base + sum_d c_d(j) * stride_d`: the base (origin plus the
thread part, times the strides) is computed once, each `c * stride_d` once per distinct constant, and a
run's pointer is one offset from the base pointer (`pointer`; `element_pointer` is the per-element form
`ptr + sum_d index_d * stride_d` over the same cached indices, which stores keep: memory.py says why).

At the tensor's edge a run of V elements along the innermost dimension is inside up to a count
(`extent - index` when its other indices are inside, else 0), which is what simt's masked vector accesses
take: one predicate per run instead of one per element.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith

from oxide.passes.conversion.tile_to_simt.context import TileLowering, ViewValue, i_type, ptr_offset
from oxide.passes.conversion.tile_to_simt.layouts import Layout


class TileAccess:
    """The address and edge arithmetic of one thread's elements of a tile at `origin` of `view`.

    The per-tile values are built at construction (where the caller stands, before any branch); the
    per-run values in the branch that asks for them (`in_branch` starts a fresh cache for each)."""

    def __init__(self, ctx: TileLowering, view: ViewValue, origin: list[ir.Value], layout: Layout) -> None:
        self.ctx, self.view, self.layout = ctx, view, layout
        base, self.owner = layout.thread_base(ctx, ctx.tid)
        self.origin, self.thread = origin, base
        self.first = [arith.addi(o, ctx.to_i64(b)) for o, b in zip(origin, base)]
        offset = None
        for index, stride in zip(self.first, view.strides):
            term = arith.muli(index, stride)
            offset = term if offset is None else arith.addi(offset, term)
        self.base = view.ptr if offset is None else ptr_offset(view.ptr, ctx.index(offset))
        self._cache: dict[tuple, ir.Value] = {}

    def in_branch(self) -> None:
        """Forget the per-run values: the next ones are built in a new region."""
        self._cache = {}

    def _cached(self, key: tuple, build) -> ir.Value:
        if key not in self._cache:
            self._cache[key] = build()
        return self._cache[key]

    def _indices(self, j: int) -> list[ir.Value]:
        """Register j's global index per dimension (i64)."""
        return [first if c == 0 else self._cached(("index", d, c), lambda: self._index(d, c))
                for d, (first, c) in enumerate(zip(self.first, self.layout.register_coords(j)))]

    def _index(self, d: int, c: int) -> ir.Value:
        # The constant joins the thread's i32 coordinate (its bits are disjoint from the thread's: an or), as
        # layouts.py builds coordinates; LLVM then folds it into address offsets.
        return arith.addi(self.origin[d], self.ctx.to_i64(arith.addi(self.thread[d], self.ctx.i32(c))))

    def pointer(self, j: int, unit_inner: bool = False) -> ir.Value:
        """The address of register j's element; `unit_inner`: the innermost stride is known to be 1."""
        coords = self.layout.register_coords(j)
        offset = None
        last = len(coords) - 1
        for d, c in enumerate(coords):
            if c == 0:
                continue
            if d == last and unit_inner:
                term = self.ctx.i64(c)
            else:
                stride = self.view.strides[d]
                term = self._cached(("term", d, c), lambda: arith.muli(stride, self.ctx.i64(c)))
            offset = term if offset is None else arith.addi(offset, term)
        if offset is None:
            return self.base
        return ptr_offset(self.base, self.ctx.index(offset))

    def element_pointer(self, j: int) -> ir.Value:
        """The address of register j's element as `ptr + sum_d index_d * stride_d` (see store_tile for why)."""
        offset = None
        for index, stride in zip(self._indices(j), self.view.strides):
            term = arith.muli(index, stride)
            offset = term if offset is None else arith.addi(offset, term)
        return self.view.ptr if offset is None else ptr_offset(self.view.ptr, self.ctx.index(offset))

    def count(self, j: int) -> ir.Value:
        """How many of the run from register j along the innermost dimension are inside the tensor (i64; at
        most 0 when the run's other indices, or its first index, are outside; may exceed the run)."""
        indices = self._indices(j)
        ok = None
        for index, extent in zip(indices, self.view.shape):  # unsigned: a negative index is outside too
            inside = arith.cmpi(arith.CmpIPredicate.ult, index, extent)
            ok = inside if ok is None else arith.andi(ok, inside)
        left = arith.subi(self.view.shape[-1], indices[-1])
        return arith.select(ok, left, self.ctx.i64(0))

    def tile_inside(self, origin: list[ir.Value], shape: list[int]) -> ir.Value:
        """Whether the whole tile lies inside the tensor (the same for every thread of the block)."""
        ctx = self.ctx
        ok = ctx.const(i_type(1), 1)
        for start, extent, size in zip(origin, self.view.shape, shape):
            ok = arith.andi(ok, arith.cmpi(arith.CmpIPredicate.sge, start, ctx.i64(0)))
            ok = arith.andi(ok, arith.cmpi(arith.CmpIPredicate.sle, arith.addi(start, ctx.i64(size)), extent))
        return ok
