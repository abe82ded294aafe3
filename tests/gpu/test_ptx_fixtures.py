"""Run the PTX oxide emits for the hand-written gpu-dialect kernels and compare with numpy."""

from __future__ import annotations

import numpy as np
import pytest

from tests.gpu.harness import DeviceArray, launch, load


@pytest.mark.parametrize("n", [1, 1000, 1 << 20])
def test_vecadd(cuda, n):
    rng = np.random.default_rng(n)
    a = DeviceArray(cuda, rng.standard_normal(n, dtype=np.float32))
    b = DeviceArray(cuda, rng.standard_normal(n, dtype=np.float32))
    c = DeviceArray(cuda, np.zeros(n, dtype=np.float32))
    launch(cuda, load(cuda, "vecadd.ptx", "vecadd"), [(n + 255) // 256], [256], [a, b, c, n])
    np.testing.assert_array_equal(c.get(), a.host + b.host)
    for array in (a, b, c):
        array.free()


def test_libdevice_exp_sin(cuda):
    x = DeviceArray(cuda, np.random.default_rng(7).uniform(-4, 4, 256).astype(np.float32))
    out = DeviceArray(cuda, np.zeros(256, dtype=np.float32))
    launch(cuda, load(cuda, "exp_sin.ptx", "exp_sin"), [1], [256], [x, out])
    np.testing.assert_allclose(out.get(), np.exp(x.host) * np.sin(x.host), rtol=2e-6, atol=1e-6)
