"""What one abstract walk of a simt kernel finds (kernel_walk.py fills it; shared_races.py and convergence.py
read it): the abstract values, the shared-memory accesses, barriers and warp collectives with their path
conditions, and the helpers that pick a module's kernels and a block's threads.

Abstract values: an `Affine` for integers the walk can follow; a `Cond` for i1 values; otherwise one of
`UNIFORM` (same for the whole block), `WARP_UNIFORM` (same within each warp) or `VARYING`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Union

import numpy as np
from mlir import ir
from mlir.dialects import gpu

from oxide.analysis.affine import Affine, All, AnyOf, Cmp, Cond, Const, Not, Opaque, cond_thread_dependent
from oxide.dialects import simt
from oxide.ir.rules import OpMap, is_op

# The ops every thread of a block waits at, each named as the user wrote it: a grid barrier and the cluster
# barrier's wait also join all of the block's threads (and order their shared-memory accesses), so the race
# analysis splits intervals at them and the convergence check wants every thread of the block to reach them.
BLOCK_BARRIERS = OpMap({simt.SyncThreadsOp: "`sync_threads()`", simt.GridSyncOp: "`grid::sync()`",
                        simt.ClusterWaitOp: "the cluster barrier (`cluster_sync()`)"})

UNIFORM = "uniform"
WARP_UNIFORM = "warp-uniform"
VARYING = "varying"
AbsVal = Union[Affine, Cmp, Not, All, AnyOf, Const, Opaque, str]


@dataclass(frozen=True)
class Symbol:
    """A value that is the same for every thread of the block at one point: `values` lists the ones it can
    take when known (a loop counter over constant bounds); `loops` are the loops it was created in."""

    name: str
    describe: str
    values: tuple[int, ...] | None
    loops: tuple[int, ...]


@dataclass(frozen=True)
class SharedAccess:
    """One read or write of a shared array element by every thread that reaches it."""

    array: Any
    array_name: str
    write: bool
    index: Affine | None
    guard: Cond
    location: ir.Location
    interval: int
    warp_interval: int
    loops: tuple[int, ...]


@dataclass(frozen=True)
class GuardedEvent:
    """A barrier or warp collective and the path condition it runs under."""

    op_name: str
    location: ir.Location
    guard: Cond
    full_mask: bool = False


@dataclass
class KernelFacts:
    """What the walk found in one kernel."""

    name: str
    block: tuple[int, int, int] | None
    symbols: dict[str, Symbol] = field(default_factory=dict)
    accesses: list[SharedAccess] = field(default_factory=list)
    barriers: list[GuardedEvent] = field(default_factory=list)
    warp_ops: list[GuardedEvent] = field(default_factory=list)
    # (interval before a loop or at a loop's end, interval at the loop's head, loop id): concurrent pairs.
    links: list[tuple[int, int, int]] = field(default_factory=list)
    barrier_free_loops: set[int] = field(default_factory=set)


def is_uniform(value: AbsVal) -> bool:
    """Whether the value is the same for every thread of the block."""
    if isinstance(value, Affine):
        return not value.thread_dependent
    if isinstance(value, str):
        return value == UNIFORM
    return not cond_thread_dependent(value)


def value_rank(value: AbsVal) -> int:
    """2 for a block-uniform value, 1 for a warp-uniform one, 0 for one that varies by thread."""
    if is_uniform(value):
        return 2
    if value == WARP_UNIFORM or (isinstance(value, Opaque) and value.warp_uniform):
        return 1
    return 0


def kernel_block(func: Any) -> tuple[int, int, int] | None:
    """The exact block shape a kernel's `simt.contract` declares, if any."""
    if "simt.contract" not in func.attributes:
        return None
    contract = ir.DictAttr(func.attributes["simt.contract"])
    if "block" not in contract:
        return None
    dims = [int(x) for x in ir.DenseI32ArrayAttr(contract["block"])]
    return (dims + [1, 1, 1])[:3]  # type: ignore[return-value]


def kernels(module: Any) -> Iterable[Any]:
    """Every `gpu.func ... kernel` in a module."""
    for op in module.regions[0].blocks[0].operations:
        if is_op(op, gpu.GPUModuleOp):
            for inner in op.regions[0].blocks[0].operations:
                if is_op(inner, gpu.GPUFuncOp) and "gpu.kernel" in inner.attributes:
                    yield inner


def lowered_from_tile(func: Any) -> bool:
    """Whether a kernel is the simt form of a tile kernel (it keeps `tile.warps`). Its shared memory,
    barriers and bounds are the tile lowering's, not the user's: the user-facing SIMT analyses skip it (the
    lowering's own tests run its kernels under the emulator's race checker and compute-sanitizer)."""
    return func is not None and "tile.warps" in func.attributes


def thread_grid(block: tuple[int, int, int]) -> dict[str, np.ndarray]:
    """Every thread of a block: its coordinates, flat, in linear-id order."""
    z, y, x = np.meshgrid(np.arange(block[2]), np.arange(block[1]), np.arange(block[0]), indexing="ij")
    return {"tid.x": x.ravel().astype(np.int64), "tid.y": y.ravel().astype(np.int64),
            "tid.z": z.ravel().astype(np.int64)}

