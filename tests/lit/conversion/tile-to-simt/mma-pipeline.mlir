// On the mma.sync chips a GEMM K loop becomes a cp.async pipeline (docs/tile-mma.md): the ring is the launch's
// dynamic shared memory, the prologue copies S - 1 stages, and each K tile waits for its group, passes one
// barrier, copies the tile S - 1 ahead and runs ldmatrix + mma.sync. sm_86 has room for two stages of these
// tiles (wait_group 0), sm_80 for four (wait_group 2).
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_80})' | FileCheck %s --check-prefixes=CHECK,SM80
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_86})' | FileCheck %s --check-prefixes=CHECK,SM86

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // SM80: gpu.func @gemm({{.*}}tile.dynamic_shared = 143360 : i64
    // SM86: gpu.func @gemm({{.*}}tile.dynamic_shared = 71680 : i64
    // CHECK: "simt.dynamic_shared"
    // CHECK: "simt.cp_async"({{.*}}) {bytes = 16 : i64}
    // CHECK: "simt.cp_async_commit_group"
    // CHECK: scf.for {{.*}} -> (f32
    // SM80-NEXT: "simt.cp_async_wait_group"() {pending = 2 : i64}
    // SM86-NEXT: "simt.cp_async_wait_group"() {pending = 0 : i64}
    // CHECK-NEXT: "simt.sync_threads"
    // CHECK: "simt.cp_async"({{.*}}) {bytes = 16 : i64}
    // CHECK: "simt.cp_async_commit_group"
    // CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16
    // CHECK: nvvm.mma.sync
    // CHECK: scf.yield
    // CHECK: "simt.cp_async_wait_group"() {pending = 0 : i64}
    gpu.func @gemm(%c: !tile.view_mut<f32, array<i64: 128, 128>>, %a: !tile.view<bf16, array<i64: -1, -1>>, %b: !tile.view<bf16, array<i64: -1, -1>>) kernel attributes {tile.warps = 4 : i32} {
      %bm = "tile.block_id"() {axis = "x"} : () -> i32
      %bn = "tile.block_id"() {axis = "y"} : () -> i32
      %pa = "tile.make_partition"(%a) : (!tile.view<bf16, array<i64: -1, -1>>) -> !tile.partition<bf16, array<i64: 128, 64>>
      %pb = "tile.make_partition"(%b) : (!tile.view<bf16, array<i64: -1, -1>>) -> !tile.partition<bf16, array<i64: 64, 128>>
      %nk = "tile.num_tiles"(%pa) {axis = 1 : i64} : (!tile.partition<bf16, array<i64: 128, 64>>) -> i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
        %ta = "tile.load"(%pa, %bm, %k) : (!tile.partition<bf16, array<i64: 128, 64>>, i32, i32) -> tensor<128x64xbf16>
        %tb = "tile.load"(%pb, %k, %bn) : (!tile.partition<bf16, array<i64: 64, 128>>, i32, i32) -> tensor<64x128xbf16>
        %r = "tile.mma"(%ta, %tb, %acc0) : (tensor<128x64xbf16>, tensor<64x128xbf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %r : tensor<128x128xf32>
      }
      "tile.store_own"(%c, %acc) : (!tile.view_mut<f32, array<i64: 128, 128>>, tensor<128x128xf32>) -> ()
      gpu.return
    }
  }
}
