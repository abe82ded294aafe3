"""A slice split in two: `split_at(mid)` / `split_at_mut(mid)` (trapping unless mid <= len), their `_checked`
forms (None instead), and `as_chunks::<N>()` / `as_chunks_mut::<N>()` (the whole chunks of N elements and the
rest). The receiver is a slice in memory, of a local array or from a raw pointer, or a reference to an array
in global memory (`rows[r].split_at(k)`), which is a slice of its elements."""

from __future__ import annotations

from typing import Any

from mlir.dialects import arith

from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import device_method
from oxide.frontends.simt.emit_slices import as_slice, piece, slice_length
from oxide.frontends.simt.emit_support import index
from oxide.frontends.simt.expressions.indexing import index_value
from oxide.frontends.simt.values import OptionVal, Val
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.errors import err

_SPLITS = ("split_at", "split_at_mut", "split_at_checked", "split_at_mut_checked")
_CHUNKS = ("as_chunks", "as_chunks_mut")


def _of_global_array(em: Emitter, recv: Val, *_: Any) -> bool:
    """A reference to an array in global memory (an element slot is always in global memory)."""
    ty = recv.ty
    return isinstance(ty.elem, T.Array) and (isinstance(ty, T.ElemRef) or ty.space == 1)


def _slice(recv: Val, name: str, loc: Any) -> Val:
    s = as_slice(recv)
    assert s is not None  # a slice, or a reference its guard has checked
    if name.startswith("split_at_mut") and not s.ty.mutable:
        raise err(loc, f"`{name}` needs a `&mut [T]`")
    return s


@device_method(T.Slice, *_SPLITS)
@device_method(T.LocalSlice, *_SPLITS)
@device_method(T.PtrSlice, *_SPLITS)
@device_method(T.ElemRef, *_SPLITS, when=_of_global_array)
@device_method(T.PlaceRef, *_SPLITS, when=_of_global_array)
def _split_at(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
              expected: T.Ty | None) -> Val:
    """The elements before `mid` and the rest; a `_checked` form is None (with both halves in bounds)
    unless mid <= len, the others trap."""
    s = _slice(recv, name, loc)
    length = slice_length(s)
    if len(args) != 1:
        raise err(loc, f"`{name}` takes one index")
    mid = index_value(em, args[0])
    ok = arith.cmpi(arith.CmpIPredicate.ule, mid, length)
    if not name.endswith("_checked"):
        em.trap_unless(ok)
    at = arith.select(ok, mid, index(0))  # a None keeps its (unused) halves in bounds
    pair_ty = T.Tuple((s.ty, s.ty))
    pair = Val(pair_ty, [piece(s, index(0), at), piece(s, at, arith.subi(length, at))])
    return Val(T.OptionTy(pair_ty), OptionVal(ok, pair)) if name.endswith("_checked") else pair


@device_method(T.Slice, *_CHUNKS)
@device_method(T.LocalSlice, *_CHUNKS)
@device_method(T.PtrSlice, *_CHUNKS)
@device_method(T.ElemRef, *_CHUNKS, when=_of_global_array)
@device_method(T.PlaceRef, *_CHUNKS, when=_of_global_array)
def _as_chunks(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
               expected: T.Ty | None) -> Val:
    """`as_chunks::<N>()`: (&[[T; N]], &[T]), the whole chunks and the rest."""
    s = _slice(recv, name, loc)
    length = slice_length(s)
    if len(generics) != 1 or args:
        raise err(loc, f"`{name}` is written `{name}::<N>()`")
    n = em.const_arg(generics[0])
    if n <= 0:
        raise err(loc, f"`{name}` needs a chunk size of at least 1")
    chunks = arith.divui(length, index(n))
    whole = arith.muli(chunks, index(n))
    if isinstance(s.ty, T.LocalSlice):
        raise err(loc, f"`{name}` of a local array is not supported in device code")
    pieces = [piece(s, index(0), chunks, T.Array(s.ty.elem, n)), piece(s, whole, arith.subi(length, whole))]
    return Val(T.Tuple(tuple(p.ty for p in pieces)), pieces)
