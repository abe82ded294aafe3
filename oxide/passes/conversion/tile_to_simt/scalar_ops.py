"""Re-creating a tile's elementwise arith/math op on the scalars a thread holds.

The op is re-created as it is, with two exceptions. `math.sqrt` on f32 or f64: Upstream lowers it to libdevice's
`__nv_sqrtf`, which without the precise-sqrt reflect flag is `sqrt.approx.f32`, while a tile kernel's `sqrt`
is correctly rounded unless its source writes `rounding::Approx` (the frontend marks that `fastmath<afn>`). So a
`math.sqrt` without `afn` becomes `simt.libdevice {fn = "sqrt"}` (`__nv_fsqrt_rn`, `__nv_dsqrt_rn`). And an f32
`math.exp2` the source wrote with `ftz::Enabled` (`tile.ftz`) becomes `ex2.approx.ftz.f32`.
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import math

from oxide.dialects import simt
from oxide.dialects.simt.inline_ptx import build_inline_ptx
from oxide.dialects.tile.dialect import FTZ_ATTR

# `exp2(x, ftz::Enabled)` on f32: the hardware's approximation (libdevice's exp2f is the same instruction without
# .ftz, plus a rescaling of subnormal results); the emulator knows the template.
EX2_FTZ = "ex2.approx.ftz.f32 $0, $1;"


def scalar_op(name: str, results: list[ir.Type], operands: list[ir.Value],
              attributes: dict[str, ir.Attribute]) -> list[ir.Value]:
    """The results of op `name` on scalar `operands` (see the module docstring for math.sqrt and math.exp2)."""
    if name == math.SqrtOp.OPERATION_NAME and str(results[0]) in ("f32", "f64") and not _approximate(attributes):
        return [simt.LibdeviceOp.build(operands, fn="sqrt", results=results)]
    if name == math.Exp2Op.OPERATION_NAME and str(results[0]) == "f32" and FTZ_ATTR in attributes:
        return list(build_inline_ptx(operands, EX2_FTZ, "=f,f", results))
    return list(ir.Operation.create(name, results=results, operands=operands, attributes=attributes).results)


def _approximate(attributes: dict[str, ir.Attribute]) -> bool:
    """Whether the op's fastmath flags allow an approximation (`afn`, or `fast`, which implies it)."""
    flags = attributes.get("fastmath")
    if flags is None:
        return False
    text = str(flags)  # `#arith.fastmath<none>`, `#arith.fastmath<afn>`, `#arith.fastmath<nnan,afn>`, ...
    return bool({"afn", "fast"} & set(text[text.index("<") + 1:text.rindex(">")].split(",")))
