"""The tile artifacts tests/gpu/test_tile_runtime.py loads are what tile_artifacts.write_gpu_fixtures makes
now (signature and emulator program), their hand-written PTX assembles, and they run on the emulator."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

import oxide.tile
from oxide.runtime.module import load
from tests.unit.runtime.tile_artifacts import (
    GPU_FIXTURES,
    GPU_WARPS,
    write_gpu_fixtures,
)


def test_gpu_tile_fixtures_are_current(tmp_path):
    for fresh in write_gpu_fixtures(tmp_path):
        for made in sorted(tmp_path.glob(fresh.name.removesuffix(".oxide.json") + ".*")):
            committed = GPU_FIXTURES / made.name
            assert committed.read_text() == made.read_text(), (
                f"{committed} is stale: regenerate with `python -c 'from tests.unit.runtime.tile_artifacts import "
                "write_gpu_fixtures; write_gpu_fixtures()'`")


@pytest.mark.skipif(shutil.which("ptxas") is None, reason="ptxas is not installed")
@pytest.mark.parametrize("name", sorted(GPU_WARPS))
def test_hand_written_tile_ptx_assembles(name, tmp_path):
    result = subprocess.run(["ptxas", "-arch=sm_90", str(GPU_FIXTURES / f"{name}.sm_90.ptx"), "-o",
                             str(tmp_path / "out.cubin")], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_gpu_tile_fixtures_run_on_the_emulator():
    mod = load(GPU_FIXTURES / "rowsum.oxide.json", target="cpu")
    x = np.arange(40, dtype=np.float32).reshape(5, 8)
    z, w = np.zeros((5, 1), np.float32), np.zeros((5, 8), np.float32)
    mod.rowsum(oxide.tile.partition(z, (4, 1)), oxide.tile.partition(w, (4, 8)), x)
    np.testing.assert_array_equal(z[:, 0], x.sum(1))
    assert mod.rowsum.block == (32, 1, 1)
