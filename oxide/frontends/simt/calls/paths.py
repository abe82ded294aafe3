"""Paths as values and module prefixes: `f32::MAX`, `u32::BITS`, `core::f32::consts::PI`, `Ordering::Less`,
`AtomicOrdering::Relaxed`, a user enum's variants (`E::A`, `E::B(x)`), `None`; and the stripping of
`crate::`/`self::`/`super::` and this file's module names from a path."""

from __future__ import annotations

import math as pymath
from typing import Any

from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.scalars import const
from oxide.frontends.simt.expressions.placeholders import none_of, placeholder
from oxide.frontends.simt.values import Val
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.errors import err

# By width: f16, f32, f64.
_FLOAT_CONSTS = {"MAX": {16: 65504.0, 32: 3.4028234663852886e38, 64: 1.7976931348623157e308},
                 "MIN": {16: -65504.0, 32: -3.4028234663852886e38, 64: -1.7976931348623157e308},
                 "MIN_POSITIVE": {16: 6.103515625e-05, 32: 1.1754943508222875e-38, 64: 2.2250738585072014e-308},
                 "EPSILON": {16: 0.0009765625, 32: 1.1920929e-07, 64: 2.220446049250313e-16},
                 "INFINITY": dict.fromkeys((16, 32, 64), pymath.inf),
                 "NEG_INFINITY": dict.fromkeys((16, 32, 64), -pymath.inf),
                 "NAN": dict.fromkeys((16, 32, 64), pymath.nan)}
_MATH_CONSTS = {"PI": pymath.pi, "E": pymath.e, "TAU": pymath.tau, "SQRT_2": pymath.sqrt(2), "LN_2": pymath.log(2),
                "LN_10": pymath.log(10), "FRAC_PI_2": pymath.pi / 2, "FRAC_PI_4": pymath.pi / 4,
                "FRAC_1_SQRT_2": 1 / pymath.sqrt(2), "LOG2_E": pymath.log2(pymath.e), "LOG10_E": pymath.log10(pymath.e)}


def strip_modules(em: Emitter, segments: list[str]) -> list[str]:
    """`crate::m::f`, `super::X`, `self::g` -> the item's own name: every item of the file shares one
    namespace here, so the module path only has to name modules of this file."""
    prefix = segments[:-1]
    if prefix and all(s in em.crate.modules or s in ("crate", "self", "super") for s in prefix):
        return segments[-1:]
    return segments


def _primitive_const(segs: list[str]) -> Val | None:
    ty = T.PRIMITIVES[segs[-2]]
    if isinstance(ty, T.Float) and segs[-1] in _FLOAT_CONSTS:
        return Val(ty, const(ty, _FLOAT_CONSTS[segs[-1]][ty.bits]))
    if isinstance(ty, T.Int) and segs[-1] in ("MAX", "MIN", "BITS"):
        value = {"MAX": (1 << (ty.bits - 1)) - 1 if ty.signed else -1,
                 "MIN": -(1 << (ty.bits - 1)) if ty.signed else 0, "BITS": ty.bits}[segs[-1]]
        out = ty if segs[-1] != "BITS" else T.PRIMITIVES["u32"]
        return Val(out, const(out, value))
    return None


def path_value(em: Emitter, e: ast.PathExpr, expected: T.Ty | None) -> Val | None:
    """The value a path names among the constants and variants above, or None."""
    segs = e.segments
    if len(segs) >= 2 and segs[-2] in T.PRIMITIVES:
        value = _primitive_const(segs)
        if value is not None:
            return value
    if len(segs) >= 2 and segs[-2] == "consts" and segs[-1] in _MATH_CONSTS:
        ty = T.PRIMITIVES[segs[-3]] if len(segs) >= 3 and segs[-3] in ("f32", "f64") else \
            expected if isinstance(expected, T.Float) else T.F32
        return Val(ty, const(ty, _MATH_CONSTS[segs[-1]]))
    if len(segs) >= 2 and segs[-2] == "Ordering" and em.crate.enum("Ordering") is None \
            and segs[-1] in dict(T.ORDERING.variants):
        return Val(T.ORDERING, const(T.ORDERING.storage, dict(T.ORDERING.variants)[segs[-1]]))  # core::cmp
    if len(segs) == 2 and segs[0] == "AtomicOrdering" or (len(segs) >= 2 and segs[-2] == "Ordering"):
        return Val(T.UNIT, ("ordering", segs[-1]))
    if len(segs) >= 2:
        enum = em.crate.enum(segs[-2])
        if enum is not None:
            return _variant_value(em, em.enum_type(enum), segs, e.loc)
        if segs[-2] == "Option" and segs[-1] == "None" and isinstance(expected, T.OptionTy):
            return none_of(expected)
    return None


def _variant_value(em: Emitter, ty: T.Enum | T.DataEnum, segs: list[str], loc: Any) -> Val:
    if isinstance(ty, T.DataEnum):
        return data_variant(em, ty, segs[-1], [], loc)
    for name, value in ty.variants:
        if name == segs[-1]:
            return Val(ty, const(ty.storage, value))
    raise err(loc, f"no variant `{segs[-1]}` in enum `{segs[-2]}`")


def data_variant(em: Emitter, ty: T.DataEnum, name: str, args: list[ast.Expr], loc: Any) -> Val:
    """`E::A(x, y)` / `E::C` of an enum with fields: the discriminant, A's fields, placeholders elsewhere."""
    found = ty.variant(name)
    if found is None:
        raise err(loc, f"no variant `{name}` in enum `{ty}`")
    position, discriminant, payload = found
    if len(args) != len(payload.elems):
        raise err(loc, f"`{ty}::{name}` takes {len(payload.elems)} field(s) but {len(args)} were supplied")
    fields = [em.coerce(em.expr(a, want), want, a.loc) for a, want in zip(args, payload.elems)]
    parts = [Val(T.PRIMITIVES["i32"], const(T.PRIMITIVES["i32"], discriminant))]
    for i, (_, part_ty) in enumerate(ty.fields[1:], start=1):
        parts.append(Val(payload, fields) if i == position else placeholder(part_ty))
    return Val(ty, parts)
