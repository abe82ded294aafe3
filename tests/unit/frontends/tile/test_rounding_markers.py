"""`rounding::Approx` on `divf`/`true_div` and `sqrt` lets the compiler approximate (PTX `div.approx.f32`,
`sqrt.approx.f32`); without it, or with another rounding marker, both round to nearest (`div.rn.f32`, and
libdevice's correctly rounded square root)."""

from __future__ import annotations

import re
import shutil
import subprocess

import numpy as np
import pytest

import oxide
import oxide.tile
from tests.unit.frontends.tile.helpers import check, ir_text, kernel

GEN = "<const B: i32>"
PARAMS = "z: &mut Tensor<f32, {[B]}>, x: &Tensor<f32, {[-1]}>"
INST = {"k": [["64"]]}
BODY = ("let t: Tile<f32, {[B]}> = x.load_tile(const_shape![B], [0i32]);\n"
        "let one = constant(1.0f32, const_shape![B]);\n"
        "let q = divf(t, t + one, rounding::Approx, ftz::Disabled);\n"
        "let r = true_div(q, t + one, rounding::NearestEven);\n"
        "let s = sqrt(q, rounding::Approx, ftz::Disabled) + sqrt(t, rounding::NegativeInf, ftz::Disabled);\n"
        "z.store(q + r + s);")


def test_approx_marks_only_its_division_and_square_root():
    text = ir_text(kernel(BODY, params=PARAMS, generics=GEN), INST)
    check(text, r"arith.divf .* fastmath<afn>", r"arith.divf %[0-9]+, %[0-9]+ : tensor",
          r"math.sqrt .* fastmath<afn>", r"math.sqrt %[0-9]+ : tensor")
    assert text.count("fastmath<afn>") == 2


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="needs ptxas")
def test_approx_becomes_the_approximate_ptx_instructions(tmp_path):
    src = tmp_path / "k.rs"
    src.write_text(kernel(BODY, params=PARAMS, generics=GEN))
    ptx = "\n".join(oxide.compile_file(src, instances=INST).ptx.values())
    assert sorted(set(re.findall(r"\bdiv\.[a-z.]+f32", ptx))) == ["div.approx.f32", "div.rn.f32"]
    # One approximate square root; the other is libdevice's correctly rounded one (sqrt.rn.f32 in its body).
    assert ptx.count("sqrt.approx.f32") == 1 and "sqrt.rn.f32" in ptx
    (tmp_path / "k.ptx").write_text(ptx)
    subprocess.run(["ptxas", "-arch=sm_90", str(tmp_path / "k.ptx"), "-o", str(tmp_path / "k.cubin")], check=True)


def test_approx_on_the_emulator_matches_numpy(tmp_path):
    src = tmp_path / "k.rs"
    src.write_text(kernel(BODY, params=PARAMS, generics=GEN))
    mod = oxide.load(src, target="cpu", instances=INST)
    x = np.random.default_rng(3).uniform(0.5, 4.0, 64).astype(np.float32)
    z = np.zeros(64, np.float32)
    mod.k_64(oxide.tile.partition(z, (64,)), x)
    q = x / (x + 1)
    np.testing.assert_allclose(z, q + q / (x + 1) + np.sqrt(q) + np.sqrt(x), rtol=1e-6)
