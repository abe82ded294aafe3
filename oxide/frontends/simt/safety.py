"""The frontend's share of the safety model: the rules Rust's type system enforces for cuda-oxide and that
oxide, which has no borrow checker, checks itself.

- A `ThreadIndex` witness is not Copy or Clone: a binding can be moved (into `get_mut`, another binding or
  a helper's parameter) once; reading it again is a use after move. The same holds for the other values
  that are not Copy (a type with `move_only`: `ManagedBarrier`), which by-value methods move.
- A witness cannot be returned from a function or stored in a struct, array or shared array: any of these
  would let it outlive the thread and kernel body it proves ownership for.
- The index functions (`thread::index_1d()`, ...) are callable only in `#[kernel]` and `#[device]`
  functions, as in cuda-oxide.
- A file cannot define its own `DisjointSlice`, `ThreadIndex`, ... : a look-alike type would dodge the
  checks tied to the real one.
The IR-level counterpart (oxide-verify-aliasing) re-checks witness provenance on the simt IR.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator, TYPE_CHECKING

from mlir import ir

from oxide.frontends.simt import types as T
from oxide.frontends.syntax.errors import err

if TYPE_CHECKING:
    from oxide.frontends.simt.emit import FunctionEmitter

# Types of cuda_device a user file must not redefine.
RESERVED_TYPES = ("DisjointSlice", "ThreadIndex", "SharedArray", "DynamicSharedArray", "Uniform", "Index1D",
                  "Index2D", "Runtime2DIndex", "WarpIndex")
INDEX_FUNCTIONS = ("index_1d", "index_1d_u32", "coord_2d_u32", "index_2d", "index_2d_runtime", "warp_index")
WITNESS_METHODS = ("get", "is_valid", "in_bounds", "row", "col")


def check_crate(crate: Any) -> None:
    """Refuse local definitions of cuda_device's safety-carrying types."""
    for name in RESERVED_TYPES:
        for kind, lookup in (("struct", crate.struct), ("enum", crate.enum)):
            item = lookup(name) if name in (crate.structs if kind == "struct" else crate.enums) else None
            if item is not None:
                raise err(item.loc, f"`{name}` is a cuda_device type; a local {kind} of that name would stand in "
                                    "for it without its safety checks: rename it")


def contains_witness(ty: T.Ty) -> bool:
    """Whether a value of type `ty` holds a witness."""
    if isinstance(ty, T.ThreadIndex):
        return True
    if isinstance(ty, T.OptionTy):
        return contains_witness(ty.inner)
    if isinstance(ty, T.Tuple):
        return any(contains_witness(e) for e in ty.elems)
    if isinstance(ty, T.Struct):
        return any(contains_witness(f) for _, f in ty.fields)
    if isinstance(ty, T.Array):
        return contains_witness(ty.elem)
    return False


def check_stored(ty: T.Ty, loc: Any, container: str) -> None:
    """Refuse a witness as part of a struct, array or shared array (`container` says which)."""
    if contains_witness(ty):
        raise err(loc, f"a thread index witness cannot be stored in {container}: it proves ownership of one "
                       "element for one thread, inside the kernel body; keep it in a local binding")


def check_return(fn: Any, ret_ty: T.Ty, loc: Any) -> None:
    """Refuse a function that returns a witness (cuda-oxide: `thread_index_device_return`)."""
    if contains_witness(ret_ty):
        raise err(loc, f"`{fn.name}` returns a thread index witness, which cannot leave the kernel body it was "
                       "minted in; return the index value (`idx.get()`) or take the DisjointSlice as a parameter")


def check_index_call(em: FunctionEmitter, name: str, loc: Any) -> None:
    """Refuse the index functions inside a plain helper (only `#[kernel]`/`#[device]` functions may mint)."""
    if name not in INDEX_FUNCTIONS:
        return
    fns = em.inline_fns
    if fns and not (fns[-1].attrs.get("device") or fns[-1].attrs.get("kernel")):
        raise err(loc, f"`thread::{name}` is callable only in `#[kernel]` and `#[device]` functions; "
                       f"mark `{fns[-1].name}` `#[device]`")


def witness_method(ty: T.Ty, name: str, loc: Any) -> None:
    """Refuse methods a witness does not have, naming why (`clone` in particular)."""
    if isinstance(ty, T.ThreadIndex) and name not in WITNESS_METHODS:
        if name in ("clone", "to_owned"):
            raise err(loc, "a thread index witness is not Clone: a copy would let two writes claim the same "
                           "element; mint a new one with `thread::index_1d()` if needed")
        raise err(loc, f"no method `{name}` on a thread index witness (it has: {', '.join(WITNESS_METHODS)})")


@contextlib.contextmanager
def borrowing(em: FunctionEmitter) -> Iterator[None]:
    """While evaluating a method receiver: `idx.get()` borrows the witness instead of moving it."""
    was = em.borrowing_witness
    em.borrowing_witness = True
    try:
        yield
    finally:
        em.borrowing_witness = was


def use_binding(em: FunctionEmitter, name: str, value: Any, loc: Any) -> None:
    """A read of the binding `name`: a witness binding is moved by it, and cannot be read where that move
    always happened before (the move's block encloses the read). A move in one arm of an `if`/`match` does
    not stop the other arms; a second use by the same thread could only name its own element again, so the
    cases Rust would still refuse there (use after a maybe-move) are let through."""
    if getattr(value.ty, "move_only", False):
        _use_move_only(em, name, value, loc)
        return
    if not isinstance(value.ty, T.ThreadIndex):
        return
    scope = next((s for s in reversed(em.scopes) if name in s.names), None)
    key = (id(scope), name)
    moves = em.witness_moves
    here = ir.InsertionPoint.current.block
    if key in moves and _encloses(moves[key][1], here):
        raise err(loc, f"use of moved thread index witness `{name}` (moved at {moves[key][0]}): a witness is not "
                       "Copy, so it can be used for one `get_mut` only")
    if not em.borrowing_witness:
        moves[key] = (f"{loc.line}:{loc.col}", here)


def _use_move_only(em: FunctionEmitter, name: str, value: Any, loc: Any) -> None:
    """A read of a binding of a type that is not Copy (a `ManagedBarrier` handle, whose type's `move_only` says
    so): refused where a move of that value always happened before; moved unless it is a method receiver (the
    method decides, through move_value)."""
    moved = em.witness_moves.get((id(value),))
    if moved is not None and _encloses(moved[1], ir.InsertionPoint.current.block):
        raise err(loc, f"use of moved value `{name}` (moved at {moved[0]}): `{value.ty}` is not Copy; use the "
                       "handle the consuming call returned")
    if not em.borrowing_witness:
        move_value(em, value, loc, "")


def move_value(em: FunctionEmitter, value: Any, loc: Any, why: str) -> None:
    """Record that `value` (a move-only value) was moved here: by-value `self` methods call this."""
    where = f"{loc.line}:{loc.col}" + (f", where {why}" if why else "")
    # The value rides along so that its id is not reused by a later value while the record lives.
    em.witness_moves[(id(value),)] = (where, ir.InsertionPoint.current.block, value)


def _encloses(outer: ir.Block, inner: ir.Block) -> bool:
    """Whether `inner` is `outer` or nested in an op of `outer` (so code in `outer` before runs first)."""
    block: ir.Block | None = inner
    while block is not None:
        if block == outer:
            return True
        owner = block.owner
        block = owner.operation.block if owner is not None and owner.operation.parent is not None else None
    return False
