"""oxide.backend: PTX emission through upstream MLIR (gpu/nvvm/llvm), libdevice linking, target selection."""

from oxide.backend.ptx import compile_to_llvm_ir, compile_to_ptx
from oxide.backend.target import Target

__all__ = ["Target", "compile_to_llvm_ir", "compile_to_ptx"]
