"""The packed half conversions (`convert::cvt_*x2_f32`, inline `cvt.*x2.f32`) on the emulator: rounding (to
nearest even, towards zero), relu, NaN and overflow, the first value in the low half."""

from __future__ import annotations

import numpy as np
import pytest

from oxide.runtime.emulator.packed import pack_halves
from tests.unit.runtime.emulator.helpers import run


def _f32(bits: int) -> np.float32:
    return np.array([bits], np.uint32).view(np.float32)[0]


def _halves(word: np.int32) -> tuple[int, int]:
    value = int(np.array([word], np.int32).view(np.uint32)[0])
    return value & 0xFFFF, value >> 16


@pytest.mark.parametrize("bits, rn, rz", [
    (0x3F808000, 0x3F80, 0x3F80),  # exactly half way: ties to the even 0x3F80
    (0x3F818000, 0x3F82, 0x3F81),  # half way above an odd value: up to the even 0x3F82
    (0x3F808001, 0x3F81, 0x3F80),  # just above half way: up; towards zero: down
    (0xBF80C000, 0xBF81, 0xBF80),  # negative, above half way in magnitude
])
def test_bf16_rounding(bits, rn, rz):
    x = _f32(bits)
    assert _halves(pack_halves(x, np.float32(1), "bf16x2", "rn", False)) == (rn, 0x3F80)
    assert _halves(pack_halves(x, np.float32(1), "bf16x2", "rz", False)) == (rz, 0x3F80)


def test_f16_rounding_relu_nan_and_overflow():
    assert _halves(pack_halves(np.float32(1.0), np.float32(-2.0), "f16x2", "rn", False)) == (0x3C00, 0xC000)
    assert _halves(pack_halves(np.float32(1e6), np.float32(-1e6), "f16x2", "rn", False)) == (0x7C00, 0xFC00)
    assert _halves(pack_halves(np.float32(1e6), np.float32(-1e6), "f16x2", "rz", False)) == (0x7BFF, 0xFBFF)
    x = np.float32(1 + 3 / 2048)  # 1.5 half ulps above 1: to nearest even 0x3C02, towards zero 0x3C01
    assert _halves(pack_halves(x, x, "f16x2", "rn", False)) == (0x3C02, 0x3C02)
    assert _halves(pack_halves(x, x, "f16x2", "rz", False)) == (0x3C01, 0x3C01)
    assert _halves(pack_halves(np.float32(-3.0), np.float32(np.nan), "bf16x2", "rn", True)) == (0x0000, 0x7FFF)


def test_a_kernel_packs_pairs_on_the_emulator():
    source = """
use cuda_device::convert::{cvt_rn_bf16x2_f32, cvt_rz_f16x2_f32, cvt_rn_relu_f16x2_f32};
use cuda_device::{kernel, thread};
#[kernel]
pub unsafe fn k(x: &[f32], out: &mut [u32]) {
    let i = thread::threadIdx_x() as usize;
    out[3 * i] = cvt_rn_bf16x2_f32(x[2 * i], x[2 * i + 1]);
    out[3 * i + 1] = cvt_rz_f16x2_f32(x[2 * i], x[2 * i + 1]);
    out[3 * i + 2] = cvt_rn_relu_f16x2_f32(x[2 * i], x[2 * i + 1]);
}
"""
    x = np.array([1.5, -2.25, 1e6, 0.1, -0.0, 3.0], np.float32)
    out = np.zeros(9, np.uint32)
    run(source, 1, 3, [x, out])
    for i in range(3):
        lo, hi = x[2 * i], x[2 * i + 1]
        assert out[3 * i] == pack_halves(lo, hi, "bf16x2", "rn", False).view(np.uint32)
        assert out[3 * i + 1] == pack_halves(lo, hi, "f16x2", "rz", False).view(np.uint32)
        assert out[3 * i + 2] == pack_halves(lo, hi, "f16x2", "rn", True).view(np.uint32)
    assert out[0] == (0xC010 << 16 | 0x3FC0)  # -2.25 high, 1.5 low


def test_cvta_to_shared_gives_the_shared_address():
    source = """
use cuda_device::{kernel, thread, SharedArray};
#[kernel]
pub unsafe fn k(out: &mut [u64]) {
    static mut S: SharedArray<u32, 64, 128> = SharedArray::UNINIT;
    let p = (core::ptr::addr_of!(S) as *const u32).add(thread::threadIdx_x() as usize);
    out[thread::threadIdx_x() as usize] = cvta_generic_to_shared_offset(p as *const u8);
}
"""
    out = np.zeros(4, np.uint64)
    run(source, 1, 4, [out], schedule="warps")
    # The window's first array starts after the system's first 1 KB.
    np.testing.assert_array_equal(out, 1024 + 4 * np.arange(4))


def test_nanosleep_is_a_hint_the_emulator_passes():
    source = """
use cuda_device::{kernel, thread};
#[kernel]
pub unsafe fn k(out: &mut [u32]) {
    nanosleep(100);
    out[thread::threadIdx_x() as usize] = 1;
}
"""
    out = np.zeros(4, np.uint32)
    run(source, 1, 4, [out])
    assert (out == 1).all()
