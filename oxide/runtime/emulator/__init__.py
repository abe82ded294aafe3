"""The emulator: runs simt kernels on the CPU with numpy, one block at a time with its threads in lock step,
and tile kernels one tile block at a time with tiles as numpy arrays (`launch_tile`).

Programs come from `oxide.backend.emulator.emit_program` as Python source text; this package needs only
numpy (it imports nothing of the compiler and no MLIR). `launch` runs one kernel of a program.
"""

from oxide.runtime.emulator.errors import (
                                           BarrierDivergence,
                                           Deadlock,
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
from oxide.runtime.emulator.tile_launch import launch_tile

__all__ = ["BarrierDivergence", "Deadlock", "EmulatorError", "KernelAssertion", "KernelTrap", "LaunchError", "OutOfBounds",
           "RaceDetected", "UnsupportedOperation", "WarpDivergence", "launch", "launch_tile", "load_program"]
