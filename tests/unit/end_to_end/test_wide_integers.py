"""128-bit integer constants go through the whole compiler: the MLIR bindings read integer attributes through
int64 (LLVM aborts the process on wider values), so the analyses and the emulator must not ask them."""

from __future__ import annotations

import oxide

SOURCE = """
use cuda_device::{kernel, thread, DisjointSlice};
#[kernel]
pub fn k(x: &[u64], mut out: DisjointSlice<u64>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let big: u128 = 0x1234_5678_9abc_def0_1234_5678_9abc_def0;
    if let Some(o) = out.get_mut(idx) {
        *o = ((x[i] as u128 * big) >> 64) as u64;
    }
}
"""


def test_a_128_bit_constant_compiles_to_ptx_and_its_emulation_says_why_not():
    import numpy as np
    import pytest

    from oxide.runtime.emulator import launch
    from oxide.runtime.emulator.errors import UnsupportedOperation

    module = oxide.compile(SOURCE, "wide.rs")
    assert ".entry k" in module.ptx["sm_90"]
    # numpy has no 128-bit integers: the kernel stays out of the emulator program, and launching it says why.
    with pytest.raises(UnsupportedOperation, match="128-bit integers"):
        launch(module.emulator, "k", (1, 1, 1), (4, 1, 1), [np.ones(4, np.uint64), np.zeros(4, np.uint64)])
