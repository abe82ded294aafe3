"""Calls of `core` functions that are language features rather than GPU API: `mem::replace`,
`mem::transmute`, `mem::size_of` / `align_of`, `ptr::null(_mut)`, `T::from` (lossless), `MaybeUninit`,
`array::from_fn`, `intrinsics::exact_div`, `ptr::fn_addr_eq`; and `slot.write(v)` / `assume_init()` of a
`MaybeUninit` local (decided from the call's shape, before the receiver is evaluated)."""

from __future__ import annotations

from typing import Any, Callable

from mlir import ir
from mlir.dialects import arith, scf

from oxide.dialects import simt
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls import maybe_uninit
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.conversions import LOSSLESS_FROM_TYPES, reinterpret
from oxide.frontends.simt.calls.maybe_uninit import MaybeUninitTy
from oxide.frontends.simt.calls.registry import device_fn
from oxide.frontends.simt.expressions.assignment import assign
from oxide.frontends.simt.expressions.indexing import array_store, local_cell
from oxide.frontends.simt.expressions.numeric import cast_int
from oxide.frontends.simt.expressions.operators import binary_values, operands
from oxide.frontends.simt.expressions.patterns import referent
from oxide.frontends.simt.expressions.placeholders import placeholder
from oxide.frontends.simt.emit_support import i1
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.values import ArrayView, OptionVal, Val, load_cell, new_cell, store_cell


def _const(ty: T.Ty, value: int) -> ir.Value:
    return arith.constant(ty.mlir(), ir.IntegerAttr.get(ty.mlir(), value))


def _no_args(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], *_: Any) -> bool:
    return not args


def _arity(n: int) -> Callable[..., bool]:
    return lambda em, segs, generics, args, *_: len(args) == n


@device_fn("ptr::null", "ptr::null_mut", when=_no_args)
def _null(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
          loc: Any) -> Val:
    """`ptr::null()` / `ptr::null_mut()`: the generic null pointer, its pointee from the expected type."""
    name = segs[-1]
    if not isinstance(expected, T.Ptr):
        raise err(loc, f"cannot infer the pointee type of `ptr::{name}()` here; annotate the binding")
    zero = arith.constant(ir.IntegerType.get_signless(64), ir.IntegerAttr.get(ir.IntegerType.get_signless(64), 0))
    ptr_ty = T.Ptr(expected.elem, name == "null_mut", 0)  # the generic null pointer
    return Val(ptr_ty, simt.IntToPtrOp.build(zero, results=[ptr_ty.mlir()]))


@device_fn("mem::size_of", "mem::align_of", when=lambda em, segs, generics, args, *_: len(generics) == 1 and not args)
def _size_of(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
             loc: Any) -> Val:
    size, align = T.layout(em.resolve_type(generics[0]))
    return Val(T.USIZE, _const(T.USIZE, size if segs[-1] == "size_of" else align))


# `char::from` (only from u8) and the other primitives' are conversions.py's.
@device_fn(*(f"{name}::from" for name, ty in T.PRIMITIVES.items() if type(ty) in LOSSLESS_FROM_TYPES),
           when=_arity(1))
def _from(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
          loc: Any) -> Val:
    return _lossless_from(em, T.PRIMITIVES[segs[-2]], args[0], loc)


@device_fn("MaybeUninit::uninit", "MaybeUninit::zeroed")
def _maybe_uninit(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                  loc: Any) -> Val:
    """`MaybeUninit::uninit()` / `zeroed()`: the T's own storage, a fresh local or zero bits; with arguments,
    maybe_uninit.py's constructor reports the mistake."""
    name = segs[-1]
    if args:
        return maybe_uninit.make(em, segs, generics, args, expected, loc)
    ty = em.resolve_type(generics[0]) if generics else expected
    if ty is None:
        raise err(loc, f"cannot infer the type of `MaybeUninit::{name}()` here; annotate the binding")
    if isinstance(ty, T.Never):
        # An uninhabited type has no values: Rust's `assert_inhabited` guard panics, here a trap.
        simt.TrapOp.build()
        return Val(T.NEVER, None)
    if name == "uninit":
        with ir.InsertionPoint.at_block_begin(em.entry):
            slot = new_cell(ty)  # a fresh local, never written yet
        return load_cell(slot)
    try:
        return placeholder(ty)  # zero bits
    except TypeError:
        raise err(loc, f"`MaybeUninit::zeroed()` of `{ty}` is not supported in device code") from None


@device_fn("mem::transmute", when=_arity(1))
def _mem_transmute(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                   loc: Any) -> Val:
    return _transmute(em, generics, args[0], expected, loc)


@device_fn("mem::replace", when=_arity(2))
def _replace(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
             loc: Any) -> Val:
    """core::mem::replace(&mut place, v): the old value out, v in."""
    target = args[0]
    if not (isinstance(target, ast.Unary) and target.op == "&mut"):
        raise err(target.loc, "`mem::replace` takes `&mut place` as its first argument")
    old = referent(em, em.expr(target))
    assign(em, target.operand, em.coerce(em.expr(args[1], old.ty), old.ty, args[1].loc), args[1], loc)
    return old


@device_fn("array::from_fn", when=_arity(1))
def _from_fn(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
             loc: Any) -> Val:
    return _array_from_fn(em, args[0], expected, loc)


@device_fn("exact_div", when=_arity(2))
def _exact_div(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
               loc: Any) -> Val:
    """core::intrinsics::exact_div: a division the caller promises is exact; computed as `/`."""
    a, b = operands(em, args[0], args[1], expected)
    return binary_values(em, "/", a, b, loc)


@device_fn("fn_addr_eq", when=_arity(2))
def _fn_addr_eq(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                loc: Any) -> Val:
    f, g = em.expr(args[0]), em.expr(args[1])
    if not (isinstance(f.ty, T.FnItem) and isinstance(g.ty, T.FnItem)) or f.v or g.v:
        raise err(loc, "`fn_addr_eq` compares two non-generic functions in device code")
    return Val(T.BOOL, i1(f.ty.path == g.ty.path))  # every function is a distinct, statically known item


def maybe_uninit_method(em: Emitter, e: ast.MethodCall) -> Val | None:
    """`slot.write(v)` on a `let mut slot: MaybeUninit<T>` local and `slot.assume_init()`: MaybeUninit<T> is
    the T's own storage here, so these are a store into the local and its value."""
    if e.name == "write" and len(e.args) == 1:
        cell = local_cell(em, e.receiver)
        if cell is None or isinstance(cell.ty, T.Ptr):
            return None  # `p.write(v)` through a raw pointer
        store_cell(cell, em.coerce(em.expr(e.args[0], cell.ty), cell.ty, e.args[0].loc))
        return Val(T.UNIT, None)
    if e.name in ("assume_init", "assume_init_read") and not e.args:
        em.require_unsafe(e.loc, f"`{e.name}`")
        value = em.expr(e.receiver)
        if isinstance(value.ty, MaybeUninitTy):
            # A `MaybeUninit` value (intrinsics/maybe_uninit.py) holds its T; an uninhabited T has none.
            if isinstance(value.v, Val):
                return value.v
            simt.TrapOp.build()
            return Val(T.NEVER, None)
        return value
    return None


def _lossless_from(em: Emitter, target: T.Ty, arg: ast.Expr, loc: Any) -> Val:
    """`u32::from(b)`, `u64::from(x_u32)`, `f64::from(x_f32)`: the conversions Rust's `From` provides, which
    never lose information (bools to integers, widening integers, widening floats, small ints to floats)."""
    value = em.expr(arg)
    source = value.ty
    if source == target:
        return value
    if not _is_lossless(source, target):
        raise err(loc, f"the trait `From<{source}>` is not implemented for `{target}`")
    if isinstance(target, T.Int):
        return Val(target, cast_int(value.v, source, target))
    if isinstance(source, T.Float):
        return Val(target, arith.extf(target.mlir(), value.v))
    signed = isinstance(source, T.Int) and source.signed
    return Val(target, (arith.sitofp if signed else arith.uitofp)(target.mlir(), value.v))


def _transmute(em: Emitter, generics: list[Any], arg: ast.Expr, expected: T.Ty | None, loc: Any) -> Val:
    """`mem::transmute::<A, B>(x)` between scalars of one size (and pointers): the same bits, retyped."""
    em.require_unsafe(loc, "`mem::transmute`")
    source_hint = em.resolve_type(generics[0]) if len(generics) == 2 else None
    target = em.resolve_type(generics[-1]) if generics else expected
    value = em.expr(arg, source_hint)
    if source_hint is not None:
        value = em.coerce(value, source_hint, arg.loc)
    source = value.ty

    if isinstance(source, T.Ptr) and isinstance(target, T.OptionTy) and target.inner == source.elem \
            and T.is_scalar(target.inner):
        return _pointer_as_option_ref(value, target)

    def bits(t: T.Ty) -> int | None:
        if isinstance(t, (T.Int, T.Float)):
            return t.bits
        return 64 if isinstance(t, T.Ptr) else None

    if target is not None and (isinstance(source, T.Array) or isinstance(target, T.Array)):
        return reinterpret(em, value, target, loc)  # byte arrays <-> scalars (the intrinsics' byte views)
    if target is None or bits(source) is None or bits(target) is None:
        raise err(loc, f"`mem::transmute` from `{source}` to `{target}` is not supported in device code "
                       "(only between integers, floats, byte arrays and pointers of one size)")
    if bits(source) != bits(target):
        raise err(loc, f"cannot transmute between types of different sizes: `{source}` ({bits(source)} bits) "
                       f"and `{target}` ({bits(target)} bits)")
    raw = simt.PtrToIntOp.build(value.v) if isinstance(source, T.Ptr) else value.v
    if isinstance(target, T.Ptr):
        if isinstance(source, T.Float):
            raw = arith.bitcast(ir.IntegerType.get_signless(64), raw)
        target = T.Ptr(target.elem, target.mutable, 0)  # an integer address is a generic pointer
        return Val(target, simt.IntToPtrOp.build(raw, results=[target.mlir()]))
    if isinstance(target, T.Float) or isinstance(source, T.Float):
        raw = arith.bitcast(target.mlir(), raw) if raw.type != target.mlir() else raw
    return Val(target, raw)


def _pointer_as_option_ref(ptr: Val, target: T.OptionTy) -> Val:
    """`transmute::<*const T, Option<&T>>(p)`: None for a null pointer (the niche), else Some of what p
    points to. A `&T` is used by value here, so the value is read now, and only when p is not null."""
    i64 = ir.IntegerType.get_signless(64)
    is_some = arith.cmpi(arith.CmpIPredicate.ne, simt.PtrToIntOp.build(ptr.v), arith.constant(i64, ir.IntegerAttr.get(i64, 0)))
    read = scf.IfOp(is_some, [target.inner.mlir()], has_else=True)
    with ir.InsertionPoint(read.then_block):
        scf.YieldOp([simt.PtrLoadOp.build(ptr.v)])
    with ir.InsertionPoint(read.else_block):
        scf.YieldOp([placeholder(target.inner).v])
    return Val(target, OptionVal(is_some, Val(target.inner, read.results[0])))


def _is_lossless(source: T.Ty, target: T.Ty) -> bool:
    """Whether Rust implements `From<source> for target` among the primitives."""
    pointer_sized = (T.USIZE, T.ISIZE)
    if isinstance(source, T.Bool):
        return isinstance(target, (T.Int, T.Float))
    if isinstance(source, T.Float):
        return isinstance(target, T.Float) and target.bits > source.bits
    if not isinstance(source, T.Int) or source in pointer_sized:
        return False
    if isinstance(target, T.Float):
        return source.bits <= (16 if target.bits == 32 else 32)
    if not isinstance(target, T.Int) or target.bits <= source.bits or (source.signed and not target.signed):
        return False
    return target not in pointer_sized or source.bits <= (8 if target.signed and not source.signed else 16)


def _array_from_fn(em: Emitter, f_expr: ast.Expr, expected: T.Ty | None, loc: Any) -> Val:
    """`core::array::from_fn(|i| ...)` where the array type is known from context: f(0), f(1), ... in order."""
    if not isinstance(expected, T.Array):
        raise err(loc, "`array::from_fn` needs its array type from context: `let a: [T; N] = array::from_fn(...)`")
    f = em.expr(f_expr)
    if not isinstance(f.ty, T.Closure):
        raise err(f_expr.loc, "`array::from_fn` takes a closure")
    with ir.InsertionPoint.at_block_begin(em.entry):
        view = ArrayView(new_cell(expected).leaves)
    for i in range(expected.length):
        em.bind("__from_fn_index", Val(T.USIZE, _const(T.USIZE, i)))
        element = em.call_closure(f, [ast.PathExpr(loc, ["__from_fn_index"])], loc)
        array_store(em.coerce(element, expected.elem, loc), view, _index_const(i), expected.elem)
    return Val(expected, view)


def _index_const(i: int) -> ir.Value:
    return arith.constant(ir.IndexType.get(), i)
