"""tile creation and shape ops: splat, iota, broadcast, reshape, permute, cat, extract, to_scalar.

Constants are upstream `arith.constant dense<...> : tensor<...>`; everything here keeps the element type
and moves elements between positions (the lowering does that through registers or shared memory).
"""

from __future__ import annotations

from mlir import ir

from oxide.dialects.tile.dialect import DIALECT
from oxide.dialects.tile.kernel import I32
from oxide.dialects.tile.memory import TILE
from oxide.dialects.tile.types import check_tile, elem_of
from oxide.ir.constraints import INTEGER_ATTR, SCALAR, BaseOf
from oxide.ir.declare import Attr, Op, Operand, Result, VarOperand, VerifyError, read_int_array


def _same_elem(source: object, result: object) -> None:
    if str(elem_of(source)) != str(elem_of(result)):
        raise VerifyError(f"the result's element type {elem_of(result)} differs from the source's {elem_of(source)}")


def _count(shape: list[int]) -> int:
    total = 1
    for dim in shape:
        total *= dim
    return total


@DIALECT.op
class SplatOp(Op):
    """`broadcast_scalar(x, shape)` / `x.broadcast(shape)` / `scalar_to_tile(x)`: a tile filled with x."""

    mnemonic = "splat"
    value = Operand(SCALAR)
    result = Result(TILE)

    def verify_(self) -> None:
        check_tile(self.result.type, "the splat result")
        if str(self.value.type) != str(elem_of(self.result.type)):
            raise VerifyError(f"splatting a {self.value.type} into a tile of {elem_of(self.result.type)}")


@DIALECT.op
class IotaOp(Op):
    """`iota(shape)`: the rank-1 integer tile [0, 1, ..., N-1]."""

    mnemonic = "iota"
    result = Result(TILE)

    def verify_(self) -> None:
        shape = check_tile(self.result.type, "the iota result")
        if len(shape) != 1 or not isinstance(elem_of(self.result.type), ir.IntegerType):
            raise VerifyError(f"iota makes a rank-1 integer tile, not {self.result.type}")


@DIALECT.op
class BroadcastOp(Op):
    """`t.broadcast(shape)`: repeat a tile along its size-1 dimensions (numpy rules: shapes align at the
    right, missing leading dimensions are size 1)."""

    mnemonic = "broadcast"
    source = Operand(TILE)
    result = Result(TILE)

    def verify_(self) -> None:
        src = check_tile(self.source.type, "the broadcast source")
        dst = check_tile(self.result.type, "the broadcast result")
        _same_elem(self.source.type, self.result.type)
        if len(src) > len(dst):
            raise VerifyError(f"cannot broadcast shape {src} to the lower-rank shape {dst}")
        for s, d in zip(reversed(src), reversed(dst)):
            if s not in (1, d):
                raise VerifyError(f"cannot broadcast shape {src} to {dst}: dimension {s} is neither 1 nor {d}")


@DIALECT.op
class ReshapeOp(Op):
    """`t.reshape(shape)`: the same elements in row-major order, in another shape."""

    mnemonic = "reshape"
    source = Operand(TILE)
    result = Result(TILE)

    def verify_(self) -> None:
        src = check_tile(self.source.type, "the reshape source")
        dst = check_tile(self.result.type, "the reshape result")
        _same_elem(self.source.type, self.result.type)
        if _count(src) != _count(dst):
            raise VerifyError(f"cannot reshape {src} ({_count(src)} elements) to {dst} ({_count(dst)} elements)")


@DIALECT.op
class PermuteOp(Op):
    """`permute(t, const_array![..])` / `t.transpose()`: result dimension i is source dimension perm[i]."""

    mnemonic = "permute"
    source = Operand(TILE)
    perm = Attr(BaseOf("#builtin.dense_array"), "array<i64: ...>, a permutation of the dimensions")
    result = Result(TILE)

    def verify_(self) -> None:
        src = check_tile(self.source.type, "the permute source")
        dst = check_tile(self.result.type, "the permute result")
        _same_elem(self.source.type, self.result.type)
        perm = read_int_array(lambda: self.operation.attributes["perm"], "attribute 'perm'")
        if sorted(perm) != list(range(len(src))):
            raise VerifyError(f"{perm} is not a permutation of the {len(src)} dimensions")
        if dst != [src[p] for p in perm]:
            raise VerifyError(f"permuting {src} by {perm} gives {[src[p] for p in perm]}, not {dst}")


@DIALECT.op
class CatOp(Op):
    """`cat(a, b, dim)`: a followed by b along `dim` (all other dimensions equal)."""

    mnemonic = "cat"
    lhs = Operand(TILE)
    rhs = Operand(TILE)
    dim = Attr(INTEGER_ATTR, "the dimension to join along")
    result = Result(TILE)

    def verify_(self) -> None:
        a = check_tile(self.lhs.type, "the first cat operand")
        b = check_tile(self.rhs.type, "the second cat operand")
        dst = check_tile(self.result.type, "the cat result")
        _same_elem(self.lhs.type, self.result.type)
        _same_elem(self.rhs.type, self.result.type)
        if not 0 <= self.dim < len(a) or len(a) != len(b):
            raise VerifyError(f"cannot join shapes {a} and {b} along dimension {self.dim}")
        expected = list(a)
        expected[self.dim] = a[self.dim] + b[self.dim]
        if any(x != y for i, (x, y) in enumerate(zip(a, b)) if i != self.dim) or dst != expected:
            raise VerifyError(f"joining {a} and {b} along dimension {self.dim} does not give {dst}")


@DIALECT.op
class ExtractOp(Op):
    """`extract(t, [i, j])`: the sub-tile of the result's shape at sub-tile index (i, j); an index past the
    source traps."""

    mnemonic = "extract"
    source = Operand(TILE)
    indices = VarOperand(I32, "sub-tile index, one per dimension")
    result = Result(TILE)

    def verify_(self) -> None:
        src = check_tile(self.source.type, "the extract source")
        dst = check_tile(self.result.type, "the extracted tile")
        _same_elem(self.source.type, self.result.type)
        if len(src) != len(dst) or any(s % d for s, d in zip(src, dst)):
            raise VerifyError(f"a {dst} sub-tile must have the rank of {src} and divide it")
        if len(self.indices) != len(src):
            raise VerifyError(f"extract from a rank-{len(src)} tile takes {len(src)} indices, got {len(self.indices)}")


@DIALECT.op
class ToScalarOp(Op):
    """`tile_to_scalar(t)`: the one element of a single-element tile."""

    mnemonic = "to_scalar"
    source = Operand(TILE)
    result = Result(SCALAR)

    def verify_(self) -> None:
        shape = check_tile(self.source.type, "the source")
        if _count(shape) != 1:
            raise VerifyError(f"tile_to_scalar needs a single-element tile, got shape {shape}")
        if str(self.result.type) != str(elem_of(self.source.type)):
            raise VerifyError(f"a tile of {elem_of(self.source.type)} gives a {elem_of(self.source.type)}")
