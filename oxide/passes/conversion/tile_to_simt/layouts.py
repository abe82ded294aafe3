"""Layouts: which thread of a tile block holds which elements of a tile, and the lowered form of a tile value.

Every layout here is a *bit layout*: tiles have power-of-two dims, so an element's coordinates are bits, and a
thread id `tid = warp * 32 + lane` and a register index `j` (0 <= j < per_thread) are bits too. A layout sends
each register bit, lane bit and warp bit either to one bit of one tile coordinate (a `Bit`), or to nothing
(`None`: threads that differ only in that bit hold the same elements, i.e. the tile is replicated). The
coordinates of register j of thread tid are the sum of the bits selected by the set bits of j and tid; every
coordinate bit is reached by exactly one input bit, so each element is held by 2^(number of None thread bits)
threads and the one whose None thread bits are all zero is its *owner* (the one that stores it).

Blocked layouts (loads, stores, elementwise work) and the mma fragment layouts (mma.py) are both bit layouts,
which is what lets one algorithm serve every layout: a reduction along dim d combines in-thread the registers
whose bit lands in d, then shuffles (xor) across the lanes whose bit lands in d, then goes through shared
memory for the warps whose bit lands in d.

The lowered form of a tile value is a `TileValue`: a layout plus one scalar SSA value per register, in
register order (element j of this thread is `values[j]`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from mlir import ir
from mlir.dialects import arith

WARP_SIZE = 32
LANE_BITS = 5
# The widest global access one thread makes (ld.global.v4.b32).
VECTOR_BYTES = 16


@dataclass(frozen=True)
class Bit:
    """Coordinate bit `bit` of tile dimension `dim` (worth 1 << bit along that dimension)."""

    dim: int
    bit: int



@dataclass(frozen=True)
class Element:
    """One element this thread holds: its tile coordinates (i32 values) and whether this thread stores it
    (`owner` is None when the layout does not replicate: every holder is the owner)."""

    coords: list[ir.Value]
    owner: ir.Value | None


class Emitter(Protocol):
    """What a layout needs from the lowering to build index arithmetic: i32 constants at the current point."""

    def i32(self, value: int) -> ir.Value:
        """An i32 constant."""


@dataclass(frozen=True)
class Layout:
    """How a tile of `shape` is spread over the 32 * warps threads of a block (see the module docstring).

    `registers[k]`, `lanes[k]`, `warps[k]`: where bit k of the register index, lane id and warp id go."""

    shape: tuple[int, ...]
    registers: tuple[Bit | None, ...]
    lanes: tuple[Bit | None, ...]
    warps: tuple[Bit | None, ...]
    kind: str = "blocked"

    def __post_init__(self) -> None:
        if len(self.lanes) != LANE_BITS:
            raise ValueError(f"a layout names all {LANE_BITS} lane bits, got {len(self.lanes)}")
        if any(b is None for b in self.registers):
            raise ValueError("register bits cannot replicate (a thread would hold an element twice)")
        reached = [b for b in (*self.registers, *self.lanes, *self.warps) if b is not None]
        needed = {Bit(d, k) for d, n in enumerate(self.shape) for k in range(n.bit_length() - 1)}
        if len(reached) != len(set(reached)) or set(reached) != needed:
            raise ValueError(f"layout {self} does not reach every coordinate bit of {self.shape} exactly once")

    # Sizes --------------------------------------------------------------------------------------------
    @property
    def per_thread(self) -> int:
        """How many elements each thread holds."""
        return 1 << len(self.registers)

    @property
    def thread_bits(self) -> tuple[Bit | None, ...]:
        """Where bit k of the thread id goes (lanes, then warps)."""
        return (*self.lanes, *self.warps)

    @property
    def replicated(self) -> bool:
        """Whether several threads hold the same element."""
        return any(b is None for b in self.thread_bits)

    # Python-side model (tests, planning) --------------------------------------------------------------
    def element(self, tid: int, j: int) -> tuple[tuple[int, ...], bool]:
        """The coordinates of register j of thread tid, and whether that thread owns the element."""
        coords = [0] * len(self.shape)
        owner = True
        for bits, value in ((self.registers, j), (self.thread_bits, tid)):
            for k, target in enumerate(bits):
                if (value >> k) & 1:
                    if target is None:
                        owner = False
                    else:
                        coords[target.dim] |= 1 << target.bit
        return tuple(coords), owner

    def register_coords(self, j: int) -> tuple[int, ...]:
        """The part of register j's coordinates that comes from the register bits (same for every thread)."""
        return self.element(0, j)[0]

    # IR --------------------------------------------------------------------------------------------------
    def thread_base(self, em: Emitter, tid: ir.Value) -> tuple[list[ir.Value], ir.Value | None]:
        """Per dimension, the part of this thread's coordinates its thread id gives (i32), and its owner flag."""
        base: list[ir.Value | None] = [None] * len(self.shape)
        for first, count, target in _runs(self.thread_bits):
            if target is None:
                continue
            field = _extract_bits(em, tid, first, count)
            if target.bit:
                field = arith.shli(field, em.i32(target.bit))
            base[target.dim] = field if base[target.dim] is None else arith.ori(base[target.dim], field)
        owner = None
        replicated_mask = sum(1 << k for k, target in enumerate(self.thread_bits) if target is None)
        if replicated_mask:
            masked = arith.andi(tid, em.i32(replicated_mask))
            owner = arith.cmpi(arith.CmpIPredicate.eq, masked, em.i32(0))
        return [b if b is not None else em.i32(0) for b in base], owner

    def coords(self, em: Emitter, tid: ir.Value) -> list[Element]:
        """For each register j of this thread (in order), the element's coordinates and owner flag."""
        base, owner = self.thread_base(em, tid)
        elements = []
        for j in range(self.per_thread):
            # The register bits and the thread bits are disjoint, so adding the constant part is an or: LLVM
            # folds it into address offsets.
            coords = [b if c == 0 else arith.addi(b, em.i32(c)) for b, c in zip(base, self.register_coords(j))]
            elements.append(Element(coords, owner))
        return elements


def _runs(bits: Sequence[Bit | None]) -> list[tuple[int, int, Bit | None]]:
    """Group consecutive input bits that go to consecutive bits of one dimension: (first input bit, count,
    target of the first); None bits are grouped too."""
    runs: list[tuple[int, int, Bit | None]] = []
    for k, target in enumerate(bits):
        if runs:
            first, count, start = runs[-1]
            follows = (start is None and target is None) or (start is not None and target is not None
                                                              and target.dim == start.dim
                                                              and target.bit == start.bit + count)
            if follows:
                runs[-1] = (first, count + 1, start)
                continue
        runs.append((k, 1, target))
    return runs


def _extract_bits(em: Emitter, value: ir.Value, first: int, count: int) -> ir.Value:
    shifted = arith.shrui(value, em.i32(first)) if first else value
    return arith.andi(shifted, em.i32((1 << count) - 1))


def _log2(n: int) -> int:
    return n.bit_length() - 1


def flat_bits(shape: Sequence[int]) -> list[Bit]:
    """The coordinate bits of a shape in row-major flat-index order (bit 0 of the flat index first)."""
    bits: list[Bit] = []
    for dim in reversed(range(len(shape))):
        bits.extend(Bit(dim, k) for k in range(_log2(shape[dim])))
    return bits


def blocked(shape: Sequence[int], warps: int, vector: int = 4, warps_outer: bool = False) -> Layout:
    """The blocked layout: thread t holds the flat row-major elements (j // V) * T * V + t * V + j % V, so
    consecutive threads touch consecutive memory (coalesced) and each holds V contiguous elements (one
    vector access). V shrinks to fit the innermost dimension and the tile; a tile of fewer than T elements
    is replicated over the high thread bits.

    `warps_outer` (the kernel's row tiles have at least one row per warp: register_budget.plan_warps)
    gives the warps the outermost coordinate bits instead, after the lanes and the registers: each warp owns
    whole rows, so a reduction along the rows combines in registers and lane shuffles, with no shared memory
    and no block barrier. A 1-D tile is then held whole by every warp (its warp bits replicate), the layout a
    [1, N] view of it broadcast over the rows takes, so masks and per-column vectors need no conversion. A
    warp's access still covers 32 * V contiguous elements."""
    shape = tuple(int(d) for d in shape)
    if warps_outer:
        return _warps_outer(shape, warps, vector)
    total = 1
    for d in shape:
        total *= d
    threads = WARP_SIZE * warps
    v = min(vector, shape[-1] if shape else 1, max(total // threads, 1))
    bits: list[Bit | None] = list(flat_bits(shape))
    vec_bits, bits = bits[: _log2(v)], bits[_log2(v):]
    thread_count = _log2(threads)
    thread_bits, reg_high = bits[:thread_count], bits[thread_count:]
    thread_bits += [None] * (thread_count - len(thread_bits))
    return Layout(shape, tuple(vec_bits + reg_high), tuple(thread_bits[:LANE_BITS]), tuple(thread_bits[LANE_BITS:]))


def _warps_outer(shape: tuple[int, ...], warps: int, vector: int) -> Layout:
    """blocked's `warps_outer` form: the warps take the outermost coordinate bits of a tile with rows (at least
    one row per warp, which the caller ensures), and replicate over a row vector ([N] or [1, N]); within a warp
    the lanes take the bits after the vector's, the registers the rest."""
    rows = math.prod(shape[:-1]) if len(shape) > 1 else 1
    warp_count = _log2(warps) if rows > 1 else 0
    per_warp = math.prod(shape) >> warp_count
    v = min(vector, shape[-1] if shape else 1, max(per_warp // WARP_SIZE, 1))
    bits: list[Bit | None] = list(flat_bits(shape))
    vec_bits, bits = bits[: _log2(v)], bits[_log2(v):]
    top = len(bits) - warp_count
    inner = bits[:top]
    lanes = inner[:LANE_BITS] + [None] * (LANE_BITS - len(inner[:LANE_BITS]))
    warp_bits = bits[top:] + [None] * (_log2(warps) - warp_count)
    return Layout(shape, tuple(vec_bits + inner[LANE_BITS:]), tuple(lanes), tuple(warp_bits))


def vector_width(layout: Layout) -> int:
    """How many registers, from register 0 up, hold contiguous elements along the innermost dimension."""
    if not layout.shape:
        return 1
    inner = len(layout.shape) - 1
    width = 0
    while width < len(layout.registers) and layout.registers[width] == Bit(inner, width):
        width += 1
    return 1 << width


@dataclass
class TileValue:
    """A tile as this thread holds it: its layout, and one scalar value per register (register order).
    `splat` says every element of the tile is `values[0]` (then any layout holds it for free)."""

    layout: Layout
    values: list[ir.Value]
    splat: bool = False

    def __post_init__(self) -> None:
        if len(self.values) != self.layout.per_thread:
            raise ValueError(f"a {self.layout.kind} layout of {self.layout.shape} holds {self.layout.per_thread} "
                             f"values per thread, got {len(self.values)}")

    @property
    def is_splat(self) -> bool:
        """Whether every element of the tile is the same value."""
        return self.splat
