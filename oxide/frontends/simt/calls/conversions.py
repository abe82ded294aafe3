"""Conversions between primitive types: scalar `transmute` (also pointers to and from 64-bit integers), the
lossless `From`/`into` impls of core, `f16::from_bits`, and the byte views of integers and floats
(`from_ne_bytes`/`to_le_bytes`/`swap_bytes` & co; NVIDIA GPUs are little-endian, so `ne` is `le`)."""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith, llvm, memref

from oxide.dialects import simt
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.simt.expressions.numeric import cast_int
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import device_fn, device_method, qualifier
from oxide.frontends.simt.values import ArrayView, Val, element_at, load_cell, new_cell

_U8 = T.PRIMITIVES["u8"]


# transmute -------------------------------------------------------------------------------------------------
def _bits(ty: T.Ty) -> int | None:
    if isinstance(ty, (T.Int, T.Float)):
        return ty.bits
    if isinstance(ty, T.Array) and isinstance(ty.elem, T.Int) and ty.elem.bits == 8 and ty.length in (1, 2, 4, 8, 16):
        return 8 * ty.length
    return None


def reinterpret(em: Emitter, value: Val, dst: T.Ty, loc: Any) -> Val:
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


# `mem::transmute` is core_calls.py's; this is the bare `transmute(x)` and `transmute_copy`.
@device_fn("transmute", "transmute_copy", "mem::transmute_copy",
           when=lambda em, segs, generics, args, *_: qualifier(segs) in (None, "mem") and len(args) == 1)
def _transmute(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
               loc: Any) -> Val:
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


def _one_arg(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], *_: Any) -> bool:
    return len(args) == 1


# The primitives whose `T::from` is core_calls.py's lossless `From` (integers and floats, not char or bool).
LOSSLESS_FROM_TYPES = (T.Int, T.Float, T._Usize, T._Isize)


@device_fn(*(f"{name}::from" for name, ty in T.PRIMITIVES.items() if type(ty) not in LOSSLESS_FROM_TYPES),
           when=_one_arg)
def _from(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
          loc: Any) -> Val:
    dst = T.PRIMITIVES[segs[-2]]
    value = em.expr(args[0])
    if value.ty == dst or _lossless(value.ty, dst):
        return convert_from(value, dst)
    if getattr(value, "flex", None) is not None or getattr(value, "literal", False):
        return convert_from(em.coerce(em.expr(args[0], dst), dst, args[0].loc), dst)
    raise err(loc, f"the trait `From<{value.ty}>` is not implemented for `{dst}` (use `as` or `try_from`)")


@device_method(T.Ty, "into", when=lambda em, recv, name, args, generics, loc, expected:
               not args and expected is not None and (recv.ty == expected or _lossless(recv.ty, expected)))
def _into(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
        loc: Any, expected: T.Ty | None) -> Val:
    return convert_from(recv, expected)


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


def int_to_bytes(em: Emitter, raw: ir.Value, count: int) -> Val:
    """A `[u8; count]` array holding the little-endian bytes of an integer of 8*count bits."""
    ty = T.Array(_U8, count)
    with ir.InsertionPoint.at_block_begin(em.entry):
        cell = new_cell(ty)
    wide = raw.type
    for k in range(count):
        shifted = arith.shrui(raw, arith.constant(wide, ir.IntegerAttr.get(wide, 8 * k)))
        memref.store(arith.trunci(_U8.mlir(), shifted), cell.leaves, [arith.constant(ir.IndexType.get(), k)])
    return load_cell(cell)


@device_fn(*(f"{name}::{fn}" for name, ty in T.PRIMITIVES.items() if isinstance(ty, (T.Int, T.Float))
             for fn in ("from_ne_bytes", "from_le_bytes", "from_be_bytes")), when=_one_arg)
def _from_bytes(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                loc: Any) -> Val:
    dst = T.PRIMITIVES[segs[-2]]
    count = dst.bits // 8
    want = T.Array(_U8, count)
    array = em.coerce(em.expr(args[0], want), want, args[0].loc)
    raw = bytes_to_int(array, count)
    if segs[-1] == "from_be_bytes":
        raw = _byte_swap(raw, count)
    return Val(dst, arith.bitcast(dst.mlir(), raw) if isinstance(dst, T.Float) else raw)


def _no_args(em: Emitter, recv: Val, name: str, args: list[ast.Expr], *_: Any) -> bool:
    return not args


@device_method(T.Int, "to_ne_bytes", "to_le_bytes", "to_be_bytes", when=_no_args)
@device_method(T.Float, "to_ne_bytes", "to_le_bytes", "to_be_bytes", when=_no_args)
def _to_bytes(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
        loc: Any, expected: T.Ty | None) -> Val:
    count = recv.ty.bits // 8
    raw = recv.v if isinstance(recv.ty, T.Int) else arith.bitcast(T.Int(recv.ty.bits, False).mlir(), recv.v)
    if name == "to_be_bytes":
        raw = _byte_swap(raw, count)
    return int_to_bytes(em, raw, count)


def _byte_swap(raw: ir.Value, count: int) -> ir.Value:
    return raw if count == 1 else llvm.intr_bswap(raw)


@device_method(T.Int, "swap_bytes", when=_no_args)
def _swap_bytes(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
        loc: Any, expected: T.Ty | None) -> Val:
    return Val(recv.ty, _byte_swap(recv.v, recv.ty.bits // 8))


@device_fn("f16::from_bits", when=_one_arg)  # f32::from_bits / f64::from_bits are float_methods.py's
def _half_from_bits(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                    loc: Any) -> Val:
    bits_ty = T.PRIMITIVES["u16"]
    bits = em.coerce(em.expr(args[0], bits_ty), bits_ty, args[0].loc)
    return Val(T.PRIMITIVES["f16"], arith.bitcast(ir.F16Type.get(), bits.v))
