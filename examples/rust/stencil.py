"""stencil.rs from Python: a 5-point stencil whose output is a DisjointSlice<f32, Runtime2DIndex>; the row
width comes from the 2-D output array."""

import sys
from pathlib import Path

import numpy as np

import oxide
from oxide.runtime import LaunchConfig2D

H, W = 50, 70


def main() -> int:
    module = oxide.load(Path(__file__).with_name("stencil.rs"))
    grid = np.random.default_rng(7).standard_normal((H, W), dtype=np.float32)
    out = np.zeros((H, W), np.float32)
    module.stencil(grid, W, H, out, config=LaunchConfig2D(((W + 15) // 16, (H + 15) // 16), (16, 16)))
    expected = np.zeros((H, W), np.float32)
    expected[1:-1, 1:-1] = 0.5 * grid[1:-1, 1:-1] + 0.125 * (grid[:-2, 1:-1] + grid[2:, 1:-1] + grid[1:-1, :-2]
                                                             + grid[1:-1, 2:])
    errors = int(np.count_nonzero(~np.isclose(out, expected, rtol=1e-5, atol=1e-5)))
    print(f"FAILED: {errors} errors" if errors else f"PASSED: stencil, {H}x{W} ({module.target})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
