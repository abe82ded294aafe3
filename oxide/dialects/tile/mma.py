"""tile matrix multiply-accumulate: `mma(a, b, acc)`, the Tensor Core op."""

from __future__ import annotations

from oxide.dialects.tile.dialect import DIALECT
from oxide.dialects.tile.memory import TILE
from oxide.dialects.tile.types import check_tile, elem_of
from oxide.ir.constraints import TypeVar
from oxide.ir.declare import Op, Operand, Result, VerifyError

_ACC = TypeVar("ACC", TILE)
# (input element type, accumulator element type) pairs the Tensor Cores run; f32 inputs run as tf32, fp8
# (e4m3, e5m2) inputs accumulate in f32 with K a multiple of 32 (wgmma's k32).
FP8 = ("f8E4M3FN", "f8E5M2")
MMA_TYPES = {("f16", "f32"), ("bf16", "f32"), ("f32", "f32"), ("f16", "f16"), *((e, "f32") for e in FP8)}
FP8_K = 32


@DIALECT.op
class MmaOp(Op):
    """`mma(a, b, acc)`: acc + a @ b for a: MxK, b: KxN, acc: MxN. f16/bf16 inputs accumulate in f32 (or
    f16); f32 inputs multiply as tf32 and accumulate in f32; fp8 inputs (f8E4M3FN, f8E5M2, both the same)
    accumulate in f32, K a multiple of 32."""

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
                              f"f32 (as tf32) -> f32, fp8 x the same fp8 -> f32)")
        if ea in FP8 and a[1] % FP8_K:
            raise VerifyError(f"an fp8 mma needs K a multiple of {FP8_K} (the Tensor Cores' fp8 step); got K = "
                              f"{a[1]}")
