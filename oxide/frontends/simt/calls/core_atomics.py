"""`core::intrinsics::atomic_*::<T, {ORDERING}>(ptr, ...)`: Rust's atomic intrinsics on a raw pointer, at
system scope (as every `core::sync::atomic` operation in cuda-oxide). The orderings are const generic
arguments (`{ core::intrinsics::AtomicOrdering::Acquire }`); `atomic_cxchg` returns (previous, stored)."""

from __future__ import annotations

from typing import Any

from oxide.dialects import simt
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.syntax.errors import err
from oxide.frontends.structured import walk
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import device_fn
from oxide.frontends.simt.values import Val

_ORDERINGS = {"Relaxed": "relaxed", "Acquire": "acquire", "Release": "release", "AcqRel": "acq_rel",
              "SeqCst": "seq_cst"}
_RMW = {"atomic_xadd": "add", "atomic_xsub": "sub", "atomic_and": "and", "atomic_or": "or", "atomic_xor": "xor",
        "atomic_max": "max", "atomic_min": "min", "atomic_umax": "umax", "atomic_umin": "umin",
        "atomic_xchg": "xchg"}
_SCOPE = "system"


def _ordering(g: Any, loc: Any) -> str:
    for node in walk(g):
        if isinstance(node, ast.PathExpr) and node.segments[-1] in _ORDERINGS:
            return _ORDERINGS[node.segments[-1]]
        if isinstance(node, ast.PathTy) and node.name in _ORDERINGS:
            return _ORDERINGS[node.name]
    raise err(loc, "an atomic intrinsic's ordering is a const argument: `{ AtomicOrdering::Acquire }`")


@device_fn(*(f"intrinsics::{name}" for name in ("atomic_load", "atomic_store", "atomic_cxchg", "atomic_cxchgweak",
                                                *_RMW)))
def _core_atomic(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                 loc: Any) -> Val:
    name = segs[-1]
    em.require_unsafe(loc, f"`core::intrinsics::{name}`")
    want = {"atomic_load": 1, "atomic_store": 2, "atomic_cxchg": 3, "atomic_cxchgweak": 3}.get(name, 2)
    if len(args) != want or len(generics) < 2:
        raise err(loc, f"`core::intrinsics::{name}::<T, ORDERING>` takes {want} argument(s)")
    ty = em.resolve_type(generics[0])
    if not isinstance(ty, (T.Int, T.Float)) or ty.bits not in (32, 64):
        raise err(loc, f"`core::intrinsics::{name}` on `{ty}` is not supported in device code (32/64-bit values)")
    ptr = em.expr(args[0])
    if not isinstance(ptr.ty, T.Ptr) or ptr.ty.elem != ty:
        raise err(args[0].loc, f"`{name}` takes a `*mut {ty}`, not `{ptr.ty}`")

    def value(i: int) -> Any:
        return em.coerce(em.expr(args[i], ty), ty, args[i].loc).v

    ordering = _ordering(generics[1], loc)
    if name == "atomic_load":
        return Val(ty, simt.AtomicLoadOp.build(ptr.v, scope=_SCOPE, ordering=ordering))
    if name == "atomic_store":
        simt.AtomicStoreOp.build(ptr.v, value(1), scope=_SCOPE, ordering=ordering)
        return Val(T.UNIT, None)
    if name.startswith("atomic_cxchg"):
        failure = _ordering(generics[2], loc) if len(generics) > 2 else ordering
        old, ok = simt.AtomicCmpxchgOp.build(ptr.v, value(1), value(2), scope=_SCOPE, success_ordering=ordering,
                                              failure_ordering=failure)
        return Val(T.Tuple((ty, T.BOOL)), [Val(ty, old), Val(T.BOOL, ok)])
    kind = _RMW[name]
    if isinstance(ty, T.Float):
        if kind not in ("add", "sub", "xchg"):
            raise err(loc, f"`{name}` on a float is not an atomic operation")
        kind = "f" + kind if kind != "xchg" else kind
    return Val(ty, simt.AtomicRmwOp.build(ptr.v, value(1), kind=kind, scope=_SCOPE, ordering=ordering))
