// A GEMM on a mapped output on sm_90a (docs/tile-hopper.md, "Persistent GEMM on a mapped output";
// examples/tile/persistent_gemm_mixed.rs): the K loop is the body of the `iter_indices()` walk (an item loop from
// the block id by the block count, a tile loop over the item's tiles), and the result is converted and stored at
// the walk's index. The loop takes TMA + wgmma on the specialized pipeline: the consumers (then) and the producer
// (else) each run the walk's two loops around their part of a tile, and the consumers' TMA-store epilogue writes
// the mapped output through its own map (param 0). With `specialize=off` (thread 0's inline ring cannot follow a
// walk) the kernel keeps mma.sync.
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_90a})' | FileCheck %s
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_90a specialize=off})' | FileCheck %s --check-prefix=INLINE

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @pgemm
    // CHECK-SAME: tile.tma = [{box = array<i64: 64, 64>, param = 1 : i64, swizzle = "128B"}, {box = array<i64: 64, 64>, param = 2 : i64, swizzle = "128B"}, {box = array<i64: 64, 64>, param = 0 : i64, swizzle = "128B"}]
    // CHECK-SAME: tile.variants = [{entry = "pgemm", tma_params = array<i64: 1, 2, 0>}, {entry = "pgemm$kmajor_b", tma_params = array<i64: 1, 2, 0>}, {entry = "pgemm$mma_sync", tma_params = array<i64>}]
    // CHECK: scf.if
    // CHECK: "simt.block_id"
    // CHECK: "simt.grid_dim"
    // CHECK: scf.for {{.*}} iter_args
    // CHECK: scf.for {{.*}} iter_args
    // CHECK: "simt.wgmma_mma_async"
    // CHECK: "simt.tma_store"({{.*}}) : (!simt.tensor_map, !simt.ptr<bf16, 3 : i64>, i32, i32)
    // CHECK: } else {
    // CHECK: scf.for {{.*}} iter_args
    // CHECK: scf.for {{.*}} iter_args
    // CHECK: "simt.tma_load"
    // CHECK-NOT: "simt.tma_store"
    // CHECK-LABEL: gpu.func @pgemm$kmajor_b
    // CHECK: transpose_b = false
    // CHECK-LABEL: gpu.func @pgemm$mma_sync
    // CHECK-NOT: tensor_map
    // CHECK: nvvm.mma.sync
    // INLINE-LABEL: gpu.func @pgemm
    // INLINE-NOT: tensor_map
    // INLINE: nvvm.mma.sync
    // INLINE-NOT: wgmma
    gpu.func @pgemm(%c: !tile.mapped_mut<bf16, array<i64: 64, 64>, array<i64: 2, 1>>, %a: !tile.view<bf16, array<i64: -1, -1>>, %b: !tile.view<bf16, array<i64: -1, -1>>) kernel attributes {tile.warps = 4 : i32} {
      %pa = "tile.make_partition"(%a) : (!tile.view<bf16, array<i64: -1, -1>>) -> !tile.partition<bf16, array<i64: 64, 64>>
      %pb = "tile.make_partition"(%b) : (!tile.view<bf16, array<i64: -1, -1>>) -> !tile.partition<bf16, array<i64: 64, 64>>
      %block = "tile.block_id"() {axis = "x"} : () -> i32
      %blocks = "tile.num_blocks"() {axis = "x"} : () -> i32
      %work = "tile.mapped_work"(%c) : (!tile.mapped_mut<bf16, array<i64: 64, 64>, array<i64: 2, 1>>) -> i32
      scf.for %item = %block to %work step %blocks : i32 {
        %tiles = "tile.mapped_item_tiles"(%c, %item) : (!tile.mapped_mut<bf16, array<i64: 64, 64>, array<i64: 2, 1>>, i32) -> i32
        %c0 = arith.constant 0 : i32
        %c1 = arith.constant 1 : i32
        scf.for %t = %c0 to %tiles step %c1 : i32 {
          %row = "tile.mapped_index"(%c, %item, %t) {axis = 0 : i64} : (!tile.mapped_mut<bf16, array<i64: 64, 64>, array<i64: 2, 1>>, i32, i32) -> i32
          %col = "tile.mapped_index"(%c, %item, %t) {axis = 1 : i64} : (!tile.mapped_mut<bf16, array<i64: 64, 64>, array<i64: 2, 1>>, i32, i32) -> i32
          %zero = arith.constant dense<0.0> : tensor<64x64xf32>
          %nk = "tile.num_tiles"(%pa) {axis = 1 : i64} : (!tile.partition<bf16, array<i64: 64, 64>>) -> i32
          %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%sum = %zero) -> (tensor<64x64xf32>) : i32 {
            %ta = "tile.load"(%pa, %row, %k) : (!tile.partition<bf16, array<i64: 64, 64>>, i32, i32) -> tensor<64x64xbf16>
            %tb = "tile.load"(%pb, %k, %col) : (!tile.partition<bf16, array<i64: 64, 64>>, i32, i32) -> tensor<64x64xbf16>
            %next = "tile.mma"(%ta, %tb, %sum) : (tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
            scf.yield %next : tensor<64x64xf32>
          }
          %out = arith.truncf %acc : tensor<64x64xf32> to tensor<64x64xbf16>
          "tile.mapped_store"(%c, %out, %row, %col) : (!tile.mapped_mut<bf16, array<i64: 64, 64>, array<i64: 2, 1>>, tensor<64x64xbf16>, i32, i32) -> ()
        }
      }
      gpu.return
    }
  }
}
