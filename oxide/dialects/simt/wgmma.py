"""simt warpgroup ops (Hopper, sm_90a): warpgroup MMA (`wgmma.mma_async`) with its fence and commit/wait
groups, the shared-memory matrix descriptors wgmma reads its operands through, and `setmaxnreg`.

A warpgroup is four consecutive warps whose first warp index is a multiple of four; every wgmma op is
executed by all 128 threads of it together (`.sync.aligned`). An MMA is asynchronous: it is issued after a
`wgmma_fence`, batched into a group by `wgmma_commit_group`, and its accumulator may be read only after a
`wgmma_wait_group` has left fewer groups pending than were committed after it.

Verification follows the PTX ISA's rules for `wgmma.mma_async` with both operands in shared memory: the
shape m64nNk with N a multiple of 8 from 8 to 256 and K fixed by the input type (16 for f16/bf16, 8 for
tf32, 32 for e4m3/e5m2); an f32 accumulator of N/2 values per thread, or an f16 one (f16, e4m3 and e5m2
inputs only) of N/4 packed `vector<2xf16>` registers; transposed operands only for the 16-bit types.
"""

from __future__ import annotations

from typing import Any

from mlir import ir

from oxide.dialects.simt.dialect import DIALECT
from oxide.dialects.simt.types import PtrType
from oxide.ir.constraints import INTEGER_ATTR, AnyOf, AnyType, Is, Parametric, one_of
from oxide.ir.declare import Attr, Op, Operand, Result, VarOperand, VarResult, VerifyError, python_value

WGMMA_INPUTS = ("bf16", "f16", "tf32", "e4m3", "e5m2")
# K of one instruction: 32 bytes of each row of A (and column of B) per MMA.
WGMMA_K = {"bf16": 16, "f16": 16, "tf32": 8, "e4m3": 32, "e5m2": 32}
# Accumulator types per input type: bf16 and tf32 accumulate in f32 only.
WGMMA_ACCUMULATORS = {"bf16": ("f32",), "f16": ("f32", "f16"), "tf32": ("f32",), "e4m3": ("f32", "f16"),
                      "e5m2": ("f32", "f16")}
# Only 16-bit operands may be stored MN-major in shared memory (the transpose immediates of the ISA).
TRANSPOSABLE = ("bf16", "f16")
SCALE_D = ("accumulate", "overwrite")
SWIZZLES = ("none", "128B", "64B", "32B")
# The descriptor's swizzle field (bits 62-63) per mode, as the PTX ISA's matrix-descriptor format numbers them.
SWIZZLE_CODE = {"none": 0, "128B": 1, "64B": 2, "32B": 3}
# Byte offsets are stored >> 4 in 14 bits: multiples of 16 below 2^18.
DESC_OFFSET_LIMIT = 1 << 18
MAX_PENDING = 7
SETMAXNREG_RANGE = (24, 256)

BOOL = AnyOf(Is("true"), Is("false"))
_ACC = AnyOf(Is("f32"), Is("vector<2xf16>"))
_I64 = Is("i64")


def _int(op: Op, name: str) -> int:
    value = getattr(op, name)
    if isinstance(value, bool) or not isinstance(value, int):
        raise VerifyError(f"attribute '{name}' must be an integer, got {value}")
    return value


@DIALECT.op
class WgmmaFenceOp(Op):
    """`wgmma_fence()`: order this warpgroup's earlier register and shared-memory writes before the next
    wgmma reads them (needed before the first MMA and whenever the accumulator was touched in between).

    PTX `wgmma.fence.sync.aligned` (sm_90a).
    """

    mnemonic = "wgmma_fence"


@DIALECT.op
class WgmmaCommitGroupOp(Op):
    """`wgmma_commit_group()`: close the warpgroup's uncommitted MMAs into one wgmma group.

    PTX `wgmma.commit_group.sync.aligned` (sm_90a).
    """

    mnemonic = "wgmma_commit_group"


@DIALECT.op
class WgmmaWaitGroupOp(Op):
    """`wgmma_wait_group::<N>()`: wait until at most `pending` of the warpgroup's committed wgmma groups
    are still running; 0 waits for all, after which every accumulator may be read.

    `pending` is 0 to 7. PTX `wgmma.wait_group.sync.aligned N` (sm_90a).
    """

    mnemonic = "wgmma_wait_group"
    pending = Attr(INTEGER_ATTR, "how many committed groups may still be in flight: 0 to 7")

    def verify_(self) -> None:
        pending = _int(self, "pending")
        if not 0 <= pending <= MAX_PENDING:
            raise VerifyError(f"wgmma_wait_group pending must be 0 to {MAX_PENDING}, got {pending}")


@DIALECT.op
class WgmmaMmaAsyncOp(Op):
    """`wgmma_mma_m64n{N}k{K}_f32_{type}(&mut acc, desc_a, desc_b)`: D = A x B + D (or A x B when
    `scale_d` is "overwrite") for a 64xN tile, A (64xK) and B (KxN) read from shared memory through matrix
    descriptors (`simt.smem_desc`). `acc` is this thread's part of D, in the ISA's register order; the
    results are the accumulator after the MMA, valid to read only after a wgmma_wait_group covers it.

    Attributes: `m` (64), `n` (8..256, a multiple of 8), `k` (16 for f16/bf16, 8 for tf32, 32 for
    e4m3/e5m2), `input` (bf16, f16, tf32, e4m3, e5m2: the type of A and B), `accumulator` (f32: N/2 f32
    values; f16, for f16/e4m3/e5m2 inputs: N/4 vector<2xf16> values), `scale_d`, `negate_a`/`negate_b` (scale
    the operand by -1), `transpose_a`/`transpose_b` (the operand is MN-major in shared memory rather than
    K-major; only for bf16/f16). PTX `wgmma.mma_async.sync.aligned.m64nNkK` (sm_90a).
    """

    mnemonic = "wgmma_mma_async"
    acc = VarOperand(_ACC, "the accumulator before the MMA, in register order")
    desc_a = Operand(_I64, "the shared-memory matrix descriptor of A")
    desc_b = Operand(_I64, "the shared-memory matrix descriptor of B")
    m = Attr(INTEGER_ATTR, "rows of A and D: 64")
    n = Attr(INTEGER_ATTR, "columns of B and D: 8 to 256, a multiple of 8")
    k = Attr(INTEGER_ATTR, "the reduction depth: 16 (f16, bf16), 8 (tf32) or 32 (e4m3, e5m2)")
    input = Attr(one_of(*WGMMA_INPUTS), "the element type of A and B")
    accumulator = Attr(one_of("f32", "f16"), "the element type of D")
    scale_d = Attr(one_of(*SCALE_D), "accumulate into D, or overwrite it with A x B")
    negate_a = Attr(BOOL, "use -A")
    negate_b = Attr(BOOL, "use -B")
    transpose_a = Attr(BOOL, "A is MN-major in shared memory (16-bit inputs only)")
    transpose_b = Attr(BOOL, "B is MN-major in shared memory (16-bit inputs only)")
    result = VarResult(_ACC, "the accumulator after the MMA")

    def verify_(self) -> None:
        kind, n = self.input, _verify_shape(self)
        if self.accumulator not in WGMMA_ACCUMULATORS[kind]:
            raise VerifyError(f"{kind} inputs accumulate in f32 only, not {self.accumulator}")
        if kind not in TRANSPOSABLE and (self.transpose_a or self.transpose_b):
            raise VerifyError(f"only bf16 and f16 operands may be transposed (MN-major); {kind} operands are "
                              "K-major")
        _verify_accumulator(self, n)


def _verify_shape(op: Op) -> int:
    """An MMA's m (64), n (a multiple of 8 from 8 to 256) and k (its input type's); returns n."""
    m, n, k, kind = _int(op, "m"), _int(op, "n"), _int(op, "k"), op.input
    if m != 64:
        raise VerifyError(f"wgmma m must be 64, got {m}")
    if not (8 <= n <= 256 and n % 8 == 0):
        raise VerifyError(f"wgmma n must be a multiple of 8 from 8 to 256, got {n}")
    if k != WGMMA_K[kind]:
        raise VerifyError(f"wgmma k must be {WGMMA_K[kind]} for {kind} inputs, got {k}")
    return n


def _verify_accumulator(op: Op, n: int) -> None:
    """The accumulator operands and results of an m64nN wgmma: N/2 f32 or N/4 vector<2xf16> values each."""
    element, count = ("f32", n // 2) if op.accumulator == "f32" else ("vector<2xf16>", n // 4)
    acc, results = list(op.acc), list(op.result)
    # Types compare as values; printing each of up to 128 registers' types costs more than the whole check.
    wanted = ir.Type.parse(element)
    if len(acc) != count or any(v.type != wanted for v in acc):
        raise VerifyError(f"an m64n{n} {op.accumulator} accumulator is {count} {element} values per "
                          f"thread, got {len(acc)} operands of types ({_types(acc)})")
    if len(results) != count or any(v.type != wanted for v in results):
        raise VerifyError(f"the results are the accumulator after the MMA: {len(acc)} values of type {element}, "
                          f"got {len(results)} of types ({_types(results)})")


# Register A (`wgmma_mma_async_reg_a`): 16-bit inputs only here, 4 registers of 2 values per thread per k16 step.
REGISTER_A_INPUTS = ("bf16", "f16")
REGISTER_A_REGISTERS = 4


@DIALECT.op
class WgmmaMmaAsyncRegAOp(Op):
    """`wgmma_mma_m64n{N}k16_f32_{type}_reg_a(&mut acc, a, desc_b)`: D = A x B + D (or A x B when `scale_d`
    is "overwrite") for a 64xN tile, A (64x16) from registers and B (16xN) from shared memory through a matrix
    descriptor. `a` is this thread's part of A: 4 i32 registers, each two values of the input type (value
    2r in the low half of register r, 2r + 1 in the high half), in the A fragment order (warp w of the
    warpgroup holds rows 16w..16w+15; lane l holds, for i = 0..7, A[16w + l/4 + 8 (i/2 % 2)][8 (i/4) +
    2 (l%4) + i%2]), which is the order of an f32 accumulator's registers 8j..8j+7 for columns 16j..16j+15:
    a product's accumulator, rounded and packed, is the next product's A with no data movement. The
    registers must be written before the `wgmma_fence` that precedes the MMA.

    Attributes as `wgmma_mma_async`, with bf16 or f16 inputs, k 16 and no `transpose_a` (registers have no
    majorness). PTX `wgmma.mma_async.sync.aligned.m64nNk16.f32.{bf16,f16}` with a register A (sm_90a).
    """

    mnemonic = "wgmma_mma_async_reg_a"
    acc = VarOperand(_ACC, "the accumulator before the MMA, in register order")
    a = VarOperand(Is("i32"), "this thread's 4 registers of A (2 values each), in the A fragment order")
    desc_b = Operand(_I64, "the shared-memory matrix descriptor of B")
    m = Attr(INTEGER_ATTR, "rows of A and D: 64")
    n = Attr(INTEGER_ATTR, "columns of B and D: 8 to 256, a multiple of 8")
    k = Attr(INTEGER_ATTR, "the reduction depth: 16")
    input = Attr(one_of(*REGISTER_A_INPUTS), "the element type of A and B")
    accumulator = Attr(one_of("f32"), "the element type of D")
    scale_d = Attr(one_of(*SCALE_D), "accumulate into D, or overwrite it with A x B")
    negate_a = Attr(BOOL, "use -A")
    negate_b = Attr(BOOL, "use -B")
    transpose_b = Attr(BOOL, "B is MN-major in shared memory")
    result = VarResult(_ACC, "the accumulator after the MMA")

    def verify_(self) -> None:
        kind, n = self.input, _verify_shape(self)
        if len(self.a) != REGISTER_A_REGISTERS:
            raise VerifyError(f"a register A is {REGISTER_A_REGISTERS} i32 registers (pairs of {kind} values) per "
                              f"thread, got {len(self.a)}")
        _verify_accumulator(self, n)


def _types(values: list[Any]) -> str:
    kinds = sorted({str(v.type) for v in values})
    return ", ".join(kinds)


_SHARED_ADDRESS = AnyOf(Parametric(PtrType, AnyType(), AnyType()), Is("i32"))


@DIALECT.op
class SmemDescOp(Op):
    """`make_smem_desc(p)` and friends: the 64-bit shared-memory matrix descriptor wgmma reads an operand
    through, for the matrix at shared pointer (or 32-bit shared address) `address`.

    The encoding is the PTX ISA's matrix descriptor: bits 0-13 the start address >> 4, 16-29 the leading
    dimension byte offset >> 4, 32-45 the stride dimension byte offset >> 4, 49-51 the base offset (the
    swizzle pattern's phase when the matrix does not start on a swizzle-repeat boundary), 62-63 the swizzle
    mode (0 none, 1 128-byte, 2 64-byte, 3 32-byte). The byte offsets are multiples of 16 below 2^18, the
    base offset 0 to 7; a pointer must be into shared memory (address space 3).
    """

    mnemonic = "smem_desc"
    address = Operand(_SHARED_ADDRESS, "the matrix: a shared pointer, or its 32-bit shared address")
    leading_byte_offset = Attr(INTEGER_ATTR, "leading dimension byte offset: a multiple of 16 below 2^18")
    stride_byte_offset = Attr(INTEGER_ATTR, "stride dimension byte offset: a multiple of 16 below 2^18")
    swizzle = Attr(one_of(*SWIZZLES), "none, 128B, 64B or 32B")
    base_offset = Attr(INTEGER_ATTR, "the swizzle pattern's phase: 0 to 7")
    result = Result(_I64)

    def verify_(self) -> None:
        address_type = self.address.type
        if PtrType.isinstance(address_type) and python_value(PtrType.parameters_of(address_type)[1]) != 3:
            raise VerifyError(f"a matrix descriptor addresses shared memory (address space 3), got {address_type}")
        for name in ("leading_byte_offset", "stride_byte_offset"):
            value = _int(self, name)
            if not 0 <= value < DESC_OFFSET_LIMIT or value % 16:
                raise VerifyError(f"{name} must be a multiple of 16 from 0 to {DESC_OFFSET_LIMIT - 16}, got {value}")
        base = _int(self, "base_offset")
        if not 0 <= base <= 7:
            raise VerifyError(f"base_offset must be 0 to 7, got {base}")


@DIALECT.op
class SetMaxNRegOp(Op):
    """`setmaxnreg_inc::<N>()` / `setmaxnreg_dec::<N>()`: raise (`inc`) or lower (`dec`) the per-thread
    register count of this warpgroup to `regs`, moving registers between warpgroups of the block (producer
    warpgroups give theirs up, consumer warpgroups take them).

    `regs` is a multiple of 8 from 24 to 256. PTX `setmaxnreg.{inc,dec}.sync.aligned.u32` (sm_90a).
    """

    mnemonic = "setmaxnreg"
    regs = Attr(INTEGER_ATTR, "the new register count per thread: a multiple of 8 from 24 to 256")
    action = Attr(one_of("inc", "dec"), "inc (take registers) or dec (release them)")

    def verify_(self) -> None:
        regs = _int(self, "regs")
        low, high = SETMAXNREG_RANGE
        if not (low <= regs <= high and regs % 8 == 0):
            raise VerifyError(f"setmaxnreg register count must be a multiple of 8 from {low} to {high}, got {regs}")
