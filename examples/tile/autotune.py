"""autotune.rs from Python: tune rms_norm's BLOCK_SIZE (32, 64, 128, 256; 4096 is pruned, it exceeds the row),
then launch the winner. The first run builds the candidates into the artifact cache (where the compiler is)
and times them; a later run for the same shapes on the same device reuses the recorded winner and times
nothing. On the emulator the rows are fewer and the timing is the emulator's, recorded as such."""

import sys
from pathlib import Path
from typing import Any

import numpy as np

import oxide.tile
from oxide.autotune import Autotuner, Config
from oxide.runtime.module import resolve_target
from oxide.runtime.tune import TuneResult

N, EPS = 1024, 1e-6


def inputs(rows: int) -> tuple[np.ndarray, np.ndarray]:
    """x (rows x N) and w (N), random."""
    rng = np.random.default_rng(5)
    return rng.standard_normal((rows, N), dtype=np.float32), rng.standard_normal(N, dtype=np.float32)


def tune_rms_norm(x: np.ndarray, w: np.ndarray, **options: Any) -> TuneResult:
    """Build (once) and time (once per shape and device) the BLOCK_SIZE candidates; `options` go to
    Autotuner.run (target, timer, retune, ...)."""
    rows = x.shape[0]

    def setup(run):
        # Each candidate gets its own output. The launch is checked once (prepare) and then repeated without
        # checks, so the events time the kernel rather than Python's argument checks.
        xd, wd, out = run.module.to_device(x), run.module.to_device(w), run.module.zeros((rows, N), np.float32)
        prepared = run.kernel.prepare(xd, wd, oxide.tile.partition(out, (1, N)), EPS, stream=run.stream)

        def launch():
            prepared()
            return out

        return launch

    tuner = (Autotuner(Path(__file__).with_name("autotune.rs"), "rms_norm", fixed={"N": N})
             .configs(Config.grid(BLOCK_SIZE=[32, 64, 128, 256, 4096]))
             .prune(lambda c: c.int("BLOCK_SIZE") <= N))
    return tuner.run(setup, problem=(x, w, EPS), **options)


def main() -> int:
    x, w = inputs(512 if resolve_target()[0] == "gpu" else 16)
    result = tune_rms_norm(x, w)
    for trial in result.trials:
        shown = f"{trial.ms:.4f} ms" if trial.ms is not None else f"skipped: {trial.reason.splitlines()[0]}"
        print(f"  {trial.id}: {shown}")
    if result.best is None:
        print("FAILED: no candidate ran")
        return 1
    print(f"best: {result.best.id}" + (" (recorded earlier: nothing timed)" if result.from_record else ""))

    module = result.load()
    y = np.zeros_like(x)
    module.rms_norm(x, w, oxide.tile.partition(y, (1, N)), EPS)
    x64 = x.astype(np.float64)
    expected = x64 / np.sqrt((x64 ** 2).mean(axis=1, keepdims=True) + EPS) * w
    errors = int(np.count_nonzero(~np.isclose(y, expected, rtol=1e-4, atol=1e-5)))
    print(f"FAILED: {errors} errors" if errors else f"PASSED: tile autotune, rms_norm {x.shape[0]}x{N} ({module.target})")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
