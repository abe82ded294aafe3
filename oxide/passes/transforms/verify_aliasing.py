"""oxide-verify-aliasing: the SIMT track's compile-time safety checks on simt IR.

Errors (the kernel is rejected):
- a thread index witness from anywhere but a trusted index function, or consumed by anything but its
  queries and `DisjointSlice::get_mut` (stored, shuffled, returned, rebuilt from an integer): witnesses.py;
- a proven shared-memory race: two threads, one element, at least one write, no barrier between, for every
  launch the contract allows: shared_races.py;
- a proven divergent `sync_threads()` (some threads of the block skip it): convergence.py.
Warnings (the kernel compiles): races and divergence that happen for some values of launch parameters or
data, and full-mask warp collectives under thread-dependent control flow.

(That a DisjointSlice is written only through a witness of its own index space is the `simt.get_mut`
type constraint itself; the verifier enforces it on every op.)
"""

from __future__ import annotations

from dataclasses import dataclass

from mlir import ir

from oxide.analysis.convergence import find_divergence
from oxide.analysis.kernel_facts import BLOCK_BARRIERS, kernels, lowered_from_tile
from oxide.analysis.kernel_walk import walk_kernel
from oxide.analysis.shared_races import find_races
from oxide.analysis.witnesses import witness_failures
from oxide.ir.diagnostics import warn
from oxide.passes.base import OxidePass, PassError
from oxide.passes.registry import register_pass


@register_pass
@dataclass(frozen=True)
class VerifyAliasingPass(OxidePass):
    """Reject witness misuse, proven shared-memory races and divergent barriers; warn about possible ones."""

    name = "oxide-verify-aliasing"
    verify_after = False
    verify_ir_after = False  # it only checks

    def run(self, module: ir.Operation) -> None:
        # Witnesses come only from the Rust frontend: a module of lowered tile kernels has none to check.
        found = list(kernels(module))
        tile_only = bool(found) and all(lowered_from_tile(func) for func in found)
        errors = [] if tile_only else witness_failures(module)
        if not errors:
            for func in kernels(module):
                if lowered_from_tile(func):
                    continue
                facts = walk_kernel(func)
                for conflict in find_races(facts):
                    self._report(errors, conflict.first.location, conflict.message(facts), conflict.proven)
                for divergence in find_divergence(facts):
                    barrier = BLOCK_BARRIERS.by_name(divergence.event.op_name) is not None
                    self._report(errors, divergence.event.location, divergence.message(), divergence.proven and barrier)
        if errors:
            raise PassError(errors)

    @staticmethod
    def _report(errors: list[tuple[ir.Location, str]], location: ir.Location, message: str, proven: bool) -> None:
        if proven:
            errors.append((location, message))
        else:
            warn(location, message)
