"""Proof-carrying read views (intrinsics/matrix_views.py): `MatrixView32::new(slice, stride)`, `row(r, len)` /
`col(c, len)` (Some only when every element is in the slice), `get(i)`, `len()`, `for x in v.iter()`,
`zip_exact` iterated as pairs, and `unwrap_or(RowView32::empty())`; checked against numpy on the emulator, and
the PTX assembles. (Rejection: rejections/matrix_view_unwrap_or_nonempty.rs.)"""

from __future__ import annotations

import numpy as np

import oxide
from oxide.runtime.emulator import launch
from tests.unit.frontends.simt.test_device_ptx import assemble, needs_ptxas

_SRC = """use cuda_device::{kernel, thread, DisjointSlice, MatrixView32, RowView32, ColView32};
#[kernel]
pub fn dots(a: &[f32], b: &[f32], k: u32, n: u32, mut out: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let t = idx.get() as u32;
    let (row, col) = (t / n, t % n);
    let am = MatrixView32::new(a, k);
    let bm = MatrixView32::new(b, n);
    let mut s = -1.0f32;
    if let Some(r) = am.row(row, k) && let Some(c) = bm.col(col, k) && let Some(p) = r.zip_exact(c) {
        s = 0.0;
        for (x, y) in p {
            s += x * y;
        }
    }
    let r2 = am.row(row, k).unwrap_or(RowView32::empty());
    let c2 = bm.col(col, k + 1).unwrap_or(ColView32::empty());
    let mut sr = 0.0f32;
    for x in r2.iter() {
        sr += x;
    }
    let g = r2.get(1).unwrap_or(-7.0) + 100.0 * c2.len() as f32 + 1000.0 * r2.get(k).unwrap_or(0.5);
    if let Some(o) = out.get_mut(idx) {
        *o = s * 10000.0 + sr * 100.0 + g;
    }
}
"""


def test_row_and_column_views_of_a_matrix():
    m, k, n = 3, 2, 2
    a = np.arange(m * k, dtype=np.float32) + 1
    b = np.arange(k * n, dtype=np.float32) + 1
    out = np.zeros(8, np.float32)
    launch(oxide.compile(_SRC, "k.rs").emulator, "dots", (1, 1, 1), (8, 1, 1),
           [a, b, np.uint32(k), np.uint32(n), out])
    am, bm = a.reshape(m, k), b.reshape(k, n)
    expected = []
    for t in range(8):
        row, col = divmod(t, n)
        if row < m:  # the row, the column and their dot product exist; a column of k + 1 does not
            s, sr, g = float(am[row] @ bm[:, col]), float(am[row].sum()), float(am[row][1])
        else:  # rows past the matrix: None everywhere, empty views
            s, sr, g = -1.0, 0.0, -7.0
        expected.append(s * 10000 + sr * 100 + g + 1000 * 0.5)
    assert out.tolist() == expected


@needs_ptxas
def test_matrix_views_assemble(tmp_path):
    assemble(_SRC, tmp_path)
