"""oxide-verify: run every declared op's Python verifier (the checks IRDL cannot express)."""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from oxide.ir.verifier import python_verifier_failures
from oxide.passes.base import OxidePass, PassError
from oxide.passes.registry import register_pass


@register_pass
@dataclass(frozen=True)
class VerifyPass(OxidePass):
    """Run the Python verifiers of all oxide ops; report each failure at its op."""

    name = "oxide-verify"
    verify_after = False

    def run(self, module: ir.Operation) -> None:
        failures = python_verifier_failures(module)
        if failures:
            raise PassError(failures)
