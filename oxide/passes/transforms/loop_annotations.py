"""keep-loop-annotations: carry `#[unroll]` through upstream's lowering to the LLVM dialect.

The frontends put `#[unroll]` on an scf.for / scf.while as the discardable attribute `llvm.loop_annotation`;
upstream's scf-to-cf moves it onto the loop's back-edge `cf.br`, but the cf-to-llvm patterns inside
convert-gpu-to-nvvm copy a branch's attributes under their own names, and the LLVM branch reads its loop
metadata from the inherent attribute `loop_annotation`. Renaming the attribute on each back edge, between the
two upstream passes, makes LLVM's unroller see the request (without it a 128-element accumulator indexed in
a loop lives in local memory instead of registers).
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir
from mlir.dialects import cf

from oxide.ir.walk import walk
from oxide.passes.base import OxidePass
from oxide.passes.registry import register_pass

FRONTEND_ATTRIBUTE = "llvm.loop_annotation"
LLVM_BRANCH_ATTRIBUTE = "loop_annotation"


@register_pass
@dataclass(frozen=True)
class KeepLoopAnnotations(OxidePass):
    """Rename the loop annotation on back-edge branches (after convert-scf-to-cf) to the LLVM branch's own."""

    name = "keep-loop-annotations"
    verify_after = False  # it renames an attribute of upstream branches: no oxide op changes
    verify_ir_after = False  # the upstream passes after it are verified at their end

    def run(self, module: ir.Operation) -> None:
        branch = cf.BranchOp.OPERATION_NAME

        def visit(op: ir.Operation) -> ir.WalkResult:
            # Every op of the lowered kernels is visited: compare the name, the cheapest test there is.
            if op.name == branch and FRONTEND_ATTRIBUTE in op.attributes:
                annotation = op.attributes[FRONTEND_ATTRIBUTE]
                del op.attributes[FRONTEND_ATTRIBUTE]
                op.attributes[LLVM_BRANCH_ATTRIBUTE] = annotation
            return ir.WalkResult.ADVANCE

        walk(module, visit)
