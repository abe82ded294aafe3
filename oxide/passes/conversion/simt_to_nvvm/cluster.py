"""Lowering of simt cluster and grid ops: the cluster barrier to `nvvm.cluster.arrive[.relaxed]` and
`nvvm.cluster.wait`, distributed shared memory to `nvvm.mapa`, and the grid barrier to a barrier in global
memory built from NVVM fences, scoped loads and one atomic add.

The grid barrier (one thread per block arrives, the last one advances a generation the others wait for):

    bar.sync 0
    if thread (0, 0, 0):
        gen = ld.relaxed.gpu [ws + 4]          // the generation this sync waits to leave
        fence.sc.gpu                            // release the block's writes (cumulative through bar.sync)
        old = atom.add [ws], 1
        if old == blocks - 1:                   // the last to arrive
            st.relaxed.gpu [ws], 0              //   reset the count for the next sync, then
            fence.sc.gpu; atom.add [ws + 4], 1  //   release everyone
        else:
            while ld.acquire.gpu [ws + 4] == gen: {}
        fence.sc.gpu                            // acquire every block's writes
    bar.sync 0

The count is back to 0 after every sync, so one zeroed workspace serves any number of syncs; the
generation only ever changes, never resets. Every access to the workspace is atomic (no data race, so no
undefined behaviour in the spin, and the loop cannot be hoisted).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, llvm, nvvm, scf

from oxide.dialects.simt import cluster as ops
from oxide.dialects.simt.types import PtrType
from oxide.ir.declare import python_value
from oxide.passes.conversion.lowering import LoweringContext
from oxide.passes.conversion.simt_to_nvvm.rules import lowering


def _require_cluster(ctx: LoweringContext, what: str) -> None:
    ctx.require_sm(90, what, "thread-block clusters exist from sm_90 on (compile with --chip sm_90 or sm_90a)")


def _aligned(flag: bool) -> ir.Attribute | None:
    return ir.UnitAttr.get() if flag else None


@lowering(ops.ClusterArriveOp)
def lower_cluster_arrive(ctx: LoweringContext, op: ops.ClusterArriveOp) -> None:
    _require_cluster(ctx, "the cluster barrier (barrier.cluster.arrive)")
    if op.relaxed:
        nvvm.cluster_arrive_relaxed(aligned=_aligned(op.aligned))
    else:
        nvvm.cluster_arrive(aligned=_aligned(op.aligned))


@lowering(ops.ClusterWaitOp)
def lower_cluster_wait(ctx: LoweringContext, op: ops.ClusterWaitOp) -> None:
    _require_cluster(ctx, "the cluster barrier (barrier.cluster.wait)")
    nvvm.cluster_wait(aligned=_aligned(op.aligned))


@lowering(ops.MapSharedRankOp)
def lower_map_shared_rank(ctx: LoweringContext, op: ops.MapSharedRankOp) -> list[ir.Value]:
    _require_cluster(ctx, "distributed shared memory (mapa)")
    space = ops.MAPPED_SPACE[python_value(PtrType.parameters_of(op.ptr.type)[1])]
    result = ir.Type.parse(f"!llvm.ptr<{space}>" if space else "!llvm.ptr")
    return [nvvm.mapa(result, ctx.parts(op.ptr)[0], op.rank)]


def _block_count(ctx: LoweringContext) -> ir.Value:
    counts = [ctx.sreg(f"nctaid.{axis}") for axis in "xyz"]
    return arith.muli(arith.muli(counts[0], counts[1]), counts[2])


def _is_first_thread(ctx: LoweringContext) -> ir.Value:
    ids = [ctx.sreg(f"tid.{axis}") for axis in "xyz"]
    any_set = arith.ori(arith.ori(ids[0], ids[1]), ids[2])
    return arith.cmpi(arith.CmpIPredicate.eq, any_set, ctx.const("i32", 0))


def _spin_while_equal(ctx: LoweringContext, address: ir.Value, value: ir.Value) -> None:
    """Loop until the i32 at `address`, read with acquire at device scope, differs from `value`."""
    loop = scf.WhileOp([], [])
    before = loop.before.blocks.append()
    with ir.InsertionPoint(before):
        now = ctx.load(ir.IntegerType.get_signless(32), address, ordering=llvm.AtomicOrdering.acquire,
                       syncscope="device")
        scf.ConditionOp(arith.cmpi(arith.CmpIPredicate.eq, now, value), [])
    with ir.InsertionPoint(loop.after.blocks.append()):
        scf.YieldOp([])


def _arrive_and_wait(ctx: LoweringContext, count: ir.Value, generation: ir.Value) -> None:
    """One thread's part of the grid barrier (the body of `if thread (0, 0, 0)` above)."""
    i32 = ir.IntegerType.get_signless(32)
    gen = ctx.load(i32, generation, ordering=llvm.AtomicOrdering.monotonic, syncscope="device")
    nvvm.memory_barrier(nvvm.MemScopeKind.GPU)
    # A relaxed add suffices: the fences around it give the release and acquire. (LLVM 22's NVPTX backend
    # drops an atomicrmw's ordering and scope, so the fences are what carries them; a plain `atom` is
    # relaxed at gpu scope.)
    old = llvm.atomicrmw(llvm.AtomicBinOp.add, count, ctx.const("i32", 1), llvm.AtomicOrdering.monotonic)
    last = arith.cmpi(arith.CmpIPredicate.eq, old, arith.subi(_block_count(ctx), ctx.const("i32", 1)))
    branch = scf.IfOp(last, [], has_else=True)
    with ir.InsertionPoint(branch.then_block):
        ctx.store(ctx.const("i32", 0), count, ordering=llvm.AtomicOrdering.monotonic, syncscope="device")
        nvvm.memory_barrier(nvvm.MemScopeKind.GPU)
        llvm.atomicrmw(llvm.AtomicBinOp.add, generation, ctx.const("i32", 1), llvm.AtomicOrdering.monotonic)
        scf.YieldOp([])
    with ir.InsertionPoint(branch.else_block):
        _spin_while_equal(ctx, generation, gen)
        scf.YieldOp([])
    nvvm.memory_barrier(nvvm.MemScopeKind.GPU)


@lowering(ops.GridSyncOp)
def lower_grid_sync(ctx: LoweringContext, op: ops.GridSyncOp) -> None:
    # sm_70: the scoped loads and stores of the PTX memory model; the co-residency it relies on is what the
    # runtime's cooperative launch checks.
    ctx.require_sm(70, "a grid-wide barrier (grid::sync)", "compile for sm_70+")
    count = ctx.parts(op.workspace)[0]
    generation = ctx.gep(count, ctx.const("i64", 1), ir.IntegerType.get_signless(32))
    nvvm.barrier0()
    first = scf.IfOp(_is_first_thread(ctx))
    with ir.InsertionPoint(first.then_block):
        _arrive_and_wait(ctx, count, generation)
        scf.YieldOp([])
    nvvm.barrier0()
