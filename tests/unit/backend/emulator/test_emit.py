"""emit_program: deterministic Python text with the Rust source locations embedded, and a located error for
an op the emulator has no rule for."""

from __future__ import annotations

import pytest
from mlir import ir

from oxide.backend.emulator import emit_program
from oxide.diagnostics import OxideError
from oxide.ir.parse import parse_source
from tests.unit.runtime.emulator.helpers import EXAMPLES, _context, example

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
        from oxide.frontends.simt.compile import compile_rust

        again = emit_program(compile_rust(source, "examples/rust/vecadd.rs", _context()).module)
    assert first == again
    assert "'examples/rust/vecadd.rs:9:19'" in first and "def kernel_vecadd(c, m0, p0, p1, p2):" in first


def test_op_without_rule_is_a_located_error():
    with _context(), ir.Location.unknown():
        module = parse_source(UNSUPPORTED_KERNEL, "v.mlir", _context()).module
        with pytest.raises(OxideError) as info:
            emit_program(module)
    assert "v.rs:3:7: error: the emulator cannot execute `arith.mului_extended` (no emulator rule for it)" in str(info.value)


def test_non_strict_program_defers_the_error_to_the_launch():
    import numpy as np

    from oxide.runtime.emulator import UnsupportedOperation, launch

    two_kernels = UNSUPPORTED_KERNEL.replace("    gpu.func @k(", """    gpu.func @fine(%o: !simt.slice_mut<i32>) kernel {
      %c0 = arith.constant 0 : index
      %c5 = arith.constant 5 : i32
      "simt.store"(%o, %c0, %c5) : (!simt.slice_mut<i32>, index, i32) -> ()
      gpu.return
    }
    gpu.func @k(""")
    with _context(), ir.Location.unknown():
        program = emit_program(parse_source(two_kernels, "v.mlir", _context()).module, strict=False)
    out = np.zeros(1, np.int32)
    launch(program, "fine", (1,), (1,), [out])
    assert out[0] == 5
    with pytest.raises(UnsupportedOperation, match=r"kernel `k` cannot run on the emulator:\n.*v.rs:3:7: error: the "
                                                   r"emulator cannot execute `arith.mului_extended`"):
        launch(program, "k", (1,), (1,), [np.int32(1)])
