"""`core` functions and `bool` methods that act on values: `hint::select_unpredictable`/`black_box`,
`mem::take`, `T::default()` of primitives and `mem::size_of`/`align_of` (`bool::then` and
`then_some` are language_methods.py's)."""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.simt.emit_expr import placeholder
from oxide.frontends.simt.emit_support import err
from oxide.frontends.simt.calls.registry import device_fn, qualifier
from oxide.frontends.simt.values import Val, load_cell, store_cell


def select_values(cond: ir.Value, a: Val, b: Val) -> Val:
    """`if cond { a } else { b }` without a branch, leaf by leaf for tuples and structs."""
    if isinstance(a.v, list):
        return Val(a.ty, [select_values(cond, x, y) for x, y in zip(a.v, b.v)])
    return Val(a.ty, arith.select(cond, a.v, b.v))


@device_fn("select_unpredictable")
def _select_unpredictable(em: Any, segs: list[str], generics: list[Any], args: list[ast.Expr],
                          expected: T.Ty | None, loc: Any) -> Val | None:
    if qualifier(segs) not in (None, "hint") or len(args) != 3:
        return None
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


@device_fn("black_box")
def _black_box(em: Any, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
               loc: Any) -> Val | None:
    if qualifier(segs) not in (None, "hint") or len(args) != 1:
        return None
    return em.expr(args[0], expected)  # only an optimisation barrier: the value is unchanged


# mem::take (mem::replace is core_calls.py's) ---------------------------------------------------------
def _place(em: Any, a: ast.Expr, what: str) -> Val:
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


@device_fn("take")
def _mem_take(em: Any, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
              loc: Any) -> Val | None:
    if qualifier(segs) != "mem" or len(args) != 1:
        return None
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


@device_fn("default")
def _default(em: Any, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
             loc: Any) -> Val | None:
    """`T::default()` / `u32::default()` of a primitive (or a generic bound to one): zero, false, '\\0'."""
    owner = qualifier(segs)
    if owner is None or args:
        return None
    bound = em.generics[-1].get(owner)
    ty = bound if isinstance(bound, T.Ty) else T.PRIMITIVES.get(owner)
    if ty is None or not _zero_default(ty):
        return None
    return placeholder(ty)


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


@device_fn("size_of", "align_of")
def _size_of(em: Any, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
             loc: Any) -> Val | None:
    if qualifier(segs) not in (None, "mem") or args or len(generics) != 1:
        return None
    ty = em.resolve_type(generics[0])
    layout = size_and_align(ty)
    if layout is None:
        raise err(loc, f"`mem::{segs[-1]}::<{ty}>` is not supported in device code (primitives, arrays and tuples)")
    value = layout[0] if segs[-1] == "size_of" else layout[1]
    return Val(T.USIZE, arith.constant(T.USIZE.mlir(), ir.IntegerAttr.get(T.USIZE.mlir(), value)))
