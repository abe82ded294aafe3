"""Run the math and debug kernels of tests/gpu/kernels/math_debug.mlir and compare with numpy.

Each math kernel computes every Rust f32/f64 method on (x, y, e) triples; results are compared in units in
the last place with tolerances from libdevice's documented maximum errors (plus one for the reference's
own rounding). printf runs in a subprocess, whose stdout the device printf buffer is flushed to.
"""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from tests.gpu.harness import DeviceArray, launch, load

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = "math_debug.ptx"


def _round_away(x: np.ndarray) -> np.ndarray:
    """Rust's round: ties away from zero (numpy's round is ties-to-even)."""
    magnitude = np.abs(x)
    whole = np.floor(magnitude)
    return np.copysign(whole + (magnitude - whole >= 0.5), x)


def _fma(x: np.ndarray, y: np.ndarray, z: np.ndarray) -> np.ndarray:
    """x * y + z rounded once, exactly (numpy has no fma)."""
    out = x * y + z
    for i in np.flatnonzero(np.isfinite(x) & np.isfinite(y) & np.isfinite(z) & np.isfinite(out)):
        out[i] = float(Fraction(float(x[i])) * Fraction(float(y[i])) + Fraction(float(z[i])))
    return out


# (Rust method, reference on float64 arrays (x, y, e) -> float64, max ulp error for f32, for f64), in the
# order of the kernel's switch cases. f32 references are computed in f64 and rounded once.
FUNCTIONS = [
    ("sqrt", lambda x, y, e: np.sqrt(x), 0, 0),
    ("exp", lambda x, y, e: np.exp(x), 3, 2),
    ("exp2", lambda x, y, e: np.exp2(x), 3, 2),
    ("ln", lambda x, y, e: np.log(x), 2, 2),
    ("log2", lambda x, y, e: np.log2(x), 2, 2),
    ("log10", lambda x, y, e: np.log10(x), 3, 2),
    ("sin", lambda x, y, e: np.sin(x), 3, 3),
    ("cos", lambda x, y, e: np.cos(x), 3, 3),
    ("tan", lambda x, y, e: np.tan(x), 5, 3),
    ("powf", lambda x, y, e: np.power(x, y), 9, 3),
    # powi multiplies repeatedly (as Rust's llvm.powi does): one rounding per multiplication.
    ("powi", lambda x, y, e: np.power(x, e.astype(np.float64)), 8, 8),
    ("mul_add", lambda x, y, e: _fma(x, y, x), 1, 0),
    ("floor", lambda x, y, e: np.floor(x), 0, 0),
    ("ceil", lambda x, y, e: np.ceil(x), 0, 0),
    ("round", lambda x, y, e: _round_away(x), 0, 0),
    ("round_ties_even", lambda x, y, e: np.rint(x), 0, 0),
    ("trunc", lambda x, y, e: np.trunc(x), 0, 0),
    ("abs", lambda x, y, e: np.abs(x), 0, 0),
    ("copysign", lambda x, y, e: np.copysign(x, y), 0, 0),
    ("min", lambda x, y, e: np.fmin(x, y), 0, 0),  # Rust's min/max ignore a NaN operand
    ("max", lambda x, y, e: np.fmax(x, y), 0, 0),
    ("minimum", lambda x, y, e: np.minimum(x, y), 0, 0),  # ... minimum/maximum propagate it
    ("maximum", lambda x, y, e: np.maximum(x, y), 0, 0),
    ("asin", lambda x, y, e: np.arcsin(x), 5, 3),
    ("acos", lambda x, y, e: np.arccos(x), 4, 3),
    ("atan", lambda x, y, e: np.arctan(x), 3, 3),
    ("atan2", lambda x, y, e: np.arctan2(x, y), 4, 3),
    ("sinh", lambda x, y, e: np.sinh(x), 4, 3),
    ("cosh", lambda x, y, e: np.cosh(x), 3, 2),
    ("tanh", lambda x, y, e: np.tanh(x), 3, 2),
    ("asinh", lambda x, y, e: np.arcsinh(x), 4, 4),
    ("acosh", lambda x, y, e: np.arccosh(x), 5, 4),
    ("atanh", lambda x, y, e: np.arctanh(x), 4, 3),
    ("cbrt", lambda x, y, e: np.cbrt(x), 2, 2),
    ("exp_m1", lambda x, y, e: np.expm1(x), 2, 2),
    ("ln_1p", lambda x, y, e: np.log1p(x), 2, 2),
    # libdevice's hypotf takes its square root from sqrt.approx here (no prec-sqrt reflect flag).
    ("hypot", lambda x, y, e: np.hypot(x, y), 4, 3),
    ("sin_cos.0", lambda x, y, e: np.sin(x), 3, 3),
    ("sin_cos.1", lambda x, y, e: np.cos(x), 3, 3),
    ("recip", lambda x, y, e: 1.0 / x, 1, 0),
    ("to_degrees", None, 0, 0),
    ("to_radians", None, 0, 0),
]

# Rust's constants: f32 multiplies by 57.29578f32 and (PI_f32 / 180f32); f64 by 180/PI and PI/180.
SCALE = {
    ("to_degrees", np.float32): np.float32(57.2957795130823208767981548141051703),
    ("to_radians", np.float32): np.float32(np.float32(np.pi) / np.float32(180.0)),
    ("to_degrees", np.float64): np.float64(180.0) / np.float64(np.pi),
    ("to_radians", np.float64): np.float64(np.pi) / np.float64(180.0),
}


def _inputs(dtype: type) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Specials (signed zeros, ties, infinities, NaN, domain edges) and random values of several scales."""
    special = [0.0, -0.0, 0.5, -0.5, 1.5, 2.5, -2.5, 0.49999997, 1.0, -1.0, 2.0, 10.0, -10.0, np.inf, -np.inf,
               np.nan, 1e-30, -1e-30, 1e30, -1e30, 0.999, -0.999, 100.25, 3.0]
    rng = np.random.default_rng(20240)
    parts = [np.array(special), rng.uniform(-1, 1, 200), rng.uniform(-10, 10, 300), rng.uniform(1, 100, 100),
             np.exp(rng.uniform(-40, 40, 200)) * rng.choice([-1.0, 1.0], 200)]
    x = np.concatenate(parts).astype(dtype)
    y = np.roll(x, 7)
    y[:3] = [np.nan, -0.0, 2.0]
    e = rng.integers(-6, 7, x.size).astype(np.int32)
    return x, y, e


def _ordinal(v: np.ndarray) -> np.ndarray:
    """Floats as integers in the same order, adjacent floats one apart, +0 and -0 both 0 (Python ints, so
    distances between far-apart f64 values cannot overflow)."""
    signed = {4: np.int32, 8: np.int64}[v.dtype.itemsize]
    bits = v.view(signed).astype(np.int64)
    magnitude = bits & np.int64(np.iinfo(signed).max)
    return np.where(bits < 0, -magnitude, magnitude).astype(object)


def _ulps(got: np.ndarray, want: np.ndarray) -> np.ndarray:
    """Distance in units in the last place; NaN against NaN is 0, NaN against a number infinite."""
    got_nan, want_nan = np.isnan(got), np.isnan(want)
    distance = np.abs(_ordinal(np.where(got_nan, 0, got)) - _ordinal(np.where(want_nan, 0, want))).astype(np.float64)
    distance = np.where(got_nan & want_nan, 0, np.where(got_nan ^ want_nan, np.inf, distance))
    # Below the normal range an intermediate may underflow differently (powi's 1 / x^n): compare absolutely.
    tiny = np.finfo(got.dtype).tiny
    return np.where(np.isfinite(want) & (np.abs(want) < tiny) & (np.abs(got) <= 2 * tiny), 0, distance)


@pytest.mark.parametrize("dtype", [np.float32, np.float64], ids=["f32", "f64"])
def test_math_functions(cuda, dtype):
    x, y, e = _inputs(dtype)
    n, k = x.size, len(FUNCTIONS)
    xs, ys, es = DeviceArray(cuda, x), DeviceArray(cuda, y), DeviceArray(cuda, e)
    out = DeviceArray(cuda, np.full(n * k, 7.0, dtype=dtype))
    kernel = load(cuda, FIXTURE, "math_f32" if dtype is np.float32 else "math_f64")
    launch(cuda, kernel, [(n * k + 255) // 256], [256], [xs, n, ys, n, es, n, out, n * k])
    got = out.get().reshape(n, k)
    for array in (xs, ys, es, out):
        array.free()

    failures = []
    with np.errstate(all="ignore"):
        x64, y64 = x.astype(np.float64), y.astype(np.float64)
        for column, (name, reference, tol32, tol64) in enumerate(FUNCTIONS):
            if reference is None:
                want = x * SCALE[(name, dtype)]  # one rounding in the kernel's own precision
            else:
                want = reference(x64, y64, e).astype(dtype)
            tolerance = tol32 if dtype is np.float32 else tol64
            distance = _ulps(got[:, column], want)
            worst = int(np.argmax(distance))
            if distance[worst] > tolerance:
                failures.append(f"{name}: {distance[worst]} ulp at x={x[worst]!r}, y={y[worst]!r}, e={e[worst]}: "
                                f"got {got[worst, column]!r}, want {want[worst]!r} (tolerance {tolerance})")
    assert not failures, "\n".join(failures)


def test_rounding_ties(cuda):
    """Rust's round breaks ties away from zero, round_ties_even to even; floor/ceil/trunc on the same ties."""
    x = np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.49999997, -0.49999997], dtype=np.float32)
    n, k = x.size, len(FUNCTIONS)
    names = [name for name, *_ in FUNCTIONS]
    xs, ys, es = DeviceArray(cuda, x), DeviceArray(cuda, x), DeviceArray(cuda, np.zeros(n, np.int32))
    out = DeviceArray(cuda, np.zeros(n * k, np.float32))
    launch(cuda, load(cuda, FIXTURE, "math_f32"), [(n * k + 255) // 256], [256], [xs, n, ys, n, es, n, out, n * k])
    got = out.get().reshape(n, k)
    np.testing.assert_array_equal(got[:, names.index("round")], [1, 2, 3, -1, -2, -3, 0, -0])
    np.testing.assert_array_equal(got[:, names.index("round_ties_even")], [0, 2, 2, -0, -2, -2, 0, -0])
    np.testing.assert_array_equal(got[:, names.index("trunc")], [0, 1, 2, -0, -1, -2, 0, -0])
    for array in (xs, ys, es, out):
        array.free()


def test_clocks_advance(cuda):
    out = DeviceArray(cuda, np.zeros(3, np.int64))
    launch(cuda, load(cuda, FIXTURE, "clocks"), [1], [1], [out, 3])
    first, timer, second = out.get()
    assert second >= first > 0
    assert timer > 0  # nanoseconds since an epoch of the driver's choosing
    out.free()


PRINT_SCRIPT = """
import numpy as np
from cuda.bindings import driver
from tests.gpu.conftest import _gpu_context
from tests.gpu.harness import launch, load
handle, reason = _gpu_context()
assert handle is not None, reason
launch(driver, load(driver, "math_debug.ptx", "print_values"), [1], [1],
       [np.float32(1.5), np.int32(-42), np.int8(-7)])
"""


def test_printf_rust_format(cuda):
    """println!("x = {:.3}, n = {}, hex = {:#x}, pad = [{:>5}], small = {}, 100%", 1.5, -42, -42, -42, -7i8)."""
    done = subprocess.run([sys.executable, "-c", PRINT_SCRIPT], check=False, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "x = 1.500, n = -42, hex = 0xffffffd6, pad = [  -42], small = -7, 100%\n"


def test_fma_reference_is_exact():
    """The f64 mul_add reference rounds once (a plain x * y + x would round twice)."""
    x = np.array([1.0 + 2.0**-30], dtype=np.float64)
    y = np.array([1.0 - 2.0**-30], dtype=np.float64)
    exact = float(Fraction(x[0]) * Fraction(y[0]) - Fraction(x[0]))
    assert _fma(x, y, -x)[0] == exact != (x * y - x)[0]


def test_ulps_measure():
    """The comparison itself: adjacent floats are 1 apart across zero, NaN matches only NaN."""
    f = np.float32
    one_up = np.nextafter(f(1), f(2))
    assert _ulps(np.array([one_up, f(-0.0), np.nan, f(1), np.inf], f),
                 np.array([f(1), f(0.0), np.nan, np.nan, np.inf], f)).tolist() == [1, 0, 0, np.inf, 0]
    smallest = np.array([np.nextafter(f(0), f(1))], f)
    assert _ulps(smallest, -smallest)[0] == 0  # both below the normal range
    assert _ulps(np.array([np.float64(-1e308)]), np.array([np.float64(1e308)]))[0] > 1e18
