"""Lowering of `tile.mma` to Tensor Core `mma.sync`, fed from shared memory by `ldmatrix`.

Per tile.mma (the plan is mma_layouts.py): every thread writes its elements of a and b into the block's
shared scratch memory (A row-major with padded rows, B row-major with padded rows; tf32 inputs rounded with
cvt.rna.tf32.f32 on the way, fp8 inputs converted to f16, exactly, for the f16 mma.sync), a barrier, then each
warp runs, per 16-deep (8 for f32) K step, one `ldmatrix.x4` per 16 rows of its A block, one
`ldmatrix.x4.trans` per 16 columns of its B block (scalar shared loads for f32 B), and one
`mma.sync.m16n8k16` (m16n8k8 for f32) per 16x8 accumulator fragment. The accumulator stays in registers in
the mma accumulator layout, so an accumulator carried through a K loop is never converted inside the loop.

f32 inputs without `tile.tf32` are f32-accurate (3xTF32): they are staged unrounded, and after the fragment
loads each register x is split in registers into hi = tf32(x) and lo = tf32(x - hi); each fragment then takes
three m16n8k8 tf32 mma.sync, lo_a * hi_b, hi_a * lo_b and hi_a * hi_b (the small terms first). Every product
is exact in f32 and x - hi - lo is below 2^-22 |x|, so the error is near f32's; lo_a * lo_b (about 2^-22 of the
product) is left out.

mma.sync is the upstream `nvvm.mma.sync` op (it takes plain registers); ldmatrix is `simt.inline_ptx`
(upstream `nvvm.ldmatrix` wants an LLVM pointer, and the shared scratch pointer is a simt pointer until
convert-simt-to-nvvm). Both need sm_80 or newer (bf16 and tf32 mma, ldmatrix .trans). Products smaller than
one fragment, and every product below sm_80, run as FMA loops instead (mma_fma.py; the rule is
mma_layouts.tensor_core_shape).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from typing import Any

from mlir import ir
from mlir.dialects import arith, builtin, gpu, llvm, nvvm, scf
from mlir.dialects import vector as vector_d

from oxide.dialects import simt, tile
from oxide.dialects.simt.inline_ptx import build_inline_ptx
from oxide.ir.rules import OpSet, is_op
from oxide.ir.walk import walk
from oxide.passes.conversion.tile_to_simt import mma_layouts as ml
from oxide.passes.conversion.tile_to_simt.attention_pattern import match_attention
from oxide.passes.conversion.tile_to_simt.attention_pipeline import lower_pipelined_mma
from oxide.passes.conversion.tile_to_simt.attention_tma import lower_tma_attention_mma
from oxide.passes.conversion.tile_to_simt.attention_wgmma import lower_attention_mma
from oxide.passes.conversion.tile_to_simt.context import TileLowering, ptr_offset, store_shared
from oxide.passes.conversion.tile_to_simt.fp8 import is_fp8, to_f16
from oxide.passes.conversion.tile_to_simt.layouts import (
    VECTOR_BYTES as ROW_VECTOR_BYTES,
)
from oxide.passes.conversion.tile_to_simt.layouts import Layout, TileValue, vector_width
from oxide.passes.conversion.tile_to_simt.mma_fma import lower_mma_fma
from oxide.passes.conversion.tile_to_simt.remap import convert_layout
from oxide.passes.conversion.tile_to_simt.rules import lowering

# A kernel's only tile.mma, when it runs once per iteration of its loop and no reduction or shape op of the
# kernel needs scratch memory, stages into two buffers, alternating, when both fit in this much static shared
# memory (the rest of the 48 KiB is left for layout conversions).
DOUBLE_BUFFER_BYTES = 40 * 1024
STAGING_MARK = "tile.mma_staging"
# How warp_mma feeds the fragments it loads to mma.sync: as loaded (f16/bf16, and tf32 rounded when staged),
# rounded to tf32 in registers (tf32 staged unrounded by cp.async), or split into hi and lo (f32, 3xTF32).
AS_LOADED, ROUND, SPLIT = "as loaded", "round", "split"
# The (a part, b part) products of one fragment: parts are [x] or [hi, lo]; small terms first.
_PRODUCTS = {1: ((0, 0),), 2: ((1, 0), (0, 1), (0, 0))}


class _I32:
    """An i32 value inside the address formulas of mma_layouts.py: `+`, `*`, and `//` and `%` by powers of
    two build arith ops; Python ints stay ints (folded)."""

    def __init__(self, ctx: TileLowering, value: ir.Value):
        self.ctx = ctx
        self.value = value

    def _lift(self, other: Any) -> ir.Value:
        return other.value if isinstance(other, _I32) else self.ctx.i32(int(other))

    def __add__(self, other: Any) -> _I32:
        if isinstance(other, int) and other == 0:
            return self
        return _I32(self.ctx, arith.addi(self.value, self._lift(other)))

    __radd__ = __add__

    def __mul__(self, other: int) -> Any:
        if other == 0:
            return 0
        if other == 1:
            return self
        if other & (other - 1) == 0:
            return _I32(self.ctx, arith.shli(self.value, self.ctx.i32(other.bit_length() - 1)))
        return _I32(self.ctx, arith.muli(self.value, self.ctx.i32(other)))

    __rmul__ = __mul__

    def __floordiv__(self, other: int) -> _I32:
        assert other & (other - 1) == 0, "the address formulas divide by powers of two only"
        if other == 1:
            return self
        return _I32(self.ctx, arith.shrui(self.value, self.ctx.i32(other.bit_length() - 1)))

    def __mod__(self, other: int) -> _I32:
        assert other & (other - 1) == 0, "the address formulas take remainders by powers of two only"
        return _I32(self.ctx, arith.andi(self.value, self.ctx.i32(other - 1)))


def _i32(ctx: TileLowering, value: Any) -> ir.Value:
    return value.value if isinstance(value, _I32) else ctx.i32(int(value))


def _offset(ctx: TileLowering, base: ir.Value, elements: Any) -> ir.Value:
    """base + elements (a simt pointer into the scratch memory)."""
    return ptr_offset(base, ctx.index(_i32(ctx, elements)))


Formula = Callable[[Any, Any, int, int], Any]


class _Addresses:
    """Pointers into the staging buffer from an offset formula f(lane, warp, i, ks) that is a per-thread part
    plus a constant part (the formulas of mma_layouts.py are; the model test checks it). The per-thread part is
    computed once per formula; the constant parts are pointer offsets from it, which LLVM folds into the
    immediate of each ld/ldmatrix instead of keeping one 64-bit address register per fragment load."""

    def __init__(self, ctx: TileLowering, base: ir.Value, lane: _I32, warp: _I32):
        self.ctx, self.base, self.lane, self.warp = ctx, base, lane, warp
        self._thread: dict[Any, ir.Value] = {}

    def thread(self, key: Hashable, formula: Formula) -> ir.Value:
        """The pointer of the per-thread part of `formula` (`key` names the formula)."""
        if key not in self._thread:
            self._thread[key] = _offset(self.ctx, self.base, formula(self.lane, self.warp, 0, 0))
        return self._thread[key]

    def at(self, key: Hashable, formula: Formula, i: int, ks: int) -> ir.Value:
        """The pointer formula(lane, warp, i, ks) stands for."""
        constant = _constant(formula, i, ks)
        thread = self.thread(key, formula)
        return thread if constant == 0 else ptr_offset(thread, self.ctx.const(ir.IndexType.get(), constant))


def _constant(formula: Formula, i: int, ks: int) -> int:
    """The constant part of formula(lane, warp, i, ks), in elements."""
    return formula(0, 0, i, ks) - formula(0, 0, 0, 0)


def _plan(ctx: TileLowering, op: Any) -> ml.MmaPlan:
    return ml.plan_mma(tile.shape_of(op.lhs.type), tile.shape_of(op.rhs.type), str(tile.elem_of(op.lhs.type)),
                       str(tile.elem_of(op.acc.type)), ctx.warps, ctx.target.shared_memory_per_block)


def fragment_mode(plan: ml.MmaPlan, op: Any, staged_rounded: bool) -> str:
    """How warp_mma feeds tile.mma `op`'s fragments: f32 ones split (3xTF32) unless the mma asks for tf32
    products, which are rounded in registers unless `staged_rounded` (_stage rounds them on the way)."""
    if plan.instr.inputs != "tf32":
        return AS_LOADED
    if not tile.multiplies_as_tf32(op):
        return SPLIT
    return AS_LOADED if staged_rounded else ROUND


def _stage(ctx: TileLowering, plan: ml.MmaPlan, a: TileValue, b: TileValue, base: ir.Value, round_tf32: bool) -> None:
    """Write this thread's elements of a and b where the plan stages them, a vector store per run of registers
    contiguous along the row (at most 16 bytes; padded rows keep such runs aligned). Each register's position
    is the thread's base pointer plus a constant, which folds into the store. Replicated holders write the same
    value to the same place, which is harmless. `round_tf32`: f32 values are rounded to tf32 on the way."""
    for operand, place in ((a, lambda r, c: ml.a_element(plan, r, c)),
                           (b, lambda r, c: plan.b_base + ml.b_element(plan, r, c))):
        layout = operand.layout
        width = min(vector_width(layout), ROW_VECTOR_BYTES // plan.instr.in_bytes)
        base_coords, _ = layout.thread_base(ctx, ctx.tid)
        thread = _offset(ctx, base, place(*(_I32(ctx, v) for v in base_coords)))
        values = operand.values
        if round_tf32:
            values = [_to_tf32(v) for v in values]
        elif is_fp8(values[0].type):
            values = [to_f16(ctx, v) for v in values]
        for j in range(0, layout.per_thread, width):
            constant = place(*layout.register_coords(j)) - place(0, 0)
            ptr = thread if constant == 0 else ptr_offset(thread, ctx.const(ir.IndexType.get(), constant))
            store_shared(ptr, values[j:j + width])


def _to_tf32(value: ir.Value) -> ir.Value:
    """An f32 rounded to tf32 (round to nearest, ties away), still in its f32 container."""
    (bits,) = build_inline_ptx([value], "cvt.rna.tf32.f32 $0, $1;", "=r,f", [ir.IntegerType.get_signless(32)])
    return arith.bitcast(ir.F32Type.get(), bits)


def _ldmatrix(ptr: ir.Value, byte_offset: int, count: int, trans: bool) -> list[ir.Value]:
    """ldmatrix.sync.aligned.m8n8.x{count}[.trans].shared.b16 at this lane's row address, `ptr` plus a constant
    offset written into the instruction (an inline-asm pointer operand is a register LLVM cannot fold into)."""
    outputs = ", ".join(f"${i}" for i in range(count))
    address = f"${count}+{byte_offset}" if byte_offset else f"${count}"
    asm = f"ldmatrix.sync.aligned.m8n8.x{count}{'.trans' if trans else ''}.shared.b16 {{{outputs}}}, [{address}];"
    constraints = ",".join(["=r"] * count + ["l"])
    return list(build_inline_ptx([ptr], asm, constraints, [ir.IntegerType.get_signless(32)] * count))


def _register(plan: ml.MmaPlan, value: ir.Value) -> ir.Value:
    """An ldmatrix register as the operand type nvvm.mma.sync takes (f16 pairs are vector<2xf16>)."""
    if plan.instr.inputs == "f16":
        return llvm.bitcast(ir.VectorType.get([2], ir.F16Type.get()), value)
    return value


def _a_fragments(plan: ml.MmaPlan, addresses: _Addresses, ks: int) -> list[list[ir.Value]]:
    def formula(lane: Any, warp_row: Any, fm: int, step: int) -> Any:
        return ml.a_fragment_offset(plan, lane, warp_row, fm, step)

    thread = addresses.thread("a", formula)
    return [[_register(plan, r) for r in _ldmatrix(thread, _constant(formula, fm, ks) * plan.instr.in_bytes, 4,
                                                    trans=False)]
            for fm in range(plan.fragments[0])]


def _b_fragments(plan: ml.MmaPlan, addresses: _Addresses, ks: int) -> Iterator[tuple[int, list[ir.Value]]]:
    """(fn, registers) of each B fragment of K step ks, loaded when the caller asks for it: a pair of n8
    fragments per ldmatrix.x4.trans (one per .x2.trans when the warp tile has one), two scalar loads for tf32."""
    if plan.instr.inputs == "tf32":
        for fn in range(plan.fragments[1]):
            regs = []
            for register in range(2):
                def formula(lane: Any, warp_col: Any, i: int, step: int, register: int = register) -> Any:
                    return ml.b_tf32_offset(plan, lane, warp_col, i, step, register)

                address = addresses.at(("b", register), formula, fn, ks)
                value = simt.PtrLoadOp.build(address, results=[ir.F32Type.get()])
                regs.append(arith.bitcast(ir.IntegerType.get_signless(32), value))
            yield fn, regs
        return

    def formula(lane: Any, warp_col: Any, fn: int, step: int) -> Any:
        return ml.b_fragment_offset(plan, lane, warp_col, fn, step)

    step = 2 if plan.b_pairs else 1
    thread = addresses.thread("b", formula)
    for fn in range(0, plan.fragments[1], step):
        byte_offset = _constant(formula, fn, ks) * plan.instr.in_bytes
        regs = [_register(plan, r) for r in _ldmatrix(thread, byte_offset, 2 * step, trans=True)]
        for half in range(step):
            yield fn + half, regs[2 * half:2 * half + 2]


def _mma(plan: ml.MmaPlan, a: list[ir.Value], b: list[ir.Value], c: list[ir.Value]) -> list[ir.Value]:
    """One mma.sync on a fragment: c (4 accumulator scalars, ISA order c0..c3) + a @ b."""
    if plan.instr.acc == "f16":
        pair = ir.VectorType.get([2], ir.F16Type.get())
        operands_c = [vector_d.from_elements(pair, c[0:2]), vector_d.from_elements(pair, c[2:4])]
        result_type = ir.Type.parse("!llvm.struct<(vector<2xf16>, vector<2xf16>)>")
    else:
        operands_c = c
        result_type = ir.Type.parse("!llvm.struct<(f32, f32, f32, f32)>")
    shape = ir.Attribute.parse(f"#nvvm.shape<m = {ml.MMA_M}, n = {ml.MMA_N}, k = {plan.instr.k}>")
    ptx_type = ir.Attribute.parse(f"#nvvm.mma_type<{plan.instr.inputs}>")
    d = nvvm.MmaOp(result_type, shape, ir.Attribute.parse("#nvvm.mma_layout<row>"),
                   ir.Attribute.parse("#nvvm.mma_layout<col>"), a, b, operands_c,
                   multiplicandAPtxType=ptx_type, multiplicandBPtxType=ptx_type).result
    if plan.instr.acc == "f16":
        out = []
        for half in range(2):
            vec = llvm.extractvalue(ir.VectorType.get([2], ir.F16Type.get()), d, [half])
            out += [vector_d.extract(vec, [], [e]) for e in range(2)]
        return out
    return [llvm.extractvalue(ir.F32Type.get(), d, [e]) for e in range(4)]


# Tile ops whose lowering may need shared scratch memory of its own (besides layout conversions).
_SCRATCH_USERS = OpSet(tile.ReduceOp, tile.ScanOp, tile.CatOp, tile.ExtractOp, tile.PermuteOp, tile.ReshapeOp,
                       tile.BroadcastOp, tile.ToScalarOp, tile.AtomicRmwOp)


def _only_gemm_scratch(op: Any) -> bool:
    """Whether `op` is its kernel's only tile.mma and no other op of the kernel is one that may need scratch
    memory: then a double buffer cannot crowd out another op's shared memory."""
    func = op.operation.parent
    while func is not None and not is_op(func, gpu.GPUFuncOp):
        func = func.parent
    mmas = 0
    others = False

    def visit(inner: ir.Operation) -> ir.WalkResult:
        nonlocal mmas, others
        mmas += is_op(inner, tile.MmaOp)
        others |= inner in _SCRATCH_USERS
        return ir.WalkResult.ADVANCE

    walk(func, visit, ir.WalkOrder.PRE_ORDER)
    return mmas == 1 and not others


def _loop_parity(ctx: TileLowering, op: Any) -> tuple[ir.Value, ir.Operation] | None:
    """(iteration count % 2 as i32, the lowered loop) when the mma sits directly in an scf.for body, so it
    runs once in every iteration; else None."""
    loop = op.operation.parent
    if loop is None or not is_op(loop, scf.ForOp):
        return None
    old_iv = loop.regions[0].blocks[0].arguments[0]
    iv, lower, step = ctx.scalar(old_iv), ctx.scalar(loop.operands[0]), ctx.scalar(loop.operands[2])
    count = arith.divsi(arith.subi(iv, lower), step)
    one = ctx.const(iv.type, 1)
    parity = arith.andi(count, one)
    if str(parity.type) != "i32":
        parity = arith.index_cast(ir.IntegerType.get_signless(32), parity) if str(parity.type) == "index" \
            else arith.trunci(ir.IntegerType.get_signless(32), parity)
    return parity, ir.BlockArgument(iv).owner.owner.operation


def _staging_buffers(ctx: TileLowering, elem: ir.Type, count: int) -> ir.Value:
    """A shared array of `count` elements of its own for one mma's double-buffered staging, at the kernel's
    entry; arrays left unused by a discarded emission of the loop body (control.py may emit it again) go."""
    for op_class in (simt.SharedPtrOp, simt.SharedArrayOp):
        for old in [o.operation for o in ctx.entry.operations]:
            if is_op(old, op_class) and STAGING_MARK in old.attributes and not list(old.result.uses):
                old.erase()
    with ir.InsertionPoint.at_block_begin(ctx.entry):
        array = simt.SharedArrayOp.build(align=16, results=[ir.Type.parse(f"!simt.shared<{elem}, {count}>")])
        array.owner.attributes[STAGING_MARK] = ir.UnitAttr.get()
        ptr = simt.SharedPtrOp.build(array, results=[ir.Type.parse(f"!simt.ptr<{elem}, 3>")])
        ptr.owner.attributes[STAGING_MARK] = ir.UnitAttr.get()
    return ptr


def _barrier_before(ctx: TileLowering, loop: ir.Operation) -> None:
    """A barrier just before `loop` (once): readers of the staging buffers from an earlier run of the loop
    (an enclosing loop's previous iteration) are done before its first iteration writes them."""
    previous = None
    for candidate in loop.block.operations:
        if candidate.operation == loop:
            break
        # control.py's stand-ins for the loop's initial values sit between a barrier and the loop.
        if not is_op(candidate, builtin.UnrealizedConversionCastOp):
            previous = candidate.operation
    if previous is None or not is_op(previous, simt.SyncThreadsOp):
        with ir.InsertionPoint(loop):
            ctx.barrier()


def _staged_type(op: Any) -> ir.Type:
    """The element type a's and b's elements are staged as: their own, f16 for fp8 (converted on the way)."""
    elem = tile.elem_of(op.lhs.type)
    return ir.F16Type.get() if is_fp8(elem) else elem


def _staging(ctx: TileLowering, op: Any, plan: ml.MmaPlan) -> ir.Value:
    """The staging buffer this mma writes, after the barrier its reuse needs.

    The kernel's only mma, directly in a loop body, in a kernel without reductions or shape ops, with room for
    two: the buffer of this iteration's parity, and no barrier in the loop before the writes. The buffer
    written in iteration k was last read in iteration k - 2, and every thread has since passed iteration
    k - 1's barrier between its staging and its fragment loads. Otherwise the kernel's shared scratch memory,
    with a barrier before it is written again."""
    elems = plan.shared_bytes // plan.instr.in_bytes
    elem = _staged_type(op)
    room = 2 * plan.shared_bytes <= DOUBLE_BUFFER_BYTES
    parity = _loop_parity(ctx, op) if room and _only_gemm_scratch(op) else None
    if parity is None:
        base = ctx.scratch(elem, elems)
        ctx.scratch_begin()
        return base
    value, loop = parity
    _barrier_before(ctx, loop)
    buffers = _staging_buffers(ctx, elem, 2 * elems)
    return ptr_offset(buffers, ctx.index(arith.muli(value, ctx.i32(elems))))


def warp_mma(ctx: TileLowering, plan: ml.MmaPlan, base: ir.Value, regs: list[ir.Value],
             mode: str = AS_LOADED) -> list[ir.Value]:
    """The mma.sync steps of one staged tile pair at `base` (the plan's staging layout) into the accumulator
    registers `regs`; `mode` (fragment_mode) says how the loaded fragments are fed to mma.sync."""
    tid = _I32(ctx, ctx.tid)
    lane = tid % 32
    warp_row, warp_col = ml.warp_position(plan, tid // 32)
    a_addresses = _Addresses(ctx, base, lane, warp_row)
    b_addresses = _Addresses(ctx, base, lane, warp_col)
    regs = list(regs)
    fn_count = plan.fragments[1]
    for ks in range(plan.k_steps):
        a_frags = [_parts(frag, mode) for frag in _a_fragments(plan, a_addresses, ks)]
        # Each B fragment is loaded just before the mma.sync ops that use it, which keeps fewer registers live.
        for fn, b_frag in _b_fragments(plan, b_addresses, ks):
            b_parts = _parts(b_frag, mode)
            for fm, a_parts in enumerate(a_frags):
                first = 4 * (fn + fn_count * fm)
                for i, j in _PRODUCTS[len(a_parts)]:
                    regs[first:first + 4] = _mma(plan, a_parts[i], b_parts[j], regs[first:first + 4])
    return regs


def _parts(fragment: list[ir.Value], mode: str) -> list[list[ir.Value]]:
    """A loaded fragment as the operands mma.sync takes: [fragment], [rounded] or [hi, lo] (3xTF32)."""
    if mode == AS_LOADED:
        return [fragment]
    if mode == ROUND:
        return [[_round_bits(r) for r in fragment]]
    hi = [_round_bits(r) for r in fragment]
    f32 = ir.F32Type.get()
    # x - hi is exact in f32 (hi is x rounded to 11 significant bits); lo keeps its top 11 bits.
    lo = [_round_bits(arith.bitcast(ir.IntegerType.get_signless(32),
                                    arith.subf(arith.bitcast(f32, r), arith.bitcast(f32, h))))
          for r, h in zip(fragment, hi)]
    return [hi, lo]


def _round_bits(bits: ir.Value) -> ir.Value:
    """A tf32 register (f32 bits in an i32) rounded to tf32, as cvt.rna.tf32.f32 gives it."""
    (rounded,) = build_inline_ptx([arith.bitcast(ir.F32Type.get(), bits)], "cvt.rna.tf32.f32 $0, $1;", "=r,f",
                                  [ir.IntegerType.get_signless(32)])
    return rounded


def _on_tensor_cores(ctx: TileLowering, op: Any) -> bool:
    """Whether the chip has Tensor Cores for the product of tile.mma `op` and it is whole fragments."""
    (m, k), n = tile.shape_of(op.lhs.type), tile.shape_of(op.rhs.type)[1]
    return ml.tensor_core_shape(ctx.target.sm, m, n, k, str(tile.elem_of(op.lhs.type)), str(tile.elem_of(op.acc.type)))


def mma_result_layout(ctx: TileLowering, op: Any) -> Layout | None:
    """The layout lower_mma gives the result of tile.mma `op` whatever its accumulator's layout: the mma plan's
    when the product runs on mma.sync (not inside an attention loop), else None (the FMA path keeps the
    accumulator's layout)."""
    if match_attention(op, ctx.target, ctx.warps) is not None or not _on_tensor_cores(ctx, op):
        return None
    return _plan(ctx, op).layout


@lowering(tile.MmaOp)
def lower_mma(ctx: TileLowering, op: Any) -> TileValue:
    """acc + a @ b: on the Tensor Cores (the result in the mma accumulator layout) where the chip has them and
    the product is whole fragments, else as FMA loops (mma_fma.py; the result in the accumulator's layout). The
    two products of a flash-attention loop on sm_90a run on wgmma instead (attention_wgmma.py)."""
    attention = match_attention(op, ctx.target, ctx.warps)
    if attention is not None:
        # q, k and v by TMA where the kernel's loads allow it (attention_tma.py), else staged by the threads.
        lower = lower_tma_attention_mma if ctx.attention is not None else lower_attention_mma
        if ctx.attention is not None and ctx.attention.pipelined:  # the softmax beside the MMAs
            lower = lower_pipelined_mma
        return lower(ctx, op, attention)
    if not _on_tensor_cores(ctx, op):
        return lower_mma_fma(ctx, op)
    plan = _plan(ctx, op)
    a, b = ctx.tile(op.lhs), ctx.tile(op.rhs)
    acc = ctx.tile(op.acc)
    if acc.layout != plan.layout:
        acc = convert_layout(ctx, acc, plan.layout)
    base = _staging(ctx, op, plan)
    mode = fragment_mode(plan, op, staged_rounded=True)
    _stage(ctx, plan, a, b, base, round_tf32=plan.instr.inputs == "tf32" and mode == AS_LOADED)
    ctx.barrier()
    return TileValue(plan.layout, warp_mma(ctx, plan, base, list(acc.values), mode))
