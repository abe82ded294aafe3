"""C math by name: the `libm` crate's functions (`libm::sinf`, `libm::pow`, ...) and libdevice's own
`__nv_*` functions declared in an `extern "C"` block (cuda-oxide links libdevice either way). A name with
an `f` suffix is the f32 function, without it the f64 one; both become `simt.libdevice` calls."""

from __future__ import annotations

from typing import Any

from mlir.dialects import math as mmath

from oxide.dialects import simt
from oxide.dialects.simt.math import LIBDEVICE_FUNCTIONS
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.primitives import primitive_method
from oxide.frontends.simt.calls.registry import device_fn
from oxide.frontends.simt.values import Val

# Besides libdevice's functions: fabs (a sign-bit clear, not a call) and sincos (a pair).
_EXTRA = ("fabs", "sincos")


def _resolve(c_name: str) -> tuple[str, T.Float] | None:
    """(the libdevice function, the float type) for a C math name such as `sinf` or `pow`."""
    for base, ty in ((c_name[:-1], T.F32), (c_name, T.F64)) if c_name.endswith("f") else ((c_name, T.F64),):
        if base in LIBDEVICE_FUNCTIONS or base in _EXTRA:
            return base, ty
    return None


def _call(em: Emitter, fn: str, ty: T.Float, args: list[ast.Expr], loc: Any, shown: str) -> Val:
    arity = 1 if fn in ("fabs", "sincos") else LIBDEVICE_FUNCTIONS[fn][2]
    if len(args) != arity:
        raise err(loc, f"`{shown}` takes {arity} argument(s) but {len(args)} were supplied")
    values = [em.coerce(em.expr(a, ty), ty, a.loc).v for a in args]
    if fn == "fabs":
        return Val(ty, mmath.absf(values[0]))
    if fn == "sincos":
        parts = [Val(ty, simt.LibdeviceOp.build(values, fn=f, results=[ty.mlir()])) for f in ("sin", "cos")]
        return Val(T.Tuple((ty, ty)), parts)
    return Val(ty, simt.LibdeviceOp.build(values, fn=fn, results=[ty.mlir()]))


def _libm(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
          loc: Any) -> Val | None:
    if len(segs) < 2 or segs[-2] != "libm":
        return None
    resolved = _resolve(segs[-1])
    if resolved is None:
        return None
    return _call(em, resolved[0], resolved[1], args, loc, f"libm::{segs[-1]}")


def _libdevice(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
               loc: Any) -> Val | None:
    name = segs[-1]
    resolved = _resolve(name[len("__nv_"):])
    if resolved is None or resolved[0] == "sincos":
        return None
    em.require_unsafe(loc, f"the extern function `{name}`")
    return _call(em, resolved[0], resolved[1], args, loc, name)


_C_NAMES = sorted({n for base in (*LIBDEVICE_FUNCTIONS, *_EXTRA) for n in (base, base + "f")})
device_fn(*_C_NAMES)(_libm)
device_fn(*(f"__nv_{n}" for n in _C_NAMES if n not in ("sincos", "sincosf")))(_libdevice)


_FLOAT_METHODS = ("floor", "ceil", "round", "round_ties_even", "trunc", "fract", "sqrt", "cbrt", "abs", "mul_add",
                  "powi", "powf", "exp", "exp2", "exp_m1", "ln", "ln_1p", "log2", "log10", "sin", "cos", "tan",
                  "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "asinh", "acosh", "atanh", "hypot",
                  "copysign", "recip", "signum", "rem_euclid", "div_euclid")


@device_fn(*(f"{ty}::math::{name}" for ty in ("f32", "f64") for name in _FLOAT_METHODS),
           when=lambda em, segs, generics, args, *_: bool(args))
def _core_float_math(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                     loc: Any) -> Val:
    """`core::f32::math::floor(x)` & co (the `core_float_math` feature): the f32/f64 method of the same name."""
    ty = T.PRIMITIVES[segs[-3]]
    receiver = em.coerce(em.expr(args[0], ty), ty, args[0].loc)
    return primitive_method(em, receiver, segs[-1], args[1:], loc, expected)
