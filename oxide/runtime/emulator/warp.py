"""Warp collectives on lane vectors: a block's threads, in linear order, form warps of 32 lanes (the last
one partial when the block size is not a multiple of 32).

Every lane named in a collective's mask must execute it, and the executing lane must be in its mask; a lane
of a partial warp that does not exist counts as having arrived (it has exited). Violations raise
`WarpDivergence`. A shuffle that reads a lane outside its segment returns the reader's own value, as PTX
defines; one that reads a lane that does not exist also returns the reader's own value (the GPU gives an
undefined one).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from oxide.runtime.emulator.errors import WarpDivergence
from oxide.runtime.emulator.threads import Threads

# A batch holds whole blocks one after another, so thread t of a block is lane `block_start + t`.


def _warp_bits(c: Threads, lanes: Any) -> np.ndarray:
    """Per lane: the bit set of the lanes of its warp for which `lanes` holds."""
    bits = np.where(c.broadcast(lanes), np.uint32(1) << c.lane_id.astype(np.uint32), np.uint32(0))
    return np.bitwise_or.reduceat(bits, c.warp_starts)[c.warp_id]


def _lane_of_warp(c: Threads, j: int) -> tuple[np.ndarray, np.ndarray]:
    """Per lane: whether lane j of its warp exists, and that lane's index (clamped where it does not)."""
    position = c.linear - c.lane_id + j
    return position < c.per_block, c.block_start + np.minimum(position, c.per_block - 1)


def _participants(c: Threads, mask: Any, member: Any, loc: int) -> np.ndarray:
    """Check the collective's mask on the executing lanes; return each lane's participating lanes."""
    member = c.broadcast(np.asarray(member).view(np.uint32) if np.asarray(member).dtype != np.uint32
                         else member).astype(np.uint32)
    active = _warp_bits(c, mask)
    existing = _warp_bits(c, c.full)
    own = np.uint32(1) << c.lane_id.astype(np.uint32)
    missing = member & existing & ~active
    bad = mask & (missing != 0)
    if bad.any():
        k = c.first(bad)
        lost = [lane for lane in range(32) if int(missing[k]) >> lane & 1]
        c.fail(WarpDivergence, f"warp collective with mask {int(member[k]):#010x}, but lane(s) {lost} of the warp "
               "did not execute it (undefined behaviour on the GPU)", bad, loc)
    outside = mask & ((member & own) == 0)
    if outside.any():
        c.fail(WarpDivergence, f"warp collective executed by a lane that its mask "
               f"{int(member[c.first(outside)]):#010x} leaves out", outside, loc)
    return member & existing


def shuffle(c: Threads, mask: Any, member: Any, value: Any, offset: Any, kind: str, width: int, loc: int) -> Any:
    _participants(c, mask, member, loc)
    lane = c.lane_id.astype(np.int64)
    offset = c.broadcast(offset).astype(np.int64)
    start = lane - lane % width
    if kind == "idx":
        source = start + offset % width
        inside = np.ones(c.lanes, np.bool_)
    elif kind == "up":
        source = lane - offset
        inside = source >= start
    elif kind == "down":
        source = lane + offset
        inside = source < start + width
    else:
        # PTX's butterfly reads lane ^ b[4:0] unless that lies past the segment's end: a lane of an earlier
        # segment is read (as CUDA documents for __shfl_xor_sync with a width).
        source = lane ^ (offset & 31)
        inside = source < start + width
    position = c.linear - lane + source
    inside &= (position < c.per_block) & (position >= 0)
    return c.broadcast(value)[c.block_start + np.where(inside, position, c.linear)]


def vote(c: Threads, mask: Any, member: Any, pred: Any, kind: str, loc: int) -> Any:
    group = _participants(c, mask, member, loc)
    yes = _warp_bits(c, c.broadcast(pred) & mask) & group
    return yes == group if kind == "all" else yes != 0


def ballot(c: Threads, mask: Any, member: Any, pred: Any, loc: int) -> Any:
    group = _participants(c, mask, member, loc)
    return (_warp_bits(c, c.broadcast(pred) & mask) & group).view(np.int32)


def active_mask(c: Threads, mask: Any) -> Any:
    return _warp_bits(c, mask).view(np.int32)


def _same_value_bits(c: Threads, mask: Any, value: Any) -> np.ndarray:
    """Per lane: the lanes of its warp (executing ones) holding the same value."""
    values = c.broadcast(value)
    bits = np.zeros(c.lanes, np.uint32)
    for j in range(32):
        exists, other = _lane_of_warp(c, j)
        same = exists & (values[other] == values) & c.broadcast(mask)[other]
        bits |= np.where(same, np.uint32(1 << j), np.uint32(0))
    return bits


def match_any(c: Threads, mask: Any, member: Any, value: Any, loc: int) -> Any:
    group = _participants(c, mask, member, loc)
    return (_same_value_bits(c, mask, value) & group).view(np.int32)


def match_all(c: Threads, mask: Any, member: Any, value: Any, loc: int) -> tuple[Any, Any]:
    group = _participants(c, mask, member, loc)
    equal = (_same_value_bits(c, mask, value) & group) == group
    return np.where(equal, group, np.uint32(0)).view(np.int32), equal


_REDUX = {"add": (np.add, 0), "and": (np.bitwise_and, -1), "or": (np.bitwise_or, 0), "xor": (np.bitwise_xor, 0),
          "min": (np.minimum, np.iinfo(np.int32).max), "max": (np.maximum, np.iinfo(np.int32).min),
          "umin": (np.minimum, np.iinfo(np.uint32).max), "umax": (np.maximum, 0)}


def redux(c: Threads, mask: Any, member: Any, value: Any, kind: str, loc: int) -> Any:
    group = _participants(c, mask, member, loc)
    op, identity = _REDUX[kind]
    values = c.broadcast(value).view(np.uint32) if kind.startswith("u") else c.broadcast(value)
    acc = np.full(c.lanes, identity, values.dtype)
    for j in range(32):
        exists, other = _lane_of_warp(c, j)
        inside = exists & ((group >> np.uint32(j)) & np.uint32(1)).astype(np.bool_)
        acc = np.where(inside, op(acc, values[other]), acc)
    return acc.view(np.int32)


def elect(c: Threads, mask: Any, member: Any, loc: int) -> tuple[Any, Any]:
    group = _participants(c, mask, member, loc).astype(np.int64)
    lowest = group & -group
    leader = np.log2(np.maximum(lowest, 1).astype(np.float64)).astype(np.int32)
    return leader, leader == c.lane_id


def warp_sync(c: Threads, mask: Any, member: Any, loc: int) -> None:
    _participants(c, mask, member, loc)
