"""Thread-block clusters on the emulator: the split cluster barrier (arrive, then wait) over the cluster's
blocks, which run together in one residency group (schedule.py), and the cluster special registers.

Every thread counts its arrives and waits. A thread's k-th wait is released once every thread of every
block of the cluster has arrived k times; a second arrive before the wait, or a wait without an arrive, is
undefined behaviour on the GPU and an error here. A non-relaxed arrive releases the thread's earlier
accesses and the wait acquires them (ordering points for the race checks).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from oxide.runtime.emulator.errors import BarrierDivergence, LaunchError
from oxide.runtime.emulator.schedule import Until, cluster_rank
from oxide.runtime.emulator.threads import Threads


class ClusterBarrier:
    """The arrive and wait counts of every thread of one cluster (one row per block, by rank)."""

    def __init__(self, blocks: int, per_block: int):
        self.arrived = np.zeros((blocks, per_block), np.int64)
        self.waited = np.zeros((blocks, per_block), np.int64)


def link(threads: list[Threads], shape: tuple[int, int, int] | None) -> None:
    """Give the blocks of a residency group their cluster peers (by rank) and shared cluster barriers."""
    if shape is None:
        return
    clusters: dict[tuple[int, ...], list[Threads]] = {}
    for c in threads:
        block = tuple(int(b) for b in c.bid)
        c.cluster_rank = cluster_rank(block, shape)
        clusters.setdefault(tuple(b // s for b, s in zip(block, shape)), []).append(c)
    for members in clusters.values():
        members.sort(key=lambda c: c.cluster_rank)
        barrier = ClusterBarrier(len(members), members[0].per_block)
        for c in members:
            c.cluster_peers = members
            c.cluster_barrier = barrier  # type: ignore[attr-defined]


def _barrier(c: Threads, mask: Any, loc: int, what: str) -> ClusterBarrier:
    barrier = getattr(c, "cluster_barrier", None)
    if c.launch.cluster is None or barrier is None:
        c.fail(LaunchError, f"{what} in a kernel launched without a cluster shape: launch it with cluster=(x, y, z) "
               "(#[cluster_launch] does so through oxide.load)", mask, loc)
    return barrier


def arrive(c: Threads, mask: Any, relaxed: bool, loc: int) -> None:
    barrier = _barrier(c, mask, loc, "cluster_arrive")
    lanes = np.flatnonzero(c.broadcast(mask))
    row_a, row_w = barrier.arrived[c.cluster_rank], barrier.waited[c.cluster_rank]
    twice = np.zeros(c.lanes, np.bool_)
    twice[lanes] = row_a[lanes] > row_w[lanes]
    if twice.any():
        c.fail(BarrierDivergence, "arrives on the cluster barrier twice without waiting in between (undefined "
               "behaviour on the GPU)", twice, loc)
    row_a[lanes] += 1
    if not relaxed:
        c.order_point()


def wait(c: Threads, mask: Any, loc: int) -> Iterator[Until]:
    """Suspend the warp until every thread of the cluster has arrived as often as this warp's threads."""
    barrier = _barrier(c, mask, loc, "cluster_wait")
    lanes = np.flatnonzero(c.broadcast(mask))
    row_a, row_w = barrier.arrived[c.cluster_rank], barrier.waited[c.cluster_rank]
    early = np.zeros(c.lanes, np.bool_)
    early[lanes] = row_a[lanes] <= row_w[lanes]
    if early.any():
        c.fail(BarrierDivergence, "waits on the cluster barrier without arriving first (undefined behaviour on "
               "the GPU)", early, loc)
    phase = int(row_a[lanes].max()) if lanes.size else 0

    def what() -> str:
        done = int((barrier.arrived >= phase).sum())
        return (f"the cluster barrier, arrival {phase} ({done} of the cluster's {barrier.arrived.size} threads "
                "have arrived)")

    if lanes.size and int(barrier.arrived.min()) < phase:
        yield Until(mask, loc, lambda: int(barrier.arrived.min()) >= phase, what)
    row_w[lanes] += 1
    c.order_point()


def register(c: Threads, name: str) -> Any:
    """A cluster special register (%cluster_ctarank, %clusterid.x, ...) from the launch's cluster shape
    (1 x 1 x 1 when it has none, as on the GPU); per lane in a lock-step batch of blocks."""
    shape = c.launch.cluster or (1, 1, 1)
    bid = [np.asarray(b, np.int64) for b in c.bid]
    axis = "xyz".index(name[-1]) if name[-2] == "_" else 0
    values = {
        "cluster_ctarank": lambda: bid[0] % shape[0] + bid[1] % shape[1] * shape[0]
        + bid[2] % shape[2] * shape[0] * shape[1],
        "cluster_nctarank": lambda: shape[0] * shape[1] * shape[2],
        "cluster_ctaid": lambda: bid[axis] % shape[axis],
        "cluster_nctaid": lambda: shape[axis],
        "clusterid": lambda: bid[axis] // shape[axis],
        "nclusterid": lambda: c.launch.grid[axis] // shape[axis],
    }
    key = name if name in values else name[:-2]
    return np.asarray(values[key]()).astype(np.int32)[()]
