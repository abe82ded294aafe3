"""Lowering one tile kernel by re-emission: a new gpu.func with the contract's ABI (views become pointer,
extents and strides), whose body is emitted op by op from the tile kernel's, each tile value becoming the
scalars this thread holds in its layout.

Ops without a rule that touch no tile-only types (scalar simt or gpu ops) are re-created as they are;
arith/math ops have the elementwise rule (elementwise.py); anything else without a rule is a located error.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from mlir import ir
from mlir.dialects import arith, gpu

from oxide.dialects import simt
from oxide.dialects import tile as T
from oxide.dialects.tile.kernel import DEFAULT_WARPS
from oxide.dialects.tile.mma import FP8
from oxide.ir.declare import int_value
from oxide.ir.rules import LoweringError, OpSet, is_op
from oxide.ir.walk import walk
from oxide.passes.conversion.lowering import FUNCTIONS
from oxide.passes.conversion.tile_to_simt.mapped import mapped_value
from oxide.passes.conversion.tile_to_simt.mma_pipeline import kernel_pipeline
from oxide.passes.conversion.tile_to_simt.context import TileLowering, ViewValue, bit_width, i_type
from oxide.passes.conversion.tile_to_simt.rules import TILE_TO_SIMT
from oxide.passes.conversion.tile_to_simt.scalar_ops import scalar_op
from oxide.passes.conversion.tile_to_simt.gemm_kernel import emit_gemm_kernel
from oxide.passes.conversion.tile_to_simt.guarded import GENERAL_SUFFIX, guarded_attribute, guarded_kernel
from oxide.passes.conversion.tile_to_simt.shared_plan import place_shared
from oxide.passes.conversion.tile_to_simt.knobs import GemmKnobs
from oxide.passes.conversion.tile_to_simt.coordinate_sinking import sink_coordinates
from oxide.passes.conversion.tile_to_simt.load_sinking import sink_loads
from oxide.passes.conversion.tile_to_simt.block_order import head_major
from oxide.passes.conversion.tile_to_simt.register_budget import WarpPlan, has_mma, plan_warps
from oxide.passes.conversion.tile_to_simt.variants import KMAJOR_SUFFIX, fallback_twin, has_fallback, variants_attribute
from oxide.passes.conversion.tile_to_simt.attention_pipeline import before_rescale, pipeline_carry
from oxide.passes.conversion.tile_to_simt.attention_producer import block_threads, emit_specialized_attention
from oxide.passes.conversion.tile_to_simt.attention_tma import AttentionTma, match_attention_tma
from oxide.passes.conversion.tile_to_simt.wgmma_plan import GemmPlan, MapSpec, kernel_gemms
from oxide.target import Target

_TILE_LOADS = OpSet(T.LoadOp, T.LoadOwnOp)
_TILE_PREFIX = T.DIALECT.name + "."


def is_tile_kernel(func: ir.Operation) -> bool:
    """Whether a gpu.func is a tile kernel: it takes tile types or uses tile ops. (`tile.warps` alone does not
    say so: a lowered kernel keeps it, and lowering it again must leave it alone.)"""
    if "gpu.kernel" not in func.attributes:
        return False
    found = False

    def visit(op: ir.Operation) -> ir.WalkResult:
        nonlocal found
        if op.name.startswith(_TILE_PREFIX) or any(_tile_typed(r.type) for r in op.results):
            found = True
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    walk(func, visit, ir.WalkOrder.PRE_ORDER)
    return found or any(str(a.type).startswith("!tile.") for a in func.regions[0].blocks[0].arguments)


def kernel_warps(func: ir.Operation) -> int:
    """The kernel's `tile.warps` (default 4)."""
    if "tile.warps" not in func.attributes:
        return DEFAULT_WARPS
    return int_value(func.attributes["tile.warps"])


def blocked_vector(func: ir.Operation) -> int:
    """Elements per vector access in the kernel's blocked layouts: 8 (16 bytes) when every tile the kernel
    loads has 16-bit elements, else 4 (16 bytes of f32; 8 of f16 in a kernel that also loads f32)."""
    widths: set[int] = set()

    def visit(op: ir.Operation) -> ir.WalkResult:
        if op in _TILE_LOADS:
            widths.add(bit_width(T.elem_of(op.results[0].type)))
        return ir.WalkResult.ADVANCE

    walk(func, visit, ir.WalkOrder.PRE_ORDER)
    return 8 if widths == {16} else 4


def lowered_param_types(t: ir.Type) -> list[ir.Type]:
    """The contract's ABI for one tile-kernel parameter."""
    if T.ViewType.isinstance(t) or T.ViewMutType.isinstance(t) or T.MappedMutType.isinstance(t):
        rank = len(T.shape_of(t))
        return [ir.Type.parse(f"!simt.ptr<{T.elem_of(t)}, 1>")] + [i_type(64)] * (2 * rank)
    if T.PtrType.isinstance(t):
        return [ir.Type.parse(f"!simt.ptr<{T.elem_of(t)}, 1>")]
    if str(t).startswith("!tile."):
        raise LoweringError(f"a kernel parameter of type {t} is not part of the tile kernel ABI")
    return [t]


def _bind_params(ctx: TileLowering, old_args: list[ir.Value], new_args: list[ir.Value]) -> None:
    position = 0
    for arg in old_args:
        t = arg.type
        count = len(lowered_param_types(t))
        parts = new_args[position:position + count]
        position += count
        if T.ViewType.isinstance(t) or T.ViewMutType.isinstance(t):
            rank = len(T.shape_of(t))
            view = ViewValue(parts[0], parts[1:1 + rank], parts[1 + rank:], T.elem_of(t))
            if T.ViewMutType.isinstance(t):
                if rank > len("xyz"):
                    raise LoweringError(f"an output (&mut Tensor) has rank at most 3, one per launch grid axis; "
                                        f"this one has rank {rank}")
                view.tile = T.shape_of(t)
                view.origin = []
                for axis, extent in zip("xyz", view.tile):
                    view.origin.append(_times(ctx, ctx.to_i64(ctx.block_id(axis)), extent))
            ctx.bind(arg, view)
        elif T.MappedMutType.isinstance(t):
            rank = len(T.shape_of(t))
            ctx.bind(arg, mapped_value(ViewValue(parts[0], parts[1:1 + rank], parts[1 + rank:], T.elem_of(t)), t))
        else:
            ctx.bind(arg, parts[0])


def _times(ctx: TileLowering, value: ir.Value, factor: int) -> ir.Value:
    return value if factor == 1 else arith.muli(value, ctx.const(value.type, factor))


def emit_block(ctx: TileLowering, block: ir.Block) -> None:
    """Emit the lowered form of every op of `block` at the current insertion point."""
    for op in block.operations:
        emit_op(ctx, op.operation)


def emit_op(ctx: TileLowering, op: ir.Operation) -> None:
    """Emit one op's lowered form and record its results' lowered forms."""
    if ctx.attention is not None and ctx.attention.skips(op):
        return  # a load TMA replaces (attention_tma.py)
    subject = op.opview if op.name.startswith(_TILE_PREFIX) else op
    with op.location:
        if ctx.attention is not None and ctx.attention.rescales(op):
            before_rescale(ctx)  # a pipelined attention loop: the previous step's values MMAs complete first
        if TILE_TO_SIMT.rule_for(op) is None and not len(op.regions) \
                and not any(_tile_typed(v.type) for v in [*op.operands, *op.results]):
            # A scalar op the tile dialect leaves as it is (a simt or gpu op the kernel uses directly).
            try:
                lowered = clone_scalar_op(ctx, op)
            except LoweringError as exc:
                raise exc.at(op) from None
        else:
            lowered = TILE_TO_SIMT.apply(op, ctx, subject)
    results = list(op.results)
    if not results:
        return
    values = [lowered] if len(results) == 1 else list(lowered)
    for old, new in zip(results, values):
        ctx.bind(old, new)


def _tile_typed(t: ir.Type) -> bool:
    return isinstance(t, ir.RankedTensorType) or str(t).startswith("!tile.")


def attributes_of(op: ir.Operation) -> dict[str, ir.Attribute]:
    """An op's attributes by name."""
    return {name: op.attributes[name] for name in op.attributes}


def clone_scalar_op(ctx: TileLowering, op: ir.Operation) -> ir.Value | list[ir.Value] | None:
    """Re-create a region-free op on scalars with its operands' lowered values."""
    results = scalar_op(op.name, [r.type for r in op.results], [ctx.scalar(v) for v in op.operands],
                        attributes_of(op))
    return None if not results else results[0] if len(results) == 1 else results


def parameter_facts(old_args: list[ir.Value]) -> list[dict[str, ir.Attribute]]:
    """LLVM facts per lowered parameter: an input view's pointer is `noalias readonly` (loads become
    `ld.global.nc`), an output's `noalias`. The runtime makes them true: no output overlaps another output or
    any input. A kernel with raw pointers (`*mut T`, unchecked by that rule) gets no facts at all."""
    if any(T.PtrType.isinstance(a.type) for a in old_args):
        return []
    unit = ir.UnitAttr.get()
    facts: list[dict[str, ir.Attribute]] = []
    for arg in old_args:
        count = len(lowered_param_types(arg.type))
        if T.ViewType.isinstance(arg.type):
            facts += [{"llvm.noalias": unit, "llvm.readonly": unit}] + [{}] * (count - 1)
        elif T.ViewMutType.isinstance(arg.type) or T.MappedMutType.isinstance(arg.type):
            facts += [{"llvm.noalias": unit}] + [{}] * (count - 1)
        else:
            facts += [{}] * count
    return facts


def _lower_variants(func: ir.Operation, target: Target, knobs: GemmKnobs, wgmma: bool,
                    b_kmajor: bool | None) -> list[tuple[ir.Operation, GemmPlan]]:
    """The GEMM plans of the entry being lowered (the first is its own), after lowering the other variants'
    entries when this is the primary (`b_kmajor` None): the K-major B entry, the mma.sync sibling (variants.py)."""
    gemms = kernel_gemms(func, target, kernel_warps(func), knobs) if wgmma else []
    if b_kmajor is not None:
        return [g for g in gemms if g[1].b_kmajor == b_kmajor]
    if gemms and has_fallback(gemms[0][1]):
        lower_kernel(fallback_twin(func, gemms[0][1].warps), target, knobs, wgmma=False)
    if len(gemms) > 1:
        lower_kernel(fallback_twin(func, gemms[0][1].warps, KMAJOR_SUFFIX), target, knobs, b_kmajor=True)
    return gemms


def _entry_attributes(new_func: ir.Operation, old_args: list[ir.Value], warps: int, threads: int,
                      plan: GemmPlan | AttentionTma | None, maps: list[MapSpec], min_blocks: int) -> None:
    """The lowered entry's warps, contract (domain, block), launch bounds (`min_blocks` per SM declared for a
    kernel without `mma`: register_budget.min_blocks_per_sm), parameter facts and tensor maps."""
    new_func.attributes["tile.warps"] = ir.IntegerAttr.get(i_type(32), warps)
    outputs = [len(T.shape_of(a.type)) for a in old_args if T.ViewMutType.isinstance(a.type)]
    domain = max([1, *outputs])
    new_func.attributes["simt.contract"] = ir.Attribute.parse(
        f"{{domain = {domain} : i32, block = array<i32: {threads}, 1, 1>}}")
    if isinstance(plan, AttentionTma) and plan.specialized or isinstance(plan, GemmPlan) and plan.consumer_registers:
        # One block per SM (.minnctapersm 1): without it ptxas does not know the registers at entry, ignores
        # setmaxnreg (C7508) and holds the consumers to the even split, spilling a promoted 128 x 256 loop.
        new_func.attributes["simt.launch_bounds"] = ir.DenseI32ArrayAttr.get([threads, 1])
    elif min_blocks:
        new_func.attributes["simt.launch_bounds"] = ir.DenseI32ArrayAttr.get([threads, min_blocks])
    facts = parameter_facts(old_args)
    if any(facts):
        facts += [{}] * len(maps)
        new_func.attributes["arg_attrs"] = ir.ArrayAttr.get([ir.DictAttr.get(f) for f in facts])
    if maps:
        new_func.attributes["tile.tma"] = tma_attribute(maps)


def lower_kernel(func: ir.Operation, target: Target, knobs: GemmKnobs = GemmKnobs(), wgmma: bool = True,
                 b_kmajor: bool | None = None, attention_stages: int | None = None) -> None:
    """Replace tile kernel `func` by its simt form (same name, the contract's parameters). A kernel on sm_90a's
    GEMM path also gets its other variants' entries (variants.py), unless `wgmma` is False (the mma.sync sibling
    itself) or `b_kmajor` is set (the entry of that B majorness only). `attention_stages` bounds the stages of
    an attention loop's TMA ring (attention_tma.py)."""
    old_entry = func.regions[0].blocks[0]
    old_args = list(old_entry.arguments)
    try:
        new_types = [t for a in old_args for t in lowered_param_types(a.type)]
    except LoweringError as exc:
        raise exc.at(func) from None
    gemms = _lower_variants(func, target, knobs, wgmma, b_kmajor)
    gemm = gemms[0] if gemms else None
    _check_fp8(func)
    # The GEMM's plan may give the kernel more warps (its accumulator must fit) and a producer warpgroup; other
    # kernels get more warps when their tiles would not fit in registers (register_budget.py).
    plan = WarpPlan(gemm[1].warps, False, 0) if gemm else plan_warps(func, kernel_warps(func), knobs.warps,
                                                                     knobs.warp_rows)
    warps, warps_outer = plan.warps, plan.warps_outer
    # An attention loop on sm_90a reads q, k and v by TMA where its loads allow it (attention_tma.py), the
    # copies issued by a producer warpgroup unless the `specialize` knob is off (attention_producer.py), and its
    # consumer warpgroups take turns unless `pingpong` is (attention_pingpong.py).
    attention = match_attention_tma(func, target, warps, attention_stages, knobs.specialize,
                                    knobs.pingpong != "off") if wgmma and not gemm else None
    if not gemm and not attention:
        sink_loads(func)  # a late use's load keeps no registers before it (load_sinking.py)
    threads = gemm[1].threads if gemm else block_threads(warps) if attention and attention.specialized \
        else 32 * warps
    maps = gemm[1].maps if gemm else attention.maps if attention else []
    # The tensor maps of an sm_90a GEMM (or attention) loop follow the contract's parameters (docs/tile-hopper.md).
    new_types += [ir.Type.parse("!simt.tensor_map")] * len(maps)
    name = ir.StringAttr(func.attributes["sym_name"]).value
    with ir.InsertionPoint(func), func.location:
        new = gpu.GPUFuncOp(ir.FunctionType.get(new_types, []), name, kernel=True)
        entry = new.body.blocks.append(*new_types, arg_locs=[func.location] * len(new_types))
    new_func = new.operation
    _entry_attributes(new_func, old_args, warps, threads, gemm[1] if gemm else attention, maps, plan.min_blocks)
    ctx = TileLowering(warps, entry, target, blocked_vector(func))
    ctx.warps_outer = warps_outer
    if not gemm and not attention and not has_mma(func):
        ctx.run_loads = []  # run_sinking.py; a kernel with an mma keeps its GEMM's access order
    if attention:
        ctx.attention, ctx.attention_maps = attention, list(entry.arguments)[-len(maps):]
        ctx.loop_carry = pipeline_carry(attention, warps) if attention.pipelined else None
    if gemm:
        if b_kmajor is None:
            new_func.attributes["tile.variants"] = variants_attribute(name, [plan for _, plan in gemms])
    else:
        # On the mma.sync chips (and for an f32-accurate product on sm_90a) a GEMM K loop becomes a cp.async
        # pipeline whose ring is dynamic shared memory.
        ctx.pipeline = kernel_pipeline(func, target, warps, knobs.stages or None)
    try:
        if guarded_kernel(func, knobs.guarded):  # no mma, so no GEMM, attention or cp.async pipeline
            # Straight-line, for the tensors the runtime finds vector-ready; the default lowering beside it for
            # any others (guarded.py).
            ctx.guarded = True
            new_func.attributes["tile.variants"] = guarded_attribute(name)
            lower_kernel(fallback_twin(func, warps, GENERAL_SUFFIX), target, dataclasses.replace(knobs, guarded="off"))
        _emit_body(ctx, func, entry, gemm, attention, len(maps))
        if ctx.run_loads is not None:
            sink_coordinates(entry)  # coordinate_sinking.py
        ctx.finish_scratch()
        # The ring (dynamic shared memory) and the static arrays, planned together against the chip's limit.
        ring = gemm[1] if gemm else ctx.pipeline[1] if ctx.pipeline else None
        try:
            place_shared(new_func, target, ring.ring_bytes if ring else 0, gemm[1].stages if gemm else None)
        except LoweringError as exc:
            if attention and attention.stages > 1:  # the softmax's scratch is known only now: a stage fewer
                new_func.erase()
                return lower_kernel(func, target, knobs, wgmma, b_kmajor, attention.stages - 1)
            raise exc.at(func) from None
    except BaseException:
        new_func.erase()
        raise
    func.erase()


def _emit_body(ctx: TileLowering, func: ir.Operation, entry: ir.Block, gemm: Any, attention: Any, maps: int) -> None:
    """The new entry's body: the thread id, the parameters bound, then the kernel's ops (the GEMM kernel's roles,
    the specialized attention kernel's, or every op in order)."""
    old_entry = func.regions[0].blocks[0]
    with ir.InsertionPoint(entry), func.location:
        ctx.tid = simt.ThreadIdOp.build(dim=simt.DimAttr.get("x"))
        if attention:  # the query blocks of one head run together and share its K and V in L2
            ctx.block_ids = head_major(ctx)
        try:
            _bind_params(ctx, list(old_entry.arguments), list(entry.arguments))
        except LoweringError as exc:
            raise exc.at(func) from None
        if gemm:
            emit_gemm_kernel(ctx, old_entry, *gemm, list(entry.arguments)[-maps:], emit_op)
        elif attention and attention.specialized:
            emit_specialized_attention(ctx, old_entry, emit_op)
        else:
            emit_block(ctx, old_entry)


# The ops that may make fp8 tiles.
_FP8_MAKERS = OpSet(T.LoadOp, T.LoadOwnOp, arith.TruncFOp, arith.BitcastOp)


def _check_fp8(func: ir.Operation) -> None:
    """fp8 tiles are made only by loads, conversions (`arith.truncf`) and bitcasts, and are only stored,
    converted, bitcast and multiplied by mma (docs/tile-hopper.md, "Precisions"); anything else on them is a
    located error, not a crash. (Arithmetic on fp8 is the frontend's error; this guards IR written by hand.)"""
    found: list[ir.Operation] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        fp8 = any(isinstance(r.type, ir.RankedTensorType) and str(T.elem_of(r.type)) in FP8 for r in op.results)
        if fp8 and op not in _FP8_MAKERS:
            found.append(op)
            return ir.WalkResult.INTERRUPT
        return ir.WalkResult.ADVANCE

    walk(func, visit, ir.WalkOrder.PRE_ORDER)
    if found:
        raise LoweringError(f"'{found[0].name}' makes an fp8 tile; fp8 tiles come only from loads, conversions "
                            f"and bitcasts, and are only stored, converted and multiplied by mma: convert to f16 "
                            f"or f32 first (`convert_tile::<f32>(t)`)", found[0])


def tma_attribute(maps: list[MapSpec]) -> ir.Attribute:
    """`tile.tma`: per tensor-map parameter, the tile parameter it describes, its box and swizzle (what the
    runtime encodes it from). (`tile.dynamic_shared` beside it is the bytes the launch must give.)"""
    entries = [f'{{param = {m.param} : i64, box = array<i64: {", ".join(map(str, m.box))}>, swizzle = "128B"'
               f'{", transposed" if m.transposed else ""}}}' for m in maps]
    return ir.Attribute.parse("[" + ", ".join(entries) + "]")



def leftover_tile_uses(container: ir.Operation) -> list[tuple[ir.Location, str]]:
    """Ops outside tile kernels that still use tile types (helper functions): nothing lowers them."""
    problems: list[tuple[ir.Location, str]] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        if is_op(op, gpu.GPUFuncOp) and "tile.warps" in op.attributes and "gpu.kernel" in op.attributes:
            return ir.WalkResult.SKIP  # a lowered kernel: simt only, by construction (its body is thousands of ops)
        types = [v.type for v in [*op.operands, *op.results]]
        if op in FUNCTIONS:
            types += [a.type for a in op.regions[0].blocks[0].arguments] if op.regions[0].blocks else []
        if op.name.startswith(_TILE_PREFIX) or any(_tile_typed(t) for t in types):
            what = "a helper function taking tiles, views or partitions" if op in FUNCTIONS \
                else f"'{op.name}' on tiles outside a tile kernel"
            problems.append((op.location, f"{what} cannot be lowered: only tile kernels (`kernel` functions) take "
                                          "tile types; inline the helper into the kernel"))
            return ir.WalkResult.SKIP
        return ir.WalkResult.ADVANCE

    walk(container, visit, ir.WalkOrder.PRE_ORDER)
    return problems
