"""What an emulated launch raises: every kernel-side failure names the kernel, the block, the thread(s) and
the Rust source location(s) it happened at."""

from __future__ import annotations

from typing import Mapping

from oxide.diagnostics import Diagnostic


class EmulatorError(Exception):
    """Base class of every error the emulator reports about a kernel or a launch.

    `str(error)` is the whole report as text; `diagnostics` is the same report as located Diagnostics (the
    error at the kernel source position it happened at, notes at the other positions involved), which
    `render` prints with the source lines when the sources are given."""

    def __init__(self, message: str, diagnostics: list[Diagnostic] | None = None):
        super().__init__(message)
        self.diagnostics = diagnostics if diagnostics is not None else [Diagnostic("error", message)]

    def render(self, sources: Mapping[str, str] | None = None) -> str:
        return "\n".join(d.render(sources) for d in self.diagnostics)


class LaunchError(EmulatorError):
    """The launch itself is wrong: an unknown entry, a wrong number or kind of arguments, a bad geometry."""


class KernelTrap(EmulatorError):
    """A thread executed `simt.trap` (a Rust panic); on the GPU the launch fails."""


class KernelAssertion(KernelTrap):
    """A thread failed `assert!`; on the GPU the launch fails with CUDA_ERROR_ASSERT."""


class OutOfBounds(KernelTrap):
    """A checked access (slice, shared array, local array) was out of bounds; on the GPU this traps."""


class BarrierDivergence(EmulatorError):
    """`sync_threads` was reached by only part of the block (undefined behaviour on the GPU)."""


class WarpDivergence(EmulatorError):
    """A warp collective named a lane in its mask that did not execute it (undefined behaviour on the GPU)."""


class RaceDetected(EmulatorError):
    """Two threads made conflicting accesses (same element, at least one write, neither atomic) without a
    barrier between them (shared memory) or within one launch (global memory)."""


class UnsupportedOperation(EmulatorError):
    """The kernel does something the emulator cannot execute (it says what)."""


class Deadlock(EmulatorError):
    """Every warp still running waits (a barrier, an mbarrier phase, a cluster or grid sync) and none can
    proceed: on the GPU the kernel hangs."""
