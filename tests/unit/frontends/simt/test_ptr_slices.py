"""Slices of shared or generic memory (ptr_slices.py): `slice::from_raw_parts(_mut)` over a pointer that is
not a global one, here `addr_of!(TILE) as *const T` of a shared array reinterpreted as pairs or words. Read,
written (whole elements and fields), measured, split, subsliced, chunked and passed to a `&[T]` helper, with
the bounds check every slice index has; and the PTX assembles. (A DisjointSlice of shared memory is refused:
rejections/disjoint_slice_of_shared_memory.rs.)"""

from __future__ import annotations

import numpy as np
import pytest

import oxide
from oxide.runtime.emulator import launch
from oxide.runtime.emulator.errors import KernelTrap
from tests.unit.frontends.simt.test_device_ptx import assemble, needs_ptxas

_READS = """use cuda_device::{kernel, thread, DisjointSlice, SharedArray};
fn total(s: &[u32]) -> u32 {
    let mut t = 0u32;
    let mut i = 0;
    while i < s.len() {
        t += s[i];
        i += 1;
    }
    t
}
#[kernel]
pub fn k(input: &[u32], at: usize, mut out: DisjointSlice<u32>) {
    static mut TILE: SharedArray<u32, 16> = SharedArray::UNINIT;
    let t = thread::index_1d();
    let i = t.get();
    unsafe {
        TILE[i] = input[i];
    }
    thread::sync_threads();
    unsafe {
        let pairs = core::slice::from_raw_parts(core::ptr::addr_of!(TILE) as *const (u32, u32), 8);
        let words = core::slice::from_raw_parts(core::ptr::addr_of!(TILE) as *const u32, 16);
        let (lo, hi) = words.split_at(4);
        let mid = &words[2..6];
        let (chunks, rest) = words.as_chunks::<3>();
        let v = if i < 8 {
            pairs[i].0 * 100 + pairs[i].1
        } else {
            match i {
                8 => total(lo),
                9 => total(hi),
                10 => total(mid),
                11 => (chunks.len() * 10 + rest.len()) as u32,
                12 => chunks[2][1],
                13 => *words.as_ptr().add(5),
                14 => words[at],
                _ => pairs.len() as u32 + words.is_empty() as u32,
            }
        };
        if let Some(c) = out.get_mut(t) {
            *c = v;
        }
    }
}
"""

_WRITES = """use cuda_device::{kernel, thread, DisjointSlice, SharedArray};
#[kernel]
pub fn w(mut out: DisjointSlice<u32>) {
    static mut S: SharedArray<u32, 8> = SharedArray::UNINIT;
    let t = thread::index_1d();
    let i = t.get();
    if i == 0 {
        unsafe {
            let s = core::slice::from_raw_parts_mut(core::ptr::addr_of_mut!(S) as *mut (u32, u32), 4);
            let mut j = 0;
            while j < s.len() {
                s[j] = (j as u32, 10 + j as u32);
                s[j].1 += 5;
                j += 1;
            }
        }
    }
    thread::sync_threads();
    let v = unsafe { S[i] };
    if let Some(c) = out.get_mut(t) {
        *c = v;
    }
}
"""


def test_a_shared_array_read_as_a_slice_of_pairs_and_of_words():
    words = np.arange(1, 17, dtype=np.uint32)
    out = np.zeros(16, np.uint32)
    launch(oxide.compile(_READS, "k.rs").emulator, "k", (1, 1, 1), (16, 1, 1), [words, 3, out])
    pairs = [100 * int(words[2 * i]) + int(words[2 * i + 1]) for i in range(8)]
    others = [words[:4].sum(), words[4:].sum(), words[2:6].sum(), 5 * 10 + 1, words[7], words[5], words[3], 8]
    assert out.tolist() == pairs + [int(x) for x in others]


def test_an_index_past_the_end_traps():
    with pytest.raises(KernelTrap):
        launch(oxide.compile(_READS, "k.rs").emulator, "k", (1, 1, 1), (16, 1, 1),
               [np.arange(16, dtype=np.uint32), 16, np.zeros(16, np.uint32)])


def test_a_shared_array_written_through_a_mutable_slice_of_pairs():
    out = np.zeros(8, np.uint32)
    launch(oxide.compile(_WRITES, "k.rs").emulator, "w", (1, 1, 1), (8, 1, 1), [out])
    assert out.tolist() == [0, 15, 1, 16, 2, 17, 3, 18]


@needs_ptxas
def test_slices_of_shared_memory_assemble(tmp_path):
    assemble(_READS, tmp_path)
    assemble(_WRITES, tmp_path)
