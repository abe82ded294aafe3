"""Methods of references into memory: an element slot's `read()` / `get()` / `write(v)` (a `&mut T` to a
scalar element, from `get_mut` or a view), and `len`, `get(i)`, `get_mut(i)`, `as_ptr` and `as_mut_ptr` of a
reference to an array in memory (an element slot of an array, or a place reference such as `&rows[r]`).

A reference to a scalar has only its slot methods here; for any other method it is dereferenced and the
scalar's method is called (entry.py)."""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import device_method
from oxide.frontends.simt.emit_support import index
from oxide.frontends.simt.expressions.indexing import index_value
from oxide.frontends.simt.places import Place, as_reference, element_place, load_place, reference_place
from oxide.frontends.simt.values import OptionVal, Val
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.errors import err


def _slot(em: Emitter, recv: Val, name: str, args: list[ast.Expr], *_: Any) -> bool:
    """An element slot of a scalar, called with `read()` / `get()` (no argument) or `write(v)`."""
    return T.is_scalar(recv.ty.elem) and len(args) == (1 if name == "write" else 0)


def _of_array(em: Emitter, recv: Val, name: str, args: list[ast.Expr], *_: Any) -> bool:
    """A reference to an array, called with one index (`get`, `get_mut`) or none (the others)."""
    return isinstance(recv.ty.elem, T.Array) and len(args) == (1 if name in ("get", "get_mut") else 0)


# Element slots -----------------------------------------------------------------------------------------------
@device_method(T.ElemRef, "read", "write", when=_slot)
def _slot_access(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                 expected: T.Ty | None) -> Val:
    """`slot.read()`: the element; `slot.write(v)`: a store to it."""
    elem = recv.ty.elem
    if name == "read":
        return Val(elem, simt.RefLoadOp.build(recv.v))
    value = em.coerce(em.expr(args[0], elem), elem, args[0].loc)
    simt.RefStoreOp.build(recv.v, value.v)
    return Val(T.UNIT, None)


@device_method(T.ElemRef, "get", when=lambda *call: _slot(*call) or _of_array(*call))
def _element_get(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                 expected: T.Ty | None) -> Val:
    """`slot.get()` of a scalar element (its value), `r.get(i)` of an element that is an array."""
    if T.is_scalar(recv.ty.elem):
        return Val(recv.ty.elem, simt.RefLoadOp.build(recv.v))
    return _array_get(em, recv, name, args, generics, loc, expected)


# References to arrays ----------------------------------------------------------------------------------------
@device_method(T.ElemRef, "len", when=_of_array)
@device_method(T.PlaceRef, "len", when=_of_array)
def _array_len(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
               expected: T.Ty | None) -> Val:
    length = _array_place(recv).ty.length
    i64 = ir.IntegerType.get_signless(64)
    return Val(T.USIZE, arith.constant(i64, ir.IntegerAttr.get(i64, length)))


@device_method(T.PlaceRef, "get", when=_of_array)
@device_method(T.ElemRef, "get_mut", when=_of_array)
@device_method(T.PlaceRef, "get_mut", when=_of_array)
def _array_get(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
               expected: T.Ty | None) -> Val:
    """`get(i)` / `get_mut(i)`: a reference to element i (`get` of a scalar element reads it), None out of
    bounds."""
    place = _array_place(recv)
    if name == "get_mut" and not place.mutable:
        raise err(loc, "`get_mut` needs a `&mut` array")
    i = index_value(em, args[0])
    ok = arith.cmpi(arith.CmpIPredicate.ult, i, index(place.ty.length))
    # The address is formed only for an index in range; a miss yields None and element 0's address.
    safe = arith.select(ok, i, index(0))
    was = em.unchecked
    em.unchecked = True
    try:
        element = element_place(em, place, safe, loc)
    finally:
        em.unchecked = was
    ref = as_reference(Place(element.ptr, element.ty, name == "get_mut", element.space))
    if name == "get" and not T.is_aggregate(element.ty):
        ref = load_place(em, element)
    return Val(T.OptionTy(ref.ty), OptionVal(ok, ref))


@device_method(T.ElemRef, "as_ptr", "as_mut_ptr", when=_of_array)
@device_method(T.PlaceRef, "as_ptr", "as_mut_ptr", when=_of_array)
def _array_pointer(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                   expected: T.Ty | None) -> Val:
    """`as_ptr()` / `as_mut_ptr()`: a raw pointer to element 0, in the array's address space."""
    place = _array_place(recv)
    ptr = T.Ptr(place.ty.elem, name == "as_mut_ptr", place.space)
    return Val(ptr, simt.PtrCastOp.build(place.ptr, results=[ptr.mlir()]))


def _array_place(recv: Val) -> Place:
    """The array a reference refers to (its guard has checked that it refers to one)."""
    place = reference_place(recv)
    assert place is not None and isinstance(place.ty, T.Array)
    return place
