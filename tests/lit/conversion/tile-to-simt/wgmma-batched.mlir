// A batched GEMM on sm_90a (docs/tile-hopper.md, "Batched GEMM"; examples/tile/batch_matmul.rs): rank-3 views,
// [1, 64, 64] tiles loaded at [batch, m, k] and [batch, k, n] and reshaped to 2-D around the mma, the accumulator
// reshaped to [1, 64, 64] for the store. The loop takes TMA + wgmma: the tensor maps are rank 3 with boxes
// [1, rows, width] (`tile.tma`), every copy names the batch as its outermost coordinate (k, row, batch for A;
// column, k, batch for B: three coordinates), and the TMA store of the epilogue column, row, batch. The persistent walk divides the
// virtual tile index by the tiles of one batch (batch x tile rows x tile columns). The K-major B entry's map of B
// is `transposed` (the runtime swaps its last two dimensions); the mma.sync sibling keeps the plain ABI. On sm_80
// the kernel keeps mma.sync.
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_90a})' | FileCheck %s
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_90a specialize=off})' | FileCheck %s --check-prefix=INLINE
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_80})' | FileCheck %s --check-prefix=SM80

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // CHECK-LABEL: gpu.func @bmm
    // CHECK-SAME: !simt.tensor_map, %{{.*}}: !simt.tensor_map, %{{.*}}: !simt.tensor_map) kernel
    // CHECK-SAME: tile.tma = [{box = array<i64: 1, 64, 64>, param = 1 : i64, swizzle = "128B"}, {box = array<i64: 1, 64, 64>, param = 2 : i64, swizzle = "128B"}, {box = array<i64: 1, 64, 32>, param = 0 : i64, swizzle = "128B"}]
    // CHECK-SAME: tile.variants = [{entry = "bmm", tma_params = array<i64: 1, 2, 0>}, {entry = "bmm$kmajor_b", tma_params = array<i64: 1, 2, 0>}, {entry = "bmm$mma_sync", tma_params = array<i64>}]
    // CHECK: scf.if
    // CHECK: scf.for
    // CHECK: arith.divui
    // CHECK: arith.remui
    // CHECK: "simt.wgmma_mma_async"
    // CHECK: "simt.tma_store"({{.*}}) : (!simt.tensor_map, !simt.ptr<f32, 3 : i64>, i32, i32, i32)
    // CHECK: } else {
    // CHECK: scf.for
    // CHECK: "simt.tma_load"({{.*}}) {operandSegmentSizes = array<i32: 1, 1, 3, 1, 0>}
    // CHECK: "simt.tma_load"({{.*}}) {operandSegmentSizes = array<i32: 1, 1, 3, 1, 0>}
    // CHECK-LABEL: gpu.func @bmm$kmajor_b
    // CHECK-SAME: {box = array<i64: 1, 64, 64>, param = 2 : i64, swizzle = "128B", transposed}
    // CHECK: transpose_b = false
    // CHECK-LABEL: gpu.func @bmm$mma_sync
    // CHECK-NOT: tensor_map
    // CHECK: nvvm.mma.sync
    // INLINE-LABEL: gpu.func @bmm
    // INLINE: "simt.tma_load"({{.*}}) {operandSegmentSizes = array<i32: 1, 1, 3, 1, 0>}
    // INLINE: "simt.wgmma_mma_async"
    // SM80-LABEL: gpu.func @bmm
    // SM80-NOT: tensor_map
    // SM80: nvvm.mma.sync
    // SM80-NOT: wgmma
    // SM80-NOT: gpu.func
    gpu.func @bmm(%c: !tile.view_mut<f32, array<i64: 1, 64, 64>>, %a: !tile.view<bf16, array<i64: -1, -1, -1>>, %b: !tile.view<bf16, array<i64: -1, -1, -1>>) kernel attributes {tile.warps = 4 : i32} {
      %batch = "tile.block_id"() {axis = "x"} : () -> i32
      %bm = "tile.block_id"() {axis = "y"} : () -> i32
      %bn = "tile.block_id"() {axis = "z"} : () -> i32
      %pa = "tile.make_partition"(%a) : (!tile.view<bf16, array<i64: -1, -1, -1>>) -> !tile.partition<bf16, array<i64: 1, 64, 64>>
      %pb = "tile.make_partition"(%b) : (!tile.view<bf16, array<i64: -1, -1, -1>>) -> !tile.partition<bf16, array<i64: 1, 64, 64>>
      %zero = arith.constant dense<0.0> : tensor<64x64xf32>
      %nk = "tile.num_tiles"(%pa) {axis = 2 : i64} : (!tile.partition<bf16, array<i64: 1, 64, 64>>) -> i32
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%sum = %zero) -> (tensor<64x64xf32>) : i32 {
        %ta = "tile.load"(%pa, %batch, %bm, %k) : (!tile.partition<bf16, array<i64: 1, 64, 64>>, i32, i32, i32) -> tensor<1x64x64xbf16>
        %ra = "tile.reshape"(%ta) : (tensor<1x64x64xbf16>) -> tensor<64x64xbf16>
        %tb = "tile.load"(%pb, %batch, %k, %bn) : (!tile.partition<bf16, array<i64: 1, 64, 64>>, i32, i32, i32) -> tensor<1x64x64xbf16>
        %rb = "tile.reshape"(%tb) : (tensor<1x64x64xbf16>) -> tensor<64x64xbf16>
        %next = "tile.mma"(%ra, %rb, %sum) : (tensor<64x64xbf16>, tensor<64x64xbf16>, tensor<64x64xf32>) -> tensor<64x64xf32>
        scf.yield %next : tensor<64x64xf32>
      }
      %out = "tile.reshape"(%acc) : (tensor<64x64xf32>) -> tensor<1x64x64xf32>
      "tile.store_own"(%c, %out) : (!tile.view_mut<f32, array<i64: 1, 64, 64>>, tensor<1x64x64xf32>) -> ()
      gpu.return
    }
  }
}
