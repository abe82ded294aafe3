// Reductions: in-thread, then shuffle.xor across the lanes that share a row, then shared memory across warps;
// the result keeps the source's layout minus the reduced dimension, so broadcasting it back (softmax) is free.
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt)' | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // A 16x64 tile over 4 warps: 8 elements per thread (4 contiguous + 4 more 512 apart), each row within
    // one warp's 16 lanes. Row max: 1 in-thread step, 4 shuffles; no shared memory at all.
    // CHECK-LABEL: gpu.func @softmax
    // CHECK-NOT: simt.shared_array
    // CHECK-COUNT-4: arith.maximumf
    // CHECK-COUNT-4: "simt.shuffle"({{.*}}) {kind = "xor", width = 32 : i64} : (i32, f32, i32) -> f32
    // CHECK-NOT: simt.shared_array
    // CHECK: gpu.return
    gpu.func @softmax(%z: !tile.view_mut<f32, array<i64: 16, 64>>, %x: !tile.view<f32, array<i64: -1, -1>>) kernel attributes {tile.warps = 4 : i32} {
      %bid = "tile.block_id"() {axis = "x"} : () -> i32
      %c0 = arith.constant 0 : i32
      %p = "tile.make_partition"(%x) : (!tile.view<f32, array<i64: -1, -1>>) -> !tile.partition<f32, array<i64: 16, 64>>
      %a = "tile.load"(%p, %bid, %c0) : (!tile.partition<f32, array<i64: 16, 64>>, i32, i32) -> tensor<16x64xf32>
      %m = "tile.reduce"(%a) {dim = 1 : i64, kind = "max", unsigned = false} : (tensor<16x64xf32>) -> tensor<16xf32>
      %m1 = "tile.reshape"(%m) : (tensor<16xf32>) -> tensor<16x1xf32>
      %mb = "tile.broadcast"(%m1) : (tensor<16x1xf32>) -> tensor<16x64xf32>
      %d = arith.subf %a, %mb : tensor<16x64xf32>
      %e = math.exp %d : tensor<16x64xf32>
      %s = "tile.reduce"(%e) {dim = 1 : i64, kind = "sum", unsigned = false} : (tensor<16x64xf32>) -> tensor<16xf32>
      %s1 = "tile.reshape"(%s) : (tensor<16xf32>) -> tensor<16x1xf32>
      %sb = "tile.broadcast"(%s1) : (tensor<16x1xf32>) -> tensor<16x64xf32>
      %r = arith.divf %e, %sb : tensor<16x64xf32>
      "tile.store_own"(%z, %r) : (!tile.view_mut<f32, array<i64: 16, 64>>, tensor<16x64xf32>) -> ()
      gpu.return
    }

    // 1024 elements along the reduced dimension over 4 warps: 7 in-thread steps, 5 shuffles, then one round
    // through shared memory for both warp bits: each warp's first lane writes its total (all its lanes hold
    // it), a barrier, then each lane reads one of the 4 warps' totals and 2 shuffles add them up: 32 words of
    // scratch, one load per thread.
    // CHECK-LABEL: gpu.func @sum1024
    // CHECK: simt.shared_array"() {align = 16 : i64} : () -> !simt.shared<f32, 32 : i64>
    // CHECK-COUNT-5: "simt.shuffle"
    // CHECK: scf.if
    // CHECK: "simt.ptr_store"({{.*}}) : (!simt.ptr<f32, 3 : i64>, f32) -> ()
    // CHECK-NEXT: }
    // CHECK-NEXT: "simt.sync_threads"
    // CHECK: "simt.ptr_load"({{.*}}) : (!simt.ptr<f32, 3 : i64>) -> f32
    // CHECK-NEXT: "simt.shuffle"({{.*}}) {kind = "xor"
    // CHECK-NOT: "simt.ptr_load"({{.*}}) : (!simt.ptr<f32, 3 : i64>)
    // CHECK: "simt.shuffle"({{.*}}) {kind = "xor"
    // CHECK-NOT: "simt.shuffle"
    // CHECK-NOT: "simt.sync_threads"
    // CHECK: "simt.ptr_store"({{.*}}) : (!simt.ptr<f32, 1 : i64>, f32) -> ()
    gpu.func @sum1024(%z: !tile.view_mut<f32, array<i64: 1>>, %x: !tile.view<f32, array<i64: -1>>) kernel attributes {tile.warps = 4 : i32} {
      %c0 = arith.constant 0 : i32
      %p = "tile.make_partition"(%x) : (!tile.view<f32, array<i64: -1>>) -> !tile.partition<f32, array<i64: 1024>>
      %a = "tile.load"(%p, %c0) : (!tile.partition<f32, array<i64: 1024>>, i32) -> tensor<1024xf32>
      %s = "tile.reduce"(%a) {dim = 0 : i64, kind = "sum", unsigned = false} : (tensor<1024xf32>) -> tensor<f32>
      %r = "tile.reshape"(%s) : (tensor<f32>) -> tensor<1xf32>
      "tile.store_own"(%z, %r) : (!tile.view_mut<f32, array<i64: 1>>, tensor<1xf32>) -> ()
      gpu.return
    }
  }
}
