"""The backend as pipeline pieces: `oxide-attach-target` and the named pipelines `simt-to-ptx` / `simt-to-llvm`
/ `tile-to-simt` / `tile-to-ptx`. They register when this module is imported (oxide.backend imports it).

oxide-attach-target does what upstream nvvm-attach-target does, plus the one decision it cannot make:
whether the lowered code calls libdevice (`__nv_*`), and so whether to link it. The named pipelines hand
their Target to the passes they run as it is: the chip is parsed once, where the pipeline's options are.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir
from mlir.dialects import gpu

from oxide.ir.rules import is_op
from oxide.backend.libdevice import find_libdevice, libdevice_candidates, libdevice_functions
from oxide.passes.base import OxidePass, PassError
from oxide.passes.conversion.simt_to_nvvm import ConvertSimtToNvvm
from oxide.passes.conversion.simt_to_nvvm.kernel import GridConstantParams
from oxide.passes.conversion.tile_to_simt import ConvertTileToSimt
from oxide.passes.conversion.tile_to_simt.knobs import GemmKnobs
from oxide.passes.pipeline import NamedPipeline, Step, register_pipeline
from oxide.passes.registry import option_group, register_pass
from oxide.passes.transforms.loop_annotations import KeepLoopAnnotations  # noqa: F401  (registers the pass)
from oxide.passes.transforms.verify import VerifyPass
from oxide.passes.transforms.verify_aliasing import VerifyAliasingPass
from oxide.passes.transforms.version_bounds_checks import VersionBoundsChecks
from oxide.target import Target

# What runs to reach the LLVM dialect once simt is lowered (keep-loop-annotations between the upstream passes
# carries `#[unroll]` from cf to LLVM branches).
LOWER_TO_LLVM = ("gpu.module(convert-scf-to-cf),keep-loop-annotations,"
                 "gpu.module(convert-gpu-to-nvvm,convert-nvvm-to-llvm,reconcile-unrealized-casts)")


@register_pass
@dataclass(frozen=True)
class AttachTarget(OxidePass):
    """Attach the NVVM target to every gpu.module, linking libdevice only when the code calls it."""

    name = "oxide-attach-target"
    verify_after = False  # it only sets the gpu.modules' targets: no oxide op to verify again
    verify_ir_after = False  # targets it parses itself, which gpu-module-to-binary reads next
    target: Target = option_group(Target())

    def run(self, module: ir.Operation) -> None:
        target = self.target
        for op in module.regions[0].blocks[0].operations:
            if not is_op(op, gpu.GPUModuleOp):
                continue
            needed = sorted(set(libdevice_functions(op.operation)))
            link = ""
            if needed:
                libdevice = find_libdevice()
                if libdevice is None:
                    searched = ", ".join(str(p) for p in libdevice_candidates()) or "nowhere"
                    raise PassError([(op.operation.location,
                                      f"the kernel calls libdevice ({', '.join(needed)}) but libdevice.10.bc was not "
                                      f"found (searched: {searched}); set CUDA_HOME or pip install nvidia-cuda-nvcc")])
                link = f', link = ["{libdevice}"]'
            op.operation.attributes["targets"] = ir.ArrayAttr.get([ir.Attribute.parse(
                f'#nvvm.target<O = {target.opt_level}, chip = "{target.chip}", features = "{target.features}"{link}>')])


# After convert-tile-to-simt: its rules build each element's index arithmetic where the element is used, so
# a GEMM's kernel repeats thousands of identical arith ops; merging them first (a few milliseconds) makes
# every later pass, and LLVM's optimiser, work on a quarter fewer ops. Only pure upstream ops are merged
# (oxide's ops look side-effecting to cse), so what the kernel computes is unchanged.
MERGE_TILE_INDEXING = "gpu.module(cse)"


def tile_to_llvm(target: Target, knobs: GemmKnobs = GemmKnobs()) -> list[Step]:
    """Tile kernels to the LLVM dialect: tile-to-simt (with the GEMM lowering's knobs), the index cleanup, then
    the simt lowering (whose leading oxide-verify would repeat the verification convert-tile-to-simt ends with)."""
    return [*TileToSimt(target, knobs).expand(), MERGE_TILE_INDEXING, *_lower_simt(target)[1:]]


def _lower_simt(target: Target) -> list[Step]:
    """The checks and the lowering of simt kernels to the LLVM dialect."""
    return [VerifyPass(), VerifyAliasingPass(), VersionBoundsChecks(), ConvertSimtToNvvm(target), LOWER_TO_LLVM,
            GridConstantParams()]


@register_pipeline
@dataclass(frozen=True)
class SimtToPtx(NamedPipeline):
    """simt (and plain gpu/llvm) kernels to PTX, left in gpu.binary ops: lower, attach target, serialise."""

    name = "simt-to-ptx"
    target: Target = option_group(Target(), "chip", "opt-level")

    def expand(self) -> list[Step]:
        return [*_lower_simt(self.target), AttachTarget(self.target), "gpu-module-to-binary{format=isa}"]


@register_pipeline
@dataclass(frozen=True)
class SimtToLlvm(NamedPipeline):
    """simt kernels to the LLVM dialect (NVVM ops included), stopping before serialisation."""

    name = "simt-to-llvm"
    target: Target = option_group(Target(), "chip")

    def expand(self) -> list[Step]:
        return _lower_simt(self.target)


@register_pipeline
@dataclass(frozen=True)
class TileToSimt(NamedPipeline):
    """Tile kernels to simt kernels (layouts, shuffles, shared memory), stopping at the simt dialect."""

    name = "tile-to-simt"
    target: Target = option_group(Target(), "chip")
    knobs: GemmKnobs = option_group(GemmKnobs())

    def expand(self) -> list[Step]:
        return [VerifyPass(), ConvertTileToSimt(self.target, self.knobs)]


@register_pipeline
@dataclass(frozen=True)
class TileToPtx(NamedPipeline):
    """Tile kernels to PTX: convert-tile-to-simt, then exactly what simt-to-ptx runs."""

    name = "tile-to-ptx"
    target: Target = option_group(Target(), "chip", "opt-level")
    knobs: GemmKnobs = option_group(GemmKnobs())

    def expand(self) -> list[Step]:
        return [*tile_to_llvm(self.target, self.knobs), AttachTarget(self.target), "gpu-module-to-binary{format=isa}"]
