"""cuda_device's typestate mbarrier: `ManagedBarrier<State, Kind>` over a `static mut BAR: Barrier`, with
`from_static(&raw mut BAR)` (Uninit), `unsafe init(count)` (-> Ready), `arrive()`/`arrive_expect_tx(bytes)`
(-> a token), `wait(token)`, `try_wait(token)`, `test_wait(token)`, `try_wait_parity(parity)`, and
`unsafe inval()` (-> Invalidated). Calling a method in the wrong state is a type error, as in cuda-oxide.
Kinds: `TmaBarrier` (its init is also made visible to the async proxy that TMA copies use), `MmaBarrier`,
`GeneralBarrier`. The handle is the barrier's shared-memory address."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mlir import ir
from mlir.dialects import arith

from oxide.dialects.simt.inline_ptx import build_inline_ptx
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.casts import shared_as_pointer
from oxide.frontends.simt.calls.ptx_fns import PTX_FNS
from oxide.frontends.simt.calls.registry import device_fn, device_method
from oxide.frontends.simt.values import Val

_STATES = ("Uninit", "Ready", "Invalidated")
_KINDS = ("TmaBarrier", "MmaBarrier", "GeneralBarrier")
_U64 = T.PRIMITIVES["u64"]


@dataclass(frozen=True)
class ManagedBarrierTy(T.Ty):
    """`ManagedBarrier<State, Kind>`: its value is the barrier's address (a shared `*mut u64`)."""

    state: str
    kind: str

    def mlir(self) -> ir.Type:
        return T.Ptr(_U64, True, 3).mlir()

    def rust(self) -> str:
        return f"ManagedBarrier<{self.state}, {self.kind}>"


def _name(t: Any) -> str:
    return t.name if isinstance(t, ast.PathTy) else getattr(t, "segments", ["?"])[-1]


@device_fn("ManagedBarrier::from_static", when=lambda em, segs, generics, args, *_: len(args) == 1)
def _from_static(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
                 loc: Any) -> Val:
    names = [_name(g) for g in generics]
    if len(names) < 2 or names[0] != "Uninit" or names[1] not in _KINDS:
        raise err(loc, "`ManagedBarrier::<Uninit, Kind>::from_static(&raw mut BAR)`: Kind is TmaBarrier, "
                       "MmaBarrier or GeneralBarrier")
    bar = em.expr(args[0])
    if isinstance(bar.ty, T.Shared):
        bar = shared_as_pointer(bar)
    if not (isinstance(bar.ty, T.Ptr) and bar.ty.space == 3 and bar.ty.elem == _U64):
        raise err(args[0].loc, f"`from_static` takes `&raw mut` of a `static mut` Barrier, not `{bar.ty}`")
    return Val(ManagedBarrierTy("Uninit", names[1]), bar.v)


def _ptx(name: str, operands: list[ir.Value]) -> list[ir.Value]:
    fn = PTX_FNS[name]
    kinds = {"shared": "l", "u32": "r", "u64": "l"}
    results = {"u64": "=l", "bool": "=r"}
    constraints = [results[r] for r in fn.results] + [kinds[p] for p in fn.params] + ["~{memory}"]
    types = [ir.IntegerType.get_signless(64 if r == "u64" else 32) for r in fn.results]
    return list(build_inline_ptx(operands, fn.asm, ",".join(constraints), types))


def _arg(em: Emitter, a: ast.Expr, ty: T.Ty) -> ir.Value:
    return em.coerce(em.expr(a, ty), ty, a.loc).v


_WANT = {"init": "Uninit", "arrive": "Ready", "arrive_expect_tx": "Ready", "wait": "Ready", "try_wait": "Ready",
         "test_wait": "Ready", "try_wait_parity": "Ready", "wait_parity": "Ready", "inval": "Ready"}
_ARITY = {"init": 1, "arrive": 0, "arrive_expect_tx": 1, "wait": 1, "try_wait": 1, "test_wait": 1,
          "try_wait_parity": 1, "wait_parity": 1, "inval": 0}


@device_method(ManagedBarrierTy, *_WANT)
def _methods(em: Emitter, recv: Val, name: str, args: list[ast.Expr], generics: list[Any], loc: Any,
             expected: T.Ty | None) -> Val:
    ty = recv.ty
    if ty.state != _WANT[name]:
        raise err(loc, f"`{name}` needs a `ManagedBarrier<{_WANT[name]}, _>`; this one is `{ty}`")
    if len(args) != _ARITY[name]:
        raise err(loc, f"`{name}` takes {_ARITY[name]} argument(s) but {len(args)} were supplied")
    bar = recv.v
    u32 = T.PRIMITIVES["u32"]
    if name == "init":
        em.require_unsafe(loc, "`ManagedBarrier::init`")
        _ptx("mbarrier_init", [bar, _arg(em, args[0], u32)])
        if ty.kind == "TmaBarrier":
            _ptx("fence_proxy_async_shared_cta", [])
        return Val(ManagedBarrierTy("Ready", ty.kind), bar)
    if name == "inval":
        em.require_unsafe(loc, "`ManagedBarrier::inval`")
        _ptx("mbarrier_inval", [bar])
        return Val(ManagedBarrierTy("Invalidated", ty.kind), bar)
    if name == "arrive":
        return Val(_U64, _ptx("mbarrier_arrive", [bar])[0])
    if name == "arrive_expect_tx":
        (token,) = build_inline_ptx([bar, _arg(em, args[0], u32)],
                                    "mbarrier.arrive.expect_tx.shared::cta.b64 $0, [$1], $2;", "=l,l,r,~{memory}",
                                    [_U64.mlir()])
        return Val(_U64, token)
    if name in ("wait", "wait_parity"):
        operand = _arg(em, args[0], _U64 if name == "wait" else u32)
        _ptx("mbarrier_wait" if name == "wait" else "mbarrier_wait_parity", [bar, operand])
        return Val(T.UNIT, None)
    operand = _arg(em, args[0], u32 if name == "try_wait_parity" else _U64)
    done = _ptx(f"mbarrier_{name}", [bar, operand])[0]
    return Val(T.BOOL, arith.trunci(ir.IntegerType.get_signless(1), done))
