"""Emulator rules for upstream `arith`: integers wrap at their width (numpy does), signed and unsigned
forms reinterpret the stored bits (oxide.runtime.emulator.values), floats stay in their own precision.

A float add or subtract flagged `contract` whose operand is a `contract` multiply used only there becomes
one fused multiply-add, as LLVM's NVPTX backend fuses it, so results match the GPU's rounding.
"""

from __future__ import annotations

import re
from typing import Any

from mlir import ir

from oxide.backend.emulator.emitter import EmitError, KernelEmitter, np_type
from oxide.backend.emulator.rules import rule

_BINARY = {"arith.addi": "+", "arith.subi": "-", "arith.muli": "*", "arith.andi": "&", "arith.ori": "|",
           "arith.xori": "^", "arith.addf": "+", "arith.subf": "-", "arith.mulf": "*", "arith.divf": "/"}
# On i1, + and - are exclusive or and * is and (wrapping at one bit); numpy's bool + is or.
_BOOL_BINARY = {"arith.addi": "^", "arith.subi": "^", "arith.muli": "&"}
_RUNTIME = {"arith.divui": "divui", "arith.remui": "remui", "arith.divsi": "divsi", "arith.remsi": "remsi",
            "arith.ceildivsi": "ceildivsi", "arith.floordivsi": "floordivsi", "arith.ceildivui": "ceildivui",
            "arith.shli": "shli", "arith.shrui": "shrui", "arith.shrsi": "shrsi", "arith.minui": "minui",
            "arith.maxui": "maxui", "arith.minnumf": "minnum", "arith.maxnumf": "maxnum"}
_NUMPY = {"arith.minsi": "np.minimum", "arith.maxsi": "np.maximum", "arith.minimumf": "np.minimum",
          "arith.maximumf": "np.maximum", "arith.remf": "np.fmod"}


def _contracts(op: Any) -> bool:
    return "fastmath" in op.attributes and "contract" in str(op.attributes["fastmath"])


def _fusable_multiply(value: Any) -> Any:
    """The contract mulf that defines `value` and is used only once, or None."""
    owner = value.owner
    if isinstance(owner, ir.Block) or owner.name != "arith.mulf" or not _contracts(owner):
        return None
    uses = list(owner.results[0].uses)
    return owner if len(uses) == 1 else None


@rule(*_BINARY)
def emit_binary(em: KernelEmitter, op: Any) -> None:
    a, b = em.args(op)
    if op.name in ("arith.addf", "arith.subf") and _contracts(op):
        # LLVM's DAG combiner tries the left operand first: (a*b) ± c, then c ± (a*b).
        neg = "-" if op.name == "arith.subf" else ""
        lhs = _fusable_multiply(op.operands[0])
        if lhs is not None:
            x, y = em.args(lhs)
            em.line(f"{em.result(op)} = _v.fma({x}, {y}, {neg}{b})")
            return
        rhs = _fusable_multiply(op.operands[1])
        if rhs is not None:
            x, y = em.args(rhs)
            em.line(f"{em.result(op)} = _v.fma({neg}{x}, {y}, {a})")
            return
    symbol = _BINARY[op.name]
    if str(op.results[0].type) == "i1":
        symbol = _BOOL_BINARY.get(op.name, symbol)
    em.line(f"{em.result(op)} = {a} {symbol} {b}")


@rule(*_RUNTIME)
def emit_runtime_binary(em: KernelEmitter, op: Any) -> None:
    a, b = em.args(op)
    em.line(f"{em.result(op)} = _v.{_RUNTIME[op.name]}({a}, {b})")


@rule(*_NUMPY)
def emit_numpy_binary(em: KernelEmitter, op: Any) -> None:
    a, b = em.args(op)
    em.line(f"{em.result(op)} = {_NUMPY[op.name]}({a}, {b})")


@rule("arith.negf")
def emit_negf(em: KernelEmitter, op: Any) -> None:
    em.line(f"{em.result(op)} = -{em.args(op)[0]}")


@rule("arith.constant")
def emit_constant(em: KernelEmitter, op: Any) -> None:
    type_ = op.results[0].type
    attr = op.attributes["value"]
    text = str(type_)
    if text in ("f16", "f32", "f64"):
        value = float.hex(ir.FloatAttr(attr).value)
        em.line(f"{em.result(op)} = {np_type(type_, op)}(float.fromhex({value!r}))")
    elif text == "i1":
        em.line(f"{em.result(op)} = np.bool_({bool(ir.IntegerAttr(attr).value)})")
    elif text == "index" or text.startswith("i"):
        bits = 64 if text == "index" else int(text[1:])
        if bits > 64:
            # The bindings read IntegerAttr values through int64 (LLVM asserts on wider ones), and numpy has no
            # 128-bit integers: such kernels are not emulated.
            raise EmitError(f"the emulator cannot execute {bits}-bit integers (`{text}` constant)", op)
        value = ir.IntegerAttr(attr).value & ((1 << bits) - 1)
        if value >= 1 << (bits - 1):
            value -= 1 << bits
        em.line(f"{em.result(op)} = {np_type(type_, op)}({value})")
    elif re.fullmatch(r"vector<\d+x(f32|f64|i32|i64)>", text) and "dense<" in str(attr) and ">" in str(attr):
        # A splat vector constant: one row of lanes' values, shared by every lane.
        splat = re.fullmatch(r"dense<([^>\[\],]+)> : .*", str(attr))
        if splat is None:
            raise EmitError(f"the emulator supports splat vector constants only, not {attr}", op)
        count, element = re.fullmatch(r"vector<(\d+)x(\w+)>", text).groups()
        scalar = splat.group(1).strip()
        value = repr(float(scalar)) if element.startswith("f") else str(int(scalar))
        em.line(f"{em.result(op)} = np.full({count}, {value}, {np_type(element, op)})")
    else:
        raise EmitError(f"the emulator cannot execute a constant of type {type_}", op)


@rule("arith.cmpi")
def emit_cmpi(em: KernelEmitter, op: Any) -> None:
    a, b = em.args(op)
    predicate = ir.IntegerAttr(op.attributes["predicate"]).value
    direct = {0: "==", 1: "!=", 2: "<", 3: "<=", 4: ">", 5: ">="}
    if predicate in direct:
        em.line(f"{em.result(op)} = {a} {direct[predicate]} {b}")
    else:
        em.line(f"{em.result(op)} = _v.cmpi({predicate}, {a}, {b})")


@rule("arith.cmpf")
def emit_cmpf(em: KernelEmitter, op: Any) -> None:
    a, b = em.args(op)
    predicate = ir.IntegerAttr(op.attributes["predicate"]).value
    em.line(f"{em.result(op)} = _v.cmpf({predicate}, {a}, {b})")


@rule("arith.select")
def emit_select(em: KernelEmitter, op: Any) -> None:
    c, a, b = em.args(op)
    em.line(f"{em.result(op)} = _v.select({c}, {a}, {b})")


def _bits(type_: Any) -> int:
    text = str(type_)
    return 64 if text == "index" else int(text[1:]) if text.startswith("i") else 0


@rule("arith.extui", "arith.extsi", "arith.trunci", "arith.index_cast", "arith.index_castui", "arith.sitofp",
      "arith.uitofp", "arith.fptosi", "arith.fptoui", "arith.extf", "arith.truncf", "arith.bitcast")
def emit_cast(em: KernelEmitter, op: Any) -> None:
    (x,) = em.args(op)
    source, target = op.operands[0].type, op.results[0].type
    out = em.result(op)
    dtype = np_type(target, op)
    kind = op.name[len("arith."):]
    if kind in ("extsi", "extui", "trunci", "index_cast", "index_castui"):
        widen, narrow = _bits(target) > _bits(source), _bits(target) < _bits(source)
        if narrow:
            em.line(f"{out} = _v.trunci({x}, {dtype})")
        elif widen:
            signed = kind in ("extsi", "index_cast")
            em.line(f"{out} = _v.{'extsi' if signed else 'extui'}({x}, {dtype})")
        else:
            em.line(f"{out} = {x}")
    elif kind in ("sitofp", "extf", "truncf"):
        em.line(f"{out} = {x}.astype({dtype})")
    elif kind == "uitofp":
        em.line(f"{out} = _v.uitofp({x}, {dtype})")
    elif kind in ("fptosi", "fptoui"):
        em.line(f"{out} = _v.fptoi({x}, {dtype}, {kind == 'fptosi'})")
    else:
        em.line(f"{out} = _v.bitcast({x}, {dtype})")
