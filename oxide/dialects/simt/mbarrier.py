"""simt mbarrier ops: cuda-oxide's raw `Barrier` functions (`barrier::mbarrier_*`), the ops its
`ManagedBarrier` typestate emits, and the fences that order barrier initialisation and ordinary memory
accesses against the asynchronous proxy (TMA copies, wgmma).

An mbarrier is a 64-bit object in shared memory that counts arrivals, and on sm_90 also transaction bytes
(the bytes asynchronous copies still owe it), per phase. A phase completes when both reach zero; the
barrier then starts the next phase with its initial arrival count. An arrival returns a token naming the
phase it belongs to; waits take that token, or the parity (0 or 1) of the phase to wait for.

The barrier operand is a raw pointer into shared memory to the 64-bit object: `!simt.ptr<i64, 3>` (a
`static mut BAR: Barrier` is one). Counts and byte counts are i32 (PTX's are 32-bit registers), tokens i64.

Chips: init, arrive (without a count), arrive_no_complete, test_wait and inval are sm_80. Transaction
counts (arrive_expect_tx, expect_tx), arrive with a count, try_wait, try_wait_parity, the cluster-scope
arrive, the parity wait and the async-proxy fences are sm_90. Each blocking wait is one op (the lowering makes
the loop, the emulator suspends on it): the token wait is a try_wait loop on sm_90, a test_wait loop on sm_80. The lowering reports an
older target as a located error at the op.
"""

from __future__ import annotations

from oxide.dialects.simt.dialect import DIALECT
from oxide.dialects.simt.types import PtrType
from oxide.ir.constraints import I1, AnyType, Is, Parametric, one_of
from oxide.ir.declare import Attr, Op, Operand, OptOperand, Result, VerifyError, int_value

__all__ = [
    "MbarrierInitOp", "MbarrierArriveOp", "MbarrierArriveNoCompleteOp", "MbarrierArriveExpectTxOp",
    "MbarrierExpectTxOp", "MbarrierTestWaitOp", "MbarrierTryWaitOp", "MbarrierTryWaitParityOp", "MbarrierWaitOp",
    "MbarrierWaitParityOp", "MbarrierInvalOp", "MbarrierArriveClusterOp", "FenceProxyAsyncOp",
    "FenceMbarrierInitOp",
]

# Any simt pointer reaches the verifier, which names the wrong space or element type in words: IRDL's own
# message for a parametric mismatch does not say which parameter is wrong.
_ANY_PTR = Parametric(PtrType, AnyType(), AnyType())
_I32 = Is("i32")
_I64 = Is("i64")
_SPACE_NAMES = {0: "generic", 1: "global", 3: "shared", 4: "constant", 5: "local", 7: "shared::cluster"}

# fence.proxy.async's state spaces: the CTA's shared memory, the cluster's, global memory, or all of them.
PROXY_SPACES = ("shared_cta", "shared_cluster", "global", "all")


def check_barrier_pointer(ptr_type: object) -> None:
    """Raise VerifyError unless `ptr_type` is a shared-memory pointer to a 64-bit barrier."""
    elem, space_attr = PtrType.parameters_of(ptr_type)
    space = int_value(space_attr)
    if space != 3:
        where = _SPACE_NAMES.get(space, f"address space {space}")
        raise VerifyError(f"an mbarrier lives in shared memory: the barrier must be a !simt.ptr<i64, 3>, "
                          f"not a {where} pointer ({ptr_type})")
    if str(elem) != "i64":
        raise VerifyError(f"an mbarrier is a 64-bit object: the barrier must be a !simt.ptr<i64, 3>, "
                          f"not a pointer to {elem} ({ptr_type})")


class _BarrierOp(Op):
    """Shared verification of the ops whose first operand is the barrier."""

    def verify_(self) -> None:
        check_barrier_pointer(self.bar.type)


@DIALECT.op
class MbarrierInitOp(_BarrierOp):
    """`mbarrier_init(bar, count)`: initialise the barrier for phases of `count` arrivals (1..=2^20-1).
    Exactly one thread initialises a barrier, before any other operation on it.

    PTX `mbarrier.init.shared.b64` (sm_80).
    """

    mnemonic = "mbarrier_init"
    bar = Operand(_ANY_PTR, "the barrier: !simt.ptr<i64, 3>")
    count = Operand(_I32, "the arrivals each phase expects")


@DIALECT.op
class MbarrierArriveOp(_BarrierOp):
    """`mbarrier_arrive(bar)`: arrive once (or `count` times) on the current phase; the result is the
    phase's token.

    PTX `mbarrier.arrive.shared.b64` (sm_80; with a count, sm_90).
    """

    mnemonic = "mbarrier_arrive"
    bar = Operand(_ANY_PTR, "the barrier: !simt.ptr<i64, 3>")
    count = OptOperand(_I32, "how many arrivals (default 1)")
    token = Result(_I64, "the phase token")


@DIALECT.op
class MbarrierArriveNoCompleteOp(_BarrierOp):
    """`mbarrier_arrive_no_complete(bar)`: arrive `count` times without being the arrival that completes
    the phase (the program guarantees it is not); the result is the phase's token.

    PTX `mbarrier.arrive.noComplete.shared.b64` (sm_80).
    """

    mnemonic = "mbarrier_arrive_no_complete"
    bar = Operand(_ANY_PTR, "the barrier: !simt.ptr<i64, 3>")
    count = Operand(_I32, "how many arrivals")
    token = Result(_I64, "the phase token")


@DIALECT.op
class MbarrierArriveExpectTxOp(_BarrierOp):
    """`mbarrier_arrive_expect_tx(bar, tx_bytes)`: add `tx_bytes` to the bytes the current phase waits
    for (the asynchronous copies that signal the barrier pay them off), then arrive once (or `count`
    times); the result is the phase's token.

    PTX `mbarrier.arrive.expect_tx.shared.b64` (sm_90); with a count, `mbarrier.expect_tx` then
    `mbarrier.arrive` with the count.
    """

    mnemonic = "mbarrier_arrive_expect_tx"
    bar = Operand(_ANY_PTR, "the barrier: !simt.ptr<i64, 3>")
    tx_bytes = Operand(_I32, "the transaction bytes to expect")
    count = OptOperand(_I32, "how many arrivals (default 1)")
    token = Result(_I64, "the phase token")


@DIALECT.op
class MbarrierExpectTxOp(_BarrierOp):
    """`expect_tx(bar, tx_bytes)`: add `tx_bytes` to the bytes the current phase waits for, without
    arriving.

    PTX `mbarrier.expect_tx.relaxed.cta.shared.b64` (sm_90).
    """

    mnemonic = "mbarrier_expect_tx"
    bar = Operand(_ANY_PTR, "the barrier: !simt.ptr<i64, 3>")
    tx_bytes = Operand(_I32, "the transaction bytes to expect")


@DIALECT.op
class MbarrierTestWaitOp(_BarrierOp):
    """`mbarrier_test_wait(bar, token)`: whether the phase `token` names has completed (never blocks).

    PTX `mbarrier.test_wait.shared.b64` (sm_80).
    """

    mnemonic = "mbarrier_test_wait"
    bar = Operand(_ANY_PTR, "the barrier: !simt.ptr<i64, 3>")
    token = Operand(_I64, "a token of this barrier's phase")
    done = Result(I1, "the phase has completed")


@DIALECT.op
class MbarrierTryWaitOp(_BarrierOp):
    """`mbarrier_try_wait(bar, token)`: whether the phase `token` names has completed, after the hardware
    has possibly suspended the thread for a while (a potentially blocking test).

    PTX `mbarrier.try_wait.shared.b64` (sm_90).
    """

    mnemonic = "mbarrier_try_wait"
    bar = Operand(_ANY_PTR, "the barrier: !simt.ptr<i64, 3>")
    token = Operand(_I64, "a token of this barrier's phase")
    done = Result(I1, "the phase has completed")


@DIALECT.op
class MbarrierTryWaitParityOp(_BarrierOp):
    """`mbarrier_try_wait_parity(bar, parity)`: whether the phase of parity `parity` (0 even, 1 odd) has
    completed, as try_wait (for producers that arrive without a token: TMA, tcgen05.commit).

    PTX `mbarrier.try_wait.parity.shared.b64` (sm_90).
    """

    mnemonic = "mbarrier_try_wait_parity"
    bar = Operand(_ANY_PTR, "the barrier: !simt.ptr<i64, 3>")
    parity = Operand(_I32, "the phase parity, 0 or 1")
    done = Result(I1, "the phase has completed")


@DIALECT.op
class MbarrierWaitOp(_BarrierOp):
    """`mbarrier_wait(bar, token)`: block until the phase `token` names has completed.

    A loop over `mbarrier.try_wait.shared.b64` (sm_90) or `mbarrier.test_wait.shared.b64` (sm_80).
    """

    mnemonic = "mbarrier_wait"
    bar = Operand(_ANY_PTR, "the barrier: !simt.ptr<i64, 3>")
    token = Operand(_I64, "a token of this barrier's phase")


@DIALECT.op
class MbarrierWaitParityOp(_BarrierOp):
    """`wait_parity(bar, parity)`: block until the phase of parity `parity` has completed.

    A loop over `mbarrier.try_wait.parity.shared.b64` (sm_90).
    """

    mnemonic = "mbarrier_wait_parity"
    bar = Operand(_ANY_PTR, "the barrier: !simt.ptr<i64, 3>")
    parity = Operand(_I32, "the phase parity, 0 or 1")


@DIALECT.op
class MbarrierInvalOp(_BarrierOp):
    """`mbarrier_inval(bar)`: invalidate the barrier so that its memory can be reused (no thread or
    asynchronous operation may still use it).

    PTX `mbarrier.inval.shared.b64` (sm_80).
    """

    mnemonic = "mbarrier_inval"
    bar = Operand(_ANY_PTR, "the barrier: !simt.ptr<i64, 3>")


@DIALECT.op
class MbarrierArriveClusterOp(Op):
    """`mbarrier_arrive_cluster(addr)`: arrive once, with release semantics at `scope`, on a barrier of any
    block of the cluster, named by its 64-bit shared::cluster address (as `map_shared_rank` gives it). No
    token: a thread cannot wait on another block's barrier. Scope `cluster` orders every earlier memory access
    of the thread before the arrival for the whole cluster (a fence that costs the warp hundreds of cycles);
    `cta` orders them for the arriving block only, which suffices when the waiter's side reads nothing the
    arriving thread wrote (a consumer releasing a stage it only read through wgmma, completed by its wait).

    PTX `mbarrier.arrive.release.{cluster,cta}.shared::cluster.b64 _, [addr]` (sm_90).
    """

    mnemonic = "mbarrier_arrive_cluster"
    addr = Operand(_I64, "the barrier's shared::cluster address")
    scope = Attr(one_of("cta", "cluster"), "the release's scope: cta or cluster")


@DIALECT.op
class FenceProxyAsyncOp(Op):
    """`fence_proxy_async_shared_cta()` & co: order this thread's earlier generic-proxy accesses (ordinary
    loads and stores) to `space` before later async-proxy accesses (TMA, wgmma) and the reverse. Spaces:
    shared_cta, shared_cluster, global, or all (every state space).

    PTX `fence.proxy.async{.shared::cta, .shared::cluster, .global, }` (sm_90).
    """

    mnemonic = "fence_proxy_async"
    space = Attr(one_of(*PROXY_SPACES), "shared_cta, shared_cluster, global or all")


@DIALECT.op
class FenceMbarrierInitOp(Op):
    """`fence_mbarrier_init_release_cluster()`: make this thread's earlier mbarrier inits visible, with
    release semantics, to the other blocks of the cluster (before they arrive remotely).

    PTX `fence.mbarrier_init.release.cluster` (sm_90).
    """

    mnemonic = "fence_mbarrier_init"
