"""`exp2(x, ftz::Enabled)` on f32 is one `ex2.approx.ftz.f32` (a subnormal result flushes to zero, on the GPU and
the emulator); `ftz::Disabled` keeps libdevice's `exp2f`, which rescales subnormal results."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

import oxide
import oxide.tile
from tests.unit.frontends.tile.helpers import ir_text, kernel

GEN = "<const B: i32>"
PARAMS = "z: &mut Tensor<f32, {[B]}>, w: &mut Tensor<f32, {[B]}>, x: &Tensor<f32, {[-1]}>"
INST = {"k": [["64"]]}
BODY = ("let t: Tile<f32, {[B]}> = x.load_tile(const_shape![B], [0i32]);\n"
        "z.store(exp2(t, ftz::Enabled));\n"
        "w.store(exp2(t, ftz::Disabled));")


def test_only_the_flushing_exp2_is_marked():
    text = ir_text(kernel(BODY, params=PARAMS, generics=GEN), INST)
    assert text.count("math.exp2") == 2 and text.count("tile.ftz") == 1


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="needs ptxas")
def test_the_flushing_exp2_is_one_instruction(tmp_path):
    src = tmp_path / "k.rs"
    src.write_text(kernel(BODY, params=PARAMS, generics=GEN))
    ptx = "\n".join(oxide.compile_file(src, instances=INST).ptx.values())
    # Unrolled over the thread's registers: the flushing ones are ex2.approx.ftz.f32, libdevice's plain ex2.
    assert "ex2.approx.ftz.f32" in ptx and "ex2.approx.f32" in ptx
    (tmp_path / "k.ptx").write_text(ptx)
    subprocess.run(["ptxas", "-arch=sm_90", str(tmp_path / "k.ptx"), "-o", str(tmp_path / "k.cubin")], check=True)


def test_the_emulator_flushes_subnormal_results(tmp_path):
    src = tmp_path / "k.rs"
    src.write_text(kernel(BODY, params=PARAMS, generics=GEN))
    mod = oxide.load(src, target="cpu", instances=INST)
    x = np.linspace(-140.0, 10.0, 64).astype(np.float32)
    z, w = np.zeros(64, np.float32), np.zeros(64, np.float32)
    mod.k_64(oxide.tile.partition(z, (64,)), oxide.tile.partition(w, (64,)), x)
    exact = np.exp2(x.astype(np.float64))
    normal = exact >= 2.0 ** -126
    np.testing.assert_allclose(z[normal], exact[normal], rtol=1e-6)
    assert (z[~normal] == 0).all() and (w[~normal] > 0).all()
