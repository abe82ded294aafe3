"""printf.rs from Python: gpu_printf! with Rust placeholders. The device prints (CUDA flushes the printf
buffer when the launch completes); this program checks the lines it printed, run in a child process so
that the C-level output can be captured."""

import subprocess
import sys
from pathlib import Path

import oxide

EXPECTED = sorted(f"block {b} of 2: scale = 1.500, mask 0xff" for b in range(2))


def launch() -> None:
    module = oxide.load(Path(__file__).with_name("printf.rs"))
    module.hello.unchecked[2, 64](1.5)


def main() -> int:
    if sys.argv[1:] == ["--launch"]:
        launch()
        return 0
    child = subprocess.run([sys.executable, __file__, "--launch"], capture_output=True, text=True)
    lines = sorted(line for line in child.stdout.splitlines() if line.startswith("block "))
    if child.returncode or lines != EXPECTED:
        print(f"FAILED: printed {lines!r} (exit {child.returncode}) {child.stderr[-500:]}")
        return 1
    print(f"PASSED: hello printed {len(lines)} lines")
    return 0


if __name__ == "__main__":
    sys.exit(main())
