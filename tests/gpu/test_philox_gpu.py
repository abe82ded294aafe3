"""oxide.tile.rand / randn on the GPU (the shipped Philox kernels, PTX JIT-compiled for the device) against the
host's numpy stream: uniforms bit for bit, normals within 16 ulp of max(|z|, std) (docs/tile-runtime.md)."""

from __future__ import annotations

import numpy as np
import pytest

import oxide.tile
from oxide.runtime.random import philox


@pytest.mark.parametrize("shape,seed", [((1000,), 0), ((513, 257), 123), ((1 << 22,), 2 ** 63 + 5)])
def test_gpu_uniforms_are_the_host_stream(cuda, shape, seed):
    got = oxide.tile.rand(shape, seed, target="gpu").get()
    np.testing.assert_array_equal(got, philox.uniform(int(np.prod(shape)), seed).reshape(shape))


@pytest.mark.parametrize("mean,std", [(0.0, 1.0), (0.5, 2.0)])
def test_gpu_normals_match_the_host_within_the_bound(cuda, mean, std):
    n, seed = 1 << 20, 42
    got = oxide.tile.randn(mean, std, n, seed, target="gpu").get().astype(np.float64)
    ref = philox.normal(n, seed, mean, std)
    scale = np.maximum(np.abs(ref.astype(np.float64)), std).astype(np.float32)
    ulps = np.abs(got - ref) / np.spacing(scale).astype(np.float64)
    assert ulps.max() <= 16, f"largest difference {ulps.max()} ulp at {int(ulps.argmax())}"
