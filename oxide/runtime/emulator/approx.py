"""The hardware's approximate math instructions that kernels reach through inline PTX, on numpy: what the emulator
computes for them (oxide.backend.emulator.ops_inline_ptx)."""

from __future__ import annotations

from typing import Any

import numpy as np


def exp2_ftz(x: Any) -> np.ndarray:
    """`ex2.approx.ftz.f32`: 2^x in f32, a subnormal result flushed to zero (the smallest normal is 2^-126). The
    GPU's approximation is within 2 ulp of the exact value; numpy's exp2 stands for it."""
    with np.errstate(over="ignore", under="ignore"):
        out = np.exp2(np.asarray(x, np.float32))
    return np.where(out < np.float32(2.0 ** -126), np.float32(0), out).astype(np.float32)
