"""`match` and refutable patterns: what a pattern tests and binds, by value or in place."""

from __future__ import annotations

from typing import Any, TYPE_CHECKING

from mlir import ir
from mlir.dialects import arith, scf

from oxide.dialects import simt
from oxide.frontends.simt import types as T
from oxide.frontends.simt.emit_support import i1, int_attr
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.expressions.branch_values import value_if
from oxide.frontends.simt.places import load_place, reference_place
from oxide.frontends.simt.expressions.table import emits
from oxide.frontends.simt.values import Cell, Val, load_cell
from oxide.frontends.syntax import ast


if TYPE_CHECKING:
    from oxide.frontends.simt.emit import FunctionEmitter


def match_pattern(em: FunctionEmitter, pattern: Any, value: Val) -> tuple[ir.Value, list[tuple[Any, Val]]]:
    """(does `value` match, the bindings it makes) for a refutable pattern."""
    if isinstance(pattern, ast.RefPat):
        return match_pattern(em, pattern.inner, referent(em, value))
    if isinstance(value.ty, T.LocalRef) and not isinstance(pattern, (ast.WildPat, ast.BindPat)):
        return _match_in_place(em, pattern, value.v, value.ty.mutable)
    if isinstance(pattern, ast.WildPat):
        return i1(True), []
    if isinstance(pattern, ast.BindPat):
        return i1(True), [(pattern, value)]
    if isinstance(pattern, ast.VariantPat):
        return _match_variant(em, pattern, value)
    if isinstance(pattern, ast.LitPat):
        return _match_literal(pattern, value)
    if isinstance(pattern, ast.OrPat):
        ok = i1(False)
        for alternative in pattern.alternatives:
            sub, binds = match_pattern(em, alternative, value)
            if binds:
                raise err(alternative.loc, "bindings inside `|` patterns are not supported")
            ok = arith.ori(ok, sub)
        return ok, []
    if isinstance(pattern, ast.TuplePat) and isinstance(value.ty, T.Tuple):
        ok, binds = i1(True), []
        for sub, part in zip(expand_rest(pattern.elems, len(value.ty.elems)), value.v):
            sub_ok, sub_binds = match_pattern(em, sub, part)
            ok, binds = arith.andi(ok, sub_ok), binds + sub_binds
        return ok, binds
    raise err(pattern.loc, f"this pattern cannot match a value of type `{value.ty}`")


def _match_variant(em: FunctionEmitter, pattern: ast.VariantPat,
                   value: Val) -> tuple[ir.Value, list[tuple[Any, Val]]]:
    """`Some(p)`, `None`, `Ok(p)`, `Err(p)`, `E::V(p, ..)` of an enum with fields, `S(p, q)` of a tuple struct,
    `E::V` of a fieldless enum."""
    name = pattern.path[-1]
    if isinstance(value.ty, T.ResultTy) and name in ("Ok", "Err") and len(pattern.elems) == 1:
        ok, binds = match_pattern(em, pattern.elems[0], value.v.payload)
        holds = value.v.is_some if name == "Ok" else arith.xori(value.v.is_some, i1(True))
        return arith.andi(holds, ok), binds
    if isinstance(value.ty, T.OptionTy):
        if name == "Some" and len(pattern.elems) == 1:
            ok, binds = match_pattern(em, pattern.elems[0], value.v.payload)
            return arith.andi(value.v.is_some, ok), binds
        if name == "None" and not pattern.elems:
            return arith.xori(value.v.is_some, i1(True)), []
    if isinstance(value.ty, T.DataEnum):
        found = value.ty.variant(name)
        if found is None:
            raise err(pattern.loc, f"no variant `{name}` in enum `{value.ty}`")
        position, discriminant, payload = found
        pattern = ast.VariantPat(pattern.loc, pattern.path, expand_rest(pattern.elems, len(payload.elems)))
        if len(pattern.elems) != len(payload.elems):
            raise err(pattern.loc, f"this pattern has {len(pattern.elems)} field(s), but `{name}` has "
                                   f"{len(payload.elems)}")
        i32 = ir.IntegerType.get_signless(32)
        ok = arith.cmpi(arith.CmpIPredicate.eq, value.v[0].v,
                        arith.constant(i32, ir.IntegerAttr.get(i32, discriminant)))
        binds = []
        for sub, part in zip(pattern.elems, value.v[position].v):
            sub_ok, sub_binds = match_pattern(em, sub, part)
            ok, binds = arith.andi(ok, sub_ok), binds + sub_binds
        return ok, binds
    if isinstance(value.ty, T.Struct) and value.ty.name.split("<")[0] == name \
            and len(pattern.elems) == len(value.ty.fields):
        ok, binds = i1(True), []
        for sub, part in zip(pattern.elems, value.v):  # `Pair(a, b)` of a tuple struct
            sub_ok, sub_binds = match_pattern(em, sub, part)
            ok, binds = arith.andi(ok, sub_ok), binds + sub_binds
        return ok, binds
    if isinstance(value.ty, T.Enum):
        for variant, discriminant in value.ty.variants:
            if variant == name:
                d = arith.constant(value.ty.mlir(), ir.IntegerAttr.get(value.ty.mlir(), discriminant))
                return arith.cmpi(arith.CmpIPredicate.eq, value.v, d), []
    raise err(pattern.loc, f"the pattern `{'::'.join(pattern.path)}` cannot match a value of type `{value.ty}`")


def _match_literal(pattern: ast.LitPat, value: Val) -> tuple[ir.Value, list[tuple[Any, Val]]]:
    """`true`, `3`, `-1`, `0..=9` against a bool or an integer."""
    if isinstance(value.ty, T.Bool):
        lit = i1(bool(pattern.value))
        return arith.cmpi(arith.CmpIPredicate.eq, value.v, lit), []
    if not isinstance(value.ty, T.Int):
        raise err(pattern.loc, f"an integer pattern cannot match a value of type `{value.ty}`")
    ty: T.Int = value.ty
    low, high = (-(1 << (ty.bits - 1)), (1 << (ty.bits - 1)) - 1) if ty.signed else (0, (1 << ty.bits) - 1)

    def const(x: int) -> ir.Value:
        # A pattern that cannot fit the scrutinee would otherwise wrap and match some other value.
        if not low <= x <= high:
            raise err(pattern.loc, f"literal out of range for `{ty}`: the pattern's {x} is outside "
                                   f"{low}..={high}, the values of the matched `{ty}`")
        return arith.constant(ty.mlir(), int_attr(ty.mlir(), x))
    if pattern.upper is None:
        return arith.cmpi(arith.CmpIPredicate.eq, value.v, const(pattern.value)), []
    ge, le = ("sge", "sle") if value.ty.signed else ("uge", "ule")
    return arith.andi(arith.cmpi(getattr(arith.CmpIPredicate, ge), value.v, const(pattern.value)),
                      arith.cmpi(getattr(arith.CmpIPredicate, le), value.v, const(pattern.upper))), []


def expand_rest(elems: list[Any], count: int) -> list[Any]:
    """Sub-patterns with a `..` replaced by as many `_` as the fields it stands for."""
    rest = [i for i, p in enumerate(elems) if isinstance(p, ast.RestPat)]
    if not rest:
        return elems
    i = rest[0]
    filler = [ast.WildPat(elems[i].loc) for _ in range(max(count - (len(elems) - 1), 0))]
    return elems[:i] + filler + elems[i + 1:]


def referent(em: FunctionEmitter, value: Val) -> Val:
    """What a reference refers to, read (a `&T` of a Copy value is already the value)."""
    if isinstance(value.ty, T.LocalRef):
        return load_cell(value.v)
    place = reference_place(value)
    if place is not None:
        return load_place(em, place)
    if isinstance(value.ty, T.ElemRef):
        return Val(value.ty.elem, simt.RefLoadOp.build(value.v))
    return value


def _match_in_place(em: FunctionEmitter, pattern: Any, cell: Cell,
                    mutable: bool) -> tuple[ir.Value, list[tuple[Any, Val]]]:
    """Match through `&mut local` / `&local`: the names a pattern binds refer to the local's parts, in place
    (`if let Slot::Occupied(v) = &mut slot { *v = 1.0; }` writes `slot`)."""
    if isinstance(pattern, ast.BindPat):
        return i1(True), [(pattern, Val(T.LocalRef(cell.ty, mutable), cell))]
    if isinstance(pattern, ast.WildPat):
        return i1(True), []
    parts: list[tuple[Any, Cell]] | None = None
    ok = i1(True)
    if isinstance(pattern, ast.TuplePat) and isinstance(cell.ty, T.Tuple) and len(pattern.elems) == len(cell.leaves):
        parts = list(zip(pattern.elems, cell.leaves))
    elif isinstance(pattern, ast.VariantPat) and isinstance(cell.ty, T.DataEnum):
        found = cell.ty.variant(pattern.path[-1])
        elems = expand_rest(pattern.elems, len(found[2].elems)) if found is not None else []
        if found is not None and len(found[2].elems) == len(elems):
            pattern = ast.VariantPat(pattern.loc, pattern.path, elems)
            position, discriminant, _ = found
            i32 = ir.IntegerType.get_signless(32)
            ok = arith.cmpi(arith.CmpIPredicate.eq, load_cell(cell.leaves[0]).v,
                            arith.constant(i32, ir.IntegerAttr.get(i32, discriminant)))
            parts = list(zip(pattern.elems, cell.leaves[position].leaves))
    elif isinstance(pattern, ast.VariantPat) and isinstance(cell.ty, T.OptionTy) and pattern.path[-1] == "Some" \
            and len(pattern.elems) == 1:
        flag, payload = cell.leaves
        ok, parts = load_cell(flag).v, [(pattern.elems[0], payload)]
    if parts is None:
        return match_pattern(em, pattern, load_cell(cell))  # literals, `None`, fieldless variants: by value
    binds: list[tuple[Any, Val]] = []
    for sub, sub_cell in parts:
        sub_ok, sub_binds = _match_in_place(em, sub, sub_cell, mutable)
        ok, binds = arith.andi(ok, sub_ok), binds + sub_binds
    return ok, binds


@emits(ast.Match)
def e_Match(em: FunctionEmitter, e: ast.Match, expected: T.Ty | None) -> Val:
    scrutinee = em.expr(e.scrutinee)
    arms = list(e.arms)

    def chain(i: int, hint: T.Ty | None = None) -> Val:
        # `hint`: the type an earlier arm produced, for unsuffixed literals in later arms (`C => 999`).
        if i == len(arms):
            # Rust proves matches exhaustive; here a value no arm matched cannot occur, so trap.
            simt.TrapOp.build()
            return Val(T.NEVER, None)
        arm = arms[i]
        ok, binds = match_pattern(em, arm.pattern, scrutinee)

        def body() -> Val:
            em.push()
            try:
                for pattern, bound in binds:
                    em.bind_pattern(pattern, bound)
                return em.expr(arm.body, expected or hint)
            finally:
                em.pop()

        if arm.guard is not None:
            em.push()
            for pattern, bound in binds:
                em.bind_pattern(pattern, bound)
            guard_ok = arith.andi(ok, guarded(em, ok, arm.guard))
            em.pop()
            ok = guard_ok
        if isinstance(arm.pattern, (ast.WildPat, ast.BindPat)) and arm.guard is None:
            return body()
        return value_if(em, ok, body, lambda then_ty: chain(i + 1, hint or then_ty), arm.loc)

    return chain(0)


def guarded(em: FunctionEmitter, ok: ir.Value, guard: ast.Expr) -> ir.Value:
    branch = scf.IfOp(ok, [ir.IntegerType.get_signless(1)], has_else=True)
    with ir.InsertionPoint(branch.then_block):
        scf.YieldOp([em.coerce(em.expr(guard, T.BOOL), T.BOOL, guard.loc).v])
    with ir.InsertionPoint(branch.else_block):
        scf.YieldOp([i1(False)])
    return branch.results[0]
