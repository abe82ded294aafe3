"""The register budget of kernels without tensor-core products (register_budget.py): large row tiles get more
warps, the artifact records the block the PTX requires, and the widened kernels stay correct."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest

import oxide.tile
from oxide.runtime.module import load

FIXTURES = Path(__file__).resolve().parents[5] / "tests" / "fixtures"


@pytest.mark.parametrize("stem", ["softmax", "layernorm", "rmsnorm"])
def test_large_row_tiles_get_more_warps(stem):
    kernels = {k["entry"]: k["tile"]["warps"] for k in
               json.loads((FIXTURES / "tile" / f"{stem}.oxide.json").read_text())["kernels"]}
    # 4 x 1024 and 1 x 4096 f32 tiles are 32 values per thread at 4 warps (the hint); 4 x 4096 would be 128.
    assert kernels == {f"{stem}_4_1024": 4, f"{stem}_1_4096": 4, f"{stem}_4_4096": 8}


@pytest.mark.parametrize("folder", ["tile", "tile_sm90a"])
def test_every_tile_artifact_records_the_block_its_ptx_requires(folder):
    for path in sorted((FIXTURES / folder).glob("*.oxide.json")):
        ptx = next(path.parent.glob(path.name.replace(".oxide.json", ".*.ptx"))).read_text()
        required = dict(re.findall(r"\.entry (\S+)\(.*?\.reqntid (\d+), 1, 1", ptx, re.S))
        for kernel in json.loads(path.read_text())["kernels"]:
            tile = kernel["tile"]
            assert int(required[kernel["entry"]]) == tile.get("threads", 32 * tile["warps"]), (path.name, kernel)


def test_the_widened_softmax_matches_numpy_on_the_emulator():
    rng = np.random.default_rng(5)
    x = (rng.standard_normal((5, 3001)) * 4).astype(np.float32)
    y = np.zeros_like(x)
    load(FIXTURES / "tile" / "softmax.oxide.json", target="cpu").softmax(oxide.tile.partition(y, (4, 4096)), x)
    e = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(y, e / e.sum(axis=1, keepdims=True), rtol=1e-5, atol=1e-7)
