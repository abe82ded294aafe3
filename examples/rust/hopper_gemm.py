"""hopper_gemm.rs from Python: C = A B^T in bf16 through TMA, an mbarrier pipeline and wgmma (sm_90a).

bf16 has no numpy type: the arrays hold its bits (uint16), the tensor maps are told the element type, and
the kernel's output is bf16 pairs packed in uint32 words. The reference is numpy's float32 product of the
same bf16 values."""

import sys
from pathlib import Path

import numpy as np

import oxide
from oxide.runtime import TensorMap, to_device

STAGE_BYTES = (128 * 64 + 256 * 64) * 2
STAGES = 4


def bf16_bits(x: np.ndarray) -> np.ndarray:
    """float32 -> bf16 bits, rounding to nearest even."""
    bits = x.astype(np.float32).view(np.uint32)
    return ((bits + 0x7FFF + ((bits >> 16) & 1)) >> 16).astype(np.uint16)


def bf16_value(bits: np.ndarray) -> np.ndarray:
    return (bits.astype(np.uint32) << 16).view(np.float32)


def gemm(module, a: np.ndarray, b: np.ndarray, gpu: bool) -> np.ndarray:
    """C = A B^T through the kernel; a, b, and the result are bf16 bits."""
    (m, k), n = a.shape, b.shape[0]
    c = np.zeros((m, n // 2), np.uint32)
    a_dev, b_dev, c_dev = (to_device(a), to_device(b), to_device(c)) if gpu else (a, b, c)
    a_map = TensorMap(a_dev, box=(128, 64), swizzle="128B", dtype="bfloat16")
    b_map = TensorMap(b_dev, box=(256, 64), swizzle="128B", dtype="bfloat16")
    grid = ((n + 255) // 256, (m + 127) // 128)
    module.gemm_bf16.unchecked[grid, 384, None, STAGES * STAGE_BYTES](a_map, b_map, c_dev, m, n, k)
    out = c_dev.get() if gpu else c
    return out.view(np.uint16).reshape(m, n)


def main() -> int:
    module = oxide.load(Path(__file__).with_name("hopper_gemm.rs"), chips=["sm_90a"])
    gpu = module.target == "gpu"
    # Sizes that are not multiples of the tile exercise TMA's zero fill and the masked epilogue.
    m, n, k = (1000, 1536, 520) if gpu else (136, 264, 136)
    rng = np.random.default_rng(11)
    a = bf16_bits(rng.standard_normal((m, k), dtype=np.float32))
    b = bf16_bits(rng.standard_normal((n, k), dtype=np.float32))
    c = bf16_value(gemm(module, a, b, gpu))
    want = bf16_value(a) @ bf16_value(b).T
    # The product is exact in f32 up to rounding of the sums; the bf16 output keeps 8 bits.
    errors = int(np.count_nonzero(~np.isclose(c, want, rtol=1.6e-2, atol=1e-1)))
    print(f"FAILED: {errors} of {c.size} elements differ" if errors else
          f"PASSED: gemm_bf16 {m}x{n}x{k} ({module.target})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
