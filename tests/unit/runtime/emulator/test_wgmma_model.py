"""The wgmma operand model against numpy: tiles a TMA load wrote (every swizzle mode, K-major and MN-major)
read back through matrix descriptors as the hardware reads them, the element types decoded exactly, the
accumulator fragment's register order, and the errors of descriptors the emulator cannot read."""

from __future__ import annotations

import numpy as np
import pytest

from oxide.runtime.emulator.mbarrier import Mbarriers
from oxide.runtime.emulator.shared_window import SharedMemoryError, SharedWindow
from oxide.runtime.emulator.tma import box_load
from oxide.runtime.emulator.wgmma import _fragment
from oxide.runtime.emulator.wgmma_operands import DescriptorError, decode, encode, read_operand, to_float32

BASE = 1024  # the dynamic shared memory of the test window: after an 8-byte barrier, aligned to 1024 bytes


def _window(nbytes: int = 32768) -> SharedWindow:
    return SharedWindow([(8, 8)], dynamic=nbytes, dynamic_align=1024, reserved=0)


def _tma(window: SharedWindow, address: int, tensor: np.ndarray, box: tuple[int, int], coords=(0, 0),
         swizzle: int = 0, complete: bool = True) -> None:
    """A TMA box load of `tensor` (box innermost first) into `address`, its barrier's phase completed."""
    at = window.offsets[0]  # the window's 8-byte static array holds the barrier
    barrier = Mbarriers(window).at(at) if window.mbarriers is None else window.mbarriers.at(at)
    barrier.init(1)
    barrier.expect_tx(box[0] * box[1] * tensor.itemsize)
    box_load(window, address, barrier, tensor, box, coords, swizzle_mode=swizzle)
    if complete:
        barrier.arrive()


def _bf16(shape: tuple[int, ...], seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Random bf16 values: (their bits as uint16, their float32 values)."""
    values = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    bits = (values.view(np.uint32) >> 16).astype(np.uint16)
    return bits, (bits.astype(np.uint32) << 16).view(np.float32)


@pytest.mark.parametrize("mode, stride", [(128, 1024), (64, 512), (32, 256)])
def test_k_major_swizzled_tiles_read_one_k_slice_per_32_bytes(mode, stride):
    cols = mode // 2  # one swizzle row of bf16 along K
    bits, values = _bf16((64, cols))
    window = _window()
    _tma(window, BASE, bits, (cols, 64), swizzle=mode)
    for step in range(cols // 16):
        desc = encode(BASE + 32 * step, 16, stride, mode)
        got = read_operand(window, desc, 64, 16, "bf16", mn_major=False)
        np.testing.assert_array_equal(got, values[:, 16 * step:16 * step + 16])


def test_k_major_without_swizzle_uses_lbo_along_k_and_sbo_along_m():
    bits, values = _bf16((64, 16), seed=1)
    window = _window()
    # Each 8-column slice lands as 64 rows of 16 bytes: 8 core matrices 128 bytes apart along M.
    _tma(window, BASE, bits, (8, 64), (0, 0))
    _tma(window, BASE + 2048, bits, (8, 64), (8, 0))
    got = read_operand(window, encode(BASE, 2048, 128, 0), 64, 16, "bf16", mn_major=False)
    np.testing.assert_array_equal(got, values)


@pytest.mark.parametrize("mode", [128, 64, 32])
def test_an_mn_major_b_tile_is_read_transposed(mode):
    n, k = 128, 16
    per_row = mode // 2
    bits, values = _bf16((k, n), seed=2)  # B is K x N, stored N-major: rows of N
    window = _window()
    atom = per_row * 2 * k  # one TMA box: k rows of one swizzle row of N
    for chunk in range(n // per_row):
        _tma(window, BASE + chunk * atom, bits, (per_row, k), (chunk * per_row, 0), swizzle=mode)
    desc = encode(BASE, atom, 8 * mode, mode)  # LBO: the next N chunk; SBO: the next 8 rows of K
    got = read_operand(window, desc, n, k, "bf16", mn_major=True)
    np.testing.assert_array_equal(got, values.T)


def test_an_mn_major_tile_without_swizzle():
    n, k = 16, 16
    bits, values = _bf16((k, n), seed=3)
    window = _window()
    # Core matrices of 8 K rows x 8 N elements: N chunk c, K group g at BASE + 128 (2 c + g).
    for c in range(2):
        for g in range(2):
            _tma(window, BASE + 128 * (2 * c + g), bits, (8, 8), (8 * c, 8 * g))
    got = read_operand(window, encode(BASE, 128, 256, 0), n, k, "bf16", mn_major=True)
    np.testing.assert_array_equal(got, values.T)


def test_tf32_operands_ignore_the_low_13_mantissa_bits():
    values = np.random.default_rng(4).standard_normal((64, 32)).astype(np.float32)
    window = _window()
    _tma(window, BASE, values, (32, 64), swizzle=128)
    truncated = (values.view(np.uint32) & np.uint32(0xFFFFE000)).view(np.float32)
    for step in range(4):
        got = read_operand(window, encode(BASE + 32 * step, 16, 1024, 128), 64, 8, "tf32", mn_major=False)
        np.testing.assert_array_equal(got, truncated[:, 8 * step:8 * step + 8])
    assert not np.array_equal(truncated, values)


@pytest.mark.parametrize("kind, codes, expected", [
    ("e4m3", [0x38, 0xB8, 0x7E, 0x01, 0x08, 0x00, 0x3C], [1.0, -1.0, 448.0, 2.0 ** -9, 2.0 ** -6, 0.0, 1.5]),
    ("e5m2", [0x3C, 0xBC, 0x7B, 0x01, 0x7C, 0x3E], [1.0, -1.0, 57344.0, 2.0 ** -16, np.inf, 1.5]),
])
def test_fp8_values_decode_exactly(kind, codes, expected):
    raw = np.array(codes, np.uint8)[:, None]
    np.testing.assert_array_equal(to_float32(raw, kind), np.array(expected, np.float32))


def test_e4m3_nan_and_fp8_tiles_through_a_descriptor():
    assert np.isnan(to_float32(np.array([[0x7F], [0xFF]], np.uint8), "e4m3")).all()
    codes = np.random.default_rng(5).integers(0, 0x7E, (64, 128)).astype(np.uint8)
    window = _window()
    _tma(window, BASE, codes, (128, 64), swizzle=128)
    for kind in ("e4m3", "e5m2"):
        got = read_operand(window, encode(BASE + 32, 16, 1024, 128), 64, 32, kind, mn_major=False)
        np.testing.assert_array_equal(got, to_float32(codes[:, 32:64, None], kind))


def test_a_wrong_stride_or_swizzle_reads_the_wrong_matrix():
    bits, values = _bf16((64, 64), seed=6)
    window = _window()
    _tma(window, BASE, bits, (64, 64), swizzle=128)
    for desc in (encode(BASE, 16, 512, 128), encode(BASE, 16, 1024, 64), encode(BASE, 16, 1024, 0)):
        got = read_operand(window, desc, 64, 16, "bf16", mn_major=False)
        assert not np.array_equal(got, values[:, :16])


def test_descriptor_fields_round_trip_and_cuda_oxides_fixed_encoding():
    value = encode(0x1230, 0x40, 0x400, 64, 5)
    assert decode(value) == decode(value - (1 << 64))  # the signed i64 of the same bits
    fields = decode(value)
    assert (fields.start, fields.leading, fields.stride, fields.base_offset, fields.swizzle) == (0x1230, 64, 1024, 5,
                                                                                               64)
    fixed = decode(0xC000000800080000 | (0x2000 >> 4))
    assert (fixed.start, fixed.leading, fixed.stride, fixed.swizzle) == (0x2000, 128, 128, 32)


def test_the_accumulator_fragment_follows_the_isa_register_order():
    rows, cols = _fragment(256)
    assert rows.shape == (32, 128)
    assert [(rows[0, i], cols[0, i]) for i in range(6)] == [(0, 0), (0, 1), (8, 0), (8, 1), (0, 8), (0, 9)]
    assert (rows[5, 0], cols[5, 0]) == (1, 2) and (rows[31, 127], cols[31, 127]) == (15, 255)
    # Every element of the warp's 16 x 256 rows is held by exactly one register of one lane.
    assert len(set(zip(rows.reshape(-1), cols.reshape(-1)))) == 16 * 256


def test_unreadable_operands_are_errors():
    bits, _ = _bf16((64, 64), seed=7)
    window = _window(8192)
    _tma(window, BASE, bits, (64, 64), swizzle=128, complete=False)
    with pytest.raises(SharedMemoryError, match="TMA copy has not completed .* mbarrier at shared address 0x0"):
        read_operand(window, encode(BASE, 16, 1024, 128), 64, 16, "bf16", mn_major=False)
    with pytest.raises(DescriptorError, match="outside the block's 9216 bytes"):
        read_operand(window, encode(BASE, 16, 4096, 128), 64, 16, "bf16", mn_major=False)
    with pytest.raises(DescriptorError, match="base offset 3: the emulator .* models base offset 0 only"):
        read_operand(window, encode(BASE, 16, 1024, 128, 3), 64, 16, "bf16", mn_major=False)


def _warpgroup(window_bytes: int = 32768):
    """A block of one warpgroup run alone (its Threads has a shared window), as the scheduled mode runs it."""
    from oxide.runtime.emulator.threads import Launch, Threads

    launch = Launch("k", ("k.rs:1:1",), (1, 1, 1), (128, 1, 1), window_bytes, False, shared_layout=((8, 8),),
                    dynamic_align=1024)
    return Threads(launch, np.zeros((1, 3), np.int64))


def _issue(c, mma, acc, da, db):
    """Every warp of the warpgroup issues the MMA (each but the last waits for the others); each warp's
    registers."""
    from oxide.runtime.emulator.wgmma import mma_async

    runs = [mma_async(c, c.linear // 32 == w, mma, acc, da, db, 0) for w in range(4)]
    results = [None] * 4
    for w, run in enumerate(runs):
        try:
            assert not next(run).ready() and w < 3  # waits for the warps after it
        except StopIteration as done:
            results[w] = done.value
    for w in range(3):
        with pytest.raises(StopIteration) as done:
            next(runs[w])
        results[w] = done.value.value
    return results


def _matrix(results, n: int, pairs: bool) -> np.ndarray:
    """The 64 x n tile from each warp's registers (f32, or f16 pairs), in the ISA's fragment order."""
    rows, cols = _fragment(n)
    d = np.zeros((64, n), np.float32)
    for w, registers in enumerate(results):
        lanes = np.arange(32 * w, 32 * w + 32)
        scalars = (np.concatenate([r[lanes] for r in registers], axis=1) if pairs
                   else np.stack([r[lanes] for r in registers], axis=1))
        d[16 * w + rows, cols] = scalars
    return d


@pytest.mark.parametrize("pairs", [False, True])
def test_a_warpgroup_mma_negates_accumulates_and_reads_a_transposed_b(pairs):
    # f32 accumulator: D = -A x B (overwrite); f16 accumulator (f16 operands, the same bytes): D = -A x B + D.
    from oxide.runtime.emulator.wgmma import Mma

    n = 64
    a_bits, a = _bf16((64, 64), seed=8)
    b_bits, b = _bf16((16, n), seed=9)  # K x N, N-major
    c = _warpgroup()
    window = c.window
    base = window.dynamic_offset  # a launched block's window starts after the system's first 1 KB
    _tma(window, base, a_bits, (64, 64), swizzle=128)
    _tma(window, base + 8192, b_bits, (64, 16), swizzle=128)
    kind = "f16" if pairs else "bf16"
    if pairs:
        a = a_bits.view(np.float16).astype(np.float32)
        b = b_bits.view(np.float16).astype(np.float32)
    mma = Mma(n, 16, kind, "f16" if pairs else "f32", pairs, True, False, False, True)
    acc = ([np.full((128, 2), 0.5, np.float16)] * (n // 4) if pairs else [np.float32(0.5)] * (n // 2))
    results = _issue(c, mma, acc, encode(base + 32, 16, 1024, 128), encode(base + 8192, 0, 1024, 128))
    expected = -(a[:, 16:32] @ b) + (0.5 if pairs else 0.0)
    got = _matrix(results, n, pairs)
    if pairs:
        np.testing.assert_allclose(got, expected.astype(np.float16).astype(np.float32), rtol=2e-3, atol=2e-3)
    else:
        np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
