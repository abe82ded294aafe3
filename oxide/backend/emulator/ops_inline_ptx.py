"""The emulator's rule for `simt.inline_ptx`: the templates it knows (runtime sides in
oxide.runtime.emulator.tensor_core and packed): the tile lowering's `ldmatrix` and `cvt.rna.tf32.f32`, the packed
half conversions `cvt.*x2.f32`, `ex2.approx.ftz.f32`, the fp8 ones
`cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32`, `cvta.to.shared` and `nanosleep`. Any other template makes the kernel one the
emulator refuses, located at the `ptx_asm!`/call that wrote it."""

from __future__ import annotations

import re
from typing import Any

from mlir import ir

from oxide.backend.emulator.emitter import KernelEmitter
from oxide.backend.emulator.rules import rule
from oxide.dialects import simt
from oxide.ir.rules import LoweringError

# The runtime module is imported where it is used, so programs without Tensor Core code keep their header.
_IMPORT = "from oxide.runtime.emulator import tensor_core as _tc"
_LDMATRIX = re.compile(r"ldmatrix\.sync\.aligned\.m8n8\.x([124])(\.trans)?\.shared\.b16 \{[^}]*\}, "
                       r"\[\$\d+(?:\+(\d+))?\];")
_CVT_TF32 = "cvt.rna.tf32.f32 $0, $1;"
# cuda_device's `cvta_generic_to_shared_offset`: a generic shared address's low 32 bits are its shared address
# on the emulator (oxide.runtime.emulator.addresses), as `cvta.to.shared` gives on the GPU.
_CVTA_SHARED = "cvta.to.shared.u64 $0, $1;"
# The tile lowering's accumulator fence after a wgmma wait (tile_to_simt/wgmma_gemm.py): a copy.
_FENCE = "// wgmma accumulator fence"
# Its counterpart before a wgmma fence (tile_to_simt/attention_wgmma.py): a packed register of wgmma's A pinned.
_A_FENCE = "// wgmma A register"
# A tile kernel's `exp2(x, ftz::Enabled)` on f32 (tile_to_simt/scalar_ops.py).
_EX2_FTZ = "ex2.approx.ftz.f32 $0, $1;"
# convert::cvt_*x2_f32 (calls/ptx_fns.py): `cvt.<rounding>[.relu].<kind>.f32 $0, $2, $1;`, the first argument low.
_CVT_PACK = re.compile(r"cvt\.(rn|rz)(\.relu)?\.(f16x2|bf16x2)\.f32 \$0, \$2, \$1;")
# The tile lowering's fp8 conversions (tile_to_simt/fp8.py): two f32 into one 16-bit register, the first low.
_CVT_FP8 = re.compile(r"cvt\.rn\.satfinite\.(e4m3x2|e5m2x2)\.f32 \$0, \$2, \$1;")


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
    constraints = ir.StringAttr(op.attributes["constraints"]).value
    if (asm, constraints) in ((_FENCE, "=f,0"), (_A_FENCE, "=r,0")):
        em.line(f"{em.result(op)} = {args[0]}")  # an operand fence (the tile lowering's, around wgmma)
        return
    if asm == _EX2_FTZ:  # subnormal results flush to zero (the smallest normal f32 is 2^-126)
        em.line("from oxide.runtime.emulator import approx as _ap")
        em.line(f"{em.result(op)} = _ap.exp2_ftz(c.broadcast({args[0]}))")
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
    match = _CVT_FP8.fullmatch(asm)
    if match is not None:
        em.line("from oxide.runtime.emulator import fp8 as _fp8")
        em.line(f"{em.result(op)} = _fp8.pack_pair(c.broadcast({args[0]}), c.broadcast({args[1]}), "
                f"{match.group(1)!r})")
        return
    raise LoweringError("the emulator runs inline PTX only for ldmatrix, cvt.rna.tf32.f32 (the tile lowering's mma "
                        "code), the packed half and fp8 conversions cvt.*x2.f32, ex2.approx.ftz.f32, cvta.to.shared, "
                        f"nanosleep and the wgmma operand fences, not `{asm}`; run this kernel on a GPU", op)
