"""The autotune example (examples/tile/autotune.py) tunes rms_norm's BLOCK_SIZE on the GPU from candidates
built ahead of time: the compile step ran where the compiler is, with OXIDE_CACHE_DIR set, and that cache
directory was carried here. The candidates are timed with CUDA events, each checked against the first; a
second call picks the recorded winner without timing; the winner computes RMSNorm."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest

import oxide.tile

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "tile" / "autotune.py"
ROWS = 4096


@pytest.fixture(scope="module")
def example(cuda):
    spec = importlib.util.spec_from_file_location("autotune_example", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_rms_norm_block_size_is_tuned_on_the_gpu(example):
    x, w = example.inputs(ROWS)
    result = example.tune_rms_norm(x, w, target="gpu", retune=True)
    states = {t.id: (t.state, t.reason) for t in result.trials}
    assert states["BLOCK_SIZE=4096"][0] == "skipped" and "pruned" in states["BLOCK_SIZE=4096"][1]
    timed = [t for t in result.trials if t.state == "timed"]
    assert len(timed) == 4, states  # 32, 64, 128 and 256 all run and agree with each other
    assert all(t.ms > 0 for t in timed) and result.best.ms == min(t.ms for t in timed)
    assert result.device.startswith("NVIDIA") and " sm_" in result.device
    print("\n" + "\n".join(f"{t.id}: {t.ms:.4f} ms" for t in timed) + f"\nbest {result.best.id} on {result.device}")

    again = example.tune_rms_norm(x, w, target="gpu", timer=lambda run, launch: pytest.fail("timed again"))
    assert again.from_record and again.best.id == result.best.id

    y = np.zeros_like(x)
    result.load(target="gpu").rms_norm(x, w, oxide.tile.partition(y, (1, example.N)), example.EPS)
    x64 = x.astype(np.float64)
    expected = x64 / np.sqrt((x64 ** 2).mean(axis=1, keepdims=True) + example.EPS) * w
    np.testing.assert_allclose(y, expected, rtol=1e-4, atol=1e-5)
