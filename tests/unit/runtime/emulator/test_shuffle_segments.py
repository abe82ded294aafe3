"""Shuffles within segments of a warp (PTX shfl.sync with a segment width): a butterfly may read a lane of an
earlier segment but not of a later one, as the GPU does; a tile's `shfl_xor` stays inside its tile."""

from __future__ import annotations

import numpy as np

from oxide.runtime.emulator import warp
from oxide.runtime.emulator.threads import Launch, Threads
from tests.unit.frontends.simt.test_constructs import ir, kernel
from tests.unit.runtime.emulator.helpers import run


def _warp() -> Threads:
    return Threads(Launch("k", ("k.rs:1:1",), (1, 1, 1), (32, 1, 1), 0, False), np.zeros((1, 3), np.int64))


def test_a_butterfly_reads_earlier_segments_but_not_later_ones():
    c = _warp()
    lanes = np.arange(32, dtype=np.int32)
    got = warp.shuffle(c, c.full, np.int32(-1), lanes, np.int32(16), "xor", 16, 0)
    # Lanes 0..15 would read 16..31, past their segment: their own value. Lanes 16..31 read 0..15 (the GPU's).
    np.testing.assert_array_equal(got, np.concatenate([lanes[:16], lanes[:16]]))


def test_a_tile_butterfly_stays_in_the_tile():
    body = """let tile = this_thread_block().tiled_partition::<16>();
    let lane = warp::lane_id();
    out[thread::threadIdx_x() as usize] = tile.shfl_xor(lane, 17);"""
    src = f"#[kernel]\npub unsafe fn k(out: &mut [u32]) {{\n{body}\n}}\n"
    out = np.zeros(32, np.uint32)
    run(src, 1, 32, [out])
    np.testing.assert_array_equal(out, np.arange(32) ^ 1)  # 17 within a 16-lane tile is 1
    assert "arith.andi" in ir(kernel("mut o: DisjointSlice<u32>", "let t = this_thread_block().tiled_partition::<16>();\n"
                                     "let v = t.shfl_xor(warp::lane_id(), 16);"))
