"""cooperative_groups' reductions and scans (`warp_reduce`, `warp_scan`, `block_reduce`, `block_scan`) and
`coalesced_threads()`: each form runs on the emulator against a numpy model of cuda_device's definitions
(every combiner and value type, tiles of every size, partial warps and blocks), assembles with ptxas, and
every misuse is a located error."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

import oxide
from oxide.diagnostics import OxideError
from oxide.runtime.emulator import EmulatorError
from tests.unit.frontends.simt.test_constructs import build
from tests.unit.runtime.emulator.helpers import run

RNG = np.random.default_rng(17)
USE = ("use cuda_device::{kernel, thread, SharedArray};\nuse cuda_device::cooperative_groups::{this_thread_block, "
       "coalesced_threads, warp_reduce, warp_scan, block_reduce, block_scan, ThreadGroup, WarpCollective, "
       "ops::{Sum, Min, Max, BitAnd, BitOr, BitXor}};\n")
DTYPES = {"u32": np.uint32, "i32": np.int32, "f32": np.float32}
IDENTITY = {"Sum": 0, "Min": None, "Max": None, "BitAnd": -1, "BitOr": 0, "BitXor": 0}
COMBOS = [(ty, op) for ty in DTYPES for op in ("Sum", "Min", "Max")] + [("u32", op) for op in ("BitAnd", "BitOr",
                                                                                               "BitXor")]


def _fold(op: str, values: np.ndarray, scan: bool) -> np.ndarray:
    """The fold (or inclusive scan) of `values` under cuda_device's combiner `op`, in their own dtype."""
    ufunc = {"Sum": np.add, "Min": np.minimum, "Max": np.maximum, "BitAnd": np.bitwise_and, "BitOr": np.bitwise_or,
             "BitXor": np.bitwise_xor}[op]
    if values.dtype == np.float32 and op == "Sum":  # f32 sums of small integers are exact in any order
        values = values.astype(np.float64)
    return (ufunc.accumulate(values) if scan else ufunc.reduce(values, keepdims=True)).astype(values.dtype)


def _values(ty: str, n: int) -> np.ndarray:
    if ty == "f32":
        return RNG.integers(-1000, 1000, n).astype(np.float32)
    info = np.iinfo(DTYPES[ty])
    return RNG.integers(info.min, info.max, n, endpoint=True).astype(DTYPES[ty])


def _expected(op: str, x: np.ndarray, block: int, size: int, scan: bool) -> np.ndarray:
    """Per thread: the fold over its group (tiles of `size` lanes, cut inside warps; only existing lanes), or
    the scan up to it."""
    want = np.empty_like(x)
    for start in range(0, len(x), block):
        for lo in range(start, start + block, size):
            hi = min(lo + size, start + block)
            folded = _fold(op, x[lo:hi], scan)
            want[lo:hi] = folded if scan else np.repeat(folded, hi - lo)
    return want


def _run_rows(src: str, ty: str, x: np.ndarray, block: int, grid: int = 2) -> np.ndarray:
    out = np.zeros_like(x)
    run(src, (grid,), (block,), [x, out])
    return out


# warp_reduce / warp_scan -------------------------------------------------------------------------------------
def _warp_kernel(fn: str, ty: str, op: str, n: int) -> str:
    return USE + f"""#[kernel]
pub unsafe fn k(x: &[{ty}], out: &mut [{ty}]) {{
    let t = thread::index_1d().get();
    let tile = this_thread_block().tiled_partition::<{n}>();
    out[t] = {fn}::<{ty}, {op}, _>(&tile, x[t]);
}}"""


@pytest.mark.parametrize("fn", ["warp_reduce", "warp_scan"])
@pytest.mark.parametrize("ty, op", COMBOS)
def test_warp_collective_each_op_and_type_with_a_partial_warp(fn, ty, op):
    block = 50  # the second warp has 18 lanes
    x = _values(ty, 2 * block)
    out = _run_rows(_warp_kernel(fn, ty, op, 32), ty, x, block)
    np.testing.assert_array_equal(out, _expected(op, x, block, 32, fn == "warp_scan"))


@pytest.mark.parametrize("fn", ["warp_reduce", "warp_scan"])
@pytest.mark.parametrize("n", [1, 2, 4, 8, 16])
@pytest.mark.parametrize("ty, op", [("u32", "Sum"), ("f32", "Max"), ("i32", "Min")])
def test_warp_collective_over_sub_warp_tiles(fn, n, ty, op):
    block = 45  # the second warp has 13 lanes: its last tile of 8 or 16 is partial
    x = _values(ty, 2 * block)
    out = _run_rows(_warp_kernel(fn, ty, op, n), ty, x, block)
    np.testing.assert_array_equal(out, _expected(op, x, block, n, fn == "warp_scan"))


# block_reduce / block_scan -----------------------------------------------------------------------------------
def _block_kernel(fn: str, ty: str, op: str, slots: int, explicit: str = "_") -> str:
    return USE + f"""#[kernel]
pub unsafe fn k(x: &[{ty}], out: &mut [{ty}]) {{
    static mut SMEM: SharedArray<{ty}, {slots}> = SharedArray::UNINIT;
    let block = this_thread_block();
    let t = thread::index_1d().get();
    out[t] = {fn}::<{ty}, {op}, {explicit}>(&block, x[t], &raw mut SMEM);
}}"""


@pytest.mark.parametrize("fn", ["block_reduce", "block_scan"])
@pytest.mark.parametrize("ty, op", COMBOS)
def test_block_collective_each_op_and_type(fn, ty, op):
    block = 96
    x = _values(ty, 2 * block)
    out = _run_rows(_block_kernel(fn, ty, op, 3, explicit="3"), ty, x, block)
    np.testing.assert_array_equal(out, _expected(op, x, block, block, fn == "block_scan"))


@pytest.mark.parametrize("fn", ["block_reduce", "block_scan"])
@pytest.mark.parametrize("block, slots", [(20, 1), (50, 2), (70, 8), (1024, 32)])
def test_block_collective_with_partial_warps_and_spare_scratch(fn, block, slots):
    x = _values("u32", 2 * block)
    out = _run_rows(_block_kernel(fn, "u32", "Sum", slots), "u32", x, block)
    np.testing.assert_array_equal(out, _expected("Sum", x, block, block, fn == "block_scan"))


def test_block_collectives_back_to_back_on_one_scratch():
    src = USE + """#[kernel]
pub unsafe fn k(x: &[i32], out: &mut [i32]) {
    static mut SMEM: SharedArray<i32, 4> = SharedArray::UNINIT;
    let block = this_thread_block();
    let t = thread::index_1d().get();
    let low = block_reduce::<i32, Min, _>(&block, x[t], &raw mut SMEM);
    block.sync();
    let prefix = block_scan::<i32, Max, _>(&block, x[t], &raw mut SMEM);
    out[t] = prefix - low;
}"""
    block = 100
    x = _values("i32", 2 * block) // 4
    out = _run_rows(src, "i32", x, block)
    want = _expected("Max", x, block, block, True) - _expected("Min", x, block, block, False)
    np.testing.assert_array_equal(out, want)


def test_block_collective_traps_when_the_scratch_has_fewer_slots_than_warps():
    x = _values("u32", 96)
    with pytest.raises(EmulatorError, match="trap"):
        _run_rows(_block_kernel("block_reduce", "u32", "Sum", 2), "u32", x, 96, grid=1)


# coalesced_threads --------------------------------------------------------------------------------------------
COALESCED = USE + """#[kernel]
pub unsafe fn k(x: &[u32], out: &mut [u32]) {
    let t = thread::index_1d().get();
    let lane = t as u32 % 32;
    if x[t] % 3 != 0 {
        let g = coalesced_threads();
        let v = x[t];
        let row = t * 12;
        out[row] = g.size();
        out[row + 1] = g.thread_rank();
        out[row + 2] = g.raw_mask();
        out[row + 3] = g.ballot(v % 2 == 0);
        out[row + 4] = g.shfl(v, 1);
        out[row + 5] = g.shfl(v, g.size());
        out[row + 6] = g.shfl_xor(v, 1);
        out[row + 7] = g.shfl_down(v, 2);
        out[row + 8] = g.shfl_up_f32(v as f32, 1) as u32;
        out[row + 9] = g.match_any(v % 4) | ((g.any(v == 7) as u32) << 31);
        out[row + 10] = g.match_all(lane / 64);
        g.sync();
        out[row + 11] = g.all(v > 0) as u32;
    }
}"""


def _coalesced_model(x: np.ndarray, block: int) -> np.ndarray:
    """cuda_device's CoalescedThreads, lane by lane, for the lanes where x % 3 != 0."""
    want = np.zeros((len(x), 12), np.uint64)
    starts = [b + w for b in range(0, len(x), block) for w in range(0, block, 32)]
    for w in starts:
        ids = [t for t in range(w, min(w + 32, (w // block + 1) * block)) if x[t] % 3]
        mask = sum(1 << (t - w) for t in ids)
        for t in ids:
            lane, v = t - w, int(x[t])

            def at(src: int) -> int:
                return int(x[w + src]) if 0 <= src < 32 and mask >> src & 1 else v
            members = [s - w for s in ids]
            want[t] = [len(ids), members.index(lane), mask,
                       sum(1 << m for m in members if x[w + m] % 2 == 0), at(members[1]) if len(ids) > 1 else v,
                       v, at(lane ^ 1), at(lane + 2), at(lane - 1),
                       sum(1 << m for m in members if x[w + m] % 4 == v % 4) | (any(x[w + m] == 7 for m in members) << 31),
                       mask, all(x[w + m] > 0 for m in members)]
    return want


@pytest.mark.parametrize("block", [64, 40])
def test_coalesced_threads_follow_the_active_mask(block):
    x = RNG.integers(0, 50, 2 * block).astype(np.uint32)
    x[5] = 7
    out = np.zeros(2 * block * 12, np.uint32)
    run(COALESCED, (2,), (block,), [x, out])
    want = _coalesced_model(x, block)
    active = x % 3 != 0
    np.testing.assert_array_equal(out.reshape(-1, 12)[active], want[active].astype(np.uint32))


# PTX -----------------------------------------------------------------------------------------------------------
@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
def test_collectives_assemble_for_sm_90a(tmp_path):
    src = USE + """#[kernel]
pub unsafe fn k(x: &[f32], out: &mut [f32]) {
    static mut S: SharedArray<f32, 8> = SharedArray::UNINIT;
    let block = this_thread_block();
    let t = thread::index_1d().get();
    let tile = block.tiled_partition::<8>();
    let a = warp_reduce::<f32, Sum, _>(&tile, x[t]) + warp_scan::<f32, Min, 8>(&tile, x[t]);
    let b = block_reduce::<f32, Max, _>(&block, a, &raw mut S);
    block.sync();
    let c = block_scan::<f32, Sum, _>(&block, b, &raw mut S);
    let g = coalesced_threads();
    out[t] = c + g.shfl_f32(a, 0) + g.size() as f32;
}"""
    ptx = oxide.compile(src, name="k.rs", chip="sm_90a").ptx["sm_90a"]
    (tmp_path / "k.ptx").write_text(ptx)
    subprocess.run(["ptxas", "-arch=sm_90a", str(tmp_path / "k.ptx"), "-o", str(tmp_path / "k.cubin")], check=True)
    assert "shfl.sync.down" in ptx and "shfl.sync.up" in ptx and "bar.sync" in ptx and "activemask" in ptx


# Rejections ------------------------------------------------------------------------------------------------
REJECTIONS = [
    ("warp_reduce::<u64, Sum, _>(&tile, 1u64)", "reduces u32, i32 or f32 values, not `u64`"),
    ("warp_reduce::<f32, BitXor, _>(&tile, 1.0)", "`BitXor` combines u32 values only, not `f32`"),
    ("warp_scan::<u32, Product, _>(&tile, 1)", "combiner is one of cooperative_groups::ops::"),
    ("warp_reduce::<u32, Sum, 16>(&tile, 1)", "third generic argument is the tile size N, 32 here, not 16"),
    ("warp_reduce::<u32>(&tile, 1)", "needs its value type and combiner"),
    ("warp_reduce::<u32, Sum, _>(&block, 1)", "takes a `&WarpTile<N>`"),
    ("warp_reduce::<u32, Sum, _>(&coalesced_threads(), 1)", "not `CoalescedThreads`"),
    ("warp_scan::<u32, Sum, _>(&tile)", "takes 2 arguments, got 1"),
    ("block_reduce::<u32, Sum, _>(&tile, 1, &raw mut S)", "takes a `&ThreadBlock`"),
    ("block_scan::<i32, Sum, _>(&block, 1, &raw mut S)", "needs a `SharedArray<i32, NUM_WARPS>`"),
    ("block_scan::<u32, Sum, 2>(&block, 1, &raw mut S)", "scratch length NUM_WARPS, 4 here, not 2"),
    ("block_reduce::<u32, Sum, _>(&block, 1, 5u32)", "takes its scratch as `&raw mut SMEM`"),
    ("block_reduce::<u32, Sum, _>(&block, 1)", "takes 3 arguments, got 2"),
    ("coalesced_threads().match_any(1.5f32)", "compares u32 or i32 values, not `f32`"),
]


@pytest.mark.parametrize("call, message", REJECTIONS, ids=[m for _, m in REJECTIONS])
def test_misuse_is_a_located_error(call, message):
    src = USE + f"""#[kernel]
pub fn k() {{
    static mut S: SharedArray<u32, 4> = SharedArray::UNINIT;
    let block = this_thread_block();
    let tile = block.tiled_partition::<32>();
    let r = {call};
}}"""
    with pytest.raises(OxideError) as info:
        build(src)
    diag = info.value.diagnostics[0]
    assert message in diag.message
    assert diag.loc is not None and diag.loc.line == 8 and diag.loc.col >= 13, (diag.loc, diag.message)
