"""Precisions of the tile GEMM (examples/tile/gemm_precisions.rs, docs/tile-hopper.md "Precisions"): bf16 and
f16 inputs with an f32 accumulator converted to bf16, f16 or f32 after the K loop, on both lowered entries of
sm_90a (TMA + wgmma, and the mma.sync sibling) and on sm_80; tf32 (f32 data, f32 accumulator) on mma.sync. The
lowered kernels run on the simt emulator against numpy, with edge tiles on every dimension (the simt emulator
has no bf16 scalars: bf16 instances run at the tile level here, lowered on the GPU in tests/gpu, and ptxas
assembles them).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from mlir import ir

import oxide
from oxide.backend.emulator import emit_program
from oxide.passes.pipeline import build_pass_manager
from oxide.runtime.emulator import launch
from oxide.runtime.module import Module
from oxide.runtime.tile import partition
from oxide.runtime.tensor_map import TensorMap
from tests.unit.passes.conversion.tile_to_simt.harness import context, strided_view, view

SOURCE = (Path(__file__).parents[5] / "examples" / "tile" / "gemm_precisions.rs").read_text()
RNG = np.random.default_rng(1819)
M, N, K = 100, 72, 136  # edge tiles in M and N, a K tail, and three K steps of 64 (refills past one stage)


def _bf16(x: np.ndarray) -> np.ndarray:
    """bf16 values as 16-bit patterns (round toward zero: exact bf16 values)."""
    return (x.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)


def _values(x: np.ndarray, elem: str) -> np.ndarray:
    return (x.astype(np.uint32) << 16).view(np.float32) if elem == "bf16" else x.astype(np.float32)


def _input(shape: tuple[int, int], elem: str) -> np.ndarray:
    x = RNG.standard_normal(shape)
    return _bf16(x) if elem == "bf16" else x.astype({"f16": np.float16, "f32": np.float32}[elem])


def _output(shape: tuple[int, int], elem: str) -> np.ndarray:
    dtype = {"bf16": np.uint16, "f16": np.float16, "f32": np.float32}[elem]
    return np.full(shape, 0xFFFF if elem == "bf16" else np.nan, dtype=dtype)  # every element is written


def _result(z: np.ndarray, elem: str) -> np.ndarray:
    return _values(z, "bf16") if elem == "bf16" else z.astype(np.float32)


def _program(ein: str, eout: str, bk: int, chip: str) -> tuple[str, str]:
    """(the emulator program of the lowered instance, its entry name)."""
    compiled = oxide.compile(SOURCE, "gemm_precisions.rs", chip="sm_80",
                             instances={"gemm": [[ein, eout, "64", "64", str(bk)]]})
    with context(), ir.Location.unknown():
        module = ir.Module.parse(compiled.simt_ir)
        build_pass_manager(f"builtin.module(convert-tile-to-simt{{chip={chip}}})").run(module.operation)
        return emit_program(module), compiled.kernels[0].entry


def _check(z: np.ndarray, a: np.ndarray, b: np.ndarray, ein: str, eout: str) -> None:
    expected = _values(a, ein).astype(np.float64) @ _values(b, ein).astype(np.float64)
    # The f32 accumulator rounded once to the output type: half an ulp of bf16 (2^-8) or f16 (2^-11), relative.
    rtol = {"bf16": 2 ** -8, "f16": 2 ** -10, "f32": 1e-4}[eout] if ein != "f32" else 5e-3
    np.testing.assert_allclose(_result(z, eout), expected, rtol=rtol, atol=rtol * np.sqrt(K))


# The simt emulator has no bf16 scalars: bf16 kernels run lowered on the GPU (tests/gpu) and at the tile level here.
@pytest.mark.parametrize("ein,eout", [("f16", "f16"), ("f16", "f32")])
@pytest.mark.parametrize("entry", ["wgmma", "mma_sync"])
def test_sm90a_entries_convert_the_accumulator_to_the_output_type(ein, eout, entry):
    program, name = _program(ein, eout, 64, "sm_90a")
    a, b, z = _input((M, K), ein), _input((K, N), ein), _output((M, N), eout)
    args = [*view(z), *view(a), *view(b)]
    if entry == "wgmma":
        args += [TensorMap(a, (64, 64), swizzle="128B", dtype="bfloat16" if ein == "bf16" else None),
                 TensorMap(b, (64, 64), swizzle="128B", dtype="bfloat16" if ein == "bf16" else None),
                 # The TMA-store epilogue writes through the output's map: 128-byte rows of the output type.
                 TensorMap(z, (64, 128 // z.dtype.itemsize), swizzle="128B",
                           dtype="bfloat16" if eout == "bf16" else None)]
        # Warp-specialized (a producer warpgroup: 256 threads) and persistent (any grid walks the tiles).
        launch(program, name, (2, 1, 1), (256, 1, 1), args, 4 * 16384)
    else:
        launch(program, f"{name}$mma_sync", (2, 2, 1), (128, 1, 1), args)
    _check(z, a, b, ein, eout)


@pytest.mark.parametrize("ein,eout", [("f16", "f16"), ("tf32", "f32")])
def test_sm80_mma_sync_runs_every_precision(ein, eout):
    program, name = _program(ein, eout, 32, "sm_80")
    data = "f32" if ein == "tf32" else ein  # tf32 tensors hold f32 values
    a, b, z = _input((M, K), data), _input((K, N), data), _output((M, N), eout)
    # The K loop is a cp.async pipeline whose ring is dynamic shared memory (4 stages of the a and b tiles).
    ring = 4 * (64 * 32 + 32 * 64) * (4 if data == "f32" else 2) * 2
    launch(program, name, (2, 2, 1), (128, 1, 1), [*view(z), *view(a), *view(b)], ring)
    _check(z, a, b, data, eout)


def test_tf32_takes_wgmma_with_a_kmajor_b_on_sm90a():
    # wgmma's tf32 needs both operands K-major in shared memory (no transpose bit for 32-bit types): the kernel's
    # own entry reads B K-major, and a row-major B runs on the mma.sync sibling.
    compiled = oxide.compile(SOURCE, "gemm_precisions.rs", chip="sm_90a",
                             instances={"gemm": [["tf32", "f32", "64", "64", "32"]]})
    variants = compiled.tile["gemm_tf32_f32_64_64_32"]["variants"]
    assert [v["entry"] for v in variants] == ["gemm_tf32_f32_64_64_32", "gemm_tf32_f32_64_64_32$mma_sync"]
    assert variants[0]["tma"] == [{"param": 1, "box": [64, 32], "swizzle": "128B"},
                                  {"param": 2, "box": [64, 32], "swizzle": "128B", "transposed": True},
                                  {"param": 0, "box": [64, 32], "swizzle": "128B"}]  # the TMA-store epilogue
    ptx = compiled.ptx["sm_90a"]
    assert "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32" in ptx
    assert "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32" in ptx


@pytest.mark.parametrize("bk", [32, 64])  # one swizzle row of f32 per stage, or two boxes along K
def test_tf32_wgmma_entry_runs_a_transposed_b(bk):
    program, name = _program("tf32", "f32", bk, "sm_90a")
    a, b, z = _input((M, K), "f32"), _input((K, N), "f32"), _output((M, N), "f32")
    bt = np.ascontiguousarray(b.T)
    maps = [TensorMap(a, (64, 32), swizzle="128B"), TensorMap(bt, (64, 32), swizzle="128B"),
            TensorMap(z, (64, 32), swizzle="128B")]  # the output's, for the TMA-store epilogue
    args = [*view(z), *view(a), *strided_view(bt.reshape(-1), (K, N), (1, K)), *maps]
    launch(program, name, (2, 1, 1), (256, 1, 1), args, 4 * 2 * 64 * bk * 4)
    _check(z, a, b, "f32", "f32")


@pytest.mark.parametrize("ein,eout", [("bf16", "bf16"), ("bf16", "f16"), ("f16", "bf16"), ("tf32", "f32")])
def test_tile_level_emulator_runs_every_precision(ein, eout):
    compiled = oxide.compile(SOURCE, "gemm_precisions.rs", chip="sm_90a",
                             instances={"gemm": [[ein, eout, "64", "64", "64"]]})
    data = "f32" if ein == "tf32" else ein
    a, b, z = _input((M, K), data), _input((K, N), data), _output((M, N), eout)
    Module(compiled.artifact(SOURCE), "cpu").gemm(partition(z, (64, 64)), a, b)
    _check(z, a, b, data, eout)


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
@pytest.mark.parametrize("ein,eout,bk", [("bf16", "bf16", 64), ("f16", "f16", 64), ("bf16", "f32", 64),
                                         ("tf32", "f32", 32)])
def test_ptxas_assembles_every_entry(ein, eout, bk, tmp_path):
    compiled = oxide.compile(SOURCE, "gemm_precisions.rs", chip="sm_90a",
                             instances={"gemm": [[ein, eout, "128", "128", str(bk)]]})
    ptx = compiled.ptx["sm_90a"]
    assert "wgmma.mma_async" in ptx and "$mma_sync(" in ptx and "mma.sync.aligned" in ptx
    assert ("$kmajor_b(" in ptx) == (ein != "tf32")  # tf32's own entry is the K-major one
    path = tmp_path / "gemm.ptx"
    path.write_text(ptx)
    result = subprocess.run(["ptxas", "-arch=sm_90a", str(path), "-o", str(tmp_path / "gemm.cubin")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
