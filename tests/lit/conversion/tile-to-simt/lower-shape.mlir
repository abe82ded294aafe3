// Shape ops: permute only relabels which thread holds which element; data moves through shared memory when a
// consumer needs another layout: an elementwise op with a differently laid out tile, or a store, which wants
// neighbouring lanes on neighbouring addresses.
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt)' | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // The transposed tile goes through shared memory once, then leaves as coalesced 16-byte stores.
    // CHECK-LABEL: gpu.func @transpose
    // CHECK: "simt.shared_array"() {align = 16 : i64} : () -> !simt.shared<f32, 2048 : i64>
    // CHECK: "simt.sync_threads"
    // CHECK-NOT: "simt.sync_threads"
    // CHECK: "simt.ptr_store"(%{{.*}}, %{{.*}}) : (!simt.ptr<vector<4xf32>, 1 : i64>, vector<4xf32>) -> ()
    // CHECK: gpu.return
    gpu.func @transpose(%z: !tile.view_mut<f32, array<i64: 64, 32>>, %x: !tile.view<f32, array<i64: -1, -1>>) kernel attributes {tile.warps = 4 : i32} {
      %bx = "tile.block_id"() {axis = "x"} : () -> i32
      %by = "tile.block_id"() {axis = "y"} : () -> i32
      %p = "tile.make_partition"(%x) : (!tile.view<f32, array<i64: -1, -1>>) -> !tile.partition<f32, array<i64: 32, 64>>
      %a = "tile.load"(%p, %by, %bx) : (!tile.partition<f32, array<i64: 32, 64>>, i32, i32) -> tensor<32x64xf32>
      %t = "tile.permute"(%a) {perm = array<i64: 1, 0>} : (tensor<32x64xf32>) -> tensor<64x32xf32>
      "tile.store_own"(%z, %t) : (!tile.view_mut<f32, array<i64: 64, 32>>, tensor<64x32xf32>) -> ()
      gpu.return
    }

    // Adding the transpose to a tile loaded in the default layout converts it once through shared memory.
    // CHECK-LABEL: gpu.func @add_transposed
    // CHECK: "simt.shared_array"() {align = 16 : i64} : () -> !simt.shared<f32, 2048 : i64>
    // CHECK-COUNT-16: "simt.ptr_store"(%{{.*}}, %{{.*}}) : (!simt.ptr<f32, 3 : i64>, f32) -> ()
    // CHECK: "simt.sync_threads"
    // CHECK-COUNT-16: "simt.ptr_load"(%{{.*}}) : (!simt.ptr<f32, 3 : i64>) -> f32
    gpu.func @add_transposed(%z: !tile.view_mut<f32, array<i64: 64, 32>>, %x: !tile.view<f32, array<i64: -1, -1>>, %y: !tile.view<f32, array<i64: -1, -1>>) kernel attributes {tile.warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %p = "tile.make_partition"(%x) : (!tile.view<f32, array<i64: -1, -1>>) -> !tile.partition<f32, array<i64: 32, 64>>
      %q = "tile.make_partition"(%y) : (!tile.view<f32, array<i64: -1, -1>>) -> !tile.partition<f32, array<i64: 64, 32>>
      %a = "tile.load"(%p, %c0, %c0) : (!tile.partition<f32, array<i64: 32, 64>>, i32, i32) -> tensor<32x64xf32>
      %b = "tile.load"(%q, %c0, %c0) : (!tile.partition<f32, array<i64: 64, 32>>, i32, i32) -> tensor<64x32xf32>
      %t = "tile.permute"(%a) {perm = array<i64: 1, 0>} : (tensor<32x64xf32>) -> tensor<64x32xf32>
      %r = arith.addf %b, %t : tensor<64x32xf32>
      "tile.store_own"(%z, %r) : (!tile.view_mut<f32, array<i64: 64, 32>>, tensor<64x32xf32>) -> ()
      gpu.return
    }
  }
}
