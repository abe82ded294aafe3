"""convert-simt-to-nvvm: lower the simt dialect inside every gpu.module to gpu/nvvm/llvm/arith/scf.

One module per op family registers its rules (rules.SIMT_TO_NVVM); kernel.py lowers kernel metadata
and parameters. Everything below is upstream MLIR (convert-gpu-to-nvvm, then PTX).
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir
from mlir.dialects import gpu

from oxide.ir.rules import is_op
from oxide.passes.base import OxidePass
from oxide.passes.conversion.lowering import run_conversion
from oxide.passes.conversion.simt_to_nvvm import atomics, debug, indexing, math, memory, shared, sync, warp  # noqa: F401  (rules register on import)
from oxide.passes.conversion.simt_to_nvvm import address, cluster, constant, cp_async, inline_ptx, masked, mbarrier, tma, wgmma  # noqa: F401  (rules register on import)
from oxide.passes.conversion.simt_to_nvvm.kernel import (
    apply_parameter_attributes, lower_kernel_metadata, mark_coherent_reads, parameter_attributes,
)
from oxide.passes.conversion.simt_to_nvvm.rules import SIMT_TO_NVVM
from oxide.passes.registry import option_group, register_pass
from oxide.target import Target


@register_pass
@dataclass(frozen=True)
class ConvertSimtToNvvm(OxidePass):
    """Lower simt ops, kernel parameters and kernel metadata to gpu/nvvm/llvm."""

    name = "convert-simt-to-nvvm"
    # Every oxide op is lowered (one without a rule is a located error), so none is left to verify again.
    verify_after = False
    target: Target = option_group(Target(), "chip")

    def run(self, module: ir.Operation) -> None:
        for op in module.regions[0].blocks[0].operations:
            if is_op(op, gpu.GPUModuleOp):
                lower_kernel_metadata(op.operation)
                plan = parameter_attributes(op.operation)
                mark_coherent_reads(op.operation)
                run_conversion(SIMT_TO_NVVM, op.operation, self)
                apply_parameter_attributes(op.operation, plan)
