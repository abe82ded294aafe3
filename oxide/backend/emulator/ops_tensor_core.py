"""Emulator rules for the Tensor Core code the tile lowering emits (runtime side:
oxide.runtime.emulator.tensor_core): `nvvm.mma.sync` and the LLVM ops that take the registers apart
(`llvm.extractvalue` of mma.sync's result struct, `llvm.bitcast` of a 32-bit register to an f16 pair). The
inline PTX it uses (`ldmatrix`, `cvt.rna.tf32.f32`) is in ops_inline_ptx.py."""

from __future__ import annotations

import re
from typing import Any

from mlir import ir
from mlir.dialects import llvm, nvvm

from oxide.backend.emulator.emitter import KernelEmitter
from oxide.backend.emulator.rules import rule
from oxide.ir.rules import LoweringError

# The runtime module is imported where it is used, so programs without Tensor Core code keep their header.
_IMPORT = "from oxide.runtime.emulator import tensor_core as _tc"


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
