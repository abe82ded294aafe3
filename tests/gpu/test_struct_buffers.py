"""Buffers of over-aligned structs on the GPU: the vecadd4/triad4 benchmark kernels (`&[F4]`,
`DisjointSlice<F4>` with `#[repr(C, align(16))] struct F4([f32; 4])`, 128-bit loads and stores) against numpy,
from flat float32 device buffers and structured host arrays; a device view 4 bytes into an
allocation is refused before it could fault. Without a GPU these tests skip."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

KERNELS = Path(__file__).resolve().parents[2] / "benchmarks" / "suite" / "kernels"
RNG = np.random.default_rng(2028)


@pytest.fixture(scope="module")
def modules(cuda):
    import oxide

    return {name: oxide.load(KERNELS / f"{name}.rs", target="gpu") for name in ("vecadd4", "triad4")}


def test_vecadd4_and_triad4_match_numpy(modules):
    n = 4 * 1000 + 4  # not a multiple of the block: the last block has idle threads
    a, b = RNG.random(n, dtype=np.float32), RNG.random(n, dtype=np.float32)
    vec, tri = modules["vecadd4"], modules["triad4"]
    da, db, out = vec.to_device(a), vec.to_device(b), vec.zeros(n, np.float32)
    blocks = (n // 4 + 255) // 256
    vec.vecadd4[blocks, 256](da, db, out)
    assert np.array_equal(out.get(), a + b)
    result = tri.zeros(n, np.float32)
    tri.triad4[blocks, 256](tri.to_device(a), tri.to_device(b), np.float32(1.75), result)
    assert np.allclose(result.get(), a + np.float32(1.75) * b, rtol=1e-6)


def test_structured_host_arrays_round_trip(modules):
    f4 = np.dtype([("v", np.float32, (4,))])
    a = RNG.random(4 * 300, dtype=np.float32).view(f4)
    b = RNG.random(4 * 300, dtype=np.float32).view(f4)
    out = np.zeros(300, f4)
    modules["vecadd4"].vecadd4[2, 256](a, b, out)  # copied in and out
    assert np.array_equal(out["v"], a["v"] + b["v"])


def test_misaligned_device_view_is_refused(modules):
    from oxide.runtime import KernelArgumentError

    vec = modules["vecadd4"]
    big = vec.to_device(np.ones(4 * 257, np.float32))
    with pytest.raises(KernelArgumentError, match="not a multiple of 16"):
        vec.vecadd4[1, 256](big[1:1025], big[1:1025], vec.zeros(1024, np.float32))
