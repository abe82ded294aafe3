"""`core::sync::atomic` on the device: an atomic cell (held as its address) and its methods `load`, `store`,
`fetch_*`, `swap` and `compare_exchange(_weak)` with `AtomicOrdering` arguments, and
`AtomicU32::from_ptr(p)` & co, which view a raw pointer as an atomic."""

from __future__ import annotations

from typing import Any

from mlir import ir

from oxide.dialects import simt
from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import OTHER, device_fn, device_method
from oxide.frontends.simt.values import OptionVal, Val
from oxide.frontends.syntax import ast
from oxide.frontends.syntax.errors import err

_ORDERINGS = {"Relaxed": "relaxed", "Acquire": "acquire", "Release": "release", "AcqRel": "acq_rel", "SeqCst": "seq_cst"}
_RMW = {"fetch_add": "add", "fetch_sub": "sub", "fetch_and": "and", "fetch_or": "or", "fetch_xor": "xor",
        "fetch_min": "min", "fetch_max": "max", "swap": "xchg"}


@device_method(T.Atomic, OTHER)
def _atomic_method(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
                   expected: T.Ty | None) -> Val:
    """`counters[i].fetch_add(1, AtomicOrdering::Relaxed)`: every method of an atomic, in place."""
    return atomic_on_pointer(em, recv.v, recv.ty.value, recv.ty.scope, name, args, loc)


def _ordering(em: Emitter, a: ast.Expr) -> str:
    value = em.expr(a)
    if isinstance(value.v, tuple) and value.v[0] == "ordering" and value.v[1] in _ORDERINGS:
        return _ORDERINGS[value.v[1]]
    raise err(a.loc, "expected an ordering: `AtomicOrdering::Relaxed`, `Acquire`, `Release`, `AcqRel` or `SeqCst`")


def atomic_on_pointer(em: Emitter, ptr: ir.Value, ty: T.Ty, scope: str, name: str, args: list[ast.Expr],
                      loc: Any) -> Val:
    """The atomic method `name` on the cell at `ptr`, of value type `ty`, at `scope`."""
    if name == "load":
        return Val(ty, simt.AtomicLoadOp.build(ptr, scope=scope, ordering=_ordering(em, args[0])))
    if name == "store":
        value = em.coerce(em.expr(args[0], ty), ty, args[0].loc)
        simt.AtomicStoreOp.build(ptr, value.v, scope=scope, ordering=_ordering(em, args[1]))
        return Val(T.UNIT, None)
    if name in _RMW:
        kind = _RMW[name]
        if isinstance(ty, T.Float) and kind in ("add", "sub"):
            kind = "f" + kind
        if isinstance(ty, T.Int) and not ty.signed and kind in ("min", "max"):
            kind = "u" + kind
        value = em.coerce(em.expr(args[0], ty), ty, args[0].loc)
        return Val(ty, simt.AtomicRmwOp.build(ptr, value.v, kind=kind, scope=scope, ordering=_ordering(em, args[1])))
    if name in ("compare_exchange", "compare_exchange_weak"):
        expected = em.coerce(em.expr(args[0], ty), ty, args[0].loc)
        desired = em.coerce(em.expr(args[1], ty), ty, args[1].loc)
        old, ok = simt.AtomicCmpxchgOp.build(ptr, expected.v, desired.v, scope=scope,
                                              success_ordering=_ordering(em, args[2]),
                                              failure_ordering=_ordering(em, args[3]))
        # Rust: Ok(previous) when it stored, Err(current) when it did not; both are `old`.
        return Val(T.ResultTy(ty), OptionVal(ok, Val(ty, old)))
    raise err(loc, f"no atomic method named `{name}`")


@device_fn(*(f"{atomic}::from_ptr" for atomic in T.ATOMICS), when=lambda em, segs, generics, args, *_: len(args) == 1)
def _from_ptr(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
              loc: Any) -> Val:
    em.require_unsafe(loc, f"`{segs[-2]}::from_ptr`")
    scope, value_ty = T.ATOMICS[segs[-2]]
    p = em.expr(args[0])
    if not (isinstance(p.ty, T.Ptr) and p.ty.elem == value_ty):
        raise err(args[0].loc, f"`{segs[-2]}::from_ptr` takes a `*mut {value_ty}`, not `{p.ty}`")
    return Val(T.Atomic(value_ty, scope), p.v)
