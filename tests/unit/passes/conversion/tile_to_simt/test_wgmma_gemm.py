"""The sm_90a GEMM path of convert-tile-to-simt (docs/tile-hopper.md): the K loop of the GEMM tile kernel becomes
TMA copies into 128-byte-swizzled shared memory, an mbarrier ring and wgmma; the same kernel keeps mma.sync on
other chips and for tiles the path does not take.

The lowered kernels run on the simt emulator (whose TMA, mbarrier and wgmma rules follow the PTX ISA) with
tensor maps of the numpy operands, against numpy, including shapes that are not multiples of the tile (TMA's
zero fill and the masked store) and K loops longer than the ring (refilled stages).
"""

from __future__ import annotations

import dataclasses
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from mlir import ir

import oxide
from oxide.backend import compile_to_ptx
from oxide.backend.emulator import emit_program
from oxide.ir.declare import int_value
from oxide.passes.pipeline import build_pass_manager
from oxide.runtime.emulator import launch
from oxide.runtime import tensor_map
from oxide.runtime.errors import KernelArgumentError
from oxide.runtime.gpu import ParameterBlock
from oxide.runtime.tensor_map import TensorMap
from oxide.runtime.tile import partition
from oxide.runtime.tile_marshal import TileBinder
from oxide.target import Target
from tests.unit.passes.conversion.tile_to_simt.harness import context, module_text, view
from tests.unit.passes.conversion.tile_to_simt.test_mma_lowering import gemm

RNG = np.random.default_rng(18)
EXAMPLES = Path(__file__).parents[5] / "examples" / "tile"


def _lowered(text: str, chip: str, knobs: str = "") -> ir.Module:
    module = ir.Module.parse(text)
    build_pass_manager(f"builtin.module(convert-tile-to-simt{{chip={chip} {knobs}}})").run(module.operation)
    return module


# The three ways the pipeline runs: thread 0 fills the stages between its MMAs; a producer warpgroup fills them
# (one output tile per block); and a persistent producer/consumer kernel walking the tiles.
INLINE, SPECIALIZED, PERSISTENT = "specialize=off", "specialize=on persistent=off", "specialize=on persistent=on"


@pytest.mark.parametrize("knobs", [INLINE, SPECIALIZED, PERSISTENT])
@pytest.mark.parametrize("m,n,k,tile,warps", [
    (64, 64, 64, (64, 64), 4),        # one tile, one K step
    (100, 72, 80, (64, 64), 4),       # edges on every dimension: TMA zero fill, masked store
    (130, 136, 328, (64, 64), 4),     # 3 x 3 tiles, 6 K tiles through a ring of 4 stages (refills)
    (64, 64, 0, (64, 64), 4),         # no K tile: the accumulator stays zero
    (136, 200, 200, (128, 128), 4),   # one warpgroup, two 64-row blocks; two B boxes per stage
    (136, 72, 392, (128, 64), 8),     # two warpgroups
])
def test_emulated_wgmma_gemm_matches_numpy(m, n, k, tile, warps, knobs):
    bm, bn = tile
    with context(), ir.Location.unknown():
        module = _lowered(module_text(gemm(bm, bn, 64, warps, "f16", "f32")), "sm_90a", knobs)
        ring, threads = _dynamic_shared(module), _threads(module)
        program = emit_program(module)
    assert threads == 32 * warps + (0 if knobs == INLINE else 128)
    a = RNG.standard_normal((m, k)).astype(np.float16)
    b = RNG.standard_normal((k, n)).astype(np.float16)
    c = np.full((m, n), np.nan, dtype=np.float32)  # every element is written
    # A tensor map cannot describe an empty tensor: with no K tile, stand-ins that no copy reads.
    a_map, b_map = (a, b) if k else (np.zeros((bm, 64), np.float16), np.zeros((64, bn), np.float16))
    maps = [TensorMap(a_map, (bm, 64), swizzle="128B"), TensorMap(b_map, (64, 64), swizzle="128B")]
    if _map_count(module) == 3:  # the TMA-store epilogue's map of the output: boxes of BM rows of 32 f32
        maps.append(TensorMap(c, (bm, 32), swizzle="128B"))
    grid = (-(-m // bm), -(-n // bn), 1)
    if knobs == PERSISTENT:
        grid = (2, 1, 1)  # fewer blocks than tiles: each walks several, the ring's phases carry over
    launch(program, "gemm", grid, (threads, 1, 1), [*view(c), *view(a), *view(b), *maps], ring)
    expected = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c.astype(np.float64), expected, rtol=1e-4, atol=1e-4 * np.sqrt(max(k, 1)))


def _kernel(module: ir.Module) -> ir.Operation:
    return module.body.operations[0].regions[0].blocks[0].operations[0]


def _dynamic_shared(module: ir.Module) -> int:
    return int_value(_kernel(module).attributes["tile.dynamic_shared"])


def _map_count(module: ir.Module) -> int:
    return str(_kernel(module).attributes["tile.tma"]).count("param")


def _threads(module: ir.Module) -> int:
    return int(str(_kernel(module).attributes["simt.contract"]).split("array<i32: ")[1].split(",")[0])


def _entries(module: ir.Module) -> dict[str, str]:
    """The lowered kernels' texts by name (the primary entry and its mma.sync sibling)."""
    funcs = module.body.operations[0].regions[0].blocks[0].operations
    return {ir.StringAttr(f.attributes["sym_name"]).value: str(f) for f in funcs}


def test_sm90a_kernel_takes_tensor_maps_and_runs_wgmma():
    with context(), ir.Location.unknown():
        text = _entries(_lowered(module_text(gemm(64, 64, 64, 4, "bf16", "f32")), "sm_90a"))["gemm"]
    signature = text.split("kernel attributes")[0]
    # A, B, and the output's map for the TMA-store epilogue (boxes of 64 rows of 32 f32: one 128-byte row).
    assert signature.count("!simt.tensor_map") == 3
    assert 'tile.tma = [{box = array<i64: 64, 64>, param = 1 : i64, swizzle = "128B"}, ' \
           '{box = array<i64: 64, 64>, param = 2 : i64, swizzle = "128B"}, ' \
           '{box = array<i64: 64, 32>, param = 0 : i64, swizzle = "128B"}]' in text
    assert text.count('"simt.tma_store"') == 2  # two 32-column slices of the 64-column tile
    assert text.count('"simt.wgmma_mma_async"') == 4  # one 64-row block, four k16 steps of the 64-deep stage
    assert "transpose_b = true" in text and "transpose_a = false" in text
    assert '"simt.tma_load"' in text and '"simt.mbarrier_wait_parity"' in text
    assert "nvvm.mma.sync" not in text and "ldmatrix" not in text


@pytest.mark.parametrize("chip", ["sm_80", "sm_90"])
def test_other_chips_keep_mma_sync(chip):
    with context(), ir.Location.unknown():
        text = str(_lowered(module_text(gemm(64, 64, 64, 4, "bf16", "f32")), chip))
    assert "nvvm.mma.sync" in text and "ldmatrix" in text
    assert "tensor_map" not in text and "wgmma" not in text and "tile.tma" not in text


@pytest.mark.parametrize("tile,warps,ein,eacc", [
    ((64, 64, 32), 4, "bf16", "f32"),    # BK is not one 128-byte swizzle row
    ((64, 32, 64), 4, "bf16", "f32"),    # BN is not a whole 128-byte B box
    ((64, 64, 64), 4, "f16", "f16"),     # an f16 accumulator (a later slice)
    ((64, 64, 64), 2, "f16", "f32"),     # not whole warpgroups
])
def test_what_the_wgmma_path_does_not_take_keeps_mma_sync(tile, warps, ein, eacc):
    with context(), ir.Location.unknown():
        text = str(_lowered(module_text(gemm(*tile, warps, ein, eacc)), "sm_90a"))
    assert "nvvm.mma.sync" in text and "wgmma" not in text and "tensor_map" not in text


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
@pytest.mark.parametrize("elem", ["bf16", "f16"])
def test_ptxas_assembles_the_wgmma_gemm(elem, tmp_path):
    with context(), ir.Location.unknown():
        module = _lowered(module_text(gemm(64, 64, 64, 4, elem, "f32")), "sm_90a")
        ptx = "\n".join(compile_to_ptx(module, Target("sm_90a")).values())
    assert "wgmma.mma_async.sync.aligned.m64n64k16.f32" in ptx and "cp.async.bulk.tensor.2d" in ptx
    path = tmp_path / "gemm.ptx"
    path.write_text(ptx)
    result = subprocess.run(["ptxas", "-arch=sm_90a", str(path), "-o", str(tmp_path / "gemm.cubin")],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


class _GpuArray:
    """A GPU array as the runtime sees one (`__cuda_array_interface__`), at a made-up address: binding reads only
    its description."""

    def __init__(self, address: int, shape: tuple[int, ...], typestr: str):
        self.shape, self.dtype = shape, np.dtype(typestr)
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr, "data": (address, False),
                                         "strides": None, "version": 3}


@pytest.fixture(scope="module")
def sm90a_gemm():
    # 64x64x64 tiles take the wgmma path; 64x64x32 tiles (BK is not one swizzle row) keep mma.sync.
    source = (EXAMPLES / "gemm.rs").read_text()
    return oxide.compile(source, "gemm.rs", chip="sm_90a", instances={"gemm": [["64", "64", "64"], ["64", "64", "32"]]})


def _spec(compiled, entry):
    return next(s for s in compiled.artifact().kernels if s.entry == entry)


def test_the_gemm_example_for_sm90a_records_its_tensor_maps(sm90a_gemm):
    assert sm90a_gemm.tile["gemm_64_64_64"]["tma"] == [{"param": 1, "box": [64, 64], "swizzle": "128B"},
                                                       {"param": 2, "box": [64, 64], "swizzle": "128B"},
                                                       {"param": 0, "box": [64, 32], "swizzle": "128B"}]
    assert sm90a_gemm.tile["gemm_64_64_64"]["dynamic_shared"] == 4 * 16384  # four stages of 16 KiB
    assert sm90a_gemm.tile["gemm_64_64_32"] == {"warps": 4, "stores_whole": [0]}
    block = ParameterBlock(_spec(sm90a_gemm, "gemm_64_64_64"))
    assert block.formats[-3:] == ["128s"] * 3 and len(block.formats) == 3 * 5 + 3


def test_the_gpu_binder_appends_the_tensor_maps(sm90a_gemm, monkeypatch):
    encoded = []
    monkeypatch.setattr(tensor_map, "_encode", lambda m: encoded.append((m.shape, m.box, m.swizzle, m.dtype))
                        or bytes(128))
    binder = TileBinder(_spec(sm90a_gemm, "gemm_64_64_64"), gpu=True)
    z = partition(_GpuArray(0x100000, (96, 80), "<f4"), (64, 64))
    bound = binder.bind([z, _GpuArray(0x200000, (96, 72), "<u2"), _GpuArray(0x300000, (72, 80), "<u2")], False)
    assert len(bound.abi) == 3 * 5 + 3 and bound.abi[-3:] == [bytes(128)] * 3
    assert encoded == [((96, 72), (64, 64), "128B", "bfloat16"), ((72, 80), (64, 64), "128B", "bfloat16"),
                       ((96, 80), (64, 32), "128B", "float32")]


def test_without_variants_a_tensor_tma_cannot_describe_is_refused(sm90a_gemm, monkeypatch):
    z = partition(_GpuArray(0x100000, (96, 80), "<f4"), (64, 64))
    # K = 70: rows of 140 bytes are not a multiple of 16, which TMA needs.
    spec = _spec(sm90a_gemm, "gemm_64_64_64")
    # An artifact from before launch-time variants: no mma.sync sibling to fall back to (and staging off).
    monkeypatch.setenv("OXIDE_STAGE_OPERANDS", "0")
    old = dataclasses.replace(spec, tile={k: v for k, v in spec.tile.items() if k != "variants"})
    binder = TileBinder(old, gpu=True)
    with pytest.raises(KernelArgumentError, match="reads the tensor through TMA"):
        binder.bind([z, _GpuArray(0x200000, (96, 70), "<u2"), _GpuArray(0x300000, (70, 80), "<u2")], False)


def _transposed_epilogue(tile: int) -> str:
    """The GEMM kernel whose epilogue stores each accumulator tile transposed (a layout conversion through
    shared memory, so the consumer warps synchronise after the loop)."""
    acc, out = f"tensor<{tile}x{tile}xf32>", f"!tile.view_mut<f32, array<i64: {tile}, {tile}>>"
    return gemm(tile, tile, 64, 4, "f16", "f32").replace(
        f'"tile.store_own"(%c, %acc) : ({out}, {acc}) -> ()',
        f'%t = "tile.permute"(%acc) {{perm = array<i64: 1, 0>}} : ({acc}) -> {acc}\n'
        f'      "tile.store_own"(%c, %t) : ({out}, {acc}) -> ()')


def test_the_consumer_epilogue_synchronises_only_the_consumers():
    m, n, k = 100, 72, 200
    with context(), ir.Location.unknown():
        module = _lowered(module_text(_transposed_epilogue(64)), "sm_90a", PERSISTENT)
        text = str(_kernel(module))  # the primary entry (its mma.sync sibling follows it)
        ring, threads = _dynamic_shared(module), _threads(module)
        program = emit_program(module)
    # The producer warpgroup is not at the epilogue's barriers: they are named barriers of the consumers.
    assert '"simt.named_barrier"() {id = 1 : i64, threads = 128 : i64}' in text
    assert text.count('"simt.sync_threads"') == 1  # the ring's initialisation, before the block splits
    a = RNG.standard_normal((m, k)).astype(np.float16)
    b = RNG.standard_normal((k, n)).astype(np.float16)
    c = np.full((m, n), np.nan, dtype=np.float32)
    maps = [TensorMap(a, (64, 64), swizzle="128B"), TensorMap(b, (64, 64), swizzle="128B")]
    launch(program, "gemm", (2, 1, 1), (threads, 1, 1), [*view(c), *view(a), *view(b), *maps], ring)
    padded = np.zeros((128, 128))
    padded[:m, :n] = a.astype(np.float64) @ b.astype(np.float64)
    for i in range(2):
        for j in range(2):
            block = padded[64 * i:64 * (i + 1), 64 * j:64 * (j + 1)]
            block[...] = block.T.copy()
    np.testing.assert_allclose(c, padded[:m, :n], rtol=1e-4, atol=1e-3)


def test_the_plan_raises_the_warps_until_the_accumulator_fits():
    # 128 x 256 f32 is 256 registers per thread for one warpgroup: two consumer warpgroups take it.
    with context(), ir.Location.unknown():
        module = _lowered(module_text(gemm(128, 256, 64, 4, "f16", "f32")), "sm_90a")
        text = str(module)
    assert "tile.warps = 8 : i32" in text and _threads(module) == 8 * 32 + 128
    # 384 threads start with 168 registers each; setmaxnreg moves the producer's 88 to the consumers.
    assert 'action = "dec", regs = 40' in text and 'action = "inc", regs = 232' in text


def test_pinned_warps_the_tile_cannot_use_keep_mma_sync():
    # One 64-row block cannot be split among four warpgroups.
    with context(), ir.Location.unknown():
        text = str(_lowered(module_text(gemm(64, 64, 64, 4, "f16", "f32")), "sm_90a", "warps=16"))
    assert "wgmma" not in text and "nvvm.mma.sync" in text


def test_a_kernel_that_writes_before_the_loop_is_not_specialized():
    store = '"tile.store_own"(%c, %zero) : (!tile.view_mut<f32, array<i64: 64, 64>>, tensor<64x64xf32>) -> ()\n'
    text = gemm(64, 64, 64, 4, "f16", "f32").replace("%c0 = arith.constant 0 : i32", store + "      %c0 = arith.constant 0 : i32")
    with context(), ir.Location.unknown():
        module = _lowered(module_text(text), "sm_90a")
    # The producer warpgroup would run that store in a layout made for the consumer warps.
    assert _threads(module) == 128 and "setmaxnreg" not in str(module)
