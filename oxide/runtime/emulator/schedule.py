"""Scheduled execution: a kernel runs as one coroutine per warp, so that warps progress independently and
suspend where the GPU would block them (sync_threads, an mbarrier wait, cluster and grid syncs).

Design: each block is its own `Threads` (one block per batch) and each warp a generator running the kernel's
scheduled function with its warp's lanes as the entry mask. The lanes of the other warps are masked off,
which every rule already honours (that is how divergence runs in lock step), so shared memory, race
tracking, warp collectives and error reports work unchanged; the price is that each warp computes on its
block's lane vectors (warps-per-block times the lock-step arithmetic), paid only by kernels that need the
mode. A warp runs until it yields a `Wait`; the scheduler resumes a warp whose wait is ready, releases group
waits (a block's sync_threads, a cluster's or the grid's sync) when every warp of the group has arrived,
and reports a deadlock, naming every blocked wait, when nothing can move: never a hang.

Blocks that must be resident together run together: a cluster's blocks, or the whole grid when the
kernel syncs the grid; other blocks run one residency group after another.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from types import GeneratorType
from typing import Any

import numpy as np

from oxide.diagnostics import Diagnostic, parse_loc
from oxide.runtime.emulator.errors import BarrierDivergence, Deadlock
from oxide.runtime.emulator.threads import Launch, Threads


@dataclass
class Wait(ABC):
    """What a suspended warp waits for: `mask` (its threads at the wait) and the source location `loc`.
    A plain Wait is a condition the scheduler polls (`ready`); group waits are released by the scheduler."""

    mask: Any
    loc: int

    @abstractmethod
    def ready(self) -> bool:
        """Whether the warp may resume now."""

    @abstractmethod
    def what(self) -> str:
        """The wait as the deadlock report names it."""


@dataclass
class Until(Wait):
    """A warp waits until `condition()` holds; `description` names the wait in a deadlock report."""

    condition: Callable[[], bool] = field(default=lambda: True)
    description: Callable[[], str] = field(default=lambda: "a condition")

    def ready(self) -> bool:
        return bool(self.condition())

    def what(self) -> str:
        return self.description()


@dataclass
class GroupWait(Wait):
    """A barrier of a group of warps: the scheduler releases it when every warp of the group is at it."""

    scope = "group"

    def ready(self) -> bool:
        return False

    def what(self) -> str:
        return self.scope


class BlockSync(GroupWait):
    """sync_threads: every warp of the block."""

    scope = "sync_threads (every thread of the block)"


class ClusterSync(GroupWait):
    """A cluster-wide barrier: every warp of every block of the cluster."""

    scope = "the cluster barrier (every thread of every block of the cluster)"


class GridSync(GroupWait):
    """A grid-wide barrier: every warp of every block of the grid."""

    scope = "the grid barrier (every thread of the grid)"


@dataclass
class NamedSync(GroupWait):
    """A named barrier (`bar.sync id, threads`): released when `threads` threads of the block, in whole warps,
    are at barrier `barrier`; the other warps of the block go on."""

    barrier: int = 1
    threads: int = 32

    def what(self) -> str:
        return f"named barrier {self.barrier} ({self.threads} threads)"


def arrive_named(c: Threads, mask: Any, loc: int, barrier: int, threads: int) -> None:
    """`bar.arrive barrier, threads` by one warp (the coroutine whose lanes are `mask`): it counts 32 threads
    towards the barrier's next release (`_release_named`) and does not wait."""
    if not np.asarray(mask).any():
        return
    arrived = c.named_arrivals.get(barrier, (0, threads))[0]
    if arrived and c.named_arrivals[barrier][1] != threads:
        c.fail(BarrierDivergence, f"named barrier {barrier} is arrived at with different thread counts "
               f"({c.named_arrivals[barrier][1]} and {threads}: undefined behaviour on the GPU)", mask, loc)
    if arrived + 32 >= threads:  # the GPU would complete the barrier with no warp waiting at it
        c.fail(BarrierDivergence, f"named barrier {barrier} ({threads} threads) is completed by bar.arrive alone: "
               "its arrivals and waits do not pair up", mask, loc)
    c.named_arrivals[barrier] = (arrived + 32, threads)


@dataclass
class Warp:
    """One warp's coroutine: its block's `threads`, which cluster/grid group member block it is, its index."""

    threads: Threads
    block: int
    index: int
    coroutine: Any
    wait: Wait | None = None
    done: bool = False

    def step(self) -> None:
        """Run the warp until it suspends or finishes."""
        self.wait = None
        try:
            self.wait = next(self.coroutine)
        except StopIteration:
            self.done = True


def cluster_rank(block: Sequence[int], cluster: tuple[int, int, int]) -> int:
    """A block's rank within its cluster (x fastest)."""
    cx, cy, cz = cluster
    return int(block[0]) % cx + int(block[1]) % cy * cx + int(block[2]) % cz * cx * cy


def residency_groups(blocks: np.ndarray, cluster: tuple[int, int, int] | None, whole_grid: bool) -> list[np.ndarray]:
    """The blocks that run together: all (a grid sync), each cluster (in rank order), or one block each; in
    the order of `blocks` (shuffled or not) by each group's first block."""
    if whole_grid:
        return [blocks]
    if cluster is None or cluster == (1, 1, 1):
        return [blocks[k:k + 1] for k in range(len(blocks))]
    keys: dict[tuple[int, ...], list[np.ndarray]] = {}
    for block in blocks:
        keys.setdefault(tuple(int(b) // c for b, c in zip(block, cluster)), []).append(block)
    return [np.stack(sorted(group, key=lambda b: cluster_rank(b, cluster))) for group in keys.values()]


def run_group(launch: Launch, function: Callable[..., Any], values: Sequence[Any], blocks: np.ndarray,
              cluster: tuple[int, int, int] | None = None,
              on_blocks: Callable[[list[Threads]], None] | None = None) -> None:
    """Run the blocks of one residency group to completion, one coroutine per warp (`cluster`: the cluster
    shape, which says which blocks a cluster sync joins). `on_blocks` sees the group's Threads before any
    warp starts (the cluster model links their shared windows)."""
    threads = [Threads(launch, blocks[k:k + 1]) for k in range(len(blocks))]
    if on_blocks is not None:
        on_blocks(threads)
    shape = cluster or (1, 1, 1)
    clusters = [tuple(int(b) // s for b, s in zip(block, shape)) for block in blocks]
    warps: list[Warp] = []
    for b, c in enumerate(threads):
        for w in range((c.per_block + 31) // 32):
            warps.append(Warp(c, b, w, function(c, (c.linear // 32) == w, *values)))
    for warp in warps:
        warp.done = not isinstance(warp.coroutine, GeneratorType)  # a function with no yield ran whole
    live = [w for w in warps if not w.done]
    while live:
        moved = False
        for warp in live:
            if warp.wait is None or (not isinstance(warp.wait, GroupWait) and warp.wait.ready()):
                warp.step()
                moved = True
        moved = _release(warps, threads, clusters) or moved
        live = [w for w in live if not w.done]
        if live and not moved:
            _deadlock(launch, live)
    for c in threads:
        for ident, (arrived, counted) in c.named_arrivals.items():
            c.fail(BarrierDivergence, f"the block ended with {arrived} of named barrier {ident}'s {counted} threads "
                   "arrived (bar.arrive) and none waiting: its arrivals and waits do not pair up", c.full, 0)
        c.flush_races()


def _release(warps: list[Warp], threads: list[Threads], clusters: list[tuple[int, ...]]) -> bool:
    """Release every group wait whose whole group has arrived; True when one was."""
    released = False
    groups: list[tuple[type, list[Warp]]] = [(GridSync, warps)]
    for key in dict.fromkeys(clusters):
        groups.append((ClusterSync, [w for w in warps if clusters[w.block] == key]))
    for b in range(len(threads)):
        groups.append((BlockSync, [w for w in warps if w.block == b]))
    for kind, members in groups:
        waiting = [w for w in members if isinstance(w.wait, kind)]
        if not waiting or any(not w.done and not isinstance(w.wait, kind) for w in members):
            continue
        # Warps that finished without arriving make this a BarrierDivergence (as in lock step).
        loc = waiting[0].wait.loc  # type: ignore[union-attr]
        for b in sorted({w.block for w in members}):
            _block_barrier(threads[b], [w for w in members if w.block == b], int(loc))
        if kind is GridSync:
            for tracker in threads[0].launch.global_trackers:
                tracker.order_all()  # the grid barrier orders every block's earlier accesses with later ones
        for w in waiting:
            w.wait = None
        released = True
    for b, c in enumerate(threads):
        released = _release_named(c, [w for w in warps if w.block == b and isinstance(w.wait, NamedSync)]) or released
    return released


def _release_named(c: Threads, at: list[Warp]) -> bool:
    """Release each named barrier of one block that enough warps have reached, counting the warps that arrived
    at it without waiting (`arrive_named`); True when one was. A warp counts as 32 threads, as on the GPU, where
    a barrier is executed per warp; when more warps wait than the barrier counts, the first of them complete it
    and the others start its next round."""
    released = False
    for ident in sorted({w.wait.barrier for w in at}):  # type: ignore[union-attr]
        # (A warp released at an earlier id this round no longer waits.)
        group = [w for w in at if isinstance(w.wait, NamedSync) and w.wait.barrier == ident]
        first = group[0].wait
        assert isinstance(first, NamedSync)
        arrived, counted = c.named_arrivals.get(ident, (0, first.threads))
        if any(w.wait.threads != first.threads for w in group) or counted != first.threads:  # type: ignore[union-attr]
            c.fail(BarrierDivergence, f"named barrier {ident} is awaited with different thread counts "
                   f"({sorted({w.wait.threads for w in group} | {counted})}: undefined behaviour on the GPU)",  # type: ignore[union-attr]
                   first.mask, first.loc)
        if 32 * len(group) + arrived < first.threads:
            continue
        c.order_point()
        waiting = min(len(group), (first.threads - arrived) // 32)
        c.named_arrivals.pop(ident, None)
        for w in group[:waiting]:
            w.wait = None
        released = True
    return released


def _block_barrier(c: Threads, warps: list[Warp], loc: int) -> None:
    """The barrier of one block's warps, with the lock-step checks: every thread of the block at the same
    barrier (a warp that finished, or a warp at another barrier, did not arrive)."""
    at = [w for w in warps if w.wait is not None]
    if not at:
        c.fail(BarrierDivergence, "a cluster or grid barrier that no thread of this block reached (undefined "
               "behaviour on the GPU); this thread did not arrive", c.full, loc)
    first = at[0].wait
    assert first is not None
    same = [w.wait for w in at if w.wait is not None and w.wait.loc == first.loc]
    mask = np.logical_or.reduce([w.mask for w in same]) if len(same) > 1 else np.asarray(same[0].mask)
    if not mask.all():
        arrived = int(mask.sum())
        c.fail(BarrierDivergence, f"sync_threads reached by {arrived} of the block's {c.per_block} threads "
               "(undefined behaviour on the GPU); this thread did not arrive", ~mask, first.loc)
    c.barrier(c.full, first.loc)


def _threads_text(c: Threads, mask: Any) -> str:
    lanes = np.flatnonzero(np.asarray(mask))
    launch = c.launch
    first, last = launch.thread_of(int(c.linear[lanes[0]])), launch.thread_of(int(c.linear[lanes[-1]]))
    span = f"thread {first}" if lanes.size == 1 else f"threads {first}..{last} ({lanes.size} threads)"
    return f"block {tuple(int(b) for b in c.bid)}, {span}"


def _deadlock(launch: Launch, live: list[Warp]) -> None:
    """Raise Deadlock naming every blocked wait (which threads, what they wait for, where)."""
    lines, notes = [], []
    for warp in live:
        wait = warp.wait
        assert wait is not None
        who = _threads_text(warp.threads, wait.mask)
        text = f"{who} (warp {warp.index}) waits for {wait.what()}"
        where = launch.loc(wait.loc)
        lines.append(f"  {text} at {where}")
        notes.append(Diagnostic("note", text, parse_loc(where)))
    head = (f"kernel `{launch.kernel}`: deadlock: every warp still running waits and none can proceed "
            f"({len(live)} blocked)")
    first = launch.loc(live[0].wait.loc) if live[0].wait is not None else "<unknown location>"
    raise Deadlock(head + ":\n" + "\n".join(lines), [Diagnostic("error", head, parse_loc(first), notes=notes)])
