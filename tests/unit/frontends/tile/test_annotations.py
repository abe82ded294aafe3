"""cutile-rs types as `let` annotations (`Shape`, `Partition`, `PartitionMut`, `PointerTile`, `Tensor`,
`Token`) are accepted and checked against the value; `usize`/`isize` are the 64-bit integers. The body of a
`kernel(...)` source starts on line 6."""

from __future__ import annotations

import numpy as np
import pytest

import oxide
import oxide.tile
from tests.unit.frontends.tile.helpers import check, ir_text, kernel, reject

GEN = "<const B: i32>"
PARAMS = "z: &mut Tensor<f32, {[B]}>, x: &Tensor<f32, {[-1]}>, n: i32"
INST = {"k": [["64"]]}


def test_annotations_of_shapes_partitions_views_and_tuples_are_accepted():
    text = ir_text(kernel(
        "let s: Shape<{[B]}> = const_shape![B];\n"
        "let p: Partition<f32, {[B]}> = x.partition(s);\n"
        "let pm: PartitionMut<'static, f32, {[B]}> = z.partition_mut(s);\n"
        "let v: &Tensor<f32, {[-1]}> = x;\n"
        "let w: Tensor<f32, {[B]}> = z;\n"
        "let ids: (i32, i32, i32) = get_tile_block_id();\n"
        "pm.store(p.load([ids.0]), [0i32]);", params=PARAMS, generics=GEN), INST)
    check(text, r'"tile.make_partition"\(%arg1\).*-> !tile.partition<f32, array<i64: 64>>',
          r'"tile.make_partition_mut"\(%arg0\)', r'"tile.load"', r'"tile.store"')


def test_pointer_tile_and_token_annotations_in_an_unsafe_kernel():
    text = ir_text(kernel(
        "let base: PointerTile<*mut i32, { [] }> = pointer_to_tile(p);\n"
        "let one: PointerTile<*mut i32, { [1] }> = base.reshape(const_shape![1]);\n"
        "let ptrs: PointerTile<*mut i32, { [8] }> = one.broadcast(const_shape![8]);\n"
        "let t: Token = new_token_unordered();\n"
        "let r: (Tile<i32, {[8]}>, Token) = atomic_rmw_tko(ptrs, constant(1i32, const_shape![8]), atomic::Add, "
        "ordering::Relaxed, scope::Device, constant(true, const_shape![8]), t);",
        params="p: *mut i32", unsafe=True))
    check(text, r'"tile.atomic_rmw"')


@pytest.mark.parametrize("stmt, found, said", [
    ("let s: Shape<{[32]}> = const_shape![B];", "Shape<{[64]}>", "Shape<{[32]}>"),
    ("let p: Partition<f16, {[B]}> = x.partition(const_shape![B]);", "Partition<f32, {[64]}>",
     "Partition<f16, {[64]}>"),
    ("let p: PartitionMut<f32, {[B]}> = x.partition(const_shape![B]);", "Partition<f32, {[64]}>",
     "PartitionMut<f32, {[64]}>"),
    ("let p: Partition<f32, {[B]}> = z.partition_mut(const_shape![B]);", "PartitionMut<f32, {[64]}>",
     "Partition<f32, {[64]}>"),
    ("let v: Tensor<f32, {[B]}> = x;", "&Tensor<f32, {[-1]}>", "Tensor<f32, {[64]}>"),
    ("let t: Token = constant(0.0f32, const_shape![B]);", "Tile<f32, {[64]}>", "Token"),
    ("let a: Shape<{[B]}> = x.partition(const_shape![B]);", "Partition<f32, {[64]}>", "Shape<{[64]}>"),
])
def test_an_annotation_that_does_not_match_names_both_types(stmt, found, said):
    reject(kernel(stmt, params=PARAMS, generics=GEN), 6, 8,
           f"mismatched types: the value is `{found}`, but the `let` annotation says `{said}`", INST)


def test_malformed_annotations_are_located_errors():
    reject(kernel("let q: PointerTile<f32, {[1]}> = x;", params=PARAMS, generics=GEN), 6, 8,
           "`PointerTile` takes a pointer type and a shape", INST)
    reject(kernel("let s: Shape<{[1]}, {[2]}> = const_shape![1];", params=PARAMS, generics=GEN), 6, 8,
           "`Shape` takes one shape", INST)
    reject(kernel("let t: Token<f32> = new_token_unordered();", params=PARAMS, generics=GEN), 6, 8,
           "`Token` takes no generic arguments", INST)


def test_usize_is_the_64_bit_unsigned_integer():
    text = ir_text(kernel("let a: usize = 3usize;\nlet b = n as usize;\nlet c: isize = -2;\n"
                          "let d = (a + b) as i32 + c as i32;\nz.store(constant(0.0f32, const_shape![B]));",
                          params=PARAMS, generics=GEN), INST)
    check(text, r"arith.extsi %arg2 : i32 to i64", r"arith.addi .* : i64", r"arith.trunci .* : i64 to i32")
    reject(kernel("let a: i32 = 1usize;", params=PARAMS, generics=GEN), 6, 14,
           "mismatched types: the value is `u64`, expected `i32`", INST)


def test_step_by_takes_a_usize_step_for_an_i32_range():
    text = ir_text(kernel("let mut acc = constant(0.0f32, const_shape![B]);\n"
                          "for i in (0i32..n).step_by((n / 4i32) as usize) { acc = acc + x.partition(const_shape![B])"
                          ".load([i]); }\nz.store(acc);", params=PARAMS, generics=GEN), INST)
    check(text, r"arith.extsi", r"arith.trunci .* : i64 to i32", r"scf.for .* : i32")


GRID_STRIDE = """#[cutile::module]
mod m {
    use cutile::core::*;
    #[cutile::entry()]
    fn strided<const B: i32>(z: &mut Tensor<f32, {[1, B]}>, x: &Tensor<f32, {[-1, -1]}>, rows: i32) {
        let ids: (i32, i32, i32) = get_tile_block_id();
        let blocks: (i32, i32, i32) = get_num_tile_blocks();
        let s: Shape<{[1, B]}> = const_shape![1, B];
        let p: Partition<f32, {[1, B]}> = x.partition(s);
        let pm: PartitionMut<f32, {[1, B]}> = z.partition_mut(s);
        let mut acc: Tile<f32, {[1, B]}> = constant(0.0f32, s);
        for r in (ids.0..rows).step_by(blocks.0 as usize) {
            acc = acc + p.load([r, 0i32]);
        }
        pm.store(acc, [0i32, 0i32]);
    }
}
"""


def test_annotated_grid_stride_kernel_on_the_emulator_matches_numpy(tmp_path):
    src = tmp_path / "strided.rs"
    src.write_text(GRID_STRIDE)
    mod = oxide.load(src, target="cpu", instances={"strided": [["16"]]})
    x = np.random.default_rng(1).standard_normal((11, 16)).astype(np.float32)
    z = np.zeros((4, 16), np.float32)
    mod.strided_16(oxide.tile.partition(z, (1, 16)), x, 11)
    expected = np.stack([x[b::4].sum(0) for b in range(4)])
    np.testing.assert_allclose(z, expected, rtol=1e-6)
