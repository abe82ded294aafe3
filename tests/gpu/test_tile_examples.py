"""The tile examples (examples/tile/*.rs), compiled ahead of time into the artifacts in tests/fixtures/tile/,
run on the GPU through oxide.runtime and are compared with torch at sizes with edge tiles, and with the
emulator running the same artifact at a small size."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import oxide.tile
from oxide.runtime.module import load

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "tile"
RNG = np.random.default_rng(8)


@pytest.fixture(scope="module")
def torch(cuda):
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available():
        pytest.skip("torch has no CUDA")
    return torch


def _gpu(stem: str):
    return load(FIXTURES / f"{stem}.oxide.json", target="gpu")


def _cpu(stem: str):
    return load(FIXTURES / f"{stem}.oxide.json", target="cpu")


def _bf16(rng: np.random.Generator, shape: tuple[int, int]) -> np.ndarray:
    """Random bf16 bit patterns (uint16)."""
    return (rng.standard_normal(shape, dtype=np.float32).view(np.uint32) >> 16).astype(np.uint16)


@pytest.mark.parametrize("n", [1024, 1_000_003, 1 << 24])
def test_vecadd_matches_torch(torch, n):
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    z = torch.zeros(n, device="cuda")
    _gpu("vecadd").add(oxide.tile.partition(z, (1024,)), x, y)
    torch.cuda.synchronize()
    assert torch.equal(z, x + y)


# The row kernels' instances: 4 x 1024 tiles, and 1 x 4096 and 4 x 4096 (the latter lowered with more warps, so
# that its tiles fit in registers: register_budget.py).
ROW_TILES = [((4, 1024), 4, 1024), ((4, 1024), 4099, 1000), ((4, 1024), 8192, 1024), ((1, 4096), 16384, 4096),
             ((1, 4096), 3, 2500), ((4, 4096), 16384, 4096), ((4, 4096), 4099, 3001)]


@pytest.mark.parametrize("tile, rows, cols", ROW_TILES)
def test_softmax_matches_torch(torch, tile, rows, cols):
    x = torch.randn(rows, cols, device="cuda") * 4
    y = torch.zeros_like(x)
    _gpu("softmax").softmax(oxide.tile.partition(y, tile), x)
    torch.cuda.synchronize()
    torch.testing.assert_close(y, torch.softmax(x, dim=1), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("tile, rows, cols", [((4, 1024), 1031, 777), *ROW_TILES])
def test_layernorm_matches_torch(torch, tile, rows, cols):
    x = torch.randn(rows, cols, device="cuda") * 3 + 1
    w, b = torch.randn(cols, device="cuda"), torch.randn(cols, device="cuda")
    y = torch.zeros_like(x)
    _gpu("layernorm").layernorm(oxide.tile.partition(y, tile), x, w, b, 1e-5)
    torch.cuda.synchronize()
    expected = torch.nn.functional.layer_norm(x, (cols,), w, b, 1e-5)
    torch.testing.assert_close(y, expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("tile, rows, cols", [((4, 1024), 1031, 777), *ROW_TILES])
def test_rmsnorm_matches_torch(torch, tile, rows, cols):
    x = torch.randn(rows, cols, device="cuda") * 2
    w = torch.randn(cols, device="cuda")
    y = torch.zeros_like(x)
    _gpu("rmsnorm").rmsnorm(oxide.tile.partition(y, tile), x, w, 1e-6)
    torch.cuda.synchronize()
    expected = x * torch.rsqrt(x.pow(2).mean(dim=1, keepdim=True) + 1e-6) * w
    torch.testing.assert_close(y, expected, rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("m, n, k", [(128, 128, 32), (300, 260, 100), (1024, 1024, 1024), (4096, 4096, 4096)])
def test_gemm_matches_torch(torch, m, n, k):
    a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
    b = torch.randn(k, n, device="cuda").to(torch.bfloat16)
    c = torch.zeros(m, n, device="cuda")
    _gpu("gemm").gemm(oxide.tile.partition(c, (128, 128)), a, b)
    torch.cuda.synchronize()
    expected = a.double() @ b.double()
    torch.testing.assert_close(c.double(), expected, rtol=1e-3, atol=1e-3 * k ** 0.5)


@pytest.mark.parametrize("m, n, k", [(300, 37, 100), (129, 260, 72), (100, 72, 8), (64, 128, 1000)])
def test_pipelined_gemm_handles_odd_shapes_and_views(torch, m, n, k):
    # The sm_90 artifact's K loop is the cp.async pipeline (docs/tile-mma.md): rows of K = 100 or N = 37 bf16
    # are not 16-byte aligned (element copies), K = 8 is shorter than one tile, K = 1000 runs 16 tiles through
    # the ring. A transposed B (strides (1, K)) and a column slice of A reach the kernel with their strides
    # (innermost stride not 1: element copies).
    a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
    b = torch.randn(k, n, device="cuda").to(torch.bfloat16)
    c = torch.full((m, n), float("nan"), device="cuda")
    _gpu("gemm").gemm(oxide.tile.partition(c, (128, 128)), a, b)
    torch.cuda.synchronize()
    torch.testing.assert_close(c.double(), a.double() @ b.double(), rtol=1e-3, atol=1e-3 * k ** 0.5)
    bt = b.t().contiguous().t()
    wide = torch.randn(m, k + 8, device="cuda").to(torch.bfloat16)
    c.fill_(float("nan"))
    _gpu("gemm").gemm(oxide.tile.partition(c, (128, 128)), wide[:, 3:3 + k], bt)
    torch.cuda.synchronize()
    torch.testing.assert_close(c.double(), wide[:, 3:3 + k].double() @ bt.double(), rtol=1e-3, atol=1e-3 * k ** 0.5)


@pytest.fixture(scope="module")
def hopper(torch):
    if torch.cuda.get_device_capability() != (9, 0):
        pytest.skip("the sm_90a artifact runs on sm_90 GPUs (H100, H200) only")
    return load(FIXTURES.parent / "tile_sm90a" / "gemm.oxide.json", target="gpu")


@pytest.mark.parametrize("m, n, k", [(128, 128, 64), (300, 264, 104), (1024, 1024, 1024), (4096, 4096, 4096),
                                     (4095, 4096, 4096), (8192, 8192, 512), (16384, 128, 4096)])
def test_sm90a_gemm_matches_torch(torch, hopper, m, n, k):
    # The sm_90a path (TMA, mbarrier ring, wgmma; producer warpgroup, persistent over the tiles); edge tiles in
    # M, N and K (TMA's zero fill, masked stores).
    a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
    b = torch.randn(k, n, device="cuda").to(torch.bfloat16)
    c = torch.full((m, n), float("nan"), device="cuda")
    hopper.gemm_128_256_64(oxide.tile.partition(c, (128, 256)), a, b)
    torch.cuda.synchronize()
    expected = a.double() @ b.double()
    torch.testing.assert_close(c.double(), expected, rtol=1e-3, atol=1e-3 * k ** 0.5)


@pytest.mark.parametrize("m, n, k", [(128, 256, 64), (300, 264, 104), (4096, 4096, 4096), (8192, 8192, 512),
                                     (16384, 128, 4096)])
def test_sm90a_gemm_reads_a_transposed_b_kmajor(torch, hopper, m, n, k):
    # B = bt.t() (strides (1, K), as torch._scaled_mm takes B): the K-major B entry (`$kmajor_b`), its tensor map
    # describing bt; edge tiles in M, N and K.
    a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
    bt = torch.randn(n, k, device="cuda").to(torch.bfloat16)
    c = torch.full((m, n), float("nan"), device="cuda")
    hopper.gemm_128_256_64(oxide.tile.partition(c, (128, 256)), a, bt.t())
    torch.cuda.synchronize()
    torch.testing.assert_close(c.double(), a.double() @ bt.t().double(), rtol=1e-3, atol=1e-3 * k ** 0.5)


@pytest.mark.parametrize("m, n, k", [(300, 256, 100), (300, 100, 256), (129, 70, 70)])
def test_sm90a_gemm_falls_back_for_rows_tma_cannot_read(torch, hopper, m, n, k):
    # Rows of K or N bf16 elements that are not a multiple of 16 bytes: the launch takes the mma.sync sibling
    # entry (docs/tile-hopper.md, "Variants chosen at launch").
    a = torch.randn(m, k, device="cuda").to(torch.bfloat16)
    b = torch.randn(k, n, device="cuda").to(torch.bfloat16)
    c = torch.full((m, n), float("nan"), device="cuda")
    hopper.gemm_128_128_64(oxide.tile.partition(c, (128, 128)), a, b)
    torch.cuda.synchronize()
    torch.testing.assert_close(c.double(), a.double() @ b.double(), rtol=1e-3, atol=1e-3 * k ** 0.5)


def test_sm90a_gemm_without_a_sibling_stages_rows_tma_cannot_read(torch, hopper, monkeypatch):
    # 128 x 256 x 64 tiles are beyond the mma.sync path's staging: no sibling entry. A's rows are copied into
    # padded ones for the TMA entry (runtime/staging.py); with that off, a typed refusal.
    from oxide.runtime.errors import KernelArgumentError

    a = torch.randn(300, 100, device="cuda").to(torch.bfloat16)  # rows of 200 bytes: not a multiple of 16
    b = torch.randn(100, 256, device="cuda").to(torch.bfloat16)
    c = torch.zeros(300, 256, device="cuda")
    hopper.gemm_128_256_64(oxide.tile.partition(c, (128, 256)), a, b)
    torch.cuda.synchronize()
    torch.testing.assert_close(c.double(), a.double() @ b.double(), rtol=1e-3, atol=1e-3 * 100 ** 0.5)
    monkeypatch.setenv("OXIDE_STAGE_OPERANDS", "0")
    with pytest.raises(KernelArgumentError, match="through TMA"):
        hopper.gemm_128_256_64(oxide.tile.partition(c, (128, 256)), a, b.clone())  # a new binding


# gemm_precisions.rs instances (tests/fixtures/sources.py): input, output, torch dtypes, the relative tolerance
# of one output element (one rounding of the f32 accumulator to the output type; tf32 inputs lose 13 bits).
PRECISIONS = [("bf16", "bf16", "bfloat16", "bfloat16", 2 ** -7, 64), ("f16", "f16", "float16", "float16", 2 ** -9, 64),
              ("f16", "f32", "float16", "float32", 1e-3, 64), ("tf32", "f32", "float32", "float32", 5e-3, 32)]


@pytest.mark.parametrize("chip", ["sm_80", "sm_90", "sm_90a"])
@pytest.mark.parametrize("ein, eout, tin, tout, rtol, bk", PRECISIONS, ids=lambda p: str(p))
@pytest.mark.parametrize("m, n, k", [(128, 128, 64), (300, 264, 104), (4096, 4096, 4096), (4095, 4097, 4096),
                                     (300, 260, 100)])
@pytest.mark.parametrize("b_layout", ["row", "transposed"])
def test_gemm_precisions_match_torch(torch, chip, ein, eout, tin, tout, rtol, bk, m, n, k, b_layout):
    # sm_80: mma.sync fed by the cp.async pipeline (the Ampere path; its PTX runs here JIT-compiled forward).
    # sm_90: mma.sync everywhere. sm_90a: for 16-bit inputs wgmma with B N-major (row-major B) or K-major (a
    # transposed B, strides (1, K)); tf32 wgmma with a K-major B only; the mma.sync sibling for rows TMA cannot
    # read (N = 4097 or 260, K = 100) and for tf32 with a row-major B (docs/tile-hopper.md, "Precisions").
    if chip == "sm_90a" and torch.cuda.get_device_capability() != (9, 0):
        pytest.skip("the sm_90a artifact runs on sm_90 GPUs (H100, H200) only")
    folder = {"sm_80": FIXTURES.parent / "tile_sm80", "sm_90": FIXTURES, "sm_90a": FIXTURES.parent / "tile_sm90a"}
    module = load(folder[chip] / "gemm_precisions.oxide.json", target="gpu")
    a = torch.randn(m, k, device="cuda").to(getattr(torch, tin))
    if b_layout == "row":
        b = torch.randn(k, n, device="cuda").to(getattr(torch, tin))
    else:
        b = torch.randn(n, k, device="cuda").to(getattr(torch, tin)).t()
    c = torch.full((m, n), float("nan"), device="cuda", dtype=getattr(torch, tout))
    getattr(module, f"gemm_{ein}_{eout}_128_128_{bk}")(oxide.tile.partition(c, (128, 128)), a, b)
    torch.cuda.synchronize()
    torch.testing.assert_close(c.double(), a.double() @ b.double(), rtol=rtol, atol=rtol * k ** 0.5)


@pytest.mark.parametrize("n, bins", [(1000, 64), (1 << 22, 256)])
def test_histogram_atomics_match_numpy(torch, n, bins):
    x = torch.randint(0, bins, (n,), device="cuda", dtype=torch.int32)
    counts = torch.zeros(bins, device="cuda", dtype=torch.int32)
    _gpu("histogram").histogram[(n + 255) // 256](counts, x, n)
    torch.cuda.synchronize()
    assert torch.equal(counts, torch.bincount(x, minlength=bins).to(torch.int32))


def test_prepared_launch_on_a_stream(torch):
    from cuda.bindings import driver

    x, y = torch.randn(5000, device="cuda"), torch.randn(5000, device="cuda")
    z = torch.zeros(5000, device="cuda")
    stream = driver.CUstream(torch.cuda.current_stream().cuda_stream)
    launch = _gpu("vecadd").add.prepare(oxide.tile.partition(z, (1024,)), x, y, stream=stream)
    launch()
    torch.cuda.synchronize()
    assert torch.equal(z, x + y)
    x.add_(1.0)
    launch()
    torch.cuda.synchronize()
    assert torch.equal(z, x + y)
    with pytest.raises(Exception, match="host"):
        _gpu("vecadd").add.prepare(oxide.tile.partition(np.zeros(10, np.float32), (1024,)),
                                   np.zeros(10, np.float32), np.zeros(10, np.float32))


def test_gpu_equals_emulator_on_small_inputs(cuda):
    """Each example on the GPU and on the emulator, from the same artifact and inputs."""
    x, y = RNG.standard_normal(3000).astype(np.float32), RNG.standard_normal(3000).astype(np.float32)
    rows = RNG.standard_normal((9, 700)).astype(np.float32)
    w, b = RNG.standard_normal(700).astype(np.float32), RNG.standard_normal(700).astype(np.float32)
    ga, gb = _bf16(RNG, (130, 70)), _bf16(RNG, (70, 140))
    runs = {
        "vecadd": lambda mod, out: mod.add(oxide.tile.partition(out, (1024,)), x, y),
        "softmax": lambda mod, out: mod.softmax(oxide.tile.partition(out, (4, 1024)), rows),
        "layernorm": lambda mod, out: mod.layernorm(oxide.tile.partition(out, (4, 1024)), rows, w, b, 1e-5),
        "rmsnorm": lambda mod, out: mod.rmsnorm(oxide.tile.partition(out, (4, 1024)), rows, w, 1e-6),
        "gemm": lambda mod, out: mod.gemm(oxide.tile.partition(out, (128, 128)), ga, gb),
    }
    shapes = {"vecadd": (3000,), "softmax": rows.shape, "layernorm": rows.shape, "rmsnorm": rows.shape,
              "gemm": (130, 140)}
    for stem, run in runs.items():
        got = {}
        for label, mod in (("gpu", _gpu(stem)), ("cpu", _cpu(stem))):
            out = np.full(shapes[stem], 5.0, np.float32)
            run(mod, out)
            got[label] = out
        # Reductions sum in a different order on the GPU (shuffle trees) than numpy on the emulator.
        np.testing.assert_allclose(got["gpu"], got["cpu"], rtol=2e-5, atol=2e-5, err_msg=stem)


@pytest.mark.parametrize("stem", ["vecadd", "softmax", "layernorm", "rmsnorm", "gemm", "histogram"])
def test_example_program_passes_on_the_gpu(cuda, stem):
    """examples/tile/<stem>.py, as a user runs it (through the artifact cache the GPU run carries)."""
    result = subprocess.run([sys.executable, str(ROOT / "examples" / "tile" / f"{stem}.py")], capture_output=True,
                            text=True, timeout=300)
    assert "PASSED" in result.stdout and "(gpu)" in result.stdout, result.stdout + result.stderr


# gemm_fp8.rs (tests/fixtures/sources.py): sm_90 runs mma.sync (each loaded fp8 tile converted to f16), sm_90a
# wgmma with a transposed B (K-major) and the mma.sync sibling (64 x 64 x 128 only) for a row-major B.
FP8_INSTANCES = {"sm_90": ["128_128_32"], "sm_90a": ["128_128_128", "128_256_128", "64_64_128"]}


@pytest.mark.parametrize("chip, tile", [(c, t) for c, tiles in FP8_INSTANCES.items() for t in tiles])
@pytest.mark.parametrize("elem, tdtype", [("f8e4m3fn", "float8_e4m3fn"), ("f8e5m2", "float8_e5m2")])
@pytest.mark.parametrize("m, n, k", [(128, 128, 128), (300, 264, 160), (2048, 2048, 4096), (4095, 4112, 4096)])
@pytest.mark.parametrize("b_layout", ["row", "transposed"])
def test_gemm_fp8_matches_torch(torch, chip, tile, elem, tdtype, m, n, k, b_layout):
    if chip == "sm_90a" and torch.cuda.get_device_capability() != (9, 0):
        pytest.skip("the sm_90a artifact runs on sm_90 GPUs (H100, H200) only")
    if chip == "sm_90a" and tile in ("128_128_128", "128_256_128") and b_layout == "row":
        pytest.skip(f"no mma.sync sibling for {tile} fp8 tiles: a row-major B is refused (tested below)")
    if tile == "128_256_128" and elem != "f8e4m3fn":
        pytest.skip("the 128 x 256 fp8 instance is built for e4m3 only")
    folder = FIXTURES if chip == "sm_90" else FIXTURES.parent / "tile_sm90a"
    module = load(folder / "gemm_fp8.oxide.json", target="gpu")
    a = torch.randn(m, k, device="cuda").to(getattr(torch, tdtype))
    if b_layout == "row":
        b = torch.randn(k, n, device="cuda").to(getattr(torch, tdtype))
    else:
        b = torch.randn(n, k, device="cuda").to(getattr(torch, tdtype)).t()  # strides (1, K)
    c = torch.full((m, n), float("nan"), device="cuda")
    bm, bn, _ = (int(x) for x in tile.split("_"))
    getattr(module, f"gemm_{elem}_f32_{tile}")(oxide.tile.partition(c, (bm, bn)), a, b)
    torch.cuda.synchronize()
    expected = a.double() @ b.double()  # the exact products of the fp8 values, summed in f64
    if chip == "sm_90a" and b_layout == "transposed":
        # wgmma: the tensor cores sum each stage's fp8 products (K = 128) with fewer bits than f32 (about 1e-3
        # of the partial sum); the stages are then added in f32 (promotion), as cuBLAS does.
        torch.testing.assert_close(c.double(), expected, rtol=1e-2, atol=4e-3 * k ** 0.5)
    else:  # mma.sync on f16 copies of the fp8 values: f32 accumulation
        torch.testing.assert_close(c.double(), expected, rtol=1e-4, atol=1e-4 * k ** 0.5)


@pytest.mark.parametrize("bm, bn", [(128, 128), (128, 256)])
def test_sm90a_gemm_fp8_matches_scaled_mm(torch, bm, bn):
    # bf16 out from the BM x BN x 128 wgmma instances against torch._scaled_mm with unit scales, B column-major.
    if torch.cuda.get_device_capability() != (9, 0):
        pytest.skip("the sm_90a artifact runs on sm_90 GPUs (H100, H200) only")
    module = load(FIXTURES.parent / "tile_sm90a" / "gemm_fp8.oxide.json", target="gpu")
    m, n, k = 1024, 768, 512
    a = torch.randn(m, k, device="cuda").to(torch.float8_e4m3fn)
    b = torch.randn(n, k, device="cuda").to(torch.float8_e4m3fn).t()
    one = torch.ones((), device="cuda")
    c = torch.empty(m, n, device="cuda", dtype=torch.bfloat16)
    getattr(module, f"gemm_f8e4m3fn_bf16_{bm}_{bn}_128")(oxide.tile.partition(c, (bm, bn)), a, b)
    expected = torch._scaled_mm(a, b, scale_a=one, scale_b=one, out_dtype=torch.bfloat16)
    torch.cuda.synchronize()
    torch.testing.assert_close(c.float(), expected.float(), rtol=2 ** -7, atol=2 ** -7 * k ** 0.5)


@pytest.mark.parametrize("elem, tdtype", [("f8e4m3fn", "float8_e4m3fn"), ("f8e5m2", "float8_e5m2")])
def test_quantize_fp8_matches_torch(torch, elem, tdtype):
    # convert_tile::<fp8> rounds as torch's .to(float8) does (nearest even) inside the finite range (torch gives
    # NaN or infinity beyond it, cvt.satfinite the largest finite value: the emulator tests check that part).
    module = load(FIXTURES / "gemm_fp8.oxide.json", target="gpu")
    x = (torch.randn(5000, device="cuda") * 30).clamp(-440, 440)
    z = torch.zeros(5000, device="cuda", dtype=getattr(torch, tdtype))
    getattr(module, f"quantize_{elem}_1024")(oxide.tile.partition(z, (1024,)), x)
    torch.cuda.synchronize()
    assert torch.equal(z.view(torch.uint8), x.to(getattr(torch, tdtype)).view(torch.uint8))
