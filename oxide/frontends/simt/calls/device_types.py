"""cuda_device types beyond the core set: the mbarrier object `Barrier` (a u64 in shared memory, declared
as `static mut BAR: Barrier = Barrier::UNINIT`), the TMA `TmaDescriptor`, `ConstantMemory<T>`
(constant_memory.py), `ManagedBarrier<S, K>` and `BarrierToken` (managed_barrier.py), `CuSimd<T, N>` (cusimd.py), the `vector` types (vectors.py), `MaybeUninit<T>` and uninhabited types (maybe_uninit.py)."""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from oxide.dialects.simt.tma import TensorMapType
from oxide.frontends.syntax import ast
from oxide.frontends.simt import types as T
from oxide.frontends.simt.calls.constant_memory import constant_memory_type
from oxide.frontends.simt.calls.context import Emitter
from oxide.frontends.simt.calls.cusimd import cusimd_type
from oxide.frontends.simt.calls.managed_barrier import managed_barrier_type
from oxide.frontends.simt.calls.maybe_uninit import MaybeUninitTy, uninhabited_type
from oxide.frontends.simt.calls.vectors import vector_type


@dataclass(frozen=True)
class BarrierTy(T.Shared):
    """`Barrier`: one 8-byte-aligned u64 in shared memory that the mbarrier instructions address."""

    def rust(self) -> str:
        return "Barrier"


class TmaDescriptorTy(T.Int):
    """`TmaDescriptor`: the opaque 128-byte tensor map a TMA copy reads; only ever behind a pointer or a
    reference, which is a TensorMapTy."""

    def rust(self) -> str:
        return "TmaDescriptor"


@dataclass(frozen=True)
class TensorMapTy(T.Ty):
    """`*const TmaDescriptor` / `&TmaDescriptor`: a tensor map (`!simt.tensor_map`). A kernel receives the
    128-byte descriptor itself as a grid-constant parameter; the TMA copies take its address."""

    def mlir(self) -> ir.Type:
        return TensorMapType.get()

    def rust(self) -> str:
        return "*const TmaDescriptor"


def device_type(em: Emitter, t: ast.PathTy) -> T.Ty | None:
    """The semantic type of a cuda_device type name this module knows, or None."""
    if t.name == "Barrier" and not t.args:
        return BarrierTy(T.PRIMITIVES["u64"], 1, 8)
    if t.name == "TmaDescriptor" and not t.args:
        return TmaDescriptorTy(8, False)
    if t.name == "NonNull" and len(t.args) == 1:
        # A pointer that is never null (the niche only matters for layouts): a generic `*mut T` here.
        return T.Ptr(em.scalar_element(t.args[0], "a NonNull"), True, 0)
    if t.name == "MaybeUninit" and len(t.args) == 1:
        return MaybeUninitTy(em.resolve_type(t.args[0]))
    return (constant_memory_type(em, t) or cusimd_type(em, t) or vector_type(t) or uninhabited_type(em, t)
            or managed_barrier_type(em, t))
