"""Persistent GEMM on a mapped output on sm_90a's TMA + wgmma path (examples/tile/persistent_gemm_mixed.rs,
docs/tile-hopper.md "Persistent GEMM on a mapped output"): the kernel's `for idx in c.iter_indices()` walk drives
the producer and the consumers, and the store goes to the walk's index.

The lowered entries (B N-major, B K-major, the mma.sync sibling; inline and specialized pipelines; the TMA-store
and the register epilogues) run on the simt emulator with tensor maps of the numpy operands, against numpy: M and
N not multiples of the tile, a K tail, K loops longer than the ring, more tiles than blocks and clipped work items.
The simt emulator has no bf16 scalars, so f16 inputs run lowered here (bf16 on the GPU:
tests/gpu/test_tile_persistent_gemm.py).
"""

from __future__ import annotations

import shutil
import subprocess
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest
from mlir import ir

import oxide
from oxide.backend.emulator import emit_program
from oxide.passes.pipeline import build_pass_manager
from oxide.runtime.emulator import launch
from oxide.runtime.tensor_map import TensorMap
from tests.unit.passes.conversion.tile_to_simt.harness import context, strided_view, view

EXAMPLES = Path(__file__).parents[5] / "examples" / "tile"
SOURCE = (EXAMPLES / "persistent_gemm_mixed.rs").read_text()
RNG = np.random.default_rng(2019)
# 4 x 3 tiles of 64 x 64 (the last row and column partial), a K tail, 6 K steps (more than the 4-stage ring).
M, N, K = 200, 136, 328
SPECIALIZED = "specialize=on"


def _instance(eout: str, bm: int = 64, bn: int = 64, mapping: str = "[2, 1]", ein: str = "f16") -> list[str]:
    return [ein, eout, str(bm), str(bn), "64", mapping]


def _name(instance: list[str]) -> str:
    return "gemm_persistent_mixed_" + "_".join(instance[:5]) + "_" + "x".join(
        instance[5].strip("[]").replace(" ", "").split(","))


@lru_cache(maxsize=16)
def _lowered(instance: tuple[str, ...], chip: str, knobs: str = "") -> tuple[str, str]:
    """(the emulator program of the instance lowered for `chip` with `knobs`, the lowered module's text)."""
    compiled = oxide.compile(SOURCE, "persistent_gemm_mixed.rs", chip="sm_80",
                             instances={"gemm_persistent_mixed": [list(instance)]})
    with context(), ir.Location.unknown():
        module = ir.Module.parse(compiled.simt_ir)
        build_pass_manager(f"builtin.module(convert-tile-to-simt{{chip={chip} {knobs}}})").run(module.operation)
        return emit_program(module), str(module)


def _operands(eout: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    a = RNG.standard_normal((M, K)).astype(np.float16)
    b = RNG.standard_normal((K, N)).astype(np.float16)
    c = np.full((M, N), np.nan, dtype={"f16": np.float16, "f32": np.float32}[eout])  # every element is written
    return a, b, c


def _check(c: np.ndarray, a: np.ndarray, b: np.ndarray) -> None:
    expected = a.astype(np.float64) @ b.astype(np.float64)
    rtol = 2 ** -10 if c.dtype == np.float16 else 1e-4
    np.testing.assert_allclose(c.astype(np.float64), expected, rtol=rtol, atol=rtol * np.sqrt(K))


def _out_map(c: np.ndarray, bm: int) -> TensorMap:
    """The TMA-store epilogue's map: BM rows of one 128-byte row of the output type."""
    return TensorMap(c, (bm, 128 // c.dtype.itemsize), swizzle="128B")


@pytest.mark.parametrize("knobs", [SPECIALIZED, SPECIALIZED + " epilogue=registers"])
@pytest.mark.parametrize("eout, mapping", [("f32", "[2, 1]"), ("f16", "[1, 2]"), ("f32", "[0, 1]")])
def test_mapped_wgmma_entry_matches_numpy(knobs, eout, mapping):
    # 4 blocks walk 12 tiles in items of 2 x 1 (6 items), 1 x 2 (8 items, the last of each row clipped) or whole
    # columns (3 items: block 3 has none).
    instance = _instance(eout, mapping=mapping)
    program, _ = _lowered(tuple(instance), "sm_90a", knobs)
    a, b, c = _operands(eout)
    maps = [TensorMap(a, (64, 64), swizzle="128B"), TensorMap(b, (64, 64), swizzle="128B")]
    if "epilogue=registers" not in knobs:
        maps.append(_out_map(c, 64))
    launch(program, _name(instance), (4, 1, 1), (256, 1, 1), [*view(c), *view(a), *view(b), *maps], 4 * 16384)
    _check(c, a, b)


def test_mapped_kmajor_entry_runs_a_transposed_b():
    instance = _instance("f32")
    program, _ = _lowered(tuple(instance), "sm_90a")
    a, b, c = _operands("f32")
    bt = np.ascontiguousarray(b.T)  # [N, K] memory: B's K is innermost
    maps = [TensorMap(a, (64, 64), swizzle="128B"), TensorMap(bt, (64, 64), swizzle="128B"), _out_map(c, 64)]
    b_view = strided_view(bt.reshape(-1), (K, N), (1, K))
    launch(program, _name(instance) + "$kmajor_b", (3, 1, 1), (256, 1, 1), [*view(c), *view(a), *b_view, *maps],
           4 * 16384)
    _check(c, a, b)


@pytest.mark.parametrize("chip,entry", [("sm_90a", "$mma_sync"), ("sm_80", "")])
def test_mapped_mma_sync_entries_match_numpy(chip, entry):
    instance = _instance("f32")
    program, _ = _lowered(tuple(instance), chip)
    a, b, c = _operands("f32")
    launch(program, _name(instance) + entry, (4, 1, 1), (128, 1, 1), [*view(c), *view(a), *view(b)])
    _check(c, a, b)


def test_mapped_wgmma_two_warpgroups_of_a_128_by_128_tile():
    instance = _instance("f32", 128, 128)
    program, _ = _lowered(tuple(instance), "sm_90a", "warps=8")
    a, b, c = _operands("f32")
    maps = [TensorMap(a, (128, 64), swizzle="128B"), TensorMap(b, (64, 64), swizzle="128B"), _out_map(c, 128)]
    launch(program, _name(instance), (1, 1, 1), (384, 1, 1), [*view(c), *view(a), *view(b), *maps], 4 * 32768)
    _check(c, a, b)


def _spec(instance: list[str]) -> dict:
    compiled = oxide.compile(SOURCE, "persistent_gemm_mixed.rs", chip="sm_90a",
                             instances={"gemm_persistent_mixed": [instance]})
    return compiled.tile[_name(instance)]


def test_mapped_kernel_records_its_maps_and_launches_on_the_partitions_blocks():
    instance = _instance("bf16", 128, 256, "[1, 1]", "bf16")
    spec = _spec(instance)
    assert [v["entry"] for v in spec["variants"]] == [_name(instance), _name(instance) + "$kmajor_b"]
    # Not the GEMM's own persistent scheduler: the grid is the blocks the mapped partition asks for.
    assert not spec["persistent"] and spec["threads"] == 384
    assert spec["tma"] == [{"param": 1, "box": [128, 64], "swizzle": "128B"},
                           {"param": 2, "box": [64, 64], "swizzle": "128B"},
                           {"param": 0, "box": [128, 64], "swizzle": "128B"}]


def test_lowering_walks_the_mapped_items_with_wgmma():
    _, text = _lowered(tuple(_instance("f32")), "sm_90a")
    primary = text.split("gpu.func @")[1]
    assert '"simt.wgmma_mma_async"' in primary and '"simt.tma_store"' in primary and "nvvm.mma.sync" not in primary
    # Both roles run the walk: two item loops stepping by the grid's blocks.
    assert primary.count('"simt.grid_dim"') >= 2


def test_the_inline_pipeline_does_not_walk_a_mapped_output():
    # Thread 0's inline ring counts its steps per tile: with `specialize=off` the walk keeps mma.sync.
    _, text = _lowered(tuple(_instance("f32")), "sm_90a", "specialize=off")
    assert '"simt.wgmma_mma_async"' not in text and "tile.tma" not in text


def test_an_f16_accumulator_keeps_mma_sync():
    # `mma` rounds an f16 accumulator after every K tile (the emulator's semantics); an f32 sum kept across the
    # loop would not: the walk keeps mma.sync.
    text = (EXAMPLES / "persistent_gemm.rs").read_text()
    instance = ["f16", "64", "64", "64", "[2, 1]"]
    compiled = oxide.compile(text, "persistent_gemm.rs", chip="sm_90a", instances={"gemm_persistent": [instance]})
    assert "wgmma" not in compiled.ptx["sm_90a"] and "mma.sync" in compiled.ptx["sm_90a"]


def test_a_loop_after_the_store_keeps_the_walk_off_wgmma():
    # Anything after the store in the walk's body is not the pattern: the kernel keeps mma.sync.
    text = SOURCE.replace("c.store(convert_tile::<O>(acc), idx);",
                          "c.store(convert_tile::<O>(acc), idx);\n            let _z = row + col;")
    compiled = oxide.compile(text, "persistent_gemm_mixed.rs", chip="sm_90a",
                             instances={"gemm_persistent_mixed": [_instance("f32")]})
    assert "wgmma" not in compiled.ptx["sm_90a"]


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
@pytest.mark.parametrize("instance", [_instance("bf16", 128, 256, "[1, 1]", "bf16"),
                                      _instance("f32", 128, 128, "[2, 1]", "bf16")])
def test_mapped_ptx_assembles_for_sm90a(instance, tmp_path):
    compiled = oxide.compile(SOURCE, "persistent_gemm_mixed.rs", chip="sm_90a",
                             instances={"gemm_persistent_mixed": [instance]})
    ptx = compiled.ptx["sm_90a"]
    assert "cp.async.bulk.tensor.2d" in ptx and "wgmma.mma_async" in ptx
    path = tmp_path / "k.ptx"
    path.write_text(ptx)
    result = subprocess.run(["ptxas", "-arch=sm_90a", str(path), "-o", str(tmp_path / "k.cubin")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    assert "C7514" not in result.stderr  # no serialized wgmma
