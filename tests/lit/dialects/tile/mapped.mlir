// Mapped partitions (MappedPartitionMut): the type and the four ops parse, verify and print.
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(oxide-verify)' | FileCheck %s

// CHECK-LABEL: func.func @persistent(
// CHECK-SAME: !tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 0>>
// CHECK: "tile.mapped_work"
// CHECK: "tile.mapped_item_tiles"
// CHECK: "tile.mapped_index"({{.*}}) {axis = 0
// CHECK: "tile.mapped_index"({{.*}}) {axis = 1
// CHECK: "tile.mapped_store"
func.func @persistent(%z: !tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 0>>, %item: i32, %t: i32) {
  %w = "tile.mapped_work"(%z) : (!tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 0>>) -> i32
  %n = "tile.mapped_item_tiles"(%z, %item) : (!tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 0>>, i32) -> i32
  %i = "tile.mapped_index"(%z, %item, %t) {axis = 0} : (!tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 0>>, i32, i32) -> i32
  %j = "tile.mapped_index"(%z, %item, %t) {axis = 1} : (!tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 0>>, i32, i32) -> i32
  %c = arith.constant dense<1.0> : tensor<16x16xf32>
  "tile.mapped_store"(%z, %c, %i, %j) : (!tile.mapped_mut<f32, array<i64: 16, 16>, array<i64: 4, 0>>, tensor<16x16xf32>, i32, i32) -> ()
  return
}
