"""`oxide.tile` and tile launches on the emulator need numpy only: with `mlir` and the compiler unimportable,
a pre-built tile artifact (tests/fixtures/tile_runtime) loads and runs through `mod.kernel(partition, ...)`."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]

_CHILD = textwrap.dedent(
    """
    import sys

    class Blocker:
        def find_spec(self, name, path=None, target=None):
            blocked = ("mlir", "oxide.ir", "oxide.backend", "oxide.frontends", "oxide.passes", "oxide.dialects",
                       "oxide.api")
            if name in blocked or name.startswith(tuple(b + "." for b in blocked)):
                raise ImportError(f"blocked import of {name}")
            return None

    sys.meta_path.insert(0, Blocker())
    import numpy as np
    import oxide.tile
    from oxide.runtime import load
    mod = load("tests/fixtures/tile_runtime/add.oxide.json", target="cpu")
    x = np.arange(300, dtype=np.float32)
    z = np.zeros(300, np.float32)
    mod.add(oxide.tile.partition(z, (128,)), x, x, 3.0)
    assert (z == 4 * x).all()
    assert not any(m == "mlir" or m.startswith("mlir.") for m in sys.modules)
    print("ok")
    """
)


def test_tile_runtime_runs_without_the_compiler():
    result = subprocess.run([sys.executable, "-c", _CHILD], check=False, capture_output=True, text=True, cwd=ROOT,
                            timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
