"""`core::mem::MaybeUninit<T>` as a value: `MaybeUninit::uninit()` / `zeroed()` / `new(v)` and `assume_init()`
(unsafe). An uninitialised value is any value, so it is zeros here (what `zeroed` promises); `assume_init` on an
uninhabited type (`Infallible`, `!`, an enum without variants) can never be sound, and traps, as cuda-oxide
lowers it. Writing in place (`slot.write(v)`, `as_mut_ptr`) is not supported."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from oxide.dialects import simt
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.simt.expressions.placeholders import placeholder
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import device_fn, device_method
from oxide.frontends.simt.values import Val


@dataclass(frozen=True)
class Uninhabited(T.Ty):
    """A type with no values (`core::convert::Infallible`, `!`, an empty enum)."""

    name: str

    def rust(self) -> str:
        return self.name


@dataclass(frozen=True)
class MaybeUninitTy(T.Ty):
    """`MaybeUninit<T>` held by value: its T (meaningless until initialised)."""

    inner: T.Ty

    def rust(self) -> str:
        return f"MaybeUninit<{self.inner.rust()}>"


def uninhabited_type(em: Emitter, t: ast.PathTy) -> T.Ty | None:
    """`Infallible` (or an enum without variants) as an uninhabited type, else None."""
    if t.name == "Infallible" and not t.args:
        return Uninhabited("Infallible")
    enum = em.crate.enum(t.name)
    if enum is not None and not enum.variants:
        return Uninhabited(t.name)
    return None


def _inner(em: Emitter, segs: list[str], generics: list[Any], expected: T.Ty | None, loc: Any) -> T.Ty:
    if generics:
        return em.resolve_type(generics[0])
    if isinstance(expected, MaybeUninitTy):
        return expected.inner
    raise err(loc, "cannot infer the type of this `MaybeUninit`; write `MaybeUninit::<T>::uninit()` or annotate it")


def _value(ty: T.Ty, loc: Any) -> Val:
    if isinstance(ty, Uninhabited):
        return Val(ty, None)
    try:
        return placeholder(ty)
    except TypeError:
        raise err(loc, f"`MaybeUninit<{ty}>` is not supported in device code (primitives, tuples and structs)") from None


# `MaybeUninit::uninit()` / `zeroed()` without arguments are core_calls.py's (the T's own storage); it hands
# the calls with arguments to this function, which reports them.
@device_fn("MaybeUninit::new")
def make(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
         loc: Any) -> Val:
    inner = _inner(em, segs, generics, expected, loc) if segs[-1] != "new" or generics else None
    if segs[-1] == "new":
        if len(args) != 1:
            raise err(loc, "`MaybeUninit::new` takes the value")
        value = em.expr(args[0], inner)
        if inner is not None:
            value = em.coerce(value, inner, args[0].loc)
        return Val(MaybeUninitTy(value.ty), value)
    if args:
        raise err(loc, f"`MaybeUninit::{segs[-1]}` takes no arguments")
    return Val(MaybeUninitTy(inner), _value(inner, loc))


@device_method(MaybeUninitTy, "assume_init", "assume_init_read", when=lambda em, recv, name, args, *_: not args)
def _assume_init(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any],
                 loc: Any, expected: T.Ty | None) -> Val:
    em.require_unsafe(loc, f"`MaybeUninit::{name}`")
    if isinstance(recv.ty.inner, Uninhabited):
        simt.TrapOp.build()  # no value of the type exists: reaching here is undefined behaviour; stop
        return Val(T.NEVER, None)
    return recv.v
