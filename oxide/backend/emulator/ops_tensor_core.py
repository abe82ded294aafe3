"""Emulator rules for the Tensor Core code the tile lowering emits (runtime side:
oxide.runtime.emulator.tensor_core): `nvvm.mma.sync`, the inline PTX it uses (`ldmatrix`,
`cvt.rna.tf32.f32`), and the LLVM ops that take the registers apart (`llvm.extractvalue` of mma.sync's
result struct, `llvm.bitcast` of a 32-bit register to an f16 pair)."""

from __future__ import annotations

import re
from typing import Any

from mlir import ir
from mlir.dialects import llvm, nvvm

from oxide.backend.emulator.emitter import KernelEmitter
from oxide.backend.emulator.rules import rule
from oxide.dialects import simt
from oxide.ir.rules import LoweringError

_LDMATRIX = re.compile(r"ldmatrix\.sync\.aligned\.m8n8\.x([124])(\.trans)?\.shared\.b16 \{[^}]*\}, "
                       r"\[\$\d+(?:\+(\d+))?\];")
_CVT_TF32 = "cvt.rna.tf32.f32 $0, $1;"
# convert::cvt_*x2_f32 (calls/ptx_fns.py): `cvt.<rounding>[.relu].<kind>.f32 $0, $2, $1;`, the first argument low.
# cuda_device's `cvta_generic_to_shared_offset`: a generic shared address's low 32 bits are its shared address
# on the emulator (oxide.runtime.emulator.addresses), as `cvta.to.shared` gives on the GPU.
_CVTA_SHARED = "cvta.to.shared.u64 $0, $1;"
_CVT_PACK = re.compile(r"cvt\.(rn|rz)(\.relu)?\.(f16x2|bf16x2)\.f32 \$0, \$2, \$1;")
# The runtime module is imported where it is used, so programs without Tensor Core code keep their header.
_IMPORT = "from oxide.runtime.emulator import tensor_core as _tc"


@rule(simt.InlinePtxOp)
def emit_inline_ptx(em: KernelEmitter, op: Any) -> None:
    asm = ir.StringAttr(op.attributes["asm"]).value
    args = em.args(op)
    match = _LDMATRIX.fullmatch(asm)
    if match is not None:
        count = int(match.group(1))
        em.line(_IMPORT)
        targets = "".join(f"{em.result(op, i)}, " for i in range(count))
        em.line(f"{targets}= _tc.ldmatrix(c, {em.mask}, {args[0]}, {int(match.group(3) or 0)}, {count}, "
                f"{match.group(2) is not None}, {em.loc(op)})")
        return
    if asm == _CVT_TF32:
        em.line(_IMPORT)
        em.line(f"{em.result(op)} = _tc.cvt_rna_tf32(c.broadcast({args[0]}))")
        return
    if asm == "nanosleep.u32 $0;":
        return  # a hint to the scheduler: threads that spin on a flag progress anyway on the emulator
    if asm == _CVTA_SHARED:
        em.line(f"{em.result(op)} = c.broadcast({args[0]}).astype(np.int64) & np.int64(0xFFFFFFFF)")
        return
    match = _CVT_PACK.fullmatch(asm)
    if match is not None:
        rounding, relu, kind = match.groups()
        em.line("from oxide.runtime.emulator import packed as _pk")
        em.line(f"{em.result(op)} = _pk.pack_halves(c.broadcast({args[0]}), c.broadcast({args[1]}), {kind!r}, "
                f"{rounding!r}, {relu is not None})")
        return
    raise LoweringError("the emulator runs inline PTX only for ldmatrix, cvt.rna.tf32.f32 (the tile lowering's mma "
                        "code), the packed half conversions cvt.*x2.f32, cvta.to.shared and nanosleep, not "
                        f"`{asm}`; run this kernel on a GPU", op)


def _mma_types(op: Any) -> tuple[str, str]:
    """(multiplicand type, accumulator type) of an nvvm.mma.sync."""
    if "multiplicandAPtxType" in op.attributes:
        inputs = re.search(r"<(\w+)>", str(op.attributes["multiplicandAPtxType"])).group(1)
    else:
        inputs = "f16" if "f16" in str(op.operands[0].type) else str(op.operands[0].type)
    acc = "f16" if "f16" in str(op.operands[len(op.operands) - 1].type) else "f32"
    return inputs, acc


@rule(nvvm.MmaOp)
def emit_mma_sync(em: KernelEmitter, op: Any) -> None:
    sizes = list(ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]))
    shape = re.search(r"m = (\d+), n = (\d+), k = (\d+)", str(op.attributes["shape"]))
    if shape is None or shape.groups()[:2] != ("16", "8") or sizes[:2] != [4, 2]:
        raise LoweringError(f"the emulator runs mma.sync m16n8k16 / m16n8k8 only, not {op.attributes['shape']}", op)
    inputs, acc = _mma_types(op)
    names = em.args(op)
    a, b, c_regs = names[:sizes[0]], names[sizes[0]:sizes[0] + sizes[1]], names[sizes[0] + sizes[1]:]
    em.line(_IMPORT)
    em.line(f"{em.result(op)} = _tc.mma_sync(c, {em.mask}, {int(shape.group(3))}, {inputs!r}, [{', '.join(a)}], "
            f"[{', '.join(b)}], [{', '.join(c_regs)}], {acc!r}, {em.loc(op)})")


@rule(llvm.ExtractValueOp)
def emit_extractvalue(em: KernelEmitter, op: Any) -> None:
    position = list(ir.DenseI64ArrayAttr(op.attributes["position"]))
    if len(position) != 1:
        raise LoweringError("the emulator extracts one field of a flat struct only", op)
    em.line(f"{em.result(op)} = {em.args(op)[0]}[{position[0]}]")


@rule(llvm.BitcastOp)
def emit_llvm_bitcast(em: KernelEmitter, op: Any) -> None:
    source, target = str(op.operands[0].type), str(op.results[0].type)
    if (source, target) != ("i32", "vector<2xf16>"):
        raise LoweringError(f"the emulator bitcasts a 32-bit register to an f16 pair only, not {source} to {target}",
                            op)
    em.line(_IMPORT)
    em.line(f"{em.result(op)} = _tc.f16_pair(c.broadcast({em.args(op)[0]}))")
