"""Exceptions raised in Python code that MLIR calls back (walks, pass callbacks) never abort the process."""

from __future__ import annotations

import pytest
from mlir import ir

from oxide.dialects.context import make_context
from oxide.ir.parse import parse_source
from oxide.ir.walk import walk
from oxide.passes.pipeline import build_pass_manager

I128_CONTRACT = """
gpu.module @k {
  gpu.func @f() kernel attributes {simt.contract = {domain = 1 : i64, block = array<i128: 128, 1, 1>}} {
    gpu.return
  }
}
"""


def test_walk_reraises_the_callbacks_exception_in_python() -> None:
    with make_context() as context:
        module = parse_source(I128_CONTRACT, "k.mlir", context).module

        def visit(op: ir.Operation) -> ir.WalkResult:
            raise KeyError(op.name)

        with pytest.raises(KeyError):
            walk(module.operation, visit, ir.WalkOrder.PRE_ORDER)


def test_verifier_in_a_pass_callback_reports_an_unreadable_attribute() -> None:
    with make_context() as context:
        module = parse_source(I128_CONTRACT, "k.mlir", context).module
        with pytest.raises(ir.MLIRError) as caught:
            build_pass_manager("oxide-verify", context).run(module.operation)
    messages = [str(d.message) for d in caught.value.error_diagnostics]
    assert any("contract field 'block' must be the exact block shape" in m and "array<i128" in m for m in messages)
