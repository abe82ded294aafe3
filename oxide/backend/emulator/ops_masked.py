"""Emulator rules for simt's masked vector accesses: lane k of the run is element `ptr + k * stride`, accessed
only on the threads (of the current mask) where k < count; the others read 0 and never touch memory, so
their addresses may lie outside the buffer as on the GPU. A vector is one row of N per thread. A guarded
access moves its N contiguous elements on the threads where its predicate holds, and reads 0 elsewhere."""

from __future__ import annotations

from typing import Any

from oxide.backend.emulator.emitter import KernelEmitter
from oxide.backend.emulator.rules import rule
from oxide.dialects import simt


@rule(simt.MaskedLoadOp)
def emit_masked_load(em: KernelEmitter, op: Any) -> None:
    ptr, stride, count = em.args(op)
    result = em.result(op)
    em.line(f"{result} = []")
    em.line(f"for k in range({op.results[0].type.shape[0]}):")
    em.line(f"    m_k = {em.mask} & (c.broadcast({count}) > k)")
    em.line(f"    x_k = c.broadcast(_mem.ptr_load(c, m_k, _mem.Ptr({ptr}.buffer, {ptr}.offset + k * {stride}), "
            f"{em.loc(op)}))")
    em.line(f"    {result}.append(np.where(m_k, x_k, np.zeros_like(x_k)))")
    em.line(f"{result} = np.stack({result}, axis=1)")


@rule(simt.MaskedStoreOp)
def emit_masked_store(em: KernelEmitter, op: Any) -> None:
    ptr, stride, count, value = em.args(op)
    em.line(f"for k in range({op.operands[3].type.shape[0]}):")
    em.line(f"    _mem.ptr_store(c, {em.mask} & (c.broadcast({count}) > k), _mem.Ptr({ptr}.buffer, {ptr}.offset + k * "
            f"{stride}), {value}[:, k], {em.loc(op)})")


@rule(simt.GuardedLoadOp)
def emit_guarded_load(em: KernelEmitter, op: Any) -> None:
    ptr, pred = em.args(op)
    result = em.result(op)
    em.line(f"m_g = {em.mask} & c.broadcast({pred})")
    em.line(f"{result} = []")
    em.line(f"for k in range({op.results[0].type.shape[0]}):")
    em.line(f"    x_k = c.broadcast(_mem.ptr_load(c, m_g, _mem.Ptr({ptr}.buffer, {ptr}.offset + k), {em.loc(op)}))")
    em.line(f"    {result}.append(np.where(m_g, x_k, np.zeros_like(x_k)))")
    em.line(f"{result} = np.stack({result}, axis=1)")


@rule(simt.GuardedStoreOp)
def emit_guarded_store(em: KernelEmitter, op: Any) -> None:
    ptr, pred, value = em.args(op)
    em.line(f"m_g = {em.mask} & c.broadcast({pred})")
    em.line(f"for k in range({op.operands[2].type.shape[0]}):")
    em.line(f"    _mem.ptr_store(c, m_g, _mem.Ptr({ptr}.buffer, {ptr}.offset + k), {value}[:, k], {em.loc(op)})")
