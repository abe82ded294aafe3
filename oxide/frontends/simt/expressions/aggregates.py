"""Tuple, array and struct literals: `(a, b)`, `[x; N]`, `[a, b]`, `S { f: v }`."""

from __future__ import annotations

from typing import Any, TYPE_CHECKING

from mlir import ir
from mlir.dialects import scf

from oxide.frontends.simt import types as T
from oxide.frontends.simt.inline import mentions, unify_generics
from oxide.frontends.simt.emit_support import index, unknown_type
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.expressions.indexing import array_store
from oxide.frontends.simt.expressions.table import emits
from oxide.frontends.simt.values import ArrayView, Val, new_cell, unrolled_array
from oxide.frontends.syntax import ast


if TYPE_CHECKING:
    from oxide.frontends.simt.emit import FunctionEmitter


@emits(ast.Tuple)
def e_Tuple(em: FunctionEmitter, e: ast.Tuple, expected: T.Ty | None) -> Val:
    if not e.elems:
        return Val(T.UNIT, None)
    hints = expected.elems if isinstance(expected, T.Tuple) and len(expected.elems) == len(e.elems) else [None] * len(e.elems)
    parts = [em.expr(x, h) for x, h in zip(e.elems, hints)]
    return Val(T.Tuple(tuple(p.ty for p in parts)), parts)


# A thread's local memory (where arrays that do not fit in registers live) holds at most 512 KiB on every
# supported chip; a larger array cannot be launched.
MAX_LOCAL_BYTES = 512 * 1024


def _check_local_array_size(elem: T.Ty, count: int, loc: Any) -> None:
    """A located error for `[x; count]` larger than a thread's local memory (checked before anything of that
    size is built)."""
    try:
        size = T.layout(elem)[0] * count
    except (AttributeError, TypeError):
        return  # an element type with no memory layout: refused where it is stored
    if size > MAX_LOCAL_BYTES:
        raise err(loc, f"`[{elem}; {count}]` takes {size:,} bytes, and a thread's local memory holds at most "
                       f"{MAX_LOCAL_BYTES:,}; put large data in shared memory or a buffer parameter")


@emits(ast.ArrayLit)
def e_ArrayLit(em: FunctionEmitter, e: ast.ArrayLit, expected: T.Ty | None) -> Val:
    elem_hint = expected.elem if isinstance(expected, T.Array) else None
    if e.repeat is not None:
        count = em.length_arg(e.repeat)
        first = em.expr(e.elems[0], elem_hint)
        _check_local_array_size(first.ty, count, e.loc)
        values = [first] * count
    else:
        values = [em.expr(e.elems[0], elem_hint)] if e.elems else []
        values += [em.coerce(em.expr(x, values[0].ty), values[0].ty, x.loc) for x in e.elems[1:]]
    if e.repeat is not None:
        elem = first.ty  # `[x; 0]` still evaluates x (Rust drops it): its type is the element type
    elif values:
        elem = values[0].ty
    elif elem_hint is not None:
        elem = elem_hint
    else:
        raise err(e.loc, "cannot infer the element type of an empty array; give it a type, "
                         "as in `let a: [u32; 0] = [];`")
    ty = T.Array(elem, len(values))
    try:
        with ir.InsertionPoint.at_block_begin(em.entry):
            view = ArrayView(new_cell(ty).leaves)
    except TypeError:
        raise err(e.loc, f"arrays of `{elem}` are not supported in device code yet") from None
    if e.repeat is not None and unrolled_array(ty):
        for i in range(len(values)):
            array_store(first, view, index(i), elem)
    elif e.repeat is not None:
        loop = scf.ForOp(index(0), index(len(values)), index(1))
        with ir.InsertionPoint(loop.body):
            array_store(first, view, loop.induction_variable, elem)
            scf.YieldOp([])
    else:
        for i, v in enumerate(values):
            array_store(v, view, index(i), elem)
    return Val(ty, view)


@emits(ast.StructLit)
def e_StructLit(em: FunctionEmitter, e: ast.StructLit, expected: T.Ty | None) -> Val:
    name = e.name[-1]
    struct = em.crate.struct(name)
    if struct is None:
        raise unknown_type(em.crate, e.loc, name, "struct")
    ty = em.struct_type(struct, []) if not struct.generics else None
    given = dict(e.fields)
    if ty is None:
        # Generic struct: infer its parameters from the field values; fields whose declared type names no
        # parameter give their type to literals (`offset: 1` of an `offset: u32` field).
        declared = dict(struct.fields)
        generic_names = {g.name for g in struct.generics}
        values = {n: em.expr(x, None if n not in declared or mentions(declared[n], generic_names)
                               else em.resolve_type(declared[n]))
                  for n, x in e.fields}
        bindings: dict[str, T.Ty] = {}
        for field_name, field_ty in struct.fields:
            if field_name in values:  # `pieces: [lhs, ..]` of a `pieces: [T; 4]` field binds `T` too
                unify_generics(em, field_ty, values[field_name].ty, generic_names, bindings)
        ty = em.struct_type(struct, [bindings.get(g.name, T.F32) for g in struct.generics])
        parts = []
        for field_name, field_ty in ty.fields:
            if field_name not in values:
                raise err(e.loc, f"missing field `{field_name}` in initializer of `{ty}`")
            parts.append(em.coerce(values[field_name], field_ty, given[field_name].loc))
        return Val(ty, parts)
    parts = []
    for field_name, field_ty in ty.fields:
        if field_name not in given:
            raise err(e.loc, f"missing field `{field_name}` in initializer of `{ty}`")
        parts.append(em.coerce(em.expr(given[field_name], field_ty), field_ty, given[field_name].loc))
    extra = set(given) - {n for n, _ in ty.fields}
    if extra:
        raise err(e.loc, f"struct `{ty}` has no field named `{sorted(extra)[0]}`")
    return Val(ty, parts)
