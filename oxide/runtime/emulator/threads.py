"""The threads one kernel call executes in lock step: one block (or, for kernels with no shared memory,
barriers or warp collectives, many blocks at once), one numpy lane per thread.

`Launch` holds what the whole launch shares (kernel name, geometry, source locations, race trackers,
epoch counter); `Threads` holds one batch's lane coordinates, its shared memory, and the helpers that
name a lane in an error message.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from oxide.runtime.emulator.errors import BarrierDivergence, EmulatorError, RaceDetected
from oxide.runtime.emulator.memory import Buffer, Ptr
from oxide.runtime.emulator.races import RaceTracker


@dataclass
class Launch:
    """State shared by every block of one launch."""

    kernel: str
    locs: tuple[str, ...]
    grid: tuple[int, int, int]
    block: tuple[int, int, int]
    dynamic_shared: int
    check_races: bool
    global_trackers: list[RaceTracker] = field(default_factory=list)
    epochs: Any = field(default_factory=itertools.count)
    clock: Any = field(default_factory=itertools.count)

    @property
    def per_block(self) -> int:
        return self.block[0] * self.block[1] * self.block[2]

    def block_of(self, linear: int) -> tuple[int, int, int]:
        gx, gy, _ = self.grid
        return linear % gx, linear // gx % gy, linear // (gx * gy)

    def thread_of(self, linear: int) -> tuple[int, int, int]:
        bx, by, _ = self.block
        return linear % bx, linear // bx % by, linear // (bx * by)

    def where(self, gtid: int) -> str:
        """`block (x, y, z), thread (x, y, z)` of a global thread id."""
        block, thread = divmod(gtid, self.per_block)
        return f"block {self.block_of(block)}, thread {self.thread_of(thread)}"

    def loc(self, loc: int) -> str:
        return self.locs[loc] if 0 <= loc < len(self.locs) else "<unknown location>"


class Threads:
    """One batch of blocks, `lanes` threads in lock step."""

    def __init__(self, launch: Launch, blocks: np.ndarray):
        self.launch = launch
        self.per_block = launch.per_block
        count = len(blocks)
        self.lanes = count * self.per_block
        linear = np.tile(np.arange(self.per_block, dtype=np.int64), count)
        bx, by, _ = launch.block
        self.tid = tuple((v.astype(np.int32)) for v in (linear % bx, linear // bx % by, linear // (bx * by)))
        self.bdim = tuple(np.int32(d) for d in launch.block)
        self.gdim = tuple(np.int32(d) for d in launch.grid)
        gx, gy, _ = launch.grid
        block_linear = blocks[:, 0] + blocks[:, 1] * gx + blocks[:, 2] * gx * gy
        epochs = np.array([next(launch.epochs) for _ in range(count)], np.int64)
        if count == 1:
            self.bid = tuple(np.int32(v) for v in blocks[0])
            self.epoch: Any = epochs[0]
        else:
            self.bid = tuple(np.repeat(blocks[:, k], self.per_block).astype(np.int32) for k in range(3))
            self.epoch = np.repeat(epochs, self.per_block)
        self.gtid = np.repeat(block_linear, self.per_block) * self.per_block + linear
        self.linear = linear
        self.lane_id = (linear % 32).astype(np.int32)
        self.full = np.ones(self.lanes, np.bool_)
        self.shared: dict[Any, Buffer] = {}
        self.shared_trackers: list[RaceTracker] = []

    # Lanes ---------------------------------------------------------------------------------------------
    def broadcast(self, value: Any) -> np.ndarray:
        return np.broadcast_to(value, (self.lanes,))

    def active_lanes(self, mask: Any, index: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """The element index, global thread id and epoch of each lane of `mask`."""
        if mask is self.full:
            return np.asarray(self.broadcast(index), np.int64), self.gtid, np.asarray(self.broadcast(self.epoch))
        return (np.asarray(self.broadcast(index)[mask], np.int64), self.gtid[mask],
                np.asarray(self.broadcast(self.epoch)[mask]))

    def fail(self, error: type[EmulatorError], message: str, lanes: Any, loc: int) -> None:
        """Raise `error` for the first lane of the bool vector `lanes` (and say how many more there are)."""
        hits = np.flatnonzero(self.broadcast(lanes))
        first = int(hits[0]) if hits.size else 0
        more = f" (and {hits.size - 1} more threads)" if hits.size > 1 else ""
        raise error(f"kernel `{self.launch.kernel}`, {self.launch.where(int(self.gtid[first]))}{more}: {message}\n"
                    f"  --> {self.launch.loc(loc)}")

    def first(self, lanes: Any) -> int:
        return int(np.flatnonzero(self.broadcast(lanes))[0])

    def report_race(self, what: str, element: int, tid_a: int, loc_a: int, verb_a: str, tid_b: int, loc_b: int,
                    verb_b: str, same_op: bool = False) -> None:
        launch = self.launch
        same_block = tid_a // self.per_block == tid_b // self.per_block
        order = ("in the same instruction" if same_op else
                 "with no sync_threads between them" if same_block else "from different blocks")
        raise RaceDetected(
            f"kernel `{launch.kernel}`: data race on {what}, element {element}, {order}:\n"
            f"  {launch.where(tid_a)} {verb_a} it at {launch.loc(loc_a)}\n"
            f"  {launch.where(tid_b)} {verb_b} it at {launch.loc(loc_b)}")

    # Synchronisation and shared memory -----------------------------------------------------------------
    def barrier(self, mask: Any, loc: int) -> None:
        """sync_threads: every thread of the block must arrive; earlier accesses are ordered with later ones."""
        if mask is not self.full and not mask.all():
            arrived = int(mask.sum())
            self.fail(BarrierDivergence, f"sync_threads reached by {arrived} of the block's {self.per_block} "
                      f"threads (undefined behaviour on the GPU); this thread did not arrive", ~mask, loc)
        self.flush_races()
        for tracker in self.shared_trackers:
            tracker.reset()
        self.epoch = next(self.launch.epochs)

    def flush_races(self) -> None:
        for tracker in itertools.chain(self.shared_trackers, self.launch.global_trackers):
            tracker.flush(self)

    def shared_array(self, key: int, dtype: Any, size: int, name: str) -> Buffer:
        """This block's instance of a static shared array (zero-filled: the GPU leaves it undefined)."""
        buffer = self.shared.get(key)
        if buffer is None:
            tracker = RaceTracker(size, f"shared array {name}") if self.launch.check_races else None
            if tracker is not None:
                self.shared_trackers.append(tracker)
            buffer = self.shared[key] = Buffer(np.zeros(size, dtype), f"shared array {name}", "shared", tracker)
        return buffer

    def dynamic_shared(self, byte_offset: Any, dtype: Any) -> Ptr:
        """A pointer `byte_offset` bytes into this block's dynamic shared memory, to `dtype` elements."""
        dtype = np.dtype(dtype)
        raw = self.shared.get("dynamic")
        if raw is None:
            raw = self.shared["dynamic"] = Buffer(np.zeros(self.launch.dynamic_shared, np.uint8),
                                                  "dynamic shared memory", "shared", None)
        view = self.shared.get(("dynamic", dtype))
        if view is None:
            usable = len(raw.array) // dtype.itemsize * dtype.itemsize
            tracker = (RaceTracker(usable // dtype.itemsize, "dynamic shared memory")
                       if self.launch.check_races else None)
            if tracker is not None:
                self.shared_trackers.append(tracker)
            view = self.shared[("dynamic", dtype)] = Buffer(raw.array[:usable].view(dtype),
                                                            "dynamic shared memory", "shared", tracker)
        return Ptr(view, np.asarray(byte_offset).astype(np.int64) // dtype.itemsize)

    # Registers -----------------------------------------------------------------------------------------
    def special_reg(self, name: str) -> Any:
        per_block = self.per_block
        lane = self.lane_id.astype(np.uint32)
        masks = {
            "lanemask_eq": np.uint32(1) << lane,
            "lanemask_lt": (np.uint32(1) << lane) - np.uint32(1),
            "lanemask_le": ((np.uint32(1) << lane) << np.uint32(1)) - np.uint32(1),
        }
        if name in masks:
            return masks[name].view(np.int32)
        if name == "lanemask_gt":
            return (~self.special_reg("lanemask_le").view(np.uint32)).view(np.int32)
        if name == "lanemask_ge":
            return (~self.special_reg("lanemask_lt").view(np.uint32)).view(np.int32)
        values = {
            "laneid": lambda: self.lane_id,
            "warpid": lambda: (self.linear // 32).astype(np.int32),
            "nwarpid": lambda: np.int32((per_block + 31) // 32),
            "smid": lambda: np.int32(0), "nsmid": lambda: np.int32(1), "gridid": lambda: np.int64(0),
            "clock": lambda: np.int32(next(self.launch.clock)),
            "clock64": lambda: np.int64(next(self.launch.clock)),
            "globaltimer": lambda: np.int64(next(self.launch.clock) * 1000),
            "dynamic_smem_size": lambda: np.int32(self.launch.dynamic_shared),
            "total_smem_size": lambda: np.int32(self.launch.dynamic_shared + sum(
                b.array.nbytes for k, b in self.shared.items() if isinstance(k, int))),
        }
        return values[name]()
