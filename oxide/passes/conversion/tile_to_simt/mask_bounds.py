"""When is a mask tile all-true? A pure analysis of index chains, for mask_elision.py: the answer is a condition on
block-uniform scalars, which the lowering evaluates once per step instead of the mask's elements.

The masks of tile kernels are index chains: iotas, splats of scalars and splat constants, broadcast, reshape and
permute, integer add, subtract and multiply by a constant, compared (`arith.cmpi`) and combined (`andi`, `ori`,
`xori`). An integer chain's elements lie between two bounds that are affine in the chain's scalars (an iota of n
between 0 and n - 1; a sum between the sums of its operands' bounds; ...), and a compare holds for every element
when it holds between the right bounds (`a < b` everywhere when max a < min b). The bounds are exact for the
usual masks (a sum of terms along different dimensions, like attention's `rows + (q0 - k0)`), and otherwise only
conservative: the condition is sufficient, never necessary, so a mask it cannot prove all-true is applied.

Elements are fixed-width integers that wrap around; the bounds are exact integers. So the condition also asks
that every intermediate sum or product lies within its type's range (then no element of it wrapped and the
elements are the exact values the bounds bound), unless its bounds' terms make that certain.

Conditions are built folded: a compare whose truth follows from the ranges of its scalars' types is a Python
bool, `False` standing for "not proven" as well as for "false". `emit` turns the rest into one i1 value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import tile as T
from oxide.ir.rules import is_op
from oxide.passes.conversion.tile_to_simt.context import TileLowering

# The widest element type reasoned about: the bounds are evaluated in i64, which holds sums of a few of them
# exactly.
MAX_WIDTH = 32
WIDE = 64
# arith.cmpi's predicates by their attribute value, and the predicate that holds exactly where each fails.
PREDICATES = ("eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge")
NEGATED = {"eq": "ne", "ne": "eq", "slt": "sge", "sge": "slt", "sle": "sgt", "sgt": "sle",
           "ult": "uge", "uge": "ult", "ule": "ugt", "ugt": "ule"}


def signed_range(width: int) -> tuple[int, int]:
    """The values of a signed `width`-bit integer."""
    return -(1 << (width - 1)), (1 << (width - 1)) - 1


@dataclass(frozen=True)
class Affine:
    """sum(coefficient * scalar) + const, over lowered integer scalars (read as signed)."""

    terms: tuple[tuple[ir.Value, int], ...] = ()
    const: int = 0

    def __add__(self, other: Affine) -> Affine:
        coefficients: dict[ir.Value, int] = dict(self.terms)
        for value, k in other.terms:
            coefficients[value] = coefficients.get(value, 0) + k
        return Affine(tuple((v, k) for v, k in coefficients.items() if k), self.const + other.const)

    def scaled(self, k: int) -> Affine:
        return Affine(tuple((v, c * k) for v, c in self.terms if c * k), self.const * k)

    def __sub__(self, other: Affine) -> Affine:
        return self + other.scaled(-1)

    def span(self) -> tuple[int, int]:
        """The least and greatest value this can take over the ranges of its scalars' types."""
        lo = hi = self.const
        for value, k in self.terms:
            a, b = (k * x for x in signed_range(ir.IntegerType(value.type).width))
            lo, hi = lo + min(a, b), hi + max(a, b)
        return lo, hi


@dataclass(frozen=True)
class AtMost:
    """Holds when `value` <= 0."""

    value: Affine


@dataclass(frozen=True)
class Flag:
    """Holds when the i1 scalar `value` is true (false, `negated`)."""

    value: ir.Value
    negated: bool


@dataclass(frozen=True)
class Every:
    """Holds when all of `parts` hold."""

    parts: tuple[Condition, ...]


@dataclass(frozen=True)
class Some:
    """Holds when one of `parts` holds."""

    parts: tuple[Condition, ...]


Condition = Union[bool, AtMost, Flag, Every, Some]


def both(*parts: Condition) -> Condition:
    """All of `parts`, folded."""
    if any(p is False for p in parts):
        return False
    rest = tuple(dict.fromkeys(p for p in parts if p is not True))
    return True if not rest else rest[0] if len(rest) == 1 else Every(rest)


def either(*parts: Condition) -> Condition:
    """One of `parts`, folded."""
    if any(p is True for p in parts):
        return True
    rest = tuple(dict.fromkeys(p for p in parts if p is not False))
    return False if not rest else rest[0] if len(rest) == 1 else Some(rest)


def at_most(a: Affine, b: Affine) -> Condition:
    """a <= b, folded where the scalars' types decide it; not proven where i64 could not evaluate it."""
    lo, hi = (b - a).span()
    low, high = signed_range(WIDE)
    if lo >= 0:
        return True
    if hi < 0 or lo < low or hi > high:
        return False
    return AtMost(a - b)


@dataclass(frozen=True)
class Interval:
    """The elements of an integer tile lie in [lo, hi], exactly as integers where `exact` holds (no element of
    the chain wrapped around)."""

    lo: Affine
    hi: Affine
    exact: Condition


def _constant(old: ir.Value) -> int | None:
    """The value of an integer scalar or splat constant, else None."""
    if isinstance(old, ir.BlockArgument) or not is_op(old.owner.operation, arith.ConstantOp):
        return None
    attr = old.owner.operation.attributes["value"]
    if isinstance(attr, ir.DenseElementsAttr):
        dense = ir.DenseElementsAttr(attr)
        if not dense.is_splat:
            return None
        attr = dense.get_splat_value()
    if isinstance(attr, ir.BoolAttr):  # i1 splats
        return int(attr.value)
    return ir.IntegerAttr(attr).value if isinstance(attr, ir.IntegerAttr) else None


def _width(old: ir.Value) -> int | None:
    """The width of an integer tile's (or scalar's) elements, or None for other types."""
    elem = T.elem_of(old.type) if isinstance(old.type, ir.RankedTensorType) else old.type
    return ir.IntegerType(elem).width if isinstance(elem, ir.IntegerType) else None


class MaskBounds:
    """The analysis of one kernel's chains at one point of its lowering (scalars are read as lowered there)."""

    def __init__(self, ctx: TileLowering) -> None:
        self.ctx = ctx
        self._intervals: dict[ir.Value, Interval | None] = {}

    def always(self, old: ir.Value, truth: bool) -> Condition:
        """A condition under which every element of the i1 tile `old` is `truth` (False: none proven)."""
        if _width(old) != 1:
            return False
        op = old.owner.operation if not isinstance(old, ir.BlockArgument) else None
        constant = _constant(old)
        if constant is not None:
            return (constant != 0) == truth
        if op is None:
            return False
        if is_op(op, T.SplatOp):
            known = _constant(op.operands[0])
            return Flag(self.ctx.scalar(op.operands[0]), not truth) if known is None else (known != 0) == truth
        if is_op(op, T.BroadcastOp, T.ReshapeOp, T.PermuteOp):
            return self.always(op.operands[0], truth)
        if is_op(op, arith.CmpIOp):
            predicate = PREDICATES[ir.IntegerAttr(op.attributes["predicate"]).value]
            return self._compare(predicate if truth else NEGATED[predicate], *op.operands)
        return self._logic(op, truth)

    def _logic(self, op: ir.Operation, truth: bool) -> Condition:
        if not is_op(op, arith.AndIOp, arith.OrIOp, arith.XOrIOp):
            return False
        a, b = op.operands
        if is_op(op, arith.XOrIOp):  # a ^ b is `truth` everywhere when b is a ^ truth everywhere
            return either(both(self.always(a, True), self.always(b, not truth)),
                          both(self.always(a, False), self.always(b, truth)))
        conjunction = is_op(op, arith.AndIOp) == truth  # and is true, or is false, only where both are
        combine = both if conjunction else either
        return combine(self.always(a, truth), self.always(b, truth))

    def _compare(self, predicate: str, a_old: ir.Value, b_old: ir.Value) -> Condition:
        """A condition under which `a predicate b` holds for every element."""
        a, b = self.interval(a_old), self.interval(b_old)
        if a is None or b is None:
            return False
        one = Affine(const=1)
        kind = predicate[1:] if predicate[0] in "su" else predicate
        below = at_most(a.hi + one, b.lo)
        above = at_most(b.hi + one, a.lo)
        holds = {"lt": below, "le": at_most(a.hi, b.lo), "gt": above, "ge": at_most(b.hi, a.lo),
                 "ne": either(below, above),
                 "eq": both(at_most(a.hi, a.lo), at_most(b.hi, b.lo), at_most(a.lo, b.lo), at_most(b.lo, a.lo))}[kind]
        # Unsigned order is signed order where both sides are not negative.
        unsigned = predicate[0] == "u"
        sign = both(at_most(Affine(), a.lo), at_most(Affine(), b.lo)) if unsigned else True
        return both(a.exact, b.exact, sign, holds)

    def interval(self, old: ir.Value) -> Interval | None:
        """Bounds of the integer tile `old`'s elements (module docstring), or None where the chain has an op
        this analysis does not know."""
        if old not in self._intervals:
            self._intervals[old] = self._interval(old)
        return self._intervals[old]

    def _interval(self, old: ir.Value) -> Interval | None:
        width = _width(old)
        if width is None or not 1 < width <= MAX_WIDTH:
            return None
        constant = _constant(old)
        if constant is not None:
            return Interval(Affine(const=constant), Affine(const=constant), True)
        if isinstance(old, ir.BlockArgument):
            return None
        op = old.owner.operation
        if is_op(op, T.IotaOp):
            last = T.shape_of(old.type)[0] - 1
            return Interval(Affine(), Affine(const=last), True) if last <= signed_range(width)[1] else None
        if is_op(op, T.SplatOp):
            scalar = op.operands[0]
            known = _constant(scalar)
            point = Affine(const=known) if known is not None else Affine(((self.ctx.scalar(scalar), 1),))
            return Interval(point, point, True)
        if is_op(op, T.BroadcastOp, T.ReshapeOp, T.PermuteOp):
            return self.interval(op.operands[0])
        return self._arithmetic(op, width)

    def _arithmetic(self, op: ir.Operation, width: int) -> Interval | None:
        if not is_op(op, arith.AddIOp, arith.SubIOp, arith.MulIOp):
            return None
        a, b = (self.interval(v) for v in op.operands)
        if a is None or b is None:
            return None
        if is_op(op, arith.AddIOp):
            lo, hi = a.lo + b.lo, a.hi + b.hi
        elif is_op(op, arith.SubIOp):
            lo, hi = a.lo - b.hi, a.hi - b.lo
        else:
            scaled = _scaled(a, b) or _scaled(b, a)
            if scaled is None:
                return None
            lo, hi = scaled
        low, high = signed_range(width)
        fits = both(at_most(Affine(const=low), lo), at_most(hi, Affine(const=high)))
        return Interval(lo, hi, both(a.exact, b.exact, fits))


def _scaled(x: Interval, factor: Interval) -> tuple[Affine, Affine] | None:
    """The bounds of x times a constant `factor`, or None when `factor` is not one."""
    if factor.lo.terms or factor.hi.terms or factor.lo.const != factor.hi.const:
        return None
    k = factor.lo.const
    return (x.lo.scaled(k), x.hi.scaled(k)) if k >= 0 else (x.hi.scaled(k), x.lo.scaled(k))


def emit(ctx: TileLowering, condition: AtMost | Flag | Every | Some) -> ir.Value:
    """The i1 value of a condition that is not known at compile time, at the current point."""
    if isinstance(condition, Flag):
        value = condition.value
        return arith.xori(value, ctx.const(value.type, 1)) if condition.negated else value
    if isinstance(condition, (Every, Some)):
        parts = [emit(ctx, p) for p in condition.parts]
        combined = parts[0]
        for part in parts[1:]:
            combined = arith.andi(combined, part) if isinstance(condition, Every) else arith.ori(combined, part)
        return combined
    return _emit_at_most(ctx, condition.value)


def _emit_at_most(ctx: TileLowering, value: Affine) -> ir.Value:
    """value <= 0: one compare of the scalar in its own type where there is one scalar with coefficient +-1 (the
    constant then fits that type, or the condition would have folded), else in i64."""
    if len(value.terms) == 1 and value.terms[0][1] in (1, -1):
        (scalar, k), = value.terms
        # x + c <= 0 is x <= -c; -x + c <= 0 is x >= c.
        predicate, bound = (arith.CmpIPredicate.sle, -value.const) if k == 1 else (arith.CmpIPredicate.sge,
                                                                                    value.const)
        return arith.cmpi(predicate, scalar, ctx.const(scalar.type, bound))
    wide = ir.IntegerType.get_signless(WIDE)
    total = ctx.i64(value.const)
    for scalar, k in value.terms:
        term = arith.extsi(wide, scalar) if ir.IntegerType(scalar.type).width < WIDE else scalar
        term = term if k in (1, -1) else arith.muli(term, ctx.i64(abs(k)))
        total = arith.addi(total, term) if k > 0 else arith.subi(total, term)
    return arith.cmpi(arith.CmpIPredicate.sle, total, ctx.i64(0))
