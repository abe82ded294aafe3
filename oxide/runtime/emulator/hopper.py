"""The runtime side of the Hopper mbarrier, async-proxy fence and TMA ops: each thread of the instruction acts
on the mbarrier (mbarrier.py) or box copy (tma.py) its operands name in its block's shared window.

Waits are generators: a warp whose phase has not completed yields an `Until` to the scheduler (schedule.py)
and resumes when it has. `try_wait` and `test_wait` wait too: the emulator runs a warp only when its
phase has completed, one of the schedules the GPU may show (the phase completed before the test), so a spin
loop on them never spins. Model errors (an uninitialised barrier, a misaligned box, ...) are re-raised
located at the op.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from oxide.runtime.emulator import tma
from oxide.runtime.emulator.addresses import decode
from oxide.runtime.emulator.errors import LaunchError, UnsupportedOperation
from oxide.runtime.emulator.mbarrier import Mbarrier, MbarrierError, Mbarriers
from oxide.runtime.emulator.memory import Ptr
from oxide.runtime.emulator.schedule import Until
from oxide.runtime.emulator.shared_window import SharedMemoryError, SharedWindow
from oxide.runtime.emulator.threads import Threads

_SWIZZLE = {"none": 0, "32B": 32, "64B": 64, "128B": 128}


@contextlib.contextmanager
def located(c: Threads, lanes: Any, loc: int) -> Iterator[None]:
    """Re-raise a model error located at the op, naming the first thread of `lanes`."""
    try:
        yield
    except (MbarrierError, SharedMemoryError) as exc:
        c.fail(type(exc), str(exc), lanes, loc)


def barrier_at(window: SharedWindow, address: int) -> Mbarrier:
    """The mbarrier at `address` of `window` (made on first use, uninitialised)."""
    if window.mbarriers is None:
        window.mbarriers = Mbarriers(window)
    return window.mbarriers.at(int(address))


def _lanes(c: Threads, mask: Any) -> np.ndarray:
    return np.flatnonzero(c.broadcast(mask))


def _barriers(c: Threads, mask: Any, bar: Ptr) -> list[tuple[int, Mbarrier]]:
    """(lane, its mbarrier) for each thread of `mask`."""
    if bar.buffer.window is None:
        raise MbarrierError(f"an mbarrier must be in shared memory; this pointer is into {bar.buffer.what}")
    addresses = c.shared_address(bar)
    return [(int(k), barrier_at(bar.buffer.window, int(addresses[k]))) for k in _lanes(c, mask)]


def _per_lane(c: Threads, value: Any, lane: int) -> int:
    return int(c.broadcast(value)[lane])


def init(c: Threads, mask: Any, bar: Ptr, count: Any, loc: int) -> None:
    with located(c, mask, loc):
        for lane, barrier in _barriers(c, mask, bar):
            barrier.init(_per_lane(c, count, lane))


def arrive(c: Threads, mask: Any, bar: Ptr, count: Any, loc: int, tx: Any = None,
           complete: bool = True) -> np.ndarray:
    """Each thread arrives `count` times (after expecting `tx` bytes); the tokens are the phases arrived in.
    `complete=False` (arrive.noComplete) must not complete the phase. Releases the thread's earlier accesses."""
    tokens = np.zeros(c.lanes, np.int64)
    with located(c, mask, loc):
        for lane, barrier in _barriers(c, mask, bar):
            n = 1 if count is None else _per_lane(c, count, lane)
            if tx is not None:
                barrier.expect_tx(_per_lane(c, tx, lane))
            if not complete and n >= barrier.pending:
                raise MbarrierError(f"mbarrier arrive_no_complete with count {n} would complete the phase of the "
                                    f"mbarrier at shared address {barrier.address:#x} ({barrier.pending} arrivals "
                                    "outstanding): use mbarrier arrive")
            tokens[lane] = barrier.arrive(n)
    c.order_point()
    return tokens


def expect_tx(c: Threads, mask: Any, bar: Ptr, tx: Any, loc: int) -> None:
    with located(c, mask, loc):
        for lane, barrier in _barriers(c, mask, bar):
            barrier.expect_tx(_per_lane(c, tx, lane))


def inval(c: Threads, mask: Any, bar: Ptr, loc: int) -> None:
    with located(c, mask, loc):
        for _, barrier in _barriers(c, mask, bar):
            barrier.inval()


def arrive_cluster(c: Threads, mask: Any, address: Any, loc: int) -> None:
    """A release arrive on the mbarrier at a shared::cluster address (any block of the cluster)."""
    with located(c, mask, loc):
        for lane in _lanes(c, mask):
            try:
                peer, byte = decode(c, _per_lane(c, address, lane))
            except UnsupportedOperation as exc:
                raise MbarrierError(str(exc)) from None
            if peer.window is None:
                raise MbarrierError("a remote mbarrier arrive needs the scheduled mode")
            barrier_at(peer.window, byte).arrive(1)
    c.order_point()


def wait(c: Threads, mask: Any, bar: Ptr, loc: int, *, token: Any = None, parity: Any = None) -> Iterator[Until]:
    """Suspend the warp until each thread's phase (by token, or by parity) has completed; True per lane."""
    with located(c, mask, loc):
        waits = [(barrier, _per_lane(c, token if parity is None else parity, lane))
                 for lane, barrier in _barriers(c, mask, bar)]

        def ready() -> bool:
            return all(b.test_wait(v) if parity is None else b.test_wait_parity(v) for b, v in waits)

        def what() -> str:
            for b, v in waits:
                if not (b.test_wait(v) if parity is None else b.test_wait_parity(v)):
                    return b.describe(token=v) if parity is None else b.describe(parity=v)
            return "an mbarrier phase"

        if not ready():
            yield Until(mask, loc, ready, what)
        ready()  # a barrier invalidated while the warp waited fails here
    c.order_point()
    return np.ones(c.lanes, np.bool_)


def fence(c: Threads) -> None:
    """An async-proxy or mbarrier-init fence: an ordering point (the emulator's copies take effect at once)."""
    c.order_point()


def _map(c: Threads, tensor_map: Any, loc: int) -> tuple[np.ndarray, tuple[int, ...], Any, int, bool]:
    """The tensor, box and element strides (innermost first), swizzle span and NaN fill of a TensorMap."""
    array = getattr(tensor_map, "array", None)
    if not isinstance(array, np.ndarray):
        c.fail(LaunchError, "a TMA copy through a tensor map that is not an oxide.runtime.TensorMap of a numpy "
               "array (the emulator copies numpy arrays)", c.full, loc)
    strides = tensor_map.element_strides
    return (array, tuple(reversed(tensor_map.box)), None if strides is None else tuple(reversed(strides)),
            _SWIZZLE[tensor_map.swizzle], tensor_map.oob_fill == "nan")


def tma_load(c: Threads, mask: Any, dst: Ptr, tensor_map: Any, coords: Sequence[Any], bar: Ptr, loc: int,
             multicast: Any = None) -> None:
    """Each thread's box copy into shared memory at `dst`, completing its bytes on `bar`; with a multicast
    mask, into the same address (and barrier) of every cluster block whose rank bit is set."""
    array, box, strides, swizzle, nan = _map(c, tensor_map, loc)
    with located(c, mask, loc):
        if dst.buffer.window is None:
            raise SharedMemoryError(f"a TMA load lands in shared memory; this pointer is into {dst.buffer.what}")
        addresses, barriers = c.shared_address(dst), c.shared_address(bar)
        for lane in _lanes(c, mask):
            targets = [dst.buffer.window] if multicast is None else _multicast(c, _per_lane(c, multicast, lane),
                                                                               mask, loc)
            at = [_per_lane(c, x, lane) for x in coords]
            for window in targets:
                tma.box_load(window, int(addresses[lane]), barrier_at(window, int(barriers[lane])), array, box,
                             at, element_strides=strides, swizzle_mode=swizzle, nan_fill=nan)


def _multicast(c: Threads, bits: int, mask: Any, loc: int) -> list[SharedWindow]:
    if c.launch.cluster is None:
        c.fail(LaunchError, "a TMA multicast in a kernel launched without a cluster shape: launch it with "
               "cluster=(x, y, z) (#[cluster_launch] does so through oxide.load)", mask, loc)
    ranks = [r for r in range(16) if bits >> r & 1]
    if any(r >= len(c.cluster_peers) for r in ranks):
        raise SharedMemoryError(f"a TMA multicast mask {bits:#06x} names a block outside the cluster of "
                                f"{len(c.cluster_peers)} blocks")
    return [c.cluster_peers[r].window for r in ranks]


def tma_store(c: Threads, mask: Any, tensor_map: Any, src: Ptr, coords: Sequence[Any], loc: int) -> None:
    """Each thread's box copy from shared memory at `src` to the tensor (complete at once)."""
    array, _, _, swizzle, _ = _map(c, tensor_map, loc)
    box = tuple(reversed(tensor_map.box))
    with located(c, mask, loc):
        if src.buffer.window is None:
            raise SharedMemoryError(f"a TMA store reads shared memory; this pointer is into {src.buffer.what}")
        addresses = c.shared_address(src)
        for lane in _lanes(c, mask):
            tma.box_store(src.buffer.window, int(addresses[lane]), array, box,
                          [_per_lane(c, x, lane) for x in coords], swizzle_mode=swizzle)


def not_in_lockstep(c: Threads, loc: int) -> None:
    """The lock-step function of a kernel that needs the scheduled mode (launch refuses to run it)."""
    raise LaunchError(f"kernel `{c.launch.kernel}` runs only with schedule=\"warps\" ({c.launch.loc(loc)})")
