"""Emulator rules for the Hopper mbarrier, async-proxy fence and TMA ops (runtime side:
oxide.runtime.emulator.hopper). Every one of them marks its kernel for the scheduled mode (scheduling.py):
their operands live in a block's byte-addressed shared window, which a block has when it runs alone."""

from __future__ import annotations

from typing import Any

from mlir import ir

from oxide.backend.emulator.emitter import KernelEmitter
from oxide.backend.emulator.rules import rule
from oxide.backend.emulator.scheduling import blocking
from oxide.dialects import simt
from oxide.ir.rules import is_op


def _wait(em: KernelEmitter, op: Any, call: str) -> None:
    """A blocking wait: the scheduled function suspends the warp in it; the lock-step one never runs it."""
    if em.scheduled:
        em.line(f"{em.result(op) if op.results else '_'} = yield from {call}")
    else:
        em.line(f"_h.not_in_lockstep(c, {em.loc(op)})")
        if op.results:
            em.line(f"{em.result(op)} = None")


@rule(blocking(simt.MbarrierInitOp))
def emit_mbarrier_init(em: KernelEmitter, op: Any) -> None:
    bar, count = em.args(op)
    em.line(f"_h.init(c, {em.mask}, {bar}, {count}, {em.loc(op)})")


@rule(blocking(simt.MbarrierArriveOp), blocking(simt.MbarrierArriveNoCompleteOp))
def emit_mbarrier_arrive(em: KernelEmitter, op: Any) -> None:
    bar, *count = em.args(op)
    complete = not is_op(op, simt.MbarrierArriveNoCompleteOp)
    em.line(f"{em.result(op)} = _h.arrive(c, {em.mask}, {bar}, {count[0] if count else None}, {em.loc(op)}, "
            f"complete={complete})")


@rule(blocking(simt.MbarrierArriveExpectTxOp))
def emit_mbarrier_arrive_expect_tx(em: KernelEmitter, op: Any) -> None:
    bar, tx, *count = em.args(op)
    em.line(f"{em.result(op)} = _h.arrive(c, {em.mask}, {bar}, {count[0] if count else None}, {em.loc(op)}, "
            f"tx={tx})")


@rule(blocking(simt.MbarrierExpectTxOp))
def emit_mbarrier_expect_tx(em: KernelEmitter, op: Any) -> None:
    bar, tx = em.args(op)
    em.line(f"_h.expect_tx(c, {em.mask}, {bar}, {tx}, {em.loc(op)})")


@rule(blocking(simt.MbarrierTestWaitOp), blocking(simt.MbarrierTryWaitOp), blocking(simt.MbarrierWaitOp))
def emit_mbarrier_wait(em: KernelEmitter, op: Any) -> None:
    bar, token = em.args(op)
    _wait(em, op, f"_h.wait(c, {em.mask}, {bar}, {em.loc(op)}, token={token})")


@rule(blocking(simt.MbarrierTryWaitParityOp), blocking(simt.MbarrierWaitParityOp))
def emit_mbarrier_wait_parity(em: KernelEmitter, op: Any) -> None:
    bar, parity = em.args(op)
    _wait(em, op, f"_h.wait(c, {em.mask}, {bar}, {em.loc(op)}, parity={parity})")


@rule(blocking(simt.MbarrierInvalOp))
def emit_mbarrier_inval(em: KernelEmitter, op: Any) -> None:
    em.line(f"_h.inval(c, {em.mask}, {em.args(op)[0]}, {em.loc(op)})")


@rule(blocking(simt.MbarrierArriveClusterOp))
def emit_mbarrier_arrive_cluster(em: KernelEmitter, op: Any) -> None:
    em.line(f"_h.arrive_cluster(c, {em.mask}, {em.args(op)[0]}, {em.loc(op)})")


@rule(blocking(simt.FenceProxyAsyncOp), blocking(simt.FenceMbarrierInitOp))
def emit_async_fence(em: KernelEmitter, op: Any) -> None:
    em.line("_h.fence(c)")


def _segments(op: Any) -> list[range]:
    """The operand index ranges of an op with variadic operands (its operandSegmentSizes)."""
    groups, start = [], 0
    for size in ir.DenseI32ArrayAttr(op.attributes["operandSegmentSizes"]):
        groups.append(range(start, start + size))
        start += size
    return groups


@rule(blocking(simt.TmaLoadOp))
def emit_tma_load(em: KernelEmitter, op: Any) -> None:
    args = em.args(op)
    dst, tmap, coords, bar, mcast = ([args[k] for k in group] for group in _segments(op))
    multicast = f", multicast={mcast[0]}" if mcast else ""
    em.line(f"_h.tma_load(c, {em.mask}, {dst[0]}, {tmap[0]}, [{', '.join(coords)}], {bar[0]}, {em.loc(op)}"
            f"{multicast})")


@rule(blocking(simt.TmaStoreOp))
def emit_tma_store(em: KernelEmitter, op: Any) -> None:
    tmap, src, *coords = em.args(op)
    em.line(f"_h.tma_store(c, {em.mask}, {tmap}, {src}, [{', '.join(coords)}], {em.loc(op)})")


@rule(blocking(simt.BulkCommitGroupOp), blocking(simt.BulkWaitGroupOp), blocking(simt.TmaPrefetchOp))
def emit_bulk_group(em: KernelEmitter, op: Any) -> None:
    # An emulated TMA store is complete when it returns, so a bulk group has nothing left to wait for; a
    # prefetch has no effect on what the kernel computes.
    em.line("pass")
