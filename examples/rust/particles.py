"""particles.rs from Python: a Copy struct parameter (Vec2) passed as a tuple of its fields."""

import sys
from pathlib import Path

import numpy as np

import oxide

N, BLOCK = 1000, 256


def main() -> int:
    module = oxide.load(Path(__file__).with_name("particles.rs"))
    rng = np.random.default_rng(9)
    xs, ys = rng.standard_normal(N, dtype=np.float32), rng.standard_normal(N, dtype=np.float32)
    dist = np.zeros(N, np.float32)
    velocity, dt = (0.5, -2.0), 0.25
    module.advance.unchecked[(N + BLOCK - 1) // BLOCK, BLOCK](xs, ys, velocity, dt, dist)
    px, py = xs + np.float32(0.5 * 0.25), ys + np.float32(-2.0 * 0.25)
    errors = int(np.count_nonzero(~np.isclose(dist, np.sqrt(px * px + py * py), rtol=1e-6, atol=1e-6)))
    print(f"FAILED: {errors} errors" if errors else f"PASSED: advance, {N} particles ({module.target})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
