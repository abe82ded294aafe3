"""`rounding::Approx` on `divf`/`true_div` lets the compiler approximate the division (PTX `div.approx.f32`);
without it, or with another rounding marker, division rounds to nearest (`div.rn.f32`)."""

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
        "z.store(q + r);")


def test_approx_marks_only_its_division():
    text = ir_text(kernel(BODY, params=PARAMS, generics=GEN), INST)
    check(text, r"arith.divf .* fastmath<afn>", r"arith.divf %[0-9]+, %[0-9]+ : tensor")
    assert text.count("fastmath<afn>") == 1


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="needs ptxas")
def test_approx_becomes_the_approximate_ptx_instructions(tmp_path):
    src = tmp_path / "k.rs"
    src.write_text(kernel(BODY, params=PARAMS, generics=GEN))
    ptx = "\n".join(oxide.compile_file(src, instances=INST).ptx.values())
    assert sorted(set(re.findall(r"\bdiv\.[a-z.]+f32", ptx))) == ["div.approx.f32", "div.rn.f32"]
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
    np.testing.assert_allclose(z, q + q / (x + 1), rtol=1e-6)
