"""Run the Python verifiers (`Op.verify_`) of every declared op under an operation.

IRDL constraints run inside MLIR's own verifier; what IRDL cannot say (an alignment is a power of two,
a shared array is non-empty) is checked here. The oxide-verify pass and every oxide pass call this.
"""

from __future__ import annotations

from typing import Mapping

from mlir import ir

from oxide.ir.declare import DIALECTS, Op, VerifyError, read_attribute
from oxide.diagnostics import Diagnostic, OxideError
from oxide.ir.diagnostics import source_loc
from oxide.ir.ptx_symbols import ptx_symbol_problem
from oxide.ir.walk import walk


def python_verifier_failures(root: ir.Operation) -> list[tuple[ir.Location, str]]:
    """(location, message) for every op under `root` whose Python verifier rejects it."""
    failures: list[tuple[ir.Location, str]] = []

    attribute_verifiers = {name: fn for d in DIALECTS.values() for name, fn in d.attribute_verifiers.items()}
    # A kernel has thousands of ops: build an op's view only for oxide's own ops (the others have no verify_),
    # and read its attribute dictionary once.
    prefixes = tuple(f"{name}." for name in DIALECTS)

    def visit(op: ir.Operation) -> ir.WalkResult:
        view = op.opview if op.name.startswith(prefixes) else None
        if isinstance(view, Op):
            try:
                view.verify_()
            except VerifyError as exc:
                failures.append((op.location, f"'{op.name}' op {exc.diagnostics[0].message}"))
        symbol_problem = ptx_symbol_problem(op)
        if symbol_problem:
            failures.append((op.location, f"'{op.name}' op {symbol_problem}"))
        attributes = op.attributes
        for name, check in attribute_verifiers.items():
            if name in attributes:
                try:
                    check(op, read_attribute(lambda: attributes[name], name, "an attribute of a type oxide reads"))
                except VerifyError as exc:
                    failures.append((op.location, f"'{op.name}' op attribute '{name}': {exc.diagnostics[0].message}"))
        return ir.WalkResult.ADVANCE

    walk(root, visit, ir.WalkOrder.PRE_ORDER)
    return failures


def verify_python(root: ir.Operation, rename: Mapping[str, str] | None = None) -> None:
    """Raise OxideError with one located diagnostic per Python verifier failure under `root`."""
    failures = python_verifier_failures(root)
    if failures:
        raise OxideError([Diagnostic("error", message, source_loc(loc, rename)) for loc, message in failures])
