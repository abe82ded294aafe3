"""Launch-time variants of the sm_90a tile GEMM (variants.py, docs/tile-hopper.md "Variants chosen at launch"):
the kernel is lowered twice, TMA + wgmma under its own name and mma.sync as a hidden sibling; the GPU binder
picks the first variant whose tensor maps encode for the bound tensors. Both entries run on the simt emulator
against numpy, the sibling also on tensors TMA cannot read.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from mlir import ir

import oxide
from oxide.backend.emulator import emit_program
from oxide.passes.pipeline import build_pass_manager
from oxide.runtime import tensor_map
from oxide.runtime.emulator import launch
from oxide.runtime.module import Module
from oxide.runtime.tensor_map import TensorMap
from oxide.runtime.tile import partition
from oxide.runtime.tile_marshal import TileBinder
from tests.unit.passes.conversion.tile_to_simt.harness import context, module_text, strided_view, view
from tests.unit.passes.conversion.tile_to_simt.test_mma_lowering import gemm
from tests.unit.passes.conversion.tile_to_simt.test_wgmma_gemm import _GpuArray

RNG = np.random.default_rng(1818)
EXAMPLES = Path(__file__).parents[5] / "examples" / "tile"
FALLBACK = "gemm$mma_sync"
KMAJOR = "gemm$kmajor_b"


def _lowered_kernels(chip: str) -> tuple[dict[str, ir.Operation], ir.Module]:
    module = ir.Module.parse(module_text(gemm(64, 64, 64, 4, "f16", "f32")))
    build_pass_manager(f"builtin.module(convert-tile-to-simt{{chip={chip}}})").run(module.operation)
    funcs = module.body.operations[0].regions[0].blocks[0].operations
    return {ir.StringAttr(f.attributes["sym_name"]).value: f.operation for f in funcs}, module


def test_sm90a_gemm_gets_an_mma_sync_sibling_and_records_its_variants():
    with context(), ir.Location.unknown():
        kernels, _ = _lowered_kernels("sm_90a")
        assert list(kernels) == ["gemm", KMAJOR, FALLBACK]
        primary, kmajor, sibling = (str(kernels[k]) for k in ("gemm", KMAJOR, FALLBACK))
        assert str(kernels["gemm"].attributes["tile.variants"]) == \
            '[{entry = "gemm", tma_params = array<i64: 1, 2, 0>}, {entry = "gemm$kmajor_b", tma_params = array<i64: 1, 2, 0>}, ' \
            '{entry = "gemm$mma_sync", tma_params = array<i64>}]'
        assert "transposed" in str(kernels[KMAJOR].attributes["tile.tma"])
    assert "wgmma" in primary and "nvvm.mma.sync" not in primary
    # N-major B through the transpose bit; the K-major entry reads B as wgmma reads A.
    assert "transpose_b = true" in primary and "transpose_b = false" in kmajor and "transpose_b = true" not in kmajor
    assert "nvvm.mma.sync" in sibling and "wgmma" not in sibling and "tensor_map" not in sibling
    assert "tile.tma" not in sibling and "tile.variants" not in sibling and "tile.variants" not in kmajor


@pytest.mark.parametrize("chip", ["sm_80", "sm_90"])
def test_chips_without_wgmma_get_one_entry(chip):
    with context(), ir.Location.unknown():
        kernels, _ = _lowered_kernels(chip)
    assert list(kernels) == ["gemm"]


@pytest.fixture(scope="module")
def sm90a_program() -> str:
    with context(), ir.Location.unknown():
        _, module = _lowered_kernels("sm_90a")
        return emit_program(module)


def _operands(m: int, n: int, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    a = RNG.standard_normal((m, k)).astype(np.float16)
    b = RNG.standard_normal((k, n)).astype(np.float16)
    return a, b, np.full((m, n), np.nan, dtype=np.float32)


def _check(c: np.ndarray, a: np.ndarray, b: np.ndarray) -> None:
    expected = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c, expected, rtol=1e-4, atol=1e-4 * np.sqrt(a.shape[1]))


@pytest.mark.parametrize("m,n,k", [(100, 72, 80), (70, 70, 70), (64, 33, 130)])
def test_the_mma_sync_sibling_runs_tensors_tma_cannot_read(sm90a_program, m, n, k):
    # K = 70 or N = 33 f16 elements are rows of 140 or 66 bytes: TMA cannot describe them, mma.sync reads them.
    a, b, c = _operands(m, n, k)
    launch(sm90a_program, FALLBACK, (-(-m // 64), -(-n // 64), 1), (128, 1, 1), [*view(c), *view(a), *view(b)])
    _check(c, a, b)


@pytest.mark.parametrize("m,n,k", [(100, 72, 80), (64, 64, 64), (130, 200, 264), (1, 8, 8)])
def test_the_kmajor_entry_runs_a_transposed_b(sm90a_program, m, n, k):
    # B = bt.T: the tensor map describes bt ([N, K], K innermost) in [BN, 64] boxes. Edge tiles on every axis.
    a, b, c = _operands(m, n, k)
    bt = np.ascontiguousarray(b.T)
    maps = [TensorMap(a, (64, 64), swizzle="128B"), TensorMap(bt, (64, 64), swizzle="128B"),
            TensorMap(c, (64, 32), swizzle="128B")]  # the output's, for the TMA-store epilogue
    b_view = strided_view(bt.reshape(-1), (k, n), (1, k))  # the [K, N] view: element strides (1, K)
    launch(sm90a_program, KMAJOR, (2, 1, 1), (256, 1, 1), [*view(c), *view(a), *b_view, *maps], 4 * 16384)
    _check(c, a, b)


def test_the_primary_entry_runs_with_tensor_maps(sm90a_program):
    a, b, c = _operands(100, 72, 80)
    maps = [TensorMap(a, (64, 64), swizzle="128B"), TensorMap(b, (64, 64), swizzle="128B"),
            TensorMap(c, (64, 32), swizzle="128B")]  # the output's, for the TMA-store epilogue
    # The primary entry is warp-specialized (a producer warpgroup: 256 threads) and persistent (any grid).
    launch(sm90a_program, "gemm", (2, 1, 1), (256, 1, 1), [*view(c), *view(a), *view(b), *maps], 4 * 16384)
    _check(c, a, b)


@pytest.fixture(scope="module")
def sm90a_gemm():
    source = (EXAMPLES / "gemm.rs").read_text()
    return oxide.compile(source, "gemm.rs", chip="sm_90a", instances={"gemm": [["64", "64", "64"]]})


def _binder(compiled) -> TileBinder:
    return TileBinder(compiled.artifact().kernels[0], gpu=True)


def _bind(compiled, a_shape, b_shape, a_address=0x200000):
    z = partition(_GpuArray(0x100000, (96, 80), "<f4"), (64, 64))
    return _binder(compiled).bind([z, _GpuArray(a_address, a_shape, "<u2"), _GpuArray(0x300000, b_shape, "<u2")],
                                  False)


def test_aligned_tensors_take_the_wgmma_variant(sm90a_gemm, monkeypatch):
    monkeypatch.setattr(tensor_map, "_encode", lambda m: bytes(128))
    bound = _bind(sm90a_gemm, (96, 72), (72, 80))
    assert bound.variant["entry"] == "gemm_64_64_64" and bound.variant["dynamic_shared"] == 4 * 16384
    assert len(bound.abi) == 3 * 5 + 3  # A, B and the output (the TMA-store epilogue)


CANNOT_DESCRIBE = [
    ((96, 70), (70, 80), 0x200000, [1]),   # K = 70: A's rows are 140 bytes, not a multiple of 16
    ((96, 72), (72, 76), 0x200000, [2]),   # N = 76: B's rows are 152 bytes
    ((96, 72), (72, 80), 0x200008, [1]),   # A's base is not 16-byte aligned
]


@pytest.mark.parametrize("a_shape,b_shape,a_address,staged", CANNOT_DESCRIBE)
def test_tensors_tma_cannot_describe_are_staged_for_the_wgmma_variant(sm90a_gemm, monkeypatch, a_shape, b_shape,
                                                                     a_address, staged):
    """Each such tensor is copied per launch into a buffer with 16-byte rows (runtime/staging.py); the tensor maps
    are encoded then, on the buffers, so the binding holds none yet."""
    monkeypatch.setattr(tensor_map, "_encode", lambda m: bytes(128))
    bound = _bind(sm90a_gemm, a_shape, b_shape, a_address)
    assert bound.variant["entry"] == "gemm_64_64_64" and [s.param for s in bound.staged] == staged
    assert len(bound.abi) == 3 * 5


@pytest.mark.parametrize("a_shape,b_shape,a_address,staged", CANNOT_DESCRIBE)
def test_with_staging_off_they_take_the_mma_sync_variant(sm90a_gemm, monkeypatch, a_shape, b_shape, a_address,
                                                         staged):
    monkeypatch.setenv("OXIDE_STAGE_OPERANDS", "0")
    monkeypatch.setattr(tensor_map, "_encode", lambda m: bytes(128))
    bound = _bind(sm90a_gemm, a_shape, b_shape, a_address)
    assert bound.variant == {"entry": "gemm_64_64_64$mma_sync", "tma": [], "dynamic_shared": 0, "warps": 4,
                             "threads": 128, "persistent": False}
    assert len(bound.abi) == 3 * 5 and not bound.staged  # no tensor maps: the sibling has the contract's ABI only


def test_the_sibling_is_not_a_kernel_of_the_module(sm90a_gemm):
    artifact = sm90a_gemm.artifact()
    assert [k.entry for k in artifact.kernels] == ["gemm_64_64_64"]
    assert ".entry gemm_64_64_64$mma_sync(" in artifact.ptx["sm_90a"]
    module = Module(artifact, "cpu")
    assert sorted(module.kernels) == ["gemm", "gemm_64_64_64"]


def _bf16_patterns(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """bf16 values as the runtime takes them (16-bit patterns), and the values they hold."""
    patterns = (x.astype(np.float32).view(np.uint32) >> 16).astype(np.uint16)
    return patterns, (patterns.astype(np.uint32) << 16).view(np.float32)


def test_the_emulator_runs_the_kernel_the_user_calls_on_any_shape(sm90a_gemm):
    module = Module(sm90a_gemm.artifact(), "cpu")
    (a, a_values), (b, b_values) = (_bf16_patterns(RNG.standard_normal(s)) for s in ((70, 70), (70, 66)))
    c = np.full((70, 66), np.nan, dtype=np.float32)
    module.gemm(partition(c, (64, 64)), a, b)
    _check(c, a_values, b_values)


def _strided(address: int, shape: tuple[int, int], strides: tuple[int, int]) -> _GpuArray:
    array = _GpuArray(address, shape, "<u2")
    array.__cuda_array_interface__["strides"] = tuple(2 * s for s in strides)
    return array


@pytest.mark.parametrize("b_strides, entry", [
    ((80, 1), "gemm_64_64_64"),                       # row-major [K, N]: N-major boxes, the transpose bit
    ((1, 72), "gemm_64_64_64$kmajor_b"),              # a transposed [N, K] tensor: K-major boxes
    ((1, 70), "gemm_64_64_64$mma_sync"),              # transposed, rows of 144 bytes 140 apart: not even stageable
    ((160, 2), "gemm_64_64_64$mma_sync"),             # every other column: neither dimension is contiguous
])
def test_b_majorness_picks_the_variant(sm90a_gemm, monkeypatch, b_strides, entry):
    encoded = []
    monkeypatch.setattr(tensor_map, "_encode", lambda m: encoded.append((m.shape, m.strides, m.box)) or bytes(128))
    z = partition(_GpuArray(0x100000, (96, 80), "<f4"), (64, 64))
    bound = _binder(sm90a_gemm).bind([z, _GpuArray(0x200000, (96, 72), "<u2"),
                                      _strided(0x300000, (72, 80), b_strides)], False)
    assert bound.variant["entry"] == entry
    assert bound.abi[11:15] == [72, 80, *b_strides]  # B's extents and strides reach the kernel as they are
    if entry.endswith("$kmajor_b"):  # the map describes B's memory as [N, K] (before it: A's; after: the output's)
        assert encoded[-2] == ((80, 72), (144, 2), (64, 64))


def test_the_variants_are_recorded_in_the_order_they_are_tried(sm90a_gemm):
    variants = sm90a_gemm.artifact().kernels[0].tile["variants"]
    assert [v["entry"] for v in variants] == ["gemm_64_64_64", "gemm_64_64_64$kmajor_b", "gemm_64_64_64$mma_sync"]
    assert variants[1]["tma"][1] == {"param": 2, "box": [64, 64], "swizzle": "128B", "transposed": True}
    assert ".entry gemm_64_64_64$kmajor_b(" in sm90a_gemm.artifact().ptx["sm_90a"]


def test_relaunches_on_the_same_tensors_reuse_their_tensor_maps(sm90a_gemm, monkeypatch):
    encoded: list = []
    monkeypatch.setattr(tensor_map, "_encode", lambda m: encoded.append(m.array.__cuda_array_interface__["data"][0]) or bytes(128))
    binder = _binder(sm90a_gemm)
    z = partition(_GpuArray(0x100000, (96, 80), "<f4"), (64, 64))

    def bind(a_address):
        return binder.bind([z, _GpuArray(a_address, (96, 72), "<u2"), _GpuArray(0x300000, (72, 80), "<u2")], False)

    first = bind(0x200000)
    assert len(encoded) == 3 and bind(0x200000).abi == first.abi and len(encoded) == 3
    bind(0x400000)  # another A: its map alone is encoded again
    assert encoded[3:] == [0x400000]
