"""The threads one kernel call executes in lock step: a batch of whole blocks, one numpy lane per thread.

`Launch` holds what the whole launch shares (kernel name, geometry, source locations, race trackers,
epoch counter); `Threads` holds one batch's lane coordinates, its shared memory, and the helpers that
name a lane in an error message.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from oxide.diagnostics import Diagnostic, parse_loc
from oxide.runtime.emulator.errors import BarrierDivergence, EmulatorError, RaceDetected, UnsupportedOperation
from oxide.runtime.emulator.memory import Buffer, Ptr
from oxide.runtime.emulator.races import RaceTracker
from oxide.runtime.emulator.shared_window import SharedWindow


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
    # The static shared arrays as (bytes, alignment) in declaration order and the dynamic shared memory's
    # alignment (the program's KERNELS entry): a block run alone lays them out in its SharedWindow.
    shared_layout: tuple[tuple[int, int], ...] | None = None
    dynamic_align: int = 16
    cluster: tuple[int, int, int] | None = None  # the launch's cluster shape; None: launched without clusters
    epochs: Any = field(default_factory=itertools.count)
    clock: Any = field(default_factory=lambda: itertools.count(1))

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
    """One batch of whole blocks, `lanes` threads in lock step; thread t of the batch's block s is lane
    s * per_block + t."""

    def __init__(self, launch: Launch, blocks: np.ndarray):
        self.launch = launch
        self.per_block = per_block = launch.per_block
        self.count = count = len(blocks)
        self.lanes = count * per_block
        lane = np.arange(self.lanes, dtype=np.int64)
        self.slot = lane // per_block  # which block of the batch
        self.block_start = self.slot * per_block
        linear = lane - self.block_start
        bx, by, _ = launch.block
        self.tid = tuple((v.astype(np.int32)) for v in (linear % bx, linear // bx % by, linear // (bx * by)))
        self.bdim = tuple(np.int32(d) for d in launch.block)
        self.gdim = tuple(np.int32(d) for d in launch.grid)
        gx, gy, _ = launch.grid
        block_linear = blocks[:, 0] + blocks[:, 1] * gx + blocks[:, 2] * gx * gy
        if count == 1:
            self.bid = tuple(np.int32(v) for v in blocks[0])
            self.epoch: Any = next(launch.epochs)
        else:
            self.bid = tuple(np.repeat(blocks[:, k], per_block).astype(np.int32) for k in range(3))
            self.epoch = self._new_epochs()
        self.gtid = block_linear[self.slot] * per_block + linear
        self.linear = linear
        self.lane_id = (linear % 32).astype(np.int32)
        warps_per_block = (per_block + 31) // 32
        self.warp_id = self.slot * warps_per_block + linear // 32
        self.warp_starts = (np.arange(count)[:, None] * per_block + np.arange(0, per_block, 32)[None, :]).reshape(-1)
        # Named barrier id -> (threads arrived by bar.arrive, the barrier's count), until a release consumes them
        # (scheduled mode, schedule.arrive_named).
        self.named_arrivals: dict[int, tuple[int, int]] = {}
        self.full = np.ones(self.lanes, np.bool_)
        self.shared: dict[Any, Buffer] = {}
        self.shared_trackers: list[RaceTracker] = []
        # A block that runs alone (scheduled mode) keeps its shared memory in one byte-addressed window, so
        # that thread accesses, TMA and tensor-core operands see the same bytes; a batch of blocks in lock
        # step keeps one buffer per array.
        self.window = (SharedWindow(launch.shared_layout, launch.dynamic_shared, launch.dynamic_align)
                       if count == 1 and launch.shared_layout is not None else None)
        self.cluster_peers: list[Threads] = [self]  # the cluster's blocks by rank (set by the cluster launch)
        self.cluster_rank = 0

    def _new_epochs(self) -> np.ndarray:
        first = next(self.launch.epochs)
        for _ in range(self.count - 1):
            next(self.launch.epochs)
        return first + self.slot

    # Lanes ---------------------------------------------------------------------------------------------
    def broadcast(self, value: Any) -> np.ndarray:
        if isinstance(value, np.ndarray) and value.shape == (self.lanes,):
            return value
        return np.full(self.lanes, value)

    def active_lanes(self, mask: Any, index: Any) -> tuple[np.ndarray, np.ndarray, Any]:
        """The element index, global thread id and epoch (a scalar when uniform) of each lane of `mask`."""
        epoch = self.epoch
        if mask is self.full:
            return self.broadcast(index).astype(np.int64, copy=False), self.gtid, epoch
        if isinstance(epoch, np.ndarray):
            epoch = epoch[mask]
        return self.broadcast(index)[mask].astype(np.int64, copy=False), self.gtid[mask], epoch

    def fail(self, error: type[EmulatorError], message: str, lanes: Any, loc: int) -> None:
        """Raise `error` for the first lane of the bool vector `lanes` (and say how many more there are)."""
        hits = np.flatnonzero(self.broadcast(lanes))
        first = int(hits[0]) if hits.size else 0
        more = f" (and {hits.size - 1} more threads)" if hits.size > 1 else ""
        what = f"kernel `{self.launch.kernel}`, {self.launch.where(int(self.gtid[first]))}{more}: {message}"
        where = self.launch.loc(loc)
        raise error(f"{what}\n  --> {where}", [Diagnostic("error", what, parse_loc(where))])

    def first(self, lanes: Any) -> int:
        return int(np.flatnonzero(self.broadcast(lanes))[0])

    def report_race(self, what: str, element: int, tid_a: int, loc_a: int, verb_a: str, tid_b: int, loc_b: int,
                    verb_b: str, same_op: bool = False) -> None:
        launch = self.launch
        same_block = tid_a // self.per_block == tid_b // self.per_block
        order = ("in the same instruction" if same_op else
                 "with no sync_threads between them" if same_block else "from different blocks")
        race = f"kernel `{launch.kernel}`: data race on {what}, element {element}, {order}"
        first = f"{launch.where(tid_a)} {verb_a} it"
        second = f"{launch.where(tid_b)} {verb_b} it"
        at_a, at_b = launch.loc(loc_a), launch.loc(loc_b)
        raise RaceDetected(f"{race}:\n  {first} at {at_a}\n  {second} at {at_b}",
                           [Diagnostic("error", race, parse_loc(at_b),
                                       notes=[Diagnostic("note", first, parse_loc(at_a)),
                                              Diagnostic("note", second, parse_loc(at_b))])])

    # Synchronisation and shared memory -----------------------------------------------------------------
    def barrier(self, mask: Any, loc: int) -> None:
        """sync_threads: every thread of a block must arrive; its earlier accesses are ordered with later ones.
        Blocks of the batch none of whose threads are here are not at this barrier (a block-uniform branch)."""
        if mask is self.full:
            arrived_blocks = None
        else:
            arrived = np.add.reduceat(mask, np.arange(0, self.lanes, self.per_block))
            partial = (arrived > 0) & (arrived < self.per_block)
            if partial.any():
                s = int(np.argmax(partial))
                missing = ~mask & (self.slot == s)
                self.fail(BarrierDivergence, f"sync_threads reached by {int(arrived[s])} of the block's "
                          f"{self.per_block} threads (undefined behaviour on the GPU); this thread did not arrive",
                          missing, loc)
            arrived_blocks = arrived > 0
        self.flush_races()
        for tracker in self.shared_trackers:
            tracker.reset(None if arrived_blocks is None else np.repeat(arrived_blocks, tracker.size // self.count))
        if self.count == 1:
            self.epoch = next(self.launch.epochs)
        elif arrived_blocks is None:
            self.epoch = self._new_epochs()
        else:
            self.epoch = np.where(mask, self._new_epochs(), self.epoch)

    def order_point(self) -> None:
        """A fence or an atomic stronger than relaxed: for the race checks, accesses of a block before it are
        ordered with those after it, as if at a barrier (release/acquire message passing between the
        block's threads is then no race; one between blocks still is)."""
        if not self.launch.check_races:
            return
        if self.count == 1:
            self.epoch = next(self.launch.epochs)
        else:
            self.epoch = self._new_epochs()

    def flush_races(self) -> None:
        for tracker in itertools.chain(self.shared_trackers, self.launch.global_trackers):
            tracker.flush(self)

    def shared_array(self, key: int, dtype: Any, size: int, name: str) -> Buffer:
        """The batch's instances of a static shared array, one per block (zero-filled: the GPU leaves it
        undefined)."""
        buffer = self.shared.get(key)
        if buffer is None:
            if self.window is not None:
                offset = self.window.offsets[key - 1]
                array = self.window.view(offset, dtype, size)
                buffer = self.shared[key] = self._shared_buffer(array, size, f"shared array {name}", offset)
            else:
                buffer = self.shared[key] = self._shared_buffer(np.zeros(size * self.count, dtype), size,
                                                                f"shared array {name}")
        return buffer

    def _shared_buffer(self, array: np.ndarray, size: int, what: str, window_offset: int | None = None) -> Buffer:
        """A shared buffer with its race tracker; `window_offset`: where it starts in the block's window."""
        tracker = RaceTracker(size * self.count, what, resets=True) if self.launch.check_races else None
        if tracker is not None:
            self.shared_trackers.append(tracker)
        if window_offset is not None:
            return Buffer(array, what, tracker, window=self.window, window_offset=window_offset)
        lane_base = self.slot * size if self.count > 1 else None
        return Buffer(array, what, tracker, block_size=size, lane_base=lane_base)

    def dynamic_shared(self, byte_offset: Any, dtype: Any) -> Ptr:
        """A pointer `byte_offset` bytes into the block's dynamic shared memory, to `dtype` elements."""
        dtype = np.dtype(dtype)
        view = self.shared.get(("dynamic", dtype))
        if view is None:
            size = self.launch.dynamic_shared // dtype.itemsize
            if self.window is not None:
                start = self.window.dynamic_offset
                array = self.window.bytes[start:start + size * dtype.itemsize].view(dtype)
                view = self._shared_buffer(array, size, "dynamic shared memory", start)
            else:
                view = self._shared_buffer(np.zeros(size * self.count, dtype), size, "dynamic shared memory")
            self.shared[("dynamic", dtype)] = view
        return Ptr(view, np.asarray(byte_offset).astype(np.int64) // dtype.itemsize)

    def shared_address(self, ptr: Ptr) -> np.ndarray:
        """The byte address in its block's shared window of a shared pointer, per lane (int64)."""
        buffer = ptr.buffer
        if buffer.window is None:
            raise UnsupportedOperation(f"the shared address of a pointer into {buffer.what}, which is not in a "
                                       "block's shared window (shared memory is byte-addressed only in the "
                                       "scheduled mode)")
        offset = self.broadcast(np.asarray(ptr.offset, np.int64))
        return buffer.window_offset + offset * buffer.array.itemsize

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
                b.array.nbytes // self.count for k, b in self.shared.items() if isinstance(k, int))),
        }
        return values[name]()
