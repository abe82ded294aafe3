"""cuda_device's raw mbarrier functions (`barrier::mbarrier_*` on a `*const Barrier`) and the async-proxy
fences, emitted as the simt mbarrier ops (oxide.dialects.simt.mbarrier). All are `unsafe fn` in cuda-oxide.

The barrier argument is a raw pointer into shared memory to a `Barrier` (`&raw mut BAR` of a `static mut
BAR: Barrier`, or a `*mut u64` into shared memory); tokens are u64, counts, byte counts and parities u32.
Beyond cuda-oxide: `mbarrier_wait_parity` (the blocking parity wait), `mbarrier_expect_tx`, and the fences
of the other state spaces (`fence_proxy_async`, `_global`, `_shared_cluster`).
"""

from __future__ import annotations

from typing import Any, Callable

from mlir import ir
from mlir.dialects import arith

from oxide.dialects import simt
from oxide.frontends.syntax import ast
from oxide.ir.declare import int_value
from oxide.frontends.simt import types as T
from oxide.frontends.syntax.errors import err
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.casts import shared_as_pointer
from oxide.frontends.simt.calls.registry import device_fn
from oxide.frontends.simt.values import Val

_U32 = T.PRIMITIVES["u32"]
_U64 = T.PRIMITIVES["u64"]
_SPACE_NAMES = {0: "generic", 1: "global", 3: "shared", 4: "constant", 5: "local"}


def barrier_pointer(em: Emitter, a: ast.Expr, name: str) -> ir.Value:
    """The `!simt.ptr<i64, 3>` of a barrier argument, or a located error naming what was passed instead."""
    value = em.expr(a, T.Ptr(_U64, True, 3))
    if isinstance(value.ty, T.Shared):
        value = shared_as_pointer(value)
    if not isinstance(value.ty, T.Ptr):
        raise err(a.loc, f"`{name}` takes a raw pointer to a `Barrier` in shared memory (`&raw mut BAR`), "
                         f"not `{value.ty}`")
    if value.ty.space != 3:
        where = _SPACE_NAMES.get(value.ty.space, str(value.ty.space))
        raise err(a.loc, f"`{name}` takes a pointer to a `Barrier` in shared memory; this one is a {where} pointer "
                         "(declare the barrier `static mut BAR: Barrier = Barrier::UNINIT` and pass `&raw mut BAR`)")
    if value.ty.elem != _U64:
        raise err(a.loc, f"`{name}` takes a pointer to a `Barrier` (a 64-bit object), not `{value.ty}`; "
                         "cast it with `.cast::<u64>()` only if it really points at a barrier")
    return value.v


def scalar(em: Emitter, a: ast.Expr, ty: T.Ty) -> ir.Value:
    """An argument coerced to `ty` (u32 counts, u64 tokens), with the frontend's located type errors."""
    return em.coerce(em.expr(a, ty), ty, a.loc).v


def _token(v: ir.Value) -> Val:
    return Val(_U64, v)


def _flag(v: ir.Value) -> Val:
    return Val(T.BOOL, v)


def _unit(_: Any) -> Val:
    return Val(T.UNIT, None)


# name -> (parameter kinds after the barrier, the op builder, how its result becomes a Rust value)
_Builder = Callable[..., Any]
_RAW: dict[str, tuple[tuple[T.Ty, ...], _Builder, Callable[[Any], Val]]] = {
    "mbarrier_init": ((_U32,), simt.MbarrierInitOp.build, _unit),
    "mbarrier_inval": ((), simt.MbarrierInvalOp.build, _unit),
    "mbarrier_arrive": ((), lambda bar: simt.MbarrierArriveOp.build(bar, None), _token),
    "mbarrier_test_wait": ((_U64,), simt.MbarrierTestWaitOp.build, _flag),
    "mbarrier_try_wait": ((_U64,), simt.MbarrierTryWaitOp.build, _flag),
    "mbarrier_try_wait_parity": ((_U32,), simt.MbarrierTryWaitParityOp.build, _flag),
    "mbarrier_wait": ((_U64,), simt.MbarrierWaitOp.build, _unit),
    "mbarrier_wait_parity": ((_U32,), simt.MbarrierWaitParityOp.build, _unit),
    "mbarrier_expect_tx": ((_U32,), simt.MbarrierExpectTxOp.build, _unit),
}


@device_fn(*_RAW)
def _raw(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
         loc: Any) -> Val:
    name = segs[-1]
    params, build, result = _RAW[name]
    if len(args) != len(params) + 1:
        raise err(loc, f"`{name}` takes {len(params) + 1} argument(s) but {len(args)} were supplied")
    em.require_unsafe(loc, f"`{name}`")
    bar = barrier_pointer(em, args[0], name)
    return result(build(bar, *(scalar(em, a, ty) for a, ty in zip(args[1:], params))))


def _u32(value: int) -> ir.Value:
    return arith.constant(ir.IntegerType.get_signless(32), value)


@device_fn("mbarrier_arrive_no_complete")
def _arrive_no_complete(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr],
                        expected: T.Ty | None, loc: Any) -> Val:
    """`mbarrier_arrive_no_complete(bar)`: one arrival that must not complete the phase; no token."""
    if len(args) != 1:
        raise err(loc, f"`mbarrier_arrive_no_complete` takes 1 argument but {len(args)} were supplied")
    em.require_unsafe(loc, "`mbarrier_arrive_no_complete`")
    simt.MbarrierArriveNoCompleteOp.build(barrier_pointer(em, args[0], "mbarrier_arrive_no_complete"), _u32(1))
    return Val(T.UNIT, None)


@device_fn("mbarrier_arrive_and_wait")
def _arrive_and_wait(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr],
                     expected: T.Ty | None, loc: Any) -> Val:
    """`mbarrier_arrive_and_wait(bar)`: arrive, then block until that arrival's phase completes."""
    if len(args) != 1:
        raise err(loc, f"`mbarrier_arrive_and_wait` takes 1 argument but {len(args)} were supplied")
    em.require_unsafe(loc, "`mbarrier_arrive_and_wait`")
    bar = barrier_pointer(em, args[0], "mbarrier_arrive_and_wait")
    simt.MbarrierWaitOp.build(bar, simt.MbarrierArriveOp.build(bar, None))
    return Val(T.UNIT, None)


def arrive_expect_tx(bar: ir.Value, tx_bytes: ir.Value, count: ir.Value | None) -> Val:
    """The token of an arrive.expect_tx; a constant count of 1 is the plain (single-arrival) form."""
    if count is not None and _is_one(count):
        count = None
    return _token(simt.MbarrierArriveExpectTxOp.build(bar, tx_bytes, count))


def _is_one(value: ir.Value) -> bool:
    op = value.owner
    op = getattr(op, "operation", op)
    return isinstance(op, ir.Operation) and op.name == "arith.constant" and int_value(op.attributes["value"]) == 1


@device_fn("mbarrier_arrive_expect_tx")
def _arrive_expect_tx(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr],
                      expected: T.Ty | None, loc: Any) -> Val:
    """`mbarrier_arrive_expect_tx(bar, tx_bytes)` or `(bar, arrivals, tx_bytes)`: expect `tx_bytes` more bytes
    of asynchronous copies on the barrier, then arrive (once, or `arrivals` times); returns the phase token."""
    name = segs[-1]
    if len(args) not in (2, 3):
        raise err(loc, f"`{name}` takes (barrier, tx_bytes) or (barrier, arrivals, tx_bytes)")
    em.require_unsafe(loc, f"`{name}`")
    bar = barrier_pointer(em, args[0], name)
    count = scalar(em, args[1], _U32) if len(args) == 3 else None
    return arrive_expect_tx(bar, scalar(em, args[-1], _U32), count)


@device_fn("mbarrier_arrive_cluster")
def _arrive_cluster(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr],
                    expected: T.Ty | None, loc: Any) -> Val:
    """`mbarrier_arrive_cluster(remote_bar_addr)`: a release.cluster arrival on a barrier of any block of the
    cluster, by its 64-bit shared::cluster address."""
    if len(args) != 1:
        raise err(loc, f"`mbarrier_arrive_cluster` takes 1 argument but {len(args)} were supplied")
    em.require_unsafe(loc, "`mbarrier_arrive_cluster`")
    simt.MbarrierArriveClusterOp.build(scalar(em, args[0], _U64), scope="cluster")
    return Val(T.UNIT, None)


# cuda-oxide's fence names (the first two), and oxide's for the other state spaces of fence.proxy.async.
_FENCES = {"fence_proxy_async_shared_cta": "shared_cta", "fence_proxy_async_shared_cluster": "shared_cluster",
           "fence_proxy_async_global": "global", "fence_proxy_async": "all",
           "fence_mbarrier_init_release_cluster": None}


@device_fn(*_FENCES)
def _fence(em: Emitter, segs: list[str], generics: list[Any], args: list[ast.Expr], expected: T.Ty | None,
           loc: Any) -> Val:
    name = segs[-1]
    if args:
        raise err(loc, f"`{name}` takes no arguments but {len(args)} were supplied")
    em.require_unsafe(loc, f"`{name}`")
    space = _FENCES[name]
    if space is None:
        simt.FenceMbarrierInitOp.build()
    else:
        simt.FenceProxyAsyncOp.build(space=space)
    return Val(T.UNIT, None)
