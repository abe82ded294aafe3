"""Find NVIDIA's libdevice bitcode, which math functions (__nv_expf, __nv_sinf, ...) are linked from."""

from __future__ import annotations

import os
import site
import sys
from pathlib import Path

from mlir import ir
from mlir.dialects import gpu, llvm

from oxide.ir.rules import is_op

LIBDEVICE = "libdevice.10.bc"


def libdevice_candidates() -> list[Path]:
    """Where libdevice may be, in search order: $CUDA_HOME, $CUDA_PATH, /usr/local/cuda, NVIDIA pip wheels."""
    roots = [os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"]
    candidates = [Path(root) / "nvvm" / "libdevice" / LIBDEVICE for root in roots if root]
    # pip: nvidia-cuda-nvcc-cu12 puts it under nvidia/cuda_nvcc/, the CUDA 13 wheels under nvidia/cu13/.
    site_dirs = [*site.getsitepackages(), site.getusersitepackages(), *sys.path]
    for site_dir in dict.fromkeys(site_dirs):
        nvidia = Path(site_dir) / "nvidia"
        if nvidia.is_dir():
            candidates.extend(sorted(nvidia.glob(f"*/nvvm/libdevice/{LIBDEVICE}")))
    return candidates


def find_libdevice() -> Path | None:
    """The first libdevice found, or None."""
    return next((path for path in libdevice_candidates() if path.is_file()), None)


def libdevice_functions(module: ir.Operation) -> list[str]:
    """The libdevice functions (`__nv_*`) a lowered module (a gpu.module, or a builtin.module of them) declares
    and so needs linked."""
    # Declarations are symbols at the top of a (gpu.)module: no need to visit the kernels' bodies, which hold
    # thousands of ops for a tile GEMM.
    needed: list[str] = []
    for op in module.regions[0].blocks[0].operations:
        if is_op(op, llvm.LLVMFuncOp):
            name = ir.StringAttr(op.attributes["sym_name"]).value
            if name.startswith("__nv_") and not op.regions[0].blocks:
                needed.append(name)
        elif is_op(op, gpu.GPUModuleOp):
            needed += libdevice_functions(op.operation)
    return needed
