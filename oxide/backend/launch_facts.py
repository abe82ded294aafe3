"""What the lowering decides about a tile kernel's launch that the artifact must record: the bytes of dynamic
shared memory each lowered entry needs (`tile.dynamic_shared`: the GEMM's stage ring and the static arrays
moved beside it when they pass 48 KiB, tile_to_simt/shared_plan.py). It is known only once the kernel is
lowered, so a step right after convert-tile-to-simt reads it off the lowered entries."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from mlir import ir
from mlir.dialects import gpu

from oxide.ir.declare import int_value
from oxide.ir.rules import is_op
from oxide.passes.base import OxidePass
from oxide.passes.conversion.tile_to_simt import ConvertTileToSimt
from oxide.passes.conversion.tile_to_simt.shared_plan import DYNAMIC_SHARED_ATTR
from oxide.passes.pipeline import Step


@dataclass(frozen=True)
class RecordDynamicShared(OxidePass):
    """Collects {entry name: dynamic shared bytes} of the lowered tile kernels into `found` (changes nothing)."""

    name = "oxide-record-dynamic-shared"
    verify_after = False
    found: dict[str, int] = field(default_factory=dict)

    def run(self, module: ir.Operation) -> bool:
        for op in module.regions[0].blocks[0].operations:
            if not is_op(op, gpu.GPUModuleOp):
                continue
            for func in op.regions[0].blocks[0].operations:
                attributes = func.operation.attributes
                if is_op(func, gpu.GPUFuncOp) and DYNAMIC_SHARED_ATTR in attributes:
                    self.found[ir.StringAttr(attributes["sym_name"]).value] = int_value(attributes[DYNAMIC_SHARED_ATTR])
        return False


def with_recorder(steps: Sequence[Step], recorder: RecordDynamicShared) -> list[Step]:
    """`steps` with `recorder` right after their tile-to-simt conversion (unchanged when there is none)."""
    out: list[Step] = []
    for step in steps:
        out.append(step)
        if isinstance(step, ConvertTileToSimt):
            out.append(recorder)
    return out
