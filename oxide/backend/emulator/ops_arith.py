"""Emulator rules for upstream `arith`: integers wrap at their width (numpy does), signed and unsigned
forms reinterpret the stored bits (oxide.runtime.emulator.values), floats stay in their own precision.

A float add or subtract flagged `contract` whose operand is a `contract` multiply used only there becomes
one fused multiply-add, as LLVM's NVPTX backend fuses it, so results match the GPU's rounding.
"""

from __future__ import annotations

import re
from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.backend.emulator.emitter import KernelEmitter, np_type
from oxide.backend.emulator.rules import rule
from oxide.ir.rules import LoweringError, OpMap, is_op
from oxide.ir.declare import int_value

# Shared with the tile rules (tile_arith.py): the same ops on lane vectors and on tiles.
BINARY = OpMap({arith.AddIOp: "+", arith.SubIOp: "-", arith.MulIOp: "*", arith.AndIOp: "&", arith.OrIOp: "|",
          arith.XOrIOp: "^", arith.AddFOp: "+", arith.SubFOp: "-", arith.MulFOp: "*", arith.DivFOp: "/"})
# On i1, + and - are exclusive or and * is and (wrapping at one bit); numpy's bool + is or.
BOOL_BINARY = OpMap({arith.AddIOp: "^", arith.SubIOp: "^", arith.MulIOp: "&"})
# Binary ops written as calls of oxide.runtime.emulator.values.
VALUES_BINARY = OpMap({arith.DivUIOp: "divui", arith.RemUIOp: "remui", arith.DivSIOp: "divsi", arith.RemSIOp: "remsi",
            arith.CeilDivSIOp: "ceildivsi", arith.FloorDivSIOp: "floordivsi", arith.CeilDivUIOp: "ceildivui",
            arith.ShLIOp: "shli", arith.ShRUIOp: "shrui", arith.ShRSIOp: "shrsi", arith.MinUIOp: "minui",
            arith.MaxUIOp: "maxui", arith.MinNumFOp: "minnum", arith.MaxNumFOp: "maxnum"})
NUMPY_BINARY = OpMap({arith.MinSIOp: "np.minimum", arith.MaxSIOp: "np.maximum", arith.MinimumFOp: "np.minimum",
                      arith.MaximumFOp: "np.maximum", arith.RemFOp: "np.fmod"})
# The conversions, by the kind of conversion each one is.
CAST_KINDS = OpMap({arith.ExtUIOp: "extui", arith.ExtSIOp: "extsi", arith.TruncIOp: "trunci",
                    arith.IndexCastOp: "index_cast", arith.IndexCastUIOp: "index_castui", arith.SIToFPOp: "sitofp",
                    arith.UIToFPOp: "uitofp", arith.FPToSIOp: "fptosi", arith.FPToUIOp: "fptoui",
                    arith.ExtFOp: "extf", arith.TruncFOp: "truncf", arith.BitcastOp: "bitcast"})


def _contracts(op: Any) -> bool:
    return "fastmath" in op.attributes and "contract" in str(op.attributes["fastmath"])


def _fusable_multiply(value: Any) -> Any:
    """The contract mulf that defines `value` and is used only once, or None."""
    owner = value.owner
    if isinstance(owner, ir.Block) or not is_op(owner, arith.MulFOp) or not _contracts(owner):
        return None
    uses = list(owner.results[0].uses)
    return owner if len(uses) == 1 else None


@rule(*BINARY.classes)
def emit_binary(em: KernelEmitter, op: Any) -> None:
    a, b = em.args(op)
    if is_op(op, arith.AddFOp, arith.SubFOp) and _contracts(op):
        # LLVM's DAG combiner tries the left operand first: (a*b) ± c, then c ± (a*b).
        neg = "-" if is_op(op, arith.SubFOp) else ""
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
    symbol = BINARY[op]
    if str(op.results[0].type) == "i1":
        symbol = BOOL_BINARY.get(op, symbol)
    em.line(f"{em.result(op)} = {a} {symbol} {b}")


@rule(*VALUES_BINARY.classes)
def emit_runtime_binary(em: KernelEmitter, op: Any) -> None:
    a, b = em.args(op)
    em.line(f"{em.result(op)} = _v.{VALUES_BINARY[op]}({a}, {b})")


@rule(*NUMPY_BINARY.classes)
def emit_numpy_binary(em: KernelEmitter, op: Any) -> None:
    a, b = em.args(op)
    em.line(f"{em.result(op)} = {NUMPY_BINARY[op]}({a}, {b})")


@rule(arith.NegFOp)
def emit_negf(em: KernelEmitter, op: Any) -> None:
    em.line(f"{em.result(op)} = -{em.args(op)[0]}")


@rule(arith.ConstantOp)
def emit_constant(em: KernelEmitter, op: Any) -> None:
    type_ = op.results[0].type
    attr = op.attributes["value"]
    text = str(type_)
    if text in ("f16", "f32", "f64"):
        value = float.hex(ir.FloatAttr(attr).value)
        em.line(f"{em.result(op)} = {np_type(type_, op)}(float.fromhex({value!r}))")
    elif text == "i1":
        em.line(f"{em.result(op)} = np.bool_({bool(int_value(attr))})")
    elif text == "index" or text.startswith("i"):
        bits = 64 if text == "index" else int(text[1:])
        if bits > 64:
            # The bindings read IntegerAttr values through int64 (LLVM asserts on wider ones), and numpy has no
            # 128-bit integers: such kernels are not emulated.
            raise LoweringError(f"the emulator cannot execute {bits}-bit integers (`{text}` constant)", op)
        value = int_value(attr) & ((1 << bits) - 1)
        if value >= 1 << (bits - 1):
            value -= 1 << bits
        em.line(f"{em.result(op)} = {np_type(type_, op)}({value})")
    elif re.fullmatch(r"vector<\d+x(f32|f64|i32|i64)>", text) and "dense<" in str(attr) and ">" in str(attr):
        # A splat vector constant: one row of lanes' values, shared by every lane.
        splat = re.fullmatch(r"dense<([^>\[\],]+)> : .*", str(attr))
        if splat is None:
            raise LoweringError(f"the emulator supports splat vector constants only, not {attr}", op)
        count, element = re.fullmatch(r"vector<(\d+)x(\w+)>", text).groups()
        scalar = splat.group(1).strip()
        value = repr(float(scalar)) if element.startswith("f") else str(int(scalar))
        em.line(f"{em.result(op)} = np.full({count}, {value}, {np_type(element, op)})")
    else:
        raise LoweringError(f"the emulator cannot execute a constant of type {type_}", op)


@rule(arith.CmpIOp)
def emit_cmpi(em: KernelEmitter, op: Any) -> None:
    a, b = em.args(op)
    predicate = int_value(op.attributes["predicate"])
    direct = {0: "==", 1: "!=", 2: "<", 3: "<=", 4: ">", 5: ">="}
    if predicate in direct:
        em.line(f"{em.result(op)} = {a} {direct[predicate]} {b}")
    else:
        em.line(f"{em.result(op)} = _v.cmpi({predicate}, {a}, {b})")


@rule(arith.CmpFOp)
def emit_cmpf(em: KernelEmitter, op: Any) -> None:
    a, b = em.args(op)
    predicate = int_value(op.attributes["predicate"])
    em.line(f"{em.result(op)} = _v.cmpf({predicate}, {a}, {b})")


@rule(arith.SelectOp)
def emit_select(em: KernelEmitter, op: Any) -> None:
    c, a, b = em.args(op)
    em.line(f"{em.result(op)} = _v.select({c}, {a}, {b})")


def _bits(type_: Any) -> int:
    text = str(type_)
    return 64 if text == "index" else int(text[1:]) if text.startswith("i") else 0


@rule(*CAST_KINDS.classes)
def emit_cast(em: KernelEmitter, op: Any) -> None:
    (x,) = em.args(op)
    source, target = op.operands[0].type, op.results[0].type
    out = em.result(op)
    dtype = np_type(target, op)
    kind = CAST_KINDS[op]
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
