"""The runtime side of the simt warpgroup ops: `wgmma.mma_async` computed from the shared window through
its matrix descriptors (wgmma_operands.py), the descriptors themselves, and the warpgroup rules.

The emulator runs these ops only in the scheduled mode (one coroutine per warp; the block's shared memory is
its byte-addressed window). Each warp computes its own 16 rows of the 64 x N result: warp w of a warpgroup
owns rows 16 (w % 4) .. 16 (w % 4) + 15, so no warp needs another's registers. An MMA is computed when it is
issued: the emulator is synchronous, so `wgmma_fence`, `wgmma_commit_group` and `wgmma_wait_group` order
nothing it could get wrong, and an accumulator read before the wait that covers its MMA already holds the
result (on the GPU it is undefined).

Register order (the PTX ISA's accumulator fragment of m64nNk*): lane l of warp w holds, for each 8-column
chunk j, f32 registers 4j .. 4j+3 = D[16w + l/4][8j + 2(l%4) + {0, 1}], then D[16w + l/4 + 8][same columns];
an f16 accumulator packs each such pair into one `vector<2xf16>` register (2j, 2j + 1).

The warpgroup rule (`.sync.aligned`): every thread of the four warps of a warpgroup executes the same wgmma
instruction with the same descriptors. A warp with inactive lanes, a block whose threads do not fill the
warpgroup, a descriptor that differs between threads, or a warp of the group that issues another wgmma (or
none) is a located error or a deadlock report; each warp waits at an MMA until its warpgroup has issued it.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import numpy as np

from oxide.runtime.emulator.errors import LaunchError, WarpDivergence
from oxide.runtime.emulator.memory import Ptr
from oxide.runtime.emulator.schedule import Until
from oxide.runtime.emulator.shared_window import SharedMemoryError
from oxide.runtime.emulator.threads import Threads
from oxide.runtime.emulator.wgmma_operands import encode, read_operand, to_float32

WARPGROUP = 4  # warps
ROWS_PER_WARP = 16
_SWIZZLE_BYTES = {"none": 0, "32B": 32, "64B": 64, "128B": 128}


@dataclass(frozen=True)
class Mma:
    """The attributes of one simt.wgmma_mma_async."""

    n: int
    k: int
    input: str
    accumulator: str
    accumulate: bool
    negate_a: bool
    negate_b: bool
    transpose_a: bool
    transpose_b: bool


@dataclass
class _Issue:
    """The n-th MMA of a warpgroup, as its first warp issued it."""

    loc: int
    desc_a: int
    desc_b: int
    warp: int


@dataclass
class _Warpgroup:
    """How many MMAs each warp of one warpgroup has issued, and the ones not every warp has issued yet."""

    issued: dict[int, int] = field(default_factory=dict)
    pending: dict[int, _Issue] = field(default_factory=dict)


_GROUPS: weakref.WeakKeyDictionary[Threads, dict[int, _Warpgroup]] = weakref.WeakKeyDictionary()


def _warps(c: Threads, mask: Any, what: str, loc: int) -> list[int]:
    """The block's warp indices that run this op: whole warps of whole warpgroups (else a located error)."""
    active = c.broadcast(mask).astype(np.bool_)
    warps = sorted({int(w) for w in c.linear[active] // 32})
    for w in warps:
        lanes = c.linear // 32 == w
        if not active[lanes].all():
            c.fail(WarpDivergence, f"{what} is executed by whole warpgroups (.sync.aligned) but runs with some "
                   f"threads of warp {w} inactive", lanes & ~active, loc)
        group = w // WARPGROUP
        if c.per_block < 32 * WARPGROUP * (group + 1):
            c.fail(WarpDivergence, f"{what} is executed by whole warpgroups (4 warps, 128 threads, starting at a "
                   f"multiple of 4 warps), but this block of {c.per_block} threads has only part of warpgroup "
                   f"{group}: launch blocks of a multiple of 128 threads", lanes, loc)
    return warps


def sync_aligned(c: Threads, mask: Any, what: str, loc: int) -> None:
    """A warpgroup op with no effect the emulator models (fence, commit, wait, setmaxnreg): its checks."""
    _warps(c, mask, what, loc)


def smem_desc(c: Threads, mask: Any, address: Any, leading: int, stride: int, swizzle_mode: str, base_offset: int,
              loc: int) -> np.ndarray:
    """The matrix descriptor of the shared pointer (or 32-bit shared address) `address`, per lane (int64
    holding the descriptor's bits)."""
    if isinstance(address, Ptr):
        if address.buffer.window is None:
            c.fail(SharedMemoryError, f"a matrix descriptor addresses shared memory; this pointer is into "
                   f"{address.buffer.what}", mask, loc)
        start = c.shared_address(address)
    else:
        start = c.broadcast(np.asarray(address, np.int64)) & 0xFFFFFFFF
    fixed = np.uint64(encode(0, leading, stride, _SWIZZLE_BYTES[swizzle_mode], base_offset))
    return ((start.astype(np.uint64) >> np.uint64(4) & np.uint64(0x3FFF)) | fixed).view(np.int64)


@lru_cache(maxsize=None)
def _fragment(n: int) -> tuple[np.ndarray, np.ndarray]:
    """(row, column) within the warp's 16 rows of each accumulator scalar of each lane: (32, n/2) arrays.
    Scalar e is f32 register e, or half e % 2 of f16 register e // 2: the same places."""
    lane = np.arange(32)[:, None]
    e = np.arange(n // 2)[None, :]
    return lane // 4 + 8 * (e // 2 % 2), 8 * (e // 4) + 2 * (lane % 4) + e % 2


def _scalars(c: Threads, acc: Sequence[Any], accumulator: str) -> np.ndarray:
    """The accumulator as (lanes, n/2) float32 scalars."""
    if accumulator == "f32":
        return np.stack([c.broadcast(np.asarray(v, np.float32)) for v in acc], axis=1).astype(np.float32)
    pairs = [np.broadcast_to(np.asarray(v, np.float16), (c.lanes, 2)) for v in acc]
    return np.concatenate(pairs, axis=1).astype(np.float32)


def _registers(values: np.ndarray, accumulator: str) -> tuple:
    if accumulator == "f32":
        return tuple(np.ascontiguousarray(values[:, i]) for i in range(values.shape[1]))
    halves = values.astype(np.float16)
    return tuple(np.ascontiguousarray(halves[:, 2 * i:2 * i + 2]) for i in range(values.shape[1] // 2))


def _rendezvous(c: Threads, warp: int, da: int, db: int, loc: int) -> Until | None:
    """Record warp `warp`'s next MMA against its warpgroup's; the wait for the rest of the group, if any."""
    group = _GROUPS.setdefault(c, {}).setdefault(warp // WARPGROUP, _Warpgroup())
    nth = group.issued.get(warp, 0)
    group.issued[warp] = nth + 1
    first = group.pending.setdefault(nth, _Issue(loc, da, db, warp))
    lanes = c.linear // 32 == warp
    if first.loc != loc:
        c.fail(WarpDivergence, f"warp {warp} issues a different wgmma than warp {first.warp} of its warpgroup "
               f"(their MMA number {nth + 1}; warp {first.warp}'s is at {c.launch.loc(first.loc)}): every warp "
               "of a warpgroup executes the same wgmma (.sync.aligned)", lanes, loc)
    if (first.desc_a, first.desc_b) != (da, db):
        c.fail(WarpDivergence, f"warp {warp} issues this wgmma with descriptors ({da:#x}, {db:#x}) but warp "
               f"{first.warp} of its warpgroup with ({first.desc_a:#x}, {first.desc_b:#x}): the descriptors "
               "of a wgmma must be the same in every thread of the warpgroup", lanes, loc)
    members = range(warp - warp % WARPGROUP, warp - warp % WARPGROUP + WARPGROUP)

    def ready() -> bool:
        done = all(group.issued.get(w, 0) > nth for w in members)
        if done:
            group.pending.pop(nth, None)
        return done

    def what() -> str:
        behind = [w for w in members if group.issued.get(w, 0) <= nth]
        return (f"warps {', '.join(map(str, behind))} of its warpgroup to issue this wgmma (their MMA number "
                f"{nth + 1}): wgmma is executed by the whole warpgroup together")

    return None if ready() else Until(lanes, loc, ready, what)


def _uniform(c: Threads, mask: Any, value: Any, which: str, loc: int) -> int:
    lanes = c.broadcast(mask).astype(np.bool_)
    values = c.broadcast(np.asarray(value, np.int64))[lanes]
    differ = c.broadcast(value) != values[0]
    if (differ & lanes).any():
        c.fail(WarpDivergence, f"the {which} descriptor of a wgmma differs between threads of the warpgroup "
               "(it must be warpgroup-uniform)", differ & lanes, loc)
    return int(values[0]) & ((1 << 64) - 1)


def _issue(c: Threads, mask: Any, desc_a: Any, desc_b: Any, loc: int) -> Iterator[Until]:
    """Wait until every warp of the issuing warps' warpgroups has issued this MMA (A's descriptor None: A is
    in registers); the warps that run it and the descriptors' bits."""
    if c.window is None:
        c.fail(LaunchError, "wgmma reads shared memory through byte addresses: it runs only in the scheduled "
               "mode (schedule=\"warps\")", mask, loc)
    warps = _warps(c, mask, "wgmma.mma_async", loc)
    da = 0 if desc_a is None else _uniform(c, mask, desc_a, "A", loc)
    db = _uniform(c, mask, desc_b, "B", loc)
    for w in warps:
        wait = _rendezvous(c, w, da, db, loc)
        if wait is not None:
            yield wait
    return warps, da, db


def _operand(c: Threads, mask: Any, desc: int, rows: int, mma: Mma, transpose: bool, loc: int) -> np.ndarray:
    try:
        return read_operand(c.window, desc, rows, mma.k, mma.input, transpose)
    except SharedMemoryError as exc:
        c.fail(type(exc), str(exc), mask, loc)


def _accumulate(c: Threads, warps: list[int], mma: Mma, acc: Sequence[Any], a_rows: Any, b: np.ndarray) -> tuple:
    """The new accumulator registers: `a_rows(w)` is warp w's 16 rows of A (16 x K, float32)."""
    values = _scalars(c, acc, mma.accumulator)
    if mma.negate_b:
        b = -b
    rows, cols = _fragment(mma.n)
    for w in warps:
        a = a_rows(w)
        d = (-a if mma.negate_a else a) @ b.T  # (16, n) in float32
        lanes = np.flatnonzero(c.linear // 32 == w)
        product = d[rows, cols]
        values[lanes] = product + values[lanes] if mma.accumulate else product
    return _registers(values, mma.accumulator)


def mma_async(c: Threads, mask: Any, mma: Mma, acc: Sequence[Any], desc_a: Any, desc_b: Any,
              loc: int) -> Iterator[Until]:
    """One warp's part of wgmma.mma_async: waits until its warpgroup has issued the MMA, then returns the
    warp's new accumulator registers (registers of other lanes are returned unchanged)."""
    warps, da, db = yield from _issue(c, mask, desc_a, desc_b, loc)
    a = _operand(c, mask, da, 64, mma, mma.transpose_a, loc)
    b = _operand(c, mask, db, mma.n, mma, mma.transpose_b, loc)
    return _accumulate(c, warps, mma, acc, lambda w: a[16 * (w % WARPGROUP):16 * (w % WARPGROUP) + ROWS_PER_WARP], b)


def mma_async_reg_a(c: Threads, mask: Any, mma: Mma, acc: Sequence[Any], a_regs: Sequence[Any], desc_b: Any,
                    loc: int) -> Iterator[Until]:
    """wgmma.mma_async with A from registers: 4 i32 registers of two input-type values each (the low half
    first); lane l of warp w holds A[16w + row][col] of its 8 values at the places of an m64n16 accumulator's
    registers (`_fragment(16)`, the PTX ISA's A fragment)."""
    warps, _, db = yield from _issue(c, mask, None, desc_b, loc)
    b = _operand(c, mask, db, mma.n, mma, mma.transpose_b, loc)
    bits = np.stack([c.broadcast(np.asarray(v).astype(np.int64)) for v in a_regs], axis=1).astype(np.uint32)
    held = to_float32(bits.view(np.uint8).reshape(c.lanes, 2 * len(a_regs), 2), mma.input)
    rows, cols = _fragment(4 * len(a_regs))

    def a_rows(w: int) -> np.ndarray:
        a = np.zeros((ROWS_PER_WARP, mma.k), np.float32)
        a[rows, cols] = held[np.flatnonzero(c.linear // 32 == w)]
        return a

    return _accumulate(c, warps, mma, acc, a_rows, b)
