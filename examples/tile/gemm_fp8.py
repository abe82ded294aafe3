"""gemm_fp8.rs from Python: quantize f32 data to fp8 (e4m3fn and e5m2) with the kernel, multiply the fp8 tensors
(f32 accumulate, f32 and bf16 outputs) and compare with the product of the decoded fp8 values in float64.

numpy has no fp8 type: fp8 tensors are their bytes (uint8), read as the kernel's fp8 type. On a GPU with torch,
torch.float8_e4m3fn / float8_e5m2 tensors bind directly; B given transposed (`b.t()` of an [N, K] tensor, as
torch._scaled_mm takes it) runs on sm_90a's wgmma path, a row-major B on mma.sync."""

import sys
from pathlib import Path

import numpy as np

import oxide
import oxide.tile
from oxide.runtime.emulator import fp8

M, N, K, BM, BN, BK = 200, 136, 192, 64, 64, 64
CASES = [("f8e4m3fn", "f32"), ("f8e5m2", "f32"), ("f8e4m3fn", "bf16")]
MLIR = {"f8e4m3fn": "f8E4M3FN", "f8e5m2": "f8E5M2"}


def main() -> int:
    instances = {"gemm": [[e, o, str(BM), str(BN), str(BK)] for e, o in CASES],
                 "quantize": [[e, "256"] for e in MLIR]}
    module = oxide.load(Path(__file__).with_name("gemm_fp8.rs"), instances=instances)
    rng = np.random.default_rng(18)
    failed = 0
    for elem in MLIR:  # the quantization kernel rounds as cvt.rn.satfinite does
        x = (rng.standard_normal(1000) * 50).astype(np.float32)
        q = np.zeros(1000, np.uint8)
        getattr(module, f"quantize_{elem}_256")(oxide.tile.partition(q, (256,)), x)
        errors = int(np.count_nonzero(q != fp8.encode(x, MLIR[elem])))
        print(f"quantize to {elem}: {'FAILED: ' + str(errors) + ' errors' if errors else 'ok'}")
        failed += errors
    for elem, out in CASES:
        a = fp8.encode(rng.standard_normal((M, K)), MLIR[elem])
        b = fp8.encode(rng.standard_normal((K, N)), MLIR[elem])
        z = np.zeros((M, N), np.uint16 if out == "bf16" else np.float32)
        getattr(module, f"gemm_{elem}_{out}_{BM}_{BN}_{BK}")(oxide.tile.partition(z, (BM, BN)), a, b)
        result = (z.astype(np.uint32) << 16).view(np.float32) if out == "bf16" else z
        expected = fp8.decode(a, MLIR[elem]).astype(np.float64) @ fp8.decode(b, MLIR[elem]).astype(np.float64)
        rtol = 2 ** -8 if out == "bf16" else 1e-5
        errors = int(np.count_nonzero(~np.isclose(result, expected, rtol=rtol, atol=rtol * np.sqrt(K))))
        print(f"{elem} -> {out}: {'FAILED: ' + str(errors) + ' errors' if errors else 'ok'}")
        failed += errors
    print("FAILED" if failed else f"PASSED: fp8 quantization and tile gemm, {M}x{N}x{K} ({module.target})")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
