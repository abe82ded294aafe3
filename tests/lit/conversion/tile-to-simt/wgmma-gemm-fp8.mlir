// fp8 operands of the GEMM K loop on sm_90a (docs/tile-hopper.md, "Precisions"): e4m3 64x64x128 tiles. wgmma
// reads fp8 only K-major, so the kernel's own entry is the K-major B one (B's map `transposed`, boxes of one
// 128-byte swizzle row = 128 elements, a ring of bytes, wgmma k32 without the transpose bit, 4 steps per stage);
// there is no mma.sync sibling, and on sm_80 (no fp8 on the mma.sync path yet) fp8 tiles are a located error.
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_90a})' | FileCheck %s
// RUN: not %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_80})' 2>&1 | FileCheck %s --check-prefix=SM80

// CHECK-LABEL: gpu.func @gemm
// CHECK-SAME: tile.tma = [{box = array<i64: 64, 128>, param = 1 : i64, swizzle = "128B"}, {box = array<i64: 64, 128>, param = 2 : i64, swizzle = "128B", transposed}]
// CHECK-SAME: tile.variants = [{entry = "gemm", tma_params = array<i64: 1, 2>}]
// CHECK: "simt.dynamic_shared"({{.*}}) {align = 1024 : i64} : (index) -> !simt.ptr<i8, 3 : i64>
// CHECK: "simt.wgmma_mma_async"({{.*}}) {accumulator = "f32", input = "e4m3", k = 32 : i64, m = 64 : i64, n = 64 : i64, negate_a = false, negate_b = false, scale_d = "accumulate", transpose_a = false, transpose_b = false}
// CHECK-COUNT-3: "simt.wgmma_mma_async"
// CHECK-NOT: gpu.func
// SM80: wgmma-gemm-fp8.mlir:{{[0-9]+}}:15: error: fp8 tiles are lowered only as the operands of a GEMM K loop (load, load, mma) on sm_90a's wgmma path with B K-major; this kernel uses one elsewhere, or targets sm_80

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @gemm(%c: !tile.view_mut<f32, array<i64: 64, 64>>, %a: !tile.view<f8E4M3FN, array<i64: -1, -1>>, %b: !tile.view<f8E4M3FN, array<i64: -1, -1>>) kernel attributes {tile.warps = 4 : i32} {
      %bm = "tile.block_id"() {axis = "x"} : () -> i32
      %bn = "tile.block_id"() {axis = "y"} : () -> i32
      %pa = "tile.make_partition"(%a) : (!tile.view<f8E4M3FN, array<i64: -1, -1>>) -> !tile.partition<f8E4M3FN, array<i64: 64, 128>>
      %pb = "tile.make_partition"(%b) : (!tile.view<f8E4M3FN, array<i64: -1, -1>>) -> !tile.partition<f8E4M3FN, array<i64: 128, 64>>
      %nk = "tile.num_tiles"(%pa) {axis = 1 : i64} : (!tile.partition<f8E4M3FN, array<i64: 64, 128>>) -> i32
      %zero = arith.constant dense<0.0> : tensor<64x64xf32>
      %c0 = arith.constant 0 : i32
      %c1 = arith.constant 1 : i32
      %acc = scf.for %k = %c0 to %nk step %c1 iter_args(%acc0 = %zero) -> (tensor<64x64xf32>) : i32 {
        %ta = "tile.load"(%pa, %bm, %k) : (!tile.partition<f8E4M3FN, array<i64: 64, 128>>, i32, i32) -> tensor<64x128xf8E4M3FN>
        %tb = "tile.load"(%pb, %k, %bn) : (!tile.partition<f8E4M3FN, array<i64: 128, 64>>, i32, i32) -> tensor<128x64xf8E4M3FN>
        %r = "tile.mma"(%ta, %tb, %acc0) : (tensor<64x128xf8E4M3FN>, tensor<128x64xf8E4M3FN>, tensor<64x64xf32>) -> tensor<64x64xf32>
        scf.yield %r : tensor<64x64xf32>
      }
      "tile.store_own"(%c, %acc) : (!tile.view_mut<f32, array<i64: 64, 64>>, tensor<64x64xf32>) -> ()
      gpu.return
    }
  }
}
