"""oxide's Python entry points: compile Rust kernels to PTX (`oxide.compile`, `oxide.compile_file`).

The result carries the PTX per target and each kernel's signature, which is what the runtime loads.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

from oxide.frontends.rust.compile import KernelInfo


@dataclass
class CompiledModule:
    """Kernels compiled from one source: PTX per chip, kernel signatures, the simt IR and phase timings."""

    name: str
    ptx: dict[str, str]
    kernels: list[KernelInfo]
    simt_ir: str
    skipped_generic: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)

    def kernel(self, name: str) -> KernelInfo:
        """A kernel by name or entry name."""
        for k in self.kernels:
            if name in (k.name, k.entry):
                return k
        raise KeyError(f"no kernel `{name}` in {self.name} (kernels: {', '.join(k.entry for k in self.kernels)})")


def compile(source: str, name: str = "<source>.rs", chip: str = "sm_90",
            instances: dict[str, list[list[str]]] | None = None) -> CompiledModule:
    """Compile Rust kernel source to PTX for `chip`; raise OxideError (located diagnostics) on bad input."""
    from oxide.backend import Target, compile_to_ptx
    from oxide.frontends.rust.compile import compile_rust
    from oxide.ir.context import make_context

    start = time.perf_counter()
    context = make_context()
    timings = {"context": time.perf_counter() - start}
    result = compile_rust(source, name, context, instances)
    timings.update(result.timings)
    simt_ir = str(result.module)
    start = time.perf_counter()
    with context:
        ptx = compile_to_ptx(result.module, Target(chip))
    timings["passes+nvptx"] = time.perf_counter() - start
    return CompiledModule(name, {chip: "\n".join(ptx.values())}, result.kernels, simt_ir, result.skipped_generic,
                          timings)


def compile_file(path: str | Path, chip: str = "sm_90",
                 instances: dict[str, list[list[str]]] | None = None) -> CompiledModule:
    """Compile a .rs file (see `compile`)."""
    path = Path(path)
    return compile(path.read_text(encoding="utf-8"), str(path), chip, instances)
