"""OxidePass: the base of every Python-defined pass, and its adapter onto PassManager.add(callable).

A pass is a frozen dataclass whose fields are its options (`{name=value}` in a pipeline; registry.py parses
them). It anchors on builtin.module. It reports bad input by raising PassError with MLIR locations; any other
exception is a bug in oxide and is reported as an internal error at the module's location. Either way the
exception never crosses into the bindings: it becomes `emit_error` plus `signal_pass_failure()`.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, ClassVar

from mlir import ir

from oxide.diagnostics import Diagnostic, OxideError
from oxide.ir.diagnostics import source_loc
from oxide.ir.verifier import python_verifier_failures


class PassError(OxideError):
    """Raised by a pass to reject its input: one (location, message) per problem found.

    An OxideError whose diagnostics say the same; it stays a class of its own because the pass adapter emits
    each failure at its MLIR location (`failures`), so that MLIR reports it like its own diagnostics."""

    def __init__(self, failures: list[tuple[ir.Location, str]]):
        self.failures = failures
        super().__init__([Diagnostic("error", message, source_loc(location)) for location, message in failures])


@dataclasses.dataclass(frozen=True)
class OxidePass:
    """Base class of oxide's passes. Subclasses set `name` and implement `run`."""

    name: ClassVar[str]
    # Whether the Python verifiers run after this pass (a pass that is itself the verifier needs no repeat).
    verify_after: ClassVar[bool] = True
    # Whether MLIR's verifier runs after this pass (the pass manager does not: build_pass_manager). Off for a
    # pass that only checks, or only sets attributes that what runs next verifies or reads anyway.
    verify_ir_after: ClassVar[bool] = True

    def run(self, module: ir.Operation) -> bool | None:
        """Transform or check `module` (a builtin.module); raise PassError for bad input. Returning False says
        the module was left unchanged, so the verifiers need not run again (they cost as much as a pass)."""
        raise NotImplementedError

    def as_callable(self) -> Callable[[Any, Any], None]:
        """The function PassManager.add() runs: run the pass, then the Python verifiers, report failures."""

        def run_pass(op: Any, pass_: Any) -> None:
            try:
                changed = self.run(op) is not False
                # MLIR's own verifier first (IRDL constraints, upstream ops): the Python verifiers read operands
                # and attributes that it guarantees.
                failures = ir_verifier_failures(op) if changed and self.verify_ir_after else []
                if changed and self.verify_after and not failures:
                    failures = python_verifier_failures(op)
            except PassError as exc:
                failures = exc.failures
            except Exception as exc:  # a bug in oxide: say so, at the module, instead of a traceback
                failures = [(op.location, f"internal error in pass '{self.name}': {type(exc).__name__}: {exc}")]
            for location, message in failures:
                location.emit_error(message)
            if failures:
                pass_.signal_pass_failure()

        run_pass.__name__ = self.name
        return run_pass


def ir_verifier_failures(op: ir.Operation) -> list[tuple[ir.Location, str]]:
    """(location, message) for each error MLIR's verifier reports under `op`."""
    try:
        op.verify()
    except ir.MLIRError as exc:
        return [(d.location, d.message) for d in exc.error_diagnostics] or [(op.location, str(exc))]
    return []


def verify_upstream_output(op: Any, pass_: Any) -> None:
    """The step build_pass_manager puts after each group of upstream passes: MLIR's verifier, once."""
    failures = ir_verifier_failures(op)
    for location, message in failures:
        location.emit_error(message)
    if failures:
        pass_.signal_pass_failure()
