"""Atomics on lane vectors, applied in a defined order: lanes in order (within a batch, blocks in the order
they run, then threads in linear order). Atomic accesses are not race-checked against each other or
against plain accesses (the issue's definition of a race needs "no atomic").
"""

from __future__ import annotations

from typing import Any

import numpy as np

from oxide.runtime.emulator.access import _address, _check
from oxide.runtime.emulator.memory import Ptr
from oxide.runtime.emulator.threads import Threads
from oxide.runtime.emulator.values import u

_RMW = {
    "add": lambda old, v: old + v, "fadd": lambda old, v: old + v,
    "sub": lambda old, v: old - v, "fsub": lambda old, v: old - v,
    "and": lambda old, v: old & v, "or": lambda old, v: old | v, "xor": lambda old, v: old ^ v,
    "min": np.minimum, "max": np.maximum,
    "umin": lambda old, v: np.minimum(u(old), u(v)).view(old.dtype),
    "umax": lambda old, v: np.maximum(u(old), u(v)).view(old.dtype),
    "xchg": lambda old, v: v,
}
# Kinds whose final memory value numpy's unbuffered ufunc.at computes in index order (lane order here).
_AT = {"add": np.add, "fadd": np.add, "and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor,
       "min": np.minimum, "max": np.maximum}


def _rounds(addresses: np.ndarray) -> np.ndarray:
    """For each access, how many earlier accesses (in lane order) hit the same address."""
    order = np.argsort(addresses, kind="stable")
    ordered = addresses[order]
    starts = np.r_[True, ordered[1:] != ordered[:-1]]
    group_start = np.maximum.accumulate(np.where(starts, np.arange(len(ordered)), 0))
    rank = np.empty(len(ordered), np.int64)
    rank[order] = np.arange(len(ordered)) - group_start
    return rank


def _integer_add(memory: np.ndarray, lanes: np.ndarray, addresses: np.ndarray, values: np.ndarray,
                 result: np.ndarray) -> None:
    """Integer fetch_add in lane order without a loop: each lane's old value is the cell's value plus the
    (wrapping) sum of the earlier lanes' operands on the same cell."""
    order = np.argsort(addresses, kind="stable")
    at, v = addresses[order], values[order].astype(memory.dtype)
    running = np.cumsum(v, dtype=memory.dtype)
    starts = np.flatnonzero(np.r_[True, at[1:] != at[:-1]])
    before_group = np.where(starts > 0, running[starts - 1], 0).astype(memory.dtype)
    group = np.cumsum(np.r_[True, at[1:] != at[:-1]]) - 1
    exclusive = running - v - before_group[group]
    result[lanes[order]] = memory[at] + exclusive
    ends = np.r_[starts[1:], len(at)] - 1
    memory[at[starts]] += running[ends] - before_group


def _lanes(c: Threads, mask: Any, ptr: Ptr, loc: int) -> tuple[np.ndarray, np.ndarray]:
    _check(c, mask, ptr.buffer, ptr.offset, loc, "an atomic")
    lanes = np.flatnonzero(mask)
    return lanes, c.broadcast(_address(ptr.buffer, ptr.offset))[lanes].astype(np.int64)


def rmw(c: Threads, mask: Any, ptr: Ptr, value: Any, kind: str, loc: int, result_used: bool = True) -> Any:
    """fetch_<kind>: the old value per lane."""
    memory = ptr.buffer.array
    lanes, addresses = _lanes(c, mask, ptr, loc)
    values = np.asarray(c.broadcast(value))[lanes]
    result = np.zeros(c.lanes, memory.dtype)
    if not result_used and (kind in _AT or kind == "sub"):
        if kind == "sub":
            values = -values
        _AT.get(kind, np.add).at(memory, addresses, values)
        return result
    if kind in ("add", "sub") and len(addresses) > 1:
        _integer_add(memory, lanes, addresses, values if kind == "add" else -values, result)
        return result
    combine = _RMW[kind]
    rank = _rounds(addresses) if len(addresses) > 1 else np.zeros(len(addresses), np.int64)
    for r in range(int(rank.max()) + 1 if len(rank) else 0):
        pick = rank == r
        at = addresses[pick]
        old = memory[at]
        result[lanes[pick]] = old
        memory[at] = combine(old, values[pick])
    return result


def cmpxchg(c: Threads, mask: Any, ptr: Ptr, expected: Any, desired: Any, loc: int) -> tuple[Any, Any]:
    """compare_exchange: (old value, success) per lane, lanes in order on each cell. A cell's value changes
    only where an exchange succeeds, so the loop runs once per success on the busiest cell (usually once or
    twice), not once per lane."""
    memory = ptr.buffer.array
    lanes, addresses = _lanes(c, mask, ptr, loc)
    result = np.zeros(c.lanes, memory.dtype)
    success = np.zeros(c.lanes, np.bool_)
    if not len(lanes):
        return result, success
    order = np.argsort(addresses, kind="stable")
    at = addresses[order]
    want = c.broadcast(expected)[lanes][order]
    new = c.broadcast(desired)[lanes][order]
    first_of_cell = np.r_[True, at[1:] != at[:-1]]
    starts = np.flatnonzero(first_of_cell)
    cell = np.cumsum(first_of_cell) - 1
    current = memory[at[starts]].copy()
    position = np.arange(len(at))
    undecided_from = starts.copy()  # per cell: the first lane not yet decided
    old = np.empty(len(at), memory.dtype)
    won = np.zeros(len(at), np.bool_)
    while True:
        undecided = position >= undecided_from[cell]
        hit = undecided & (want == current[cell])
        if not hit.any():
            break
        winner = np.full(len(starts), len(at))
        np.minimum.at(winner, cell[hit], position[hit])
        cells = np.flatnonzero(winner < len(at))
        decided = undecided & (position <= winner[cell])
        old[decided] = current[cell[decided]]
        won[winner[cells]] = True
        current[cells] = new[winner[cells]]
        undecided_from[cells] = winner[cells] + 1
    undecided = position >= undecided_from[cell]
    old[undecided] = current[cell[undecided]]
    memory[at[starts]] = current
    result[lanes[order]] = old
    success[lanes[order]] = won
    return result, success


def atomic_load(c: Threads, mask: Any, ptr: Ptr, loc: int) -> Any:
    lanes, addresses = _lanes(c, mask, ptr, loc)
    result = np.zeros(c.lanes, ptr.buffer.array.dtype)
    result[lanes] = ptr.buffer.array[addresses]
    return result


def atomic_store(c: Threads, mask: Any, ptr: Ptr, value: Any, loc: int) -> None:
    lanes, addresses = _lanes(c, mask, ptr, loc)
    ptr.buffer.array[addresses] = np.asarray(c.broadcast(value))[lanes]
