// convert-tile-to-simt on a vector add: the contract's ABI (pointer, extents, strides per view), the launch
// block in the kernel's contract, one uniform fast-path test per access (whole tile inside, innermost stride 1,
// 16-byte aligned) choosing vector loads/stores, here branched on per run; at the edge one masked access per run
// of 4 (no per-element branch).
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt)' | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @add(
    // CHECK-SAME: %[[Z:arg0]]: !simt.ptr<f32, 1 : i64> {llvm.noalias}, %arg1: i64, %arg2: i64, %[[X:arg3]]: !simt.ptr<f32, 1 : i64> {llvm.noalias, llvm.readonly}, %arg4: i64, %arg5: i64, %arg6: !simt.ptr<f32, 1 : i64> {llvm.noalias, llvm.readonly}, %arg7: i64, %arg8: i64)
    // CHECK-SAME: simt.contract = {block = array<i32: 128, 1, 1>, domain = 1 : i32}, tile.warps = 4 : i32
    gpu.func @add(%z: !tile.view_mut<f32, array<i64: 1024>>, %x: !tile.view<f32, array<i64: -1>>, %y: !tile.view<f32, array<i64: -1>>) kernel attributes {tile.warps = 4 : i32} {
      %bid = "tile.block_id"() {axis = "x"} : () -> i32
      %px = "tile.make_partition"(%x) : (!tile.view<f32, array<i64: -1>>) -> !tile.partition<f32, array<i64: 1024>>
      %py = "tile.make_partition"(%y) : (!tile.view<f32, array<i64: -1>>) -> !tile.partition<f32, array<i64: 1024>>
      // 1024 elements over 128 threads: 8 per thread, as two runs of 4. x and y meet in the sum that is stored, so
      // each run loads in its own branch on the tile's one test (run_sinking.py), and the second runs' loads and
      // sum move down below the first run's store.
      // CHECK: "simt.ptr_to_int"(%[[X]])
      // CHECK: "simt.ptr_to_int"(%[[Z]])
      // CHECK: %[[XPART:.*]]:4 = scf.if %[[XWHOLE:.*]] -> (f32, f32, f32, f32) {
      // CHECK: "simt.ptr_load"(%{{.*}}) : (!simt.ptr<vector<4xf32>, 1 : i64>) -> vector<4xf32>
      // At an edge, each run of 4 wholly inside the tensor still loads as a vector; the others as a masked load of
      // their first `count` elements, count = extent - index (0 when the run starts outside).
      // CHECK: } else {
      // CHECK: %[[LEFT:.*]] = arith.subi %arg4, %{{.*}} : i64
      // CHECK: %[[COUNT:.*]] = arith.select %{{.*}}, %[[LEFT]], %c0_i64 : i64
      // CHECK: scf.if %{{.*}} -> (vector<4xf32>) {
      // CHECK: "simt.ptr_load"(%{{.*}}) : (!simt.ptr<vector<4xf32>, 1 : i64>) -> vector<4xf32>
      // CHECK: } else {
      // CHECK: "simt.masked_load"(%{{.*}}, %arg5, %[[COUNT]]) : (!simt.ptr<f32, 1 : i64>, i64, i64) -> vector<4xf32>
      // CHECK-NOT: scf.if %{{.*}} -> (f32) {
      // CHECK: %[[YPART:.*]]:4 = scf.if %{{.*}} -> (f32, f32, f32, f32) {
      // CHECK-COUNT-4: arith.addf %[[XPART]]#{{[0-3]}}, %[[YPART]]#{{[0-3]}} : f32
      // CHECK: scf.if
      // CHECK: "simt.ptr_store"(%{{.*}}, %{{.*}}) : (!simt.ptr<vector<4xf32>, 1 : i64>, vector<4xf32>) -> ()
      // CHECK: } else {
      // CHECK: "simt.masked_store"(%{{.*}}, %arg2, %{{.*}}, %{{.*}}) : (!simt.ptr<f32, 1 : i64>, i64, i64, vector<4xf32>) -> ()
      // CHECK: scf.if %[[XWHOLE]] -> (f32, f32, f32, f32) {
      // CHECK: "simt.ptr_load"
      // CHECK-COUNT-4: arith.addf
      // CHECK: "simt.ptr_store"
      %a = "tile.load"(%px, %bid) : (!tile.partition<f32, array<i64: 1024>>, i32) -> tensor<1024xf32>
      %b = "tile.load"(%py, %bid) : (!tile.partition<f32, array<i64: 1024>>, i32) -> tensor<1024xf32>
      %c = arith.addf %a, %b : tensor<1024xf32>
      "tile.store_own"(%z, %c) : (!tile.view_mut<f32, array<i64: 1024>>, tensor<1024xf32>) -> ()
      gpu.return
    }

    // A partition_mut store checks the index against the block's own sub-grid (64 / 16 = 4 tiles) and traps.
    // CHECK-LABEL: gpu.func @sub_store(
    gpu.func @sub_store(%z: !tile.view_mut<f32, array<i64: 64>>, %i: i32) kernel attributes {tile.warps = 1 : i32} {
      %q = "tile.make_partition_mut"(%z) : (!tile.view_mut<f32, array<i64: 64>>) -> !tile.partition_mut<f32, array<i64: 16>>
      %one = arith.constant 1.0 : f32
      %t = "tile.splat"(%one) : (f32) -> tensor<16xf32>
      // CHECK: %[[BAD:.*]] = arith.cmpi uge, %{{.*}}, %c4_i32 : i32
      // CHECK: scf.if %[[BAD]] {
      // CHECK-NEXT: "simt.trap"()
      "tile.store"(%q, %t, %i) : (!tile.partition_mut<f32, array<i64: 16>>, tensor<16xf32>, i32) -> ()
      // A constant index inside the sub-grid needs no check.
      // CHECK-NOT: simt.trap
      %c3 = arith.constant 3 : i32
      "tile.store"(%q, %t, %c3) : (!tile.partition_mut<f32, array<i64: 16>>, tensor<16xf32>, i32) -> ()
      // CHECK: gpu.return
      gpu.return
    }
  }
}
