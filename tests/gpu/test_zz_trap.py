"""Kernels that stop on purpose: `simt.assert` (CUDA's __assertfail) and `simt.trap`.

A failed assertion or a trap leaves the CUDA context unusable, so each failing launch runs in its own
Python process; the file is still named to run last, in case a launch escapes that isolation.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Launch `entry` twice, first with arguments that must pass, then with ones that must stop the kernel;
# print the second launch's CUresult name.
SCRIPT = """
import sys
import numpy as np
from cuda.bindings import driver
from tests.gpu.conftest import _gpu_context
from tests.gpu.harness import DeviceArray, launch, launch_status, load
handle, reason = _gpu_context()
assert handle is not None, reason
kernel = load(driver, "math_debug.ptx", sys.argv[1])
if sys.argv[1] == "assert_positive":
    good = DeviceArray(driver, np.array([1.0, 2.0, 3.0, 4.0], np.float32))
    bad = DeviceArray(driver, np.array([1.0, -2.0, 3.0, 4.0], np.float32))
    passing, failing = [good, 4], [bad, 4]
else:
    passing, failing = [np.int32(0)], [np.int32(1)]
launch(driver, kernel, [1], [4], passing)
print("status", launch_status(driver, kernel, [1], [4], failing).name, flush=True)
"""


def _run_failing(entry: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", SCRIPT, entry], check=False, cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


def test_assert_fails_the_launch(cuda):
    done = _run_failing("assert_positive")
    assert done.returncode == 0, done.stderr
    assert "status CUDA_ERROR_ASSERT" in done.stdout
    # __assertfail prints the message with the kernel's source file and line.
    assert "xs[i] must be positive" in done.stdout + done.stderr


def test_trap_fails_the_launch(cuda):
    done = _run_failing("trap_if")
    assert done.returncode == 0, done.stderr
    status = done.stdout.split("status ")[-1].strip()
    assert status in ("CUDA_ERROR_LAUNCH_FAILED", "CUDA_ERROR_ILLEGAL_INSTRUCTION"), done.stdout + done.stderr
