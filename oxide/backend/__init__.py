"""oxide.backend: PTX emission through upstream MLIR (gpu/nvvm/llvm) and libdevice linking.

Importing it registers the backend's pass (oxide-attach-target) and the named pipelines (backend/passes.py).
The target compiled for is oxide.target.Target."""

from oxide.backend.ptx import compile_to_llvm_ir, compile_to_ptx

__all__ = ["compile_to_llvm_ir", "compile_to_ptx"]
