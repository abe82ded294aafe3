"""Traps, assertions and out-of-bounds accesses raise exceptions naming kernel, block, thread and the Rust
source location; printf prints in thread order; bad launches are refused with a LaunchError."""

from __future__ import annotations

import numpy as np
import pytest

from oxide.runtime.emulator import (
    KernelAssertion,
    KernelTrap,
    LaunchError,
    OutOfBounds,
    launch,
)
from tests.unit.runtime.emulator.helpers import example, run

USE = "use cuda_device::{gpu_printf, kernel, thread};\n"


def test_out_of_bounds_read_names_thread_index_and_location():
    src = USE + """#[kernel]
pub unsafe fn k(x: &[f32], out: &mut [f32]) {
    let i = thread::index_1d().get();
    out[i] = x[i + 3];
}"""
    with pytest.raises(OutOfBounds) as info:
        run(src, (2,), (64,), [np.ones(128, np.float32), np.zeros(128, np.float32)])
    message = str(info.value)
    assert message.startswith("kernel `k`, block (1, 0, 0), thread (61, 0, 0) (and 2 more threads): ")
    assert "index 128 is out of bounds for kernel parameter 0 of `k` of length 128" in message
    assert message.endswith("--> k.rs:5:14")
    # The same report as a located Diagnostic, rendered rustc-style with the source line.
    (diagnostic,) = info.value.diagnostics
    assert (diagnostic.severity, str(diagnostic.loc)) == ("error", "k.rs:5:14")
    rendered = info.value.render({"k.rs": src})
    assert rendered.startswith("k.rs:5:14: error: kernel `k`, block (1, 0, 0)")
    assert "5 |     out[i] = x[i + 3];" in rendered


def test_panic_is_a_trap_with_its_location():
    src = USE + """#[kernel]
pub unsafe fn k(x: &[u32], out: &mut [u32]) {
    let t = thread::threadIdx_x() as usize;
    if x[t] == 7 {
        panic!("seven");
    }
    out[t] = x[t];
}"""
    x = np.arange(10, dtype=np.uint32)
    with pytest.raises(KernelTrap) as info:
        run(src, (1,), (10,), [x, np.zeros(10, np.uint32)])
    assert "block (0, 0, 0), thread (7, 0, 0): trap" in str(info.value) and "k.rs:6:9" in str(info.value)


def test_failed_assertion_carries_its_message():
    src = USE + """#[kernel]
pub unsafe fn k(x: &[u32]) {
    let t = thread::threadIdx_x() as usize;
    assert!(x[t] < 5, "value too big");
}"""
    with pytest.raises(KernelAssertion) as info:
        run(src, (1,), (8,), [np.arange(8, dtype=np.uint32)])
    assert "thread (5, 0, 0) (and 2 more threads): assertion failed: value too big" in str(info.value)


def test_printf_prints_in_thread_order(capsys):
    src = USE + """#[kernel]
pub fn k(n: u32) {
    let t = thread::threadIdx_x();
    if t % 3 == n {
        gpu_printf!("t={} b={} x={:.2}\\n", t, thread::blockIdx_x(), (t as f32) * 0.5);
    }
}"""
    run(src, (2,), (10,), [np.uint32(1)])
    lines = capsys.readouterr().out.splitlines()
    assert lines == [f"t={t} b={b} x={t * 0.5:.2f}" for b in range(2) for t in (1, 4, 7)]


def test_launch_errors():
    program = example("vecadd")
    a = np.zeros(10, np.float32)
    with pytest.raises(LaunchError, match="takes 3 arguments, got 2"):
        launch(program, "vecadd", (1,), (32,), [a, a])
    with pytest.raises(LaunchError, match="holds float32 elements, got an array of float64"):
        launch(program, "vecadd", (1,), (32,), [a, a, np.zeros(10)])
    with pytest.raises(LaunchError, match="no kernel `vecad`"):
        launch(program, "vecad", (1,), (32,), [a, a, a])
    with pytest.raises(LaunchError, match="block must be 1 to 3 positive extents"):
        launch(program, "vecadd", (1,), (0,), [a, a, a])
