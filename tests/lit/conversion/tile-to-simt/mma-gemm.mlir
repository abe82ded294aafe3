// The GEMM case: C[M, N] = A[M, K] @ B[K, N], bf16 in, f32 accumulate, 128x128 tiles, BK = 32, 8 warps. The
// accumulator is carried through the K loop in the mma layout: inside the loop the a/b tiles are staged in
// shared memory (vector stores into the half of a double buffer this iteration's parity picks, one barrier),
// each warp loads fragments with ldmatrix (.x4 for A, .x4.trans for B) and runs its 4x4 fragments x 2 K steps
// = 32 mma.sync, and nothing converts the accumulator (no shared memory traffic and no barrier between the
// mma.sync ops and the loop's yield). A barrier before the loop orders it after earlier readers.
// This is the synchronous staging: on sm_90a a K loop with BK = 32 is not the wgmma path, and the cp.async
// pipeline is for the mma.sync chips (on sm_80 to sm_90 this loop is pipelined: mma-pipeline.mlir).
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_90a})' | FileCheck %s

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @gemm
    gpu.func @gemm(%c: !tile.view_mut<f32, array<i64: 128, 128>>, %a: !tile.view<bf16, array<i64: -1, -1>>, %b: !tile.view<bf16, array<i64: -1, -1>>) kernel attributes {tile.warps = 8 : i32} {
      %bm = "tile.block_id"() {axis = "x"} : () -> i32
      %bn = "tile.block_id"() {axis = "y"} : () -> i32
      %pa = "tile.make_partition"(%a) : (!tile.view<bf16, array<i64: -1, -1>>) -> !tile.partition<bf16, array<i64: 128, 32>>
      %pb = "tile.make_partition"(%b) : (!tile.view<bf16, array<i64: -1, -1>>) -> !tile.partition<bf16, array<i64: 32, 128>>
      %nk = "tile.num_tiles"(%pa) {axis = 1 : i64} : (!tile.partition<bf16, array<i64: 128, 32>>) -> i32
      %zero = arith.constant dense<0.0> : tensor<128x128xf32>
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      // Two staging buffers of 128 x (32 + 8) + 32 x (128 + 8) bf16 each.
      // CHECK: "simt.shared_array"() {align = 16 : i64, tile.mma_staging} : () -> !simt.shared<bf16, 18944 : i64>
      // The accumulator: 128 x 128 / 256 threads = 64 f32 per thread.
      // CHECK: simt.sync_threads
      // CHECK-NEXT: scf.for {{.*}} -> (f32, f32, f32, f32,
      %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%acc0 = %zero) -> (tensor<128x128xf32>) : i32 {
        %ta = "tile.load"(%pa, %bm, %k) : (!tile.partition<bf16, array<i64: 128, 32>>, i32, i32) -> tensor<128x32xbf16>
        %tb = "tile.load"(%pb, %k, %bn) : (!tile.partition<bf16, array<i64: 32, 128>>, i32, i32) -> tensor<32x128xbf16>
        // CHECK: arith.andi
        // CHECK: arith.muli {{.*}}, %c9472_i32
        // CHECK-NOT: simt.sync_threads
        // CHECK: "simt.ptr_store"({{.*}}) : (!simt.ptr<vector<{{[248]}}xbf16>, 3 : i64>, vector<{{[248]}}xbf16>) -> ()
        // CHECK: simt.sync_threads
        // CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16
        // CHECK: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
        // CHECK-COUNT-32: nvvm.mma.sync {{.*}} {layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<col>, multiplicandAPtxType = #nvvm.mma_type<bf16>, multiplicandBPtxType = #nvvm.mma_type<bf16>, shape = #nvvm.shape<m = 16, n = 8, k = 16>} : (i32, i32, f32) -> !llvm.struct<(f32, f32, f32, f32)>
        // CHECK-NOT: simt.sync_threads
        // CHECK-NOT: simt.ptr_load
        // CHECK-NOT: simt.ptr_store
        // CHECK-NOT: nvvm.mma.sync
        // CHECK: scf.yield {{.*}} : f32, f32, f32, f32,
        %r = "tile.mma"(%ta, %tb, %acc0) : (tensor<128x32xbf16>, tensor<32x128xbf16>, tensor<128x128xf32>) -> tensor<128x128xf32>
        scf.yield %r : tensor<128x128xf32>
      }
      "tile.store_own"(%c, %acc) : (!tile.view_mut<f32, array<i64: 128, 128>>, tensor<128x128xf32>) -> ()
      gpu.return
    }
  }
}
