// Tiles through scf: a loop-carried 32x64 tile is 16 scalars per thread in iter_args; scf.if yields the
// then-branch's layout; scalar ops are re-created as they are.
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt)' | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @rowsum
    gpu.func @rowsum(%z: !tile.view_mut<f32, array<i64: 32>>, %x: !tile.view<f32, array<i64: -1, -1>>, %flag: i1) kernel attributes {tile.warps = 4 : i32} {
      %bid = "tile.block_id"() {axis = "x"} : () -> i32
      %p = "tile.make_partition"(%x) : (!tile.view<f32, array<i64: -1, -1>>) -> !tile.partition<f32, array<i64: 32, 64>>
      // CHECK: %[[N:.*]] = arith.divui
      // CHECK: %[[NT:.*]] = arith.trunci %[[N]] : i64 to i32
      %cols = "tile.num_tiles"(%p) {axis = 1 : i64} : (!tile.partition<f32, array<i64: 32, 64>>) -> i32
      %zero = arith.constant dense<0.0> : tensor<32x64xf32>
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      // CHECK: scf.for %{{.*}} = %{{.*}} to %[[NT]] step %{{.*}} iter_args(
      // CHECK-SAME: -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)
      %acc = scf.for %j = %c0 to %cols step %c1 iter_args(%s = %zero) -> (tensor<32x64xf32>) : i32 {
        %t = "tile.load"(%p, %bid, %j) : (!tile.partition<f32, array<i64: 32, 64>>, i32, i32) -> tensor<32x64xf32>
        // CHECK-COUNT-16: arith.addf
        %n = arith.addf %s, %t : tensor<32x64xf32>
        // CHECK: scf.yield %{{.*}} : f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32{{$}}
        scf.yield %n : tensor<32x64xf32>
      }
      // CHECK: scf.if %{{.*}} -> (f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32) {
      %d = scf.if %flag -> (tensor<32x64xf32>) {
        %two = arith.constant dense<2.0> : tensor<32x64xf32>
        %m = arith.mulf %acc, %two : tensor<32x64xf32>
        scf.yield %m : tensor<32x64xf32>
      } else {
        scf.yield %acc : tensor<32x64xf32>
      }
      %r = "tile.reduce"(%d) {dim = 1 : i64, kind = "sum", unsigned = false} : (tensor<32x64xf32>) -> tensor<32xf32>
      "tile.store_own"(%z, %r) : (!tile.view_mut<f32, array<i64: 32>>, tensor<32xf32>) -> ()
      gpu.return
    }
    // A while loop carries a transposed tile in its relabelled layout: no conversion (no barrier) inside the
    // loop; the store after it converts once, to write coalesced.
    // CHECK-LABEL: gpu.func @while_layout
    // CHECK: scf.while
    // CHECK-NOT: simt.sync_threads
    // CHECK: scf.condition
    // CHECK-NOT: simt.sync_threads
    // CHECK: scf.yield
    // CHECK: "simt.sync_threads"
    gpu.func @while_layout(%z: !tile.view_mut<f32, array<i64: 64, 32>>, %x: !tile.view<f32, array<i64: -1, -1>>, %n: i32) kernel attributes {tile.warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %p = "tile.make_partition"(%x) : (!tile.view<f32, array<i64: -1, -1>>) -> !tile.partition<f32, array<i64: 32, 64>>
      %a = "tile.load"(%p, %c0, %c0) : (!tile.partition<f32, array<i64: 32, 64>>, i32, i32) -> tensor<32x64xf32>
      %t = "tile.permute"(%a) {perm = array<i64: 1, 0>} : (tensor<32x64xf32>) -> tensor<64x32xf32>
      %r:2 = scf.while (%v = %t, %i = %c0) : (tensor<64x32xf32>, i32) -> (tensor<64x32xf32>, i32) {
        %go = arith.cmpi slt, %i, %n : i32
        scf.condition(%go) %v, %i : tensor<64x32xf32>, i32
      } do {
      ^bb0(%w: tensor<64x32xf32>, %k: i32):
        %h = arith.mulf %w, %w : tensor<64x32xf32>
        %k1 = arith.addi %k, %c1 : i32
        scf.yield %h, %k1 : tensor<64x32xf32>, i32
      }
      "tile.store_own"(%z, %r#0) : (!tile.view_mut<f32, array<i64: 64, 32>>, tensor<64x32xf32>) -> ()
      gpu.return
    }
  }
}
