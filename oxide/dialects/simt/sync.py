"""simt synchronisation ops: the block barrier, warp synchronisation and memory fences.

A barrier orders the accesses of the threads it joins; a fence orders one thread's own accesses as
other threads at the fence's scope observe them, and joins no one.
"""

from __future__ import annotations

from oxide.dialects.simt.dialect import DIALECT
from oxide.ir.constraints import Is, one_of
from oxide.ir.declare import Attr, Op, Operand

# The scopes of cuda-oxide's three fences, named as CUDA names them (block, device, system).
FENCE_SCOPES = ("block", "device", "system")


@DIALECT.op
class SyncThreadsOp(Op):
    """`thread::sync_threads()` (`__syncthreads`): wait until every thread of the block arrives, and
    make each one's earlier shared and global writes visible to the others.

    PTX `bar.sync 0`.
    """

    mnemonic = "sync_threads"


@DIALECT.op
class WarpSyncOp(Op):
    """`warp::sync_mask(mask)` (`__syncwarp`): wait until every lane named in `mask` arrives; the
    executing lane must be in the mask.

    PTX `bar.warp.sync mask`.
    """

    mnemonic = "warp_sync"
    mask = Operand(Is("i32"), "the participating lanes, one bit per lane")


@DIALECT.op
class ThreadFenceOp(Op):
    """`threadfence_block()` / `threadfence()` / `threadfence_system()`: order this thread's memory
    accesses as seen by the block, the device, or the whole system (host and peer devices).

    PTX `membar.cta`, `membar.gl`, `membar.sys` (which are `fence.sc.cta/gpu/sys` on sm_70+).
    """

    mnemonic = "thread_fence"
    scope = Attr(one_of(*FENCE_SCOPES), "who observes the ordering: block, device or system")
