"""tile reductions and scans along one dimension."""

from __future__ import annotations

from mlir import ir

from oxide.dialects.tile.dialect import DIALECT
from oxide.dialects.tile.memory import TILE
from oxide.dialects.tile.types import check_tile, elem_of
from oxide.ir.constraints import INTEGER_ATTR, one_of
from oxide.ir.declare import Attr, Op, Operand, Result, VerifyError

REDUCE_KINDS = ("sum", "prod", "max", "min")


def _check_kind(kind: str, elem: ir.Type) -> None:
    if not isinstance(elem, (ir.IntegerType, ir.F16Type, ir.BF16Type, ir.F32Type, ir.F64Type)):
        raise VerifyError(f"cannot {kind}-reduce a tile of {elem}")
    if isinstance(elem, ir.IntegerType) and elem.width == 1:
        raise VerifyError(f"cannot {kind}-reduce a tile of booleans")


@DIALECT.op
class ReduceOp(Op):
    """`reduce_sum/prod/max/min(t, dim)`: combine along `dim`; the result drops that dimension. Integer
    max/min are signed unless `unsigned` is set (a u32 tile)."""

    mnemonic = "reduce"
    source = Operand(TILE)
    dim = Attr(INTEGER_ATTR, "the dimension reduced away")
    kind = Attr(one_of(*REDUCE_KINDS), "the combining operation")
    unsigned = Attr(INTEGER_ATTR, "integer max/min compare unsigned")
    result = Result(TILE)

    def verify_(self) -> None:
        src = check_tile(self.source.type, "the reduced tile")
        dst = check_tile(self.result.type, "the reduction result")
        if str(elem_of(self.source.type)) != str(elem_of(self.result.type)):
            raise VerifyError("a reduction keeps the element type")
        _check_kind(self.kind, elem_of(self.source.type))
        if not 0 <= self.dim < len(src):
            raise VerifyError(f"dimension {self.dim} is out of range for a rank-{len(src)} tile")
        expected = src[: self.dim] + src[self.dim + 1:]
        if dst != expected:
            raise VerifyError(f"reducing {src} along dimension {self.dim} gives {expected}, not {dst}")


@DIALECT.op
class ScanOp(Op):
    """`scan_sum(t, dim, reverse::Forward, identity)`: inclusive prefix combination along `dim`
    (from the end when `reverse`); same shape as the source."""

    mnemonic = "scan"
    source = Operand(TILE)
    dim = Attr(INTEGER_ATTR, "the scanned dimension")
    kind = Attr(one_of(*REDUCE_KINDS), "the combining operation")
    reverse = Attr(INTEGER_ATTR, "scan from the last element")
    unsigned = Attr(INTEGER_ATTR, "integer max/min compare unsigned")
    result = Result(TILE)

    def verify_(self) -> None:
        src = check_tile(self.source.type, "the scanned tile")
        _check_kind(self.kind, elem_of(self.source.type))
        if str(self.result.type) != str(self.source.type):
            raise VerifyError("a scan keeps the tile's type")
        if not 0 <= self.dim < len(src):
            raise VerifyError(f"dimension {self.dim} is out of range for a rank-{len(src)} tile")
