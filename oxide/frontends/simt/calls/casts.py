"""`as` casts involving addresses: a pointer (or a shared array, `&raw const SMEM as u64`) to an integer is its
generic address (simt.ptr_to_int); an integer to a pointer is a generic pointer (simt.int_to_ptr); a shared
array to a raw pointer points at its first element."""

from __future__ import annotations


from oxide.dialects import simt
from oxide.frontends.simt import types as T
from oxide.frontends.simt.expressions.numeric import cast_int
from oxide.frontends.simt.values import Val
from oxide.frontends.simt.calls.context import Emitter

_U64 = T.PRIMITIVES["u64"]


def shared_as_pointer(value: Val, mutable: bool = True) -> Val:
    """A pointer to the first element of a shared array (in the shared address space)."""
    ptr = T.Ptr(value.ty.elem, mutable, 3)
    return Val(ptr, simt.SharedPtrOp.build(value.v, results=[ptr.mlir()]))


def address_cast(em: Emitter, value: Val, dst: T.Ty) -> Val | None:
    """`value as dst` for the address casts, or None when this is not one."""
    if isinstance(value.ty, T.Shared) and isinstance(dst, (T.Int, T.Ptr)):
        value = shared_as_pointer(value, not isinstance(dst, T.Ptr) or dst.mutable)
        if isinstance(dst, T.Ptr):
            if dst.elem == value.ty.elem:
                return Val(T.Ptr(dst.elem, dst.mutable, 3), value.v)
            target = T.Ptr(dst.elem, dst.mutable, 3)
            return Val(target, simt.PtrCastOp.build(value.v, results=[target.mlir()]))
    if isinstance(value.ty, T.Ptr) and isinstance(dst, T.Int):
        address = simt.PtrToIntOp.build(value.v)
        return Val(dst, cast_int(address, _U64, dst))
    if isinstance(value.ty, T.Int) and isinstance(dst, T.Ptr):
        address = cast_int(value.v, value.ty, _U64)
        target = T.Ptr(dst.elem, dst.mutable, 0)
        return Val(target, simt.IntToPtrOp.build(address, results=[target.mlir()]))
    return None
