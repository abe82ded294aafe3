"""simt TMA ops (sm_90): bulk tensor copies between global memory, described by a tensor map, and shared
memory, their completion groups, and the tensor-map prefetch.

A tensor map (`!simt.tensor_map`) is the 128-byte descriptor the host encodes (`cuTensorMapEncodeTiled`):
the global tensor's address, dims and strides, the box one copy moves, the swizzle and the out-of-bounds
fill. A kernel receives it by value as a grid-constant parameter, and the copy instructions take its generic
address. The box's origin is given by one i32 coordinate per dimension, innermost first (PTX's order); the
tensor's rank is the coordinate count, 1 to 5.

A load (`simt.tma_load`) completes on an mbarrier: the hardware adds the box's bytes to the barrier's
transaction count as they land, so the waiting threads expect them with `expect_tx`. A store
(`simt.tma_store`) completes through bulk groups: `simt.bulk_commit_group` closes the group of the stores
this thread issued, `simt.bulk_wait_group` waits until at most `pending` groups are still running (`until =
"read"`: until their shared-memory sources have been read, so they can be overwritten).

Verification: IRDL checks the operand kinds (shared-memory pointers are `!simt.ptr<_, 3>`, coordinates i32,
the multicast mask i16); the Python verifiers check the rank and the group count. The chip is checked where
the ops lower: every op needs sm_90, multicast sm_90a.
"""

from __future__ import annotations

from oxide.dialects.simt.dialect import DIALECT
from oxide.dialects.simt.types import PtrType
from oxide.ir.constraints import INTEGER_ATTR, AnyType, BaseOf, Is, Parametric, one_of
from oxide.ir.declare import Attr, Op, OptOperand, Operand, TypeDef, VarOperand, VerifyError

MAX_RANK = 5
# A tensor map (CUDA's CUtensorMap) is 128 opaque bytes, 64-byte aligned.
TENSOR_MAP_BYTES = 128
TENSOR_MAP_ALIGN = 64
# The NVVM op takes the group count as an i32.
MAX_PENDING_GROUPS = (1 << 31) - 1
WAIT_UNTIL = ("complete", "read")

_SHARED_PTR = Parametric(PtrType, AnyType(), Is("3"))
_COORD = Is("i32")


@DIALECT.type
class TensorMapType(TypeDef):
    """A TMA tensor map (`*const TmaDescriptor`): the 128-byte descriptor of a global tensor, its box,
    swizzle and out-of-bounds fill. As a kernel parameter it is passed by value, 64-byte aligned and
    grid-constant; its value is the descriptor's generic address."""

    mnemonic = "tensor_map"


def _check_rank(coordinates: list) -> None:
    if not 1 <= len(coordinates) <= MAX_RANK:
        raise VerifyError(f"a TMA copy takes 1 to {MAX_RANK} coordinates (one per dimension of the tensor map), "
                          f"got {len(coordinates)}")


@DIALECT.op
class TmaLoadOp(Op):
    """`cp_async_bulk_tensor_<d>d_g2s(dst, tensor_map, c0.., barrier)`: copy the box at `coordinates` of the
    tensor `tensor_map` describes into shared memory at `dst`, completing `barrier`'s transaction count by the
    box's bytes. With `multicast_mask` (`_multicast`, clusters) the box lands at the same offset in the shared
    memory of every block of the cluster whose bit is set, each completing its own barrier.

    PTX `cp.async.bulk.tensor.<d>d.shared::cluster.global.tile.mbarrier::complete_tx::bytes[.multicast::cluster]`
    (sm_90; multicast sm_90a). `dst` must be 128-byte aligned and `barrier` an initialised mbarrier.
    """

    mnemonic = "tma_load"
    dst = Operand(_SHARED_PTR, "where the box lands, in shared memory (128-byte aligned)")
    tensor_map = Operand(BaseOf(TensorMapType), "the tensor map")
    coordinates = VarOperand(_COORD, "the box's origin, one i32 per dimension, innermost first")
    barrier = Operand(_SHARED_PTR, "the mbarrier whose transaction count the copy completes")
    multicast_mask = OptOperand(Is("i16"), "the blocks of the cluster that receive the box, one bit per block rank")

    def verify_(self) -> None:
        _check_rank(self.coordinates)


@DIALECT.op
class TmaStoreOp(Op):
    """`cp_async_bulk_tensor_<d>d_s2g(src, tensor_map, c0..)`: copy the box at `coordinates` from shared memory
    at `src` to the tensor `tensor_map` describes (out-of-bounds elements are not written). Completes through
    bulk groups (`simt.bulk_commit_group`, `simt.bulk_wait_group`).

    PTX `cp.async.bulk.tensor.<d>d.global.shared::cta.tile.bulk_group` (sm_90). Shared-memory writes of the
    box must be made visible to the async proxy first (`fence.proxy.async.shared::cta`).
    """

    mnemonic = "tma_store"
    tensor_map = Operand(BaseOf(TensorMapType), "the tensor map")
    src = Operand(_SHARED_PTR, "the box in shared memory (128-byte aligned)")
    coordinates = VarOperand(_COORD, "the box's origin, one i32 per dimension, innermost first")

    def verify_(self) -> None:
        _check_rank(self.coordinates)


@DIALECT.op
class BulkCommitGroupOp(Op):
    """`cp_async_bulk_commit_group()`: close the bulk group of the bulk copies (TMA stores) this thread
    issued since the last commit.

    PTX `cp.async.bulk.commit_group` (sm_90).
    """

    mnemonic = "bulk_commit_group"


@DIALECT.op
class BulkWaitGroupOp(Op):
    """`cp_async_bulk_wait_group(n)` / `cp_async_bulk_wait_group_read(n)`: wait until at most `pending` of this
    thread's bulk groups are incomplete (`until = "complete"`), or have not yet finished reading their
    shared-memory sources (`until = "read"`: the sources may then be overwritten, the writes may be in flight).

    PTX `cp.async.bulk.wait_group[.read] N` (sm_90).
    """

    mnemonic = "bulk_wait_group"
    pending = Attr(INTEGER_ATTR, "how many of the most recent groups may still be pending")
    until = Attr(one_of(*WAIT_UNTIL), "complete: the groups are done; read: their sources have been read")

    def verify_(self) -> None:
        pending = self.pending
        if isinstance(pending, bool) or not isinstance(pending, int) or not 0 <= pending <= MAX_PENDING_GROUPS:
            raise VerifyError(f"the pending group count must be 0..{MAX_PENDING_GROUPS}, got {pending}")


@DIALECT.op
class TmaPrefetchOp(Op):
    """`prefetch_tensormap(tensor_map)`: bring the tensor map into the cache ahead of the copies that read it.

    PTX `prefetch.tensormap` (sm_90); `prefetch.param.tensormap` on a grid-constant kernel parameter.
    """

    mnemonic = "tma_prefetch"
    tensor_map = Operand(BaseOf(TensorMapType), "the tensor map")
