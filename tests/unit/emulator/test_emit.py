"""emit_program: deterministic Python text with the Rust source locations embedded, and a located error for
an op the emulator has no rule for."""

from __future__ import annotations

import pytest
from mlir import ir

from oxide.backend.emulator import emit_program
from oxide.ir.diagnostics import OxideError
from oxide.ir.parse import parse_source
from tests.unit.emulator.helpers import EXAMPLES, _context, example

UNSUPPORTED_KERNEL = """
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @k(%a: i32) kernel {
      %lo, %hi = arith.mului_extended %a, %a : i32 loc("v.rs":3:7)
      gpu.return
    }
  }
}
"""


def test_program_is_deterministic_and_names_rust_locations():
    source = (EXAMPLES / "vecadd.rs").read_text()
    first = example("vecadd")
    with _context(), ir.Location.unknown():
        from oxide.frontends.rust.compile import compile_rust

        again = emit_program(compile_rust(source, "examples/rust/vecadd.rs", _context()).module)
    assert first == again
    assert "'examples/rust/vecadd.rs:9:19'" in first and "def kernel_vecadd(c, m0, p0, p1, p2):" in first


def test_op_without_rule_is_a_located_error():
    with _context(), ir.Location.unknown():
        module = parse_source(UNSUPPORTED_KERNEL, "v.mlir", _context()).module
        with pytest.raises(OxideError) as info:
            emit_program(module)
    assert "v.rs:3:7: error: the emulator cannot execute `arith.mului_extended` (no emulator rule for it)" in str(info.value)
