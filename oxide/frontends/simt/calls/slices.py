"""Methods of the global-memory handles: `len`/`is_empty` of a slice or DisjointSlice; a slice's `as_ptr`,
`get(i)` (None out of bounds) and `get_unchecked(i)`; a DisjointSlice's `get_mut(witness)`,
`get_mut_indexed()`, `get_unchecked_mut(i)` and `as_mut_ptr()`; a shared array's `len` and pointers."""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith, scf

from oxide.dialects import simt
from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import device_method
from oxide.frontends.simt.calls.scalars import const, usize
from oxide.frontends.simt.expressions.indexing import index_value
from oxide.frontends.simt.expressions.placeholders import placeholder
from oxide.frontends.simt.values import OptionVal, Val
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.errors import err


def _no_args(em: Emitter, recv: Val, name: str, args: list[ast.Expr], *_: Any) -> bool:
    return not args


def _one_arg(em: Emitter, recv: Val, name: str, args: list[ast.Expr], *_: Any) -> bool:
    return len(args) == 1


@device_method(T.Slice, "len", "is_empty", when=_no_args)
@device_method(T.Disjoint, "len", "is_empty", when=_no_args)
def _len(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
         expected: T.Ty | None) -> Val:
    length = usize(simt.LenOp.build(recv.v))
    if name == "len":
        return length
    return Val(T.BOOL, arith.cmpi(arith.CmpIPredicate.eq, length.v, const(T.USIZE, 0)))


@device_method(T.Disjoint, "get_mut", when=_one_arg)
def _get_mut(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
             expected: T.Ty | None) -> Val:
    ty = recv.ty
    witness = em.expr(args[0])
    if not isinstance(witness.ty, T.ThreadIndex):
        raise err(args[0].loc, f"`get_mut` takes a thread index (a witness), not `{witness.ty}`; "
                               "raw indices need `unsafe { get_unchecked_mut(i) }`")
    if witness.ty.space != ty.space:
        raise err(args[0].loc, f"mismatched index spaces: this DisjointSlice is indexed by "
                               f"`{T.space_rust(ty.space)}`, the witness is `{T.space_rust(witness.ty.space)}`")
    ok, ref = simt.GetMutOp.build(recv.v, witness.v)
    return Val(T.OptionTy(T.ElemRef(ty.elem)), OptionVal(ok, Val(T.ElemRef(ty.elem), ref)))


@device_method(T.Disjoint, "get_mut_indexed", when=_no_args)
def _get_mut_indexed(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                     expected: T.Ty | None) -> Val:
    ty = recv.ty
    mint = {"1d": lambda: simt.Index1DOp.build(),
            "runtime_2d": lambda: simt.Index2DRuntimeOp.build()}.get(ty.space)
    if ty.space.startswith("2d:"):
        mint = lambda: simt.Index2DOp.build(results=[T.ThreadIndex(ty.space).mlir()])  # noqa: E731
    if mint is None:
        raise err(loc, f"`get_mut_indexed` needs an Index1D or Index2D slice, not `{ty}`")
    witness = mint()
    ok, ref = simt.GetMutOp.build(recv.v, witness)
    pair = T.Tuple((T.ElemRef(ty.elem), T.ThreadIndex(ty.space)))
    return Val(T.OptionTy(pair), OptionVal(ok, Val(pair, [Val(T.ElemRef(ty.elem), ref),
                                                            Val(T.ThreadIndex(ty.space), witness)])))


@device_method(T.Disjoint, "get_unchecked_mut", when=_one_arg)
def _get_unchecked_mut(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                       expected: T.Ty | None) -> Val:
    em.require_unsafe(loc, "`get_unchecked_mut`")
    i = index_value(em, args[0])
    ref_ty = T.ElemRef(recv.ty.elem)
    return Val(ref_ty, simt.GetUncheckedMutOp.build(recv.v, i, results=[ref_ty.mlir()]))


@device_method(T.Disjoint, "as_mut_ptr")
def _disjoint_ptr(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                  expected: T.Ty | None) -> Val:
    if isinstance(recv.ty.elem, T.Array):
        raise err(loc, "`as_mut_ptr` of a DisjointSlice of arrays is not supported in device code")
    ptr = T.Ptr(recv.ty.elem, True, 1)
    return Val(ptr, simt.SlicePtrOp.build(recv.v, results=[ptr.mlir()]))


@device_method(T.Slice, "as_ptr", "as_mut_ptr")
def _slice_ptr(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
               expected: T.Ty | None) -> Val:
    ptr = T.Ptr(recv.ty.elem, name == "as_mut_ptr", 1)
    return Val(ptr, simt.SlicePtrOp.build(recv.v, results=[ptr.mlir()]))


@device_method(T.Slice, "get", when=_one_arg)
def _slice_get(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
               expected: T.Ty | None) -> Val:
    elem = recv.ty.elem
    i = index_value(em, args[0])
    length = simt.LenOp.build(recv.v)
    ok = arith.cmpi(arith.CmpIPredicate.ult, i, length)
    safe_i = arith.select(ok, i, arith.constant(ir.IndexType.get(), 0))
    load = scf.IfOp(ok, [elem.mlir()], has_else=True)
    with ir.InsertionPoint(load.then_block):
        scf.YieldOp([simt.LoadUncheckedOp.build(recv.v, safe_i)])
    with ir.InsertionPoint(load.else_block):
        scf.YieldOp([placeholder(elem).v])
    return Val(T.OptionTy(elem), OptionVal(ok, Val(elem, load.results[0])))


@device_method(T.Slice, "get_unchecked", when=_one_arg)
def _slice_get_unchecked(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                         expected: T.Ty | None) -> Val:
    em.require_unsafe(loc, "`get_unchecked`")
    return Val(recv.ty.elem, simt.LoadUncheckedOp.build(recv.v, index_value(em, args[0])))


@device_method(T.Shared, "len")
def _shared_len(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                expected: T.Ty | None) -> Val:
    return Val(T.USIZE, const(T.USIZE, recv.ty.length))


@device_method(T.Shared, "as_ptr", "as_mut_ptr")
def _shared_ptr(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                expected: T.Ty | None) -> Val:
    em.require_unsafe(loc, "a pointer into a `static mut` shared array")
    ptr = T.Ptr(recv.ty.elem, name == "as_mut_ptr", 3)
    return Val(ptr, simt.SharedPtrOp.build(recv.v, results=[ptr.mlir()]))
