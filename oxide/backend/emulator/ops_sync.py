"""Emulator rules for the simt dialect's synchronisation, warp collectives, atomics and debugging ops
(runtime side: oxide.runtime.emulator.threads, warp, atomics, debug)."""

from __future__ import annotations

from typing import Any

from mlir import ir
from mlir.dialects import gpu

from oxide.backend.emulator.emitter import KernelEmitter
from oxide.backend.emulator.rules import rule
from oxide.backend.emulator.scheduling import blocking
from oxide.dialects import simt
from oxide.ir.rules import is_op
from oxide.ir.declare import int_value


def _string(op: Any, name: str) -> str:
    return ir.StringAttr(op.attributes[name]).value


@rule(simt.SyncThreadsOp)
def emit_sync_threads(em: KernelEmitter, op: Any) -> None:
    if em.scheduled:
        em.line(f"yield _s.BlockSync({em.mask}, {em.loc(op)})")
    else:
        em.line(f"c.barrier({em.mask}, {em.loc(op)})")


@rule(blocking(simt.NamedBarrierOp))
def emit_named_barrier(em: KernelEmitter, op: Any) -> None:
    # Only part of the block joins it, so it needs warps that progress independently (scheduled mode).
    _named(em, op, "yield _s.NamedSync({mask}, {loc}, {id}, {threads})")


@rule(blocking(simt.NamedBarrierArriveOp))
def emit_named_barrier_arrive(em: KernelEmitter, op: Any) -> None:
    # It waits for nothing, but the warps it releases wait in scheduled mode.
    _named(em, op, "_s.arrive_named(c, {mask}, {loc}, {id}, {threads})")


def _named(em: KernelEmitter, op: Any, scheduled: str) -> None:
    """A named-barrier op: the `scheduled` line with its mask, location, id and threads filled in; outside the
    scheduled mode (warps in lockstep) a located error."""
    if em.scheduled:
        em.line(scheduled.format(mask=em.mask, loc=em.loc(op), id=int_value(op.attributes["id"]),
                                 threads=int_value(op.attributes["threads"])))
    else:
        em.line(f"_h.not_in_lockstep(c, {em.loc(op)})")


@rule(simt.ThreadFenceOp)
def emit_thread_fence(em: KernelEmitter, op: Any) -> None:
    # Lock-step execution already makes every earlier access visible; for the race checks a fence is an
    # ordering point, as are atomics stronger than relaxed (release/acquire message passing).
    em.line("c.order_point()")


def _ordering_point(em: KernelEmitter, op: Any, attribute: str = "ordering") -> None:
    if _string(op, attribute) != "relaxed":
        em.line("c.order_point()")


@rule(simt.WarpSyncOp)
def emit_warp_sync(em: KernelEmitter, op: Any) -> None:
    em.line(f"_w.warp_sync(c, {em.mask}, {em.args(op)[0]}, {em.loc(op)})")
    em.line("c.order_point()")  # __syncwarp orders the memory accesses of the lanes it synchronises


@rule(simt.ShuffleOp)
def emit_shuffle(em: KernelEmitter, op: Any) -> None:
    member, value, offset = em.args(op)
    width = int_value(op.attributes["width"])
    em.line(f"{em.result(op)} = _w.shuffle(c, {em.mask}, {member}, {value}, {offset}, {_string(op, 'kind')!r}, "
            f"{width}, {em.loc(op)})")


@rule(simt.VoteOp)
def emit_vote(em: KernelEmitter, op: Any) -> None:
    member, pred = em.args(op)
    em.line(f"{em.result(op)} = _w.vote(c, {em.mask}, {member}, {pred}, {_string(op, 'kind')!r}, {em.loc(op)})")


@rule(simt.BallotOp, simt.MatchAnyOp)
def emit_ballot(em: KernelEmitter, op: Any) -> None:
    member, value = em.args(op)
    fn = "ballot" if is_op(op, simt.BallotOp) else "match_any"
    em.line(f"{em.result(op)} = _w.{fn}(c, {em.mask}, {member}, {value}, {em.loc(op)})")


@rule(simt.MatchAllOp)
def emit_match_all(em: KernelEmitter, op: Any) -> None:
    member, value = em.args(op)
    em.line(f"{em.result(op, 0)}, {em.result(op, 1)} = _w.match_all(c, {em.mask}, {member}, {value}, {em.loc(op)})")


@rule(simt.ActiveMaskOp)
def emit_active_mask(em: KernelEmitter, op: Any) -> None:
    em.line(f"{em.result(op)} = _w.active_mask(c, {em.mask})")


@rule(simt.ReduxOp)
def emit_redux(em: KernelEmitter, op: Any) -> None:
    member, value = em.args(op)
    em.line(f"{em.result(op)} = _w.redux(c, {em.mask}, {member}, {value}, {_string(op, 'kind')!r}, {em.loc(op)})")


@rule(simt.ElectOp)
def emit_elect(em: KernelEmitter, op: Any) -> None:
    em.line(f"{em.result(op, 0)}, {em.result(op, 1)} = _w.elect(c, {em.mask}, {em.args(op)[0]}, {em.loc(op)})")


# Atomics ----------------------------------------------------------------------------------------------
@rule(simt.AtomicRmwOp)
def emit_atomic_rmw(em: KernelEmitter, op: Any) -> None:
    ptr, value = em.args(op)
    used = bool(list(op.results[0].uses))
    em.line(f"{em.result(op)} = _a.rmw(c, {em.mask}, {ptr}, {value}, {_string(op, 'kind')!r}, {em.loc(op)}, {used})")
    _ordering_point(em, op)


@rule(simt.AtomicCmpxchgOp)
def emit_atomic_cmpxchg(em: KernelEmitter, op: Any) -> None:
    ptr, expected, desired = em.args(op)
    em.line(f"{em.result(op, 0)}, {em.result(op, 1)} = _a.cmpxchg(c, {em.mask}, {ptr}, {expected}, {desired}, "
            f"{em.loc(op)})")
    _ordering_point(em, op, "success_ordering")


@rule(simt.AtomicLoadOp)
def emit_atomic_load(em: KernelEmitter, op: Any) -> None:
    em.line(f"{em.result(op)} = _a.atomic_load(c, {em.mask}, {em.args(op)[0]}, {em.loc(op)})")
    _ordering_point(em, op)


@rule(simt.AtomicStoreOp)
def emit_atomic_store(em: KernelEmitter, op: Any) -> None:
    ptr, value = em.args(op)
    em.line(f"_a.atomic_store(c, {em.mask}, {ptr}, {value}, {em.loc(op)})")
    _ordering_point(em, op)


# Debugging --------------------------------------------------------------------------------------------
@rule(simt.TrapOp)
def emit_trap(em: KernelEmitter, op: Any) -> None:
    em.line(f"_d.trap(c, {em.mask}, {em.loc(op)})")


@rule(simt.AssertOp)
def emit_assert(em: KernelEmitter, op: Any) -> None:
    em.line(f"_d.assert_(c, {em.mask}, {em.args(op)[0]}, {_string(op, 'message')!r}, {em.loc(op)})")


@rule(gpu.PrintfOp, simt.PrintfOp)
def emit_printf(em: KernelEmitter, op: Any) -> None:
    fmt = ir.StringAttr(op.attributes["format"]).value
    names = em.args(op)
    if is_op(op, simt.PrintfOp):
        # simt.printf groups its operands by type; `order` gives the format order back.
        groups = {kind: iter([n for n, v in zip(names, op.operands) if str(v.type) == t])
                  for kind, t in (("i", "i32"), ("l", "i64"), ("d", "f64"))}
        names = [next(groups[kind]) for kind in _string(op, "order")]
    call = f"_d.printf(c, {em.mask}, {fmt!r}, {em.loc(op)}{''.join(f', {a}' for a in names)})"
    em.line(f"{em.result(op)} = {call}" if is_op(op, simt.PrintfOp) else call)
