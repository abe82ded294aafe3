"""Tensor Core instructions on lane vectors: `ldmatrix` (warp-collective shared-memory matrix loads),
`mma.sync` (f16 and tf32 multiplicands, f32 or f16 accumulators) and the tf32 rounding `cvt.rna.tf32.f32`, as
the PTX ISA defines them; the tile lowering's mma code is what reaches them.

A warp is 32 consecutive lanes of the batch (tile kernels launch whole warps). A 32-bit register holding two
16-bit elements is an int32 lane vector with the first element in the low half; an f16 pair (`vector<2xf16>`)
is a (lanes, 2) float16 array.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from oxide.runtime.emulator.errors import (
    OutOfBounds,
    UnsupportedOperation,
    WarpDivergence,
)
from oxide.runtime.emulator.memory import Ptr
from oxide.runtime.emulator.shared_window import SharedMemoryError, pending_message
from oxide.runtime.emulator.threads import Threads

ROW_BYTES = 16


def _warp_lanes(c: Threads) -> tuple[np.ndarray, np.ndarray]:
    """(lane id, first lane of its warp) per lane of the batch."""
    if c.per_block % 32:
        raise UnsupportedOperation("Tensor Core instructions in a block that is not whole warps")
    lane = c.lane_id.astype(np.int64)
    return lane, np.arange(c.lanes, dtype=np.int64) - lane


def _active(c: Threads, mask: Any, what: str, loc: int) -> np.ndarray:
    """The active lanes, checked to be whole warps: a batch may hold blocks that took different (block-
    uniform) branches, but inside a warp .sync.aligned instructions need every lane."""
    active = c.broadcast(mask).astype(np.bool_)
    warps = active.reshape(-1, 32)
    partial = np.repeat(warps.any(axis=1) & ~warps.all(axis=1), 32)
    if partial.any():
        c.fail(WarpDivergence, f"{what} is warp-collective (.sync.aligned) but runs with some lanes of a warp "
               "inactive", partial, loc)
    return active


def _check_rows_ready(c: Threads, buffer: Any, used: np.ndarray, row_byte: np.ndarray, loc: int) -> None:
    """Fail an ldmatrix whose rows hold shared bytes an asynchronous copy (TMA, cp.async) has not completed."""
    window = buffer.window
    rows = buffer.window_offset + np.where(used, row_byte, 0)[:, None] + np.arange(ROW_BYTES)
    tags = np.where(used[:, None], window.pending[rows], -1)
    bad = (tags >= 0).any(axis=1)
    if bad.any():
        k = c.first(bad)
        column = int(np.flatnonzero(tags[k] >= 0)[0])
        c.fail(SharedMemoryError, pending_message(int(rows[k, column]), int(tags[k, column])), bad, loc)


def ldmatrix(c: Threads, mask: Any, ptr: Ptr, byte_offset: int, count: int, trans: bool, loc: int) -> tuple:
    """ldmatrix.sync.aligned.m8n8.x{count}[.trans].shared.b16 at `ptr` + byte_offset: lanes 8i..8i+7 give the
    16-byte rows of matrix i; register i of lane l is row l / 4, elements 2 (l % 4) + {0, 1} of matrix i (of its
    transpose with .trans)."""
    active = _active(c, mask, "ldmatrix", loc)
    buffer = ptr.buffer
    item = buffer.array.itemsize
    lane, warp_start = _warp_lanes(c)
    row_byte = c.broadcast(ptr.offset).astype(np.int64) * item + byte_offset
    used = (lane < 8 * count) & active
    bad = used & ((row_byte < 0) | (row_byte + ROW_BYTES > len(buffer) * item) | (row_byte % ROW_BYTES != 0))
    if bad.any():
        k = c.first(bad)
        c.fail(OutOfBounds, f"ldmatrix row address {int(row_byte[k])} (bytes) is outside {buffer.what} of "
               f"{len(buffer) * item} bytes or not 16-byte aligned", bad, loc)
    instance = 0 if buffer.lane_base is None else c.broadcast(buffer.lane_base).astype(np.int64) * item
    if buffer.window is not None and buffer.window.in_flight:
        _check_rows_ready(c, buffer, used, instance + row_byte, loc)
    row_word = np.where(used, instance + row_byte, instance) // 2
    words = buffer.array.view(np.uint16)
    group, pair = lane // 4, lane % 4
    registers = []
    for i in range(count):
        if trans:
            low_word = row_word[warp_start + 8 * i + 2 * pair] + group
            high_word = row_word[warp_start + 8 * i + 2 * pair + 1] + group
        else:
            low_word = row_word[warp_start + 8 * i + group] + 2 * pair
            high_word = low_word + 1
        if buffer.tracker is not None:
            for word in (low_word, high_word):
                element = word * 2 // item
                buffer.tracker.on_read(c, active, element + buffer.base if buffer.base else element, loc)
        value = words[low_word].astype(np.uint32) | (words[high_word].astype(np.uint32) << 16)
        registers.append(value.view(np.int32))
    return tuple(registers)


def cvt_rna_tf32(x: Any) -> np.ndarray:
    """cvt.rna.tf32.f32: f32 rounded to 10 mantissa bits, to nearest with ties away from zero, as int32 bits."""
    bits = np.asarray(x, np.float32).view(np.uint32)
    rounded = (bits + np.uint32(0x1000)) & np.uint32(0xFFFFE000)
    special = (bits & np.uint32(0x7F800000)) == np.uint32(0x7F800000)  # inf and NaN stay as they are
    return np.where(special, bits, rounded).view(np.int32)


def f16_pair(x: Any) -> np.ndarray:
    """An int32 register as its two f16 halves (low half first), one row per lane."""
    return np.ascontiguousarray(np.asarray(x, np.int32)).view(np.float16).reshape(-1, 2)


def _rows(values: Sequence[Any], c: Threads, dtype: Any) -> list[np.ndarray]:
    return [np.broadcast_to(np.asarray(v), (c.lanes,) + np.shape(v)[1:]).astype(dtype) for v in values]


def mma_sync(c: Threads, mask: Any, k: int, inputs: str, a: Sequence[Any], b: Sequence[Any], acc: Sequence[Any],
             acc_type: str, loc: int) -> tuple:
    """mma.sync.aligned.m16n8k{k}.row.col: per warp D = A @ B + C with the PTX ISA's fragment layouts (g = lane
    / 4, t = lane % 4). Products and sums are taken in f32 (exact for f16 and tf32 products)."""
    _active(c, mask, "mma.sync", loc)  # inactive warps compute on whatever they hold; nobody reads it
    warps = c.lanes // 32
    lane = np.arange(32)
    g, t = lane // 4, lane % 4
    A = np.zeros((warps, 16, k), np.float32)
    B = np.zeros((warps, k, 8), np.float32)
    C = np.zeros((warps, 16, 8), np.float32)
    if inputs == "f16":
        for r, reg in enumerate(_rows(a, c, np.float32)):
            rows = reg.reshape(warps, 32, 2)
            for h in range(2):
                A[:, g + 8 * (r % 2), 2 * t + h + 8 * (r // 2)] = rows[:, :, h]
        for r, reg in enumerate(_rows(b, c, np.float32)):
            rows = reg.reshape(warps, 32, 2)
            for h in range(2):
                B[:, 2 * t + h + 8 * r, g] = rows[:, :, h]
    elif inputs == "tf32":
        for r, reg in enumerate(_rows(a, c, np.int32)):
            A[:, g + 8 * (r % 2), t + 4 * (r // 2)] = reg.view(np.float32).reshape(warps, 32)
        for r, reg in enumerate(_rows(b, c, np.int32)):
            B[:, t + 4 * r, g] = reg.view(np.float32).reshape(warps, 32)
    else:
        raise UnsupportedOperation(f"mma.sync with {inputs} multiplicands (the emulator has no such type)")
    if acc_type == "f32":
        for r, reg in enumerate(_rows(acc, c, np.float32)):
            C[:, g + 8 * (r // 2), 2 * t + r % 2] = reg.reshape(warps, 32)
    else:
        for r, reg in enumerate(_rows(acc, c, np.float32)):
            rows = reg.reshape(warps, 32, 2)
            for h in range(2):
                C[:, g + 8 * r, 2 * t + h] = rows[:, :, h]
    D = A @ B + C
    if acc_type == "f32":
        return tuple(np.ascontiguousarray(D[:, g + 8 * (r // 2), 2 * t + r % 2].reshape(-1)) for r in range(4))
    return tuple(np.stack([D[:, g + 8 * r, 2 * t + h].reshape(-1) for h in range(2)], axis=1).astype(np.float16)
                 for r in range(2))
