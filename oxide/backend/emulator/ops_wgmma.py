"""Emulator rules for the simt warpgroup ops (runtime side: oxide.runtime.emulator.wgmma): the MMA and the
matrix descriptor read the block's byte-addressed shared window, so both mark their kernel for the
scheduled mode (scheduling.py); fence, commit, wait and setmaxnreg only check that whole warpgroups run
them (the emulator computes an MMA when it is issued)."""

from __future__ import annotations

from typing import Any

from oxide.backend.emulator.emitter import KernelEmitter
from oxide.backend.emulator.rules import rule
from oxide.backend.emulator.scheduling import blocking
from oxide.dialects import simt
from oxide.ir.declare import python_value

# The runtime module is imported where it is used, so programs without wgmma keep their header.
_IMPORT = "from oxide.runtime.emulator import wgmma as _wg"
_MMA_FIELDS = ("n", "k", "input", "accumulator", "negate_a", "negate_b", "transpose_a", "transpose_b")


def _attr(op: Any, name: str) -> Any:
    return python_value(op.attributes[name])


@rule(blocking(simt.WgmmaMmaAsyncOp))
def emit_wgmma_mma_async(em: KernelEmitter, op: Any) -> None:
    *acc, desc_a, desc_b = em.args(op)
    fields = ", ".join(f"{name}={_attr(op, name)!r}" for name in _MMA_FIELDS)
    _emit_mma(em, op, "mma_async", fields, acc, f"{desc_a}, {desc_b}")


@rule(blocking(simt.WgmmaMmaAsyncRegAOp))
def emit_wgmma_mma_async_reg_a(em: KernelEmitter, op: Any) -> None:
    args = em.args(op)
    acc, a, desc_b = args[:len(op.results)], args[len(op.results):-1], args[-1]
    fields = ", ".join(f"{name}={_attr(op, name)!r}" for name in _MMA_FIELDS if name != "transpose_a")
    _emit_mma(em, op, "mma_async_reg_a", f"{fields}, transpose_a=False", acc, f"[{', '.join(a)}], {desc_b}")


def _emit_mma(em: KernelEmitter, op: Any, function: str, fields: str, acc: list[str], operands: str) -> None:
    """One wgmma issue: `_wg.<function>` on the accumulator and the A/B operands, in a scheduled kernel."""
    mma = f"_wg.Mma({fields}, accumulate={_attr(op, 'scale_d') == 'accumulate'})"
    targets = "".join(f"{em.result(op, i)}, " for i in range(len(op.results)))
    em.line(_IMPORT)
    if em.scheduled:
        em.line(f"{targets}= yield from _wg.{function}(c, {em.mask}, {mma}, [{', '.join(acc)}], {operands}, "
                f"{em.loc(op)})")
    else:
        # The lock-step function of a scheduled kernel: launch never runs it.
        em.line(f"_h.not_in_lockstep(c, {em.loc(op)})")
        em.line(f"{targets}= {tuple(None for _ in op.results)!r}")


@rule(blocking(simt.SmemDescOp))
def emit_smem_desc(em: KernelEmitter, op: Any) -> None:
    em.line(_IMPORT)
    em.line(f"{em.result(op)} = _wg.smem_desc(c, {em.mask}, {em.args(op)[0]}, {_attr(op, 'leading_byte_offset')}, "
            f"{_attr(op, 'stride_byte_offset')}, {_attr(op, 'swizzle')!r}, {_attr(op, 'base_offset')}, "
            f"{em.loc(op)})")


@rule(simt.WgmmaFenceOp, simt.WgmmaCommitGroupOp, simt.WgmmaWaitGroupOp, simt.SetMaxNRegOp)
def emit_warpgroup_sync(em: KernelEmitter, op: Any) -> None:
    # The MMA's result is complete when it is issued, so a fence orders nothing and a wait has nothing left
    # to wait for; setmaxnreg changes no value. What remains is the .sync.aligned rule.
    what = op.name.removeprefix("simt.")
    em.line(_IMPORT)
    em.line(f"_wg.sync_aligned(c, {em.mask}, {what!r}, {em.loc(op)})")
