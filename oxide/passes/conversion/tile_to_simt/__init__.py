"""convert-tile-to-simt: lower every tile kernel (a gpu.func kernel with tile types or tile ops) to a simt
kernel with the contract's ABI; see driver.py for the method and layouts.py for who holds what.

One module per concern registers its rules (rules.TILE_TO_SIMT): memory (global loads/stores), elementwise
(arith/math on tiles), mask_elision (selects, their mask skipped where it is all-true), shape (splat, iota,
broadcast, reshape, permute, cat, extract, to_scalar), reduce (reductions and scans), atomics (pointer-tile
atomics), debug (`tile.print`), control (scf and gpu.return), mma (Tensor Core mma.sync, with mma_layouts).
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir
from mlir.dialects import gpu

from oxide.ir.rules import LoweringError, is_op
from oxide.passes.base import OxidePass, PassError
# The rule modules register their rules on import.
from oxide.passes.conversion.tile_to_simt import (  # noqa: F401
    atomics, control, debug, elementwise, mask_elision, memory, mma, pointer, reduce, shape,
)
from oxide.passes.conversion.tile_to_simt.driver import is_tile_kernel, leftover_tile_uses, lower_kernel
from oxide.passes.conversion.tile_to_simt.knobs import GemmKnobs
from oxide.passes.registry import option_group, register_pass
from oxide.target import Target


@register_pass
@dataclass(frozen=True)
class ConvertTileToSimt(OxidePass):
    """Lower tile kernels to simt kernels: layouts, masked vector memory access, shuffles and shared memory."""

    name = "convert-tile-to-simt"
    target: Target = option_group(Target(), "chip")
    knobs: GemmKnobs = option_group(GemmKnobs())

    def run(self, module: ir.Operation) -> None:
        failures: list[tuple[ir.Location, str]] = []
        for op in module.regions[0].blocks[0].operations:
            if not is_op(op, gpu.GPUModuleOp):
                continue
            kernels = [f.operation for f in op.operation.regions[0].blocks[0].operations
                       if is_op(f, gpu.GPUFuncOp) and is_tile_kernel(f.operation)]
            for func in kernels:
                try:
                    lower_kernel(func, self.target, self.knobs)
                except LoweringError as exc:
                    located = exc.at(func)
                    failures.append((located.location, located.message))
            if not failures:
                failures = leftover_tile_uses(op.operation)
        if failures:
            raise PassError(failures)
