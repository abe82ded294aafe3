"""simt atomics on the GPU, compared with numpy (kernels: tests/gpu/kernels/atomics.mlir).

Every slice parameter is two kernel arguments: the DeviceArray and its element count.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.gpu.harness import DeviceArray, launch, load

FIXTURE = "atomics.ptx"
BLOCK = 256


def run(cuda, entry, threads, args, block=BLOCK):
    launch(cuda, load(cuda, FIXTURE, entry), [(threads + block - 1) // block], [block], args)


def slices(*arrays):
    """Kernel arguments for slice parameters: each array's device pointer, then its length."""
    return [arg for array in arrays for arg in (array, len(array.host))]


def test_counters_of_every_type(cuda):
    threads = 64 * BLOCK
    c32 = DeviceArray(cuda, np.array([7, 5, 0], np.int32))
    c64 = DeviceArray(cuda, np.array([1 << 40, 0], np.int64))
    cf = DeviceArray(cuda, np.array([0.5, 0.0], np.float32))
    cd = DeviceArray(cuda, np.array([0.0, 1.0], np.float64))
    run(cuda, "counters", threads, slices(c32, c64, cf, cd))
    # Every partial sum is exactly representable, so float atomics in any order give these exactly.
    np.testing.assert_array_equal(c32.get(), [7 + threads, 5 - threads, threads])
    np.testing.assert_array_equal(c64.get(), [(1 << 40) + 3 * threads, -threads])
    np.testing.assert_array_equal(cf.get(), np.array([0.5 + threads, -0.25 * threads], np.float32))
    np.testing.assert_array_equal(cd.get(), [0.5 * threads, 1.0 - 0.5 * threads])


@pytest.mark.parametrize("n", [1, 1000, 1 << 20])
def test_histogram(cuda, n):
    x = DeviceArray(cuda, np.random.default_rng(n).integers(0, 37, n).astype(np.int32))
    hist = DeviceArray(cuda, np.zeros(37, np.int32))
    run(cuda, "histogram", n, slices(x, hist))
    np.testing.assert_array_equal(hist.get(), np.bincount(x.host, minlength=37))


def test_compare_exchange_tickets(cuda):
    n = 40 * BLOCK + 3
    counter = DeviceArray(cuda, np.array([100], np.int32))
    counter64 = DeviceArray(cuda, np.array([(1 << 33) - 5], np.int64))
    tickets = DeviceArray(cuda, np.full(n, -1, np.int32))
    run(cuda, "cas_tickets", n, slices(counter, counter64, tickets))
    assert counter.get()[0] == 100 + n
    assert counter64.get()[0] == (1 << 33) - 5 + n
    # Each successful exchange replaced a distinct value: the tickets are 100..100+n, each once.
    np.testing.assert_array_equal(np.sort(tickets.get()), 100 + np.arange(n, dtype=np.int32))


def test_exchange(cuda):
    n = 20 * BLOCK + 17
    slot = DeviceArray(cuda, np.array([-1], np.int32))
    fslot = DeviceArray(cuda, np.array([-1.0], np.float32))
    dslot = DeviceArray(cuda, np.array([-1.0], np.float64))
    taken = DeviceArray(cuda, np.zeros(n, np.int32))
    ftaken = DeviceArray(cuda, np.zeros(n, np.float32))
    dtaken = DeviceArray(cuda, np.zeros(n, np.float64))
    run(cuda, "exchange", n, slices(slot, fslot, dslot, taken, ftaken, dtaken))
    # A chain of swaps: what the threads took out plus what is left is the start value and every id.
    expected = np.concatenate([[-1], np.arange(n)])
    for left, out, dtype in ((slot, taken, np.int32), (fslot, ftaken, np.float32), (dslot, dtaken, np.float64)):
        everything = np.sort(np.concatenate([out.get(), left.get()]))
        np.testing.assert_array_equal(everything, expected.astype(dtype))


def test_signed_and_unsigned_min_max_and_bitwise(cuda):
    n = 10 * BLOCK + 1
    rng = np.random.default_rng(3)
    # Negative values make signed and unsigned min/max differ; some bits forced on and some off make the
    # and/or results other than 0 and -1.
    x = (rng.integers(-(1 << 31), 1 << 31, n).astype(np.int32) | np.int32(0x5A0)) & np.int32(~0x0F000000)
    x64 = (rng.integers(-(1 << 63), (1 << 63) - 1, n, dtype=np.int64) | np.int64(0x5A0 << 20)) & np.int64(~(0xFF << 40))
    r = DeviceArray(cuda, _reduction_identities(np.int32))
    r64 = DeviceArray(cuda, _reduction_identities(np.int64))
    run(cuda, "reductions", n, slices(DeviceArray(cuda, x), DeviceArray(cuda, x64), r, r64))
    for values, got, unsigned in ((x, r.get(), np.uint32), (x64, r64.get(), np.uint64)):
        as_unsigned = values.view(unsigned)
        unsigned_min_max = np.array([as_unsigned.min(), as_unsigned.max()], unsigned).view(values.dtype)
        expected = [values.min(), values.max(), *unsigned_min_max, np.bitwise_and.reduce(values),
                    np.bitwise_or.reduce(values), np.bitwise_xor.reduce(values)]
        np.testing.assert_array_equal(got, np.array(expected, values.dtype))


def _reduction_identities(dtype):
    """Start values of the slots min, max, umin, umax, and, or, xor (-1 is all ones: the unsigned max)."""
    return np.array([np.iinfo(dtype).max, np.iinfo(dtype).min, -1, 0, -1, 0, 0], dtype)


def test_block_scope_shared_histogram(cuda):
    n = 30 * BLOCK - 9
    x = DeviceArray(cuda, np.random.default_rng(5).integers(0, 1 << 20, n).astype(np.int32))
    hist = DeviceArray(cuda, np.zeros(16, np.int32))
    run(cuda, "block_histogram", n, slices(x, hist))
    np.testing.assert_array_equal(hist.get(), np.bincount(x.host & 15, minlength=16))


def test_release_acquire_message_passing(cuda):
    blocks = 132
    data = DeviceArray(cuda, np.zeros(blocks, np.int32))
    flag = DeviceArray(cuda, np.zeros(blocks, np.int32))
    out = DeviceArray(cuda, np.full(blocks, -1, np.int32))
    launch(cuda, load(cuda, FIXTURE, "message"), [blocks], [64], slices(data, flag, out))
    np.testing.assert_array_equal(out.get(), 42 + np.arange(blocks, dtype=np.int32))
    np.testing.assert_array_equal(flag.get(), np.ones(blocks, np.int32))
