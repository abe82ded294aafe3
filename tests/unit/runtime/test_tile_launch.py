"""Tile kernel launches through `mod.kernel(...)` on the emulator: results, the grid from the output
partitions, and every launch check (partition required, tile shape, element type, rank, static dims, one
grid for all outputs, overlaps, empty grid, explicit grids, device limits, kernel faults)."""

from __future__ import annotations

import numpy as np
import pytest

import oxide.tile
from oxide.runtime.artifact import Artifact
from oxide.runtime.emulator.tile import bf16
from oxide.runtime.errors import (
    KernelArgumentError,
    KernelFaultError,
    LaunchContractError,
    OverlapError,
)
from oxide.runtime.module import load
from oxide.runtime.signature import KernelSpec, param_spec
from tests.unit.runtime.emulator.tile.helpers import module, out, program, tensor
from tests.unit.runtime.tile_artifacts import write


@pytest.fixture(scope="module")
def mods(tmp_path_factory):
    root = tmp_path_factory.mktemp("tile")
    return {name: load(write(root / name, name), target="cpu") for name in ("add", "rowsum", "bump")}


def test_vector_add_over_the_partition_grid(mods):
    x = np.arange(300, dtype=np.float32)
    y = np.full(300, 0.5, np.float32)
    z = np.zeros(300, np.float32)
    mods["add"].add(oxide.tile.partition(z, (128,)), x, y, 4.0)
    np.testing.assert_array_equal(z, x + 2.0)


def test_explicit_grid_must_equal_the_partition_grid(mods):
    x = np.ones(256, np.float32)
    z = np.zeros(256, np.float32)
    mods["add"].add[2](oxide.tile.partition(z, (128,)), x, x, 1.0)
    np.testing.assert_array_equal(z, 2.0)
    with pytest.raises(LaunchContractError, match=r"expects \(2, 1, 1\) \(the output partitions' grid\), got "
                                                  r"\(4, 1, 1\)") as info:
        mods["add"].add[4](oxide.tile.partition(z, (128,)), x, x, 1.0)
    assert info.value.field == "grid"


def test_two_outputs_share_a_grid(mods):
    x = np.arange(10 * 8, dtype=np.float32).reshape(10, 8)
    z = np.zeros((10, 1), np.float32)
    w = np.zeros((10, 8), np.float32)
    mods["rowsum"].rowsum(oxide.tile.partition(z, (4, 1)), oxide.tile.partition(w, (4, 8)), x)
    np.testing.assert_array_equal(z[:, 0], x.sum(1))
    np.testing.assert_array_equal(w, 2 * x)
    with pytest.raises(LaunchContractError, match=r"the partition of `w` has another grid"):
        mods["rowsum"].rowsum(oxide.tile.partition(z, (4, 1)), oxide.tile.partition(np.zeros((20, 8), np.float32),
                                                                                     (4, 8)), x)


def test_an_output_must_be_a_partition(mods):
    x = np.ones(128, np.float32)
    with pytest.raises(KernelArgumentError, match=r"argument `z: &mut Tensor<f32, \{\[128\]\}>`: a tile kernel's "
                                                  r"output is a partition of an array: pass `oxide.tile.partition\(z, "
                                                  r"\(128,\)\)`, got an array of float32"):
        mods["add"].add(np.zeros(128, np.float32), x, x, 1.0)


def test_partition_tile_shape_must_be_the_kernels(mods):
    x = np.ones(128, np.float32)
    with pytest.raises(KernelArgumentError, match=r"writes tiles of shape \(128,\), but the partition has tile shape "
                                                  r"\(64,\)"):
        mods["add"].add(oxide.tile.partition(np.zeros(128, np.float32), (64,)), x, x, 1.0)


def test_element_types_ranks_and_static_dims_are_checked(mods):
    z = oxide.tile.partition(np.zeros(128, np.float32), (128,))
    x = np.ones(128, np.float32)
    with pytest.raises(KernelArgumentError, match="argument `x: .*`: expected elements of f32, got an array of "
                                                  "float64"):
        mods["add"].add(z, np.ones(128), x, 1.0)
    with pytest.raises(KernelArgumentError, match=r"expected elements of f32, got an array of int32"):
        mods["add"].add(oxide.tile.partition(np.zeros(128, np.int32), (128,)), x, x, 1.0)
    with pytest.raises(KernelArgumentError, match=r"expected a rank-1 tensor, got an array of shape \(8, 16\)"):
        mods["add"].add(z, np.ones((8, 16), np.float32), x, 1.0)
    with pytest.raises(KernelArgumentError, match=r"dimension 1 is 8 in the kernel's type, but the array has shape "
                                                  r"\(4, 7\)"):
        mods["rowsum"].rowsum(oxide.tile.partition(np.zeros((4, 1), np.float32), (4, 1)),
                              oxide.tile.partition(np.zeros((4, 8), np.float32), (4, 8)), np.ones((4, 7), np.float32))
    with pytest.raises(KernelArgumentError, match="an input tensor takes the array itself, not a partition"):
        mods["add"].add(z, oxide.tile.partition(x, (128,)), x, 1.0)
    with pytest.raises(KernelArgumentError, match="takes 4 argument"):
        mods["add"].add(z, x, x)
    with pytest.raises(KernelArgumentError, match="argument `s: f32`"):
        mods["add"].add(z, x, x, "one")


def test_outputs_may_not_overlap_inputs_or_each_other(mods):
    buffer = np.zeros(256, np.float32)
    with pytest.raises(OverlapError, match="argument `z` overlaps argument `x`"):
        mods["add"].add(oxide.tile.partition(buffer[:128], (128,)), buffer[64:192], np.ones(128, np.float32), 1.0)
    # a strided view interleaved with another: their byte ranges overlap
    with pytest.raises(OverlapError, match="argument `z` overlaps argument `y`"):
        mods["add"].add(oxide.tile.partition(buffer[0::2], (128,)), np.ones(128, np.float32), buffer[1::2], 1.0)
    pair = np.zeros((8, 8), np.float32)
    with pytest.raises(OverlapError, match="argument `z` overlaps argument `w`"):
        mods["rowsum"].rowsum(oxide.tile.partition(pair[:, :1], (4, 1)), oxide.tile.partition(pair, (4, 8)),
                              np.ones((8, 8), np.float32))
    # separate halves of one buffer are fine
    mods["add"].add(oxide.tile.partition(buffer[:128], (128,)), buffer[128:], buffer[128:], 1.0)


def test_an_empty_output_is_refused(mods):
    x = np.ones(0, np.float32)
    with pytest.raises(LaunchContractError, match="an output partition is empty"):
        mods["add"].add(oxide.tile.partition(np.zeros(0, np.float32), (128,)), x, x, 1.0)


def test_a_kernel_without_outputs_needs_an_explicit_grid(mods):
    counts = np.zeros(4, np.int32)
    idx = np.array([0, 1, 1, 3, 3, 3, 0, 2], np.int32)
    with pytest.raises(KernelArgumentError, match=r"no output partition to take its grid from: launch it as "
                                                  r"`mod.bump\[grid\]"):
        mods["bump"].bump(counts, idx)
    mods["bump"].bump[3](counts, idx)
    np.testing.assert_array_equal(counts, 3 * np.bincount(idx, minlength=4))
    with pytest.raises(LaunchContractError, match="1 to 65535 tile blocks along y"):
        mods["bump"].bump[1, 70000](counts, idx)


def test_a_kernel_fault_is_a_kernel_fault_error(mods):
    with pytest.raises(KernelFaultError, match=r"kernel `bump` \(emulator\): OutOfBounds: .*atomic add at offset 9 "
                                               "is out of bounds for a buffer of 4 elements"):
        mods["bump"].bump[1](np.zeros(4, np.int32), np.array([0, 9, 0, 0, 0, 0, 0, 0], np.int32))


def test_bf16_tensors_travel_as_16_bit_patterns(tmp_path):
    body = f"""
      %t = "tile.load_own"(%z) : ({out('bf16', 16)}) -> {tensor('bf16', 16)}
      %h = arith.constant dense<0.5> : {tensor('bf16', 16)}
      %r = arith.addf %t, %h : {tensor('bf16', 16)}
      "tile.store_own"(%z, %r) : ({out('bf16', 16)}, {tensor('bf16', 16)}) -> ()"""
    kernel = KernelSpec("half", "half", [param_spec("z", "&mut Tensor<bf16, {[16]}>", [out("bf16", 16)])],
                        tile={"warps": 1})
    Artifact("half", [kernel], {}, program(module(f"%z: {out('bf16', 16)}", body, "half", 1))).write(tmp_path)
    values = np.linspace(-2, 2, 20).astype(np.float32)
    bits = (bf16(values).view(np.uint32) >> 16).astype(np.uint16)
    load(tmp_path, target="cpu").half(oxide.tile.partition(bits, (16,)))
    got = (bits.astype(np.uint32) << 16).view(np.float32)
    np.testing.assert_array_equal(got, bf16(bf16(values) + np.float32(0.5)))
    with pytest.raises(KernelArgumentError, match="expected elements of bf16, got an array of float32"):
        load(tmp_path, target="cpu").half(oxide.tile.partition(values, (16,)))


def _scale(elem: str) -> str:
    t = tensor(elem, 8)
    return (f"    gpu.func @scale_{elem}(%z: {out(elem, 8)}, %s: {elem}) kernel attributes {{tile.warps = 1 : i32}} {{\n"
            f'      %a = "tile.load_own"(%z) : ({out(elem, 8)}) -> {t}\n'
            f'      %b = "tile.splat"(%s) : ({elem}) -> {t}\n'
            f"      %c = arith.mulf %a, %b : {t}\n"
            f'      "tile.store_own"(%z, %c) : ({out(elem, 8)}, {t}) -> ()\n'
            "      gpu.return\n    }\n")


def test_a_generic_tile_kernel_picks_the_instance_the_arguments_fit(tmp_path):
    text = ("module attributes {gpu.container_module} {\n  gpu.module @kernels {\n" + _scale("f32") + _scale("f64")
            + "  }\n}\n")
    kernels = [KernelSpec("scale", f"scale_{e}", [param_spec("z", f"&mut Tensor<{e}, {{[8]}}>", [out(e, 8)]),
                                                  param_spec("s", e, [e])], tile={"warps": 1}) for e in ("f32", "f64")]
    Artifact("scale", kernels, {}, program(text)).write(tmp_path)
    mod = load(tmp_path, target="cpu")
    z32, z64 = np.arange(10, dtype=np.float32), np.arange(10, dtype=np.float64)
    mod.scale(oxide.tile.partition(z32, (8,)), 2.0)
    mod.scale[2](oxide.tile.partition(z64, (8,)), 3.0)
    np.testing.assert_array_equal(z32, np.arange(10) * 2.0)
    np.testing.assert_array_equal(z64, np.arange(10) * 3.0)
    with pytest.raises(KernelArgumentError, match=r"no instance of generic kernel `scale` fits these arguments:\n"
                                                  r"  scale_f32: `z: &mut Tensor<f32, \{\[8\]\}>` does not take an "
                                                  r"array of int32"):
        mod.scale(oxide.tile.partition(np.zeros(8, np.int32), (8,)), 1.0)
    with pytest.raises(KernelArgumentError, match=r"takes a partition with tile shape \(8,\)"):
        mod.scale(oxide.tile.partition(z32, (16,)), 1.0)
