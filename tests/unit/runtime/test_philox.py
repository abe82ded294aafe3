"""oxide.tile.rand / randn (Philox4x32-10): the numpy generator against the published known-answer vectors,
the shipped GPU kernels run on the simt emulator against it (uniforms bit for bit, normals within the stated
bound), the shipped artifact equal to what the compiler makes of philox.rs now, and the host API."""

from __future__ import annotations

import numpy as np
import pytest

import oxide.tile
from oxide.runtime import random as rnd
from oxide.runtime.artifact import Artifact
from oxide.runtime.module import Module
from oxide.runtime.random import philox

# Random123's kat_vectors for philox4x32 with 10 rounds: (counter, key, output).
KAT = [
    ((0, 0, 0, 0), (0, 0), (0x6627E8D5, 0xE169C58D, 0xBC57AC4C, 0x9B00DBD8)),
    ((0xFFFFFFFF,) * 4, (0xFFFFFFFF, 0xFFFFFFFF), (0x408F276D, 0x41C83B0E, 0xA20BC7C6, 0x6D5451FD)),
    ((0x243F6A88, 0x85A308D3, 0x13198A2E, 0x03707344), (0xA4093822, 0x299F31D0),
     (0xD16CFE09, 0x94FDCCEB, 0x5001E420, 0x24126EA1)),
]
# Normals: |gpu - host| <= NORMAL_ULPS ulp of max(|z|, 1) (docs/tile-runtime.md).
NORMAL_ULPS = 16


def _within_bound(got: np.ndarray, ref: np.ndarray, std: float) -> bool:
    scale = np.maximum(np.abs(ref.astype(np.float64)), abs(std))
    ulp = np.spacing(scale.astype(np.float32)).astype(np.float64)
    return bool(np.all(np.abs(got.astype(np.float64) - ref) <= NORMAL_ULPS * ulp))


@pytest.mark.parametrize("counter,key,expected", KAT)
def test_known_answers(counter, key, expected):
    out = philox.philox4x32(np.array([counter], np.uint32), key)
    assert [int(x) for x in out[0]] == list(expected)


def test_stream_layout_is_counter_then_word():
    seed = 0xA409382299F31D0 + (5 << 60)
    words = philox.words(10, seed)
    block2 = philox.philox4x32(np.array([[2, 0, 0, 0]], np.uint32), philox.split_seed(seed))[0]
    assert words[8:].tolist() == block2[:2].tolist()
    assert philox.words(7, seed).tolist() == words[:7].tolist()  # a prefix of a longer stream


@pytest.fixture(scope="module")
def emulated():
    """The Philox kernels compiled from philox.rs now, on the simt emulator."""
    pytest.importorskip("mlir")
    from oxide.tools.random_kernels import build_artifact

    return Module(build_artifact(), "cpu")


@pytest.mark.parametrize("shape,seed", [((5, 67), 0), ((1000,), 123), ((3, 4, 5), 2 ** 40 + 7)])
def test_emulated_kernels_give_the_host_stream(emulated, shape, seed):
    module = emulated
    count = int(np.prod(shape))
    uniform = rnd.generate(module, "philox_uniform", shape, seed).get()
    np.testing.assert_array_equal(uniform, philox.uniform(count, seed).reshape(shape))
    normal = rnd.generate(module, "philox_normal", shape, seed, 0.5, 2.0).get()
    assert _within_bound(normal, philox.normal(count, seed, 0.5, 2.0).reshape(shape), 2.0)


def test_host_api_shapes_and_statistics():
    u = oxide.tile.rand((256, 64), 7, target="cpu")
    assert u.shape == (256, 64) and u.dtype == np.float32 and 0 <= u.min() and u.max() < 1
    assert abs(u.mean() - 0.5) < 0.01 and np.array_equal(u, oxide.tile.rand([256, 64], 7, target="cpu"))
    z = oxide.tile.randn(1.0, 3.0, 1 << 16, 7, target="cpu")
    assert abs(z.mean() - 1.0) < 0.05 and abs(z.std() - 3.0) < 0.05
    assert oxide.tile.rand(0, 1, target="cpu").shape == (0,)
    assert not np.array_equal(oxide.tile.rand(8, target="cpu"), oxide.tile.rand(8, target="cpu"))  # fresh seeds


@pytest.mark.parametrize("bad", [-1, 1 << 64])
def test_seed_out_of_range_is_refused(bad):
    with pytest.raises(ValueError, match=r"seed is an integer in \[0, 2\^64\)"):
        oxide.tile.rand(4, bad, target="cpu")


def test_bad_shape_is_refused():
    with pytest.raises(ValueError, match="non-negative integers"):
        oxide.tile.randn(0.0, 1.0, (4, -1), 1, target="cpu")


def test_shipped_artifact_is_current():
    pytest.importorskip("mlir")
    from oxide.tools.random_kernels import build_artifact

    fresh, shipped = build_artifact(), Artifact.load(rnd.ARTIFACT)
    assert fresh.ptx == shipped.ptx, "philox.rs changed or compiles differently: python -m oxide.tools.random_kernels"
    assert shipped.emulator is None  # the host computes the stream with numpy
    assert [k.to_json() for k in fresh.kernels] == [k.to_json() for k in shipped.kernels]
    assert fresh.meta == shipped.meta
