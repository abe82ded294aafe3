"""Which kernels need scheduled execution (one coroutine per warp, oxide.runtime.emulator.schedule): those
that use an op that blocks a warp until other warps act (an mbarrier wait, a cluster or grid sync).
sync_threads alone does not: lock step runs it faster.

The rules of blocking ops register them here (`blocking(OpClass)`); `blocking_ops_in` finds them in a
kernel, and `grid_syncs` says whether the whole grid must be resident at once.
"""

from __future__ import annotations

from typing import Any

from oxide.ir.rules import op_name_of

_BLOCKING: dict[str, bool] = {}  # op name -> whether it syncs the whole grid


def blocking(op_class: type, *, grid: bool = False) -> type:
    """Register `op_class` as an op that blocks a warp on other warps (`grid`: on every block of the grid)."""
    _BLOCKING[op_class.OPERATION_NAME] = grid
    return op_class


def _walk(op: Any) -> Any:
    for region in op.regions:
        for block in region.blocks:
            for inner in block.operations:
                yield inner.operation
                yield from _walk(inner.operation)


def blocking_ops_in(func: Any) -> list[Any]:
    """The blocking ops of a kernel, in program order."""
    return [op for op in _walk(func) if op_name_of(op) in _BLOCKING]


def grid_syncs(func: Any) -> bool:
    """Whether the kernel syncs the whole grid (so every block must be resident together)."""
    return any(_BLOCKING[op_name_of(op)] for op in blocking_ops_in(func))
