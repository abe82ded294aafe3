"""cuda_device's typestate mbarrier: `ManagedBarrier<State, Kind, ID>` over a `static mut BAR: Barrier`, emitted
as the simt mbarrier ops.

`from_static(&raw mut BAR)` gives an Uninit handle; `unsafe init(count)` / `init_by(count, t)` consume it and
give a Ready one (thread `threadIdx.x == t`, 0 for `init`, initialises the barrier and fences the init to the
async proxy; then every thread syncs); `as_ptr()`, `arrive() -> BarrierToken`, `arrive_expect_tx(bytes)`,
`wait(token)`, `try_wait(token)`, `test_wait(token)`, `try_wait_parity(parity)` (and oxide's `wait_parity`)
borrow a Ready handle; `unsafe inval()` / `inval_by(t)` consume it (sync, thread t invalidates, sync) and give
an Invalidated one. A method in the wrong state is a compile error at the call, as in Rust; so is using a
handle after `init`/`inval` consumed it (the handle is not Copy: safety.use_binding tracks its moves as it
does a witness's). Kinds: `TmaBarrier`, `MmaBarrier`, `GeneralBarrier`; aliases `TmaBarrierHandle<S>`,
`MmaBarrierHandle<S>`, `TmaBarrier0<S>`, `TmaBarrier1<S>`. `BarrierToken::raw()` / `from_raw(u64)` convert.

As in cuda-oxide, init fences for every kind (the Kind parameter is a marker), so init needs sm_90.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mlir import ir
from mlir.dialects import arith, scf

from oxide.dialects import simt
from oxide.frontends.syntax import ast
from oxide.frontends.simt import safety
from oxide.frontends.simt import types as T
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.calls.barriers import arrive_expect_tx, barrier_pointer, scalar
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.registry import device_fn, device_method
from oxide.frontends.simt.values import Val

STATES = ("Uninit", "Ready", "Invalidated")
KINDS = ("TmaBarrier", "MmaBarrier", "GeneralBarrier")
# alias -> (kind, ID)
ALIASES = {"TmaBarrierHandle": ("TmaBarrier", 0), "MmaBarrierHandle": ("MmaBarrier", 0),
           "TmaBarrier0": ("TmaBarrier", 0), "TmaBarrier1": ("TmaBarrier", 1)}
_U32 = T.PRIMITIVES["u32"]
_U64 = T.PRIMITIVES["u64"]


@dataclass(frozen=True)
class ManagedBarrierTy(T.Ty):
    """`ManagedBarrier<State, Kind, ID>`: its value is the barrier's address (a shared `*mut u64`). Not Copy."""

    state: str
    kind: str
    id: int = 0
    move_only = True

    def mlir(self) -> ir.Type:
        return T.Ptr(_U64, True, 3).mlir()

    def rust(self) -> str:
        return f"ManagedBarrier<{self.state}, {self.kind}{f', {self.id}' if self.id else ''}>"


@dataclass(frozen=True)
class BarrierTokenTy(T.Ty):
    """`BarrierToken`: the phase token of an arrival (a u64), a newtype so that a raw u64 is not one."""

    def mlir(self) -> ir.Type:
        return _U64.mlir()

    def rust(self) -> str:
        return "BarrierToken"


TOKEN = BarrierTokenTy()


def _name(t: Any) -> str:
    return t.name if isinstance(t, ast.PathTy) else getattr(t, "segments", ["?"])[-1]


def managed_barrier_type(em: Emitter, t: ast.PathTy) -> T.Ty | None:
    """The type of a `ManagedBarrier<S, K[, ID]>`, alias or `BarrierToken` annotation, or None."""
    if t.name == "BarrierToken" and not t.args:
        return TOKEN
    if t.name == "ManagedBarrier" or t.name in ALIASES:
        return _handle_type(em, t.name, list(t.args), t.loc)
    return None


def _handle_type(em: Emitter, head: str, args: list[Any], loc: Any) -> ManagedBarrierTy:
    names = [_name(a) for a in args]
    if head in ALIASES:
        kind, ident = ALIASES[head]
        if len(names) != 1 or names[0] not in STATES:
            raise err(loc, f"`{head}<State>` takes one state: Uninit, Ready or Invalidated")
        return ManagedBarrierTy(names[0], kind, ident)
    if len(names) not in (2, 3) or names[0] not in STATES or names[1] not in KINDS:
        raise err(loc, "`ManagedBarrier<State, Kind[, ID]>`: State is Uninit, Ready or Invalidated; Kind is "
                       "TmaBarrier, MmaBarrier or GeneralBarrier")
    return ManagedBarrierTy(names[0], names[1], em.const_arg(args[2]) if len(args) == 3 else 0)


def _from_static_guard(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], *_: Any) -> bool:
    return len(args) == 1


@device_fn("ManagedBarrier::from_static", *(f"{a}::from_static" for a in ALIASES), when=_from_static_guard)
def _from_static(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                 loc: Any) -> Val:
    if generics:
        ty = _handle_type(em, segs[-2], generics, loc)
    elif isinstance(expected, ManagedBarrierTy):
        ty = expected
    else:
        raise err(loc, "`from_static` needs the handle's type: `ManagedBarrier::<Uninit, Kind>::from_static(...)` "
                       "or a `let` annotation")
    if ty.state != "Uninit":
        raise err(loc, f"`from_static` makes a `ManagedBarrier<Uninit, _>`, not a `{ty}`")
    return Val(ty, barrier_pointer(em, args[0], "from_static"))


def _by_thread(thread: ir.Value, build: Any) -> None:
    """Run `build()` in the thread whose threadIdx.x is `thread` only."""
    tid = simt.ThreadIdOp.build(dim=simt.DimAttr.get("x"))
    branch = scf.IfOp(arith.cmpi(arith.CmpIPredicate.eq, tid, thread))
    with ir.InsertionPoint(branch.then_block):
        build()
        scf.YieldOp([])


def _init(em: Emitter, recv: Val, count: ir.Value, thread: ir.Value) -> Val:
    def initialise() -> None:
        simt.MbarrierInitOp.build(recv.v, count)
        simt.FenceProxyAsyncOp.build(space="shared_cta")
    _by_thread(thread, initialise)
    simt.SyncThreadsOp.build()
    return Val(ManagedBarrierTy("Ready", recv.ty.kind, recv.ty.id), recv.v)


def _inval(em: Emitter, recv: Val, thread: ir.Value) -> Val:
    simt.SyncThreadsOp.build()
    _by_thread(thread, lambda: simt.MbarrierInvalOp.build(recv.v))
    simt.SyncThreadsOp.build()
    return Val(ManagedBarrierTy("Invalidated", recv.ty.kind, recv.ty.id), recv.v)


def _token_arg(em: Emitter, a: ast.Expr, name: str) -> ir.Value:
    value = em.expr(a, TOKEN)
    if not isinstance(value.ty, BarrierTokenTy):
        raise err(a.loc, f"`{name}` takes the `BarrierToken` an `arrive` returned, not `{value.ty}` "
                         "(`BarrierToken::from_raw(t)` wraps a raw token)")
    return value.v


# method -> (the state it needs, its parameters: "u32" or "token")
_METHODS = {"init": ("Uninit", ("u32",)), "init_by": ("Uninit", ("u32", "u32")), "as_ptr": ("Ready", ()),
            "arrive": ("Ready", ()), "arrive_expect_tx": ("Ready", ("u32",)), "wait": ("Ready", ("token",)),
            "try_wait": ("Ready", ("token",)), "test_wait": ("Ready", ("token",)),
            "try_wait_parity": ("Ready", ("u32",)), "wait_parity": ("Ready", ("u32",)), "inval": ("Ready", ()),
            "inval_by": ("Ready", ("u32",))}
_CONSUMING = ("init", "init_by", "inval", "inval_by")


@device_method(ManagedBarrierTy, *_METHODS)
def _methods(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
             expected: T.Ty | None) -> Val:
    ty = recv.ty
    state, params = _METHODS[name]
    if ty.state != state:
        raise err(loc, f"`{name}` needs a `ManagedBarrier<{state}, _>`; this one is `{ty}`")
    if len(args) != len(params):
        raise err(loc, f"`{name}` takes {len(params)} argument(s) but {len(args)} were supplied")
    if name in _CONSUMING:
        em.require_unsafe(loc, f"`ManagedBarrier::{name}`")
        safety.move_value(em, recv, loc, f"`{name}` takes the handle by value")
    values = [_token_arg(em, a, name) if p == "token" else scalar(em, a, _U32) for a, p in zip(args, params)]
    return _emit(em, recv, name, values)


def _emit(em: Emitter, recv: Val, name: str, values: list[ir.Value]) -> Val:
    bar = recv.v
    zero = arith.constant(ir.IntegerType.get_signless(32), 0) if name in ("init", "inval") else None
    if name in ("init", "init_by"):
        return _init(em, recv, values[0], values[1] if name == "init_by" else zero)
    if name in ("inval", "inval_by"):
        return _inval(em, recv, values[0] if name == "inval_by" else zero)
    if name == "as_ptr":
        return Val(T.Ptr(_U64, False, 3), bar)
    if name == "arrive":
        return Val(TOKEN, simt.MbarrierArriveOp.build(bar, None))
    if name == "arrive_expect_tx":
        return Val(TOKEN, arrive_expect_tx(bar, values[0], None).v)
    ops = {"wait": simt.MbarrierWaitOp, "wait_parity": simt.MbarrierWaitParityOp, "try_wait": simt.MbarrierTryWaitOp,
           "test_wait": simt.MbarrierTestWaitOp, "try_wait_parity": simt.MbarrierTryWaitParityOp}
    result = ops[name].build(bar, values[0])
    return Val(T.UNIT, None) if name in ("wait", "wait_parity") else Val(T.BOOL, result)


@device_fn("BarrierToken::from_raw")
def _token_from_raw(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                    loc: Any) -> Val:
    if len(args) != 1:
        raise err(loc, f"`BarrierToken::from_raw` takes 1 argument but {len(args)} were supplied")
    return Val(TOKEN, scalar(em, args[0], _U64))


@device_method(BarrierTokenTy, "raw")
def _token_raw(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
               expected: T.Ty | None) -> Val:
    if args:
        raise err(loc, f"`raw` takes no arguments but {len(args)} were supplied")
    return Val(_U64, recv.v)
