"""`x as T`: numeric conversions, pointer casts and addresses."""

from __future__ import annotations

from typing import TYPE_CHECKING

from mlir.dialects import arith

from oxide.dialects import simt
from oxide.frontends.simt import types as T
from oxide.frontends.simt.cell_pointers import no_address
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.expressions.inference import is_plain_literal
from oxide.frontends.simt.expressions.numeric import cast_int, saturating_fptoi
from oxide.frontends.simt.calls.casts import address_cast
from oxide.frontends.simt.expressions.table import emits
from oxide.frontends.simt.values import Val
from oxide.frontends.syntax import ast


if TYPE_CHECKING:
    from oxide.frontends.simt.emit import FunctionEmitter


@emits(ast.Cast)
def e_Cast(em: FunctionEmitter, e: ast.Cast, expected: T.Ty | None) -> Val:
    dst = em.resolve_type(e.target)
    src = em.expr(e.operand, dst if is_plain_literal(e.operand) else None)
    s = src.ty
    if s == dst:
        return src
    if isinstance(dst, T.Int) and isinstance(s, (T.Int, T.Bool, T.Enum)):
        return Val(dst, cast_int(src.v, s, dst))
    if isinstance(dst, T.Float) and isinstance(s, T.Int):
        if s.bits > 64:
            # Likewise a 128-bit integer to a float: a library call NVPTX does not have.
            narrow = "i64" if s.signed else "u64"
            raise err(e.loc, f"`{s}` as `{dst}`: the GPU has no conversion from a 128-bit integer to a float; "
                             f"convert through 64 bits (`x as {narrow} as {dst}`)")
        return Val(dst, (arith.sitofp if s.signed else arith.uitofp)(dst.mlir(), src.v))
    if isinstance(dst, T.Float) and isinstance(s, T.Float):
        return Val(dst, (arith.extf if dst.bits > s.bits else arith.truncf)(dst.mlir(), src.v))
    if isinstance(dst, T.Int) and isinstance(s, T.Float):
        if dst.bits > 64:
            # LLVM lowers a float-to-i128 conversion to a library call that NVPTX does not have.
            narrow = "i64" if dst.signed else "u64"
            raise err(e.loc, f"`{s}` as `{dst}`: the GPU has no conversion from a float to a 128-bit integer; "
                             f"convert through 64 bits (`x as {narrow} as {dst}`)")
        return Val(dst, saturating_fptoi(em, src.v, s, dst))
    if isinstance(dst, T.Ptr) and isinstance(s, T.ElemRef) and dst.elem == s.elem:
        return Val(T.Ptr(dst.elem, dst.mutable, 1), simt.RefPtrOp.build(src.v, results=[T.Ptr(dst.elem, True, 1).mlir()]))
    if isinstance(dst, T.Int) and isinstance(s, (T.Ptr, T.Shared)) and dst.bits == 64:
        # `p as usize` / `&raw const SMEM as u64`: the generic address.
        ptr = src.v if isinstance(s, T.Ptr) else simt.SharedPtrOp.build(src.v, results=[T.Ptr(s.elem, True, 3).mlir()])
        return Val(dst, simt.PtrToIntOp.build(ptr))
    if isinstance(dst, T.Ptr) and isinstance(s, T.Shared):
        # `&raw const SMEM as *const u8`: the shared array's address, in the shared address space.
        src = Val(T.Ptr(s.elem, True, 3), simt.SharedPtrOp.build(src.v, results=[T.Ptr(s.elem, True, 3).mlir()]))
        s = src.ty
    if isinstance(dst, T.Ptr) and isinstance(s, T.Int) and s.bits == 64:
        dst = T.Ptr(dst.elem, dst.mutable, 0)  # `addr as *mut T`: an integer address is a generic pointer
        return Val(dst, simt.IntToPtrOp.build(src.v, results=[dst.mlir()]))
    if isinstance(dst, T.Ptr) and isinstance(s, T.Ptr):
        if dst.elem == s.elem and dst.space == s.space:
            return Val(dst, src.v)
        dst = T.Ptr(dst.elem, dst.mutable, s.space)  # a cast keeps the address space it points into
        return Val(dst, simt.PtrCastOp.build(src.v, results=[dst.mlir()]))
    converted = address_cast(em, src, dst)
    if converted is not None:
        return converted
    return _bad_cast(e, s, dst)


def _bad_cast(e: ast.Cast, s: T.Ty, dst: T.Ty) -> Val:
    if isinstance(s, T.CellPtr):
        raise no_address(e.loc, f"a cast to `{dst}`")
    raise err(e.loc, f"non-primitive cast: `{s}` as `{dst}`")
