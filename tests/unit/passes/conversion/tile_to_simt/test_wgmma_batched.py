"""Batched GEMM on sm_90a's TMA + wgmma path (examples/tile/batch_matmul.rs, docs/tile-hopper.md "Batched GEMM"):
rank-3 operands read as [1, BM, BK] / [1, BK, BN] tiles at [batch, m, k] / [batch, k, n], reshaped around the mma,
and the reshaped accumulator stored as a [1, BM, BN] tile.

The lowered entries (B N-major, B K-major, the mma.sync sibling; inline, specialized and persistent pipelines; the
TMA-store and the register epilogues) run on the simt emulator with rank-3 tensor maps of the numpy operands,
against numpy, at shapes with edges on every dimension (batch 3; M, N, K not multiples of the tile) and K loops
longer than the ring. The simt emulator has no bf16 scalars, so f16 inputs run lowered here and bf16 at the tile
level (and lowered on the GPU: tests/gpu/test_tile_batch_matmul.py).
"""

from __future__ import annotations

import shutil
import subprocess
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from mlir import ir

import oxide
from oxide.backend.emulator import emit_program
from oxide.passes.pipeline import build_pass_manager
from oxide.runtime import tensor_map
from oxide.runtime.emulator import launch
from oxide.runtime.errors import KernelArgumentError
from oxide.runtime.module import Module
from oxide.runtime.tensor_map import TensorMap
from oxide.runtime.tile import partition
from oxide.runtime.tile_kernel import persistent_grid
from oxide.runtime.tile_marshal import TileBinder
from tests.unit.passes.conversion.tile_to_simt.harness import context, strided_view, view
from tests.unit.passes.conversion.tile_to_simt.test_wgmma_gemm import _GpuArray

SOURCE = (Path(__file__).parents[5] / "examples" / "tile" / "batch_matmul.rs").read_text()
RNG = np.random.default_rng(1919)
B, M, N, K = 3, 100, 72, 328  # edge tiles in M and N, a K tail, 6 K steps of 64 (more than the 4-stage ring)
INLINE, SPECIALIZED, PERSISTENT = "specialize=off", "specialize=on persistent=off", "specialize=on persistent=on"


def _instance(eout: str, bm: int = 64, bn: int = 64, ein: str = "f16") -> list[str]:
    return [ein, eout, str(bm), str(bn), "64"]


def _name(instance: list[str]) -> str:
    return "batch_matmul_" + "_".join(instance)


@lru_cache(maxsize=16)
def _lowered(instance: tuple[str, ...], chip: str, knobs: str = "") -> tuple[str, str]:
    """(the emulator program of the instance lowered for `chip` with `knobs`, the lowered module's text)."""
    compiled = oxide.compile(SOURCE, "batch_matmul.rs", chip="sm_80", instances={"batch_matmul": [list(instance)]})
    with context(), ir.Location.unknown():
        module = ir.Module.parse(compiled.simt_ir)
        build_pass_manager(f"builtin.module(convert-tile-to-simt{{chip={chip} {knobs}}})").run(module.operation)
        return emit_program(module), str(module)


def _operands(eout: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    a = RNG.standard_normal((B, M, K)).astype(np.float16)
    b = RNG.standard_normal((B, K, N)).astype(np.float16)
    z = np.full((B, M, N), np.nan, dtype={"f16": np.float16, "f32": np.float32}[eout])  # every element is written
    return a, b, z


def _check(z: np.ndarray, a: np.ndarray, b: np.ndarray) -> None:
    expected = np.matmul(a.astype(np.float64), b.astype(np.float64))
    rtol = 2 ** -10 if z.dtype == np.float16 else 1e-4
    np.testing.assert_allclose(z.astype(np.float64), expected, rtol=rtol, atol=rtol * np.sqrt(K))


def _out_map(z: np.ndarray, bm: int) -> TensorMap:
    """The TMA-store epilogue's map: boxes of one batch, BM rows of one 128-byte row of the output type."""
    return TensorMap(z, (1, bm, 128 // z.dtype.itemsize), swizzle="128B")


@pytest.mark.parametrize("knobs", [INLINE, SPECIALIZED, PERSISTENT, PERSISTENT + " epilogue=registers"])
@pytest.mark.parametrize("eout", ["f32", "f16"])
def test_batched_wgmma_entry_matches_numpy(knobs, eout):
    instance = _instance(eout)
    program, text = _lowered(tuple(instance), "sm_90a", knobs)
    a, b, z = _operands(eout)
    maps = [TensorMap(a, (1, 64, 64), swizzle="128B"), TensorMap(b, (1, 64, 64), swizzle="128B")]
    if "epilogue=registers" not in knobs and knobs != INLINE:
        maps.append(_out_map(z, 64))
    threads = 128 if knobs == INLINE else 256
    # A persistent grid smaller than the 3 x 2 x 2 tiles: each block walks tiles of several batches.
    grid = (5, 1, 1) if knobs.startswith(PERSISTENT) else (B, 2, 2)
    launch(program, _name(instance), grid, (threads, 1, 1), [*view(z), *view(a), *view(b), *maps], 4 * 16384)
    _check(z, a, b)


@pytest.mark.parametrize("knobs", [PERSISTENT, INLINE])
def test_batched_kmajor_entry_runs_a_transposed_b(knobs):
    instance = _instance("f32")
    program, _ = _lowered(tuple(instance), "sm_90a", knobs)
    a, b, z = _operands("f32")
    bt = np.ascontiguousarray(b.transpose(0, 2, 1))  # [B, N, K] memory: B's K is innermost
    maps = [TensorMap(a, (1, 64, 64), swizzle="128B"), TensorMap(bt, (1, 64, 64), swizzle="128B")]
    maps += [_out_map(z, 64)] if knobs == PERSISTENT else []
    b_view = strided_view(bt.reshape(-1), (B, K, N), (N * K, 1, K))
    grid, threads = ((4, 1, 1), 256) if knobs == PERSISTENT else ((B, 2, 2), 128)
    launch(program, _name(instance) + "$kmajor_b", grid, (threads, 1, 1), [*view(z), *view(a), *b_view, *maps],
           4 * 16384)
    _check(z, a, b)


@pytest.mark.parametrize("chip,entry", [("sm_90a", "$mma_sync"), ("sm_80", "")])
def test_batched_mma_sync_entries_match_numpy(chip, entry):
    instance = _instance("f32")
    program, _ = _lowered(tuple(instance), chip)
    a, b, z = _operands("f32")
    launch(program, _name(instance) + entry, (B, 2, 2), (128, 1, 1), [*view(z), *view(a), *view(b)])
    _check(z, a, b)


def test_batched_wgmma_two_warpgroups_of_a_128_by_128_tile():
    instance = _instance("f32", 128, 128)
    program, _ = _lowered(tuple(instance), "sm_90a", "warps=8")
    a, b, z = _operands("f32")
    maps = [TensorMap(a, (1, 128, 64), swizzle="128B"), TensorMap(b, (1, 64, 64), swizzle="128B"), _out_map(z, 128)]
    launch(program, _name(instance), (2, 1, 1), (384, 1, 1), [*view(z), *view(a), *view(b), *maps], 4 * 32768)
    _check(z, a, b)


def _spec(instance: list[str]) -> dict[str, Any]:
    compiled = oxide.compile(SOURCE, "batch_matmul.rs", chip="sm_90a", instances={"batch_matmul": [instance]})
    return compiled.tile[_name(instance)]


def test_batched_kernel_records_rank3_maps_and_its_variants():
    instance = _instance("bf16", 128, 128, "bf16")
    spec = _spec(instance)
    entries = [v["entry"] for v in spec["variants"]]
    assert entries == [_name(instance), _name(instance) + "$kmajor_b", _name(instance) + "$mma_sync"]
    assert spec["persistent"] and spec["threads"] == 256
    assert spec["tma"] == [{"param": 1, "box": [1, 128, 64], "swizzle": "128B"},
                           {"param": 2, "box": [1, 64, 64], "swizzle": "128B"},
                           {"param": 0, "box": [1, 128, 64], "swizzle": "128B"}]
    assert spec["variants"][1]["tma"][1] == {"param": 2, "box": [1, 128, 64], "swizzle": "128B", "transposed": True}
    # The wgmma entries say their grid is (batch, tile rows, tile columns); the sibling launches as any tile kernel.
    assert [v.get("batched", False) for v in spec["variants"]] == [True, True, False]


@pytest.mark.parametrize("tiles, cluster, grid", [
    ((16, 8, 4), {}, (132, 1, 1)),                                                      # min(tiles, SMs)
    ((1, 8, 4), {"cluster": [2, 1, 1], "cluster_tiles": [2, 1], "batched": True}, (32, 1, 1)),   # 16 cluster tiles
    ((3, 3, 1), {"cluster": [2, 1, 1], "cluster_tiles": [2, 1], "batched": True}, (12, 1, 1)),   # 3 x 2 cluster tiles
])
def test_the_batched_persistent_grid_counts_cluster_tiles_per_batch(tiles, cluster, grid):
    assert persistent_grid(tiles, {"persistent": True, **cluster}, 132) == grid


def test_batched_lowering_copies_rank3_boxes_and_walks_batches():
    _, text = _lowered(tuple(_instance("f32")), "sm_90a", PERSISTENT)
    primary = text.split("gpu.func @")[1]
    loads = [line for line in primary.splitlines() if '"simt.tma_load"' in line]
    # Each copy names the batch as its outermost coordinate: k, row, batch (A); column, k, batch (B N-major).
    assert loads and all(line.split('"simt.tma_load"(')[1].split(")")[0].count(",") == 5 for line in loads)
    stores = [line for line in primary.splitlines() if '"simt.tma_store"' in line]
    assert stores and all(line.split('"simt.tma_store"(')[1].split(")")[0].count(",") == 4 for line in stores)
    assert "nvvm.mma.sync" not in primary and '"simt.wgmma_mma_async"' in primary


@pytest.mark.parametrize("eout", ["bf16", "f32"])
def test_batched_tile_level_emulator_runs_bf16(eout):
    instance = _instance(eout, 64, 64, "bf16")
    compiled = oxide.compile(SOURCE, "batch_matmul.rs", chip="sm_90a", instances={"batch_matmul": [instance]})
    bits = lambda x: (x.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)  # noqa: E731
    value = lambda x: (x.astype(np.uint32) << 16).view(np.float32)  # noqa: E731
    a, b = bits(RNG.standard_normal((B, M, K))), bits(RNG.standard_normal((B, K, N)))
    z = np.zeros((B, M, N), np.uint16 if eout == "bf16" else np.float32)
    Module(compiled.artifact(SOURCE), "cpu").batch_matmul(partition(z, (1, 64, 64)), a, b)
    expected = np.matmul(value(a).astype(np.float64), value(b).astype(np.float64))
    rtol = 2 ** -8 if eout == "bf16" else 1e-4
    np.testing.assert_allclose(value(z) if eout == "bf16" else z, expected, rtol=rtol, atol=rtol * np.sqrt(K))


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
@pytest.mark.parametrize("instance", [["bf16", "bf16", "128", "256", "64"], ["bf16", "f32", "128", "128", "64"]])
def test_batched_ptx_assembles_for_sm90a(instance, tmp_path):
    compiled = oxide.compile(SOURCE, "batch_matmul.rs", chip="sm_90a", instances={"batch_matmul": [instance]})
    ptx = compiled.ptx["sm_90a"]
    assert "cp.async.bulk.tensor.3d" in ptx and "wgmma.mma_async" in ptx
    path = tmp_path / "k.ptx"
    path.write_text(ptx)
    result = subprocess.run(["ptxas", "-arch=sm_90a", str(path), "-o", str(tmp_path / "k.cubin")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "C7514" not in result.stderr  # no serialized wgmma


def _gpu_tensor(address: int, shape: tuple[int, ...], strides: tuple[int, ...] | None = None,
                typestr: str = "<u2") -> _GpuArray:
    array = _GpuArray(address, shape, typestr)
    if strides is not None:
        array.__cuda_array_interface__["strides"] = tuple(int(typestr[-1]) * s for s in strides)
    return array


@pytest.mark.parametrize("b_strides, entry", [
    ((72 * 80, 80, 1), ""),                  # row-major [B, K, N]: N-major boxes
    ((72 * 80, 1, 72), "$kmajor_b"),         # a transposed [B, N, K] tensor: K-major boxes
    ((70 * 80, 1, 70), "$mma_sync"),         # transposed, rows of 144 bytes 140 apart: not even stageable
])
def test_batched_b_majorness_picks_the_variant(monkeypatch, b_strides, entry):
    instance = _instance("f32", ein="bf16")
    compiled = oxide.compile(SOURCE, "batch_matmul.rs", chip="sm_90a", instances={"batch_matmul": [instance]})
    encoded: list[Any] = []
    monkeypatch.setattr(tensor_map, "_encode", lambda m: encoded.append((m.shape, m.strides, m.box)) or bytes(128))
    z = partition(_gpu_tensor(0x100000, (3, 96, 80), typestr="<f4"), (1, 64, 64))
    b = _gpu_tensor(0x300000, (3, 72, 80), b_strides)
    bound = TileBinder(compiled.artifact().kernels[0], gpu=True).bind([z, _gpu_tensor(0x200000, (3, 96, 72)), b],
                                                                        False)
    assert bound.variant["entry"] == _name(instance) + entry
    if entry == "$kmajor_b":  # B's map: the [B, N, K] memory (the last two dimensions swapped), K-major boxes
        assert encoded[-2] == ((3, 80, 72), (72 * 80 * 2, 144, 2), (1, 64, 64))
    if entry == "":  # A, B and the output, each rank 3 with a box of one batch
        assert [e[2] for e in encoded] == [(1, 64, 64), (1, 64, 64), (1, 64, 32)]


@pytest.mark.parametrize("cluster", ["2x1", "1x2"])
def test_batched_cluster_walks_each_batch(cluster):
    # The clusters walk batch x cluster tiles: every block of a cluster in the same batch, its slices multicast
    # with the batch coordinate; the tile grid (2 x 2 per batch) is one cluster tile wide on the shared side.
    instance = _instance("f32")
    program, text = _lowered(tuple(instance), "sm_90a", f"cluster={cluster}")
    cm, cn = (int(side) for side in cluster.split("x"))
    a, b, z = _operands("f32")
    maps = [TensorMap(a, (1, 64 // cn, 64), swizzle="128B"), TensorMap(b, (1, 64 // cm, 64), swizzle="128B"),
            _out_map(z, 64)]
    launch(program, _name(instance), (2 * cm * cn, 1, 1), (256, 1, 1), [*view(z), *view(a), *view(b), *maps],
           4 * 16384, cluster=(cm * cn, 1, 1))
    _check(z, a, b)


def test_batched_128_by_256_without_a_sibling_refuses_rows_tma_cannot_read(monkeypatch):
    # 128 x 256 x 64 tiles are beyond the mma.sync path's staging: no sibling, so with staging off a launch on a
    # tensor TMA cannot read (rows of 200 bytes) is refused with the reason, as for the 2-D GEMM.
    monkeypatch.setenv("OXIDE_STAGE_OPERANDS", "0")
    instance = ["bf16", "bf16", "128", "256", "64"]
    compiled = oxide.compile(SOURCE, "batch_matmul.rs", chip="sm_90a", instances={"batch_matmul": [instance]})
    assert [v["entry"] for v in compiled.tile[_name(instance)]["variants"]] == \
        [_name(instance), _name(instance) + "$kmajor_b"]
    monkeypatch.setattr(tensor_map, "_encode", lambda m: bytes(128))
    z = partition(_gpu_tensor(0x100000, (2, 300, 256)), (1, 128, 256))
    with pytest.raises(KernelArgumentError, match="through TMA"):
        TileBinder(compiled.artifact().kernels[0], gpu=True).bind(
            [z, _gpu_tensor(0x200000, (2, 300, 100)), _gpu_tensor(0x300000, (2, 100, 256))], False)


def test_batched_128_by_256_stages_rows_tma_cannot_read(monkeypatch):
    # With staging (the default), A's rank-3 rows of 200 bytes are one pitch-linear region: copied per launch into
    # 208-byte rows, and the TMA entry runs.
    instance = ["bf16", "bf16", "128", "256", "64"]
    compiled = oxide.compile(SOURCE, "batch_matmul.rs", chip="sm_90a", instances={"batch_matmul": [instance]})
    monkeypatch.setattr(tensor_map, "_encode", lambda m: bytes(128))
    z = partition(_gpu_tensor(0x100000, (2, 300, 256)), (1, 128, 256))
    bound = TileBinder(compiled.artifact().kernels[0], gpu=True).bind(
        [z, _gpu_tensor(0x200000, (2, 300, 100)), _gpu_tensor(0x300000, (2, 100, 256))], False)
    assert bound.variant["entry"] == _name(instance)
    assert [(s.param, s.rows, s.pitch, s.padded) for s in bound.staged] == [(1, 600, 200, 208)]


def test_a_loop_over_the_batch_keeps_mma_sync():
    # The batch index must be loop-invariant: a loop whose induction variable is the batch is not a K loop.
    text = SOURCE.replace("px.load([batch, bm, k])", "px.load([k, bm, k])")
    compiled = oxide.compile(text, "batch_matmul.rs", chip="sm_90a", instances={"batch_matmul": [_instance("f32")]})
    assert "tma" not in compiled.tile[_name(_instance("f32"))]
    assert "wgmma" not in compiled.ptx["sm_90a"] and "mma.sync" in compiled.ptx["sm_90a"]
