"""The runtime models Hopper ops' emulator rules call: the byte-addressed shared window, the mbarrier and the
TMA box copy (with the swizzle a wgmma descriptor will read by)."""

from __future__ import annotations

import numpy as np
import pytest

from oxide.runtime.emulator.mbarrier import Mbarrier, MbarrierError, Mbarriers, wait_parity
from oxide.runtime.emulator.shared_window import SharedMemoryError, SharedWindow, swizzle
from oxide.runtime.emulator.tma import box_load, box_store


def test_window_lays_out_static_arrays_most_aligned_first_then_dynamic():
    window = SharedWindow([(6, 2), (8, 8), (3, 1)], dynamic=64, dynamic_align=128, reserved=0)
    assert window.offsets == [8, 0, 14] and window.dynamic_offset == 128 and window.size == 192
    window.view(8, np.float32, 2)[:] = [1.0, 2.0]
    assert window.view(8, np.uint32, 2)[0] == np.float32(1.0).view(np.uint32)  # the same bytes, another type
    with pytest.raises(SharedMemoryError, match="not aligned to 4 bytes"):
        window.view(6, np.float32, 1)
    with pytest.raises(SharedMemoryError, match=r"outside the block's shared memory \(0x0 to 0xc0"):
        window.read(190, 4)


def test_swizzle_xors_16_byte_chunks_with_the_row_in_the_atom():
    assert swizzle(0x0, 128) == 0x0 and swizzle(0x80, 128) == 0x90 and swizzle(0x3F0, 128) == 0x380  # row 7, chunk 7 -> chunk 0
    assert swizzle(0x80, 64) == 0x90 and swizzle(0x200, 64) == 0x200  # 64B: rows repeat every 4
    assert swizzle(0x80, 32) == 0x90 and swizzle(0x100, 32) == 0x100
    assert swizzle(0x1234, 0) == 0x1234
    # A permutation of each 1024-byte atom.
    assert sorted(swizzle(np.arange(1024), 128).tolist()) == list(range(1024))


def test_mbarrier_phases_with_arrivals_and_tx_bytes():
    barrier = Mbarrier(0x10)
    barrier.init(2)
    barrier.expect_tx(256)
    assert barrier.arrive() == 0 and not barrier.test_wait(0)
    barrier.complete_tx(200)
    assert barrier.arrive() == 0 and not barrier.test_wait_parity(0)  # 56 bytes still outstanding
    barrier.complete_tx(56)
    assert barrier.phase == 1 and barrier.test_wait(0) and barrier.test_wait_parity(0)
    assert not barrier.test_wait_parity(1) and barrier.pending == 2
    assert barrier.arrive(2) == 1 and barrier.phase == 2
    assert barrier.encode() >> 63 == 0 and barrier.encode() & 0xFFFFF == 2


@pytest.mark.parametrize("action, message", [
    (lambda b: b.arrive(), "uninitialised mbarrier at shared address 0x8"),
    (lambda b: (b.init(1), b.inval(), b.arrive()), "invalidated mbarrier"),
    (lambda b: (b.init(1), b.complete_tx(1 << 20)), "tx count of the mbarrier at shared address 0x8 out of range"),
    (lambda b: (b.init(1), b.inval(), b.test_wait(0)), "wait on a phase token on the invalidated"),
    (lambda b: (b.init(2), b.arrive(3)), "waits for 2 more arrivals"),
    (lambda b: b.init(0), "expected arrival count is 1 to"),
])
def test_mbarrier_misuse_is_an_error(action, message):
    with pytest.raises(MbarrierError, match=message):
        action(Mbarrier(0x8))


def test_mbarrier_addresses_and_waits():
    barriers = Mbarriers(SharedWindow([(16, 8)], reserved=0))
    with pytest.raises(MbarrierError, match="8-byte aligned"):
        barriers.at(4)
    barrier = barriers.at(8)
    assert barriers.at(8) is barrier
    barrier.init(1)
    wait = wait_parity(barrier, 0, None, 3)
    assert not wait.ready() and "shared address 0x8 to complete the phase of parity 0" in wait.what()
    barrier.arrive()
    assert wait.ready()


def _load(window, tensor, box, coords, **options):
    barriers = Mbarriers(window)
    barrier = barriers.at(0)
    barrier.init(1)
    barrier.expect_tx(int(np.prod(box)) * tensor.itemsize)
    box_load(window, 1024, barrier, tensor, box, coords, **options)
    return barrier


def test_tma_load_fills_out_of_bounds_and_swizzles_rows():
    tensor = np.arange(20 * 70, dtype=np.float16).reshape(20, 70)
    window = SharedWindow([(8, 8)], dynamic=64 * 16 * 2, dynamic_align=1024, reserved=0)
    barrier = _load(window, tensor, (64, 16), (30, -2), swizzle_mode=128, nan_fill=True)
    with pytest.raises(SharedMemoryError, match="a TMA copy has not completed .* mbarrier at shared address 0x0"):
        window.read(1024 + 130, 2)
    barrier.arrive()
    raw = window.read(1024, 64 * 16 * 2)
    logical = raw[swizzle(np.arange(raw.size), 128)].view(np.float16).reshape(16, 64)
    expected = np.full((16, 64), np.nan, np.float16)
    expected[2:16, :40] = tensor[0:14, 30:70]
    np.testing.assert_array_equal(logical, expected)
    # Without the unswizzle the bytes are not the box (the swizzle is real).
    assert not np.array_equal(raw.view(np.float16).reshape(16, 64)[3], expected[3])


def test_tma_store_writes_only_in_bounds_elements_and_round_trips():
    tensor = np.arange(12 * 40, dtype=np.float32).reshape(12, 40)
    window = SharedWindow([(8, 8)], dynamic=32 * 8 * 4, dynamic_align=1024, reserved=0)
    _load(window, tensor, (32, 8), (20, 8), swizzle_mode=128).arrive()
    out = np.full_like(tensor, -1)
    box_store(window, 1024, out, (32, 8), (20, 8), swizzle_mode=128)
    expected = np.full_like(tensor, -1)
    expected[8:12, 20:40] = tensor[8:12, 20:40]
    np.testing.assert_array_equal(out, expected)


@pytest.mark.parametrize("address, box, mode, message", [
    (1024 + 128, (64, 8), 128, "aligned to 1024 bytes"),
    (1024, (32, 8), 128, "innermost extent is 128 bytes, got 64"),
])
def test_tma_rejects_bad_destinations(address, box, mode, message):
    window = SharedWindow([(8, 8)], dynamic=4096, dynamic_align=1024, reserved=0)
    barrier = Mbarriers(window).at(0)
    barrier.init(1)
    with pytest.raises(SharedMemoryError, match=message):
        box_load(window, address, barrier, np.zeros((8, 64), np.float16), box, (0, 0), swizzle_mode=mode)


def test_a_copy_completing_before_its_expect_tx_leaves_the_phase_open():
    # PTX lets the tx count go below zero: a copy issued before the expect_tx that covers it completes first.
    window = SharedWindow([(8, 8)], dynamic=2048, dynamic_align=1024, reserved=0)
    barrier = Mbarriers(window).at(0)
    barrier.init(1)
    box_load(window, 1024, barrier, np.zeros((8, 64), np.float16), (64, 8), (0, 0))
    assert barrier.tx == -1024 and barrier.phase == 0
    barrier.expect_tx(1024)
    barrier.arrive()
    assert barrier.phase == 1 and not window.in_flight


def test_a_tx_count_that_never_matches_says_so():
    barrier = Mbarriers().at(0)
    barrier.init(1)
    barrier.expect_tx(64)
    barrier.complete_tx(32)
    barrier.arrive()
    assert "copies completed fewer bytes than expect_tx announced" in barrier.describe(parity=0)
