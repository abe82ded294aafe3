"""The emulator's run side needs numpy only: it imports with `mlir` (and the compiler) unimportable and runs
a pre-generated program."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from tests.unit.runtime.emulator.helpers import example

ROOT = Path(__file__).resolve().parents[4]

_CHILD = textwrap.dedent(
    """
    import sys

    class Blocker:
        def find_spec(self, name, path=None, target=None):
            blocked = ("mlir", "oxide.ir", "oxide.backend", "oxide.frontends", "oxide.passes", "oxide.dialects")
            if name in blocked or name.startswith(tuple(b + "." for b in blocked)):
                raise ImportError(f"blocked import of {name}")
            return None

    sys.meta_path.insert(0, Blocker())
    import numpy as np
    from oxide.runtime.emulator import launch
    program = sys.stdin.read()
    a = np.arange(300, dtype=np.float32)
    c = np.zeros(300, np.float32)
    launch(program, "vecadd", (2,), (256,), [a, a, c])
    assert (c == 2 * a).all()
    assert not any(m == "mlir" or m.startswith("mlir.") for m in sys.modules)
    print("ok")
    """
)


def test_runtime_runs_without_mlir():
    result = subprocess.run([sys.executable, "-c", _CHILD], check=False, input=example("vecadd"), capture_output=True,
                            text=True, cwd=ROOT, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "ok"
