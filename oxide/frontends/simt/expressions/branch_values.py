"""The value of an `if`/`match`: a `scf.if` whose branches each produce one, carried through a cell,
as an address, or as results (branch_results.py)."""

from __future__ import annotations

from typing import Any, TYPE_CHECKING

from mlir import ir
from mlir.dialects import scf

from oxide.dialects import simt
from oxide.frontends.simt import branch_results
from oxide.frontends.simt import types as T
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.values import Cell, Val, load_cell, new_cell, pointer_at, store_cell


if TYPE_CHECKING:
    from oxide.frontends.simt.emit import FunctionEmitter


def value_if(em: FunctionEmitter, cond: ir.Value, then_fn: Any, else_fn: Any, loc: Any) -> Val:
    """scf.if whose branches produce values; the value goes through a cell (a memref LLVM promotes).
    Addresses (pointers, references into memory) go through an integer cell, or, when one branch diverges
    and the other yields an address computed before the `if`, are that address. A value holding a thread
    index witness, which has no memory form, becomes results of the scf.if (branch_results.py).
    `else_fn(hint)` gets the then-branch's type, so an unsuffixed literal there takes it."""
    probe: dict[str, Any] = {}
    branch = scf.IfOp(cond, has_else=True)
    result_cell: Cell | None = None
    yielded: dict[int, Val] = {}
    in_registers: dict[int, Val] = {}
    for side, (block, fn) in enumerate(((branch.then_block, then_fn), (branch.else_block, else_fn))):
        with ir.InsertionPoint(block):
            value = fn() if fn is then_fn else fn(probe.get("ty"))
            if not isinstance(value.ty, (T.Unit, T.Never)):
                if "ty" not in probe:
                    probe["ty"] = value.ty
                elif isinstance(value.ty, T.Ptr) and isinstance(probe["ty"], T.Ptr) \
                        and value.ty.elem == probe["ty"].elem and value.ty.space != probe["ty"].space:
                    # One `*const T` from two address spaces (a global pointer or `ptr::null()`): the result is
                    # the generic pointer (both branches yield their generic address).
                    probe["ty"] = T.Ptr(value.ty.elem, value.ty.mutable and probe["ty"].mutable, 0)
                elif value.ty != probe["ty"] and _pointer_space_union(probe["ty"], value.ty) is not None:
                    # `(p_global, n)` and `(ptr::null(), 0)`: an aggregate whose pointers come from two address
                    # spaces; a cell keeps each pointer's generic address, read back as the generic pointer.
                    probe["ty"] = _pointer_space_union(probe["ty"], value.ty)
                elif value.ty != probe["ty"]:
                    if isinstance(value.ty, T.FnItem) and isinstance(probe["ty"], T.FnItem):
                        raise err(loc, "choosing a function at run time (an indirect call through a function "
                                       "pointer) is not supported in device code; call each function in its branch")
                    raise err(loc, f"`if` and `else` have incompatible types: `{probe['ty']}` and `{value.ty}`")
                if branch_results.yields_in_registers(value.ty):
                    in_registers[side] = value
                elif isinstance(value.ty, (T.Ptr, T.ElemRef, T.PlaceRef, T.FnItem)):
                    yielded[side] = value
                if side not in in_registers and not isinstance(value.ty, T.FnItem):  # FnItem: nothing to carry
                    if side in yielded:
                        value = address_value(value)
                    if result_cell is None:
                        try:
                            with ir.InsertionPoint.at_block_begin(em.entry):
                                result_cell = new_cell(value.ty)
                        except TypeError:
                            raise err(loc, f"an `if`/`match` that yields a `{value.ty}` is not supported in device "
                                           "code; compute the value after the branch") from None
                    store_cell(result_cell, value)
            scf.YieldOp([])
    if in_registers:
        return branch_results.with_results(branch, probe["ty"], in_registers)
    if yielded and isinstance(probe["ty"], T.FnItem):
        return next(iter(yielded.values()))
    if yielded:
        only = list(yielded.values())
        if len(only) == 1 and _defined_outside(only[0].v, branch.operation):
            return only[0]  # the other branch diverged: nothing reads the result there
        return address_from(load_cell(result_cell), probe["ty"])
    if result_cell is None:
        return Val(T.UNIT, None)
    return load_cell(_retyped(result_cell, probe["ty"]))


def _pointer_space_union(a: T.Ty, b: T.Ty) -> T.Ty | None:
    """The type of one aggregate value from two branches whose pointers may point into different address
    spaces (those pointers become generic ones), or None when the types differ otherwise."""
    if isinstance(a, T.Ptr) and isinstance(b, T.Ptr) and a.elem == b.elem:
        return T.Ptr(a.elem, a.mutable and b.mutable, a.space if a.space == b.space else 0)
    if isinstance(a, T.Tuple) and isinstance(b, T.Tuple) and len(a.elems) == len(b.elems):
        parts = [_pointer_space_union(x, y) for x, y in zip(a.elems, b.elems)]
        return None if None in parts else T.Tuple(tuple(parts))
    if isinstance(a, T.OptionTy) and isinstance(b, T.OptionTy):
        inner = _pointer_space_union(a.inner, b.inner)
        return None if inner is None else T.OptionTy(inner)
    return a if a == b else None


def _retyped(cell: Cell, ty: T.Ty) -> Cell:
    """The same storage read as `ty` (a pointer cell holds an address whatever its address space)."""
    if cell.ty == ty:
        return cell
    if isinstance(ty, T.Tuple):
        return Cell(ty, [_retyped(c, t) for c, t in zip(cell.leaves, ty.elems)])
    if isinstance(ty, T.OptionTy):
        flag, payload = cell.leaves
        return Cell(ty, (flag, _retyped(payload, ty.inner)))
    return Cell(ty, cell.leaves, cell.prefix)


def address_value(value: Val) -> Val:
    """A pointer or reference into memory as its 64-bit address (to keep it in a local)."""
    ptr = value.v
    if isinstance(value.ty, T.ElemRef):
        ptr = simt.RefPtrOp.build(ptr, results=[T.Ptr(value.ty.elem, True, 1).mlir()])
    return Val(T.Int(64, False), simt.PtrToIntOp.build(ptr))


def address_from(address: Val, ty: T.Ty) -> Val:
    """The pointer or reference of type `ty` at a 64-bit address (the inverse of address_value); an element
    reference comes back as the equivalent reference into memory."""
    if isinstance(ty, T.ElemRef):
        ty = T.PlaceRef(ty.elem, True, 1)
    return Val(ty, pointer_at(address.v, ty))


def _defined_outside(value: ir.Value, op: ir.Operation) -> bool:
    """Whether `value` is defined outside `op` (so it dominates both of op's regions)."""
    owner = value.owner
    node = owner.owner if isinstance(owner, ir.Block) else owner
    node = node.operation if hasattr(node, "operation") else node
    while node is not None:
        if node == op:
            return False
        node = node.parent
    return True
