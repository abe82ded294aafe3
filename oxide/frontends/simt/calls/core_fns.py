"""`core` functions and `bool` methods that act on values: `hint::select_unpredictable`/`black_box`,
`mem::take`, `T::default()` of primitives and `mem::size_of`/`align_of` (`bool::then` and
`then_some` are options.py's)."""

from __future__ import annotations

from typing import Any, Callable

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.simt.expressions.placeholders import placeholder
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import device_fn, qualifier
from oxide.frontends.simt.values import Val, load_cell, store_cell


def select_values(cond: ir.Value, a: Val, b: Val) -> Val:
    """`if cond { a } else { b }` without a branch, leaf by leaf for tuples and structs."""
    if isinstance(a.v, list):
        return Val(a.ty, [select_values(cond, x, y) for x, y in zip(a.v, b.v)])
    return Val(a.ty, arith.select(cond, a.v, b.v))


def _hint(arity: int) -> Callable[..., bool]:
    return lambda em, segs, generics, args, *_: qualifier(segs) in (None, "hint") and len(args) == arity


@device_fn("select_unpredictable", "hint::select_unpredictable", when=_hint(3))
def _select_unpredictable(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr],
                          expected: T.Ty | None, loc: Any) -> Val:
    cond = em.coerce(em.expr(args[0], T.BOOL), T.BOOL, args[0].loc)
    a = em.expr(args[1], expected)
    b = em.coerce(em.expr(args[2], a.ty), a.ty, args[2].loc)
    if not _selectable(a.ty):
        raise err(loc, f"`select_unpredictable` of `{a.ty}` values is not supported in device code "
                       "(scalars, pointers, tuples and structs of them)")
    return select_values(cond.v, a, b)


def _selectable(ty: T.Ty) -> bool:
    if isinstance(ty, T.Tuple):
        return all(_selectable(e) for e in ty.elems)
    if isinstance(ty, T.Struct):
        return all(_selectable(f) for _, f in ty.fields)
    return isinstance(ty, (T.Int, T.Float, T.Bool, T.Enum, T.Ptr))


@device_fn("black_box", "hint::black_box", when=_hint(1))
def _black_box(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
               loc: Any) -> Val:
    return em.expr(args[0], expected)  # only an optimisation barrier: the value is unchanged


# mem::take (mem::replace is core_calls.py's) ---------------------------------------------------------
def _place(em: Emitter, a: ast.Expr, what: str) -> Val:
    target = em.expr(a)
    if not isinstance(target.ty, (T.LocalRef, T.ElemRef)) or (isinstance(target.ty, T.LocalRef) and not target.ty.mutable):
        raise err(a.loc, f"`{what}` takes `&mut` of a `let mut` local (or of a field of one) or an element "
                         f"reference, not `{target.ty}`")
    return target


def _read(place: Val) -> Val:
    if isinstance(place.ty, T.LocalRef):
        return load_cell(place.v)
    return Val(place.ty.elem, simt.RefLoadOp.build(place.v))


def _write(place: Val, value: Val) -> None:
    if isinstance(place.ty, T.LocalRef):
        store_cell(place.v, value)
    else:
        simt.RefStoreOp.build(place.v, value.v)


@device_fn("mem::take", when=lambda em, segs, generics, args, *_: len(args) == 1)
def _mem_take(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
              loc: Any) -> Val:
    place = _place(em, args[0], "mem::take")
    elem = place.ty.elem
    old = em.owned(_read(place))
    if not _zero_default(elem):
        raise err(loc, f"`mem::take` needs `Default` for `{elem}`; only primitives and tuples of them have it here")
    _write(place, placeholder(elem))  # Default of integers, floats, bools and their tuples is all zeros
    return old


def _zero_default(ty: T.Ty) -> bool:
    if isinstance(ty, T.Tuple):
        return all(_zero_default(e) for e in ty.elems)
    return isinstance(ty, (T.Int, T.Float, T.Bool))


def _default_type(em: Emitter, segs: list[str]) -> T.Ty | None:
    """The primitive (or the type a generic is bound to) whose `::default()` this is, if it has a zero default."""
    owner = qualifier(segs)
    if owner is None:
        return None
    bound = em.generics[-1].get(owner)
    ty = bound if isinstance(bound, T.Ty) else T.PRIMITIVES.get(owner)
    return ty if ty is not None and _zero_default(ty) else None


@device_fn("default", when=lambda em, segs, generics, args, *_: not args and _default_type(em, segs) is not None)
def _default(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
             loc: Any) -> Val:
    """`T::default()` / `u32::default()` of a primitive (or a generic bound to one): zero, false, '\\0'."""
    return placeholder(_default_type(em, segs))


def size_and_align(ty: T.Ty) -> tuple[int, int] | None:
    """Rust's size and alignment of a primitive, an array or a tuple of them (None for other types: a
    struct's layout depends on its repr, which is not modelled)."""
    if isinstance(ty, T.Bool):
        return 1, 1
    if isinstance(ty, (T.Int, T.Float)):
        size = ty.bits // 8
        return size, min(size, 16 if ty.bits == 128 else 8)
    if isinstance(ty, T.Unit):
        return 0, 1
    if isinstance(ty, T.Array):
        inner = size_and_align(ty.elem)
        return None if inner is None else (inner[0] * ty.length, inner[1])
    if isinstance(ty, T.Tuple):
        parts = [size_and_align(e) for e in ty.elems]
        if any(p is None for p in parts):
            return None
        # Tuples are repr(Rust): rustc orders fields by alignment, which leaves no padding between fields of
        # these types (each size is a multiple of its alignment); the total rounds up to the alignment.
        align = max((a for _, a in parts), default=1)
        size = sum(s for s, _ in parts)
        return -(-size // align) * align, align
    return None


# `mem::size_of` is core_calls.py's; this is the bare `size_of::<T>()`.
@device_fn("size_of", "align_of",
           when=lambda em, segs, generics, args, *_: qualifier(segs) is None and not args and len(generics) == 1)
def _size_of(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
             loc: Any) -> Val:
    ty = em.resolve_type(generics[0])
    layout = size_and_align(ty)
    if layout is None:
        raise err(loc, f"`mem::{segs[-1]}::<{ty}>` is not supported in device code (primitives, arrays and tuples)")
    value = layout[0] if segs[-1] == "size_of" else layout[1]
    return Val(T.USIZE, arith.constant(T.USIZE.mlir(), ir.IntegerAttr.get(T.USIZE.mlir(), value)))
