"""`oxide.tile.partition` and tile kernel signatures: the partition grid, every malformed tile shape, the
tile parameter kinds param_spec derives from MLIR types, their GPU ABI, and the artifact round trip."""

from __future__ import annotations

import numpy as np
import pytest

import oxide.tile
from oxide.runtime.artifact import Artifact
from oxide.runtime.errors import PartitionError
from oxide.runtime.signature import param_spec
from tests.unit.runtime.tile_artifacts import spec, write


def test_partition_grid_rounds_up_per_dimension():
    p = oxide.tile.partition(np.zeros((1000, 300), np.float32), (128, 64))
    assert p.grid == (8, 5) and p.tile_shape == (128, 64) and p.shape == (1000, 300)
    assert oxide.tile.partition(np.zeros(256, np.int8), 128).grid == (2,)


@pytest.mark.parametrize("array, tile, message", [
    (np.zeros(8), (3,), "must be a positive power of two, got 3"),
    (np.zeros(8), (0,), "must be a positive power of two, got 0"),
    (np.zeros(8), (-4,), "must be a positive power of two, got -4"),
    (np.zeros((8, 8)), (4,), r"tile shape \(4,\) has rank 1, but the array has shape \(8, 8\)"),
    (np.zeros((2, 2, 2, 2)), (1, 1, 1, 1), "rank 1 to 3"),
    (np.zeros(()), (), "rank 1 to 3"),
    (np.zeros(8), (4.0,), "a tuple of ints"),
    ([1, 2, 3], (4,), "takes an array"),
])
def test_malformed_partitions_are_refused(array, tile, message):
    with pytest.raises(PartitionError, match=message):
        oxide.tile.partition(array, tile)


def test_tile_parameter_kinds_and_abi():
    z = param_spec("z", "&mut Tensor<f32, {[128, 64]}>", ["!tile.view_mut<f32, array<i64: 128, 64>>"])
    assert (z.kind, z.elem, z.shape, z.mutable) == ("tile_out", "f32", [128, 64], True)
    assert z.abi == ["u64", "i64", "i64", "i64", "i64"]
    x = param_spec("x", "&Tensor<u32, {[-1]}>", ["!tile.view<i32, array<i64: -1>>"])
    assert (x.kind, x.elem, x.shape, x.mutable) == ("tile_in", "u32", [-1], False)  # the Rust sign wins
    h = param_spec("h", "&Tensor<bf16, {[-1, 64]}>", ["!tile.view<bf16, array<i64: -1, 64>>"])
    assert (h.elem, h.shape) == ("bf16", [-1, 64])
    with pytest.raises(ValueError, match="no tensors of f8"):
        param_spec("q", "&Tensor<f8, {[4]}>", ["!tile.view<f8, array<i64: 4>>"])


def test_tile_signature_round_trips_through_the_artifact(tmp_path):
    loaded = Artifact.load(write(tmp_path, "rowsum", warps=8))
    assert loaded.kernels == [spec("rowsum", warps=8)]
    assert loaded.kernels[0].tile == {"warps": 8}
    assert "'tile': {'warps': 8}" in loaded.emulator
