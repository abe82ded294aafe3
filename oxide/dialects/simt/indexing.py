"""simt indexing ops: launch coordinates, special registers, and thread-index witnesses.

The launch coordinates lower to `%tid`, `%ctaid`, `%ntid` and `%nctaid`; `blockDim` folds to a constant when
the kernel's launch contract fixes the block. A witness lowers to its value and a validity bit;
`simt.index_value` of a runtime 2-D witness is a verifier error.
"""

from __future__ import annotations

from oxide.dialects.simt.dialect import DIALECT
from oxide.dialects.simt.types import DimAttr, ThreadIndexType, check_index_space
from oxide.ir.constraints import I1, INDEX, AnyOf, BaseOf, Is, Parametric, one_of
from oxide.ir.declare import Attr, Op, Operand, Result, VerifyError

I32 = Is("i32")


class _DimQuery(Op):
    """A per-axis launch coordinate, `u32` as in CUDA (base of thread_id, block_id, block_dim, grid_dim)."""

    dim = Attr(BaseOf(DimAttr), "which axis")
    result = Result(I32)


@DIALECT.op
class ThreadIdOp(_DimQuery):
    """`threadIdx_<dim>()`: this thread's index inside its block."""

    mnemonic = "thread_id"


@DIALECT.op
class BlockIdOp(_DimQuery):
    """`blockIdx_<dim>()`: this block's index inside the grid."""

    mnemonic = "block_id"


@DIALECT.op
class BlockDimOp(_DimQuery):
    """`blockDim_<dim>()`: threads per block along the axis."""

    mnemonic = "block_dim"


@DIALECT.op
class GridDimOp(_DimQuery):
    """`gridDim_<dim>()`: blocks per grid along the axis."""

    mnemonic = "grid_dim"


# Special registers and the integer type each one reads as.
SPECIAL_REGISTERS = {
    "laneid": "i32", "warpid": "i32", "nwarpid": "i32", "smid": "i32", "nsmid": "i32", "gridid": "i64",
    "lanemask_eq": "i32", "lanemask_lt": "i32", "lanemask_le": "i32", "lanemask_gt": "i32", "lanemask_ge": "i32",
    "clock": "i32", "clock64": "i64", "globaltimer": "i64", "dynamic_smem_size": "i32", "total_smem_size": "i32",
    # Thread-block clusters (sm_90): this block's position in its cluster, the cluster's shape, the cluster's
    # position in the grid and the grid's shape in clusters.
    **{f"cluster_{reg}_{axis}": "i32" for reg in ("ctaid", "nctaid") for axis in "xyz"},
    **{f"{reg}_{axis}": "i32" for reg in ("clusterid", "nclusterid") for axis in "xyz"},
    "cluster_ctarank": "i32", "cluster_nctarank": "i32",
}


@DIALECT.op
class SpecialRegOp(Op):
    """Read a PTX special register: lane and warp ids, lane masks, SM ids, clocks, the global timer and
    shared-memory sizes (`warp::lane_id()`, `clock64()`, `globaltimer()`, ...).

    The result width (i32 or i64) is verified per register.
    """

    mnemonic = "special_reg"
    reg = Attr(one_of(*SPECIAL_REGISTERS), "register name")
    result = Result(AnyOf(Is("i32"), Is("i64")))

    def verify_(self) -> None:
        expected = SPECIAL_REGISTERS[self.reg]
        if str(self.result.type) != expected:
            raise VerifyError(f"%{self.reg} reads as {expected}, not {self.result.type}")


class _MintOp(Op):
    """Base of the ops that mint a witness from hardware registers."""

    space_kind: str = ""

    def verify_(self) -> None:
        space = check_index_space(ThreadIndexType.parameters_of(self.result.type)[0])
        kind = "2d" if space.startswith("2d:") else space
        if kind != self.space_kind:
            raise VerifyError(f"mints a \"{self.space_kind}\" witness, but the result type says \"{space}\"")


@DIALECT.op
class Index1DOp(_MintOp):
    """`thread::index_1d()`: blockIdx.x * blockDim.x + threadIdx.x as a witness. Unique only when the
    launch is 1-D: valid if the kernel's contract proves `domain = 1`, else checked on the device.

    Lowers to `ctaid.x * ntid.x + tid.x` in 64 bits (`mul.wide`); without `domain = 1` the validity check on
    the device is that `ntid.y/z` and `nctaid.y/z` are all 1.
    """

    mnemonic = "index_1d"
    space_kind = "1d"
    result = Result(Parametric(ThreadIndexType, Is('"1d"')))


@DIALECT.op
class Index1DU32Op(_MintOp):
    """`thread::index_1d_u32(lc)`: the 1-D witness computed in 32-bit arithmetic; needs a launch contract
    with `domain = 1, coordinates = u32` on the kernel (the host proves grid x block <= 2^32).

    Lowers to 32-bit arithmetic (`mad.lo.s32`); without that contract the lowering is a located error.
    """

    mnemonic = "index_1d_u32"
    space_kind = "1d"
    result = Result(Parametric(ThreadIndexType, Is('"1d"')))


@DIALECT.op
class Index2DOp(_MintOp):
    """`thread::index_2d::<S>()`: row * S + col with row/col from the y/x coordinates; invalid when
    col >= S, or when a z extent is active and no contract proves `domain <= 2`."""

    mnemonic = "index_2d"
    space_kind = "2d"
    result = Result(BaseOf(ThreadIndexType))


@DIALECT.op
class Index2DRuntimeOp(_MintOp):
    """`thread::index_2d_runtime(&slice)`: (row, col) resolved later against the addressed slice's width."""

    mnemonic = "index_2d_runtime"
    space_kind = "runtime_2d"
    result = Result(Parametric(ThreadIndexType, Is('"runtime_2d"')))


@DIALECT.op
class WarpIndexOp(_MintOp):
    """`thread::warp_index()`: the global warp id, valid only on lane 0 of a 1-D launch (partial warps
    counted correctly: blockIdx.x * ceil(blockDim.x / 32) + threadIdx.x / 32)."""

    mnemonic = "warp_index"
    space_kind = "warp"
    result = Result(Parametric(ThreadIndexType, Is('"warp"')))


@DIALECT.op
class IndexValueOp(Op):
    """`idx.get()`: the flat index of a witness (not for runtime 2-D witnesses, which have no flat value)."""

    mnemonic = "index_value"
    witness = Operand(BaseOf(ThreadIndexType))
    result = Result(INDEX)

    def verify_(self) -> None:
        if str(ThreadIndexType.parameters_of(self.witness.type)[0]) == '"runtime_2d"':
            raise VerifyError("a runtime 2-D witness has no flat value; use simt.index_row / simt.index_col")


@DIALECT.op
class IndexValidOp(Op):
    """`idx.is_valid()`: whether the witness is valid for this launch."""

    mnemonic = "index_valid"
    witness = Operand(BaseOf(ThreadIndexType))
    result = Result(I1)


@DIALECT.op
class IndexRowOp(Op):
    """`idx.row()` of a runtime 2-D witness."""

    mnemonic = "index_row"
    witness = Operand(Parametric(ThreadIndexType, Is('"runtime_2d"')))
    result = Result(INDEX)


@DIALECT.op
class IndexColOp(Op):
    """`idx.col()` of a runtime 2-D witness."""

    mnemonic = "index_col"
    witness = Operand(Parametric(ThreadIndexType, Is('"runtime_2d"')))
    result = Result(INDEX)
