"""The PTX fixtures the GPU tests run are exactly what the compiler emits today.

Fixture sources: examples/vecadd.mlir, the libdevice lit input, and every tests/gpu/kernels/<name>.mlir
(compiled to tests/fixtures/<name>.ptx; sm_90a kernels are named *_sm90a.mlir).
"""

from pathlib import Path

import pytest

from oxide.backend import Target, compile_to_ptx
from oxide.ir.parse import parse_source

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = {
    "vecadd.ptx": ROOT / "examples" / "vecadd.mlir",
    "exp_sin.ptx": ROOT / "tests" / "lit" / "backend" / "Inputs" / "exp.mlir",
    **{f"{src.stem}.ptx": src for src in sorted((ROOT / "tests" / "gpu" / "kernels").glob("*.mlir"))},
}


def compile_fixture(ctx, source: Path) -> str:
    """The PTX of one fixture source (one gpu.module)."""
    chip = "sm_90a" if source.stem.endswith("_sm90a") else "sm_90"
    parsed = parse_source(source.read_text(), source.name, ctx)
    (ptx,) = compile_to_ptx(parsed.module, Target(chip)).values()
    return ptx


@pytest.mark.parametrize("fixture", sorted(FIXTURES))
def test_fixture_is_current(ctx, fixture):
    source = FIXTURES[fixture]
    expected = ROOT / "tests" / "fixtures" / fixture
    assert expected.exists(), f"missing fixture: oxide-opt {source} --emit=ptx -o {expected}"
    assert compile_fixture(ctx, source).strip() == expected.read_text().strip(), \
        f"stale fixture; regenerate: oxide-opt {source} --emit=ptx -o {expected}"
