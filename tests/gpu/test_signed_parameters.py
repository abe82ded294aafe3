"""Negative values of every signed integer width reach the kernel: a generic `T` scalar (i8..i64), struct,
tuple and array fields passed by value, and a contracted kernel's fast and general launch paths. Each case
runs on the GPU and on the emulator with the same inputs, and both must equal numpy. Values out of range are
a KernelArgumentError naming the kernel and the parameter, on both targets. Without a GPU these tests skip."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

SOURCE = Path(__file__).resolve().parent / "kernels" / "signed_params.rs"
SIGNED = (np.int8, np.int16, np.int32, np.int64)
RNG = np.random.default_rng(20)


@pytest.fixture(scope="module")
def modules(cuda):
    import oxide

    instances = {"clamp_fma": [[np.dtype(t).name.replace("int", "i")] for t in SIGNED] + [["f32"], ["f64"]]}
    return {target: oxide.load(SOURCE, target=target, instances=instances) for target in ("gpu", "cpu")}


def _both(modules, launch) -> list[np.ndarray]:
    """Run `launch(module)` on the GPU and on the emulator; assert they agree; return the GPU's result."""
    got = {target: launch(module) for target, module in modules.items()}
    np.testing.assert_array_equal(got["gpu"], got["cpu"])
    return got["gpu"]


@pytest.mark.parametrize("dtype", SIGNED)
@pytest.mark.parametrize("scalar", ["numpy", "python"])
def test_generic_signed_scalars(modules, dtype, scalar):
    info = np.iinfo(dtype)
    n = 256
    a, b, c = (RNG.integers(-9, 9, n).astype(dtype) for _ in range(3))
    lo, hi = (dtype(-20), dtype(35)) if scalar == "numpy" else (-20, 35)

    def launch(module):
        out = np.zeros(n, dtype)
        module.clamp_fma.unchecked[2, 128](a, b, c, lo, hi, out)
        return out

    assert np.array_equal(_both(modules, launch), np.clip(a * b + c, -20, 35).astype(dtype))
    extremes = (dtype(info.min), dtype(info.max)) if scalar == "numpy" else (int(info.min), int(info.max))

    def whole_range(module):
        out = np.zeros(n, dtype)
        module.clamp_fma.unchecked[2, 128](a, b, c, *extremes, out)
        return out

    assert np.array_equal(_both(modules, whole_range), a * b + c)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_generic_float_scalars(modules, dtype):
    n = 256
    a, b, c = (RNG.standard_normal(n).astype(dtype) for _ in range(3))

    def launch(module):
        out = np.zeros(n, dtype)
        module.clamp_fma.unchecked[2, 128](a, b, c, dtype(-0.5), dtype(0.75), out)
        return out

    want = np.clip(a * b + c, dtype(-0.5), dtype(0.75))
    # FMA contraction rounds a*b+c once: compare with a tolerance, not bit for bit with numpy.
    np.testing.assert_allclose(_both(modules, launch), want, rtol=1e-6, atol=1e-6)


def _by_value_reference(s, t, arr, n: int) -> np.ndarray:
    i = np.arange(n, dtype=np.int64)
    lo8 = (s[0] + 128) % 256 - 128  # an i8 field given 255 holds the bits of -1, as Rust's `255u8 as i8`
    scalars = lo8 + s[1] * 3 + s[2] * 5 + s[3] + t[0] * 7 + t[1]
    return scalars + np.array(arr, np.int64)[i % 4] * (i + 1)


@pytest.mark.parametrize("s, t, arr", [
    ((-1, -2, -3, -4), (-5, -6), (-7, -8, -9, -10)),
    ((-128, -32768, -2 ** 31, -2 ** 60), (-32768, -2 ** 60), (-2 ** 31, -1, 2 ** 31 - 1, 0)),
    ((127, 32767, 2 ** 31 - 1, 2 ** 60), (32767, 2 ** 60), (5, -5, 6, -6)),
    ((255, -1, -1, -1), (-1, -1), (-1, -1, -1, -1)),  # 255 in an i8 field: the bits of -1, as Rust's `as`
])
def test_struct_tuple_and_array_fields(modules, s, t, arr):
    n = 64

    def launch(module):
        out = np.zeros(n, np.int64)
        module.by_value.unchecked[1, n](s, t, arr, out)
        return out

    assert np.array_equal(_both(modules, launch), _by_value_reference(s, t, arr, n))


@pytest.mark.parametrize("d, e", [(-7, -3), (np.int32(-2 ** 31 + 100), np.int64(-2)), (2 ** 31 - 1, 1)])
def test_contracted_kernel_fast_and_general_paths(modules, d, e):
    x = RNG.integers(-50, 50, 512).astype(np.int32)

    def launch(module):
        out = np.zeros(512, np.int64)
        module.shifted[4, 128](x, d, e, out)  # numpy in, numpy out: the general path
        device_out = module.zeros(512, np.int64)
        module.shifted[4, 128](module.to_device(x), int(d), int(e), device_out)  # Python ints: the fast path
        both = device_out.get() if hasattr(device_out, "get") else device_out
        np.testing.assert_array_equal(np.asarray(both), out)
        return out

    want = (x + np.int32(d)).astype(np.int64) * np.int64(e)  # i32 addition wraps, as the kernel's
    assert np.array_equal(_both(modules, launch), want)


@pytest.mark.parametrize("bad", [2 ** 31, -2 ** 31 - 1, 1.5])
def test_out_of_range_scalar_names_the_parameter(modules, bad):
    from oxide.runtime import KernelArgumentError

    x = np.zeros(4, np.int32)
    for module in modules.values():
        with pytest.raises(KernelArgumentError, match=r"kernel `shifted`, argument `d: i32`"):
            module.shifted[1, 4](x, bad, 1, np.zeros(4, np.int64))
