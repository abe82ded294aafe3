"""Emulator rules for the simt cp.async ops (runtime side: oxide.runtime.emulator.cp_async). They mark their
kernel for the scheduled mode (scheduling.py): the copies' pending bytes live in a block's byte-addressed
shared window, which a block has when it runs alone."""

from __future__ import annotations

from typing import Any

from oxide.backend.emulator.emitter import KernelEmitter
from oxide.backend.emulator.rules import rule
from oxide.backend.emulator.scheduling import blocking
from oxide.dialects import simt
from oxide.ir.declare import python_value

# The runtime module is imported where it is used, so programs without cp.async keep their header.
_IMPORT = "from oxide.runtime.emulator import cp_async as _ca"


@rule(blocking(simt.CpAsyncOp))
def emit_cp_async(em: KernelEmitter, op: Any) -> None:
    dst, src, *size = em.args(op)
    nbytes = python_value(op.attributes["bytes"])
    em.line(_IMPORT)
    em.line(f"_ca.copy(c, {em.mask}, {dst}, {src}, {nbytes}, {size[0] if size else None}, {em.loc(op)})")


@rule(blocking(simt.CpAsyncCommitGroupOp))
def emit_cp_async_commit_group(em: KernelEmitter, op: Any) -> None:
    em.line(_IMPORT)
    em.line(f"_ca.commit(c, {em.mask})")


@rule(blocking(simt.CpAsyncWaitGroupOp))
def emit_cp_async_wait_group(em: KernelEmitter, op: Any) -> None:
    em.line(_IMPORT)
    em.line(f"_ca.wait(c, {em.mask}, {python_value(op.attributes['pending'])})")
