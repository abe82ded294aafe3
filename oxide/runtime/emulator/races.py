"""Race detection: conflicting accesses (same element, at least one write, neither atomic) by two threads
with nothing ordering them.

Two accesses are ordered when the same thread made them, or when they are in the same block with a
`sync_threads` between them. Each barrier interval of each block has its own epoch number, so "unordered"
is: different threads and (different blocks or the same epoch). Writes are checked as they happen,
against the element's last write and last recorded read. Reads are logged and checked in bulk at the next
barrier, at the end of a block batch and at the end of the launch, against the element's last write (a read
that a later write in the same interval conflicts with is found there too); then they become the element's
last recorded read. One record per element is kept, so a race can go unreported behind another one, but
every report names two real unordered conflicting accesses.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from oxide.runtime.emulator.threads import Threads


class _Slot:
    """Who accessed each element last: global thread id (-1: nobody), source location id, epoch."""

    def __init__(self, n: int):
        self.tid = np.full(n, -1, np.int64)
        self.loc = np.zeros(n, np.int32)
        self.epoch = np.zeros(n, np.int64)

    def conflicts(self, idx: np.ndarray, tid: np.ndarray, epoch: np.ndarray, per_block: int) -> np.ndarray:
        other = self.tid[idx]
        return (other >= 0) & (other != tid) & ((other // per_block != tid // per_block)
                                                | (self.epoch[idx] == epoch))

    def record(self, idx: np.ndarray, tid: np.ndarray, loc: Any, epoch: np.ndarray) -> None:
        self.tid[idx] = tid
        self.loc[idx] = loc
        self.epoch[idx] = epoch


@dataclass
class RaceTracker:
    """The access records of one buffer (a kernel argument, a batch's shared array). A shared array's
    tracker `resets` at each barrier, so it keeps no reads past one."""

    size: int
    what: str
    resets: bool = False
    write: _Slot | None = None
    read: _Slot | None = None
    pending: list[tuple[np.ndarray, np.ndarray, Any, int]] = field(default_factory=list)

    def on_write(self, c: Threads, mask: Any, index: Any, loc: int) -> None:
        idx, tid, epoch = c.active_lanes(mask, index)
        if idx.size == 0:
            return
        if idx.size > 1:
            order = np.argsort(idx, kind="stable")
            same = np.flatnonzero(idx[order][1:] == idx[order][:-1])
            if same.size:
                a, b = order[same[0]], order[same[0] + 1]
                c.report_race(self.what, self._element(idx[a], c), int(tid[a]), loc, "writes", int(tid[b]), loc,
                              "writes", same_op=True)
        for slot, verb in ((self.write, "writes"), (self.read, "reads")):
            if slot is not None:
                bad = slot.conflicts(idx, tid, epoch, c.per_block)
                if bad.any():
                    k = int(np.argmax(bad))
                    c.report_race(self.what, self._element(idx[k], c), int(tid[k]), loc, "writes",
                                  int(slot.tid[idx[k]]), int(slot.loc[idx[k]]), verb)
        if self.write is None:
            self.write = _Slot(self.size)
        self.write.record(idx, tid, loc, epoch)

    def on_read(self, c: Threads, mask: Any, index: Any, loc: int) -> None:
        idx, tid, epoch = c.active_lanes(mask, index)
        if idx.size:
            self.pending.append((idx, tid, epoch, loc))

    def flush(self, c: Threads) -> None:
        """Check the logged reads against the writes, then remember them as the elements' last reads."""
        if not self.pending:
            return
        pending, self.pending = self.pending, []
        idx = np.concatenate([p[0] for p in pending])
        tid = np.concatenate([p[1] for p in pending])
        epoch = np.concatenate([np.broadcast_to(p[2], p[0].shape) for p in pending])
        loc = np.repeat(np.array([p[3] for p in pending], np.int32), [len(p[0]) for p in pending])
        if self.write is not None:
            bad = self.write.conflicts(idx, tid, epoch, c.per_block)
            if bad.any():
                k = int(np.argmax(bad))
                c.report_race(self.what, self._element(idx[k], c), int(self.write.tid[idx[k]]),
                              int(self.write.loc[idx[k]]), "writes", int(tid[k]), int(loc[k]), "reads")
        if not self.resets:
            if self.read is None:
                self.read = _Slot(self.size)
            self.read.record(idx, tid, loc, epoch)

    def _element(self, index: Any, c: Threads) -> int:
        """The element's index as the kernel sees it (a shared array's numbering restarts in each block)."""
        return int(index) % (self.size // c.count) if self.resets else int(index)

    def order_all(self) -> None:
        """Forget every record, reads too: a grid-wide barrier orders all earlier accesses with later ones."""
        self.pending.clear()
        self.write = self.read = None

    def reset(self, elements: np.ndarray | None = None) -> None:
        """Forget the records (of `elements` only, when given): a barrier orders what came before."""
        self.pending.clear()
        if elements is None:
            self.write = None
        elif self.write is not None:
            self.write.tid[elements] = -1
