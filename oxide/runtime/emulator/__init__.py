"""The emulator: runs simt kernels on the CPU with numpy, one block at a time with its threads in lock step.

Programs come from `oxide.backend.emulator.emit_program` as Python source text; this package needs only
numpy (it imports nothing of the compiler and no MLIR). `launch` runs one kernel of a program.
"""

from oxide.runtime.emulator.errors import (
                                           BarrierDivergence,
                                           EmulatorError,
                                           KernelAssertion,
                                           KernelTrap,
                                           LaunchError,
                                           OutOfBounds,
                                           RaceDetected,
                                           UnsupportedOperation,
                                           WarpDivergence,
)
from oxide.runtime.emulator.launch import launch, load_program

__all__ = ["BarrierDivergence", "EmulatorError", "KernelAssertion", "KernelTrap", "LaunchError", "OutOfBounds",
           "RaceDetected", "UnsupportedOperation", "WarpDivergence", "launch", "load_program"]
