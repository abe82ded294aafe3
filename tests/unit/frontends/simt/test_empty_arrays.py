"""Empty arrays: `let a: [T; 0] = [];` and `[x; 0]` have length 0, and any index into them panics (a trap),
as Rust's bounds check does. (An empty literal with no type to infer is rejected:
rejections/empty_array_untyped.rs.)"""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

import oxide
from oxide.runtime.emulator import launch
from oxide.runtime.emulator.errors import KernelTrap

_SRC = """use cuda_device::{kernel, thread, DisjointSlice};
#[kernel]
pub fn k(probe: u32, mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let empty: [u32; 0] = [];
    let repeated = [1.5f32; 0];
    if let Some(o) = out.get_mut(idx) {
        *o = empty.len() as u32 * 10 + repeated.len() as u32 + 7 + i as u32;
        if probe == 1 {
            *o = empty[i];
        }
        if probe == 2 {
            *o = empty[0];
        }
    }
}
"""


def _launch(probe: int) -> np.ndarray:
    out = np.zeros(4, np.uint32)
    launch(oxide.compile(_SRC, "k.rs").emulator, "k", (1,), (4,), [np.uint32(probe), out])
    return out


def test_empty_arrays_have_length_zero():
    np.testing.assert_array_equal(_launch(0), np.arange(4, dtype=np.uint32) + 7)


@pytest.mark.parametrize("probe", [1, 2])
def test_indexing_an_empty_array_panics(probe):
    with pytest.raises(KernelTrap):
        _launch(probe)


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
def test_empty_arrays_ptx_assembles(tmp_path):
    path = tmp_path / "k.ptx"
    path.write_text(oxide.compile(_SRC, "k.rs").ptx["sm_90"])
    subprocess.run(["ptxas", "-arch=sm_90", str(path), "-o", str(tmp_path / "k.cubin")], check=True)
