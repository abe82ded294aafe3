"""`core` functions that act on values: `hint::select_unpredictable`/`black_box`, `mem::replace`/`take`,
scalar `transmute`, lossless `From` conversions between primitives, and the byte views of integers and
floats (`from_ne_bytes`/`to_le_bytes` & co; NVIDIA GPUs are little-endian, so `ne` is `le`)."""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith, memref

from oxide.dialects import simt
from oxide.frontends.rust import ast
from oxide.frontends.rust import types as T
from oxide.frontends.rust.emit_expr import cast_int, placeholder
from oxide.frontends.rust.emit_support import err
from oxide.frontends.rust.intrinsics.registry import device_fn, device_method
from oxide.frontends.rust.values import ArrayView, Val, element_at, load_cell, new_cell, store_cell

_U8 = T.PRIMITIVES["u8"]


def _qualifier(segs: list[str]) -> str | None:
    return segs[-2] if len(segs) >= 2 else None


def select_values(cond: ir.Value, a: Val, b: Val) -> Val:
    """`if cond { a } else { b }` without a branch, leaf by leaf for tuples and structs."""
    if isinstance(a.v, list):
        return Val(a.ty, [select_values(cond, x, y) for x, y in zip(a.v, b.v)])
    return Val(a.ty, arith.select(cond, a.v, b.v))


@device_fn("select_unpredictable")
def _select_unpredictable(em: Any, segs: list[str], generics: list[Any], args: list[ast.Expr],
                          expected: T.Ty | None, loc: Any) -> Val | None:
    if _qualifier(segs) not in (None, "hint") or len(args) != 3:
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
    if _qualifier(segs) not in (None, "hint") or len(args) != 1:
        return None
    return em.expr(args[0], expected)  # only an optimisation barrier: the value is unchanged


# mem::replace / mem::take -----------------------------------------------------------------------------------
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


@device_fn("replace", "take")
def _mem_replace(em: Any, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                 loc: Any) -> Val | None:
    name = segs[-1]
    if _qualifier(segs) != "mem" or len(args) != (2 if name == "replace" else 1):
        return None
    place = _place(em, args[0], f"mem::{name}")
    elem = place.ty.elem
    old = em.owned(_read(place))
    if name == "replace":
        new = em.coerce(em.expr(args[1], elem), elem, args[1].loc)
    else:
        if not _zero_default(elem):
            raise err(loc, f"`mem::take` needs `Default` for `{elem}`; only primitives and tuples of them have it here")
        new = placeholder(elem)  # Default of integers, floats, bools and their tuples is all zeros
    _write(place, new)
    return old


def _zero_default(ty: T.Ty) -> bool:
    if isinstance(ty, T.Tuple):
        return all(_zero_default(e) for e in ty.elems)
    return isinstance(ty, (T.Int, T.Float, T.Bool))


# transmute -------------------------------------------------------------------------------------------------
def _bits(ty: T.Ty) -> int | None:
    if isinstance(ty, (T.Int, T.Float)):
        return ty.bits
    if isinstance(ty, T.Array) and isinstance(ty.elem, T.Int) and ty.elem.bits == 8 and ty.length in (1, 2, 4, 8, 16):
        return 8 * ty.length
    return None


def reinterpret(em: Any, value: Val, dst: T.Ty, loc: Any) -> Val:
    """The bits of a scalar (or a byte array) read as another type of the same size."""
    src = value.ty
    if src == dst:
        return value
    if isinstance(src, T.Ptr) and isinstance(dst, T.Int) and dst.bits == 64:
        return Val(dst, simt.PtrToIntOp.build(value.v))  # a pointer's bits are its (generic) address
    if isinstance(src, T.Int) and src.bits == 64 and isinstance(dst, T.Ptr):
        target = T.Ptr(dst.elem, dst.mutable, 0)
        return Val(target, simt.IntToPtrOp.build(value.v, results=[target.mlir()]))
    if _bits(src) is None or _bits(dst) is None or _bits(src) != _bits(dst):
        raise err(loc, f"transmute from `{src}` to `{dst}` is not supported in device code "
                       "(only between integers, floats and byte arrays of one size)")
    if isinstance(src, T.Array):
        value, src = Val(T.Int(_bits(src), False), bytes_to_int(value, src.length)), T.Int(_bits(src), False)
    if isinstance(dst, T.Array):
        raw = value.v if isinstance(src, T.Int) else arith.bitcast(T.Int(src.bits, False).mlir(), value.v)
        return int_to_bytes(em, raw, dst.length)
    if isinstance(src, T.Int) and isinstance(dst, T.Int):
        return Val(dst, value.v)
    return Val(dst, arith.bitcast(dst.mlir(), value.v))


@device_fn("transmute", "transmute_copy")
def _transmute(em: Any, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
               loc: Any) -> Val | None:
    if _qualifier(segs) not in (None, "mem") or len(args) != 1:
        return None
    em.require_unsafe(loc, f"`mem::{segs[-1]}`")
    src_ty = em.resolve_type(generics[0]) if len(generics) == 2 else None
    dst = em.resolve_type(generics[-1]) if generics else expected
    if dst is None:
        raise err(loc, "cannot infer the target type of `transmute`; write `transmute::<Src, Dst>(x)`")
    value = em.expr(args[0], src_ty)
    if src_ty is not None:
        value = em.coerce(value, src_ty, args[0].loc)
    return reinterpret(em, value, dst, loc)


# From between primitives ------------------------------------------------------------------------------------
def _lossless(src: T.Ty, dst: T.Ty) -> bool:
    """Whether core has `impl From<src> for dst` (both primitives)."""
    if isinstance(src, T.Bool):
        return isinstance(dst, (T.Int, T.Float)) and not isinstance(dst, T.Char)
    if isinstance(dst, T.Char):
        return src == T.PRIMITIVES["u8"]  # char: From<u8> only (from_u32 checks the others)
    if isinstance(src, T.Char):
        return dst in (T.PRIMITIVES["u32"], T.PRIMITIVES["u64"], T.PRIMITIVES["u128"])
    if isinstance(src, T.Int) and isinstance(dst, T.Int):
        usize_like = src in (T.USIZE, T.ISIZE) or dst in (T.USIZE, T.ISIZE)
        if usize_like:  # only u8/u16 -> usize, i8/i16/u8 -> isize
            return src.bits <= 16 and (dst.signed or not src.signed) and (not dst.signed or src.signed or src.bits < 16)
        if src.signed:
            return dst.signed and dst.bits > src.bits
        return dst.bits > src.bits or (not dst.signed and dst.bits == src.bits)
    if isinstance(src, T.Int) and isinstance(dst, T.Float):
        return src not in (T.USIZE, T.ISIZE) and src.bits <= (16 if dst.bits == 32 else 32)
    if isinstance(src, T.Float) and isinstance(dst, T.Float):
        return dst.bits >= src.bits
    return False


def convert_from(value: Val, dst: T.Ty) -> Val:
    """A lossless conversion (the caller checked `_lossless`)."""
    src = value.ty
    if src == dst:
        return value
    if isinstance(dst, T.Int):
        return Val(dst, cast_int(value.v, src, dst))
    if isinstance(src, T.Bool):
        as_int = arith.extui(ir.IntegerType.get_signless(32), value.v)
        return Val(dst, arith.uitofp(dst.mlir(), as_int))
    if isinstance(src, T.Int):
        return Val(dst, (arith.sitofp if src.signed else arith.uitofp)(dst.mlir(), value.v))
    return Val(dst, arith.extf(dst.mlir(), value.v))


@device_fn("from")
def _from(em: Any, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
          loc: Any) -> Val | None:
    dst = T.PRIMITIVES.get(_qualifier(segs) or "")
    if dst is None or len(args) != 1:
        return None
    value = em.expr(args[0])
    if value.ty == dst or _lossless(value.ty, dst):
        return convert_from(value, dst)
    if getattr(value, "flex", None) is not None or getattr(value, "literal", False):
        return convert_from(em.coerce(em.expr(args[0], dst), dst, args[0].loc), dst)
    raise err(loc, f"the trait `From<{value.ty}>` is not implemented for `{dst}` (use `as` or `try_from`)")


@device_method("into")
def _into(em: Any, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
        loc: Any, expected: T.Ty | None) -> Val | None:
    if args or expected is None:
        return None
    if recv.ty == expected or _lossless(recv.ty, expected):
        return convert_from(recv, expected)
    return None


# Byte views -------------------------------------------------------------------------------------------------
def bytes_to_int(array: Val, count: int) -> ir.Value:
    """The little-endian integer of `count` bytes of a `[u8; count]` array."""
    wide = ir.IntegerType.get_signless(8 * count)
    acc = arith.constant(wide, ir.IntegerAttr.get(wide, 0))
    view: ArrayView = array.v
    for k in range(count):
        byte = element_at(ArrayView(view.storage, view.prefix + (arith.constant(ir.IndexType.get(), k),)), _U8).v
        shifted = arith.shli(arith.extui(wide, byte), arith.constant(wide, ir.IntegerAttr.get(wide, 8 * k)))
        acc = arith.ori(acc, shifted)
    return acc


def int_to_bytes(em: Any, raw: ir.Value, count: int) -> Val:
    """A `[u8; count]` array holding the little-endian bytes of an integer of 8*count bits."""
    ty = T.Array(_U8, count)
    with ir.InsertionPoint.at_block_begin(em.entry):
        cell = new_cell(ty)
    wide = raw.type
    for k in range(count):
        shifted = arith.shrui(raw, arith.constant(wide, ir.IntegerAttr.get(wide, 8 * k)))
        memref.store(arith.trunci(_U8.mlir(), shifted), cell.leaves, [arith.constant(ir.IndexType.get(), k)])
    return load_cell(cell)


@device_fn("from_ne_bytes", "from_le_bytes", "from_be_bytes")
def _from_bytes(em: Any, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                loc: Any) -> Val | None:
    dst = T.PRIMITIVES.get(_qualifier(segs) or "")
    if not isinstance(dst, (T.Int, T.Float)) or len(args) != 1:
        return None
    count = dst.bits // 8
    want = T.Array(_U8, count)
    array = em.coerce(em.expr(args[0], want), want, args[0].loc)
    raw = bytes_to_int(array, count)
    if segs[-1] == "from_be_bytes":
        raw = _byte_swap(raw, count)
    return Val(dst, arith.bitcast(dst.mlir(), raw) if isinstance(dst, T.Float) else raw)


@device_method("to_ne_bytes", "to_le_bytes", "to_be_bytes")
def _to_bytes(em: Any, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
        loc: Any, expected: T.Ty | None) -> Val | None:
    if args or not isinstance(recv.ty, (T.Int, T.Float)):
        return None
    count = recv.ty.bits // 8
    raw = recv.v if isinstance(recv.ty, T.Int) else arith.bitcast(T.Int(recv.ty.bits, False).mlir(), recv.v)
    if name == "to_be_bytes":
        raw = _byte_swap(raw, count)
    return int_to_bytes(em, raw, count)


def _byte_swap(raw: ir.Value, count: int) -> ir.Value:
    from mlir.dialects import llvm

    return raw if count == 1 else llvm.intr_bswap(raw)


@device_method("swap_bytes")
def _swap_bytes(em: Any, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
        loc: Any, expected: T.Ty | None) -> Val | None:
    if args or not isinstance(recv.ty, T.Int):
        return None
    return Val(recv.ty, _byte_swap(recv.v, recv.ty.bits // 8))


@device_method("then_some")
def _then_some(em: Any, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
        loc: Any, expected: T.Ty | None) -> Val | None:
    if not isinstance(recv.ty, T.Bool) or len(args) != 1:
        return None
    from oxide.frontends.rust.values import OptionVal

    inner = expected.inner if isinstance(expected, T.OptionTy) else None
    value = em.expr(args[0], inner)
    return Val(T.OptionTy(value.ty), OptionVal(recv.v, value))



@device_fn("from_bits")
def _half_from_bits(em: Any, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                    loc: Any) -> Val | None:
    if _qualifier(segs) != "f16" or len(args) != 1:
        return None  # f32::from_bits / f64::from_bits are device_api's
    bits_ty = T.PRIMITIVES["u16"]
    bits = em.coerce(em.expr(args[0], bits_ty), bits_ty, args[0].loc)
    return Val(T.PRIMITIVES["f16"], arith.bitcast(ir.F16Type.get(), bits.v))


@device_fn("default")
def _default(em: Any, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
             loc: Any) -> Val | None:
    """`T::default()` / `u32::default()` of a primitive (or a generic bound to one): zero, false, '\\0'."""
    qualifier = _qualifier(segs)
    if qualifier is None or args:
        return None
    bound = em.generics[-1].get(qualifier)
    ty = bound if isinstance(bound, T.Ty) else T.PRIMITIVES.get(qualifier)
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
    if _qualifier(segs) not in (None, "mem") or args or len(generics) != 1:
        return None
    ty = em.resolve_type(generics[0])
    layout = size_and_align(ty)
    if layout is None:
        raise err(loc, f"`mem::{segs[-1]}::<{ty}>` is not supported in device code (primitives, arrays and tuples)")
    value = layout[0] if segs[-1] == "size_of" else layout[1]
    return Val(T.USIZE, arith.constant(T.USIZE.mlir(), ir.IntegerAttr.get(T.USIZE.mlir(), value)))


@device_method("then")
def _then(em: Any, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
          loc: Any, expected: T.Ty | None) -> Val | None:
    """`cond.then(|| v)`: Some(v) when cond holds, computing v only then; None otherwise."""
    if not isinstance(recv.ty, T.Bool) or len(args) != 1:
        return None
    from oxide.frontends.rust.emit_expr import none_of, value_if
    from oxide.frontends.rust.emit_support import i1
    from oxide.frontends.rust.values import OptionVal

    f = em.expr(args[0])
    if not isinstance(f.ty, T.Closure):
        raise err(args[0].loc, "`bool::then` takes a closure; `then_some(v)` takes a value")

    def some() -> Val:
        value = em.call_closure(f, [], loc)
        return Val(T.OptionTy(value.ty), OptionVal(i1(True), value))

    return value_if(em, recv.v, some, lambda hint: none_of(hint), loc)


@device_fn("from_fn")
def _array_from_fn(em: Any, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                   loc: Any) -> Val | None:
    """`core::array::from_fn(|i| f(i))`: an array whose element i is the closure's value at i (the length
    comes from the array type the value is expected to have)."""
    if _qualifier(segs) != "array" or len(args) != 1:
        return None
    from mlir.dialects import scf

    from oxide.frontends.rust.values import ArrayView, store_element

    if not isinstance(expected, T.Array):
        raise err(loc, "cannot infer the length of `array::from_fn`; annotate the binding: `let a: [T; N] = ...`")
    f = em.expr(args[0])
    if not isinstance(f.ty, T.Closure):
        raise err(args[0].loc, "`array::from_fn` takes a closure of the element index")
    with ir.InsertionPoint.at_block_begin(em.entry):
        cell = new_cell(expected)
    loop = scf.ForOp(arith.constant(ir.IndexType.get(), 0), arith.constant(ir.IndexType.get(), expected.length),
                     arith.constant(ir.IndexType.get(), 1))
    with ir.InsertionPoint(loop.body):
        i = loop.induction_variable
        em.push()
        try:
            em.bind("__array_from_fn_index", Val(T.USIZE, arith.index_cast(T.USIZE.mlir(), i)))
            value = em.call_closure(f, [ast.PathExpr(loc, ["__array_from_fn_index"])], loc)
        finally:
            em.pop()
        store_element(em.coerce(value, expected.elem, loc), ArrayView(cell.leaves, (i,)), expected.elem)
        scf.YieldOp([])
    return load_cell(cell)


_MAX_UNROLLED_MAP = 64


@device_method("map")
def _array_map(em: Any, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
               loc: Any, expected: T.Ty | None) -> Val | None:
    """`[T; N]::map(|x| f(x))`: a new array of the closure's values, one call per element in order (unrolled,
    so the element type is the closure's)."""
    if not isinstance(recv.ty, T.Array) or len(args) != 1:
        return None
    from oxide.frontends.rust.emit_expr import array_load
    from oxide.frontends.rust.emit_support import index

    array: T.Array = recv.ty
    if array.length > _MAX_UNROLLED_MAP:
        raise err(loc, f"`map` over an array of more than {_MAX_UNROLLED_MAP} elements is not supported in device "
                       "code; loop over the indices")
    f = em.expr(args[0])
    if not isinstance(f.ty, T.Closure):
        raise err(args[0].loc, "`map` takes a closure")
    values = []
    for k in range(array.length):
        em.push()
        try:
            em.bind("__array_map_element", em.owned(array_load(recv.v, index(k), array.elem)))
            values.append(em.call_closure(f, [ast.PathExpr(loc, ["__array_map_element"])], loc))
        finally:
            em.pop()
    elem = values[0].ty if values else array.elem
    out = T.Array(elem, array.length)
    with ir.InsertionPoint.at_block_begin(em.entry):
        cell = new_cell(out)
    from oxide.frontends.rust.values import ArrayView, store_element

    for k, v in enumerate(values):
        store_element(em.coerce(v, elem, loc), ArrayView(cell.leaves, (index(k),)), elem)
    return load_cell(cell)
