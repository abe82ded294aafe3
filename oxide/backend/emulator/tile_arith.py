"""Tile-kernel emulator rules for upstream `arith` and `math`, elementwise on tiles (numpy arrays) and on a
tile block's scalars alike: integers wrap at their width and signless bits are read as the op says
(divsi vs divui, via oxide.runtime.emulator.values), floats stay in their precision, bf16 results are
rounded to bf16 (TileEmitter.assign). Tensor constants are splat or dense `arith.constant`s.
"""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import arith
from mlir.dialects import math as math_d

from oxide.backend.emulator.ops_arith import BINARY, BOOL_BINARY, CAST_KINDS, NUMPY_BINARY, VALUES_BINARY
from oxide.backend.emulator.ops_math import MATH_TEMPLATES
from oxide.backend.emulator.rules import tile_rule
from oxide.backend.emulator.tile_emitter import (
    TileEmitter,
    compute_type,
    elem_name,
    shape_of,
)
from oxide.dialects.tile.dialect import FTZ_ATTR
from oxide.ir.rules import LoweringError
from oxide.ir.declare import int_value

_CMPI_DIRECT = {0: "==", 1: "!=", 2: "<", 3: "<=", 4: ">", 5: ">="}


@tile_rule(*BINARY.classes)
def emit_binary(em: TileEmitter, op: Any) -> None:
    a, b = em.args(op)
    symbol = BINARY[op]
    if elem_name(op.results[0].type) == "i1":
        symbol = BOOL_BINARY.get(op, symbol)
    em.assign(op, f"{a} {symbol} {b}")


@tile_rule(*VALUES_BINARY.classes)
def emit_values_binary(em: TileEmitter, op: Any) -> None:
    a, b = em.args(op)
    em.assign(op, f"_v.{VALUES_BINARY[op]}({a}, {b})")


@tile_rule(*NUMPY_BINARY.classes)
def emit_numpy_binary(em: TileEmitter, op: Any) -> None:
    a, b = em.args(op)
    em.assign(op, f"{NUMPY_BINARY[op]}({a}, {b})")


@tile_rule(arith.NegFOp)
def emit_negf(em: TileEmitter, op: Any) -> None:
    em.assign(op, f"-{em.args(op)[0]}")


@tile_rule(*MATH_TEMPLATES.classes)
def emit_math(em: TileEmitter, op: Any) -> None:
    t = compute_type(op.results[0].type, op)
    if FTZ_ATTR in op.attributes and isinstance(op.opview, math_d.Exp2Op) and "f32" in str(op.results[0].type):
        # exp2(x, ftz::Enabled): what the GPU's ex2.approx.ftz.f32 gives (tile_to_simt/scalar_ops.py).
        em.line("from oxide.runtime.emulator import approx as _ap")
        em.assign(op, f"_ap.exp2_ftz({em.args(op)[0]})")
        return
    em.assign(op, MATH_TEMPLATES[op].format(*em.args(op), t=t))


@tile_rule(arith.CmpIOp)
def emit_cmpi(em: TileEmitter, op: Any) -> None:
    a, b = em.args(op)
    predicate = int_value(op.attributes["predicate"])
    if predicate in _CMPI_DIRECT:
        em.assign(op, f"{a} {_CMPI_DIRECT[predicate]} {b}")
    else:
        em.assign(op, f"_v.cmpi({predicate}, {a}, {b})")


@tile_rule(arith.CmpFOp)
def emit_cmpf(em: TileEmitter, op: Any) -> None:
    a, b = em.args(op)
    em.assign(op, f"_v.cmpf({int_value(op.attributes['predicate'])}, {a}, {b})")


@tile_rule(arith.SelectOp)
def emit_select(em: TileEmitter, op: Any) -> None:
    em.assign(op, f"_t.select({', '.join(em.args(op))})")


# Constants ---------------------------------------------------------------------------------------------
def _literal(attr: Any, elem: str, op: Any) -> str:
    """Python source for one scalar attribute's value as element type `elem` (exact for floats)."""
    if elem in ("f16", "bf16", "f32", "f64"):
        return f"float.fromhex({float.hex(ir.FloatAttr(attr).value)!r})"
    if elem == "i1":
        return str(bool(int_value(attr)))
    bits = 64 if elem == "index" else int(elem[1:])
    if bits > 64:
        raise LoweringError(f"the emulator cannot execute {bits}-bit integers (`{elem}` constant)", op)
    value = int_value(attr) & ((1 << bits) - 1)
    return str(value - (1 << bits) if value >= 1 << (bits - 1) else value)


@tile_rule(arith.ConstantOp)
def emit_constant(em: TileEmitter, op: Any) -> None:
    type_ = op.results[0].type
    attr = op.attributes["value"]
    elem, dtype = elem_name(type_), compute_type(type_, op)
    if not isinstance(type_, ir.RankedTensorType):
        em.assign(op, f"{dtype}({_literal(attr, elem, op)})")
        return
    dense = ir.DenseElementsAttr(attr)
    shape = shape_of(type_)
    if dense.is_splat:
        em.assign(op, f"np.full({shape!r}, {_literal(dense.get_splat_value(), elem, op)}, {dtype})[()]")
        return
    typed = ir.DenseFPElementsAttr(attr) if elem.startswith(("f", "bf")) else ir.DenseIntElementsAttr(attr)
    try:
        values = [_scalar_text(typed[k], elem) for k in range(len(typed))]
    except (TypeError, ValueError) as exc:
        raise LoweringError(f"the emulator cannot read the constant {attr} ({exc})", op) from None
    em.assign(op, f"np.array([{', '.join(values)}], {dtype}).reshape({shape!r})")


def _scalar_text(value: Any, elem: str) -> str:
    """Python source for one element of a dense constant (exact for floats)."""
    if elem in ("f16", "bf16", "f32", "f64"):
        return f"float.fromhex({float.hex(float(value))!r})"
    if elem == "i1":
        return str(bool(value))
    bits = 64 if elem == "index" else int(elem[1:])
    value = int(value) & ((1 << bits) - 1)
    return str(value - (1 << bits) if value >= 1 << (bits - 1) else value)


# Conversions -------------------------------------------------------------------------------------------
def _bits(elem: str) -> int:
    return 64 if elem == "index" else 1 if elem == "i1" else int(elem[1:])


@tile_rule(*CAST_KINDS.classes)
def emit_cast(em: TileEmitter, op: Any) -> None:
    (x,) = em.args(op)
    source, target = elem_name(op.operands[0].type), elem_name(op.results[0].type)
    dtype = compute_type(op.results[0].type, op)
    kind = CAST_KINDS[op]
    if kind in ("extsi", "extui", "trunci", "index_cast", "index_castui"):
        if _bits(target) < _bits(source):
            em.assign(op, f"_v.trunci({x}, {dtype})")
        elif _bits(target) > _bits(source):
            em.assign(op, f"_v.{'extsi' if kind in ('extsi', 'index_cast') else 'extui'}({x}, {dtype})")
        else:
            em.assign(op, x)
    elif kind in ("sitofp", "extf", "truncf"):
        em.assign(op, f"{x}.astype({dtype})")
    elif kind == "uitofp":
        em.assign(op, f"_v.uitofp({x}, {dtype})")
    elif kind in ("fptosi", "fptoui"):
        em.assign(op, f"_v.fptoi({x}, {dtype}, {kind == 'fptosi'})")
    else:
        em.assign(op, f"_t.bitcast({x}, {source!r}, {target!r})")
