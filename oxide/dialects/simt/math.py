"""simt math: libdevice functions that upstream `math`/`arith` cannot express or lowers wrongly.

Most of Rust's f32/f64 methods are upstream ops (`math.exp`, `arith.minnumf`, ...) that
convert-gpu-to-nvvm lowers to libdevice or native PTX; docs/simt-math-debug.md maps every method. The
rest go through one op, `simt.libdevice {fn = "hypot"}`, named by the Rust method's meaning: on MLIR 22
there is no `math.hypot`, `math.trunc` does not lower at all, and `math.sqrt` on f32 becomes
`sqrt.approx.f32` (libdevice's `__nv_sqrtf` without the prec-sqrt reflect flag), while Rust's `sqrt` is
correctly rounded, so `fn = "sqrt"` calls `__nv_fsqrt_rn`.
"""

from __future__ import annotations

from oxide.dialects.simt.dialect import DIALECT
from oxide.ir.constraints import STRING_ATTR, AnyOf, Is, TypeVar
from oxide.ir.declare import Attr, Op, Result, VarOperand, VerifyError

# libdevice names its f64 function `__nv_<fn>` and the f32 one `__nv_<fn>f`, with a few exceptions below.
_UNARY = ("acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "ceil", "cos", "cosh", "cospi", "erf",
          "erfc", "erfcinv", "erfcx", "erfinv", "exp", "exp10", "exp2", "expm1", "floor", "j0", "j1",
          "lgamma", "log", "log10", "log1p", "log2", "logb", "nearbyint", "normcdf", "normcdfinv", "rcbrt",
          "rint", "round", "rsqrt", "sin", "sinh", "sinpi", "tan", "tanh", "tgamma", "trunc", "y0", "y1")
_BINARY = ("atan2", "copysign", "fdim", "fmax", "fmin", "fmod", "hypot", "nextafter", "pow", "remainder",
           "rhypot")

# fn -> (f32 symbol, f64 symbol, arity).
LIBDEVICE_FUNCTIONS: dict[str, tuple[str, str, int]] = {
    **{fn: (f"__nv_{fn}f", f"__nv_{fn}", 1) for fn in _UNARY},
    **{fn: (f"__nv_{fn}f", f"__nv_{fn}", 2) for fn in _BINARY},
    "fma": ("__nv_fmaf", "__nv_fma", 3),
    # Correctly rounded, as Rust's sqrt is: `__nv_sqrtf` would be sqrt.approx.f32.
    "sqrt": ("__nv_fsqrt_rn", "__nv_dsqrt_rn", 1),
}

_FLOAT = TypeVar("F", AnyOf(Is("f32"), Is("f64")))


def libdevice_symbol(fn: str, float_type: str) -> str:
    """The libdevice function computing `fn` on f32 or f64 (`hypot`, `f32` -> `__nv_hypotf`)."""
    f32_symbol, f64_symbol, _ = LIBDEVICE_FUNCTIONS[fn]
    return f32_symbol if float_type == "f32" else f64_symbol


@DIALECT.op
class LibdeviceOp(Op):
    """`x.hypot(y)`, `x.trunc()`, `x.sqrt()` on f32: call the libdevice function `fn` on f32 or f64
    operands (all of one type, which the result has too); docs/simt-math-debug.md lists the names.

    The verifier rejects unknown names and wrong argument counts (`LIBDEVICE_FUNCTIONS`); the lowering
    declares the function (`llvm.func @__nv_hypotf(f32, f32) -> f32`) once per gpu.module and calls it, and
    oxide-attach-target links libdevice, so the PTX holds the function's body.
    """

    mnemonic = "libdevice"
    args = VarOperand(_FLOAT, "the function's arguments")
    fn = Attr(STRING_ATTR, "the function, by its libdevice name without prefix and f suffix")
    result = Result(_FLOAT)

    def verify_(self) -> None:
        if self.fn not in LIBDEVICE_FUNCTIONS:
            raise VerifyError(f"unknown libdevice function '{self.fn}' (known: {', '.join(sorted(LIBDEVICE_FUNCTIONS))})")
        arity = LIBDEVICE_FUNCTIONS[self.fn][2]
        if len(self.args) != arity:
            raise VerifyError(f"'{self.fn}' takes {arity} argument(s), got {len(self.args)}")
