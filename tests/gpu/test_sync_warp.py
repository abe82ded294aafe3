"""simt synchronisation and warp kernels on the GPU, compared with numpy models of the PTX instructions
(kernels: tests/gpu/kernels/sync_warp.mlir). Every kernel runs whole 32-lane warps unless it says otherwise."""

from __future__ import annotations

import numpy as np
import pytest

from tests.gpu.harness import DeviceArray, launch, load

FIXTURE = "sync_warp.ptx"
WARP = 32


def run(cuda, entry: str, grid: int, block: int, inputs: list[np.ndarray], outputs: list[np.ndarray]) -> list[np.ndarray]:
    """Launch `entry` with slice inputs and DisjointSlice outputs (each passed as array, length); return the outputs."""
    arrays = [DeviceArray(cuda, a) for a in inputs + outputs]
    args = [x for array in arrays for x in (array, array.host.size)]
    launch(cuda, load(cuda, FIXTURE, entry), [grid], [block], args)
    results = [array.get() for array in arrays[len(inputs):]]
    for array in arrays:
        array.free()
    return results


def lane_of(n: int) -> np.ndarray:
    return np.arange(n) % WARP


def shuffle_model(values: np.ndarray, kind: str, offset: np.ndarray | int, width: int) -> np.ndarray:
    """What `shfl.sync.<kind>` returns on each lane of full warps, following the PTX ISA's definition."""
    lane = lane_of(values.size)
    offset = np.broadcast_to(offset, values.shape)
    segmask = WARP - width                                # c[12:8]
    bound = 0 if kind == "up" else WARP - 1               # c[4:0]
    min_lane = lane & segmask
    max_lane = min_lane | (bound & ~segmask & (WARP - 1))
    if kind == "up":
        src = lane - offset
        ok = src >= max_lane
    elif kind == "down":
        src = lane + offset
        ok = src <= max_lane
    elif kind == "xor":
        src = lane ^ offset
        ok = src <= max_lane
    else:
        src = min_lane | (offset & ~segmask & (WARP - 1))
        ok = src <= max_lane
    src = np.where(ok, src, lane)
    return values[np.arange(values.size) - lane + src]


def per_warp(values: np.ndarray) -> np.ndarray:
    return values.reshape(-1, WARP)


def ballot_bits(flags: np.ndarray) -> np.ndarray:
    """Per lane, the warp's ballot of `flags` as int32."""
    bits = (per_warp(flags).astype(np.uint64) << np.arange(WARP, dtype=np.uint64)).sum(axis=1)
    return np.repeat(bits.astype(np.uint32).view(np.int32), WARP)


def test_block_sum_through_shared_memory_and_barriers(cuda):
    blocks, block = 4, 256
    x = np.random.default_rng(1).integers(-1000, 1000, blocks * block).astype(np.int32)
    (out,) = run(cuda, "block_sum", blocks, block, [x], [np.zeros_like(x)])
    np.testing.assert_array_equal(out, np.repeat(x.reshape(blocks, block).sum(axis=1), block).astype(np.int32))


SHUFFLE_INPUTS = {
    "i32": lambda rng, n: rng.integers(-2**31, 2**31, n).astype(np.int32),
    "f32": lambda rng, n: rng.standard_normal(n).astype(np.float32),
    "i64": lambda rng, n: rng.integers(-2**63, 2**63 - 1, n, dtype=np.int64),
    "f64": lambda rng, n: rng.standard_normal(n),
}


@pytest.mark.parametrize("type_", sorted(SHUFFLE_INPUTS))
def test_shuffles(cuda, type_):
    n = 128
    x = SHUFFLE_INPUTS[type_](np.random.default_rng(2), n)
    outs = run(cuda, f"shuffle_{type_}", 2, 64, [x], [np.zeros_like(x) for _ in range(4)])
    expected = [shuffle_model(x, "idx", WARP - 1 - lane_of(n), 32), shuffle_model(x, "up", 3, 32),
                shuffle_model(x, "down", 5, 16), shuffle_model(x, "xor", 5, 8)]
    bits = {4: np.uint32, 8: np.uint64}[x.itemsize]
    for kind, got, want in zip(("idx", "up", "down", "xor"), outs, expected):
        # Compare bit patterns: a shuffle moves bits, and both halves of a 64-bit value must arrive.
        np.testing.assert_array_equal(got.view(bits), want.view(bits), err_msg=f"shuffle {kind} of {type_}")


def test_shuffle_model_matches_the_ptx_examples():
    # The model itself: up by 1 keeps lane 0's value; down by 1 at width 16 keeps lane 15's and lane 31's.
    v = np.arange(WARP, dtype=np.int32)
    assert shuffle_model(v, "up", 1, 32)[:3].tolist() == [0, 0, 1]
    down = shuffle_model(v, "down", 1, 16)
    assert (down[14], down[15], down[16], down[31]) == (15, 15, 17, 31)
    assert shuffle_model(v, "idx", 2, 8)[8:10].tolist() == [10, 10]
    assert shuffle_model(v, "xor", 1, 32)[:2].tolist() == [1, 0]


def test_votes_on_parity(cuda):
    rng = np.random.default_rng(3)
    x = np.concatenate([2 * rng.integers(0, 100, WARP) + 1,                  # all odd
                        2 * rng.integers(0, 100, WARP),                      # all even
                        rng.integers(0, 100, WARP),                          # mixed
                        np.where(np.arange(WARP) == 7, 9, 4)]).astype(np.int32)  # one odd lane
    all_, any_, ballot = run(cuda, "votes", 1, x.size, [x], [np.zeros_like(x) for _ in range(3)])
    odd = x % 2 == 1
    np.testing.assert_array_equal(all_, np.repeat(per_warp(odd).all(axis=1), WARP).astype(np.int32))
    np.testing.assert_array_equal(any_, np.repeat(per_warp(odd).any(axis=1), WARP).astype(np.int32))
    np.testing.assert_array_equal(ballot, ballot_bits(odd))


def match_any_model(values: np.ndarray) -> np.ndarray:
    warps = per_warp(values)
    same = warps[:, :, None] == warps[:, None, :]                            # [warp, lane, other lane]
    bits = (same.astype(np.uint64) << np.arange(WARP, dtype=np.uint64)).sum(axis=2)
    return bits.astype(np.uint32).view(np.int32).reshape(-1)


def test_match(cuda):
    rng = np.random.default_rng(4)
    x = rng.integers(0, 4, 4 * WARP).astype(np.int32)
    high = np.int64(1) << 40
    # Warp 0 agrees; warp 1 differs only in the high halves, warp 2 only in the low halves; warp 3 is mixed.
    y = np.concatenate([np.full(WARP, 5 * high + 3), rng.integers(0, 3, WARP) * high + 3,
                        5 * high + rng.integers(0, 3, WARP), rng.integers(0, 3, WARP) * (high + 1)]).astype(np.int64)
    any32, any64, lanes, all_equal = run(cuda, "matches", 1, x.size, [x, y], [np.zeros_like(x) for _ in range(4)])
    np.testing.assert_array_equal(any32, match_any_model(x))
    np.testing.assert_array_equal(any64, match_any_model(y))
    agree = np.repeat((per_warp(y) == per_warp(y)[:, :1]).all(axis=1), WARP)
    np.testing.assert_array_equal(all_equal, agree.astype(np.int32))
    np.testing.assert_array_equal(lanes, np.where(agree, -1, 0).astype(np.int32))


def test_redux(cuda):
    x = np.random.default_rng(5).integers(-2**31, 2**31, 4 * WARP).astype(np.int32)
    outs = run(cuda, "redux", 2, 64, [x], [np.zeros_like(x) for _ in range(8)])
    warps, unsigned = per_warp(x), per_warp(x.view(np.uint32))
    expected = {
        "add": (warps.astype(np.int64).sum(axis=1) & 0xFFFFFFFF).astype(np.uint32).view(np.int32),
        "min": warps.min(axis=1), "max": warps.max(axis=1),
        "umin": unsigned.min(axis=1).view(np.int32), "umax": unsigned.max(axis=1).view(np.int32),
        "and": np.bitwise_and.reduce(warps, axis=1), "or": np.bitwise_or.reduce(warps, axis=1),
        "xor": np.bitwise_xor.reduce(warps, axis=1),
    }
    for (kind, want), got in zip(expected.items(), outs):
        np.testing.assert_array_equal(got, np.repeat(want, WARP), err_msg=f"redux {kind}")


def check_election(leader: np.ndarray, elected: np.ndarray, lane: np.ndarray, mask: int) -> None:
    """One warp: every lane of `mask` names the same leader, a lane of the mask, which alone is elected."""
    assert len(set(leader.tolist())) == 1, f"lanes disagree on the leader: {leader}"
    chosen = int(leader[0])
    assert mask >> chosen & 1, f"leader {chosen} is not in the mask {mask:#x}"
    assert lane[elected == 1].tolist() == [chosen]
    assert set(elected.tolist()) <= {0, 1}


def test_active_mask_and_elect(cuda):
    # Blocks of 48 threads: each block's second warp has only 16 lanes.
    blocks, block = 2, 48
    n = blocks * block
    active, leader, elected, odd_leader, odd_elected = run(cuda, "elect", blocks, block, [],
                                                           [np.zeros(n, np.int32) for _ in range(5)])
    thread = np.arange(n) % block
    for warp_start, lanes in ((0, 32), (32, 16)):
        for b in range(blocks):
            sel = (np.arange(n) // block == b) & (thread >= warp_start) & (thread < warp_start + lanes)
            lane = thread[sel] - warp_start
            full = (1 << lanes) - 1
            np.testing.assert_array_equal(active[sel], np.full(lanes, np.uint32(full).view(np.int32)))
            check_election(leader[sel], elected[sel], lane, full)
            odd = lane % 2 == 1
            check_election(odd_leader[sel][odd], odd_elected[sel][odd], lane[odd], full & 0xAAAAAAAA)
            np.testing.assert_array_equal(odd_leader[sel][~odd], -1)
            np.testing.assert_array_equal(odd_elected[sel][~odd], 0)
