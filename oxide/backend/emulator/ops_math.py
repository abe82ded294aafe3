"""Emulator rules for upstream `math`, LLVM bit-count intrinsics and `simt.libdevice`: numpy functions in the
value's own precision (float32 for f32). They follow IEEE or C semantics like libdevice, but transcendental
functions may differ from libdevice's results by a few ulp."""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import llvm
from mlir.dialects import math as math_d

from oxide.backend.emulator.emitter import KernelEmitter
from oxide.backend.emulator.rules import rule
from oxide.dialects import simt
from oxide.ir.rules import LoweringError, OpMap

# Python expression templates over the arguments {0}, {1}, {2}; {t} is the value's numpy type.
# Shared with the tile rules (tile_arith.py).
MATH_TEMPLATES = OpMap({
    math_d.SqrtOp: "np.sqrt({0})", math_d.RsqrtOp: "({t}(1) / np.sqrt({0}))", math_d.ExpOp: "np.exp({0})",
    math_d.Exp2Op: "np.exp2({0})", math_d.ExpM1Op: "np.expm1({0})", math_d.LogOp: "np.log({0})",
    math_d.Log2Op: "np.log2({0})", math_d.Log10Op: "np.log10({0})", math_d.Log1pOp: "np.log1p({0})",
    math_d.SinOp: "np.sin({0})", math_d.CosOp: "np.cos({0})", math_d.TanOp: "np.tan({0})",
    math_d.AsinOp: "np.arcsin({0})", math_d.AcosOp: "np.arccos({0})", math_d.AtanOp: "np.arctan({0})",
    math_d.Atan2Op: "np.arctan2({0}, {1})", math_d.SinhOp: "np.sinh({0})", math_d.CoshOp: "np.cosh({0})",
    math_d.TanhOp: "np.tanh({0})", math_d.AsinhOp: "np.arcsinh({0})", math_d.AcoshOp: "np.arccosh({0})",
    math_d.AtanhOp: "np.arctanh({0})", math_d.CbrtOp: "np.cbrt({0})", math_d.PowFOp: "np.power({0}, {1})",
    math_d.FPowIOp: "_v.fpowi({0}, {1})", math_d.FloorOp: "np.floor({0})", math_d.CeilOp: "np.ceil({0})",
    math_d.RoundOp: "_v.round_away({0})", math_d.RoundEvenOp: "np.rint({0})", math_d.TruncOp: "np.trunc({0})",
    math_d.AbsFOp: "np.abs({0})", math_d.AbsIOp: "np.abs({0})", math_d.CopySignOp: "np.copysign({0}, {1})",
    math_d.FmaOp: "_v.fma({0}, {1}, {2})", math_d.ErfOp: "_v.erf({0})", math_d.CtPopOp: "_v.ctpop({0})",
    math_d.CountLeadingZerosOp: "_v.ctlz({0})", math_d.CountTrailingZerosOp: "_v.cttz({0})",
    llvm.CtPopOp: "_v.ctpop({0})", llvm.CountLeadingZerosOp: "_v.ctlz({0})",
    llvm.CountTrailingZerosOp: "_v.cttz({0})",
})
_LIBDEVICE = {
    "acos": "np.arccos({0})", "acosh": "np.arccosh({0})", "asin": "np.arcsin({0})", "asinh": "np.arcsinh({0})",
    "atan": "np.arctan({0})", "atanh": "np.arctanh({0})", "cbrt": "np.cbrt({0})", "ceil": "np.ceil({0})",
    "cos": "np.cos({0})", "cosh": "np.cosh({0})", "cospi": "np.cos({t}(np.pi) * {0})", "erf": "_v.erf({0})",
    "erfc": "({t}(1) - _v.erf({0}))", "exp": "np.exp({0})", "exp10": "np.power({t}(10), {0})",
    "exp2": "np.exp2({0})", "expm1": "np.expm1({0})", "floor": "np.floor({0})", "log": "np.log({0})",
    "log10": "np.log10({0})", "log1p": "np.log1p({0})", "log2": "np.log2({0})",
    "logb": "np.floor(np.log2(np.abs({0})))", "nearbyint": "np.rint({0})", "rcbrt": "({t}(1) / np.cbrt({0}))",
    "rint": "np.rint({0})", "round": "_v.round_away({0})", "rsqrt": "({t}(1) / np.sqrt({0}))",
    "sin": "np.sin({0})", "sinh": "np.sinh({0})", "sinpi": "np.sin({t}(np.pi) * {0})", "sqrt": "np.sqrt({0})",
    "tan": "np.tan({0})", "tanh": "np.tanh({0})", "trunc": "np.trunc({0})",
    "atan2": "np.arctan2({0}, {1})", "copysign": "np.copysign({0}, {1})",
    "fdim": "np.maximum({0} - {1}, {t}(0))", "fmax": "np.fmax({0}, {1})", "fmin": "np.fmin({0}, {1})",
    "fmod": "np.fmod({0}, {1})", "hypot": "np.hypot({0}, {1})", "nextafter": "np.nextafter({0}, {1})",
    "pow": "np.power({0}, {1})", "remainder": "({0} - np.rint({0} / {1}) * {1})",
    "rhypot": "({t}(1) / np.hypot({0}, {1}))", "fma": "_v.fma({0}, {1}, {2})",
}


def _write(em: KernelEmitter, op: Any, template: str) -> None:
    t = f"np.{'float32' if str(op.results[0].type) == 'f32' else 'float64'}"
    em.line(f"{em.result(op)} = {template.format(*em.args(op), t=t)}")


@rule(*MATH_TEMPLATES.classes)
def emit_math(em: KernelEmitter, op: Any) -> None:
    _write(em, op, MATH_TEMPLATES[op])


@rule(math_d.SincosOp)
def emit_sincos(em: KernelEmitter, op: Any) -> None:
    (x,) = em.args(op)
    em.line(f"{em.result(op, 0)}, {em.result(op, 1)} = np.sin({x}), np.cos({x})")


@rule(simt.LibdeviceOp)
def emit_libdevice(em: KernelEmitter, op: Any) -> None:
    fn = ir.StringAttr(op.attributes["fn"]).value
    if fn not in _LIBDEVICE:
        raise LoweringError(f"the emulator has no numpy equivalent of libdevice's `{fn}`", op)
    _write(em, op, _LIBDEVICE[fn])
