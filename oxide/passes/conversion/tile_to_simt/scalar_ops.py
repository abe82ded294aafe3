"""Re-creating a tile's elementwise arith/math op on the scalars a thread holds.

The op is re-created as it is, with one exception: `math.sqrt` on f32 or f64. Upstream lowers it to libdevice's
`__nv_sqrtf`, which without the precise-sqrt reflect flag is `sqrt.approx.f32`, while a tile kernel's `sqrt`
is correctly rounded unless its source writes `rounding::Approx` (the frontend marks that `fastmath<afn>`). So a
`math.sqrt` without `afn` becomes `simt.libdevice {fn = "sqrt"}` (`__nv_fsqrt_rn`, `__nv_dsqrt_rn`).
"""

from __future__ import annotations

from mlir import ir
from mlir.dialects import math

from oxide.dialects import simt


def scalar_op(name: str, results: list[ir.Type], operands: list[ir.Value],
              attributes: dict[str, ir.Attribute]) -> list[ir.Value]:
    """The results of op `name` on scalar `operands` (see the module docstring for math.sqrt)."""
    if name == math.SqrtOp.OPERATION_NAME and str(results[0]) in ("f32", "f64") and not _approximate(attributes):
        return [simt.LibdeviceOp.build(operands, fn="sqrt", results=results)]
    return list(ir.Operation.create(name, results=results, operands=operands, attributes=attributes).results)


def _approximate(attributes: dict[str, ir.Attribute]) -> bool:
    """Whether the op's fastmath flags allow an approximation (`afn`, or `fast`, which implies it)."""
    flags = attributes.get("fastmath")
    if flags is None:
        return False
    text = str(flags)  # `#arith.fastmath<none>`, `#arith.fastmath<afn>`, `#arith.fastmath<nnan,afn>`, ...
    return bool({"afn", "fast"} & set(text[text.index("<") + 1:text.rindex(">")].split(",")))
