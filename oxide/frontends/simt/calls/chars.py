"""`char` functions and methods: `char::from_u32` (checked), the ASCII classifications and case mappings,
`to_digit` and `len_utf8`. A char is its code point (a u32); the ASCII methods also exist on u8."""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import device_fn, device_method
from oxide.frontends.simt.values import OptionVal, Val

_P = arith.CmpIPredicate
CHAR = T.PRIMITIVES["char"]
_U32 = T.PRIMITIVES["u32"]


def _c(ty: T.Int, value: int) -> ir.Value:
    return arith.constant(ty.mlir(), ir.IntegerAttr.get(ty.mlir(), value))


def _in(x: ir.Value, ty: T.Int, lo: int, hi: int) -> ir.Value:
    """lo <= x <= hi (unsigned)."""
    return arith.andi(arith.cmpi(_P.uge, x, _c(ty, lo)), arith.cmpi(_P.ule, x, _c(ty, hi)))


def _is_scalar_value(x: ir.Value) -> ir.Value:
    """Whether a u32 is a Unicode scalar value: below 0x110000 and not a surrogate (0xD800..=0xDFFF)."""
    below = arith.cmpi(_P.ult, x, _c(_U32, 0x110000))
    return arith.andi(below, arith.xori(_in(x, _U32, 0xD800, 0xDFFF), _c(T.BOOL, 1)))


@device_fn("char::from_u32", "char::from_u32_unchecked", when=lambda em, segs, generics, args, *_: len(args) == 1)
def _from_u32(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
              loc: Any) -> Val:
    x = em.coerce(em.expr(args[0], _U32), _U32, args[0].loc).v
    if segs[-1] == "from_u32_unchecked":
        em.require_unsafe(loc, "`char::from_u32_unchecked`")
        return Val(CHAR, x)
    return Val(T.OptionTy(CHAR), OptionVal(_is_scalar_value(x), Val(CHAR, x)))


def _ascii_receiver(recv: Val) -> bool:
    return isinstance(recv.ty, T.Char) or recv.ty == T.PRIMITIVES["u8"]


_CLASSES = {
    "is_ascii": lambda x, t: arith.cmpi(_P.ult, x, _c(t, 0x80)),
    "is_ascii_digit": lambda x, t: _in(x, t, 0x30, 0x39),
    "is_ascii_uppercase": lambda x, t: _in(x, t, 0x41, 0x5A),
    "is_ascii_lowercase": lambda x, t: _in(x, t, 0x61, 0x7A),
    "is_ascii_alphabetic": lambda x, t: arith.ori(_in(x, t, 0x41, 0x5A), _in(x, t, 0x61, 0x7A)),
    "is_ascii_alphanumeric": lambda x, t: arith.ori(arith.ori(_in(x, t, 0x41, 0x5A), _in(x, t, 0x61, 0x7A)),
                                                    _in(x, t, 0x30, 0x39)),
    "is_ascii_hexdigit": lambda x, t: arith.ori(arith.ori(_in(x, t, 0x30, 0x39), _in(x, t, 0x41, 0x46)),
                                                _in(x, t, 0x61, 0x66)),
}


def _ascii_call(em: Emitter, recv: Val, name: str, args: list[ast.Expr], *_: Any) -> bool:
    return _ascii_receiver(recv) and not args


@device_method(T.Int, *_CLASSES, when=_ascii_call)
def _classify(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
              expected: T.Ty | None) -> Val:
    return Val(T.BOOL, _CLASSES[name](recv.v, recv.ty))


@device_method(T.Int, "to_ascii_uppercase", "to_ascii_lowercase", when=_ascii_call)
def _case(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
          expected: T.Ty | None) -> Val:
    t = recv.ty
    upper = name == "to_ascii_uppercase"
    hit = _in(recv.v, t, 0x61, 0x7A) if upper else _in(recv.v, t, 0x41, 0x5A)
    # ASCII letters differ in case by bit 5 only.
    flipped = arith.xori(recv.v, _c(t, 0x20))
    return Val(t, arith.select(hit, flipped, recv.v))


@device_method(T.Char, "to_digit", when=lambda em, recv, name, args, *_: len(args) == 1)
def _to_digit(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
              expected: T.Ty | None) -> Val:
    radix = em.coerce(em.expr(args[0], _U32), _U32, args[0].loc).v
    x = recv.v
    digit = arith.subi(x, _c(_U32, 0x30))
    lower = arith.addi(arith.subi(arith.ori(x, _c(_U32, 0x20)), _c(_U32, 0x61)), _c(_U32, 10))
    # Decimal digits, else letters of either case counted from 10 (wrapping below 'a' makes them huge).
    value = arith.select(arith.cmpi(_P.ule, digit, _c(_U32, 9)), digit,
                         arith.select(_in(arith.ori(x, _c(_U32, 0x20)), _U32, 0x61, 0x7A), lower, _c(_U32, 99)))
    em.trap_unless(_in(radix, _U32, 2, 36))  # Rust panics on a radix outside 2..=36
    return Val(T.OptionTy(_U32), OptionVal(arith.cmpi(_P.ult, value, radix), Val(_U32, value)))


@device_method(T.Char, "len_utf8", when=lambda em, recv, name, args, *_: not args)
def _len_utf8(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
              expected: T.Ty | None) -> Val:
    x = recv.v
    length = _c(T.USIZE, 4)
    for bound, n in ((0x10000, 3), (0x800, 2), (0x80, 1)):
        length = arith.select(arith.cmpi(_P.ult, x, _c(_U32, bound)), _c(T.USIZE, n), length)
    return Val(T.USIZE, length)
