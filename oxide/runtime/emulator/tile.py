"""Tile kernels on the emulator: what a generated tile-block function calls (`_t.<name>`).

A tile kernel runs ONE tile block per call; tiles are numpy arrays (a rank-0 tile may be a numpy scalar),
scalars are numpy scalars. Element types are computed in numpy: f32/f64/f16 natively, integers in the
signed numpy type of their width (wrapping), i1 as bool, and bf16 -- which numpy lacks -- as float32 values
rounded to bf16 (round to nearest even) after every op that produces one. Tensors of bf16 are stored as
their 16-bit patterns (uint16); `decode`/`encode` convert at loads and stores. fp8 (f8E4M3FN, f8E5M2) tiles
are float32 values rounded to fp8 (fp8.py) where produced, and fp8 tensors their bytes (uint8).

Bounds follow the tile contract: loads read zero past the tensor's edge, stores drop elements past it, a
store through a partition_mut at a tile index outside the block's own sub-grid traps, an extract past the
source traps, and an atomic at an offset outside its buffer is out of bounds; every trap names the kernel,
the tile block and the Rust source location.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from oxide.diagnostics import Diagnostic, parse_loc
from oxide.runtime.emulator import fp8 as _fp8
from oxide.runtime.emulator.errors import EmulatorError, KernelTrap, OutOfBounds

# Tile element type -> numpy dtype the emulator computes in.
COMPUTE = {"f32": np.float32, "f64": np.float64, "f16": np.float16, "bf16": np.float32, "i1": np.bool_,
           "i8": np.int8, "i16": np.int16, "i32": np.int32, "i64": np.int64, "index": np.int64,
           "f8E4M3FN": np.float32, "f8E5M2": np.float32}
# Tile element type -> numpy dtype a tensor of it is stored in (bf16, fp8: their bit patterns).
STORAGE = {**COMPUTE, "bf16": np.uint16, "f8E4M3FN": np.uint8, "f8E5M2": np.uint8}


@dataclass
class Block:
    """The tile block one call executes: kernel name, source locations, block id and grid (x, y, z)."""

    kernel: str
    locs: tuple[str, ...]
    block_id: tuple[Any, Any, Any]  # np.int32 each
    grid: tuple[Any, Any, Any]

    def fail(self, error: type[EmulatorError], message: str, loc: int) -> None:
        """Raise `error` naming the kernel, this tile block and the source location."""
        where = self.locs[loc] if 0 <= loc < len(self.locs) else "<unknown location>"
        block = tuple(int(b) for b in self.block_id)
        what = f"kernel `{self.kernel}`, tile block {block}: {message}"
        raise error(f"{what}\n  --> {where}", [Diagnostic("error", what, parse_loc(where))])


# bf16 --------------------------------------------------------------------------------------------------
def bf16(x: Any) -> Any:
    """float32 values rounded to the nearest bf16 (ties to even), still as float32; NaN stays NaN."""
    f = np.asarray(x, np.float32)
    bits = f.view(np.uint32)
    rounded = (bits + (np.uint32(0x7FFF) + ((bits >> np.uint32(16)) & np.uint32(1)))) & np.uint32(0xFFFF0000)
    out = np.where(np.isnan(f), f, rounded.view(np.float32))
    return out.astype(np.float32)[()]


def decode(stored: Any, elem: str) -> Any:
    """Stored tensor elements as computed values (bf16 bit patterns -> float32)."""
    if elem == "bf16":
        return (np.asarray(stored).view(np.uint16).astype(np.uint32) << np.uint32(16)).view(np.float32)
    if elem in _fp8.FP8_TYPES:
        return _fp8.decode(stored, elem)
    return stored


def encode(values: Any, elem: str) -> Any:
    """Computed values as stored tensor elements (float32 -> bf16 bit patterns)."""
    if elem == "bf16":
        return (np.asarray(bf16(values), np.float32).view(np.uint32) >> np.uint32(16)).astype(np.uint16)
    if elem in _fp8.FP8_TYPES:
        return _fp8.encode(values, elem)
    return values


def fp8(x: Any, elem: str) -> Any:
    """Values rounded to fp8 type `elem` (nearest even, saturating to finite, as cvt.rn.satfinite), as float32."""
    return _fp8.round_to(x, elem)


def tf32(x: Any) -> Any:
    """float32 values rounded to tf32 (10 mantissa bits, ties away from zero: cvt.rna.tf32.f32)."""
    f = np.asarray(x, np.float32)
    rounded = ((f.view(np.uint32) + np.uint32(0x1000)) & np.uint32(0xFFFFE000)).view(np.float32)
    return np.where(np.isfinite(f), rounded, f).astype(np.float32)


def bitcast(x: Any, source: str, target: str) -> Any:
    """arith.bitcast between same-width element types (bf16 through its bit pattern)."""
    bits = encode(x, source) if source == "bf16" else np.asarray(x)
    if target == "bf16":
        return decode(bits.view(np.uint16), "bf16")[()]
    return bits.view(COMPUTE[target])[()]


# Partitions, loads and stores ----------------------------------------------------------------------------
@dataclass
class Partition:
    """A grid of `tile`-shaped tiles over a tensor; `origin` and `grid` bound a block's own sub-grid (mutable
    partitions), or are None (read-only partitions of a whole view)."""

    array: np.ndarray
    tile: tuple[int, ...]
    elem: str
    origin: tuple[int, ...] | None = None
    grid: tuple[int, ...] | None = None


def partition(view: np.ndarray, tile: tuple[int, ...], elem: str) -> Partition:
    """`make_partition`: the tensor as a grid of tiles."""
    return Partition(view, tile, elem)


def own_origin(b: Block, own: tuple[int, ...]) -> tuple[int, ...]:
    """The first element of this block's own tile of an output of tile shape `own` (axis x = dim 0)."""
    return tuple(int(b.block_id[d]) * own[d] for d in range(len(own)))


def partition_mut(b: Block, view: np.ndarray, own: tuple[int, ...], tile: tuple[int, ...], elem: str) -> Partition:
    """`make_partition_mut`: this block's own tile (shape `own`) as a grid of `tile`-shaped tiles."""
    return Partition(view, tile, elem, own_origin(b, own), tuple(o // t for o, t in zip(own, tile)))


def _window(shape: tuple[int, ...], tile: tuple[int, ...], start: tuple[int, ...]) -> tuple[Any, Any] | None:
    """(tensor slices, tile slices) of the part of the tile at `start` that lies inside the tensor."""
    source, target = [], []
    for extent, size, first in zip(shape, tile, start):
        low, high = max(first, 0), min(first + size, extent)
        if high <= low:
            return None
        source.append(slice(low, high))
        target.append(slice(low - first, high - first))
    return tuple(source), tuple(target)


def _read(array: np.ndarray, tile: tuple[int, ...], start: tuple[int, ...], elem: str) -> np.ndarray:
    out = np.zeros(tile, COMPUTE[elem])
    window = _window(array.shape, tile, start)
    if window is not None:
        out[window[1]] = decode(array[window[0]], elem)
    return out


def _write(array: np.ndarray, tile: tuple[int, ...], start: tuple[int, ...], values: Any, elem: str) -> None:
    window = _window(array.shape, tile, start)
    if window is not None:
        array[window[0]] = encode(np.broadcast_to(values, tile)[window[1]], elem)


def load(p: Partition, index: tuple[Any, ...]) -> np.ndarray:
    """`tile.load`: the tile at tile index `index`, zero past the tensor's edge."""
    base = p.origin or (0,) * len(p.tile)
    start = tuple(o + int(i) * t for o, i, t in zip(base, index, p.tile))
    return _read(p.array, p.tile, start, p.elem)


def store(b: Block, p: Partition, values: Any, index: tuple[Any, ...], loc: int) -> None:
    """`tile.store` on a partition_mut: trap outside the block's own sub-grid, drop elements past the edge."""
    assert p.origin is not None and p.grid is not None
    idx = tuple(int(i) for i in index)
    if any(not 0 <= i < g for i, g in zip(idx, p.grid)):
        b.fail(KernelTrap, f"store at tile index {idx} is outside this block's own tile grid {p.grid} (a tile "
                           "block writes only its own output tile)", loc)
    start = tuple(o + i * t for o, i, t in zip(p.origin, idx, p.tile))
    _write(p.array, p.tile, start, values, p.elem)


def load_own(b: Block, view: np.ndarray, own: tuple[int, ...], elem: str) -> np.ndarray:
    """`tile.load_own`: this block's own output tile, zero past the tensor's edge."""
    return _read(view, own, own_origin(b, own), elem)


def store_own(b: Block, view: np.ndarray, own: tuple[int, ...], values: Any, elem: str) -> None:
    """`tile.store_own`: write this block's own output tile, dropping elements past the tensor's edge."""
    _write(view, own, own_origin(b, own), values, elem)


def num_tiles(p: Partition, axis: int) -> Any:
    """`tile.num_tiles`: tiles along `axis` (a partition_mut: its sub-grid)."""
    if p.grid is not None:
        return np.int32(p.grid[axis])
    return np.int32(-(-p.array.shape[axis] // p.tile[axis]))


# Shape ops ---------------------------------------------------------------------------------------------
def splat(value: Any, shape: tuple[int, ...], dtype: Any) -> Any:
    return np.full(shape, value, dtype)[()]


def broadcast(x: Any, shape: tuple[int, ...]) -> Any:
    return np.array(np.broadcast_to(x, shape))[()]


def extract(b: Block, x: Any, index: tuple[Any, ...], shape: tuple[int, ...], loc: int) -> Any:
    """`tile.extract`: the `shape` sub-tile at sub-tile index `index`; an index past the source traps."""
    idx = tuple(int(i) for i in index)
    counts = tuple(s // r for s, r in zip(np.shape(x), shape))
    if any(not 0 <= i < c for i, c in zip(idx, counts)):
        b.fail(KernelTrap, f"extract at sub-tile index {idx} is outside the {counts} sub-tiles of a "
                           f"{list(np.shape(x))} tile", loc)
    return np.array(x[tuple(slice(i * r, (i + 1) * r) for i, r in zip(idx, shape))])


def to_scalar(x: Any) -> Any:
    return np.asarray(x).reshape(-1)[0]


def select(cond: Any, a: Any, b: Any) -> Any:
    """arith.select on tiles or scalars (a scalar condition picks a whole operand)."""
    if np.ndim(cond) == 0:
        return a if cond else b
    return np.where(cond, a, b).astype(np.result_type(a, b))


# Reductions and scans ----------------------------------------------------------------------------------
_UNSIGNED = {np.dtype(np.int8): np.uint8, np.dtype(np.int16): np.uint16, np.dtype(np.int32): np.uint32,
             np.dtype(np.int64): np.uint64}


def _accumulator(dtype: np.dtype) -> Any:
    # f16 sums and products accumulate in f32 (bf16 values are float32 already); integers wrap at their width.
    return np.float32 if dtype == np.float16 else dtype


def reduce(x: Any, dim: int, kind: str, unsigned: bool, elem: str) -> Any:
    """`tile.reduce`: combine along `dim` (the result drops it)."""
    x = np.asarray(x)
    if kind in ("max", "min"):
        view = x.view(_UNSIGNED[x.dtype]) if unsigned and x.dtype in _UNSIGNED else x
        out = (np.max if kind == "max" else np.min)(view, axis=dim).view(x.dtype)
    else:
        out = (np.sum if kind == "sum" else np.prod)(x, axis=dim, dtype=_accumulator(x.dtype)).astype(x.dtype)
    return bf16(out) if elem == "bf16" else np.asarray(out)[()]


def scan(x: Any, dim: int, kind: str, reverse: bool, unsigned: bool, elem: str) -> Any:
    """`tile.scan`: inclusive prefix combination along `dim`, from the end when `reverse`."""
    x = np.asarray(x)
    source = np.flip(x, dim) if reverse else x
    if kind in ("max", "min"):
        view = source.view(_UNSIGNED[x.dtype]) if unsigned and x.dtype in _UNSIGNED else source
        out = (np.maximum if kind == "max" else np.minimum).accumulate(view, axis=dim).view(x.dtype)
    else:
        fn = np.cumsum if kind == "sum" else np.cumprod
        out = fn(source, axis=dim, dtype=_accumulator(x.dtype)).astype(x.dtype)
    out = np.flip(out, dim) if reverse else out
    return bf16(out) if elem == "bf16" else np.array(out)


def mma(a: Any, b: Any, acc: Any, elem: str, acc_elem: str, tf32_products: bool = False) -> Any:
    """`tile.mma`: acc + a @ b. Products of f16/bf16/f32 inputs are exact in float64, and the sum is rounded
    once to the accumulator's type (the Tensor Core's f32 accumulation rounds per step; the difference is a few
    ulp of the accumulator). f32 inputs are rounded to tf32 first only for `tf32_products` (the mma's
    `tile.tf32`); otherwise they multiply at f32 accuracy, as the lowering's 3xTF32 and FMA paths do."""
    if elem == "f32" and tf32_products:
        a, b = tf32(a), tf32(b)
    total = np.matmul(np.asarray(a, np.float64), np.asarray(b, np.float64)) + np.asarray(acc, np.float64)
    return total.astype(COMPUTE[acc_elem])


# Atomics -----------------------------------------------------------------------------------------------
@dataclass
class Pointer:
    """A raw `*mut E` kernel parameter: the flat buffer it points at."""

    buffer: np.ndarray
    elem: str


def _combine(kind: str, old: Any, value: Any) -> Any:
    if kind == "add":
        return old + value
    if kind in ("and", "or", "xor"):
        return {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[kind](old, value)
    if kind in ("max", "min"):
        return (np.maximum if kind == "max" else np.minimum)(old, value)
    if kind in ("umax", "umin"):
        unsigned = _UNSIGNED[old.dtype]
        return (np.maximum if kind == "umax" else np.minimum)(old.view(unsigned), value.view(unsigned)).view(old.dtype)
    return value  # xchg


def atomic_rmw(b: Block, ptr: Pointer, offsets: Any, values: Any, mask: Any, kind: str, loc: int) -> Any:
    """`tile.atomic_rmw`: one element at a time in row-major order; the old values (0 where masked off)."""
    offsets, values, mask = (np.asarray(v) for v in (offsets, values, mask))
    flat = ptr.buffer
    old = np.zeros(values.shape, values.dtype)
    for position in np.ndindex(values.shape):
        if not mask[position]:
            continue
        offset = int(offsets[position])
        if not 0 <= offset < flat.size:
            b.fail(OutOfBounds, f"atomic {kind} at offset {offset} is out of bounds for a buffer of {flat.size} "
                                "elements", loc)
        current = decode(flat[offset:offset + 1], ptr.elem)[0]
        old[position] = current
        result = _combine(kind, current, values[position])
        flat[offset] = encode(bf16(result) if ptr.elem == "bf16" else result, ptr.elem)
    return old


def _pointer_offsets(b: Block, ptr: Pointer, offsets: Any, mask: Any, what: str, loc: int) -> np.ndarray:
    """The masked-in offsets of a pointer-tile access, checked to lie inside the pointer's buffer."""
    offsets, mask = np.asarray(offsets, np.int64), np.broadcast_to(np.asarray(mask, bool), np.shape(offsets))
    outside = mask & ((offsets < 0) | (offsets >= ptr.buffer.size))
    if outside.any():
        offset = int(offsets[outside].flat[0])
        b.fail(OutOfBounds, f"{what} at offset {offset} is out of bounds for a buffer of {ptr.buffer.size} elements",
               loc)
    return mask


def load_ptr(b: Block, ptr: Pointer, offsets: Any, mask: Any, padding: Any, loc: int) -> Any:
    """`tile.load_ptr`: ptr[offsets] where the mask holds, the padding elsewhere."""
    mask = _pointer_offsets(b, ptr, offsets, mask, "a pointer-tile load", loc)
    safe = np.where(mask, np.asarray(offsets, np.int64), 0)
    values = decode(ptr.buffer[safe.reshape(-1)], ptr.elem).reshape(safe.shape) if ptr.buffer.size \
        else np.zeros(safe.shape, COMPUTE[ptr.elem])
    return np.where(mask, values, np.asarray(padding, values.dtype)).astype(COMPUTE[ptr.elem])


def store_ptr(b: Block, ptr: Pointer, offsets: Any, values: Any, mask: Any, loc: int) -> None:
    """`tile.store_ptr`: ptr[offsets] = values where the mask holds (of two elements that name one address,
    one lands: which is unspecified, as on the GPU)."""
    mask = _pointer_offsets(b, ptr, offsets, mask, "a pointer-tile store", loc)
    chosen = np.asarray(offsets, np.int64)[mask]
    ptr.buffer[chosen] = encode(np.broadcast_to(np.asarray(values), mask.shape)[mask], ptr.elem)
