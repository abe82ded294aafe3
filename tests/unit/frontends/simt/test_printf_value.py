"""The value of `gpu_printf!(...)`: CUDA's vprintf returns an i32, the number of arguments it read (not a
character count), which cuda-oxide's macro hands back. Checked on the emulator (values, and that the
arguments still print in format order although simt.printf groups them by type) and through ptxas."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

import oxide
from oxide.runtime.emulator import launch
from tests.unit.frontends.simt.test_constructs import ir

_SRC = """use cuda_device::{gpu_printf, kernel, thread, DisjointSlice};
#[kernel]
pub fn counts(mut out: DisjointSlice<i32>) {
    let idx = thread::index_1d();
    let t = idx.get() as u32;
    let r0 = gpu_printf!("hello\\n");
    let r2 = gpu_printf!("{:.2} {}\\n", 1.5f32 * t as f32, t);
    let r4 = gpu_printf!("{} {} {} {:x}\\n", -1i64, 2.0f64, true, 255u8);
    gpu_printf!("r0={} r2={}\\n", r0, r2);
    if let Some(o) = out.get_mut(idx) {
        *o = r0 * 100 + r2 * 10 + r4;
    }
}
"""


def test_printf_returns_the_argument_count_and_prints_in_format_order(capsys):
    out = np.full(3, -7, np.int32)
    launch(oxide.compile(_SRC, "k.rs").emulator, "counts", (1,), (3,), [out])
    np.testing.assert_array_equal(out, [24, 24, 24])
    printed = capsys.readouterr().out.splitlines()
    assert printed[:3] == ["hello"] * 3
    assert printed[3:6] == ["0.00 0", "1.50 1", "3.00 2"]  # f64 before i32: the order survives the grouping
    assert printed[6:9] == ["-1 2 1 ff"] * 3
    assert printed[9:] == ["r0=0 r2=2"] * 3


def test_printf_value_is_an_i32_in_the_ir():
    text = ir(_SRC)
    assert 'order = "di"' in text and "(i32, f64) -> i32" in text


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
def test_printf_value_ptx_assembles(tmp_path):
    ptx = oxide.compile(_SRC, "k.rs").ptx["sm_90"]
    assert ptx.count("call.uni (retval0), vprintf") == 4
    path = tmp_path / "k.ptx"
    path.write_text(ptx)
    subprocess.run(["ptxas", "-arch=sm_90", str(path), "-o", str(tmp_path / "k.cubin")], check=True)
