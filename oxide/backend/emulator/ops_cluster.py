"""Emulator rules for the thread-block cluster barrier and the grid barrier (runtime side:
oxide.runtime.emulator.clusters and schedule)."""

from __future__ import annotations

from typing import Any

from mlir import ir

from oxide.backend.emulator.emitter import KernelEmitter
from oxide.backend.emulator.rules import rule
from oxide.backend.emulator.scheduling import blocking
from oxide.dialects import simt
from oxide.ir.rules import LoweringError


def _flag(op: Any, name: str) -> bool:
    return ir.BoolAttr(op.attributes[name]).value


@rule(blocking(simt.ClusterArriveOp))
def emit_cluster_arrive(em: KernelEmitter, op: Any) -> None:
    em.line(f"_cl.arrive(c, {em.mask}, {_flag(op, 'relaxed')}, {em.loc(op)})")


@rule(blocking(simt.ClusterWaitOp))
def emit_cluster_wait(em: KernelEmitter, op: Any) -> None:
    if em.scheduled:
        em.line(f"yield from _cl.wait(c, {em.mask}, {em.loc(op)})")
    else:
        em.line(f"_h.not_in_lockstep(c, {em.loc(op)})")


@rule(blocking(simt.GridSyncOp, grid=True))
def emit_grid_sync(em: KernelEmitter, op: Any) -> None:
    if "simt.cooperative" not in em.func.attributes:
        raise LoweringError("grid_sync in a kernel that is not a cooperative launch: add #[cooperative_launch] to "
                            "the kernel, so that every block of its grid is resident at once", op)
    # The grid barrier's workspace (a hidden parameter) is the GPU's implementation; the scheduler releases
    # the barrier when every warp of the grid is at it.
    if em.scheduled:
        em.line(f"yield _s.GridSync({em.mask}, {em.loc(op)})")
    else:
        em.line(f"_h.not_in_lockstep(c, {em.loc(op)})")
