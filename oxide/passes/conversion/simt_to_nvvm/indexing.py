"""Lowering of simt indexing: special registers, launch coordinates and witnesses.

A witness lowers to (value, valid). Validity is a compile-time `true` when the kernel's launch contract
(`simt.contract`) proves the geometry, and otherwise checked on the device from the launch extents.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith

from oxide.dialects.simt import indexing as ops
from oxide.dialects.simt.types import ThreadIndexType, space_stride
from oxide.ir.declare import python_value
from oxide.ir.rules import LoweringError
from oxide.passes.conversion.lowering import LoweringContext
from oxide.passes.conversion.simt_to_nvvm.rules import lowering

_DIM_REGISTER = {ops.ThreadIdOp: "tid", ops.BlockIdOp: "ctaid", ops.BlockDimOp: "ntid", ops.GridDimOp: "nctaid"}
_REGISTER_NAME = {"lanemask_eq": "lanemask.eq", "lanemask_lt": "lanemask.lt", "lanemask_le": "lanemask.le",
                  "lanemask_gt": "lanemask.gt", "lanemask_ge": "lanemask.ge",
                  "dynamic_smem_size": "dynamic.smem.size", "total_smem_size": "total.smem.size",
                  **{f"cluster_{r}_{a}": f"cluster.{r}.{a}" for r in ("ctaid", "nctaid") for a in "xyz"},
                  **{f"{r}_{a}": f"{r}.{a}" for r in ("clusterid", "nclusterid") for a in "xyz"},
                  "cluster_ctarank": "cluster.ctarank", "cluster_nctarank": "cluster.nctarank"}


@lowering(ops.ThreadIdOp, ops.BlockIdOp, ops.BlockDimOp, ops.GridDimOp)
def lower_dim_query(ctx: LoweringContext, op: ops._DimQuery) -> ir.Value:
    axis = python_value(ops.DimAttr.parameters_of(op.dim)[0])
    return ctx.sreg(f"{_DIM_REGISTER[type(op)]}.{axis}")


@lowering(ops.SpecialRegOp)
def lower_special_reg(ctx: LoweringContext, op: ops.SpecialRegOp) -> ir.Value:
    if op.reg.startswith(("cluster", "nclusterid")):
        ctx.require_sm(90, "a thread-block cluster register", "compile for sm_90+")
    if op.reg == "gridid":
        # LLVM 22's optimiser asserts on llvm.nvvm.read.ptx.sreg.gridid used in 64-bit arithmetic (a known
        # range of the wrong width); reading the register with a mov sidesteps the intrinsic.
        from mlir.dialects import llvm

        return llvm.inline_asm(op.result.type, [], "mov.u64 $0, %gridid;", "=l")
    return ctx.sreg(_REGISTER_NAME.get(op.reg, op.reg), str(op.result.type))


def contract_int(ctx: LoweringContext, key: str) -> int | None:
    """An integer fact of the enclosing kernel's launch contract, if it states one."""
    contract = ctx.function_attr("simt.contract")
    if contract is None:
        return None
    entries = ir.DictAttr(contract)
    return python_value(entries[key]) if key in entries else None


def _extent_is_one(ctx: LoweringContext, axes: str) -> ir.Value:
    """On the device: blockDim and gridDim are 1 along every axis in `axes`."""
    ok = ctx.const("i1", 1)
    one = ctx.const("i32", 1)
    for axis in axes:
        for reg in ("ntid", "nctaid"):
            ok = arith.andi(ok, arith.cmpi(arith.CmpIPredicate.eq, ctx.sreg(f"{reg}.{axis}"), one))
    return ok


def _validity(ctx: LoweringContext, max_domain: int) -> ir.Value:
    """True when the contract proves the launch has at most `max_domain` dimensions, else a device check."""
    domain = contract_int(ctx, "domain")
    if domain is not None and domain <= max_domain:
        return ctx.const("i1", 1)
    return _extent_is_one(ctx, "yz"[max_domain - 1 :])


def _global_coord(ctx: LoweringContext, axis: str) -> ir.Value:
    """blockIdx * blockDim + threadIdx along `axis`, in 64 bits (mul.wide: no overflow)."""
    block = arith.extui(ir.IntegerType.get_signless(64), ctx.sreg(f"ctaid.{axis}"))
    dim = arith.extui(ir.IntegerType.get_signless(64), ctx.sreg(f"ntid.{axis}"))
    tid = arith.extui(ir.IntegerType.get_signless(64), ctx.sreg(f"tid.{axis}"))
    return arith.addi(arith.muli(block, dim), tid)


@lowering(ops.Index1DOp)
def lower_index_1d(ctx: LoweringContext, op: ops.Index1DOp) -> list[ir.Value]:
    return [_global_coord(ctx, "x"), _validity(ctx, 1)]


@lowering(ops.Index1DU32Op)
def lower_index_1d_u32(ctx: LoweringContext, op: ops.Index1DU32Op) -> list[ir.Value]:
    if contract_int(ctx, "domain") != 1 or _contract_str(ctx, "coordinates") != "u32":
        raise LoweringError("index_1d_u32 needs the kernel's launch contract to state domain = 1 and "
                            "coordinates = u32 (the host then proves grid x block fits in 32 bits)")
    index32 = arith.addi(arith.muli(ctx.sreg("ctaid.x"), ctx.sreg("ntid.x")), ctx.sreg("tid.x"))
    return [arith.extui(ir.IntegerType.get_signless(64), index32), ctx.const("i1", 1)]


def _contract_str(ctx: LoweringContext, key: str) -> str | None:
    contract = ctx.function_attr("simt.contract")
    if contract is None or key not in ir.DictAttr(contract):
        return None
    return python_value(ir.DictAttr(contract)[key])


@lowering(ops.Index2DOp)
def lower_index_2d(ctx: LoweringContext, op: ops.Index2DOp) -> list[ir.Value]:
    stride = space_stride(python_value(ThreadIndexType.parameters_of(op.result.type)[0]))
    row, col = _global_coord(ctx, "y"), _global_coord(ctx, "x")
    s = ctx.const("i64", stride)
    in_row = arith.cmpi(arith.CmpIPredicate.ult, col, s)
    return [arith.addi(arith.muli(row, s), col), arith.andi(in_row, _validity(ctx, 2))]


@lowering(ops.Index2DRuntimeOp)
def lower_index_2d_runtime(ctx: LoweringContext, op: ops.Index2DRuntimeOp) -> list[ir.Value]:
    return [_global_coord(ctx, "y"), _global_coord(ctx, "x"), _validity(ctx, 2)]


@lowering(ops.WarpIndexOp)
def lower_warp_index(ctx: LoweringContext, op: ops.WarpIndexOp) -> list[ir.Value]:
    i64 = ir.IntegerType.get_signless(64)
    warps_per_block = arith.divui(arith.addi(ctx.sreg("ntid.x"), ctx.const("i32", 31)), ctx.const("i32", 32))
    block = arith.extui(i64, ctx.sreg("ctaid.x"))
    warp = arith.addi(arith.muli(block, arith.extui(i64, warps_per_block)),
                      arith.extui(i64, arith.divui(ctx.sreg("tid.x"), ctx.const("i32", 32))))
    lane0 = arith.cmpi(arith.CmpIPredicate.eq, ctx.sreg("laneid"), ctx.const("i32", 0))
    return [warp, arith.andi(lane0, _validity(ctx, 1))]


@lowering(ops.IndexValueOp)
def lower_index_value(ctx: LoweringContext, op: ops.IndexValueOp) -> ir.Value:
    return ctx.index(ctx.parts(op.witness)[0])


@lowering(ops.IndexValidOp)
def lower_index_valid(ctx: LoweringContext, op: ops.IndexValidOp) -> ir.Value:
    return ctx.parts(op.witness)[-1]


@lowering(ops.IndexRowOp)
def lower_index_row(ctx: LoweringContext, op: ops.IndexRowOp) -> ir.Value:
    return ctx.index(ctx.parts(op.witness)[0])


@lowering(ops.IndexColOp)
def lower_index_col(ctx: LoweringContext, op: ops.IndexColOp) -> ir.Value:
    return ctx.index(ctx.parts(op.witness)[1])
