"""The emulator's wgmma with A from registers against numpy: each lane's 8 values of A, packed in pairs into
4 i32 registers (low half first), sit at the places of the A fragment (the m64n16 accumulator's register
order), B comes from a 128-byte-swizzled TMA tile, and the
product accumulates (or overwrites, negated) into the f32 accumulator."""

from __future__ import annotations

import numpy as np
import pytest

from oxide.runtime.emulator.mbarrier import Mbarriers
from oxide.runtime.emulator.threads import Launch, Threads
from oxide.runtime.emulator.tma import box_load
from oxide.runtime.emulator.wgmma import Mma, _fragment, mma_async_reg_a
from oxide.runtime.emulator.wgmma_operands import encode


def _warpgroup() -> Threads:
    launch = Launch("k", ("k.rs:1:1",), (1, 1, 1), (128, 1, 1), 32768, False, shared_layout=((8, 8),),
                    dynamic_align=1024)
    return Threads(launch, np.zeros((1, 3), np.int64))


def _f16(shape: tuple[int, int], seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(shape).astype(np.float16)


def _a_registers(a: np.ndarray) -> list[np.ndarray]:
    """The 4 per-lane i32 registers (128 lanes each) holding the 64 x 16 f16 matrix `a` in the A fragment
    order, values 2r and 2r + 1 in the low and high half of register r."""
    rows, cols = _fragment(16)
    halves = np.zeros((128, 8), np.float16)
    for w in range(4):
        halves[32 * w:32 * w + 32] = a[16 * w + rows, cols]
    bits = halves.view(np.uint16).astype(np.uint32)
    packed = (bits[:, 0::2] | bits[:, 1::2] << 16).view(np.int32)
    return [np.ascontiguousarray(packed[:, i]) for i in range(4)]


def _run(c: Threads, mma: Mma, acc: list, a_regs: list, db: int) -> list:
    """Every warp issues the MMA (the first three wait for the rest); each warp's registers."""
    runs = [mma_async_reg_a(c, c.linear // 32 == w, mma, acc, a_regs, db, 0) for w in range(4)]
    results = [None] * 4
    for w, run in enumerate(runs):
        try:
            assert not next(run).ready() and w < 3
        except StopIteration as done:
            results[w] = done.value
    for w in range(3):
        with pytest.raises(StopIteration) as done:
            next(runs[w])
        results[w] = done.value.value
    return results


@pytest.mark.parametrize("accumulate, negate", [(True, False), (False, True)])
def test_register_a_times_a_shared_b(accumulate, negate):
    n = 64
    a = _f16((64, 16), seed=1)
    b = _f16((16, n), seed=2)  # K x N, N-major: read with the transpose bit
    c = _warpgroup()
    base = c.window.dynamic_offset
    barrier = Mbarriers(c.window).at(c.window.offsets[0]) if c.window.mbarriers is None \
        else c.window.mbarriers.at(c.window.offsets[0])
    barrier.init(1)
    barrier.expect_tx(b.nbytes)
    box_load(c.window, base, barrier, b.view(np.uint16), (n, 16), (0, 0), swizzle_mode=128)
    barrier.arrive()
    mma = Mma(n, 16, "f16", "f32", accumulate, negate, False, False, True)
    acc = [np.float32(0.25)] * (n // 2)
    results = _run(c, mma, acc, _a_registers(a), encode(base, 0, 1024, 128))
    rows, cols = _fragment(n)
    got = np.zeros((64, n), np.float32)
    for w, registers in enumerate(results):
        got[16 * w + rows, cols] = np.stack([r[32 * w:32 * w + 32] for r in registers], axis=1)
    product = a.astype(np.float32) @ b.astype(np.float32)
    expected = (-product if negate else product) + (0.25 if accumulate else 0.0)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)
