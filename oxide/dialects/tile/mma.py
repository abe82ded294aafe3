"""tile matrix multiply-accumulate: `mma(a, b, acc)`, the Tensor Core op."""

from __future__ import annotations

from typing import Any

from mlir import ir

from oxide.dialects.tile.dialect import DIALECT
from oxide.dialects.tile.memory import TILE
from oxide.dialects.tile.types import check_tile, elem_of
from oxide.ir.constraints import TypeVar
from oxide.ir.declare import Op, Operand, Result, VerifyError

_ACC = TypeVar("ACC", TILE)
# (input element type, accumulator element type) pairs the Tensor Cores run; f32 inputs multiply at f32
# accuracy (tf32 only under TF32_ATTR), fp8 (e4m3, e5m2) inputs accumulate in f32 with K a multiple of 32
# (wgmma's k32).
FP8 = ("f8E4M3FN", "f8E5M2")
MMA_TYPES = {("f16", "f32"), ("bf16", "f32"), ("f32", "f32"), ("f16", "f16"), *((e, "f32") for e in FP8)}
FP8_K = 32
# A unit attribute on a tile.mma of f32 tiles: multiply them at tf32 precision (each input rounded to 10
# mantissa bits), as the frontend asks for `tf32` tiles. Without it an f32 mma is f32-accurate.
TF32_ATTR = "tile.tf32"


@DIALECT.op
class MmaOp(Op):
    """`mma(a, b, acc)`: acc + a @ b for a: MxK, b: KxN, acc: MxN. f16/bf16 inputs accumulate in f32 (or
    f16); f32 inputs multiply at f32 accuracy (at tf32 precision with the unit attribute `tile.tf32`) and
    accumulate in f32; fp8 inputs (f8E4M3FN, f8E5M2, both the same) accumulate in f32, K a multiple of 32."""

    mnemonic = "mma"
    lhs = Operand(TILE)
    rhs = Operand(TILE)
    acc = Operand(_ACC)
    result = Result(_ACC)

    def verify_(self) -> None:
        a = check_tile(self.lhs.type, "mma's a")
        b = check_tile(self.rhs.type, "mma's b")
        c = check_tile(self.acc.type, "mma's accumulator")
        if len(a) != 2 or len(b) != 2 or len(c) != 2 or a[1] != b[0] or c != [a[0], b[1]]:
            raise VerifyError(f"mma needs a: MxK, b: KxN, acc: MxN; got {a}, {b}, {c}")
        ea, eb, ec = (str(elem_of(v.type)) for v in (self.lhs, self.rhs, self.acc))
        if ea != eb or (ea, ec) not in MMA_TYPES:
            raise VerifyError(f"mma does not take {ea} x {eb} -> {ec} (it takes f16/bf16 -> f32, f16 -> f16, "
                              f"f32 -> f32, fp8 x the same fp8 -> f32)")
        if ea in FP8 and a[1] % FP8_K:
            raise VerifyError(f"an fp8 mma needs K a multiple of {FP8_K} (the Tensor Cores' fp8 step); got K = "
                              f"{a[1]}")


def multiplies_as_tf32(op: Any) -> bool:
    """Whether tile.mma `op` (an OpView or Operation) multiplies its f32 inputs at tf32 precision."""
    return TF32_ATTR in op.operation.attributes


@DIALECT.discardable_attribute(TF32_ATTR)
def verify_tf32(op: ir.Operation, attr: ir.Attribute) -> None:
    """`tile.tf32` is a unit attribute on a tile.mma of f32 tiles: multiply them at tf32 precision (the frontend
    sets it for `tf32` tiles); without it an f32 mma is f32-accurate."""
    if op.name != MmaOp.OPERATION_NAME or str(elem_of(op.operands[0].type)) != "f32":
        raise VerifyError(f"{TF32_ATTR} belongs on an mma of f32 tiles (it asks for tf32 products)")
    if not isinstance(attr.maybe_downcast(), ir.UnitAttr):
        raise VerifyError(f"{TF32_ATTR} is a unit attribute, got {attr}")
