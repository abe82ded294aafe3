"""oxide: NVIDIA GPU kernels in Rust syntax, compiled through MLIR to PTX and run from Python.

    import oxide
    module = oxide.compile_file("vecadd.rs")      # PTX per chip + kernel signatures
    mod = oxide.load("vecadd.rs")                 # build (cached) and load: GPU, or the emulator

The compiler lives in oxide.ir, oxide.dialects, oxide.passes, oxide.frontends and oxide.backend;
oxide.runtime runs the compiled artifacts and imports none of them, so it works where the MLIR wheels
are absent. That is why `compile`/`compile_file` are imported on first use, not here.
"""

from typing import Any

__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    if name in ("compile", "compile_file", "CompiledModule", "OxideWarning", "build", "load"):
        from oxide import api

        return getattr(api, name)
    raise AttributeError(f"module 'oxide' has no attribute {name!r}")
