"""Values an `if`/`match` yields in registers: the `scf.if` results that carry a thread index witness.

A witness (`ThreadIndex<S>`) has no memory form (storing one is what the safety model forbids), so the cell
through which `value_if` passes most branch values cannot hold it. `let w = if c { wa } else { wb };` is still
plain Rust: both witnesses were minted by this thread, and choosing one moves it. Such a value is yielded as
results of the `scf.if` instead (the witness provenance check accepts `scf.if` as a carrier). A value counts
here when it holds a witness and every other part of it is a scalar: `ThreadIndex`, `Option<ThreadIndex>`,
tuples and structs of those and of integers, floats, bools and fieldless enums.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from mlir import ir

from oxide.dialects import simt
from oxide.frontends.simt import safety
from oxide.frontends.simt import types as T
from oxide.frontends.simt.values import OptionVal, Val, zero_value

_SCALARS = (T.Int, T.Float, T.Bool, T.Enum)


def _register_only(ty: T.Ty) -> bool:
    if isinstance(ty, (T.ThreadIndex, *_SCALARS)):
        return True
    if isinstance(ty, T.OptionTy):
        return _register_only(ty.inner)
    if isinstance(ty, T.Tuple):
        return all(_register_only(e) for e in ty.elems)
    if isinstance(ty, T.Struct):
        return all(_register_only(f) for _, f in ty.fields)
    return False


def yields_in_registers(ty: T.Ty) -> bool:
    """Whether a branch value of `ty` is carried as `scf.if` results (it holds a witness, and nothing that
    needs memory)."""
    return safety.contains_witness(ty) and _register_only(ty)


def leaves(value: Val) -> list[ir.Value]:
    """The SSA values making up `value`, in a fixed order (`rebuild` reads them back)."""
    ty = value.ty
    if isinstance(ty, T.OptionTy):
        return [value.v.is_some, *leaves(value.v.payload)]
    if isinstance(ty, (T.Tuple, T.Struct)):
        return [leaf for part in value.v for leaf in leaves(part)]
    return [value.v]


def placeholder_leaves(ty: T.Ty) -> list[ir.Value]:
    """Leaves of a value of `ty` that nothing reads (what a diverging branch yields): scalars are zero and a
    witness is this thread's own, freshly minted."""
    if isinstance(ty, T.ThreadIndex):
        if ty.space == "1d":
            return [simt.Index1DOp.build()]
        if ty.space in ("runtime_2d", "coord2d"):
            return [simt.Index2DRuntimeOp.build()]
        if ty.space == "warp":
            return [simt.WarpIndexOp.build()]
        return [simt.Index2DOp.build(results=[ty.mlir()])]
    if isinstance(ty, T.OptionTy):
        return [zero_value(T.BOOL), *placeholder_leaves(ty.inner)]
    if isinstance(ty, (T.Tuple, T.Struct)):
        parts = ty.elems if isinstance(ty, T.Tuple) else [f for _, f in ty.fields]
        return [leaf for p in parts for leaf in placeholder_leaves(p)]
    return [zero_value(ty)]


def rebuild(ty: T.Ty, values: Iterator[ir.Value]) -> Val:
    """The value of `ty` whose leaves are the next ones of `values` (the inverse of `leaves`)."""
    if isinstance(ty, T.OptionTy):
        is_some = next(values)
        return Val(ty, OptionVal(is_some, rebuild(ty.inner, values)))
    if isinstance(ty, (T.Tuple, T.Struct)):
        parts = ty.elems if isinstance(ty, T.Tuple) else [f for _, f in ty.fields]
        return Val(ty, [rebuild(p, values) for p in parts])
    return Val(ty, next(values))


def with_results(branch: Any, ty: T.Ty, yielded: dict[int, Val]) -> Val:
    """Turn `branch`, an `scf.if` without results whose blocks end in an empty `scf.yield`, into one yielding
    the value of type `ty` each side computed (`yielded[0]` then, `yielded[1]` else; a side missing from it
    diverged, or is the absent else of a block's guarded rest, whose value nothing reads). The blocks move
    over whole, so bindings recorded against them stay valid."""
    old = branch.operation
    blocks = [region.blocks[0] if region.blocks else None for region in old.regions]
    per_side: list[list[ir.Value]] = []
    for side, block in enumerate(blocks):
        if block is None:
            per_side.append([])
            continue
        terminator = list(block.operations)[-1]
        with ir.InsertionPoint(terminator), old.location:
            per_side.append(leaves(yielded[side]) if side in yielded else placeholder_leaves(ty))
    types = [v.type for v in per_side[min(yielded)]]
    with ir.InsertionPoint(old), old.location:
        new = ir.Operation.create("scf.if", results=types, operands=[old.operands[0]], regions=2)
    for side, block in enumerate(blocks):
        if block is None:
            block = new.regions[side].blocks.append()
            with ir.InsertionPoint(block), old.location:
                per_side[side] = placeholder_leaves(ty)
        else:
            block.append_to(new.regions[side])
            list(block.operations)[-1].erase()
        with ir.InsertionPoint(block), old.location:
            ir.Operation.create("scf.yield", operands=per_side[side])
    old.erase()
    return rebuild(ty, iter(new.results))
