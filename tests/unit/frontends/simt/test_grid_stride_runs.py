"""`grid_stride_runs32(idx)` of a `DisjointSlice<T, LinearTiles<N>>` (calls/disjoint_views.py): thread t gets
runs t, t + P, t + 2P, ... (P threads in the grid) from `while let Some(run) = runs.next_run()`, each clipped at
the end of the slice (`is_clipped`, `len()` as u32); and `while let` itself (emit_expr.e_While: `loop { if let ..
else { break } }`), with `continue` and `break` in its body."""

from __future__ import annotations

import numpy as np

import oxide
from oxide.runtime.emulator import launch
from tests.unit.frontends.simt.test_device_ptx import assemble, needs_ptxas

_RUNS = """use cuda_device::{DisjointSlice, LinearTiles, kernel, launch_contract, thread};

#[kernel]
#[launch_contract(domain = 1, coordinates = u32)]
pub fn k(mut data: DisjointSlice<f32, LinearTiles<4>>, mut clipped: DisjointSlice<u32>) {
    let t = thread::index_1d_u32();
    let mut runs = data.grid_stride_runs32(t);
    let mut marker = 0u32;
    while let Some(mut run) = runs.next_run() {
        if run.is_clipped() {
            marker = run.len();
        }
        for k in 0..run.len() {
            if let Some(mut slot) = run.at(k) {
                let v = slot.read();
                slot.write(v * 2.0 + 1.0);
            }
        }
    }
    if let Some(slot) = clipped.get_mut(thread::index_1d()) {
        *slot = marker;
    }
}
"""

_WHILE_LET = """use cuda_device::{DisjointSlice, kernel, thread};

#[kernel]
pub fn k(mut out: DisjointSlice<u32>) {
    let idx = thread::index_1d();
    let i = idx.get() as u32;
    let mut next = Some(0u32);
    let mut total = 0u32;
    'outer: while let Some(v) = next {
        next = if v < 20 { Some(v + 1) } else { None };
        if v % 3 == 0 {
            continue;
        }
        if v == i + 5 {
            break 'outer;
        }
        total += v;
    }
    if let Some(slot) = out.get_mut(idx) {
        *slot = total;
    }
}
"""


def test_grid_stride_runs_cover_every_element_once():
    n = 150  # 38 runs of 4, the last one clipped to 2; 2 blocks of 8 threads: P = 16
    data = np.arange(n, dtype=np.float32)
    clipped = np.full(16, 99, np.uint32)
    launch(oxide.compile(_RUNS, "k.rs").emulator, "k", (2,), (8,), [data, clipped])
    np.testing.assert_array_equal(data, np.arange(n, dtype=np.float32) * 2 + 1)
    want = np.zeros(16, np.uint32)
    want[37 % 16] = 2  # run 37 (thread 5) is the clipped tail
    np.testing.assert_array_equal(clipped, want)


def test_while_let_with_continue_and_break():
    out = np.zeros(32, np.uint32)
    launch(oxide.compile(_WHILE_LET, "k.rs").emulator, "k", (1,), (32,), [out])
    want = []
    for i in range(32):
        total = 0
        for v in range(21):
            if v % 3 == 0:
                continue
            if v == i + 5:
                break
            total += v
        want.append(total)
    assert out.tolist() == want


@needs_ptxas
def test_grid_stride_runs_assemble(tmp_path):
    for src in (_RUNS, _WHILE_LET):
        assemble(src, tmp_path)
