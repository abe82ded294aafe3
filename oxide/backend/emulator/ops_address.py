"""Emulator rules for pointers as integers and address spaces: `simt.ptr_to_int`, `simt.int_to_ptr`,
`simt.from_generic` and `simt.map_shared_rank` (runtime side: oxide.runtime.emulator.addresses)."""

from __future__ import annotations

from typing import Any

from oxide.backend.emulator.emitter import KernelEmitter, element_type, np_type
from oxide.backend.emulator.rules import rule
from oxide.backend.emulator.scheduling import blocking
from oxide.dialects import simt


@rule(simt.PtrToIntOp)
def emit_ptr_to_int(em: KernelEmitter, op: Any) -> None:
    em.line(f"{em.result(op)} = _ad.ptr_to_int(c, {em.args(op)[0]})")


@rule(simt.IntToPtrOp)
def emit_int_to_ptr(em: KernelEmitter, op: Any) -> None:
    dtype = np_type(element_type(op.results[0].type), op)
    em.line(f"{em.result(op)} = _ad.int_to_ptr(c, {em.mask}, {em.args(op)[0]}, {dtype}, {em.loc(op)})")


@rule(simt.FromGenericOp)
def emit_from_generic(em: KernelEmitter, op: Any) -> None:
    # An emulated pointer knows the memory it points into, whatever its address space says.
    em.line(f"{em.result(op)} = {em.args(op)[0]}")


# Distributed shared memory needs the cluster's windows, which exist only in the scheduled mode.
@rule(blocking(simt.MapSharedRankOp))
def emit_map_shared_rank(em: KernelEmitter, op: Any) -> None:
    ptr, rank = em.args(op)
    em.line(f"{em.result(op)} = _ad.map_shared_rank(c, {em.mask}, {ptr}, {rank}, {em.loc(op)})")
