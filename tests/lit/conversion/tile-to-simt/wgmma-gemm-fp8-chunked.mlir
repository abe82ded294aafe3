// fp8 128x256x128 tiles on sm_90a: promotion with column chunks (docs/tile-hopper.md, "fp8 at 128 x 256"). The
// two consumer warpgroups each hold 128 f32 totals, so a full-width partial sum (128 more, twice for the double
// buffer) does not fit: each stage's MMAs are issued in four chunks of 64 columns (m64n64k32, four K steps
// each), alternating between two 32-register partial sums; after each chunk's commit the previous chunk
// completes (wait 1) and is added into its columns of the totals; the next step's first chunk's wait completes
// a step, whose stage is then released. The loop carries 128 + 2 x 32 = 192 registers.
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_90a})' | FileCheck %s

// The consumers take 232 registers by setmaxnreg, which ptxas honours only with one block per SM declared.
// CHECK-LABEL: gpu.func @gemm
// CHECK-SAME: simt.launch_bounds = array<i32: 384, 1>
// CHECK-SAME: tile.warps = 8
// The loop is rotated by one chunk: step 0's first chunk before it (when there are steps)...
// CHECK: scf.if {{.*}} -> (f32
// CHECK: "simt.mbarrier_wait_parity"
// CHECK: "simt.wgmma_mma_async"({{.*}}) {accumulator = "f32", input = "e4m3", k = 32 : i64, m = 64 : i64, n = 64 : i64, negate_a = false, negate_b = false, scale_d = "overwrite", transpose_a = false, transpose_b = false}
// CHECK-COUNT-3: scale_d = "accumulate"
// CHECK-NEXT: "simt.wgmma_commit_group"
// CHECK-NOT: "simt.wgmma_wait_group"
// CHECK: } else {
// ... each iteration the rest of its step (its stage has landed: no wait), each chunk adding the one before ...
// CHECK: scf.for {{.*}} -> (f32
// CHECK-SAME: f32, f32) : i32 {
// CHECK-NOT: "simt.mbarrier_wait_parity"
// CHECK: scale_d = "overwrite"
// CHECK-COUNT-3: scale_d = "accumulate"
// CHECK-NEXT: "simt.wgmma_commit_group"
// CHECK-NEXT: "simt.wgmma_wait_group"() {pending = 1 : i64}
// CHECK: arith.addf
// CHECK-NOT: "simt.mbarrier_wait_parity"
// CHECK: scale_d = "overwrite"
// CHECK-COUNT-3: scale_d = "accumulate"
// CHECK: "simt.wgmma_wait_group"() {pending = 1 : i64}
// CHECK: arith.addf
// CHECK-NOT: "simt.mbarrier_wait_parity"
// CHECK: scale_d = "overwrite"
// CHECK-COUNT-3: scale_d = "accumulate"
// CHECK: "simt.wgmma_wait_group"() {pending = 1 : i64}
// CHECK: arith.addf
// ... then the next step's first chunk, whose wait completes this step: its last chunk is added, its stage released.
// CHECK: "simt.mbarrier_wait_parity"
// CHECK: scale_d = "overwrite"
// CHECK-COUNT-3: scale_d = "accumulate"
// CHECK: "simt.wgmma_wait_group"() {pending = 1 : i64}
// CHECK: arith.addf
// CHECK: "simt.mbarrier_arrive"
// CHECK-NOT: "simt.wgmma_mma_async"
// CHECK: scf.yield
// The last step's other three chunks follow the loop; a wait in both branches (ptxas cannot tell that nothing
// is in flight without steps).
// CHECK: scf.if {{.*}} -> (f32
// CHECK-COUNT-3: scale_d = "overwrite"
// CHECK-COUNT-3: scale_d = "accumulate"
// CHECK-NOT: "simt.wgmma_mma_async"
// CHECK: "simt.wgmma_wait_group"() {pending = 0 : i64}
// CHECK: arith.addf
// CHECK: "simt.mbarrier_arrive"
// CHECK: } else {
// CHECK-NEXT: "simt.wgmma_wait_group"() {pending = 0 : i64}

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemm(%c: !tile.view_mut<f32, array<i64: 128, 256>>, %a: !tile.view<f8E4M3FN, array<i64: -1, -1>>, %b: !tile.view<f8E4M3FN, array<i64: -1, -1>>) kernel attributes {tile.warps = 4 : i32} {
      %bm = "tile.block_id"() {axis = "x"} : () -> i32
      %bn = "tile.block_id"() {axis = "y"} : () -> i32
      %pa = "tile.make_partition"(%a) : (!tile.view<f8E4M3FN, array<i64: -1, -1>>) -> !tile.partition<f8E4M3FN, array<i64: 128, 128>>
      %pb = "tile.make_partition"(%b) : (!tile.view<f8E4M3FN, array<i64: -1, -1>>) -> !tile.partition<f8E4M3FN, array<i64: 128, 256>>
      %nk = "tile.num_tiles"(%pa) {axis = 1 : i64} : (!tile.partition<f8E4M3FN, array<i64: 128, 128>>) -> i32
      %zero = arith.constant dense<0.0> : tensor<128x256xf32>
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%acc0 = %zero) -> (tensor<128x256xf32>) : i32 {
        %ta = "tile.load"(%pa, %bm, %k) : (!tile.partition<f8E4M3FN, array<i64: 128, 128>>, i32, i32) -> tensor<128x128xf8E4M3FN>
        %tb = "tile.load"(%pb, %k, %bn) : (!tile.partition<f8E4M3FN, array<i64: 128, 256>>, i32, i32) -> tensor<128x256xf8E4M3FN>
        %r = "tile.mma"(%ta, %tb, %acc0) : (tensor<128x128xf8E4M3FN>, tensor<128x256xf8E4M3FN>, tensor<128x256xf32>) -> tensor<128x256xf32>
        scf.yield %r : tensor<128x256xf32>
      }
      "tile.store_own"(%c, %acc) : (!tile.view_mut<f32, array<i64: 128, 256>>, tensor<128x256xf32>) -> ()
      gpu.return
    }
  }
}
