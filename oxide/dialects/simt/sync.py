"""simt synchronisation ops: the block barrier, warp synchronisation and memory fences.

A barrier orders the accesses of the threads it joins; a fence orders one thread's own accesses as
other threads at the fence's scope observe them, and joins no one.
"""

from __future__ import annotations

from oxide.dialects.simt.dialect import DIALECT
from oxide.ir.constraints import INTEGER_ATTR, Is, one_of
from oxide.ir.declare import Attr, Op, Operand, VerifyError

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
class NamedBarrierOp(Op):
    """Named barrier `id` joining `threads` threads (whole warps) of the block: each waits until that many have
    arrived. Lets a subset of the block synchronise while other warps do something else (the consumer
    warpgroups of a warp-specialized GEMM, while the producer warpgroup issues copies). Barrier 0 is
    `sync_threads`'s; ids 1 to 15 are free. Not part of the Rust API: the tile lowering emits it.

    PTX `bar.sync id, threads`.
    """

    mnemonic = "named_barrier"
    id = Attr(INTEGER_ATTR, "the hardware barrier: 1 to 15 (0 is sync_threads')")
    threads = Attr(INTEGER_ATTR, "how many threads arrive: a multiple of 32 from 32 to 1024")

    def verify_(self) -> None:
        _check_named(self.id, self.threads)


def _check_named(ident: object, threads: object) -> None:
    """A named barrier's id and thread count, as bar.sync and bar.arrive take them."""
    if any(isinstance(v, bool) or not isinstance(v, int) for v in (ident, threads)):
        raise VerifyError(f"named barrier id and threads must be integers, got {ident} and {threads}")
    if not 1 <= ident <= 15:  # type: ignore[operator]
        raise VerifyError(f"named barrier id must be 1 to 15 (0 is sync_threads'), got {ident}")
    if not (32 <= threads <= 1024 and threads % 32 == 0):  # type: ignore[operator]
        raise VerifyError(f"a named barrier joins whole warps: 32 to 1024 threads, a multiple of 32; got {threads}")


@DIALECT.op
class NamedBarrierArriveOp(Op):
    """Arrive on named barrier `id` (joining `threads` threads) without waiting: the executing warp counts
    towards the threads that release the warps waiting at it (`named_barrier`), and goes on. A producer
    signals consumers this way (the ping-pong order of two warpgroups). Not part of the Rust API: the tile
    lowering emits it.

    PTX `bar.arrive id, threads`.
    """

    mnemonic = "named_barrier_arrive"
    id = Attr(INTEGER_ATTR, "the hardware barrier: 1 to 15 (0 is sync_threads')")
    threads = Attr(INTEGER_ATTR, "how many threads the barrier joins, waiting or arriving: a multiple of 32")

    def verify_(self) -> None:
        _check_named(self.id, self.threads)


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
