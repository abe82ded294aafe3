"""oxide: NVIDIA GPU kernels in Rust syntax, compiled through MLIR to PTX and run from Python.

The compiler lives in oxide.ir, oxide.dialects, oxide.passes and oxide.backend; oxide.runtime runs the
compiled artifacts and imports none of them, so it works where the MLIR wheels are absent.
"""

__version__ = "0.1.0"
