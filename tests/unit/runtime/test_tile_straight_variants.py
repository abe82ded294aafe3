"""How the tile runtime chooses between a straight-line row kernel and its default lowering
(tile_to_simt/guarded.py): the straight-line entry only when every tensor is vector-ready (16-byte aligned base,
innermost stride 1, other strides and innermost extent multiples of 16 bytes), else `$general`. Checked on the
RMSNorm artifact fixture, given the two variants a build with knob guarded records (the fixture is built with the
default, guarded=off); no GPU: the device tensors are given as the binder records them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from oxide.runtime.artifact import Artifact
from oxide.runtime.tile_marshal import TileBinder, TileBound, vector_ready

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "tile" / "rmsnorm.oxide.json"


def straight_variants(entry: str, views: int) -> list[dict]:
    """What guarded.guarded_variants records for a straight-line kernel whose first `views` parameters are views."""
    return [{"entry": entry, "vector": list(range(views))}, {"entry": entry + "$general"}]
F32 = np.dtype(np.float32)


@pytest.mark.parametrize("ptr,shape,strides,ready", [
    (4096, (8, 1024), (1024, 1), True),
    (4100, (8, 1024), (1024, 1), False),   # base 4 bytes past a 16-byte boundary
    (4096, (8, 1022), (1022, 1), False),   # ragged rows: a run would straddle the row's end
    (4096, (8, 1024), (1026, 1), False),   # padded rows that break the alignment of row starts
    (4096, (8, 1024), (1, 8), False),      # a transposed view
    (4096, (1024,), (1,), True),
    (4096, (0, 1024), (1024, 1), True),     # nothing to move: every run is outside
])
def test_vector_ready(ptr, shape, strides, ready):
    assert vector_ready(ptr, shape, strides, F32) is ready


def _chosen(tensors: dict[int, tuple]) -> str:
    spec = next(k for k in Artifact.load(FIXTURE).kernels if k.entry == "rmsnorm_4_1024")
    spec.tile["variants"] = straight_variants(spec.entry, 3)  # type: ignore[index]
    bound = TileBound()
    bound.device_tensors = tensors
    TileBinder(spec, gpu=True)._choose_variant(bound)
    return bound.variant["entry"]


def test_vector_ready_tensors_run_the_straight_line_entry():
    y, x, w = (4096, (64, 1024), (1024, 1), F32), (1 << 20, (64, 1024), (1024, 1), F32), (512, (1024,), (1,), F32)
    assert _chosen({0: y, 1: x, 2: w}) == "rmsnorm_4_1024"


def test_one_misaligned_tensor_runs_the_default_lowering():
    y, x, w = (4096, (64, 1024), (1024, 1), F32), (1 << 20, (64, 1024), (1024, 1), F32), (516, (1024,), (1,), F32)
    assert _chosen({0: y, 1: x, 2: w}) == "rmsnorm_4_1024$general"
