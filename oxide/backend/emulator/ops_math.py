"""Emulator rules for upstream `math`, LLVM bit-count intrinsics and `simt.libdevice`: numpy functions in the
value's own precision (float32 for f32). They follow IEEE or C semantics like libdevice, but transcendental
functions may differ from libdevice's results by a few ulp."""

from __future__ import annotations

from typing import Any

from mlir import ir

from oxide.backend.emulator.emitter import EmitError, KernelEmitter
from oxide.backend.emulator.rules import rule

# Python expression templates over the arguments {0}, {1}, {2}; {t} is the value's numpy type.
_MATH = {
    "math.sqrt": "np.sqrt({0})", "math.rsqrt": "({t}(1) / np.sqrt({0}))", "math.exp": "np.exp({0})",
    "math.exp2": "np.exp2({0})", "math.expm1": "np.expm1({0})", "math.log": "np.log({0})",
    "math.log2": "np.log2({0})", "math.log10": "np.log10({0})", "math.log1p": "np.log1p({0})",
    "math.sin": "np.sin({0})", "math.cos": "np.cos({0})", "math.tan": "np.tan({0})", "math.asin": "np.arcsin({0})",
    "math.acos": "np.arccos({0})", "math.atan": "np.arctan({0})", "math.atan2": "np.arctan2({0}, {1})",
    "math.sinh": "np.sinh({0})", "math.cosh": "np.cosh({0})", "math.tanh": "np.tanh({0})",
    "math.asinh": "np.arcsinh({0})", "math.acosh": "np.arccosh({0})", "math.atanh": "np.arctanh({0})",
    "math.cbrt": "np.cbrt({0})", "math.powf": "np.power({0}, {1})", "math.fpowi": "_v.fpowi({0}, {1})",
    "math.floor": "np.floor({0})", "math.ceil": "np.ceil({0})", "math.round": "_v.round_away({0})",
    "math.roundeven": "np.rint({0})", "math.trunc": "np.trunc({0})", "math.absf": "np.abs({0})",
    "math.absi": "np.abs({0})", "math.copysign": "np.copysign({0}, {1})", "math.fma": "_v.fma({0}, {1}, {2})",
    "math.erf": "_v.erf({0})", "math.ctpop": "_v.ctpop({0})", "math.ctlz": "_v.ctlz({0})",
    "math.cttz": "_v.cttz({0})", "llvm.intr.ctpop": "_v.ctpop({0})", "llvm.intr.ctlz": "_v.ctlz({0})",
    "llvm.intr.cttz": "_v.cttz({0})",
}
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


@rule(*_MATH)
def emit_math(em: KernelEmitter, op: Any) -> None:
    _write(em, op, _MATH[op.name])


@rule("math.sincos")
def emit_sincos(em: KernelEmitter, op: Any) -> None:
    (x,) = em.args(op)
    em.line(f"{em.result(op, 0)}, {em.result(op, 1)} = np.sin({x}), np.cos({x})")


@rule("simt.libdevice")
def emit_libdevice(em: KernelEmitter, op: Any) -> None:
    fn = ir.StringAttr(op.attributes["fn"]).value
    if fn not in _LIBDEVICE:
        raise EmitError(f"the emulator has no numpy equivalent of libdevice's `{fn}`", op)
    _write(em, op, _LIBDEVICE[fn])
