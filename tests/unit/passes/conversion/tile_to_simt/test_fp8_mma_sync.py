"""fp8 (e4m3, e5m2) off the wgmma path (docs/tile-hopper.md, "Precisions"): examples/tile/gemm_fp8.rs lowered
for sm_80 and sm_90 (each loaded fp8 tile converted to f16, exactly, for the f16 mma.sync), the sm_90a
kernel's mma.sync sibling (a row-major B) and sm_75 (FMA loops), and the quantization kernel
(cvt.rn.satfinite); the lowered kernels run on the simt emulator against numpy on the decoded values, with
edge tiles on every dimension. Also the refusals: conversions to fp8 below sm_89, fp8 tiles made by other ops."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from mlir import ir

import oxide
from oxide.backend.emulator import emit_program
from oxide.diagnostics import OxideError
from oxide.passes.pipeline import build_pass_manager
from oxide.runtime.emulator import fp8, launch
from tests.unit.passes.conversion.tile_to_simt.harness import context, view

SOURCE = (Path(__file__).parents[5] / "examples" / "tile" / "gemm_fp8.rs").read_text()
RNG = np.random.default_rng(1822)
M, N, K = 100, 72, 96  # edge tiles in M and N, a K tail, two K steps of 64


def _program(instances: dict, chip: str, lower_chip: str | None = None) -> tuple[str, str]:
    compiled = oxide.compile(SOURCE, "gemm_fp8.rs", chip=chip, instances=instances)
    with context(), ir.Location.unknown():
        module = ir.Module.parse(compiled.simt_ir)
        build_pass_manager(f"builtin.module(convert-tile-to-simt{{chip={lower_chip or chip}}})").run(module.operation)
        return emit_program(module), compiled.kernels[0].entry


def _fp8_data(shape: tuple[int, int], elem: str) -> np.ndarray:
    """fp8 bytes of normal-distributed values (subnormals among them)."""
    return fp8.encode(RNG.standard_normal(shape) * 4, elem)


@pytest.mark.parametrize("elem", ["f8E4M3FN", "f8E5M2"])
# sm_90a takes fp8 on wgmma with BK a multiple of 128 (one swizzle row of bytes); its sibling is mma.sync.
@pytest.mark.parametrize("chip,bk,entry", [("sm_80", 64, ""), ("sm_90", 64, ""), ("sm_90a", 128, "$mma_sync")])
def test_fp8_gemm_runs_mma_sync_through_f16(elem, chip, bk, entry):
    rust = {"f8E4M3FN": "f8e4m3fn", "f8E5M2": "f8e5m2"}[elem]
    program, name = _program({"gemm": [[rust, "f32", "64", "64", str(bk)]]}, chip)
    a, b = _fp8_data((M, K), elem), _fp8_data((K, N), elem)
    z = np.full((M, N), np.nan, np.float32)
    launch(program, name + entry, (2, 2, 1), (128, 1, 1), [*view(z), *view(a), *view(b)])
    expected = fp8.decode(a, elem).astype(np.float64) @ fp8.decode(b, elem).astype(np.float64)
    np.testing.assert_allclose(z, expected, rtol=1e-5, atol=1e-5 * np.abs(expected).max())


def test_fp8_decode_to_f16_keeps_nan_and_signed_zero():
    program, name = _program({"gemm": [["f8e4m3fn", "f32", "64", "64", "64"]]}, "sm_80")
    a = np.zeros((64, 64), np.uint8)
    a[0, 0] = 0x7F  # e4m3's NaN
    b = np.full((64, 64), 0x38, np.uint8)  # 1.0
    z = np.zeros((64, 64), np.float32)
    launch(program, name, (1, 1, 1), (128, 1, 1), [*view(z), *view(a), *view(b)])
    assert np.isnan(z[0]).all() and (z[1:] == 0).all()


@pytest.mark.parametrize("elem", ["f8E4M3FN", "f8E5M2"])
def test_quantize_rounds_like_cvt_satfinite(elem):
    rust = {"f8E4M3FN": "f8e4m3fn", "f8E5M2": "f8e5m2"}[elem]
    program, name = _program({"quantize": [[rust, "128"]]}, "sm_90")
    x = np.concatenate([RNG.standard_normal(290) * 100, [1e6, -1e6, np.inf, -np.inf, np.nan, -0.0, 2.0 ** -12,
                                                         1.0625, 1.1875, 3 * 2.0 ** -11]]).astype(np.float32)
    z = np.zeros(x.size, np.uint8)
    launch(program, name, (3, 1, 1), (128, 1, 1), [*view(z), *view(x)])
    np.testing.assert_array_equal(z, fp8.encode(x, elem))
    assert fp8.decode(z[-10:-6], elem)[:2].tolist() == [fp8.decode([0x7E if elem == "f8E4M3FN" else 0x7B], elem)[0],
                                                       -fp8.decode([0x7E if elem == "f8E4M3FN" else 0x7B], elem)[0]]


def test_conversion_to_fp8_below_sm89_is_a_located_error():
    with pytest.raises(OxideError, match=r"gemm_fp8.rs:\d+:\d+.*cvt.rn.satfinite of sm_89 or newer.*sm_80"):
        oxide.compile(SOURCE, "gemm_fp8.rs", chip="sm_80", instances={"quantize": [["f8e4m3fn", "128"]]})


def test_fp8_mma_below_sm80_runs_as_fma_loops():
    # No mma.sync below sm_80: the product lowers to FMA loops (mma_fma.py) on the exact f16 values.
    program, name = _program({"gemm": [["f8e4m3fn", "f32", "64", "64", "64"]]}, "sm_75")
    a, b = _fp8_data((M, K), "f8E4M3FN"), _fp8_data((K, N), "f8E4M3FN")
    z = np.full((M, N), np.nan, np.float32)
    launch(program, name, (2, 2, 1), (128, 1, 1), [*view(z), *view(a), *view(b)])
    expected = fp8.decode(a, "f8E4M3FN").astype(np.float64) @ fp8.decode(b, "f8E4M3FN").astype(np.float64)
    np.testing.assert_allclose(z, expected, rtol=1e-5, atol=1e-5 * np.abs(expected).max())
