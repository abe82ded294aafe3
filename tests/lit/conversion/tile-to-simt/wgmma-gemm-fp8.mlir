// fp8 operands of the GEMM K loop on sm_90a (docs/tile-hopper.md, "Precisions"): e4m3 64x64x128 tiles. wgmma
// reads fp8 only K-major, so the kernel's own entry is the K-major B one (B's map `transposed`, boxes of one
// 128-byte swizzle row = 128 elements, a ring of bytes, wgmma k32 without the transpose bit, 4 steps per stage,
// the output's map for the TMA-store epilogue); the mma.sync sibling (a row-major B) and sm_80 load the fp8 tiles
// as bytes and convert them to f16 (an exact f16 multiply by 256 for e4m3) for the f16 mma.sync.
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_90a})' | FileCheck %s
// RUN: %oxide-opt %s --pass-pipeline='builtin.module(convert-tile-to-simt{chip=sm_80})' | FileCheck %s --check-prefix=SM80

// CHECK-LABEL: gpu.func @gemm
// CHECK-SAME: tile.tma = [{box = array<i64: 64, 128>, param = 1 : i64, swizzle = "128B"}, {box = array<i64: 64, 128>, param = 2 : i64, swizzle = "128B", transposed}, {box = array<i64: 64, 32>, param = 0 : i64, swizzle = "128B"}]
// CHECK-SAME: tile.variants = [{entry = "gemm", tma_params = array<i64: 1, 2, 0>}, {entry = "gemm$mma_sync", tma_params = array<i64>}]
// CHECK: "simt.dynamic_shared"({{.*}}) {align = 1024 : i64} : (index) -> !simt.ptr<i8, 3 : i64>
// CHECK: "simt.wgmma_mma_async"({{.*}}) {accumulator = "f32", input = "e4m3", k = 32 : i64, m = 64 : i64, n = 64 : i64, negate_a = false, negate_b = false, scale_d = "accumulate", transpose_a = false, transpose_b = false}
// CHECK-COUNT-3: "simt.wgmma_mma_async"
// CHECK-LABEL: gpu.func @gemm$mma_sync
// CHECK: "simt.ptr_load"({{.*}}) : (!simt.ptr<vector<4xi8>, 1 : i64>) -> vector<4xi8>
// CHECK: arith.mulf {{.*}} : f16
// CHECK: nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>
// SM80-LABEL: gpu.func @gemm
// SM80-NOT: wgmma
// SM80: "simt.ptr_load"({{.*}}) : (!simt.ptr<vector<4xi8>, 1 : i64>) -> vector<4xi8>
// SM80: arith.bitcast {{.*}} : i8 to f8E4M3FN
// SM80: arith.mulf {{.*}} : f16
// SM80: nvvm.mma.sync {{.*}}shape = #nvvm.shape<m = 16, n = 8, k = 16>

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
