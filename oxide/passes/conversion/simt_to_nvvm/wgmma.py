"""Lowering of the simt warpgroup ops to the NVVM dialect's own ops: `nvvm.wgmma.fence.aligned`,
`nvvm.wgmma.commit.group.sync.aligned`, `nvvm.wgmma.wait.group.sync.aligned`, `nvvm.wgmma.mma_async` and
`nvvm.setmaxregister`; a matrix descriptor is integer arithmetic on the shared address. The register-A form
of wgmma, which the NVVM op does not have, is inline PTX.

wgmma and setmaxnreg exist only on sm_90a (arch-specific PTX), so each rule requires that target and
reports any other as a located error. A descriptor is plain arithmetic and needs no particular chip.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import arith, llvm, nvvm

from oxide.dialects.simt import wgmma as ops
from oxide.passes.conversion.lowering import LoweringContext
from oxide.passes.conversion.simt_to_nvvm.rules import lowering

_ACTION = {"inc": nvvm.SetMaxRegisterAction.increase, "dec": nvvm.SetMaxRegisterAction.decrease}


def _attr(text: str) -> ir.Attribute:
    return ir.Attribute.parse(text)


@lowering(ops.WgmmaFenceOp)
def lower_wgmma_fence(ctx: LoweringContext, op: ops.WgmmaFenceOp) -> None:
    ctx.require_arch_specific(90, "wgmma")
    nvvm.wgmma_fence_aligned()


@lowering(ops.WgmmaCommitGroupOp)
def lower_wgmma_commit_group(ctx: LoweringContext, op: ops.WgmmaCommitGroupOp) -> None:
    ctx.require_arch_specific(90, "wgmma")
    nvvm.wgmma_commit_group_sync_aligned()


@lowering(ops.WgmmaWaitGroupOp)
def lower_wgmma_wait_group(ctx: LoweringContext, op: ops.WgmmaWaitGroupOp) -> None:
    ctx.require_arch_specific(90, "wgmma")
    nvvm.wgmma_wait_group_sync_aligned(op.pending)


@lowering(ops.WgmmaMmaAsyncOp)
def lower_wgmma_mma_async(ctx: LoweringContext, op: ops.WgmmaMmaAsyncOp) -> list[ir.Value]:
    ctx.require_arch_specific(90, "wgmma")
    acc = list(op.acc)
    # nvvm.wgmma.mma_async threads the accumulator as one LLVM struct of its registers, in and out.
    struct = llvm.StructType.get_literal([v.type for v in acc])
    packed = _unpacked_struct(acc, struct)
    if packed is None:
        packed = llvm.mlir_undef(struct)
        for i, value in enumerate(acc):
            packed = llvm.insertvalue(packed, value, ir.DenseI64ArrayAttr.get([i]))
    kind = _attr(f"#nvvm.wgmma_type<{op.input}>")
    # A is K-major as "row" and B as "col"; a transposed (MN-major) operand is the other layout.
    layout_a = "col" if op.transpose_a else "row"
    layout_b = "row" if op.transpose_b else "col"
    result = nvvm.WgmmaMmaAsyncOp(
        struct, packed, op.desc_a, op.desc_b,
        _attr(f"#nvvm.shape<m = {op.m}, n = {op.n}, k = {op.k}>"), kind, kind,
        _attr(f"#nvvm.wgmma_type<{op.accumulator}>"),
        _attr(f"#nvvm.wgmma_scale_out<{'one' if op.scale_d == 'accumulate' else 'zero'}>"),
        _attr(f"#nvvm.wgmma_scale_in<{'neg' if op.negate_a else 'one'}>"),
        _attr(f"#nvvm.wgmma_scale_in<{'neg' if op.negate_b else 'one'}>"),
        _attr(f"#nvvm.mma_layout<{layout_a}>"), _attr(f"#nvvm.mma_layout<{layout_b}>"),
    ).result
    return [llvm.extractvalue(v.type, result, ir.DenseI64ArrayAttr.get([i])) for i, v in enumerate(acc)]


@lowering(ops.WgmmaMmaAsyncRegAOp)
def lower_wgmma_mma_async_reg_a(ctx: LoweringContext, op: ops.WgmmaMmaAsyncRegAOp) -> list[ir.Value]:
    """Inline PTX: the NVVM dialect's wgmma op takes A only through a descriptor. The accumulator is tied in
    and out register by register (outputs $0.., the same registers as inputs), then the four A registers and
    B's descriptor; scale-d is a predicate set from a constant."""
    ctx.require_arch_specific(90, "wgmma")
    acc = list(op.acc)
    count = len(acc)
    pairs = list(op.a)
    d = ", ".join(f"${i}" for i in range(count))
    a = ", ".join(f"${2 * count + i}" for i in range(len(pairs)))
    asm = ("{\n.reg .pred p;\n"
           f"setp.ne.b32 p, {1 if op.scale_d == 'accumulate' else 0}, 0;\n"
           f"wgmma.mma_async.sync.aligned.m{op.m}n{op.n}k{op.k}.f32.{op.input}.{op.input} {{{d}}}, {{{a}}}, "
           f"${2 * count + len(pairs)}, p, {-1 if op.negate_a else 1}, {-1 if op.negate_b else 1}, "
           f"{1 if op.transpose_b else 0};\n}}")
    constraints = ",".join(["=f"] * count + [str(i) for i in range(count)] + ["r"] * len(pairs) + ["l"])
    struct = llvm.StructType.get_literal([v.type for v in acc])
    whole = llvm.inline_asm(struct, [*acc, *pairs, op.desc_b], asm, constraints, has_side_effects=True)
    return [llvm.extractvalue(v.type, whole, ir.DenseI64ArrayAttr.get([i])) for i, v in enumerate(acc)]


def _unpacked_struct(acc: list[ir.Value], struct: ir.Type) -> ir.Value | None:
    """The struct `acc` was extracted from, field by field in order, if it was (a wgmma whose accumulator is
    the previous wgmma's result, as in every K step after the first): it is passed on as it is, instead of
    64-128 insertvalues rebuilding it (which LLVM would then have to fold away again)."""
    source = None
    for i, value in enumerate(acc):
        if not isinstance(value, ir.OpResult):
            return None  # a block argument (the accumulator carried into the K loop)
        owner = value.owner.operation
        if (owner.name != llvm.ExtractValueOp.OPERATION_NAME
                or list(ir.DenseI64ArrayAttr(owner.attributes["position"])) != [i]):
            return None
        container = owner.operands[0]
        if source is None and container.type == struct:
            source = container
        elif container != source:
            return None
    return source


@lowering(ops.SmemDescOp)
def lower_smem_desc(ctx: LoweringContext, op: ops.SmemDescOp) -> ir.Value:
    i64 = ir.IntegerType.get_signless(64)
    address = op.address
    if isinstance(address.type, ir.IntegerType):
        start = arith.extui(i64, address)
    else:
        # A shared pointer's integer is its offset in the block's shared window: the address wgmma wants.
        start = llvm.ptrtoint(i64, ctx.parts(address)[0])
    field = arith.andi(arith.shrui(start, ctx.const(i64, 4)), ctx.const(i64, 0x3FFF))
    fixed = ((op.leading_byte_offset >> 4) << 16 | (op.stride_byte_offset >> 4) << 32 | op.base_offset << 49
             | ops.SWIZZLE_CODE[op.swizzle] << 62)
    # The constant is built as the signed i64 with the same bits (bit 63 is the swizzle field's high bit).
    return arith.ori(field, ctx.const(i64, fixed - (1 << 64) if fixed >= 1 << 63 else fixed))


@lowering(ops.SetMaxNRegOp)
def lower_setmaxnreg(ctx: LoweringContext, op: ops.SetMaxNRegOp) -> None:
    ctx.require_arch_specific(90, "setmaxnreg")
    nvvm.setmaxregister(op.regs, _ACTION[op.action])
