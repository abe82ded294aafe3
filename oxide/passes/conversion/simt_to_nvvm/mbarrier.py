"""Lowering of simt mbarrier ops and async-proxy fences to the NVVM dialect's own ops: nvvm.mbarrier.init,
arrive (with a count, or at cluster scope on a shared::cluster address), arrive.nocomplete, arrive.expect_tx,
expect_tx, test.wait, try_wait (a token, or an i32 parity), inval; nvvm.fence.proxy and
nvvm.fence.mbarrier.init. The blocking waits become an scf.while around one try_wait (the token wait spins on
test_wait before sm_90).

The parity wait needs sm_90 (LLVM 22 selects no parity test_wait for older chips). NVVM's own blocking `nvvm.mbarrier.try_wait.parity` is not used for wait_parity: it is an inline-PTX template
with fixed labels that addresses the barrier through a 32-bit register, where a loop of the result-returning
try_wait keeps the 64-bit address and lets LLVM place the branch.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, llvm, nvvm, scf

from oxide.dialects.simt import mbarrier as ops
from oxide.passes.conversion.lowering import LoweringContext
from oxide.passes.conversion.simt_to_nvvm.rules import lowering

_I1 = "i1"
_I64 = "i64"
_SM90 = "compile for sm_90 or newer (--chip sm_90)"

_PROXY = {
    "shared_cta": (nvvm.ProxyKind.async_shared, nvvm.SharedSpace.shared_cta),
    "shared_cluster": (nvvm.ProxyKind.async_shared, nvvm.SharedSpace.shared_cluster),
    "global": (nvvm.ProxyKind.async_global, None),
    "all": (nvvm.ProxyKind.async_, None),
}


def _type(name: str) -> ir.Type:
    return ir.IntegerType.get_signless(64 if name == _I64 else 1)


def _bar(ctx: LoweringContext, op: ir.OpView) -> ir.Value:
    return ctx.parts(op.bar)[0]


@lowering(ops.MbarrierInitOp)
def lower_mbarrier_init(ctx: LoweringContext, op: ops.MbarrierInitOp) -> None:
    ctx.require_sm(80, "mbarrier.init", "compile for sm_80 or newer")
    nvvm.mbarrier_init(_bar(ctx, op), op.count)


@lowering(ops.MbarrierArriveOp)
def lower_mbarrier_arrive(ctx: LoweringContext, op: ops.MbarrierArriveOp) -> ir.Value:
    if op.count is None:
        ctx.require_sm(80, "mbarrier.arrive", "compile for sm_80 or newer")
    else:
        ctx.require_sm(90, "mbarrier.arrive with an arrival count", f"arrive once per call, or {_SM90}")
    return nvvm.mbarrier_arrive(_type(_I64), _bar(ctx, op), count=op.count)


@lowering(ops.MbarrierArriveNoCompleteOp)
def lower_mbarrier_arrive_no_complete(ctx: LoweringContext, op: ops.MbarrierArriveNoCompleteOp) -> ir.Value:
    ctx.require_sm(80, "mbarrier.arrive.noComplete", "compile for sm_80 or newer")
    return nvvm.mbarrier_arrive_nocomplete(_type(_I64), _bar(ctx, op), op.count)


@lowering(ops.MbarrierArriveExpectTxOp)
def lower_mbarrier_arrive_expect_tx(ctx: LoweringContext, op: ops.MbarrierArriveExpectTxOp) -> ir.Value:
    ctx.require_sm(90, "mbarrier.arrive.expect_tx (transaction counts)", _SM90)
    bar = _bar(ctx, op)
    if op.count is None:
        return nvvm.mbarrier_arrive_expect_tx(_type(_I64), bar, op.tx_bytes)
    # arrive.expect_tx arrives exactly once; several arrivals are the expect_tx and a counted arrive, which
    # is the same transition (the PTX ISA defines arrive.expect_tx as this pair).
    nvvm.mbarrier_expect_tx(bar, op.tx_bytes)
    return nvvm.mbarrier_arrive(_type(_I64), bar, count=op.count)


@lowering(ops.MbarrierExpectTxOp)
def lower_mbarrier_expect_tx(ctx: LoweringContext, op: ops.MbarrierExpectTxOp) -> None:
    ctx.require_sm(90, "mbarrier.expect_tx (transaction counts)", _SM90)
    nvvm.mbarrier_expect_tx(_bar(ctx, op), op.tx_bytes)


@lowering(ops.MbarrierTestWaitOp)
def lower_mbarrier_test_wait(ctx: LoweringContext, op: ops.MbarrierTestWaitOp) -> ir.Value:
    ctx.require_sm(80, "mbarrier.test_wait", "compile for sm_80 or newer")
    return nvvm.mbarrier_test_wait(_type(_I1), _bar(ctx, op), op.token)


@lowering(ops.MbarrierTryWaitOp)
def lower_mbarrier_try_wait(ctx: LoweringContext, op: ops.MbarrierTryWaitOp) -> ir.Value:
    ctx.require_sm(90, "mbarrier.try_wait", f"use mbarrier_test_wait, or {_SM90}")
    return nvvm.mbarrier_try_wait(_type(_I1), _bar(ctx, op), op.token)


@lowering(ops.MbarrierTryWaitParityOp)
def lower_mbarrier_try_wait_parity(ctx: LoweringContext, op: ops.MbarrierTryWaitParityOp) -> ir.Value:
    ctx.require_sm(90, "mbarrier.try_wait.parity", _SM90)
    # An i32 state operand selects the parity form of nvvm.mbarrier.try_wait.
    return nvvm.mbarrier_try_wait(_type(_I1), _bar(ctx, op), op.parity)


def _wait_loop(ctx: LoweringContext, bar: ir.Value, phase: ir.Value) -> None:
    """Spin until the phase (a token, or an i32 parity) completes: try_wait on sm_90, test_wait before."""
    test = nvvm.mbarrier_try_wait if ctx.options.target.sm >= 90 else nvvm.mbarrier_test_wait
    loop = scf.WhileOp([], [])
    before = loop.before.blocks.append()
    with ir.InsertionPoint(before):
        done = test(_type(_I1), bar, phase)
        scf.condition(arith.xori(done, arith.constant(_type(_I1), 1)), [])
    after = loop.after.blocks.append()
    with ir.InsertionPoint(after):
        scf.yield_([])


@lowering(ops.MbarrierWaitOp)
def lower_mbarrier_wait(ctx: LoweringContext, op: ops.MbarrierWaitOp) -> None:
    ctx.require_sm(80, "mbarrier wait", "compile for sm_80 or newer")
    _wait_loop(ctx, _bar(ctx, op), op.token)


@lowering(ops.MbarrierWaitParityOp)
def lower_mbarrier_wait_parity(ctx: LoweringContext, op: ops.MbarrierWaitParityOp) -> None:
    # LLVM 22's NVPTX backend selects the parity test_wait only for sm_90, so there is no Ampere loop.
    ctx.require_sm(90, "mbarrier parity wait", _SM90)
    _wait_loop(ctx, _bar(ctx, op), op.parity)


@lowering(ops.MbarrierInvalOp)
def lower_mbarrier_inval(ctx: LoweringContext, op: ops.MbarrierInvalOp) -> None:
    ctx.require_sm(80, "mbarrier.inval", "compile for sm_80 or newer")
    nvvm.mbarrier_inval(_bar(ctx, op))


@lowering(ops.MbarrierArriveClusterOp)
def lower_mbarrier_arrive_cluster(ctx: LoweringContext, op: ops.MbarrierArriveClusterOp) -> None:
    ctx.require_sm(90, "a cluster-scope mbarrier arrive", _SM90)
    # Address space 7 is shared::cluster; an arrive there returns no token (nvvm's verifier insists).
    remote = llvm.inttoptr(ir.Type.parse("!llvm.ptr<7>"), op.addr)
    scope = nvvm.MemScopeKind.CLUSTER if op.scope == "cluster" else nvvm.MemScopeKind.CTA
    nvvm.mbarrier_arrive(None, remote, scope=scope)


@lowering(ops.FenceProxyAsyncOp)
def lower_fence_proxy_async(ctx: LoweringContext, op: ops.FenceProxyAsyncOp) -> None:
    ctx.require_sm(90, "fence.proxy.async", _SM90)
    kind, space = _PROXY[op.space]
    nvvm.fence_proxy(kind, space=space)


@lowering(ops.FenceMbarrierInitOp)
def lower_fence_mbarrier_init(ctx: LoweringContext, op: ops.FenceMbarrierInitOp) -> None:
    ctx.require_sm(90, "fence.mbarrier_init", _SM90)
    nvvm.fence_mbarrier_init()
