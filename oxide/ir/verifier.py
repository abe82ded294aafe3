"""Run the Python verifiers (`Op.verify_`) of every declared op under an operation.

IRDL constraints run inside MLIR's own verifier; what IRDL cannot say (an alignment is a power of two,
a shared array is non-empty) is checked here. The oxide-verify pass and every oxide pass call this.
"""

from __future__ import annotations

from mlir import ir

from oxide.ir.declare import Op, VerifyError


def python_verifier_failures(root: ir.Operation) -> list[tuple[ir.Location, str]]:
    """(location, message) for every op under `root` whose Python verifier rejects it."""
    failures: list[tuple[ir.Location, str]] = []

    def visit(op: ir.Operation) -> ir.WalkResult:
        view = op.opview
        if isinstance(view, Op):
            try:
                view.verify_()
            except VerifyError as exc:
                failures.append((op.location, f"'{op.name}' op {exc}"))
        return ir.WalkResult.ADVANCE

    root.walk(visit, ir.WalkOrder.PRE_ORDER)
    return failures
