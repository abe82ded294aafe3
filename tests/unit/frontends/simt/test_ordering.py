"""Three-way comparison (intrinsics/ordering.py): `cmp`/`partial_cmp` of integers (signed and unsigned, narrow
and wide), chars and floats into `core::cmp::Ordering`, whose tag is the declared -1/0/1 (`as i32` sign-extends),
matched on, and used through a user `impl Ord` of a generic struct whose parameter is inferred from an array
field (`pieces: [T; 4]`)."""

from __future__ import annotations

import numpy as np

import oxide
from oxide.runtime.emulator import launch
from tests.unit.frontends.simt.test_device_ptx import assemble, needs_ptxas

_SRC = """use cuda_device::{kernel, thread, DisjointSlice};
use core::cmp::Ordering;

#[derive(Clone, Copy)]
struct Key<T> { pieces: [T; 2] }

impl<T: Ord> Ord for Key<T> {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.pieces[0].cmp(&other.pieces[0]).then(self.pieces[1].cmp(&other.pieces[1]))
    }
}

fn code<T: Ord + Copy + Default>(a: T, b: T) -> i32 {
    let x = Key { pieces: [a, T::default()] };
    let y = Key { pieces: [b, T::default()] };
    match x.cmp(&y) {
        Ordering::Less => -1,
        Ordering::Equal => 0,
        Ordering::Greater => 1,
    }
}

#[kernel]
pub fn k(xs: &[i32], fs: &[f32], mut out: DisjointSlice<i32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    let a = xs[i];
    let b = xs[i + 1];
    let v = match i % 8 {
        0 => code(a, b),
        1 => code(a as u32, b as u32),
        2 => code(a as i8, b as i8),
        3 => code(a as u64, b as u64),
        4 => a.cmp(&b) as i8 as i32,
        5 => match fs[i].partial_cmp(&fs[i + 1]) { Some(o) => o as i32, None => 7 },
        6 => code(a == 3, b == 3),
        _ => (a.cmp(&b).reverse() as i32) * 10 + a.cmp(&b).is_le() as i32,
    };
    if let Some(slot) = out.get_mut(idx) {
        *slot = v;
    }
}
"""


def _sign(x) -> int:
    return (x > 0) - (x < 0)


def test_cmp_orderings_match_rust():
    rng = np.random.default_rng(3)
    n = 64
    xs = rng.integers(-300, 300, n + 1).astype(np.int32)
    xs[8:16] = xs[9:17]  # equal neighbours too
    fs = rng.standard_normal(n + 1).astype(np.float32)
    fs[5] = np.nan
    fs[21] = fs[22]
    out = np.zeros(n, np.int32)
    launch(oxide.compile(_SRC, "k.rs").emulator, "k", (1,), (n,), [xs, fs, out])
    want = []
    for i in range(n):
        a, b = int(xs[i]), int(xs[i + 1])
        lane = i % 8
        if lane == 0:
            w = _sign(a - b)
        elif lane == 1:
            w = _sign((a & 0xFFFFFFFF) - (b & 0xFFFFFFFF))
        elif lane == 2:
            w = _sign(int(np.int32(a).astype(np.int8)) - int(np.int32(b).astype(np.int8)))
        elif lane == 3:
            w = _sign((a & (2**64 - 1)) - (b & (2**64 - 1)))
        elif lane == 4:
            w = _sign(a - b)
        elif lane == 5:
            f, g = float(fs[i]), float(fs[i + 1])
            w = 7 if np.isnan(f) or np.isnan(g) else _sign(f - g)
        elif lane == 6:
            w = _sign(int(a == 3) - int(b == 3))
        else:
            w = -_sign(a - b) * 10 + int(a <= b)
        want.append(w)
    assert out.tolist() == want


@needs_ptxas
def test_cmp_assembles(tmp_path):
    assemble(_SRC, tmp_path)
