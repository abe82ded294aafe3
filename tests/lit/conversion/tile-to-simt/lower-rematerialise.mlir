// Rematerialisation (tile_to_simt/rematerialise.py): an operand computed elementwise from iotas, splats and
// constants is rebuilt in the layout of the tile it meets instead of being moved there through shared memory.
// Here the transposed tiles keep their layout (a permute only relabels bits) and lead, though the mask is the
// select's first operand; the iota index and mask are rebuilt in it (before, the mask led and each transposed
// tile took a round trip: three barriers), and the one round trip left is the store's (which wants the blocked
// layout). A loaded tile in the index's place is converted as before.
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt)' | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @masked_transpose
    // CHECK-COUNT-1: "simt.sync_threads"
    // CHECK-NOT: "simt.sync_threads"
    // CHECK: gpu.return
    gpu.func @masked_transpose(%z: !tile.view_mut<i32, array<i64: 64, 32>>, %x: !tile.view<i32, array<i64: -1, -1>>, %n: i32) kernel attributes {tile.warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %p = "tile.make_partition"(%x) : (!tile.view<i32, array<i64: -1, -1>>) -> !tile.partition<i32, array<i64: 32, 64>>
      %a = "tile.load"(%p, %c0, %c0) : (!tile.partition<i32, array<i64: 32, 64>>, i32, i32) -> tensor<32x64xi32>
      %t = "tile.permute"(%a) {perm = array<i64: 1, 0>} : (tensor<32x64xi32>) -> tensor<64x32xi32>
      %i = "tile.iota"() : () -> tensor<32xi32>
      %r = "tile.reshape"(%i) : (tensor<32xi32>) -> tensor<1x32xi32>
      %cols = "tile.broadcast"(%r) : (tensor<1x32xi32>) -> tensor<64x32xi32>
      %ns = "tile.splat"(%n) : (i32) -> tensor<64x32xi32>
      %inside = arith.cmpi slt, %cols, %ns : tensor<64x32xi32>
      %u = arith.muli %t, %t : tensor<64x32xi32>
      %s = arith.select %inside, %t, %u : tensor<64x32xi1>, tensor<64x32xi32>
      %k = arith.addi %cols, %ns : tensor<64x32xi32>
      %m = arith.addi %k, %s : tensor<64x32xi32>
      "tile.store_own"(%z, %m) : (!tile.view_mut<i32, array<i64: 64, 32>>, tensor<64x32xi32>) -> ()
      gpu.return
    }

    // A loaded tile instead of the index chain is converted (a second round trip, and a barrier before the
    // scratch is written again).
    // CHECK-LABEL: gpu.func @added_transpose
    // CHECK-COUNT-3: "simt.sync_threads"
    // CHECK: gpu.return
    gpu.func @added_transpose(%z: !tile.view_mut<i32, array<i64: 64, 32>>, %x: !tile.view<i32, array<i64: -1, -1>>, %y: !tile.view<i32, array<i64: -1, -1>>) kernel attributes {tile.warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %p = "tile.make_partition"(%x) : (!tile.view<i32, array<i64: -1, -1>>) -> !tile.partition<i32, array<i64: 32, 64>>
      %q = "tile.make_partition"(%y) : (!tile.view<i32, array<i64: -1, -1>>) -> !tile.partition<i32, array<i64: 64, 32>>
      %a = "tile.load"(%p, %c0, %c0) : (!tile.partition<i32, array<i64: 32, 64>>, i32, i32) -> tensor<32x64xi32>
      %b = "tile.load"(%q, %c0, %c0) : (!tile.partition<i32, array<i64: 64, 32>>, i32, i32) -> tensor<64x32xi32>
      %t = "tile.permute"(%a) {perm = array<i64: 1, 0>} : (tensor<32x64xi32>) -> tensor<64x32xi32>
      %m = arith.addi %t, %b : tensor<64x32xi32>
      "tile.store_own"(%z, %m) : (!tile.view_mut<i32, array<i64: 64, 32>>, tensor<64x32xi32>) -> ()
      gpu.return
    }
  }
}
