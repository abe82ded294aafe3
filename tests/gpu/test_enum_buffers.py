"""Enum buffers on the GPU (tests/gpu/kernels/enums.rs): `&[Kind]` from uint8 arrays, `&[Step]` from int8
(signed discriminants sign-extend in `as i32`), and `&[P]` with enum fields from a numpy structured dtype of
rustc's layout, against numpy. Without a GPU these tests skip."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

SOURCE = Path(__file__).resolve().parent / "kernels" / "enums.rs"
RNG = np.random.default_rng(31)
N = 5000


@pytest.fixture(scope="module")
def module(cuda):
    import oxide

    return oxide.load(SOURCE, target="gpu")


def test_enum_slices_read_rustcs_discriminants(module):
    kinds = RNG.integers(0, 3, N).astype(np.uint8)
    steps = RNG.integers(-1, 2, N).astype(np.int8)
    out = np.zeros(N, np.int32)
    module.classify.unchecked[(N + 255) // 256, 256](kinds, steps, out)
    expected = 10 * (kinds.astype(np.int32) + 1) + 1000 * (kinds > 0) + steps.astype(np.int32)
    assert np.array_equal(out, expected)


def test_structs_with_enum_fields_have_rustcs_layout(module):
    p = np.dtype([("kind", np.uint8), ("t", np.int16), ("x", np.float32)], align=True)
    assert p.itemsize == 8 and p.fields["t"][1] == 2 and p.fields["x"][1] == 4
    ps = np.zeros(N, p)
    ps["kind"] = RNG.integers(0, 3, N)
    ps["t"] = RNG.choice(np.array([-5, 3], np.int16), N)
    ps["x"] = RNG.random(N, dtype=np.float32) + np.float32(0.5)
    out = np.zeros(N, np.float32)
    module.score.unchecked[(N + 255) // 256, 256](ps, out)
    expected = ps["x"] + np.where(ps["kind"] == 1, np.float32(100), np.float32(0)) + ps["t"].astype(np.float32)
    assert np.array_equal(out, expected)
