"""The backend as pipeline pieces: `oxide-attach-target` and the named pipelines `simt-to-ptx` / `simt-to-llvm`.

oxide-attach-target does what upstream nvvm-attach-target does, plus the one decision it cannot make:
whether the lowered code calls libdevice (`__nv_*`), and so whether to link it.
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from oxide.backend.libdevice import find_libdevice, libdevice_candidates, libdevice_functions
from oxide.backend.target import Target
from oxide.ir.diagnostics import OxideError
from oxide.passes.base import OxidePass, PassError
from oxide.passes.registry import register_pass
from oxide.passes.pipeline import NamedPipeline, register_pipeline

# What runs inside each gpu.module to reach the LLVM dialect once simt is lowered.
LOWER_TO_LLVM = "gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm,convert-nvvm-to-llvm,reconcile-unrealized-casts)"


@register_pass
@dataclass(frozen=True)
class AttachTarget(OxidePass):
    """Attach the NVVM target to every gpu.module, linking libdevice only when the code calls it."""

    name = "oxide-attach-target"
    verify_after = False  # it only sets the gpu.modules' targets: no oxide op to verify again
    chip: str = "sm_90"
    features: str = ""
    opt_level: int = 3

    def run(self, module: ir.Operation) -> None:
        try:
            target = Target(self.chip, self.features, self.opt_level)
        except OxideError as exc:
            raise PassError([(module.location, exc.diagnostics[0].message)]) from None
        for op in module.regions[0].blocks[0].operations:
            if op.operation.name != "gpu.module":
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


@register_pipeline
@dataclass(frozen=True)
class SimtToPtx(NamedPipeline):
    """simt (and plain gpu/llvm) kernels to PTX, left in gpu.binary ops: lower, attach target, serialise."""

    name = "simt-to-ptx"
    chip: str = "sm_90"
    opt_level: int = 3

    def expand(self) -> str:
        return (f"oxide-verify,oxide-verify-aliasing,oxide-version-bounds-checks,convert-simt-to-nvvm{{chip={self.chip}}},{LOWER_TO_LLVM},"
                f"oxide-attach-target{{chip={self.chip} opt-level={self.opt_level}}},gpu-module-to-binary{{format=isa}}")


@register_pipeline
@dataclass(frozen=True)
class SimtToLlvm(NamedPipeline):
    """simt kernels to the LLVM dialect (NVVM ops included), stopping before serialisation."""

    name = "simt-to-llvm"
    chip: str = "sm_90"

    def expand(self) -> str:
        return f"oxide-verify,oxide-verify-aliasing,oxide-version-bounds-checks,convert-simt-to-nvvm{{chip={self.chip}}},{LOWER_TO_LLVM}"


@register_pipeline
@dataclass(frozen=True)
class TileToSimt(NamedPipeline):
    """Tile kernels to simt kernels (layouts, shuffles, shared memory), stopping at the simt dialect."""

    name = "tile-to-simt"
    chip: str = "sm_90"

    def expand(self) -> str:
        return f"oxide-verify,convert-tile-to-simt{{chip={self.chip}}}"


@register_pipeline
@dataclass(frozen=True)
class TileToPtx(NamedPipeline):
    """Tile kernels to PTX: convert-tile-to-simt, then exactly what simt-to-ptx runs."""

    name = "tile-to-ptx"
    chip: str = "sm_90"
    opt_level: int = 3

    def expand(self) -> str:
        # convert-tile-to-simt verifies its output, so simt-to-ptx's leading oxide-verify would repeat it.
        simt = SimtToPtx(self.chip, self.opt_level).expand().removeprefix("oxide-verify,")
        return f"{TileToSimt(self.chip).expand()},{simt}"
