"""`oxide new NAME`: the files of a new project (a contracted vecadd kernel and its Python host program)."""

from __future__ import annotations

from pathlib import Path

KERNEL = """\
// vecadd: c[i] = a[i] + b[i], one GPU thread per element.
use cuda_device::{kernel, launch_bounds, launch_contract, thread, DisjointSlice};

// The contract states how the kernel must be launched: 1-D, 256 threads per block. The runtime checks every
// launch against it, which is what makes the DisjointSlice writes below provably race-free.
#[kernel]
#[launch_bounds(256)]
#[launch_contract(domain = 1, block = (256, 1, 1))]
pub fn vecadd(a: &[f32], b: &[f32], mut c: DisjointSlice<f32>) {
    let idx = thread::index_1d();
    let i = idx.get();
    if let Some(c_elem) = c.get_mut(idx) {
        *c_elem = a[i] + b[i];
    }
}
"""

HOST = '''\
"""{name}: add two vectors with the vecadd kernel of src/vecadd.rs, on the GPU (or on oxide's emulator when
this machine has none), and check the result."""

import sys
from pathlib import Path

import numpy as np

import oxide
from oxide.runtime import LaunchConfig1D

N = 1024
BLOCK = 256


def main() -> int:
    module = oxide.load(Path(__file__).parent / "src" / "vecadd.rs")  # compiled once, then cached
    a = np.arange(N, dtype=np.float32)
    b = 2 * a
    c = np.zeros(N, dtype=np.float32)
    module.vecadd(a, b, c, config=LaunchConfig1D((N + BLOCK - 1) // BLOCK, BLOCK))
    errors = int(np.count_nonzero(np.abs(c - (a + b)) > 1e-5))
    if errors:
        print(f"FAILED: {{errors}} errors")
        return 1
    print(f"PASSED: all {{N}} elements correct")
    return 0


if __name__ == "__main__":
    sys.exit(main())
'''

README = """\
# {name}

A GPU kernel in Rust syntax (`src/vecadd.rs`), compiled by oxide and launched from Python (`main.py`).

```sh
oxide run          # build src/*.rs into build/, then run main.py (on the emulator when there is no GPU)
oxide build        # only compile: build/vecadd.oxide.json + PTX + emulator program
oxide inspect      # print the PTX
oxide doctor       # check the toolchain
```
"""

GITIGNORE = """\
build/
__pycache__/
"""


def scaffold(directory: Path, name: str) -> list[Path]:
    """Write a new project into `directory` (which must not exist); return the files written."""
    files = {
        directory / "src" / "vecadd.rs": KERNEL,
        directory / "main.py": HOST.format(name=name),
        directory / "README.md": README.format(name=name),
        directory / ".gitignore": GITIGNORE,
    }
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return list(files)
