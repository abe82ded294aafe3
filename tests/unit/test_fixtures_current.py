"""The PTX fixtures the GPU tests run are exactly what the compiler emits today."""

from pathlib import Path

import pytest

from oxide.backend import compile_to_ptx
from oxide.ir.parse import parse_source

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = {
    "vecadd.ptx": ROOT / "examples" / "vecadd.mlir",
    "exp_sin.ptx": ROOT / "tests" / "lit" / "backend" / "Inputs" / "exp.mlir",
}


@pytest.mark.parametrize("fixture", sorted(FIXTURES))
def test_fixture_is_current(ctx, fixture):
    source = FIXTURES[fixture]
    parsed = parse_source(source.read_text(), source.name, ctx)
    (ptx,) = compile_to_ptx(parsed.module).values()
    expected = (ROOT / "tests" / "fixtures" / fixture).read_text()
    assert ptx.strip() == expected.strip(), f"regenerate: oxide-opt {source} --emit=ptx -o tests/fixtures/{fixture}"
